"""The book builds offline (README command 1's last step), executing every notebook."""
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_book_builds_offline(tmp_path):
    jb = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run(
        [str(jb), "build", str(ROOT / "book"), "--path-output", str(tmp_path), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    html = tmp_path / "_build" / "html"
    pages = sorted(p.relative_to(html).as_posix() for p in html.rglob("*.html"))
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert f"notebooks/{nb.stem}.html" in pages
        assert f"{nb.name}: Executed notebook" in proc.stdout + proc.stderr
    # Nothing a page needs to display may come from the network.
    external = set()
    for page in html.rglob("*.html"):
        external |= set(re.findall(r'<(?:script|link|img)[^>]*(?:src|href)="(https?://[^"]+)"', page.read_text()))
    assert not external, f"pages load assets from the network: {sorted(external)}"
