"""The cheat sheet on paper: printed to PDF by Chromium, at most two A4 pages.

book/_ext/cheatsheet_pdf.py prints the built cheatsheet.html into cheatsheet.pdf when the
book is built; book/_static/cheatsheet.css holds the print rules. These tests build the
cheat sheet alone (the book's configuration and theme, a table of contents of one page: well
under a minute, where the whole book takes several), or check a book built already with
SIDEBYSIDE_BOOK_HTML=<.../_build/html> (as tests/test_book.py's browser tests do), then count the PDF's
pages and print an overflowing copy to show that the count would catch a sheet too long.

Chromium is Debian's (`apt-get install chromium`): without it these tests fail, unless
SIDEBYSIDE_NO_BROWSER=1 says on purpose that this machine has no browser.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, chromium_or_skip, load_tool, offline_book_config

cheatsheet_pdf = load_tool("cheatsheet_pdf", ROOT / "book" / "_ext" / "cheatsheet_pdf.py")

SHEETS = ("sbs-sheet-pytorch", "sbs-sheet-mxnet")


def build_cheatsheet(out: Path) -> Path:
    """book/cheatsheet.md alone, with the book's configuration and extensions (so also its
    PDF), into ``out``; -W: a warning fails the build."""
    _, config = offline_book_config(out)
    toc = out / "_toc.yml"
    toc.write_text(yaml.safe_dump({"format": "jb-book", "root": "cheatsheet"}))
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jb), "build", str(ROOT / "book"), "--config", str(config),
                           "--toc", str(toc), "--path-output", str(out), "-W", "-n",
                           "--keep-going"], capture_output=True, text=True, timeout=900)
    html = out / "_build" / "html"
    assert proc.returncode == 0 and (html / "cheatsheet.html").exists(), \
        proc.stdout[-4000:] + proc.stderr[-4000:]
    return html


@pytest.fixture(scope="module")
def chromium():
    return chromium_or_skip(cheatsheet_pdf.find_chromium)


@pytest.fixture(scope="module")
def html(chromium, tmp_path_factory):
    given = os.environ.get("SIDEBYSIDE_BOOK_HTML")
    return Path(given) if given else build_cheatsheet(tmp_path_factory.mktemp("cheatsheet"))


def test_the_build_wrote_the_pdf_the_page_links_to(html):
    page = (html / cheatsheet_pdf.PAGE).read_text(encoding="utf-8")
    assert f'href="{cheatsheet_pdf.PDF}"' in page
    assert (html / cheatsheet_pdf.PDF).is_file()
    assert not (html / cheatsheet_pdf._COPY).exists()  # the printed copy is removed
    for sheet in SHEETS:
        assert page.count(sheet) == 1, sheet


def test_the_pdf_is_one_a4_page_a_sheet(html):
    data = (html / cheatsheet_pdf.PDF).read_bytes()
    pages = cheatsheet_pdf.count_pages(data)
    # the second sheet starts a page (cheatsheet.css), so each sheet has at least one
    assert len(SHEETS) <= pages <= 2, f"{pages} pages for {len(SHEETS)} sheets"
    # A4 is 595 x 842 points: every page's MediaBox
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert len(boxes) == pages
    for w, h in boxes:
        assert abs(float(w) - 595.3) < 1.5 and abs(float(h) - 841.9) < 1.5, (w, h)


def test_the_pdf_has_no_links_into_the_build_folder(html):
    data = (html / cheatsheet_pdf.PDF).read_bytes()
    assert b"file://" not in data and b"/URI" not in data


def test_a_sheet_too_long_is_caught(html, chromium, tmp_path):
    """Each row of the first sheet three times over: the count must say more than two
    pages (so the test above can fail)."""
    page = html / cheatsheet_pdf.PAGE
    text = page.read_text(encoding="utf-8")
    body = re.search(r"(<tbody>)(.*?)(</tbody>)", text, re.S)
    assert body and body.group(2).count("<tr") > 40
    longer = text[:body.start(2)] + body.group(2) * 3 + text[body.end(2):]
    copy = page.with_name("_cheatsheet_overflow.html")
    copy.write_text(longer, encoding="utf-8")
    try:
        pages = cheatsheet_pdf.print_to_pdf(copy, tmp_path / "long.pdf", chromium)
    finally:
        copy.unlink()
    assert pages > 2


# ----------------------------------------------------------------- no browser needed
def _pdf(pages: int, count: int | None = None) -> bytes:
    kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(pages))
    objs = [b"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj",
            b"2 0 obj << /Type /Pages /Kids [%s] /Count %d >> endobj"
            % (kids, pages if count is None else count)]
    objs += [b"%d 0 obj << /Type /Page /Parent 2 0 R >> endobj" % (3 + i) for i in range(pages)]
    return b"%PDF-1.4\n" + b"\n".join(objs) + b"\n%%EOF"


@pytest.mark.parametrize("pages", [1, 2, 3])
def test_count_pages_counts_page_objects_not_the_tree(pages):
    assert cheatsheet_pdf.count_pages(_pdf(pages)) == pages


def test_count_pages_refuses_what_it_cannot_read():
    with pytest.raises(ValueError):
        cheatsheet_pdf.count_pages(_pdf(2, count=3))  # objects in a stream it cannot see
    with pytest.raises(ValueError):
        cheatsheet_pdf.count_pages(b"%PDF-1.7\n%%EOF")


def test_the_printed_copy_has_no_hrefs():
    out = cheatsheet_pdf._without_links(
        '<a class="sbs-sec" href="notebooks/02.html#x" title="t">2 §8</a> '
        "<a href='cheatsheet.pdf' download>PDF</a>")
    assert "href" not in out and '<a class="sbs-sec" title="t">2 §8</a>' in out
