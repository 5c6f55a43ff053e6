"""Write book/mxnet_api.md: every entry of the catalogue keyed by MXNet's API, with what its
check measured.

    python tools/make_catalogue_page.py [--check]   # the page from the committed results
    python tools/make_catalogue_page.py --run       # run every check first (make catalogue-page)

The page is a pure function of the entries (:mod:`sidebyside.catalogue`), the results of
their checks (``benchmarks/results/catalogue_checks.json``, written by ``--run`` with the
machine, versions and threads it ran on), the counts of real code
(``benchmarks/results/api_corpus.json``, ``tools/api_corpus.py``) and MXNet's public surface
as the installed package lists it. Each result is stored with a digest of its check's code:
a check edited since its result was measured makes ``--check`` (and the test) fail until the
checks run again.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import html
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

RESULTS = ROOT / "benchmarks" / "results" / "catalogue_checks.json"
CORPUS = ROOT / "benchmarks" / "results" / "api_corpus.json"
OUT = ROOT / "book" / "mxnet_api.md"
TARGET = "catalogue-page"
SCHEMA = "catalogue-checks/1"


def digest(e) -> str:
    """What a result was measured for: the entry's check, as code and settings."""
    text = repr(e.check) if e.check is not None else "unchecked"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _cpu() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return platform.processor() or platform.machine()


def run_all() -> dict:
    """Run every check in this process; the results keyed by entry."""
    import mxnet as mx
    import torch

    from sidebyside.catalogue import index, run

    results, t0 = {}, time.perf_counter()
    for e in index.entries():
        o = run.run_entry(e)
        results[e.key] = {"ok": o.ok, "message": o.message, "diffs": o.diffs,
                          "drift_ratio": o.drift_ratio, "seconds": round(o.seconds, 4),
                          "digest": digest(e)}
    return {"schema": SCHEMA, "when": time.strftime("%Y-%m-%d", time.gmtime()),
            "machine": {"cpu": _cpu(), "cores": len(__import__("os").sched_getaffinity(0))},
            "versions": {"mxnet": mx.__version__, "torch": torch.__version__.split("+")[0]},
            "threads": {"torch": torch.get_num_threads()},
            "seconds": round(time.perf_counter() - t0, 1), "results": results}


# ------------------------------------------------------------------------------ page
def _cell(text) -> str:
    return html.escape(str(text), quote=False).replace("|", "\\|").replace("\n", " ")


def _code(text) -> str:
    text = str(text).replace("\n", " ")
    if "`" in text:
        return f"<code>{_cell(text)}</code>"
    return f"`{text.replace('|', '¦')}`" if "|" in text else f"`{text}`"


def _e(x) -> str:
    return "0" if x == 0 else f"{x:.1e}"


def _measured(e, r) -> str:
    if e.check is None:
        return "**unchecked**"
    if r is None:
        return "**not run**"
    if not r["ok"]:
        return f"**FAILS**: {_cell(r['message'][:160])}"
    c = e.check
    if c.kind == "exact":
        return "equal (" + ", ".join(c.dtypes) + ")"
    if c.kind == "random":
        return "same distribution (" + ", ".join(
            f"{d}: distance {_e(v)}" for d, v in r["diffs"].items()) + ")"
    parts = [f"{d.replace('float', 'f')} max\\|Δ\\| {_e(v)}" for d, v in r["diffs"].items()]
    grads = " incl. gradients" if (c.grad or "net =" in c.mx) else ""
    return "; ".join(parts) + grads


