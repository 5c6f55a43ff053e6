"""The book builds offline from the stored outputs (README command 1 executes; this test
renders), and every page of it works in a real browser (Chromium), at desktop and phone width.

nbval (pytest's notebook run) already executes every notebook and compares its outputs with
the stored ones, so this build does not execute them a second time: it renders the stored
outputs (``execute_notebooks: "off"``), which is what a reader of the published book sees
after ``make all`` (that build executes the notebooks, with the configuration in book/,
and keeps their outputs in jupyter-cache so that a rebuild re-executes only what changed).
The book is built once for this file: the build's own checks and the browser's read it.

tools/browser_check.py does the browser's work (read its docstring for the ten checks): it runs
once, and each check is reported as its own test. Screenshots of every page at both widths go
to $SIDEBYSIDE_ARTIFACTS (or a temporary folder). Chromium is Debian's (`apt-get install
chromium`; .ci/run installs it): nothing is downloaded. Without it the browser tests fail,
unless SIDEBYSIDE_NO_BROWSER=1 says on purpose that this machine has no browser.
SIDEBYSIDE_BOOK_HTML=<.../_build/html> has them check a book built already.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

from conftest import ROOT, chromium_or_skip, load_tool, offline_book_config

browser_check = load_tool("browser_check")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The HTML book from the stored outputs (no notebook executed), built once with warnings
    as errors (-W -n, --keep-going: every warning is reported, and the pages are still
    written): (the book's configuration, the html folder, the build's exit status, its log)."""
    out = tmp_path_factory.mktemp("book")
    config, test_config = offline_book_config(out)
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run(
        [str(jb), "build", str(ROOT / "book"), "--config", str(test_config),
         "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, timeout=1800)
    return config, out / "_build" / "html", proc.returncode, proc.stdout + proc.stderr


def test_book_builds_offline_from_the_stored_outputs(built):
    published = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert published["execute"]["execute_notebooks"] == "cache"   # what `make all` publishes
    config, html, returncode, log = built
    assert returncode == 0, log[-8000:]
    assert "Executing notebook" not in log
    pages = sorted(p.relative_to(html).as_posix() for p in html.rglob("*.html"))
    for nb_path in sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
            (ROOT / "notebooks" / "deep_dives").glob("*.ipynb")):      # tutorials, deep dives
        page_name = nb_path.relative_to(ROOT).with_suffix(".html").as_posix()
        assert page_name in pages
        # every stored output is on the page: one output block per code cell that has one
        nb = nbformat.read(nb_path, as_version=4)
        hidden = {"remove-output", "remove-cell"}     # jupyter-book leaves these out
        with_output = sum(1 for c in nb.cells if c.cell_type == "code" and c.outputs
                          and not hidden & set(c.metadata.get("tags", [])))
        page = (html / page_name).read_text()
        assert page.count('<div class="cell_output docutils container">') == with_output, \
            nb_path.name
        # each PyTorch cell tagged for the tab view is one synced tab set with its partner
        # (book/_ext/sphinx_assets.py; an unpaired tag fails the build, -W)
        tagged = sum(1 for c in nb.cells if "pytorch" in c.metadata.get("tags", []))
        assert page.count('<div class="sd-tab-set sbs-frameworks docutils">') == tagged, \
            nb_path.name
        assert page.count('data-sync-group="framework"') == 2 * tagged, nb_path.name
    for page in html.rglob("*.html"):
        text = page.read_text()
        # each inline script once (Sphinx 7.4 doubled sphinx-thebe's `const THEBE_JS_URL`,
        # a SyntaxError on every page; book/_ext/sphinx_assets.py drops the repeat)
        inline = re.findall(r"<script>(.*?)</script>", text, re.S)
        assert len(inline) == len(set(inline)), f"{page.name}: an inline script is repeated"
        # no links made from words: linkify (off) turned x.to(dtype) into http://x.to
        assert 'href="http://' not in text, f"{page.name}: " + ", ".join(
            re.findall(r'href="(http://[^"]*)"', text)[:5])
    # every page gets the book's layout fixes (book/_static/sidebyside.css)
    page = (html / "notebooks" / "02_tensor_ops.html").read_text()
    assert "_static/sidebyside.css" in page
    # The header's buttons are plain links: the repository, an issue, Binder (built from
    # environment.yml), all from book/_config.yml's repository.url and only once it is set
    # (book/_ext/sphinx_assets.py; tests/test_sphinx_assets.py checks both ways). No Colab
    # (MXNet 1.9.1 needs Python <= 3.11) and no thebe (a CDN).
    repo = (config["repository"]["url"] or "").rstrip("/")
    buttons = ("btn-source-repository-button", "btn-source-issues-button",
               "dropdown-launch-buttons", "https://mybinder.org/v2/", "/issues/new")
    if repo:
        org_repo = repo.removeprefix("https://github.com/")
        assert f'href="{repo}"' in page
        assert f"{repo}/issues/new?title=" in page
        assert (f"https://mybinder.org/v2/gh/{org_repo}/{config['repository']['branch']}"
                f"?urlpath=lab/tree/book/notebooks/02_tensor_ops.ipynb") in page
    else:
        for page_path in html.rglob("*.html"):
            text = page_path.read_text()
            shown = [b for b in buttons if b in text]
            assert not shown, f"{page_path.name}: {shown} without a repository.url"
    assert "_sources/notebooks/02_tensor_ops.ipynb" in page      # the download button
    assert "colab.research.google.com" not in page
    assert "thebe-launch-button" not in page
    # Nothing a page needs to display may come from the network.
    external = set()
    for page in html.rglob("*.html"):
        external |= set(re.findall(r'<(?:script|link|img)[^>]*(?:src|href)="(https?://[^"]+)"', page.read_text()))
    assert not external, f"pages load assets from the network: {sorted(external)}"


# The pages in a browser ------------------------------------------------------------------

@pytest.fixture(scope="module")
def report(tmp_path_factory, request):
    binary = chromium_or_skip(browser_check.find_chromium)
    given = os.environ.get("SIDEBYSIDE_BOOK_HTML")
    if given:
        html = Path(given)
    else:       # the build above; a warning fails the test above, not the pages' checks
        _, html, _, log = request.getfixturevalue("built")
        assert (html / "index.html").exists(), log[-8000:]
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

