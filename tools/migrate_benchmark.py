"""How ``sidebyside.migrate`` does on real code: speed, conversion rate, drafts free of MXNet.

    python tools/migrate_benchmark.py DIR [DIR ...] [--json OUT]

For each folder (a checkout of real MXNet code: MXNet's ``example/``, GluonCV's ``scripts/``,
your own): the files scanned, their lines; the scan's speed (lines per second, with the
drafts: every scan writes them) measured after a first warm-up pass over the first folder;
PaConvert's conversion rate (the lines that use MXNet which the draft converts, of all such
lines) with the lines that need a decision and those with no counterpart; how many drafts
parse (all must) and how many are free of MXNet (no MXNet import or construct left, no
library built on MXNet imported; files that use MXNet only); the most frequent constructs with no counterpart and the blockers.
``--seeds N`` also runs ``examples/legacy_gluon_mlp/train.py`` and its draft for one epoch
under N seeds each and reports the accuracies (the spread that the whole-script test's bound
rests on). Nothing here is asserted: it measures; tests/test_migrate_port.py asserts.
"""

from __future__ import annotations

import argparse
import ast
import json
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sidebyside.migrate import report, resolve

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "legacy_gluon_mlp" / "train.py"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def measure(folder: Path) -> dict:
    start = time.perf_counter()
    rep = report.scan(folder)
    seconds = time.perf_counter() - start
    t = rep.totals()
    using = [f for f in rep.analysed if f.line_status]
    parse = free = 0
    for f in using:
        try:
            ast.parse(f.draft.source)
            parse += 1
        except SyntaxError:
            continue
        left = [s for s in resolve.analyse(f.draft.source, f.path).sites
                if s.framework == "mxnet" and s.how != "guessed"]
        # free: no MXNet construct or import left, and no library built on MXNet imported
        # (a draft still calling gluoncv still needs MXNet)
        free += not left and not re.search(r"^\s*(import mxnet|from mxnet)", f.draft.source,
                                           re.M) \
            and not any(b[1] == "mxnet-library" for b in f.blockers)
    return {"folder": str(folder), "files": t["files"], "skipped": t["skipped"],
            "lines": t["lines"], "seconds": round(seconds, 3),
            "lines_per_second": round(t["lines"] / seconds) if seconds else None,
            "lines_using": t["lines_using"], "lines_converted": t["lines_converted"],
            "lines_decision": t["lines_decision"],
            "lines_no_counterpart": t["lines_no_counterpart"],
            "rate": round(t["rate"], 4) if t["rate"] is not None else None,
            "files_using_mxnet": len(using), "drafts_parse": parse, "drafts_free": free,
            "no_counterpart": dict(rep.no_counterpart_names().most_common(15)),
            "blockers": {k: sum(c.values()) for k, c in rep.blocker_counts().items()}}


def _accuracy(cmd: list[str], cwd: Path) -> float:
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, check=True).stdout
    return float(re.search(r"validation accuracy (0\.\d+)", out).group(1))


def seed_spread(seeds: int, idx: Path) -> dict:
    rep = report.scan_sources([(SCRIPT.name, SCRIPT.read_text(), None)])[0]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "draft.py").write_text(rep.draft.source)
        (tmp / "original.py").write_text(
            "import runpy, sys\nimport mxnet as mx\nfrom sidebyside import _gluon_local\n"
            "mx.gluon.data.vision.FashionMNIST = _gluon_local.VerifiedFashionMNIST\n"
            f"sys.argv = [{str(SCRIPT)!r}] + sys.argv[1:]\n"
            f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')\n")
        out = {}
        for name in ("draft", "original"):
            out[name] = [_accuracy([sys.executable, str(tmp / f"{name}.py"), "--data-dir",
                                    str(idx), "--epochs", "1", "--batch-size", "256",
                                    "--seed", str(s)], tmp) for s in range(seeds)]
    return {k: {"accuracies": v, "mean": round(statistics.mean(v), 4),
                "stdev": round(statistics.stdev(v), 4) if len(v) > 1 else None}
            for k, v in out.items()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument("--json", type=Path, help="write the results here too")
    p.add_argument("--seeds", type=int, default=0,
                   help="also train the legacy MLP script and its draft under this many seeds")
    args = p.parse_args(argv)
    missing = [str(f) for f in args.folders if not f.is_dir()]
    if missing:
        p.error(f"not a folder: {', '.join(missing)}")
    report.scan(args.folders[0])   # warm-up: the catalogue and the parsers load once
    results = {"machine": {"cpu": _cpu(), "python": platform.python_version()},
               "folders": [measure(f) for f in args.folders]}
    if args.seeds:
        from sidebyside import data

        results["seeds"] = seed_spread(args.seeds, data.prepare())
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
