"""The MNIST family for both frameworks, from one place on disk.

Layout: ``<root>/<Folder>/raw/`` holds each of the four IDX files twice — decompressed (what
``torchvision.datasets.<Folder>`` reads) and gzipped (what ``gluon.data.vision.<Folder>``
reads). ``<root>`` is the ``root`` argument, else ``$SIDEBYSIDE_DATA``, else
``~/.cache/sidebyside/data``.

Where the files come from, in this order:

1. already there (checked against the original release's checksums);
2. a folder of IDX files (gzipped or not): the ``source`` argument, else ``$SIDEBYSIDE_IDX_DIR``,
   else, for Fashion-MNIST, ``/usr/share/datasets/fashion-mnist`` (Debian's package
   ``dataset-fashion-mnist``);
3. torchvision's own download (``download=True``) into ``<root>``.

Which dataset: the ``name`` argument, else ``$SIDEBYSIDE_DATASET``, else ``"fashion-mnist"``
(the notebooks' stored outputs come from it, and it is the one that can be had offline from
a system package; ``"mnist"`` is the seed's dataset, one variable away).
No synthetic fallback: when nothing works, :class:`DatasetUnavailable` names both ways out.

A failure leaves the disk as it was: every file of a source folder is read and checked before
the first one is written; a folder that cannot be written (``$SIDEBYSIDE_DATA`` under a file, or
read-only) raises :class:`DataFolderUnwritable` before anything is written; a download that
fails takes back the files and folders it had created.

How Gluon reads the files: Gluon's classes check the SHA-1 of each *gzipped* file and
re-download on a mismatch. When the SHA-1s match (torchvision's MNIST download: the original
LeCun files), Gluon's stock class reads them as they are — one download serves both. When
they don't (Debian recompressed the Fashion-MNIST archives: same bytes inside, different gzip
wrapper), :mod:`sidebyside._gluon_local` subclasses Gluon's class, checks the *decompressed*
bytes against the original release's MD5s instead, and leaves all reading to Gluon's own code.

The specs (files, checksums, classes, normalisation constants) and the IDX readers live in
:mod:`sidebyside.idx`; their names are re-exported here (``data.SPECS``, ``data.FILES``, …).

Checked once: :func:`prepare` remembers, per dataset, data folder and source folder, the size
and modification time of the eight files it checked (the Gluon route check does the same per
split). A later call that finds them unchanged returns at once; a changed or missing file
means a full check again. :func:`clear_cache` forgets it all — the way to catch a file
rewritten in place at the same size within the file system's timestamp resolution.
"""
from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

# Re-exported: notebooks and tests use data.SPECS, data.FILES, data.DatasetUnavailable, …
from .idx import (DEBIAN_FASHION_MNIST, FILES, SPECS, DataFolderUnwritable,  # noqa: F401
                  DataIntegrityError, DatasetUnavailable, Spec, check_original, read_idx_bytes,
                  sha1_file)

ENV_DATASET = "SIDEBYSIDE_DATASET"
ENV_ROOT = "SIDEBYSIDE_DATA"
ENV_IDX_DIR = "SIDEBYSIDE_IDX_DIR"
DEFAULT_DATASET = "fashion-mnist"


def dataset_name(name: str | None = None) -> str:
    """The dataset to use: ``name``, else ``$SIDEBYSIDE_DATASET``, else ``"fashion-mnist"``."""
    chosen = name if name is not None else os.environ.get(ENV_DATASET) or DEFAULT_DATASET
    key = str(chosen).strip().lower().replace("_", "-")
    if key not in SPECS:
        origin = "argument" if name is not None else f"${ENV_DATASET}"
        raise ValueError(f"unknown dataset {chosen!r} (from the {origin}); choose one of {sorted(SPECS)}")
    return key