def _notes(e) -> str:
    out = []
    if e.args:
        out.append(f"*arguments*: {_cell(e.args)}")
    if e.defaults:
        out.append(f"*defaults*: {_cell(e.defaults)}")
    out += [f"⚠ {_cell(g)}" for g in e.gotchas]
    if e.recipe:
        out.append(f"*recipe*: {_code(' ; '.join(e.recipe.splitlines()))}")
    if e.note:
        out.append(_cell(e.note))
    if e.check is not None and e.check.note:
        out.append(f"*bound*: {_cell(e.check.note)}")
    if e.mx2torch:
        out.append(f"*mx2torch*: {_cell(e.mx2torch)}")
    else:
        from sidebyside.catalogue import index

        op = index.operator_of().get(e.mx)
        faces = sorted(n for n, o in index.operator_of().items()
                       if o == op and n.startswith("mx.sym.")) if op else []
        if faces:
            out.append(f"*mx2torch* ({_code(faces[0])}): {_cell(index.mx2torch_note(faces[0]))}")
    if e.teach:
        # an HTML link to the built page's section: MyST resolves no heading ids of notebooks
        out.append(f'taught in <a class="sbs-sec" href="{html.escape(e.target)}">'
                   f"{_cell(e.where)}</a>")
    return "<br>".join(out) or "—"


def _namespace(e) -> str:
    parts = e.mx.split(".")
    for i in range(1, len(parts)):
        if parts[i][:1].isupper() or i == len(parts) - 1:
            return ".".join(parts[:i])
    return e.mx


def _status(e) -> str:
    from sidebyside.catalogue.model import STATUS_TEXT

    return STATUS_TEXT[e.status]


FILTER = """<div class="sbs-api-filter">
<label for="sbs-api-q">Filter the rows:</label>
<input id="sbs-api-q" type="search" placeholder="a name: topk, Conv2DTranspose, Trainer.step" size="40">
<span id="sbs-api-n"></span>
</div>
<script>
document.addEventListener("DOMContentLoaded", function () {
  var q = document.getElementById("sbs-api-q"), n = document.getElementById("sbs-api-n");
  var rows = Array.prototype.slice.call(document.querySelectorAll("table tbody tr"));
  q.addEventListener("input", function () {
    var words = q.value.toLowerCase().split(/\\s+/).filter(Boolean), shown = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.style.display = keep ? "" : "none";
      shown += keep ? 1 : 0;
    });
    n.textContent = words.length ? shown + " of " + rows.length + " rows" : "";
  });
});
</script>
"""


def coverage_lines(results: dict) -> list[str]:
    from sidebyside.catalogue import index, surface

    surf = surface.public_surface()
    answered = [n for n, reach in surf.items() if any(index.lookup(r) for r in reach)]
    checked = [n for n, reach in surf.items()
               if any(m.entry.check is not None for r in reach for m in index.lookup(r))]
    lines = [f"- **MXNet's public Gluon surface** (every public class of "
             f"{', '.join('`' + m + '`' for m in surface.SURFACE_MODULES)} and the "
             f"{sum(n.startswith('mx.optimizer.') for n in surf)} registered optimizers, "
             f"enumerated from the installed package): {len(answered)} of {len(surf)} "
             f"answered, {len(checked)} with an executed check."]
    if CORPUS.exists():
        sys.path.insert(0, str(ROOT / "tools"))
        import api_corpus

        corpora = json.loads(CORPUS.read_text(encoding="utf-8"))
        rep = api_corpus.coverage(corpora)["all"]
        lines.append(
            f"- **Real code** ({len(corpora)} corpora, "
            f"{sum(c['files'] for c in corpora.values()):,} files, "
            f"{sum(c['lines'] for c in corpora.values()):,} lines; counts in "
            f"`benchmarks/results/api_corpus.json`, `tools/api_corpus.py`): "
            f"{rep['operator sites answered']:,} of {rep['operator sites']:,} operator call "
            f"sites ({100 * rep['operator sites answered'] / rep['operator sites']:.1f} %) "
            f"and {rep['sites answered']:,} of {rep['sites']:,} MXNet call sites of any kind "
            f"({100 * rep['sites answered'] / rep['sites']:.1f} %) have an entry.")
    return lines


