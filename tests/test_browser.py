"""Every page of the built book, opened in a real browser (Chromium), at desktop and phone width.

tools/browser_check.py does the work (read its docstring for the ten checks); this test
builds the book from the stored outputs (as tests/test_book.py does), runs the checker once,
and reports each check as its own test. Screenshots of every page at both widths go to
$SIDEBYSIDE_ARTIFACTS (or a temporary folder).

Chromium is Debian's (`apt-get install chromium`; .ci/run installs it): nothing is downloaded.
Without it these tests fail, unless SIDEBYSIDE_NO_BROWSER=1 says on purpose that this machine
has no browser. SIDEBYSIDE_BOOK_HTML=<.../_build/html> checks a book built already.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, chromium_or_skip, load_tool, offline_book_config

browser_check = load_tool("browser_check")


def build_book_offline(out):
    """The HTML book from the stored outputs (no notebook executed), into ``out``."""
    _, test_config = offline_book_config(out)
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run([str(jb), "build", str(ROOT / "book"), "--config", str(test_config),
                           "--path-output", str(out), "--keep-going"],
                          capture_output=True, text=True, timeout=1800)
    html = out / "_build" / "html"
    assert proc.returncode == 0 and (html / "index.html").exists(), \
        proc.stdout[-4000:] + proc.stderr[-4000:]
    return html


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    binary = chromium_or_skip(browser_check.find_chromium)
    given = os.environ.get("SIDEBYSIDE_BOOK_HTML")
    html = Path(given) if given else build_book_offline(tmp_path_factory.mktemp("book"))
    artifacts = Path(os.environ.get("SIDEBYSIDE_ARTIFACTS")
                     or tmp_path_factory.mktemp("screenshots"))
    return browser_check.check_book(html, artifacts / "screenshots", binary=binary)


CHECKS = {
    "console": "console errors or uncaught exceptions",
    "requests": "failed requests or HTTP errors",
    "offline": "requests that leave the machine",
    "scroll": "pages that scroll sideways",
    "images": "images that did not load",
    "alt": "images without usable alt text",
    "links": "links to hosts that are no real site",
    "search": "searches that found nothing",
    "tabs": "PyTorch/Gluon tab sets that do not switch together",
    "labels": "framework labels left above a tab set, outside it",
}
assert tuple(CHECKS) == browser_check.CHECKS


@pytest.mark.parametrize("check", CHECKS)
def test_book_in_the_browser(report, check):
    problems = report.by_check()[check]
    assert not problems, f"{len(problems)} {CHECKS[check]}:\n" + "\n".join(
        str(p) for p in problems[:30])


def test_every_page_was_opened_at_both_widths(report):
    assert "index.html" in report.pages and "search.html" in report.pages
    assert any(p.startswith("notebooks/") for p in report.pages)
    # a generated report of sidebyside.migrate: its section links (HTML targets) followed
    assert "migrate_report.html" in report.pages
    for page in report.pages:
        for viewport in browser_check.VIEWPORTS:
            facts = report.notes[(page, viewport)]
            assert facts and Path(facts["screenshot"]).stat().st_size > 1000, (page, viewport)


# The classifiers, without a browser ----------------------------------------------------------

@pytest.mark.parametrize("alt, ok", [
    ("", False), ("   ", False), (None, False),
    ("../_images/0a1b2c.png", False), ("loss.png", False), ("_images/x.svg", False),
    ("figures/plot", False),
    ("Figure in section 3. Training of MLP, output of cell 79", True),
    ("Fashion-MNIST samples, PyTorch and Gluon", True),
])
def test_alt_text(alt, ok):
    assert (browser_check.alt_text_problem(alt) is None) == ok


@pytest.mark.parametrize("href, ok", [
    ("http://x.to/", False), ("http://mx.np/", False), ("https://mx.io", False),
    ("http://net.save/", False), ("https://github.com/apache/mxnet", True),
    ("https://mxnet.apache.org/versions/1.9.1/", True), ("https://docs.pytorch.org/docs", True),
    ("https://pytorch.org/", True), ("http://127.0.0.1:8000/x.html", True),
    ("mailto:a@b.c", True), ("#section", True), ("https://notgithub.com/", False),
])
def test_link_hosts(href, ok):
    assert (browser_check.link_host_problem(href) is None) == ok


@pytest.mark.parametrize("parts, ok", [
    # (tag, text) per child node of the paragraph before a tab set, as the page has them
    ([("strong", "PyTorch")], False),                      # MyST's "**PyTorch**" ...
    ([("#text", ""), ("strong", "PyTorch"), ("#text", "")], False),
    ([("strong", "PyTorch"), ("#text", ": the module's flag")], False),
    ([("strong", "MXNet"), ("#text", ": a Module")], False),
    ([("#text", "The arc cosine, "), ("strong", "PyTorch"), ("#text", ":")], False),
    ([("strong", "PyTorch → ONNX → ONNX Runtime"), ("#text", ". Since")], False),
    ([("#text", "A 5×3 array of ones, plus one.")], True),
    ([("#text", "Run it in "), ("strong", "PyTorch"), ("#text", " first.")], True),
    ([("strong", "Note"), ("#text", ": PyTorch")], True), ([], True),
])
def test_framework_labels(parts, ok):
    assert (browser_check.label_problem(parts) is None) == ok


@pytest.mark.parametrize("url, ok", [
    ("http://127.0.0.1:41234/_static/a.js", True), ("http://localhost/x", True),
    ("data:image/png;base64,AAAA", True), ("blob:http://127.0.0.1/abc", True),
    ("https://cdn.jsdelivr.net/npm/thebe", False), ("https://github.com/x", False),
    ("file:///work/book/_build/html/search.html", True),     # the README opens the book so
])
def test_offline_requests(url, ok):
    assert (browser_check.request_problem(url) is None) == ok