def data_root(root: str | os.PathLike | None = None) -> Path:
    """Where datasets live: ``root``, else ``$SIDEBYSIDE_DATA``, else ``~/.cache/sidebyside/data``."""
    if root is None:
        root = os.environ.get(ENV_ROOT) or Path.home() / ".cache" / "sidebyside" / "data"
    return Path(root).expanduser().resolve()


def raw_dir(name: str | None = None, root: str | os.PathLike | None = None) -> Path:
    return data_root(root) / SPECS[dataset_name(name)].folder / "raw"


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _absent_dirs(path: Path) -> list[Path]:
    """``path`` and those of its parents that do not exist yet, the outermost first."""
    absent = []
    while not path.exists() and path.parent != path:
        absent.append(path)
        path = path.parent
    return absent[::-1]


def _check_writable(raw: Path) -> None:
    """Raise :class:`DataFolderUnwritable` unless ``raw`` can be created and written to."""
    absent = _absent_dirs(raw)
    nearest = absent[0].parent if absent else raw   # the folder that would be written first
    if not nearest.is_dir():
        reason = f"{nearest} is a file, not a folder"
    elif not os.access(nearest, os.W_OK | os.X_OK):
        reason = f"{nearest} is not writable"
    else:
        return
    raise DataFolderUnwritable(
        f"cannot write the data folder {raw}: {reason}. Point ${ENV_ROOT} (or the `root` "
        "argument) at a folder you can write, and run again; nothing was written.")


@contextlib.contextmanager
def _undo_on_failure(raw: Path):
    """When the body raises, remove the IDX files it added to ``raw`` and the folders it
    created (torchvision's download: a failed one leaves nothing behind)."""
    absent = _absent_dirs(raw)
    names = set(FILES) | {f"{f}.gz" for f in FILES}
    before = set() if absent else names & set(os.listdir(raw))
    try:
        yield
    except BaseException:
        for name in names - before:
            with contextlib.suppress(OSError):
                (raw / name).unlink()
        for folder in reversed(absent):
            with contextlib.suppress(OSError):   # only when empty: nothing else is removed
                folder.rmdir()
        raise


def _complete(raw: Path) -> bool:
    return all((raw / f).is_file() for f in FILES)


def _verify_raw(spec: Spec, raw: Path) -> None:
    """Check the decompressed files (torchvision's); restore a missing gzipped copy (Gluon's).

    All four are checked before a gzipped copy is written.
    """
    missing_gz = {}
    for f in FILES:
        data = (raw / f).read_bytes()
        check_original(spec, f, data, raw / f)
        if not (raw / f"{f}.gz").is_file():
            missing_gz[f] = data
    if missing_gz:
        _check_writable(raw)
    for f, data in missing_gz.items():
        _write_atomic(raw / f"{f}.gz", gzip.compress(data, compresslevel=1, mtime=0))


def _import_folder(spec: Spec, src: Path, raw: Path) -> None:
    """Copy the four IDX files from ``src`` into ``raw``: decompressed and gzipped.

    All four are read and checked before the first one is written.
    """
    if not src.exists():
        raise DatasetUnavailable(f"source folder {src} for {spec.folder} does not exist")
    if not src.is_dir():
        raise DatasetUnavailable(f"source folder {src} for {spec.folder} is a file, not a folder")
    found = {}
    for f in FILES:
        for cand in (src / f"{f}.gz", src / f):
            if cand.is_file():
                found[f] = cand
                break
    missing = [f for f in FILES if f not in found]
    if missing:
        raise DatasetUnavailable(
            f"source folder {src} lacks {', '.join(missing)} (gzipped or not) of {spec.folder}")
    _check_writable(raw)
    checked = {}
    for f, cand in found.items():
        data = read_idx_bytes(cand)
        check_original(spec, f, data, cand)
        checked[f] = data
    raw.mkdir(parents=True, exist_ok=True)
    for f, cand in found.items():
        data = checked.pop(f)
        _write_atomic(raw / f, data)
        if cand.suffix == ".gz":  # keep the archive as it is: Gluon's SHA-1 may then match
            shutil.copyfile(cand, raw / f"{f}.gz")
        else:
            _write_atomic(raw / f"{f}.gz", gzip.compress(data, compresslevel=1, mtime=0))


