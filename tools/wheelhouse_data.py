"""The dataset files a workshop wheelhouse carries (Makefile: `make wheelhouse`, and
`make setup WHEELHOUSE=…`).

    python tools/wheelhouse_data.py collect WHEELHOUSE FashionMNIST MNIST
        copies each dataset's ``*-ubyte.gz`` files into ``WHEELHOUSE/data/<Folder>/`` from the
        first place that has them: ``$SIDEBYSIDE_DATA`` (else ``~/.cache/sidebyside/data``)
        ``/<Folder>/raw``, then, for Fashion-MNIST, Debian's ``/usr/share/datasets/fashion-mnist``
        (``apt-get install dataset-fashion-mnist``). Stops with exit code 1, writing nothing,
        when no dataset has files. Standard library only: it runs before any environment exists.
    python tools/wheelhouse_data.py install WHEELHOUSE
        checks the files a wheelhouse carries and puts them where the notebooks read them
        (``sidebyside.data.prepare``), in the environment being set up.
"""
import os
import shutil
import sys
from pathlib import Path

# sidebyside.data's SPECS[name].folder and idx.DEBIAN_FASHION_MNIST, written out again because
# `collect` runs with the bare interpreter, before the package (and numpy) is installed
NAMES = {"FashionMNIST": "fashion-mnist", "MNIST": "mnist"}   # folder -> sidebyside.data name
DEBIAN = {"FashionMNIST": Path("/usr/share/datasets/fashion-mnist")}


def sources(folder: str) -> list[Path]:
    root = os.environ.get("SIDEBYSIDE_DATA") or Path.home() / ".cache" / "sidebyside" / "data"
    return [Path(root) / folder / "raw", *([DEBIAN[folder]] if folder in DEBIAN else [])]


def collect(wheelhouse: Path, folders: list[str]) -> int:
    unknown = sorted(set(folders) - set(NAMES))
    if unknown:
        print(f"collect: unknown dataset folder(s) {unknown}; known: {sorted(NAMES)}",
              file=sys.stderr)
        return 2
    found = {}
    for folder in folders:
        for src in sources(folder):
            files = sorted(src.glob("*-ubyte.gz"))
            if files:
                found[folder] = (src, files)
                break
    if not found:
        print("no dataset files to put in the wheelhouse: run 'make all' once with network (it "
              "downloads Fashion-MNIST), or apt-get install dataset-fashion-mnist",
              file=sys.stderr)
        return 1
    for folder, (src, files) in found.items():
        dest = wheelhouse / "data" / folder
        dest.mkdir(parents=True, exist_ok=True)
        for f in files:
            shutil.copy2(f, dest / f.name)
        print(f"{folder}: from {src}")
    return 0


def install(wheelhouse: Path) -> int:
    from sidebyside import data          # the environment being set up has it

    for folder, name in NAMES.items():
        carried = wheelhouse / "data" / folder
        if carried.is_dir():
            try:
                print(name, "->", data.prepare(name, source=str(carried)))
            except (data.DataIntegrityError, data.DatasetUnavailable,
                    data.DataFolderUnwritable) as err:
                print(f"install: {type(err).__name__}: {err}", file=sys.stderr)
                return 1
    return 0


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "collect":
        return collect(Path(argv[1]), argv[2:] or list(NAMES))
    if len(argv) == 2 and argv[0] == "install":
        return install(Path(argv[1]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
