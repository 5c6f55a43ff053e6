"""``python -m sidebyside.mx2torch``: legacy MXNet files into PyTorch, with no MXNet installed.

Exit codes (CONTRIBUTING.md): 0 done; 1 a file that cannot be read or translated, or a
``--check`` that finds a difference (one message or the report; nothing written); 2 bad flags.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

EPILOG = """examples (mx2torch is also `python -m sidebyside.mx2torch`):
  mx2torch model-symbol.json model-0000.params --out model.pt --code model.py
  mx2torch model-symbol.json model-0000.params --check check.npz
      (check.npz: inputs by name + MXNet's output0, ...; node:<name> arrays give a per-node
       report: python -m sidebyside.mxreference writes it, where MXNet still runs)
  mx2torch model-symbol.json model-0000.params --states trainer.states \\
      --optimizer-out optimizer.pt --out model.pt
  mx2torch yolo3-symbol.json yolo3-0000.params --outputs NODE1 NODE2 \
      --code backbone.py     (up to named nodes: a graph whose post-processing cannot be
       translated; an unsupported graph is refused with every missing operator named)
  mx2torch model-symbol.json model-0000.params --check check.npz --json > report.json
      (the same report as data: schema_version, each output's and node's difference)
  mx2torch --read model-0000.params     (the arrays in a file)
  mx2torch --ops                        (the supported operators)

exit codes: 0 done; 1 a file that cannot be read or translated, or --check found a
difference (nothing written); 2 bad flags"""


JSON_SCHEMA_VERSION = 1


def _parser(prog: str = "python -m sidebyside.mx2torch") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description="Translate an MXNet -symbol.json + .params (hybridize().export(), "
                    "Module.save_checkpoint) into a PyTorch module, with no MXNet installed.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from .. import __version__

    p.add_argument("--version", action="version",
                   version=f"%(prog)s {__version__} (sidebyside; Python "
                           f"{sys.version.split()[0]})")
    p.add_argument("symbol", nargs="?", help="the -symbol.json file")
    p.add_argument("params", nargs="?", help="the .params file saved with it")
    p.add_argument("--out", help="write the PyTorch state dict here (torch.save)")
    p.add_argument("--code", help="write the generated model.py here")
    p.add_argument("--check", metavar="NPZ",
                   help="compare with MXNet's outputs saved in NPZ; write nothing if they differ")
    p.add_argument("--float64", action="store_true",
                   help="run the check in float64 against MXNet's float64 outputs "
                        "(mxreference --float64); tolerance 1e-7")
    p.add_argument("--rtol", type=float, default=None, help="check tolerance (default 1e-4, "
                   "1e-7 with --float64), relative to each node's max |value|. With --float64, "
                   "nodes that depend on an MXNet kernel computing in float32 even in float64 "
                   "(LeakyReLU but elu, gelu, BilinearResize2D, the ReLU RNN: `--ops` lists "
                   "them) are compared at 3e-5, and the check says how many")
    p.add_argument("--atol", type=float, default=None, help="check tolerance (default 1e-6)")
    p.add_argument("--states", help="a Trainer.save_states file to convert too")
    p.add_argument("--optimizer-out", help="write the converted optimizer's state_dict here")
    p.add_argument("--read", metavar="FILE", help="list the arrays of an NDArray file and stop")
    p.add_argument("--ops", action="store_true", help="list the supported operators and stop")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object on stdout instead of the text report "
                        f"(schema_version {JSON_SCHEMA_VERSION}): what was translated, the "
                        "check's results per output and per node, the files written, or the "
                        "error (which stderr also gets)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bars (they are drawn only on a terminal, on stderr)")
    p.add_argument("--outputs", nargs="+", metavar="NODE",
                   help="translate up to these nodes (NAME, or NAME[i] for output i) instead of "
                        "the graph's outputs: a backbone and heads without post-processing that "
                        "cannot be translated; --check then compares them with the reference "
                        "file's node:NAME arrays")
    return p


def _fail(message: str) -> int:
    print(f"mx2torch: error: {message}", file=sys.stderr)
    return 1


def _list_ops() -> int:
    from .ops import coverage_rows

    rows = coverage_rows()
    for r in rows:
        names = r["op"] + (f" ({', '.join(r['aliases'])})" if r["aliases"] else "")
        attrs = ", ".join(r["attrs"]) or "-"
        print(f"{names}: {attrs}")
    print(f"{len(rows)} operators")
    from .ops import FLOAT32_KERNEL_RTOL, FLOAT32_KERNELS

    print(f"computed in float32 by MXNet even in float64 (--check --float64 compares what depends "
          f"on them at rtol {FLOAT32_KERNEL_RTOL:g}):")
    for name, (_, what) in FLOAT32_KERNELS.items():
        print(f"  {name}: {what}")
    return 0


def _read(path: str) -> int:
    from .ndfile import NDFileError, load_params

    try:
        arrays = load_params(path)
    except (NDFileError, OSError) as e:
        return _fail(str(e))
    items = arrays.items() if isinstance(arrays, dict) else enumerate(arrays)
    total = 0
    for name, a in items:
        shape = getattr(a, "shape", None)
        dtype = getattr(a, "dtype", None)
        total += int(np.prod(shape)) if shape is not None else 0
        print(f"{name}\t{dtype}\t{tuple(shape) if shape is not None else '?'}")
    print(f"{len(arrays)} arrays, {total:,} values")
    return 0


def _reference_outputs(data: dict, path, cut) -> list[str]:
    """The check file's arrays to compare the module's outputs with: output0, output1, ...,
    or for a graph cut at ``--outputs``, those nodes' ``node:NAME`` arrays."""
    if cut:
        keys = []
        for name in cut:
            key = f"node:{name}"
            if key not in data and "[" not in name and f"node:{name}[0]" in data:
                key = f"node:{name}[0]"
            if key not in data:
                raise ValueError(f"{path}: no array {key!r}: make the file with "
                                 "`python -m sidebyside.mxreference` (internals kept)")
            keys.append(key)
        return keys
    outputs = sorted((k for k in data if k.startswith("output")), key=lambda k: int(k[6:] or 0))
    if not outputs:
        raise ValueError(f"{path}: no MXNet outputs in it (output0, output1, ...)")
    return outputs