def _ways_out(spec: Spec, root: Path) -> str:
    return (
        "Two ways out:\n"
        f"  1. go online and run again: torchvision downloads {spec.folder} into {root}, "
        "and Gluon reads the same files;\n"
        "  2. work offline: install Debian's package `dataset-fashion-mnist` "
        f"(apt-get install dataset-fashion-mnist) and set {ENV_DATASET}=fashion-mnist, "
        f"or put the four IDX files of {spec.folder} in a folder and point {ENV_IDX_DIR} "
        "(or the `source` argument) at it.")


def _torch_cls(spec: Spec):
    import torchvision

    return getattr(torchvision.datasets, spec.folder)


# What was checked, with the fingerprint of the files at the time: {key: (fingerprint, result)}.
_checked: dict[tuple, tuple[tuple | None, Any]] = {}


def _fingerprint(raw: Path) -> tuple | None:
    """Size and modification time of the eight files in ``raw``; None when one is missing."""
    try:
        stats = [os.stat(raw / name) for f in FILES for name in (f, f"{f}.gz")]
    except OSError:
        return None
    return tuple((st.st_size, st.st_mtime_ns) for st in stats)


def _once(key: tuple, raw: Path, check: Callable[[], Any]) -> Any:
    """``check()``, unless it already ran for ``key`` and no file in ``raw`` changed since."""
    fingerprint = _fingerprint(raw)
    if fingerprint is not None and key in _checked and _checked[key][0] == fingerprint:
        return _checked[key][1]
    result = check()
    _checked[key] = (_fingerprint(raw), result)  # taken after the check: it may write files
    return result


def clear_cache() -> None:
    """Forget what was checked: the next call checks the files in full again."""
    _checked.clear()


def prepare(name: str | None = None, root: str | os.PathLike | None = None,
            source: str | os.PathLike | None = None) -> Path:
    """Make sure ``<root>/<Folder>/raw`` holds the verified files; return that folder.

    The first call for a dataset, root and source does the work and checks every file; a
    later one returns at once while the files keep their size and modification time.
    """
    spec = SPECS[dataset_name(name)]
    root = data_root(root)
    raw = root / spec.folder / "raw"
    if source is None and os.environ.get(ENV_IDX_DIR):
        source = os.environ[ENV_IDX_DIR]
    source = None if source is None else Path(source).expanduser()
    key = ("prepare", spec.name, raw, None if source is None else source.resolve())
    _once(key, raw, lambda: _prepare(spec, root, raw, source))
    return raw


def _prepare(spec: Spec, root: Path, raw: Path, source: Path | None) -> None:
    """:func:`prepare`'s work, without the cache."""
    if source is not None:  # an explicit folder always wins, and is imported and checked
        _import_folder(spec, source, raw)
        return
    if _complete(raw):
        _verify_raw(spec, raw)
        return
    if spec.default_source is not None and spec.default_source.is_dir():
        _import_folder(spec, spec.default_source, raw)
        return
    _check_writable(raw)
    try:
        with _undo_on_failure(raw):
            for train in (True, False):
                _torch_cls(spec)(str(root), train=train, download=True)
    except Exception as exc:  # noqa: BLE001 - every download failure ends the same way
        raise DatasetUnavailable(
            f"{spec.folder} is not in {raw} and torchvision could not download it "
            f"({type(exc).__name__}: {' '.join(str(exc).split())[:300]}).\n"
            + _ways_out(spec, root)) from exc
    _verify_raw(spec, raw)


def torch_dataset(name: str | None = None, root: str | os.PathLike | None = None, train: bool = True,
                  transform=None, source: str | os.PathLike | None = None):
    """torchvision's own dataset class over the shared files (``download=False``)."""
    spec = SPECS[dataset_name(name)]
    prepare(spec.name, root, source)
    return _torch_cls(spec)(str(data_root(root)), train=train, transform=transform, download=False)


