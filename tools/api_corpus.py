"""Count the MXNet constructs real code uses, and how many of them the catalogue answers.

    python tools/api_corpus.py count NAME=FOLDER ... --out benchmarks/results/api_corpus.json
    python tools/api_corpus.py coverage [--counts FILE] [--folder NAME=FOLDER ...] [--json]

``count`` reads every ``.py`` file and notebook under each folder, names each MXNet call site
as ``sidebyside.migrate`` resolves it (``F.X`` inside ``hybrid_forward`` is ``mx.nd.X``;
``sym.X``, ``npx.X``, methods on typed receivers …), keeps the names that exist in the
installed MXNet 1.9.1, and writes the counts per corpus (names and numbers only: no code of
those repositories is stored). ``coverage`` says, per corpus and in all, which share of the
operator call sites (``mx.nd``/``mx.sym``/``mx.np``/``mx.npx`` functions) and of all call
sites have a catalogue entry, and lists the most frequent names without one.

Exit status: 0, or 1 when ``coverage --min-operators P`` finds a corpus below P percent;
2 for bad arguments.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

DEFAULT = ROOT / "benchmarks" / "results" / "api_corpus.json"


def count(specs: list[str]) -> dict:
    from sidebyside.catalogue import surface

    out = {}
    for spec in specs:
        name, sep, folder = spec.partition("=")
        if not sep or not Path(folder).is_dir():
            raise SystemExit(f"api_corpus.py: error: {spec!r}: give NAME=FOLDER (a folder)")
        counts, files, lines = surface.scan_counts(Path(folder))
        out[name] = {"files": files, "lines": lines,
                     "counts": dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))}
        print(f"{name}: {files} files, {lines} lines, {sum(counts.values())} sites, "
              f"{len(counts)} names", file=sys.stderr)
    return out


def coverage(corpora: dict) -> dict:
    """Per corpus (and ``"all"``): operator sites and all sites, with and without an entry."""
    from sidebyside.catalogue import index, surface

    answered = {}

    def has_entry(name):
        if name not in answered:
            answered[name] = bool(index.lookup(name))
        return answered[name]

    total = collections.Counter()
    report = {}
    for name, data in list(corpora.items()) + [("all", None)]:
        counts = collections.Counter(data["counts"]) if data else total
        if data:
            total.update(counts)
        ops = {n: c for n, c in counts.items() if surface.is_operator_site(n)}
        missing = collections.Counter({n: c for n, c in counts.items() if not has_entry(n)})
        report[name] = {
            "operator sites": sum(ops.values()),
            "operator sites answered": sum(c for n, c in ops.items() if has_entry(n)),
            "sites": sum(counts.values()),
            "sites answered": sum(c for n, c in counts.items() if has_entry(n)),
            "names": len(counts),
            "names answered": sum(has_entry(n) for n in counts),
            "top missing operators": [[n, c] for n, c in missing.most_common()
                                      if surface.is_operator_site(n)][:25],
            "top missing": missing.most_common(25),
        }
    return report


def _pct(a, b):
    return f"{100 * a / b:.1f} %" if b else "—"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="api_corpus.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("count", help="count the MXNet call sites of folders of real code")
    c.add_argument("corpora", nargs="+", metavar="NAME=FOLDER")
    c.add_argument("--out", type=Path, default=DEFAULT)
    v = sub.add_parser("coverage", help="the share of those sites the catalogue answers")
    v.add_argument("--counts", type=Path, default=DEFAULT)
    v.add_argument("--folder", action="append", default=[], metavar="NAME=FOLDER",
                   help="count this folder now instead of reading --counts")
    v.add_argument("--json", action="store_true")
    v.add_argument("--min-operators", type=float, default=None, metavar="PERCENT")
    args = parser.parse_args(argv)
    if args.cmd == "count":
        data = count(args.corpora)
        args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return 0
    if args.folder:
        corpora = count(args.folder)
    else:
        if not args.counts.is_file():
            parser.error(f"{args.counts}: no such file (run the count command first)")
        corpora = json.loads(args.counts.read_text(encoding="utf-8"))
    report = coverage(corpora)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for name, r in report.items():
            print(f"{name:24} operator sites {r['operator sites answered']:6}/"
                  f"{r['operator sites']:<6} {_pct(r['operator sites answered'], r['operator sites']):>8}"
                  f"   all sites {r['sites answered']:6}/{r['sites']:<6} "
                  f"{_pct(r['sites answered'], r['sites']):>8}")
        print("most frequent operators without an entry (all corpora):",
              ", ".join(f"{n} {c}" for n, c in report["all"]["top missing operators"]))
    if args.min_operators is not None:
        low = [n for n, r in report.items() if r["operator sites"] and
               100 * r["operator sites answered"] / r["operator sites"] < args.min_operators]
        if low:
            print(f"below {args.min_operators} % of operator sites: {', '.join(low)}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