def render(results: dict | None = None) -> tuple[str, dict]:
    from sidebyside.catalogue import index
    from sidebyside.catalogue.model import STATUSES
    from sidebyside.catalogue.render_names import PAGE_TITLE, anchor_of

    if results is None:
        results = json.loads(RESULTS.read_text(encoding="utf-8"))
    entries = index.entries()
    res = results["results"]
    stale = [e.key for e in entries if e.key in res and res[e.key]["digest"] != digest(e)]
    by_status = collections.Counter(e.status for e in entries)
    n_checked = sum(e.check is not None for e in entries)
    n_ok = sum(1 for e in entries if res.get(e.key, {}).get("ok") and e.key not in stale)
    m, v = results["machine"], results["versions"]
    out = [f"# {PAGE_TITLE}", "",
           "<!-- generated by tools/make_catalogue_page.py (make catalogue-page); "
           "do not edit -->", "",
           "Every construct of MXNet 1.9.1 that real code uses, keyed by its MXNet name, with "
           "its PyTorch counterpart written as a call (the MXNet arguments mapped in place), "
           "the defaults that differ, what to watch for, and the section that teaches it. "
           "A construct whose forms map differently (`topk(ret_typ='both')`, "
           "`Dense(flatten=False)`) has a row per form. Each row's check ran both sides on "
           "the same inputs: forward values, gradients (of the inputs and of every "
           "parameter) and running statistics, in float64 to a tight bound and in float32 "
           "beside it; *max\\|Δ\\|* is the largest difference between MXNet and PyTorch it "
           "measured. The same catalogue answers `sidebyside.apimap.find` and "
           "`python -m sidebyside.migrate`.", "",
           f"{len(entries)} entries: " + ", ".join(
               f"{by_status[s]} *{s}*" for s in STATUSES if by_status[s]) +
           f"; {n_checked} with a check, {n_ok} passing in the run below.", ""]
    out += coverage_lines(results) + [""]
    out += [f"The checks ran on {results['when']} on {m['cpu']} ({m['cores']} cores), "
            f"MXNet {v['mxnet']}, PyTorch {v['torch']} with {results['threads']['torch']} "
            f"thread(s) (`import mxnet` drops PyTorch to one), in {results['seconds']} s in "
            "one process.", ""]
    if stale:
        out += [f"**{len(stale)} checks changed since this run**: run `make {TARGET}`.", ""]
    out += ["```{raw} html", FILTER, "```", ""]
    groups: dict[str, list] = collections.defaultdict(list)
    for e in entries:
        groups[_namespace(e)].append(e)
    for ns in sorted(groups):
        out += [f"## `{ns}`", "", "| MXNet | PyTorch | status | checked | notes |",
                "|---|---|---|---|---|"]
        for e in sorted(groups[ns], key=lambda e: (e.mx.lower(), bool(e.when), e.form)):
            name = e.mx + (f" [{e.form}]" if e.form else "")
            also = f"<br>also {', '.join(_code(a) for a in e.aliases)}" if e.aliases else ""
            out.append(f"| <span id=\"{anchor_of(e)}\"></span>{_code(name)}{also} | "
                       f"{_code(e.torch)} | {_status(e)} | {_measured(e, res.get(e.key))} | "
                       f"{_notes(e)} |")
        out.append("")
    stats = {"entries": len(entries), "checked": n_checked, "passing": n_ok,
             "stale": len(stale)}
    return "\n".join(out).rstrip() + "\n", stats


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="store_true", help="run every check first and write "
                        f"{RESULTS.relative_to(ROOT)}")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the page is out of date")
    args = parser.parse_args(argv)
    if args.run and args.check:
        parser.error("--run and --check do not go together")
    results = None
    if args.run:
        results = run_all()
        RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        bad = [k for k, r in results["results"].items() if not r["ok"]]
        print(f"ran {len(results['results'])} checks in {results['seconds']} s; "
              f"{len(bad)} fail" + (f": {bad[:5]}" if bad else ""))
    elif not RESULTS.exists():
        parser.error(f"{RESULTS.relative_to(ROOT)} is missing: run with --run")
    text, stats = render(results)
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.name}: {'up to date' if same else f'OUT OF DATE: run make {TARGET}'}")
        return 0 if same and not stats["stale"] else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.name}: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
