"""What one catalogue entry says, and the check that proves it: :class:`Entry`, :class:`Check`.

An entry is keyed by an MXNet 1.9.1 name, canonical as :mod:`sidebyside.migrate.names` spells
it (``mx.gluon.nn.Conv2DTranspose``, ``mx.nd.topk``, ``mx.np.concatenate``,
``mx.gluon.Trainer.step``). It gives the PyTorch counterpart *as a call* with the arguments
mapped, the defaults that differ, a status, the gotchas, the notebook section that teaches it
and a :class:`Check`: code for both sides, run on the same inputs by
:mod:`sidebyside.catalogue.run` (forward, gradients, float64 and float32).

A construct whose forms map differently has one entry per form; :attr:`Entry.when` says which
arguments select the form (``("ret_typ='both'",)``), and :func:`sidebyside.catalogue.lookup`
picks it from the call a script makes.

Standard library only: :mod:`sidebyside.migrate` reads the entries without MXNet or PyTorch.
"""

from __future__ import annotations

import ast
import keyword
import re
from dataclasses import dataclass, field

__all__ = ["SAME", "RENAMED", "ARGS", "COMPOSITE", "RECIPE", "STATUSES", "STATUS_TEXT",
           "Check", "Entry", "check", "entry", "parse_when", "UNCHECKED"]

SAME = "same"                 # same name, same arguments, same result
RENAMED = "renamed"           # another name, the same arguments (or a pure renaming of them)
ARGS = "arguments differ"     # a counterpart exists, but arguments or defaults map
COMPOSITE = "composite"       # no single call: a short expression of several
RECIPE = "no counterpart"     # nothing in PyTorch: the entry's recipe reproduces it
STATUSES = (SAME, RENAMED, ARGS, COMPOSITE, RECIPE)
#: each status as the pages say it
STATUS_TEXT = {SAME: "same", RENAMED: "renamed", ARGS: "arguments differ",
               COMPOSITE: "composite", RECIPE: "no counterpart → recipe"}
UNCHECKED = "unchecked"

#: the comparison a check makes (:mod:`sidebyside.catalogue.run`)
KINDS = ("close",    # values within tolerance; gradients too; float64 tight, float32 by drift
         "random",   # samples of one distribution: two-sample test on both sides' draws
         "exact")    # values equal (ints, strings, shapes, structures), no tolerance

_NAME = re.compile(r"mx(\.[A-Za-z_][A-Za-z0-9_]*)+")
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_BUILTINS = frozenset({"getattr", "dict", "list", "tuple", "len", "int", "float", "str", "range",
                       "zip", "isinstance", "sorted", "sum", "min", "max", "abs"})
_WHEN = re.compile(r"^\s*(!?)([A-Za-z_][A-Za-z0-9_]*)\s*(?:=(.*))?$")


@dataclass(frozen=True)
class Check:
    """Code for both sides, run on the same inputs and compared (see :mod:`.run`).

    ``mx`` and ``torch`` are small programs whose last line is an expression: its value is
    compared. A Gluon block bound to ``net`` and a PyTorch module bound to ``mod`` get the
    same weights (Gluon's, in registration order) and their parameter gradients compared too.
    ``inputs`` builds the named inputs (``"x=U(2, 3, 4); i=I(0, 4, (5,))"``), ``grad`` names
    the inputs whose gradients are compared.
    """

    mx: str
    torch: str
    inputs: str = ""
    grad: str = ""                      # "x, y": inputs whose gradients are compared
    kind: str = "close"
    dtypes: tuple[str, ...] = ("float64", "float32")
    mode: str = "train"                 # train | predict (autograd.record(train_mode=…), .eval())
    np: bool = False                    # the mx side runs in MXNet's NumPy interface
    rtol: float = 1e-10                 # float64 bound
    atol: float = 1e-12
    rtol32: float = 1e-5                # float32 bound, relative to the values' scale
    atol32: float = 0.0
    keep_weights: bool = False          # True: `net` keeps the weights its snippet gave it
    note: str = ""                      # why a bound is what it is (e.g. float32 inside float64)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"Check.kind must be one of {KINDS}, not {self.kind!r}")
        if self.mode not in ("train", "predict"):
            raise ValueError(f"Check.mode must be 'train' or 'predict', not {self.mode!r}")
        for side in (self.mx, self.torch):
            tree = ast.parse(side)  # a SyntaxError names the snippet early
            if not tree.body or not isinstance(tree.body[-1], ast.Expr):
                raise ValueError(f"a check's snippet must end with an expression:\n{side}")

    @property
    def grads(self) -> tuple[str, ...]:
        return tuple(g.strip() for g in self.grad.split(",") if g.strip())


