"""``python -m sidebyside.migrate``: scan a legacy script or folder, print a verified migration
plan, and optionally write a draft port.

Exit codes (CONTRIBUTING.md): 0 done (files skipped are listed in the report); 1 a path that
cannot be scanned, an ``--out``/``--write`` target that is refused (nothing written); 2 bad
flags; 3 done, and ``--fail-on`` found what it names (the report and the draft are written
all the same).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from . import gotchas, notebooks, prove, report, rewrite

EPILOG = """examples (mxmigrate is also `python -m sidebyside.migrate`):
  mxmigrate train.py                     (MXNet -> PyTorch, on the terminal)
  mxmigrate src/ --format md --out plan.md
  mxmigrate src/ --write ../src-torch    (draft port + MIGRATION.md there)
  mxmigrate main.py --to gluon           (a PyTorch script -> Gluon)
  mxmigrate model.py --prove             (each drafted block vs Gluon)
  mxmigrate --rules                      (the rewrite rules and detectors)

Links point into the book (notebooks/NN_topic.ipynb#section, relative to its root; in a
clone of the collection they are the notebooks themselves); --link-base prefixes them.

--fail-on for CI: unmapped (a construct with no counterpart), gotcha (a gotcha that needs a
decision), blocker (the Symbol/Module API, a library built on MXNet, amp, a kvstore);
several as a comma list. Files are written with the usual permissions (umask).

