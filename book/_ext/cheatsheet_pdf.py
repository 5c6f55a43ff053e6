"""A Sphinx extension for the book: the cheat sheet as a PDF, printed by Chromium.

When the HTML build has finished, the built ``cheatsheet.html`` is printed with the system
Chromium (headless, ``--print-to-pdf``; Debian's ``apt-get install chromium``, nothing is
downloaded) into ``cheatsheet.pdf`` beside it, which the page links to. The page's print
rules (book/_static/cheatsheet.css) make it two A4 pages: a sheet for readers coming from
PyTorch and one for readers coming from MXNet. Chromium prints a copy of the page whose links
have no ``href``: in a PDF they would point into the build folder (``file:///.../notebooks/
...``); the printed sheet names each section (``8 §2``) instead.

No Chromium: the build says so with a warning (the book builds with ``-W``, so it fails),
unless ``SIDEBYSIDE_NO_BROWSER=1`` says on purpose that this machine has no browser — then
a note says the PDF was left out and its link on the page is dead in this build. A build
without the cheat sheet (another table of contents) writes nothing.

Book code, loaded by book/_config.yml (``sphinx: local_extensions``).
tests/test_cheatsheet_print.py builds the page, counts the PDF's pages and checks that an
overflowing sheet would be caught.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from sphinx.util import logging

__all__ = ["PAGE", "PDF", "find_chromium", "print_to_pdf", "count_pages", "setup"]

LOGGER = logging.getLogger(__name__)
PAGE = "cheatsheet.html"
PDF = "cheatsheet.pdf"
_COPY = "_cheatsheet_print.html"  # the page without hrefs, printed and removed


def find_chromium() -> str | None:
    """The browser tools/browser_check.py uses: $SIDEBYSIDE_CHROMIUM, else the first of
    chromium, chromium-browser, google-chrome on the PATH."""
    for name in (os.environ.get("SIDEBYSIDE_CHROMIUM"), "chromium", "chromium-browser",
                 "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


_HREF = re.compile(r"(<a\b[^>]*?)\s+href=(\"[^\"]*\"|'[^']*')", re.I)


def _without_links(page_html: str) -> str:
    return _HREF.sub(r"\1", page_html)


def print_to_pdf(page: Path, pdf: Path, binary: str | None = None, timeout: int = 120) -> int:
    """Print the HTML file ``page`` (its links made plain text) to ``pdf`` with headless
    Chromium, off the network, without the browser's header and footer; returns the number
    of pages (:func:`count_pages`)."""
    binary = binary or find_chromium()
    if binary is None:
        raise FileNotFoundError("chromium not found: apt-get install chromium")
    page, pdf = Path(page), Path(pdf)
    copy = page.with_name(_COPY)  # beside the page: its CSS and scripts are found alike
    copy.write_text(_without_links(page.read_text(encoding="utf-8")), encoding="utf-8")
    try:
        with tempfile.TemporaryDirectory(prefix="sbs-print-") as profile:
            args = [binary, "--headless=new", "--no-sandbox", "--disable-gpu",
                    f"--user-data-dir={profile}", "--no-first-run", "--disable-extensions",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-default-apps", "--mute-audio",
                    "--disable-dev-shm-usage",
                    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, "
                    "EXCLUDE localhost",
                    "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
                    copy.resolve().as_uri()]
            if pdf.exists():
                pdf.unlink()
            proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    finally:
        copy.unlink(missing_ok=True)
    if proc.returncode != 0 or not pdf.exists():
        raise RuntimeError(f"chromium could not print {page.name} (exit {proc.returncode}): "
                           + proc.stderr[-1500:])
    return count_pages(pdf.read_bytes())


_PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![A-Za-z])")
_PAGES_COUNT = re.compile(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)|/Count\s+(\d+)[^>]*?/Type\s*/Pages\b")


def count_pages(data: bytes) -> int:
    """The pages of a PDF as Chromium writes it: its ``/Type /Page`` objects (not the
    ``/Pages`` tree), which must agree with the largest ``/Count`` of a ``/Pages`` node (the
    root's); ``ValueError`` when they do not or when there are none (a PDF whose objects are
    compressed into object streams, which this does not read)."""
    objects = len(_PAGE_OBJECT.findall(data))
    counts = [int(a or b) for a, b in _PAGES_COUNT.findall(data)]
    if not objects or not counts or max(counts) != objects:
        raise ValueError(f"cannot count the pages: {objects} page objects, /Pages counts "
                         f"{counts}")
    return objects


def make_pdf(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    page = Path(app.outdir) / PAGE
    if not page.exists():
        LOGGER.info(f"cheatsheet_pdf: no {PAGE} in this build, no {PDF}")
        return
    binary = find_chromium()
    if binary is None:
        if os.environ.get("SIDEBYSIDE_NO_BROWSER") == "1":
            LOGGER.info(f"cheatsheet_pdf: SKIPPED, {PDF} not written: SIDEBYSIDE_NO_BROWSER=1 "
                        f"(no browser on this machine, by choice); the link to it on "
                        f"{PAGE} is dead in this build")
            return
        LOGGER.warning(f"cheatsheet_pdf: chromium not found, so {PDF} cannot be printed: "
                       "apt-get install chromium, or set SIDEBYSIDE_NO_BROWSER=1 to build "
                       "without it", type="cheatsheet_pdf", subtype="no_browser")
        return
    try:
        pages = print_to_pdf(page, page.with_name(PDF), binary)
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as err:
        LOGGER.warning(f"cheatsheet_pdf: {err}", type="cheatsheet_pdf", subtype="print")
        return
    LOGGER.info(f"cheatsheet_pdf: wrote {PDF} ({pages} A4 pages)")


def setup(app):
    app.connect("build-finished", make_pdf)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
