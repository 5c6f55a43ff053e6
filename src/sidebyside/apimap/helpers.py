"""The helper package's public names, and the notebook sections whose code uses each.

Every module of ``sidebyside`` (and every subpackage) exports names in ``__all__`` (a module
without ``__all__``: its top-level functions and classes whose names do not start with
``_``). :func:`read_all` gives a :class:`Helper` for each module and each such name, with the
first line of its docstring and the sections of the tutorials and deep dives whose code calls
it (``convert.params_to_state_dict(...)``, ``from sidebyside.errors import catch``) — where a
reader sees it at work. The package is read as source text, not imported.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import mappings

__all__ = ["Helper", "Use", "PACKAGE", "modules", "public_names", "read_all"]

PACKAGE = Path(__file__).resolve().parents[1]   # src/sidebyside


@dataclass(frozen=True)
class Use(mappings.Place):
    """A section of a page whose code uses a helper."""

    stem: str
    folder: str
    title: str
    section: str     # the "## " heading, "" before the first one
    line: int        # the first line of the cell in the page's .py


@dataclass(frozen=True)
class Helper:
    """A module of the helper package (``name == ""``) or one of its public names."""

    module: str                # "convert"
    name: str                  # "params_to_state_dict"
    summary: str               # the first line of its docstring ("" when it has none)
    uses: tuple[Use, ...] = ()

    @property
    def key(self) -> str:
        return ".".join(filter(None, ("sidebyside", self.module, self.name)))

    @property
    def where(self) -> str:
        """The first section that uses it, or where it is when no notebook does."""
        if self.uses:
            return self.uses[0].where
        return f"no notebook uses it: see help({self.key})"

    @property
    def link(self) -> str:
        return self.uses[0].link if self.uses else ""

    @property
    def anchor(self) -> str:
        return self.uses[0].anchor if self.uses else ""

    @property
    def target(self) -> str:
        return self.uses[0].target if self.uses else ""

    @property
    def text(self) -> str:
        short = f"{self.module}.{self.name}" if self.name else self.module
        return f"{self.key} {short}"


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().split("\n\n")[0].replace("\n", " ").strip()


def modules(package: Path = PACKAGE) -> dict[str, list[Path]]:
    """``{module name: its source files}`` for the package's public modules and subpackages
    (``_private`` ones and ``__main__`` left out), in name order."""
    out = {}
    for path in sorted(package.iterdir()):
        if path.name.startswith("_"):
            continue
        if path.suffix == ".py":
            out[path.stem] = [path]
        elif path.is_dir() and (path / "__init__.py").exists():
            out[path.name] = sorted(p for p in path.rglob("*.py") if p.name != "__main__.py")
    return out


def _literal_all(tree: ast.Module) -> list[str] | None:
    names = None
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 \
            else getattr(node, "target", None)
        if not (isinstance(target, ast.Name) and target.id == "__all__"):
            continue
        try:
            value = list(ast.literal_eval(node.value))
        except ValueError:
            return None
        names = value if isinstance(node, ast.Assign) else (names or []) + value
    return names


def public_names(files: list[Path]) -> tuple[str, list[tuple[str, str]]]:
    """A module's docstring line and its public names with their docstring lines. The module
    is ``files[0]`` (or the ``__init__.py`` among them); definitions are looked up in all of
    ``files`` (a subpackage re-exports its submodules' names)."""
    main = next((p for p in files if p.name == "__init__.py"), files[0])
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in files}
    docs = {}
    for tree in trees.values():
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                docs.setdefault(node.name, _first_line(ast.get_docstring(node)))
    names = _literal_all(trees[main])
    if names is None:
        names = [n for n, node in ((getattr(x, "name", ""), x) for x in trees[main].body)
                 if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not n.startswith("_")]
    return (_first_line(ast.get_docstring(trees[main])),
            [(n, docs.get(n, "")) for n in names])


_IMPORT = re.compile(r"^\s*(?:from|import)\s+sidebyside\b.*(?:\n[ \t]+.*)*$", re.M)
_STRING = re.compile(r'''(?<![\w])[rbfuRBFU]{0,2}("""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"[^"\n]*"|'[^'\n]*')''')
_FROM = re.compile(r"^\s*from\s+sidebyside\.(\w+)\s+import\s+\(?([\w\s,]+)\)?", re.M)


def _uses(module: str, names: list[str], notebooks: Path | None) -> dict[str, list[Use]]:
    found: dict[str, list[Use]] = {n: [] for n in names}
    calls = {n: re.compile(rf"(?<![\w.])(?:sidebyside\.)?{module}\.{re.escape(n)}\b")
             for n in names}
    alone = {n: re.compile(rf"(?<![\w.]){re.escape(n)}\b") for n in names}
    for path in mappings.pages(notebooks):
        source = path.read_text(encoding="utf-8")
        folder = mappings.DEEP_DIVES if path.parent.name == mappings.DEEP_DIVES else ""
        title = next((t[2:].strip() for _, t in mappings.markdown_lines(source)
                      if t.startswith("# ")), "")
        imported = {n.strip() for m in _FROM.finditer(source) if m.group(1) == module
                    for n in m.group(2).split(",")}
        for line, section, code in mappings.code_cells(source):
            code = _STRING.sub("''", _IMPORT.sub("", code))  # importing, naming: not using
            for n in names:
                if n not in code:
                    continue
                if calls[n].search(code) or (n in imported and alone[n].search(code)):
                    use = Use(path.stem, folder, title, section, line)
                    if not any((u.stem, u.folder, u.section) == (use.stem, use.folder,
                                                                  use.section)
                               for u in found[n]):
                        found[n].append(use)
    return found


@lru_cache(maxsize=4)
def read_all(package: Path = PACKAGE, notebooks: Path | None = None) -> tuple[Helper, ...]:
    """A :class:`Helper` for every public module of ``package`` and every public name of
    each, with the sections of the pages in ``notebooks`` (default: the repository's) whose
    code uses it."""
    out = []
    for module, files in modules(package).items():
        doc, names = public_names(files)
        uses = _uses(module, [n for n, _ in names], notebooks)
        every = [u for n, _ in names for u in uses[n]]
        order = {p: i for i, p in enumerate(mappings.pages(notebooks))}
        every = sorted({(u.folder, u.stem, u.section): u for u in every}.values(),
                       key=lambda u: (order.get(_page_path(u, notebooks), 0), u.line))
        out.append(Helper(module, "", doc, tuple(every)))
        out += [Helper(module, n, summary, tuple(uses[n])) for n, summary in names]
    return tuple(out)


def _page_path(use: Use, notebooks: Path | None) -> Path:
    base = mappings.NOTEBOOKS if notebooks is None else Path(notebooks)
    return base / use.folder / f"{use.stem}.py" if use.folder else base / f"{use.stem}.py"
