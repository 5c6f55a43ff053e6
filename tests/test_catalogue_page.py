"""book/mxnet_api.md ("All of MXNet's API") is what tools/make_catalogue_page.py writes from the
catalogue and the stored run of its checks, and that run is current: every entry's result was
measured for the check it has now, and passed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("make_catalogue_page",
                                              ROOT / "tools" / "make_catalogue_page.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def test_the_page_is_current():
    text, stats = tool.render()
    assert stats["stale"] == 0, "checks changed since the stored run: make catalogue-page"
    assert stats["passing"] == stats["checked"], stats
    assert tool.OUT.read_text(encoding="utf-8") == text, "run make catalogue-page"


def test_every_entry_has_its_row_and_every_result_its_entry():
    from sidebyside.catalogue import index
    from sidebyside.catalogue.render_names import anchor_of

    page = tool.OUT.read_text(encoding="utf-8")
    keys = {e.key for e in index.entries()}
    stored = json.loads(tool.RESULTS.read_text(encoding="utf-8"))["results"]
    assert set(stored) == keys
    for e in index.entries():
        assert f'id="{anchor_of(e)}"' in page, e.key