def gluon_expected_sha1(gluon_cls, train: bool) -> dict[str, str]:
    """The gzipped file names and SHA-1s that Gluon's class expects for one split.

    Read from Gluon itself: its classes set them in ``__init__`` before loading.
    """
    class _Probe(gluon_cls):
        def _get_data(self):  # skip loading, keep the attributes
            pass

    with tempfile.TemporaryDirectory() as tmp:
        probe = _Probe(root=tmp, train=train)
    pairs = (probe._train_data, probe._train_label) if train else (probe._test_data, probe._test_label)
    return dict(pairs)


@dataclass(frozen=True)
class GluonRoute:
    """How Gluon reads the files, in words a notebook can print."""

    stock: bool
    detail: str

    def __str__(self) -> str:
        return self.detail


def _gluon_route(spec: Spec, raw: Path, train: bool) -> GluonRoute:
    """The route for one split, checked once while the files are unchanged (as prepare())."""
    return _once(("gluon-route", spec.name, raw, train), raw,
                 lambda: _check_gluon_route(spec, raw, train))


def _check_gluon_route(spec: Spec, raw: Path, train: bool) -> GluonRoute:
    from mxnet.gluon.data import vision

    expected = gluon_expected_sha1(getattr(vision, spec.folder), train)
    mismatched = [f for f, sha in expected.items() if sha1_file(raw / f) != sha]
    if not mismatched:
        return GluonRoute(True, f"gluon.data.vision.{spec.folder} as shipped: the gzipped files "
                                "have the SHA-1s Gluon expects")
    return GluonRoute(False, (
        f"sidebyside's subclass of gluon.data.vision.{spec.folder}: {', '.join(mismatched)} "
        "differ from Gluon's SHA-1s, so the decompressed bytes are checked against the original "
        "release's MD5s instead; Gluon's own code reads them"))


def _gluon(spec: Spec, raw: Path, train: bool, route: GluonRoute):
    if route.stock:
        from mxnet.gluon.data import vision

        return getattr(vision, spec.folder)(root=str(raw), train=train)
    from . import _gluon_local

    return getattr(_gluon_local, f"Verified{spec.folder}")(root=str(raw), train=train)


def gluon_route(name: str | None = None, root: str | os.PathLike | None = None,
                train: bool = True, source: str | os.PathLike | None = None) -> GluonRoute:
    """Whether Gluon's stock class accepts the files, or the content-verified subclass is used."""
    spec = SPECS[dataset_name(name)]
    return _gluon_route(spec, prepare(spec.name, root, source), train)


def gluon_dataset(name: str | None = None, root: str | os.PathLike | None = None, train: bool = True,
                  source: str | os.PathLike | None = None):
    """Gluon's dataset class over the same files (see the module docstring for the route)."""
    spec = SPECS[dataset_name(name)]
    raw = prepare(spec.name, root, source)
    return _gluon(spec, raw, train, _gluon_route(spec, raw, train))


@dataclass(frozen=True)
class Pair:
    """The same split of one dataset, as each framework's own dataset object."""

    name: str
    train: bool
    raw_dir: Path
    torch: Any
    gluon: Any
    gluon_route: GluonRoute

    @property
    def classes(self) -> tuple[str, ...]:
        return SPECS[self.name].classes

    def __len__(self) -> int:
        return len(self.torch)


def load(name: str | None = None, root: str | os.PathLike | None = None, train: bool = True,
         source: str | os.PathLike | None = None) -> Pair:
    """Both frameworks' datasets over one copy of the files; no transforms applied."""
    spec = SPECS[dataset_name(name)]
    raw = prepare(spec.name, root, source)
    route = _gluon_route(spec, raw, train)
    return Pair(spec.name, train, raw,
                torch=_torch_cls(spec)(str(data_root(root)), train=train, download=False),
                gluon=_gluon(spec, raw, train, route),
                gluon_route=route)
