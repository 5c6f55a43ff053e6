"""MXNet's own outputs for a symbol file, every node's included: the reference that
``python -m sidebyside.mx2torch --check`` compares a translation with.

This is the one mx2torch companion that needs MXNet (run it where MXNet 1.9.1 still works,
e.g. this project's environment); the translator itself never imports MXNet. The ``.npz`` it
writes holds the inputs under their names, the graph's outputs as ``output0``, ``output1``, ...,
and, with ``internals=True``, every node's output as ``node:<name>`` (``node:<name>[i]`` for a
node with several outputs)::

    python -m sidebyside.mxreference model-symbol.json model-0000.params \\
        --input data=1,3,224,224 --out check.npz
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np


def _load(symbol, params):
    import mxnet as mx

    sym = mx.sym.load(str(symbol)) if not hasattr(symbol, "tojson") else symbol
    if isinstance(params, dict):
        raw = params
    else:
        raw = mx.nd.load(str(params))
        if isinstance(raw, list):         # an unnamed list: empty (a graph without weights)
            if raw:
                raise ValueError(f"{params}: an unnamed list of arrays, not a model's "
                                 "parameters (export() or save_checkpoint write names)")
            raw = {}
    arg, aux = {}, {}
    for key, value in raw.items():
        kind, sep, name = key.partition(":")
        value = value if isinstance(value, mx.nd.NDArray) else mx.nd.array(value, dtype=value.dtype)
        if sep and kind == "aux":
            aux[name] = value
        elif sep and kind == "arg":
            arg[name] = value
        elif key in sym.list_auxiliary_states():
            aux[key] = value
        else:
            arg[key] = value
    return sym, arg, aux


#: operators whose output (or indices) are float32 when the graph omits their dtype
_FLOAT32_BY_DEFAULT = {"_arange", "_linspace", "_zeros", "_ones",
                       "_full", "_eye", "one_hot", "argsort", "topk"}


def float64_graph(sym):
    """The graph with its float32 constants and casts made float64 (``_arange``, ``_zeros``,
    ``Cast`` ... with ``dtype='float32'``, and ``argsort``/``topk`` indices, ``_arange`` ...
    whose dtype is left at its float32 default): MXNet refuses to add a float32 constant to a
    float64 array, so a detector's graph runs in float64 only this way. A translation does the
    same when ``.double()``'d (its float32 is the module's float type)."""
    import mxnet as mx

    graph = json.loads(sym.tojson())
    changed = 0
    for node in graph["nodes"]:
        attrs = node.setdefault("attrs", {})
        dtype = attrs.get("dtype", "float32" if node["op"] in _FLOAT32_BY_DEFAULT else None)
        if node["op"] != "null" and dtype == "float32":
            attrs["dtype"] = "float64"
            changed += 1
    return mx.sym.load_json(json.dumps(graph)) if changed else sym


def reference(symbol, params, inputs: dict, *, internals: bool = True,
              dtype=None) -> dict:
    """Run the graph in MXNet (inference: ``is_train=False``) on ``inputs`` (name -> array).

    Returns ``{"output0": ..., "node:<name>": ...}`` as numpy arrays. ``dtype="float64"`` casts
    the parameters and inputs first."""
    import mxnet as mx

    sym, arg, aux = _load(symbol, params)
    if dtype == "float64":
        sym = float64_graph(sym)
    if dtype is not None:
        arg = {k: v.astype(dtype) for k, v in arg.items()}
        aux = {k: v.astype(dtype) for k, v in aux.items()}
    feeds = {k: mx.nd.array(v, dtype=dtype if dtype and v.dtype.kind == "f" else v.dtype)
             for k, v in inputs.items()}
    out: dict[str, np.ndarray] = {}
    heads = sym
    names: list = []
    if internals:
        group = sym.get_internals()
        variables = {f"{a}" for a in sym.list_arguments() + sym.list_auxiliary_states()}
        # by position: GluonCV graphs apply one block twice, so two nodes share a name and
        # group[name] is ambiguous
        names = [(i, n) for i, n in enumerate(group.list_outputs()) if n not in variables]
        heads = mx.sym.Group([sym] + [group[i] for i, _ in names])
    n_heads = len(sym.list_outputs())
    label_like = {a: mx.nd.zeros((1,)) for a in sym.list_arguments()
                  if a not in arg and a not in feeds}
    shapes = {k: v.shape for k, v in feeds.items()}
    # labels of loss layers are not needed at inference: give them their inferred shape
    arg_shapes, _, _ = heads.infer_shape_partial(**shapes)
    for name, shape in zip(heads.list_arguments(), arg_shapes or []):
        if name in label_like and shape:
            label_like[name] = mx.nd.zeros(shape, dtype=dtype or "float32")
    # oneDNN's graph fusion (Convolution+BatchNorm+ReLU in one kernel) would report the fused
    # result as the convolution's output: the per-node reference is taken unfused
    saved = os.environ.get("MXNET_SUBGRAPH_BACKEND")
    os.environ["MXNET_SUBGRAPH_BACKEND"] = "NONE"
    try:
        exe = heads.bind(mx.cpu(), {**arg, **feeds, **label_like}, aux_states=aux, grad_req="null")
        results = exe.forward(is_train=False)
    finally:
        if saved is None:
            del os.environ["MXNET_SUBGRAPH_BACKEND"]
        else:
            os.environ["MXNET_SUBGRAPH_BACKEND"] = saved
    for i in range(n_heads):
        out[f"output{i}"] = results[i].asnumpy()
    # a node's outputs are listed together, each one's .name being the node's name: a name
    # listed n times for k nodes of that name (GluonCV applies one block twice) is k runs of
    # n / k outputs; the later node's are kept, as the translation's per-node taps keep them
    nodes_named: dict[str, int] = {}
    for n in json.loads(sym.tojson())["nodes"]:
        if n["op"] != "null":
            nodes_named[n["name"]] = nodes_named.get(n["name"], 0) + 1
    listed: dict[str, list] = {}
    for (i, _), r in zip(names, results[n_heads:]):
        listed.setdefault(group[i].name, []).append(r)
    for node, values in listed.items():
        per = max(1, len(values) // max(1, nodes_named.get(node, 1)))
        last = values[-per:]
        if per == 1:
            out[f"node:{node}"] = last[0].asnumpy()
        else:
            out.update({f"node:{node}[{k}]": v.asnumpy() for k, v in enumerate(last)})
    return out


def _shape(text: str):
    name, _, dims = text.partition("=")
    if not name or not dims:
        raise argparse.ArgumentTypeError(f"--input {text!r}: expected name=d1,d2,...")
    try:
        return name, tuple(int(d) for d in dims.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--input {text!r}: the dimensions must be integers") from None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m sidebyside.mxreference",
                                description="MXNet's outputs for a symbol file, for "
                                            "`python -m sidebyside.mx2torch --check`.")
    p.add_argument("symbol")
    p.add_argument("params")
    p.add_argument("--input", type=_shape, action="append", default=[],
                   help="an input's name and shape, e.g. data=1,3,224,224 (random normal values)")
    p.add_argument("--inputs", metavar="NPZ",
                   help="the inputs' values from an .npz, by name (token ids, lengths, images: "
                        "any dtype, kept; with --float64 floats are cast); --input adds random "
                        "ones")
    p.add_argument("--out", required=True, help="the .npz to write")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-internals", action="store_true", help="the outputs only")
    p.add_argument("--float64", action="store_true",
                   help="run MXNet in float64 (parameters and inputs cast): for mx2torch --float64")
    args = p.parse_args(argv)
    if not args.input and not args.inputs:
        p.error("give the inputs: --input name=shape (random) or --inputs file.npz")
    rng = np.random.default_rng(args.seed)
    inputs = {}
    if args.inputs:
        try:
            with np.load(args.inputs) as given:
                inputs = {k: given[k] for k in given.files}
        except (OSError, ValueError) as e:
            p.error(f"--inputs {args.inputs}: cannot read it ({e})")
    inputs.update({name: rng.standard_normal(shape).astype(np.float32)
                   for name, shape in args.input})
    dtype = "float64" if args.float64 else None
    if dtype:
        inputs = {k: v.astype(np.float64) if v.dtype.kind == "f" else v
                  for k, v in inputs.items()}
    out = reference(args.symbol, args.params, inputs, internals=not args.no_internals, dtype=dtype)
    np.savez(args.out, **inputs, **out)
    print(f"{args.out}: {len(inputs)} inputs, {sum(k.startswith('output') for k in out)} outputs, "
          f"{sum(k.startswith('node:') for k in out)} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
