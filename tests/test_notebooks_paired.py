"""Every notebook has its jupytext twin, the two say the same, and outputs are stored.

nbval (configured in pyproject.toml) executes every notebook found under notebooks/ and
compares the outputs; this file checks what nbval does not.
"""
import ast
import re

import jupytext
import nbformat
import pytest

from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]
SCRIPTS = sorted(p for p in (ROOT / "notebooks").rglob("*.py") if ".ipynb_checkpoints" not in p.parts)
# the tutorials (notebooks/NN_topic.ipynb) and the deep dives they link to
CORE = [p for p in NOTEBOOKS if p.parent.name == "notebooks" and re.match(r"\d\d_", p.name)]
DEEP_DIVES = [p for p in NOTEBOOKS if p.parent.name == "deep_dives"]
TEMPLATE = ROOT / "templates" / "NN_topic.py"
MAX_CELLS = 100   # one sitting (CONTRIBUTING.md)


def cells(nb):
    return [(c.cell_type, c.source.strip(), sorted(c.metadata.get("tags", []))) for c in nb.cells]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebook found under notebooks/"


def test_every_script_has_a_notebook():
    orphans = [p.name for p in SCRIPTS if not p.with_suffix(".ipynb").exists()]
    assert not orphans, f"jupytext scripts without a notebook: {orphans}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_and_twin_agree(path):
    twin = path.with_suffix(".py")
    assert twin.exists(), f"{path.name} has no py:percent twin: run `make sync`"
    from_ipynb = cells(jupytext.read(path))
    from_py = cells(jupytext.read(twin))
    for i, (a, b) in enumerate(zip(from_ipynb, from_py)):
        assert a == b, f"cell {i} differs between {path.name} and {twin.name}: run `make sync`"
    assert len(from_ipynb) == len(from_py), f"{path.name} and {twin.name} have different cell counts"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_stored_from_one_clean_run(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.execution_count for c in code]
    assert None not in counts, f"{path.name}: cells never executed: run `make notebooks`"
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: not from one top-to-bottom run"
    assert any(c.outputs for c in code), f"{path.name}: no stored outputs"


def checks_in(source: str) -> int:
    """Real checks in a code cell: `assert` statements and calls of `assert_*` functions
    (`compare.assert_same`, `np.testing.assert_array_equal`, ...); words in strings or
    comments do not count."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assert):
            count += 1
        elif isinstance(node, ast.Call):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            count += name.startswith("assert")
    return count


def sections(nb):
    """{numbered section heading: [code cells]} for the `## N. …` sections."""
    out, current = {}, None
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("## "):
                    current = line if re.match(r"## \d+\.", line) else None
                    if current:
                        out[current] = []
        elif current:
            out[current].append(cell)
    return out


def test_checks_in_counts_statements_not_words():
    assert checks_in('x = "assert"  # assert this') == 0
    assert checks_in("assert x\ncompare.assert_same(a, b)\nnp.testing.assert_allclose(a, b)") == 3


def test_every_notebook_is_a_tutorial_or_a_deep_dive():
    assert sorted(CORE + DEEP_DIVES) == NOTEBOOKS, (
        "notebooks/ holds NN_topic.ipynb tutorials and notebooks/deep_dives/*.ipynb only")


def anatomy_problems(nb, deep_dive: bool = False) -> list[str]:
    """What a notebook lacks of CONTRIBUTING.md's anatomy (an empty list: nothing)."""
    problems = []
    first = nb.cells[0]
    if not (first.cell_type == "markdown" and first.source.startswith("# ")):
        return ["it does not start with a title"]
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    if deep_dive:
        if not first.source.startswith("# Deep dive · "):
            problems.append("the title does not start with 'Deep dive · '")
        if not re.search(r"\]\(\.\./\d\d_\w+\.ipynb\)", first.source):
            problems.append("the header does not link back to the tutorial it deepens")
        if "## What this means for a port" not in text:
            problems.append("no '## What this means for a port'")
    else:
        if "What you will learn" not in first.source:
            problems.append("no 'What you will learn' in the header")
        for word in ("**Prerequisites**", "**Time**"):
            if word not in first.source:
                problems.append(f"no {word} in the header")
        for heading in ("## Summary", "## Exercises"):
            if heading not in text:
                problems.append(f"no '{heading}'")
    numbered = sections(nb)
    if not numbered:
        problems.append("no numbered sections (## 1. …)")
    unchecked = [title for title, cells in numbered.items()
                 if sum(checks_in(c.source) for c in cells) == 0]
    if unchecked:
        problems.append(f"sections without a single check: {unchecked}")
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_anatomy(path):
    problems = anatomy_problems(nbformat.read(path, as_version=4), path in DEEP_DIVES)
    assert not problems, f"{path.name}: {problems}"


