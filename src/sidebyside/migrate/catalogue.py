"""Each construct's counterpart, as the collection executed it: :func:`lookup`.

Two directions, each keyed by the side the script is written in:

- ``--to torch`` (an MXNet script): the catalogue keyed by MXNet's API
  (:mod:`sidebyside.catalogue`), one entry per MXNet construct and form, each with its executed
  check; the call's arguments pick the form (``topk(ret_typ='both')``). Nothing else answers
  an MXNet name: an entry's PyTorch side is only ever shown for the construct it was checked
  for.
- ``--to gluon`` (a PyTorch script): the rows keyed by PyTorch calls, written into
  :mod:`sidebyside.migrate._catalogue_data` by ``tools/make_migrate_catalogue.py`` (``make
  migrate-catalogue``) from the API map's rows (run by notebook 2 §8 and tests/test_apimap.py)
  and the notebooks' mapping tables (checked by the sections they sum up), after the
  catalogue's own entries found by their PyTorch counterpart.

Names are canonical (:mod:`sidebyside.migrate.names`): ``mx.nd.concat``,
``mx.nd.NDArray.asnumpy``, ``mx.gluon.Trainer.step``, ``torch.cat``, ``torch.Tensor.chunk``.
Standard library only; the data is read on the first lookup, not at import.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

__all__ = ["Entry", "DIRECTIONS", "lookup", "entries", "names", "from_catalogue"]

#: "torch": the script is MXNet, the counterpart PyTorch (names matched: ``mxnet_names``);
#: "gluon": the script is PyTorch, the counterpart Gluon (names matched: ``torch_names``)
DIRECTIONS = ("torch", "gluon")
TABLE = "table"  # Entry.status of a table row

_TENSOR = "torch.Tensor."


@dataclass(frozen=True)
class Entry:
    """One counterpart: an API-map row or a row of a notebook's table."""

    key: str                      # the row's name: "chunk", "08_optimizers_trainer §Summary: …"
    mxnet: str                    # the MXNet side as a reader sees it (one line)
    torch: str                    # the PyTorch side as a reader sees it (one line)
    mxnet_names: tuple[str, ...]  # canonical MXNet names (may be empty)
    torch_names: tuple[str, ...]  # canonical PyTorch names (may be empty)
    status: str                   # the API map's status ("renamed", …) or "table"
    tolerance: str                # "rtol=1e-05, atol=1e-06", "statistical test …", …
    where: str                    # "notebook 2, §8. The whole map, run"
    link: str                     # the page, relative to book/: "notebooks/02_tensor_ops.ipynb"
    anchor: str                   # the section's HTML id: "the-whole-map-run"
    origin: str                   # "api map row 'chunk'", "catalogue entry 'mx.nd.topk'"
    gotchas: tuple[str, ...] = ()  # catalogue entries: the gotchas its check executed
    form: str = ""                # catalogue entries: the form ("ret_typ='both'")
    how: str = ""                 # catalogue lookups: "form", "default", "either", "inherited"
    catalogue: bool = False       # from sidebyside.catalogue (keyed by MXNet's API)

    @property
    def url(self) -> str:
        """The section, relative to book/: ``notebooks/02_tensor_ops.ipynb#the-whole-map-run``."""
        return f"{self.link}#{self.anchor}" if self.anchor else self.link

    @property
    def from_map(self) -> bool:
        """Whether the entry was run and compared (a catalogue entry or an API-map row), not a
        table row."""
        return self.status != TABLE

    def names_of(self, direction: str) -> tuple[str, ...]:
        """The names a script of ``direction``'s source side is matched against."""
        return self.mxnet_names if _direction(direction) == "torch" else self.torch_names


def _direction(direction: str) -> str:
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be 'torch' (an MXNet script, PyTorch counterparts) "
                         f"or 'gluon' (a PyTorch script, Gluon counterparts), not {direction!r}")
    return direction


@functools.lru_cache(maxsize=1)
def entries() -> tuple[Entry, ...]:
    """Every entry: the API map's rows (in the map's order), then the tables' rows (in
    reading order)."""
    from . import _catalogue_data

    return tuple(Entry(**fields) for fields in _catalogue_data.ENTRIES)


@functools.lru_cache(maxsize=2)
def names(direction: str = "torch") -> frozenset[str]:
    """The names that have an entry, on the script's side of ``direction``."""
    if _direction(direction) == "torch":
        from ..catalogue import index

        return index.names()
    return frozenset(n for e in entries() for n in e.names_of(direction)) | frozenset(
        _by_torch_name())


def _swap(name: str, old: str, new: str) -> str | None:
    return new + name[len(old):] if name.startswith(old) else None


def _looser(name: str, direction: str) -> set[str]:
    """The names ``name`` also matches, less closely: a PyTorch method named by its class
    matches the function of the same name and the other way round."""
    out = set()
    if name.startswith(_TENSOR) and name.count(".") == 2:
        out.add("torch." + name[len(_TENSOR):])
    elif name.startswith("torch.") and name.count(".") == 1:
        out.add(_TENSOR + name[len("torch."):])
    out.discard(name)
    return out


_TORCH_NAME = None


