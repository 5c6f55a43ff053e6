"""The book builds offline from the stored outputs (README command 1 executes; this test renders).

nbval (pytest's notebook run) already executes every notebook and compares its outputs with
the stored ones, so this build does not execute them a second time: it renders the stored
outputs (``execute_notebooks: "off"``), which is what a reader of the published book sees
after ``make all`` (that build executes the notebooks, with the configuration in book/,
and keeps their outputs in jupyter-cache so that a rebuild re-executes only what changed).
"""
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import yaml

from conftest import ROOT, offline_book_config


def test_book_builds_offline_from_the_stored_outputs(tmp_path):
    published = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())
    assert published["execute"]["execute_notebooks"] == "cache"   # what `make all` publishes
    config, test_config = offline_book_config(tmp_path)
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run(
        [str(jb), "build", str(ROOT / "book"), "--config", str(test_config),
         "--path-output", str(tmp_path), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, timeout=1800)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "Executing notebook" not in log
    html = tmp_path / "_build" / "html"
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
