"""Each construct's counterpart, as the collection executed it: :func:`lookup`.

The entries come from two sources, both run by the collection, and are written into
:mod:`sidebyside.migrate._catalogue_data` by ``tools/make_migrate_catalogue.py`` (``make
migrate-catalogue``; a test keeps the file equal to what the tool builds):

- the API map's rows (:data:`sidebyside.apimap.ROWS`), each run by notebook 2 §8 and
  tests/test_apimap.py on the same inputs in both frameworks and compared to the row's
  tolerance (``rtol=…, atol=…``), by a statistical test (random rows) or by the row's own
  judge (custom rows);
- the rows of the notebooks' mapping tables, each checked by the section the table sums up
  (``status`` ``"table"``, tolerance ``"checked in that section"``).

Names are canonical (:mod:`sidebyside.migrate.names`): ``mx.nd.concat``,
``mx.nd.NDArray.asnumpy``, ``mx.gluon.Trainer.step``, ``torch.cat``, ``torch.Tensor.chunk``.
Standard library only; the data is read on the first lookup, not at import.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

__all__ = ["Entry", "DIRECTIONS", "lookup", "entries", "names"]

#: "torch": the script is MXNet, the counterpart PyTorch (names matched: ``mxnet_names``);
#: "gluon": the script is PyTorch, the counterpart Gluon (names matched: ``torch_names``)
DIRECTIONS = ("torch", "gluon")
TABLE = "table"  # Entry.status of a table row

_NDARRAY = "mx.nd.NDArray."
_NP_NDARRAY = "mx.np.ndarray."
_BLOCKS = ("mx.gluon.Block.", "mx.gluon.HybridBlock.")
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
    origin: str                   # "api map row 'chunk'", "table in notebook 16, §Summary"

    @property
    def url(self) -> str:
        """The section, relative to book/: ``notebooks/02_tensor_ops.ipynb#the-whole-map-run``."""
        return f"{self.link}#{self.anchor}" if self.anchor else self.link

    @property
    def from_map(self) -> bool:
        """Whether the entry is an API-map row (run and compared), not a table row."""
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
    return frozenset(n for e in entries() for n in e.names_of(direction))


@functools.lru_cache(maxsize=1)
def _np_pairs() -> frozenset[tuple[str, str]]:
    """(``mx.np.X`` or ``mx.npx.X``, ``mx.nd.X``) for every tail an API-map row lists under
    both: the map says the two are counterparts of the same call."""
    out = set()
    for e in entries():
        if not e.from_map:
            continue
        listed = set(e.mxnet_names)
        for n in listed:
            for prefix in ("mx.np.", "mx.npx."):
                if n.startswith(prefix) and "mx.nd." + n[len(prefix):] in listed:
                    out.add((n, "mx.nd." + n[len(prefix):]))
    return frozenset(out)


def _swap(name: str, old: str, new: str) -> str | None:
    return new + name[len(old):] if name.startswith(old) else None


def _looser(name: str, direction: str) -> set[str]:
    """The names ``name`` also matches, less closely (see :func:`lookup`)."""
    out = set()
    if direction == "torch":
        tail = name.rpartition(".")[2]
        if name.startswith(_NDARRAY) and name.count(".") == 3:
            out.add("mx.nd." + tail)
        elif name.startswith("mx.nd.") and name.count(".") == 2:
            out.add(_NDARRAY + tail)
        elif name.startswith(_NP_NDARRAY) and name.count(".") == 3:
            out.add(_NDARRAY + tail)  # an mx.np array's method: the NDArray's, as 2.x spells it
        for block, other in (_BLOCKS, _BLOCKS[::-1]):
            if name.startswith(block):
                out.add(other + name[len(block):])
        pairs = _np_pairs()
        out |= {nd for np_, nd in pairs if np_ == name}
        out |= {np_ for np_, nd in pairs if nd == name}
    else:
        if name.startswith(_TENSOR) and name.count(".") == 2:
            out.add("torch." + name[len(_TENSOR):])
        elif name.startswith("torch.") and name.count(".") == 1:
            out.add(_TENSOR + name[len("torch."):])
    out.discard(name)
    return out


def lookup(name: str, direction: str = "torch") -> list[Entry]:
    """The entries for the canonical ``name``, best first.

    ``direction="torch"``: ``name`` is an MXNet name (``mx.nd.concat``) and the entries give its
    PyTorch counterparts (matched against :attr:`Entry.mxnet_names`); ``"gluon"``: ``name``
    is a PyTorch name (``torch.nn.Linear``), matched against :attr:`Entry.torch_names`.

    The order: the API map's entries before the tables' (a map row was run and compared to
    its tolerance); within each, an entry that lists ``name`` itself before one found by a
    looser match; then each source's own order. The looser matches:

    - a method named by its class matches the function of the same name and the other way
      round: ``mx.nd.NDArray.split`` ↔ ``mx.nd.split``, ``torch.Tensor.sum`` ↔ ``torch.sum``;
    - ``mx.gluon.Block.m`` ↔ ``mx.gluon.HybridBlock.m`` (a HybridBlock is a Block);
    - ``mx.np.ndarray.m`` → ``mx.nd.NDArray.m`` (the tables write 2.x's array methods,
      ``x.to_device``, on an NDArray receiver);
    - ``mx.np.X`` / ``mx.npx.X`` ↔ ``mx.nd.X`` only when an API-map row lists both (the
      map ran the two as the same call);
    - ``mx.sym.X`` matches the entries of ``mx.nd.X`` only when nothing else matched: the
      symbol API's operators are the NDArray operators built as graph nodes, and what an
      ``mx.nd`` row checked holds for them, but an entry for the symbol itself is better.

    A namespace alone (``mx.nd``, ``torch.nn``) is never matched, nor is a name against the
    other side's names. An unknown name gives ``[]``.
    """
    direction = _direction(direction)
    if not isinstance(name, str):
        raise TypeError(f"lookup() needs a name as a string, e.g. 'mx.nd.concat', not {name!r}")
    name = name.strip()
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
    if not ranked and direction == "torch" and name.startswith("mx.sym."):
        return lookup("mx.nd." + name[len("mx.sym."):], direction)
    return [entry for _, entry in sorted(ranked, key=lambda r: r[0])]