def test_anatomy_problems_are_found():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook(cells=[
        md("# 9 · X\n\n**What you will learn**\n\n- a\n\n**Prerequisites**: none."),
        md("## 1. One"), code("x = 1  # assert x"), md("## Summary\n\n## Exercises")])
    assert anatomy_problems(nb) == ["no **Time** in the header",
                                    "sections without a single check: ['## 1. One']"]
    assert anatomy_problems(nb, deep_dive=True)[:3] == [
        "the title does not start with 'Deep dive · '",
        "the header does not link back to the tutorial it deepens",
        "no '## What this means for a port'"]


def test_the_template_has_the_anatomy():
    """templates/NN_topic.py, where a new notebook starts (CONTRIBUTING.md), is itself a
    notebook of the collection's form, with the setup lines every notebook uses."""
    nb = jupytext.read(TEMPLATE)
    assert anatomy_problems(nb) == []
    assert not unhidden_solutions(nb)
    assert setup_problems(nb) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_one_sitting(path):
    """At most 100 cells: a longer investigation goes to a deep dive (CONTRIBUTING.md)."""
    count = len(nbformat.read(path, as_version=4).cells)
    assert count <= MAX_CELLS, f"{path.name}: {count} cells; move an investigation to a deep dive"


MARKDOWN_HEADING = re.compile(r"^#\s?#{1,6} \S")


def headings_in_code(nb) -> list[tuple[int, str]]:
    """Code cells holding a line that reads as a Markdown heading (``# ## 4. …``): a lost
    ``# %% [markdown]`` marker in the py:percent twin turns a section into comments."""
    return [(n, line) for n, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for line in cell.source.splitlines() if MARKDOWN_HEADING.match(line)]