def _check(t, symbol, params, path, float64, rtol, atol, cut=None, quiet=False, rec=None):
    """Returns (ok, lines); ``rec["check"]`` gets the same results as data."""
    rec = {} if rec is None else rec
    rec["check"] = check = {"file": str(path), "float64": bool(float64), "rtol": rtol,
                            "atol": atol, "outputs": [], "nodes": None}
    import torch

    from . import codegen, report

    try:
        data = dict(np.load(path))
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: cannot read the check file ({e})") from None
    missing = [n for n in t.inputs if n not in data]
    if missing:
        raise ValueError(f"{path}: no array for the input(s) {', '.join(missing)} "
                         f"(the model takes {', '.join(t.inputs)})")
    outputs = _reference_outputs(data, path, cut)
    if float64 and any(data[k].dtype != np.float64 for k in outputs):
        raise ValueError(f"{path}: --float64 needs MXNet's float64 outputs, and these are "
                         f"{data[outputs[0]].dtype}: make the file with "
                         "`python -m sidebyside.mxreference ... --float64`")
    inputs = {n: data[n].astype(np.float64) if float64 and data[n].dtype.kind == "f" else data[n]
              for n in t.inputs}
    module = t.module.double() if float64 else t.module
    try:
        with torch.no_grad():
            got = module(*[torch.from_numpy(inputs[n]) for n in t.inputs])
    except RuntimeError as e:
        raise ValueError(f"{path}: the translated module fails on the file's inputs "
                         f"({str(e).splitlines()[0][:200]})") from None
    got = list(got) if isinstance(got, tuple) else [got]
    if len(got) != len(outputs):
        check["ok"] = False
        return False, [f"the module gives {len(got)} outputs, the check file {len(outputs)}"]
    lines, ok = [], True
    loose: dict = {}
    if float64:
        from .codegen import cut as cut_graph
        from .graph import read_symbol
        from .ops import FLOAT32_KERNEL_RTOL

        graph = cut_graph(read_symbol(symbol), cut)
        region = report.float32_region(graph)
        if region:
            kinds = sorted(set(region.values()))
            lines.append(f"{len(region)} nodes depend on MXNet kernels that compute in float32 "
                         f"even in float64 ({', '.join(kinds)}): compared at rtol "
                         f"{FLOAT32_KERNEL_RTOL:g}")
            loose = {name: max(rtol, FLOAT32_KERNEL_RTOL) for name in region}
        heads = [graph.nodes[h].name for h, _ in graph.heads]
    for i, (g, key) in enumerate(zip(got, outputs)):
        ref = data[key]
        g = g.numpy()
        if g.shape != ref.shape:
            ok = False
            lines.append(f"output {i}: shape {g.shape}, MXNet's {ref.shape}")
            check["outputs"].append({"index": i, "shape": list(g.shape),
                                     "mxnet_shape": list(ref.shape), "ok": False})
            continue
        d, m = report.difference(g, ref)
        r = loose.get(heads[i], rtol) if loose and i < len(heads) else rtol
        good = d <= atol + r * m
        ok &= good
        check["outputs"].append({"index": i, "shape": list(ref.shape), "max_abs_diff": d,
                                 "max_abs_ref": m, "rtol": r, "ok": bool(good)})
        lines.append(f"output {i} {ref.shape}: max|Δ| {d:.3g}, max|ref| {m:.3g} "
                     f"({'ok' if good else 'DIFFERENT'})")
    if any(k.startswith("node:") for k in data):
        from ..progress import Steps

        tm = codegen.tapped(t, symbol, params, outputs=cut)
        r = report.compare_nodes(t, tm, inputs, data, rtol=rtol, atol=atol, rtol_for=loose,
                                 progress=Steps("comparing", quiet=quiet, unit="node"))
        lines += r.lines()
        ok &= r.ok
        check["nodes"] = [{"node": row.node, "op": row.op, "shape": list(row.shape),
                           "max_abs_diff": row.max_abs_diff, "max_abs_ref": row.max_abs_ref,
                           "ok": bool(row.ok), **({"why": row.why} if row.why else {})}
                          for row in r.rows]
    check["ok"] = bool(ok)
    return ok, lines