def _torch_names(text: str) -> tuple[str, ...]:
    """The PyTorch names a catalogue counterpart calls, canonical (``F.x`` is
    ``torch.nn.functional.x``)."""
    import re

    global _TORCH_NAME
    if _TORCH_NAME is None:
        _TORCH_NAME = re.compile(r"(?<![\w.])((?:torch|torchvision|torchmetrics|F|nn)"
                                 r"(?:\.[A-Za-z_]\w*)+)")
    short = {"F": "torch.nn.functional", "nn": "torch.nn"}
    out = []
    for m in _TORCH_NAME.finditer(text):
        head, _, rest = m.group(1).partition(".")
        out.append(f"{short[head]}.{rest}" if head in short else m.group(1))
    return tuple(dict.fromkeys(out))


def _tolerance(e) -> str:
    c = e.check
    if c is None:
        return "unchecked"
    if c.kind == "exact":
        return "checked: equal"
    if c.kind == "random":
        return "checked: the same distribution (two-sample test)"
    parts = []
    if "float64" in c.dtypes:
        parts.append(f"float64 rtol={c.rtol:g}, atol={c.atol:g}")
    if "float32" in c.dtypes:
        parts.append(f"float32 rtol={c.rtol32:g}" + (f", atol={c.atol32:g}" if c.atol32 else ""))
    if not parts:
        parts.append(f"{', '.join(c.dtypes)} equal")
    return "checked: " + "; ".join(parts)


def from_catalogue(e, how: str = "", name: str = "") -> Entry:
    """A catalogue entry (:class:`sidebyside.catalogue.Entry`) as this module's
    :class:`Entry`: the page that teaches it, else its row on the book's page of MXNet's API.
    Looked up by a Symbol-API ``name`` (``mx.sym.Convolution``), it says what
    :mod:`sidebyside.mx2torch` does with a saved graph holding that operator."""
    from ..catalogue import index

    link, anchor, where = e.link, e.anchor, e.where
    note = index.mx2torch_note(name) if name else ""
    torch = e.torch if e.status != "no counterpart" else f"{e.torch} (recipe)"
    return Entry(key=e.key, mxnet=e.key, torch=torch, mxnet_names=e.names,
                 torch_names=_torch_names(e.torch + " " + e.recipe), status=e.status,
                 tolerance=_tolerance(e), where=where, link=link, anchor=anchor,
                 origin=f"catalogue entry {e.key!r}",
                 gotchas=tuple(e.gotchas) + ((note,) if note else ()), form=e.form,
                 how=how, catalogue=True)


def lookup(name: str, direction: str = "torch", call=None) -> list[Entry]:
    """The entries for the canonical ``name``, best first.

    ``direction="torch"``: ``name`` is an MXNet name (``mx.nd.concat``); the answers are the
    catalogue's entries for that construct (:func:`sidebyside.catalogue.lookup`), the form
    the call selects first when ``call`` (the site's ``ast.Call``) is given.
    ``"gluon"``: ``name`` is a PyTorch name (``torch.nn.Linear``): the catalogue's entries
    whose checked counterpart calls it, then the API map's and the tables' rows (see
    :func:`_lookup_gluon`). An unknown name gives ``[]``.
    """
    direction = _direction(direction)
    if not isinstance(name, str):
        raise TypeError(f"lookup() needs a name as a string, e.g. 'mx.nd.concat', not {name!r}")
    name = name.strip()
    if direction == "torch":
        from ..catalogue import index

        positional, keywords = index.call_arguments(call) if call is not None else ((), {})
        return [from_catalogue(m.entry, m.how, name)
                for m in index.lookup(name, positional, keywords)]
    return _reverse(name) + _lookup_gluon(name)


@functools.lru_cache(maxsize=1)
def _by_torch_name() -> dict[str, list]:
    from ..catalogue import index

    out: dict[str, list] = {}
    for e in index.entries():
        if e.check is None or e.status == "no counterpart":
            continue
        for n in _torch_names(e.torch)[:1]:  # the call the counterpart is named after
            out.setdefault(n, []).append(e)
    return out


def _reverse(name: str) -> list[Entry]:
    """The catalogue's entries whose counterpart is the PyTorch call ``name``, default
    forms first."""
    hits = _by_torch_name().get(name, [])
    return [from_catalogue(e, "reverse") for e in sorted(hits, key=lambda e: bool(e.when))]


def _lookup_gluon(name: str) -> list[Entry]:
    """The API map's and the tables' rows for the PyTorch ``name``, best first.

    The order: the API map's entries before the tables' (a map row was run and compared to
    its tolerance); within each, an entry that lists ``name`` itself before one found by a
    looser match (a method named by its class matches the function of the same name and the
    other way round: ``torch.Tensor.sum`` ↔ ``torch.sum``); then each source's own order.
    """
    direction = "gluon"
    looser = _looser(name, direction)
    ranked = []
    for order, entry in enumerate(entries()):
        listed = entry.names_of(direction)
        if name in listed:
            closeness = 0
        elif looser.intersection(listed):
            closeness = 1
        else:
            continue
        ranked.append(((not entry.from_map, closeness, order), entry))
    return [entry for _, entry in sorted(ranked, key=lambda r: r[0])]
