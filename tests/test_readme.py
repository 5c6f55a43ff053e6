"""The README's claims about this repository that can drift: every row of "When the input is
wrong" names tests that exist, and the layout table names every tool."""
import re

from conftest import ROOT

README = (ROOT / "README.md").read_text()


def bad_input_rows():
    section = README.split("## When the input is wrong", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header, rule, *body = rows
    assert header.startswith("| what the user did |") and set(rule) <= set("|- ")
    return body


def test_every_bad_input_row_names_tests_that_exist():
    rows = bad_input_rows()
    assert len(rows) >= 30
    for row in rows:
        refs = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", row.rsplit("|", 2)[-2])
        assert refs, f"no test named in: {row[:80]}"
        for path, name in refs:
            source = (ROOT / path).read_text()
            assert re.search(rf"^def {name}\(", source, re.M), f"{path}::{name} does not exist"


def test_the_layout_table_names_every_tool():
    tools = sorted(p.name for p in (ROOT / "tools").iterdir()
                   if p.is_file() and not p.name.startswith("."))
    row = next(line for line in README.splitlines() if line.startswith("| `tools/` |"))
    missing = [name for name in tools if f"`{name}`" not in row]
    assert missing == [], f"README's layout table does not mention {missing}"