@dataclass(frozen=True)
class Entry:
    """One MXNet construct (or one form of it) and its PyTorch counterpart."""

    mx: str                              # canonical MXNet name
    torch: str                           # the counterpart as a call, arguments mapped
    status: str
    check: Check | None                  # None: "unchecked"
    form: str = ""                       # "" the construct's default form, else its label
    when: tuple[str, ...] = ()           # the arguments that select this form
    aliases: tuple[str, ...] = ()        # other canonical names of the same construct
    args: str = ""                       # argument mapping, "mx → torch; …"
    defaults: str = ""                   # the defaults that differ
    gotchas: tuple[str, ...] = ()
    teach: str = ""                      # "NN_stem §Heading" or "deep_dives/stem §Heading"
    recipe: str = ""                     # RECIPE/COMPOSITE: the PyTorch code to write
    mx2torch: str = ""                   # symbol graphs: what sidebyside.mx2torch does
    signature: tuple[str, ...] = ()      # forms: the MXNet parameters in positional order
    note: str = ""
    group: str = field(default="", compare=False)  # the data module it is declared in

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"{self.mx}: status must be one of {STATUSES}, not {self.status!r}")
        for name in (self.mx, *self.aliases):
            if not _NAME.fullmatch(name):
                raise ValueError(f"{self.mx}: {name!r} is not a canonical MXNet name (mx.…)")
        parse_when(self.when)  # a malformed condition fails at import
        if self.when and not self.form:
            raise ValueError(f"{self.mx}: an entry with `when` conditions needs a form label")
        if self.status == RECIPE and not self.recipe:
            raise ValueError(f"{self.mx}: an entry without a counterpart needs a recipe")
        if isinstance(self.gotchas, str):
            raise TypeError(f"{self.mx}: gotchas must be a tuple of strings")

    @property
    def key(self) -> str:
        """``mx.nd.topk`` or ``mx.nd.topk [ret_typ='both']``."""
        return f"{self.mx} [{self.form}]" if self.form else self.mx

    @property
    def names(self) -> tuple[str, ...]:
        return (self.mx, *self.aliases)

    @property
    def checked(self) -> bool:
        return self.check is not None

    def _teach_parts(self) -> tuple[str, str, str]:
        """(stem, folder, heading) of :attr:`teach` (``"06_blocks §3. …"``)."""
        page, sep, heading = self.teach.partition(" §")
        if not self.teach:
            return "", "", ""
        if not sep or not heading.strip():
            raise ValueError(f"{self.key}: teach must be 'NN_stem §Heading', got {self.teach!r}")
        folder, _, stem = page.strip().rpartition("/")
        return stem, folder, heading.strip()

    @property
    def link(self) -> str:
        """The page that teaches it, relative to book/; without one, the book's page of
        MXNet's API, where every entry has a row."""
        from .. import mappings
        from .render_names import PAGE_LINK

        stem, folder, _ = self._teach_parts()
        return mappings.page_link(stem, folder) if stem else PAGE_LINK

    @property
    def anchor(self) -> str:
        from .. import mappings
        from .render_names import anchor_of

        return mappings.section_id(self._teach_parts()[2]) if self.teach else anchor_of(self)

    @property
    def where(self) -> str:
        """``notebook 6, §3. Layer defaults that bite``, or ``All of MXNet's API,
        mx.nd.topk`` when no section teaches it."""
        from .. import mappings
        from .render_names import PAGE_TITLE

        stem, folder, heading = self._teach_parts()
        return f"{mappings.page_label(stem, folder)}, §{heading}" if stem else \
            f"{PAGE_TITLE}, {self.key}"

    @property
    def target(self) -> str:
        """Its section (or row) in the built book, relative to the book's root."""
        page = self.link.removesuffix(".ipynb").removesuffix(".md")
        return f"{page}.html#{self.anchor}"

    @property
    def text(self) -> str:
        """What a search reads: the names, the counterpart, the argument mapping, the
        recipe and the gotchas."""
        return " ".join(filter(None, (*self.names, self.form, self.torch, self.args,
                                      self.recipe, *self.gotchas)))

    @property
    def counterpart_call(self) -> str:
        """The first function or method the counterpart calls (``Linear`` for
        ``torch.nn.Linear(in_units, units)``), comments and builtins left out; ``""`` when it
        calls nothing (``data``). Its check must call it too (tests/test_catalogue.py)."""
        code = self.torch.split("  #")[0]
        for m in _CALL.finditer(code):
            if not keyword.iskeyword(m.group(1)) and m.group(1) not in _BUILTINS:
                return m.group(1)
        return ""

    @property
    def namespace(self) -> str:
        """``mx.gluon.nn`` for ``mx.gluon.nn.Dense``; a method's class for a method."""
        return self.mx.rpartition(".")[0]


def parse_when(conditions) -> list[tuple[bool, str, object]]:
    """``("ret_typ='both'", "length", "!axis")`` → ``[(True, 'ret_typ', 'both'), (True,
    'length', ...), (False, 'axis', ...)]``: an argument given with that value, an argument
    given (``...``: any value but ``None``), an argument not given."""
    if isinstance(conditions, str):
        raise TypeError("`when` must be a tuple of conditions, not a string")
    out = []
    for cond in conditions:
        m = _WHEN.match(cond)
        if not m:
            raise ValueError(f"bad form condition {cond!r}: write name=value, name or !name")
        negate, name, value = m.groups()
        if value is None:
            out.append((not negate, name, ...))
        else:
            if negate:
                raise ValueError(f"bad form condition {cond!r}: !name takes no value")
            try:
                out.append((True, name, ast.literal_eval(value.strip())))
            except (ValueError, SyntaxError) as err:
                raise ValueError(f"bad form condition {cond!r}: the value must be a Python "
                                 f"literal ({err})") from None
    return out


def check(mx: str, torch: str, **kw) -> Check:
    """A :class:`Check`, its snippets dedented (write them as indented triple-quoted text)."""
    import textwrap

    return Check(textwrap.dedent(mx).strip(), textwrap.dedent(torch).strip(), **kw)


def entry(mx: str, torch: str, status: str, check: Check | None, **kw) -> Entry:
    """An :class:`Entry`; ``gotchas``, ``aliases`` and ``when`` may be given as lists."""
    import textwrap

    for k in ("gotchas", "aliases", "when", "signature"):
        if k in kw and isinstance(kw[k], list):
            kw[k] = tuple(kw[k])
    if "recipe" in kw:
        kw["recipe"] = textwrap.dedent(kw["recipe"]).strip()
    return Entry(mx, torch, status, check, **kw)
