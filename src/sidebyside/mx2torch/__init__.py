"""Legacy MXNet files into PyTorch with no MXNet installed: imports only numpy and torch.

One job per module:

- :mod:`sidebyside.mx2torch.ndfile`    — MXNet's NDArray file format (``.params``, ``mx.nd.save``),
  read and written in pure Python + numpy;
- :mod:`sidebyside.mx2torch.graph`     — a ``-symbol.json`` graph read into nodes, inputs and attributes;
- :mod:`sidebyside.mx2torch.ops`       — each MXNet operator as PyTorch code, with the attributes it honours;
- :mod:`sidebyside.mx2torch.codegen`   — a graph and its parameters as a readable ``model.py`` and a
  loaded ``nn.Module``;
- :mod:`sidebyside.mx2torch.report`    — the per-node comparison: where a translation first parts
  from reference outputs;
- :mod:`sidebyside.mx2torch.optstate`  — ``Trainer.save_states`` files into a PyTorch optimizer;
- :mod:`sidebyside.mx2torch.cli`       — ``python -m sidebyside.mx2torch``.

The short calls::

    from sidebyside import mx2torch
    arrays = mx2torch.load_params("model-0000.params")          # {name: numpy array}
    module = mx2torch.translate("model-symbol.json", "model-0000.params")   # eval mode
    t = mx2torch.translation("model-symbol.json", "model-0000.params")      # + source, notes
    opt = mx2torch.to_torch_optimizer(mx2torch.load_trainer_states("net.states"),
                                      mx2torch.trainer_parameters(t))

and on the command line ``python -m sidebyside.mx2torch --help``.
"""

from __future__ import annotations

_EXPORTS = {
    "ndfile": ("load_params", "save_params", "loads", "dumps", "array_from_bytes",
               "array_to_bytes", "NDFileError"),
    "codegen": ("translate", "translation", "Translation", "trainer_parameters", "tapped"),
    "ops": ("UnsupportedOperator",),
    "graph": ("read_symbol", "SymbolFileError"),
    "report": ("compare_nodes",),
    "optstate": ("load_trainer_states", "to_torch_optimizer", "OptStateError"),
}
__all__ = [name for names in _EXPORTS.values() for name in names]


def __getattr__(name):
    # lazy: `import sidebyside.mx2torch` costs nothing (no torch import) until a function is used
    for module, names in _EXPORTS.items():
        if name in names:
            from importlib import import_module

            return getattr(import_module(f"{__name__}.{module}"), name)
    raise AttributeError(f"module 'sidebyside.mx2torch' has no attribute {name!r}")