def test_headings_in_code_are_found():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook(cells=[md("## 4. Fine"), code("x = 1\n# ## 4. Lost\n#  # no")])
    assert headings_in_code(nb) == [(1, "# ## 4. Lost")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_markdown_heading_inside_a_code_cell(path):
    found = headings_in_code(nbformat.read(path, as_version=4))
    assert not found, f"{path.name}: Markdown headings inside code cells: {found}"


SETUP_LINES = ("SEED = seeding.seed_everything(0)", "devs = devices.pick(",
               "pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device")


def setup_problems(nb) -> list[str]:
    """The setup lines (CONTRIBUTING.md) missing from the notebook's first code cell."""
    first = next(c for c in nb.cells if c.cell_type == "code").source
    return [line for line in SETUP_LINES if line not in first]


@pytest.mark.parametrize("path", [p for p in CORE if not p.name.startswith("01_")],
                         ids=lambda p: p.name)
def test_one_setup_cell_form(path):
    """Notebooks 2 onwards seed and pick devices in their imports cell, in one form (the
    first notebook is about the environment and picks the devices in its §3)."""
    missing = setup_problems(nbformat.read(path, as_version=4))
    assert not missing, f"{path.name}: the imports cell lacks {missing}"


# A number with a fractional part, not part of a version string such as 1.23.5.
FLOAT = re.compile(r"(?<![\w.])-?\d+\.\d+(?:e[-+]?\d+)?(?![\d.])|(?<![\w.])-?\d+e-\d+\b")


VERSION = re.compile(r"\b(?:Python|numpy|mxnet|torch|torchvision|protobuf|mxboard)[ =<>]+[\d.]+")
KEYWORD = re.compile(r"\b\w+=-?[\d.]+(?:e[-+]?\d+)?")


def computed_floats(cell) -> list[str]:
    """Floats in a cell's compared outputs that could change with the CPU's rounding.

    Allowed: numbers written in the cell's own source (a tolerance in a message), and
    dyadic numbers such as 0.5 or 2.375, which exact arithmetic produces and every machine
    prints alike.
    """
    texts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            texts.append(out.text)
        elif "data" in out:
            texts.append(out.data.get("text/plain", ""))
    text = "\n".join(texts)
    text = VERSION.sub("", text)        # 'numpy 1.24', 'Python 3.11': not results
    text = KEYWORD.sub("", text)        # 'rtol=1e-05', 'momentum=0.9': arguments
    found = []
    for token in FLOAT.findall(text):
        if token in cell.source or float(token) * 1024 == int(float(token) * 1024):
            continue
        found.append(token)
    return found


def test_computed_floats_are_caught():
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "(0.45, 0.5, 1e-06)"})]
    assert computed_floats(cell) == ["0.45", "1e-06"]
    cell.source = "tolerance = 1e-06"
    cell.outputs = [nbformat.v4.new_output(
        "stream", text="numpy 1.24 and torch 2.14.1, 1e-06, -2.375, rtol=1e-05, max = 3e-7\n")]
    assert computed_floats(cell) == ["3e-7"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_compared_outputs_hold_no_computed_floats(path):
    """nbval compares stored outputs exactly, so an output that prints a computed float
    fails on a machine that rounds differently. Such cells print the claim (and its
    tolerance) and assert it; the number goes in a cell tagged nbval-ignore-output."""
    nb = nbformat.read(path, as_version=4)
    offenders = {}
    for n, cell in enumerate((c for c in nb.cells if c.cell_type == "code"), start=1):
        if "nbval-ignore-output" in cell.metadata.get("tags", []):
            continue
        floats = computed_floats(cell)
        if floats:
            offenders[f"code cell {n}: {cell.source.splitlines()[-1][:60]}"] = floats[:5]
    assert not offenders, offenders


MACHINE_PATH = re.compile(r"(/home/|/root/|/tmp/|/work/|/usr/|site-packages|ipykernel_\d+)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_hold_no_paths_of_this_machine(path):
    """A compared output with a path (a warning's file name, a temporary folder) fails on any
    other machine; a stored traceback with one shows the build machine's layout to readers
    (`make notebooks` trims those: tools/trim_tracebacks.py)."""
    nb = nbformat.read(path, as_version=4)
    offenders = []
    for n, cell in enumerate((c for c in nb.cells if c.cell_type == "code"), start=1):
        compared = "nbval-ignore-output" not in cell.metadata.get("tags", [])
        for out in cell.outputs:
            if out.output_type == "error":
                texts = out.traceback
            elif out.output_type == "stream":
                texts = [out.text] if compared else []
            else:
                texts = [out.get("data", {}).get("text/plain", "")] if compared else []
            hits = [m.group(0) for t in texts for m in [MACHINE_PATH.search(t)] if m]
            if hits:
                offenders.append((n, out.output_type, hits[0]))
    assert not offenders, offenders


# Markdown that a reader sees as code or as a link already: fenced blocks, inline code,
# [text](target) links and <...> autolinks or HTML tags.
MD_MASKED = re.compile(r"^(```|~~~).*?^\1|(`+)(?:(?!\2).)+?\2|!?\[[^\]]*\]\([^)]*\)|<[^>\n]+>",
                       re.M | re.S)
MENTION = re.compile(r"(?<![\w/])[Nn]otebooks?\s+\d+\b(?!\.ipynb)")
NOTEBOOK_LINK = re.compile(r"\[([^\]]*\b[Nn]otebooks?\s+(\d+)[^\]]*)\]\(([^)#\s]*)")
BARE_URL = re.compile(r"\bhttps?://")


def plain_markdown(source: str) -> str:
    """The cell's text outside code, links and autolinks (each masked with spaces)."""
    return MD_MASKED.sub(lambda m: " " * len(m.group(0)), source)


def test_plain_markdown_masks_code_and_links():
    text = ("see notebook 3 §2, [notebook 5](05_autograd.ipynb) §6, `notebook 7`,\n"
            "```\nnotebook 8\n```\n<https://example.org/notebook 9>")
    assert MENTION.findall(plain_markdown(text)) == ["notebook 3"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_cross_references_are_links(path):
    """"see notebook 5" is a link, [notebook 5](05_autograd.ipynb) (a "§N" after it), to a
    notebook that exists; with `linkify` off (book/_config.yml) a bare URL must be written
    <https://...> to be a link in the book."""
    nb = nbformat.read(path, as_version=4)
    names = {p.name for p in NOTEBOOKS}
    plain, wrong = [], []
    for n, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        text = plain_markdown(cell.source)
        plain += [(n, m.group(0)) for m in MENTION.finditer(text)]
        plain += [(n, text[m.start():m.start() + 60].split()[0])
                  for m in BARE_URL.finditer(text)]
        for m in NOTEBOOK_LINK.finditer(cell.source):
            number, target = int(m.group(2)), m.group(3)
            # a deep dive links up to its tutorial (../05_autograd.ipynb)
            target = target.removeprefix("../") if path in DEEP_DIVES else target
            if not (target.startswith(f"{number:02d}_") and target in names):
                wrong.append((n, m.group(0)))
    assert not plain, f"{path.name}: write these as links (markdown cell, text): {plain}"
    assert not wrong, f"{path.name}: links to the wrong notebook: {wrong}"


SOLUTIONS = re.compile(r"Solutions\b")
DROPDOWN_OPEN = re.compile(r"^\s*(:{3,})\{dropdown\}")
LIST_ITEM = re.compile(r"(\d+\.|[-*+]|\*\*\d+\.\*\*)\s")


def unhidden_solutions(nb) -> list[str]:
    """What the book would show of the exercises' solutions without a click.

    From the first line after "## Exercises" that says "Solutions" to the next "## " heading
    or the end of the notebook, Markdown belongs in a ``:::{dropdown}`` block (a "Solutions"
    line may be the dropdown's title, or begin a sentence that points at the folded
    solutions: that paragraph, up to a blank line or a list item, stays in view), and code
    cells carry the ``hide-cell`` tag (jupyter-book folds input and output). Jupyter shows all of it.
    """
    shown, in_exercises, in_solutions = [], False, False
    for n, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            if in_solutions and "hide-cell" not in cell.metadata.get("tags", []):
                shown.append(f"cell {n}: code cell without the hide-cell tag")
            continue
        fence, pointer = None, False
        for line in cell.source.splitlines():
            text = line.strip("# ").strip()
            pointer = pointer and bool(text) and not LIST_ITEM.match(text)
            if line.startswith("## "):          # a new section ends the solutions
                in_exercises, in_solutions = line.startswith("## Exercises"), False
                continue
            opened = DROPDOWN_OPEN.match(line)
            if fence is None and opened:
                fence = opened.group(1)
                if in_exercises and SOLUTIONS.search(line):
                    in_solutions = True
                continue
            if fence is not None:
                if line.strip() == fence:
                    fence = None
                continue
            if in_exercises and SOLUTIONS.search(line) and not LIST_ITEM.match(text):
                in_solutions = pointer = True     # a sentence pointing at the solutions
                continue
            if in_solutions and text and not pointer:
                shown.append(f"cell {n}: {line.strip()[:60]}")
        if fence is not None:
            shown.append(f"cell {n}: a dropdown that is never closed")
    return shown


def test_unhidden_solutions_finds_text_and_code_outside_dropdowns():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    folded = code("x = 1")
    folded.metadata["tags"] = ["hide-cell"]
    nb = nbformat.v4.new_notebook(cells=[
        md("## Exercises\n\n1. Why?\n\n:::{dropdown} Solutions\n1. Because.\n:::"),
        md("**Solutions** below, folded:\n\n:::{dropdown} Solution 2\nAlso because.\n:::"),
        folded])
    assert unhidden_solutions(nb) == []
    nb.cells += [md("## Exercises\n\n**Solutions**\n1. Because."), code("y = 2"),
                 md(":::{dropdown} Solution 3\nunclosed")]
    assert unhidden_solutions(nb) == ["cell 3: 1. Because.",
                                      "cell 4: code cell without the hide-cell tag",
                                      "cell 5: a dropdown that is never closed"]
    assert unhidden_solutions(nbformat.v4.new_notebook(cells=[md("## Exercises\n\n1. Why?")])) == []


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_solutions_are_folded_in_the_book(path):
    """A reader of the book tries an exercise before seeing its solution: each solution is
    in a ``:::{dropdown}`` (Markdown) or a cell tagged ``hide-cell`` (code)."""
    shown = unhidden_solutions(nbformat.read(path, as_version=4))
    assert not shown, f"{path.name}: solutions shown without a click: {shown}"


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_exercises_have_solutions(path):
    """Every numbered exercise has an answer in the notebook's folded solutions."""
    nb = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    exercises = text.split("## Exercises", 1)
    assert len(exercises) == 2, f"{path.name}: no ## Exercises section"
    body = exercises[1].split("\n## ", 1)[0]
    asked = re.findall(r"^(\d+)\. ", body.split(":::{dropdown}", 1)[0], re.M)
    assert asked, f"{path.name}: the exercises are not a numbered list"
    answered = set()
    for block in re.findall(r":::\{dropdown\} Solutions?[^\n]*\n(.*?)\n:::", body, re.S):
        answered |= set(re.findall(r"^(\d+)\. ", block, re.M))
    for title in re.findall(r":::\{dropdown\} Solution (\d+)", body):
        answered.add(title)
    missing = [n for n in asked if n not in answered]
    assert not missing, f"{path.name}: exercises without a solution: {missing}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_figures_have_alt_text(path):
    """A figure a cell draws is described for a screen reader (``mystnb: image: alt`` in the
    cell's metadata; the book falls back to its section and cell number otherwise)."""
    nb = nbformat.read(path, as_version=4)
    bare = [i + 1 for i, c in enumerate(nb.cells) if c.cell_type == "code"
            and any("image/png" in o.get("data", {}) for o in c.outputs)
            and len(c.metadata.get("mystnb", {}).get("image", {}).get("alt", "")) < 20]
    assert not bare, f"{path.name}: cells {bare} draw a figure without alt text"


FRAMEWORK_TAGS = {"pytorch": "PyTorch", "gluon": "MXNet", "mxnet": "MXNet"}


def unpaired_tab_cells(nb) -> list[int]:
    """Code cells tagged for a tab (`pytorch`, `gluon`, `mxnet`) without a partner: the next
    code cell, with only Markdown between, tagged for the other framework. The book's
    extension (book/_ext/sphinx_assets.py) pairs them the same way and fails the build on an
    unpaired one; this finds it without building the book."""
    def side(cell):
        found = [FRAMEWORK_TAGS[t] for t in cell.metadata.get("tags", []) if t in FRAMEWORK_TAGS]
        return found[0] if found else None

    lonely, i = [], 0
    while i < len(nb.cells):
        if nb.cells[i].cell_type != "code" or side(nb.cells[i]) is None:
            i += 1
            continue
        j = i + 1
        while j < len(nb.cells) and nb.cells[j].cell_type == "markdown":
            j += 1
        if j < len(nb.cells) and nb.cells[j].cell_type == "code" and side(nb.cells[j]) not in (
                None, side(nb.cells[i])):
            i = j + 1
        else:
            lonely.append(i)
            i += 1
    return lonely


def test_unpaired_tab_cells_are_found():
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell

    def tagged(tag):
        cell = code("x")
        cell.metadata["tags"] = [tag]
        return cell

    nb = nbformat.v4.new_notebook(cells=[tagged("pytorch"), md("**Gluon**"), tagged("gluon"),
                                         tagged("mxnet"), tagged("gluon"), code("y"),
                                         tagged("pytorch")])
    assert unpaired_tab_cells(nb) == [3, 4, 6]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_tab_cells_come_in_pairs(path):
    lonely = unpaired_tab_cells(nbformat.read(path, as_version=4))
    assert not lonely, f"{path.name}: cells {lonely} are tagged for a tab but have no partner"
