"""Helpers the ``model_zoo`` entries' checks call: the Gluon network a check built, handed to
its PyTorch side, whose weights :func:`sidebyside.transfer.gluon_to_torch` copies (the route
``python -m sidebyside.convert`` takes for a ``.params`` file).

- :func:`keep`: remember the Gluon network the MXNet snippet built (and return it);
- :func:`copy_into`: copy its weights and running statistics into a torchvision network,
  cast to the check's dtype, in inference mode.
"""

from __future__ import annotations

__all__ = ["keep", "copy_into"]

_KEPT: dict[str, object] = {}


def keep(net, dtype: str):
    """Initialise ``net`` (Xavier, magnitude 2: activations stay of order one through a deep
    network), cast it to ``dtype`` and remember it for the PyTorch side."""
    import mxnet as mx

    net.initialize(mx.init.Xavier(magnitude=2))
    net.cast(dtype)
    _KEPT["net"] = net
    return net


def copy_into(torch_net, dtype):
    """``torch_net`` holding the kept Gluon network's weights, in ``dtype``, in eval mode."""
    from sidebyside import transfer

    net = _KEPT.pop("net")
    torch_net.to(dtype)
    transfer.gluon_to_torch(net, torch_net)
    return torch_net.eval()