def main(argv=None, prog: str | None = None) -> int:
    parser = _parser(prog) if prog else _parser()
    args = parser.parse_args(argv)
    if args.ops:
        return _list_ops()
    if args.read:
        return _read(args.read)
    if not args.symbol or not args.params:
        parser.error("give the -symbol.json and the .params file (or --read, --ops)")
    if args.optimizer_out and not args.states:
        parser.error("--optimizer-out needs --states")
    rec = {"tool": "mx2torch", "schema_version": JSON_SCHEMA_VERSION,
           "symbol": args.symbol, "params": args.params}
    code = _translate(args, rec, (lambda *a, **k: None) if args.json else print)
    if args.json:
        rec["exit_code"] = code
        print(json.dumps(rec, indent=1, default=float))
    return code


def _translate(args, rec: dict, say) -> int:
    """The translation, the check and the writing; ``say`` prints the text report (a no-op
    with --json), ``rec`` collects the JSON report."""
    def fail(message: str) -> int:
        rec["error"] = message
        return _fail(message)

    for flag, path in (("--out", args.out), ("--code", args.code),
                       ("--optimizer-out", args.optimizer_out)):
        if path and not Path(path).resolve().parent.is_dir():
            return fail(f"{flag} {path}: the folder does not exist")
    from .codegen import UnsupportedOperator, trainer_parameters, translation
    from .graph import SymbolFileError
    from .ndfile import NDFileError

    from ..progress import Steps

    t0 = time.perf_counter()
    steps = Steps("translating", quiet=args.quiet, unit="node")
    try:
        t = translation(args.symbol, args.params, outputs=args.outputs, progress=steps)
    except (UnsupportedOperator, SymbolFileError, NDFileError, OSError) as e:
        steps.close()
        return fail(str(e))
    n = sum(int(np.prod(a.shape)) for a in t.state_dict.values())
    rec.update(nodes=len(t.nodes), parameter_values=n, inputs=list(t.inputs),
               outputs=list(t.outputs), notes=list(t.notes),
               seconds=round(time.perf_counter() - t0, 3))
    say(f"translated {Path(args.symbol).name}: {len(t.nodes)} nodes, {n:,} parameter values, "
        f"inputs {', '.join(t.inputs)} ({time.perf_counter() - t0:.2f} s)")
    for note in t.notes:
        say(f"  note: {note}")
    opt = None
    if args.states:
        from .optstate import OptStateError, load_trainer_states, to_torch_optimizer

        try:
            states = load_trainer_states(args.states)
            opt = to_torch_optimizer(states, trainer_parameters(t))
        except (OptStateError, OSError) as e:
            return fail(str(e))
        cls = type(opt)
        where = "torch.optim" if cls.__module__.startswith("torch.") else cls.__module__
        rec["optimizer"] = {"mxnet": states.optimizer, "torch": f"{where}.{cls.__name__}",
                            "states": len(states.states), "num_update": states.num_update}
        say(f"optimizer: {states.optimizer} → {where}.{cls.__name__} "
            f"({len(states.states)} states, num_update {states.num_update}); to resume, build "
            f"{cls.__name__}(model.parameters(), ...) and load_state_dict() the file")
        rescale = states.hyperparameters.get("rescale_grad", 1.0)
        if rescale != 1.0:
            say(f"  note: the Trainer scaled gradients by rescale_grad={rescale:g} "
                "(step(batch_size)): divide the loss by the batch size, or pass "
                "rescale_grad= to optstate.to_torch_optimizer")
    if args.check:
        rtol = args.rtol if args.rtol is not None else (1e-7 if args.float64 else 1e-4)
        atol = args.atol if args.atol is not None else (1e-12 if args.float64 else 1e-6)
        try:
            ok, lines = _check(t, args.symbol, args.params, args.check, args.float64, rtol, atol,
                               args.outputs, args.quiet, rec)
        except ValueError as e:
            return fail(str(e))
        for line in lines:
            say(line)
        if not ok:
            rec["error"] = "the translation differs from MXNet's outputs; nothing written"
            print(f"mx2torch: {rec['error']}", file=sys.stderr)
            return 1
        if args.float64:
            t.module.float()        # the state dict is written in the file's own dtype
    rec["written"] = []
    if args.out or args.code:
        t.save(args.out, args.code)
        for path in (args.out, args.code):
            if path:
                rec["written"].append(path)
                say(f"wrote {path}")
    if args.optimizer_out:
        import torch

        torch.save(opt.state_dict(), args.optimizer_out)
        rec["written"].append(args.optimizer_out)
        say(f"wrote {args.optimizer_out}")
    return 0


def run() -> None:
    """The ``mx2torch`` console script (pyproject.toml [project.scripts])."""
    sys.exit(main(prog="mx2torch"))
