"""The README's claims about this repository that can drift: every row of "When the input is
wrong" names tests that exist, the layout table names every tool, and the book intro's
reading order lists every chapter with the time its header states, and the hours it gives
for the whole and for each path are the table's sums."""
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


def test_the_layout_table_names_every_module_of_the_package():
    """Every module and subpackage of src/sidebyside is in the README's layout row and in the
    package docstring (CONTRIBUTING.md: one job per module, listed in both)."""
    import sidebyside

    package = ROOT / "src" / "sidebyside"
    modules = sorted({p.stem for p in package.glob("*.py") if not p.stem.startswith("_")}
                     | {p.name for p in package.iterdir()
                        if p.is_dir() and (p / "__init__.py").exists()})
    row = next(line for line in README.splitlines() if line.startswith("| `src/sidebyside/` |"))
    assert [m for m in modules if f"`{m}`" not in row] == [], "README's layout row"
    doc = sidebyside.__doc__
    assert [m for m in modules if f":mod:`sidebyside.{m}`" not in doc] == [], \
        "src/sidebyside/__init__.py's module list"


CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text()


def test_contributing_names_paths_that_exist():
    """The files and folders CONTRIBUTING.md sends a writer to are there."""
    paths = set(re.findall(r"`((?:src|tests|tools|notebooks|templates|book|examples)/"
                           r"[\w./-]*?)(?:::\w+)?`", CONTRIBUTING))
    paths |= set(re.findall(r"\]\(((?:templates|tools|src)/[\w./-]+)\)", CONTRIBUTING))
    assert len(paths) >= 8
    generic = ("NN_topic", "<name>", "deep_dives/topic")
    missing = [p for p in sorted(paths) if not any(g in p for g in generic)
               and not (ROOT / p.split("::")[0]).exists()]
    assert missing == [], f"CONTRIBUTING.md names paths that do not exist: {missing}"
    assert (ROOT / "templates" / "NN_topic.py").exists()


INTRO = (ROOT / "book" / "intro.md").read_text()


def header_minutes(path):
    """The minutes a notebook's first cell states (`**Time**: about N minutes`)."""
    first_cell = path.read_text().split("\n# %%")[0]
    text = " ".join(line.removeprefix("#").strip() for line in first_cell.splitlines())
    match = re.search(r"\*\*Time\*\*: about (\d+) minutes", text)
    assert match, f"{path.name}: no '**Time**: about N minutes' in the first cell"
    return int(match.group(1))


def intro_rows():
    return re.findall(r"^\| (\d+) \| \[[^\]]+\]\(notebooks/([^)]+)\.ipynb\)[^|]*\| (\d+) min \|$",
                      INTRO, flags=re.M)


def test_the_intro_reading_order_lists_every_chapter_with_its_header_time():
    rows = intro_rows()
    chapters = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
    assert [(int(n), stem) for n, stem, _ in rows] == [(int(p.name[:2]), p.stem) for p in chapters]
    for _, stem, minutes in rows:
        assert int(minutes) == header_minutes(ROOT / "notebooks" / f"{stem}.py"), stem
    total_hours = sum(int(m) for *_, m in rows) / 60
    stated = re.search(r"The chapters take about (\w+) hours", INTRO)
    words = {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11}
    assert stated and abs(words[stated.group(1)] - total_hours) <= 0.5, total_hours
    hours, minutes = divmod(round(total_hours * 60), 60)
    assert f"the table's times add up to {hours} h {minutes} min" in INTRO


def test_the_intro_paths_take_the_hours_it_states():
    """Each reading path ("chapters 1, 2, 3 and the capstone 16 (about 5 hours by the table)")
    takes the stated hours by the table's times, within half an hour."""
    minutes = {int(n): int(m) for n, _, m in intro_rows()}
    text = " ".join(INTRO.split())
    paths = re.findall(r"chapters ([\d, –]+?)(?: and the capstone (\d+))? "
                       r"\(about (\d+) hours by the table\)", text)
    assert len(paths) == 2, paths
    for chapters, capstone, hours in paths:
        numbers = []
        for part in re.split(r",\s*|\s+and\s+", chapters.strip(" ,")):
            first, _, last = part.partition("–")
            numbers += range(int(first), int(last or first) + 1)
        numbers += [int(capstone)] if capstone else []
        total = sum(minutes[n] for n in numbers) / 60
        assert abs(total - int(hours)) <= 0.5, (chapters, capstone, total)


def test_the_tools_section_states_each_commands_help_and_exit_codes():
    """README's "Convert your own models and scripts": each command's exit codes are the ones
    its --help prints, and the console scripts it names are pyproject.toml's."""
    import contextlib
    import io
    import tomllib

    from sidebyside.migrate import cli as migrate_cli
    from sidebyside.mx2torch import cli as mx2torch_cli

    section = README.split("## Convert your own models and scripts", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1): m.group(2) for m in re.finditer(
        r"^\| `(\w+)` \(= `python -m [\w.]+`\) \|.*\| ([^|]+) \|$", section, re.M)}
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    mains = {"mx2torch": mx2torch_cli, "mxmigrate": migrate_cli}
    assert set(rows) == set(scripts) == set(mains)
    for name, codes in rows.items():
        assert scripts[name] == f"{mains[name].__name__}:run"
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            mains[name].main(["--help"], prog=name)
        text = " ".join(out.getvalue().split())
        assert text.startswith(f"usage: {name} ")
        helped = text.split("exit codes: ", 1)[1]
        assert helped == " ".join(codes.split()), name
        version = io.StringIO()
        with contextlib.redirect_stdout(version), contextlib.suppress(SystemExit):
            mains[name].main(["--version"], prog=name)
        import sidebyside

        assert version.getvalue().startswith(f"{name} {sidebyside.__version__} (sidebyside; "
                                             "Python 3.")
