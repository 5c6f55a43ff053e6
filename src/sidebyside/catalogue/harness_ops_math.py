"""Helpers for the ops_math checks (elementwise math, comparisons, casts)."""


def sym_eval(symbol, **arrays):
    """The first output of an MXNet Symbol evaluated on NDArrays bound by variable name."""
    import mxnet as mx

    return symbol.eval(ctx=mx.cpu(), **arrays)[0]