exit codes: 0 done (skipped files are listed); 1 a path that cannot be scanned, or an
--out/--write target refused (nothing written); 2 bad flags; 3 done, and --fail-on found
what it names"""

FAIL_ON = ("unmapped", "gotcha", "blocker")


def _parser(prog: str = "python -m sidebyside.migrate") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Scan a legacy MXNet script or folder (or a PyTorch one, --to gluon): "
                    "each construct with its executed counterpart, the gotchas that apply, "
                    "the notebook that teaches it; optionally a draft port.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from .. import __version__

    p.add_argument("--version", action="version",
                   version=f"%(prog)s {__version__} (sidebyside; Python "
                           f"{sys.version.split()[0]})")
    p.add_argument("path", nargs="?", help="a .py file, a notebook (.ipynb) or a folder "
                                           "(scanned recursively)")
    p.add_argument("--to", choices=sorted(report.DIRECTIONS), default="torch",
                   help="the framework to port to (default: torch; gluon reads a PyTorch "
                        "script)")
    p.add_argument("--format", choices=("text", "md", "json", "sarif"), default="text",
                   help="the report's format (default: text; json has a schema_version; "
                        "sarif is SARIF 2.1.0, for code-scanning tools)")
    p.add_argument("--out", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--write", metavar="DIR",
                   help="write a draft port of every file to DIR (new or empty; outside the "
                        "scanned folder) and the Markdown report as DIR/MIGRATION.md")
    p.add_argument("--link-base", default="", metavar="URL",
                   help="prefix for the report's links (default: relative to the book)")
    p.add_argument("--rules", action="store_true",
                   help="list the rewrite rules and gotcha detectors and stop")
    p.add_argument("--prove", action="store_true",
                   help="prove the draft's modules: each Gluon block class the draft made "
                        "an nn.Module is built in both frameworks, the weights copied, the "
                        "float64 outputs compared (needs MXNet and PyTorch here; runs the "
                        "script's imports and class definitions, nothing else)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bar (it is drawn only on a terminal, on stderr)")
    p.add_argument("--fail-on", type=_fail_on, default=(), metavar="WHAT",
                   help="exit 3 when the scan finds it: unmapped, gotcha, blocker "
                        "(comma-separated)")
    return p


def _fail_on(text: str) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
    bad = [t for t in items if t not in FAIL_ON]
    if bad or not items:
        raise argparse.ArgumentTypeError(
            f"{', '.join(bad) or repr(text)}: give unmapped, gotcha or blocker "
            "(comma-separated)")
    return items


def failures(rep: report.Report, what: tuple[str, ...]) -> dict[str, int]:
    """How many of each thing ``--fail-on`` names the scan found (only those found)."""
    t = rep.totals()
    found = {
        "unmapped": t["lines_no_counterpart"],
        "gotcha": sum(g.decision for f in rep.analysed for s in f.sites for g in s.findings),
        "blocker": sum(len(f.blockers) for f in rep.analysed),
    }
    return {k: found[k] for k in what if found[k]}


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fail(message: str) -> int:
    print(f"migrate: error: {message}", file=sys.stderr)
    return 1


def _inside(path: Path, folder: Path) -> bool:
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def _rules_text() -> str:
    out = [f"{len(rewrite.RULES)} rewrite rules (the draft applies them; each is executed "
           "against MXNet in tests/test_migrate_rewrite.py):"]
    out += [f"  {r.name:24} {r.before}  ->  {r.after}" for r in rewrite.RULES]
    for direction in ("torch", "gluon"):
        found = [d for d in gotchas.DETECTORS if d.direction == direction]
        out.append(f"{len(found)} gotcha detectors for --to {direction}:")
        out += [f"  {d.name:30} {d.title} ({d.where})" for d in found]
    return "\n".join(out) + "\n"


def _write_port(rep: report.Report, target: Path, markdown: str) -> int:
    """Every draft into a fresh folder next to ``target``, then renamed into place: a
    failure leaves nothing behind (parent folders it had to create included)."""
    made = [p for p in [target.parent, *target.parent.parents] if not p.exists()]
    staging = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".migrate-", dir=target.parent))
        for f in rep.analysed:
            dest = staging / f.path if Path(rep.root).is_dir() else staging / Path(f.path).name
            dest.parent.mkdir(parents=True, exist_ok=True)
            if f.notebook is not None:   # a notebook: its cells, each with its drafted code
                dest.write_text(notebooks.notebook_of(f.notebook, f.draft.source),
                                encoding="utf-8")
                continue
            # the file's own encoding (a BOM kept); a marker's → in a latin-1 file as \u2192
            dest.write_bytes(f.draft.source.encode(f.encoding, errors="backslashreplace"))
        (staging / "MIGRATION.md").write_text(markdown, encoding="utf-8")
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp made it 0700: a folder like mkdir's
        if target.exists():
            target.rmdir()  # empty: checked before
        os.rename(staging, target)
    except OSError as err:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        for folder in made:  # innermost first
            try:
                folder.rmdir()
            except OSError:
                break
        return _fail(f"--write {target}: {err.strerror or err}; nothing written")
    return 0


def _stage_out(path: Path, text: str) -> Path | None:
    """The report written next to ``--out`` under a temporary name (renamed once the port,
    if any, is written), or ``None`` with the message printed."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".migrate-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp made it 0600: a file like open()'s
        return Path(tmp)
    except OSError as err:
        _fail(f"--out {path}: {err.strerror or err}; nothing written")
        return None


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    parser = _parser(prog) if prog else _parser()
    args = parser.parse_args(argv)
    if args.rules:
        sys.stdout.write(_rules_text())
        return 0
    if not args.path:
        parser.error("give a .py file, a notebook or a folder to scan (or --rules)")
    scanned = Path(args.path)
    folder = scanned if scanned.is_dir() else scanned.parent
    target = Path(args.write) if args.write else None
    if target is not None:
        if scanned.exists() and _inside(target, folder):
            return _fail(f"--write {args.write}: inside the scanned folder {folder}; "
                         "migrate never writes there (give a folder outside it)")
        if target.exists() and (not target.is_dir() or any(target.iterdir())):
            return _fail(f"--write {args.write}: not an empty folder; give a new or empty "
                         "one (nothing written)")
    if args.out and scanned.exists() and _inside(Path(args.out), folder):
        return _fail(f"--out {args.out}: inside the scanned folder {folder}; migrate never "
                     "writes there (give a path outside it)")
    if args.prove:
        if args.to != "torch":
            parser.error("--prove checks drafts to PyTorch: it goes with --to torch")
        missing = prove.available()
        if missing:
            parser.error(f"--prove needs MXNet 1.x and PyTorch in this Python ({missing})")
    from ..progress import Steps

    steps = Steps("scanning", quiet=args.quiet, unit="file")
    try:
        rep = report.scan(args.path, args.to, progress=steps)
    except report.ScanError as err:
        return _fail(str(err))
    finally:
        steps.close()
    if args.prove:
        prove.prove_report(rep)
    text = report.render(rep, args.format, args.link_base)
    staged = None
    if args.out:  # first, so that a bad --out leaves no port behind
        staged = _stage_out(Path(args.out), text)
        if staged is None:
            return 1
    if target is not None:
        md = text if args.format == "md" else report.render(rep, "md", args.link_base)
        code = _write_port(rep, target, md)
        if code:
            if staged is not None:
                staged.unlink(missing_ok=True)
            return code
    if args.out:
        try:
            os.replace(staged, args.out)
        except OSError as err:
            staged.unlink(missing_ok=True)
            return _fail(f"--out {args.out}: {err.strerror or err}")
        t = rep.totals()
        print(f"migrate: {t['constructs']} constructs in {t['files']} "
              f"file{'' if t['files'] == 1 else 's'}, report in {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if target is not None:
        k = len(rep.analysed)
        print(f"migrate: draft port of {k} file{'' if k == 1 else 's'} in {target} "
              f"(MIGRATION.md: the report; '# >>>>>> migrate' lines mark each decision)",
              file=sys.stderr)
    failed = failures(rep, args.fail_on)
    if failed:
        print("migrate: --fail-on: " + ", ".join(f"{k} {v}" for k, v in failed.items()),
              file=sys.stderr)
        return 3
    return 0


def run() -> None:
    """The ``mxmigrate`` console script (pyproject.toml [project.scripts])."""
    sys.exit(main(prog="mxmigrate"))
