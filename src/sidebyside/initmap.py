"""Initialise a PyTorch module the way an ``mx.init`` initialiser initialises its Gluon twin.

::

    from sidebyside.initmap import torch_init_like_mxnet
    torch_init_like_mxnet(model, mx.init.Xavier(magnitude=2.24))   # legacy scripts' choice

draws every weight from the distribution MXNet 1.9.1 would draw it from, and sets what Gluon's
layers set regardless of the initialiser: biases 0, normalisation layers' scale (``gamma``) 1
and shift (``beta``) 0, running mean 0 and running variance 1. The draws are PyTorch's own
(``torch.nn.init.uniform_`` / ``normal_``, seeded by ``torch.manual_seed``): the same
*distribution* as MXNet's, not the same numbers.

**The weights** (:func:`weight_law`). For a weight of shape ``(out, in, *kernel)``, both
frameworks take ``fan_in = in · ∏kernel`` and ``fan_out = out · ∏kernel``. MXNet's
``Xavier(rnd_type, factor_type, magnitude)`` computes ``factor`` = ``(fan_in + fan_out)/2``
(``"avg"``), ``fan_in`` (``"in"``) or ``fan_out`` (``"out"``) and ``s = √(magnitude/factor)``,
then draws from ``U(−s, s)`` (``"uniform"``) or ``N(0, s²)`` (``"gaussian"``).
``MSRAPrelu(factor_type="avg", slope=0.25)`` is ``Xavier("gaussian", factor_type,
2/(1 + slope²))``. ``Uniform(scale)`` is ``U(−scale, scale)``, ``Normal(sigma)`` is
``N(0, sigma²)``, ``Zero``, ``One`` and ``Constant(value)`` (a number) fill. Other initialisers
(``Orthogonal``, ``Bilinear``, ``LSTMBias``, ``FusedRNN``, ``Mixed``, ``Load``, subclasses of
your own) raise :class:`UnsupportedInitializer`. The initialiser is recognised by its
``dumps()`` — its registered name and arguments — so this module does not import MXNet
(except to turn a name such as ``"xavier"`` into an initialiser).

**Which parameter gets what** — what Gluon 1.9.1's layers declare for themselves, which wins
over the initialiser given to ``initialize()`` (each rule is checked against MXNet's own draw
in ``tests/test_initmap.py``):

- ``Linear``, ``Conv*d``, ``ConvTranspose*d`` (Gluon's ``Dense``, ``Conv*D``,
  ``Conv*DTranspose``): the weight gets the initialiser's draw, the bias 0
  (``bias_initializer="zeros"``);
- ``RNN``, ``LSTM``, ``GRU`` and their cells (Gluon's ``rnn.RNN``, ``rnn.LSTM``, ``rnn.GRU``,
  ``rnn.*Cell``): every ``weight_*`` (``weight_ih_l0``, ``weight_hh_l0``, ``weight_hr_l0``,
  ``…_reverse``) the draw, for its own shape, every ``bias_*`` 0;
- ``Embedding`` (and ``EmbeddingBag``): the weight gets the draw — Gluon's ``nn.Embedding``
  declares ``weight_initializer=None``, so ``initialize(init)`` draws its ``(input_dim,
  output_dim)`` table from ``init`` with ``fan_in = output_dim``, ``fan_out = input_dim``, as
  for any matrix. A ``padding_idx`` row is set to 0 afterwards: PyTorch promises that row is the
  zero vector (Gluon has no ``padding_idx``);
- ``BatchNorm*``, ``SyncBatchNorm``, ``InstanceNorm*``, ``LayerNorm`` and ``GroupNorm``:
  ``weight`` (Gluon's ``gamma``) 1, ``bias`` (``beta``) 0, and the running statistics reset
  (mean 0, variance 1, ``num_batches_tracked`` 0);
- ``PReLU``: its slope 0.25 (Gluon's ``alpha_initializer=Constant(0.25)``);
- a parameter registered on any other module (a module of your own, ``MultiheadAttention``'s
  ``in_proj_*``): what Gluon gives a parameter declared without ``init=``, the initialiser's
  draw *whatever its name*, a ``bias`` too. ``Xavier`` and ``MSRAPrelu`` refuse a vector there
  (MXNet raises "Xavier initializer cannot be applied to vector"), so does this module:
  :class:`UnsupportedParameter`, naming it. Where the Gluon twin declares ``init=`` for such a
  parameter, set it yourself after this call;
- a lazy module's uninitialised parameter: :class:`UnsupportedParameter` (run a forward first).

PyTorch's own defaults are other laws: ``U(±1/√fan_in)`` for the weights and biases of
``Linear`` and ``Conv*``, ``U(±1/√hidden_size)`` for every weight and bias of the recurrent
layers, ``N(0, 1)`` for ``Embedding``; its normalisation layers already start at 1 and 0.
"""
from __future__ import annotations

import json
import math

__all__ = ["UnsupportedInitializer", "UnsupportedParameter", "weight_law",
           "torch_init_like_mxnet", "SUPPORTED"]

SUPPORTED = ("Xavier", "MSRAPrelu", "Uniform", "Normal", "Zero", "One", "Constant")


class UnsupportedInitializer(ValueError):
    """The initialiser has no exact PyTorch counterpart here."""


class UnsupportedParameter(ValueError):
    """A parameter of the module is not one whose MXNet initialisation is known."""


def _describe(initializer) -> tuple[str, dict]:
    """(registered name, arguments) of an mx.init initialiser, from its ``dumps()``."""
    if isinstance(initializer, str):
        import mxnet as mx

        try:
            initializer = mx.init.create(initializer)
        except Exception as err:   # ValueError / KeyError for unknown names
            raise UnsupportedInitializer(f"{initializer!r}: not an mx.init initialiser "
                                         f"name ({err})") from None
    dumps = getattr(initializer, "dumps", None)
    if not callable(dumps):
        raise TypeError(f"expected an mx.init initialiser such as mx.init.Xavier(), got "
                        f"{type(initializer).__name__}")
    try:
        name, kwargs = json.loads(dumps())
    except (TypeError, ValueError) as err:
        raise UnsupportedInitializer(f"{type(initializer).__name__}: its arguments cannot "
                                     f"be read ({err}); supported: "
                                     f"{', '.join(SUPPORTED)}") from None
    return name, kwargs


def _fans(shape) -> tuple[int, int]:
    if len(shape) < 2:
        raise ValueError(f"a weight of shape {tuple(shape)}: fans need at least 2 dimensions")
    kernel = math.prod(shape[2:])
    return shape[1] * kernel, shape[0] * kernel


def weight_law(initializer, shape) -> tuple[str, float]:
    """What ``initializer`` draws for a weight of ``shape``: ``("uniform", bound)`` for
    ``U(−bound, bound)``, ``("normal", std)`` for ``N(0, std²)``, or ``("constant", value)``.

    Raises :class:`UnsupportedInitializer` for initialisers outside :data:`SUPPORTED`.
    """
    name, kw = _describe(initializer)
    if name in ("xavier", "msraprelu"):
        if name == "msraprelu":
            rnd_type, factor_type = "gaussian", kw.get("factor_type", "avg")
            magnitude = 2.0 / (1 + kw.get("slope", 0.25) ** 2)
        else:
            rnd_type = kw.get("rnd_type", "uniform")
            factor_type = kw.get("factor_type", "avg")
            magnitude = float(kw.get("magnitude", 3))
        fan_in, fan_out = _fans(shape)
        factors = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}
        if factor_type not in factors:
            raise UnsupportedInitializer(f"Xavier factor_type {factor_type!r}: MXNet knows "
                                         "'avg', 'in' and 'out'")
        laws = {"uniform": "uniform", "gaussian": "normal"}
        if rnd_type not in laws:
            raise UnsupportedInitializer(f"Xavier rnd_type {rnd_type!r}: MXNet knows "
                                         "'uniform' and 'gaussian'")
        return laws[rnd_type], math.sqrt(magnitude / factors[factor_type])
    if name == "uniform":
        return "uniform", float(kw.get("scale", 0.07))
    if name == "normal":
        return "normal", float(kw.get("sigma", 0.01))
    if name in ("zero", "one"):
        return "constant", float(name == "one")
    if name == "constant" and isinstance(kw.get("value", 0), (int, float)):
        return "constant", float(kw.get("value", 0))
    raise UnsupportedInitializer(
        f"mx.init initialiser '{name}' ({type(initializer).__name__}) has no exact "
        f"counterpart in sidebyside.initmap; supported: {', '.join(SUPPORTED)} "
        "(Constant with a number)")


def _norm_types():
    from torch import nn

    return (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.SyncBatchNorm,
            nn.InstanceNorm1d, nn.InstanceNorm2d, nn.InstanceNorm3d, nn.LayerNorm,
            nn.GroupNorm)


def _layer_types():
    """The layers whose weights get the draw and whose biases Gluon's twin sets to 0."""
    from torch import nn
    from torch.nn.modules.conv import _ConvNd

    return (nn.Linear, _ConvNd, nn.RNNBase, nn.RNNCellBase, nn.Embedding, nn.EmbeddingBag)


_PRELU_SLOPE = 0.25    # Gluon's PReLU: alpha_initializer=mx.init.Constant(0.25)


def _law(initializer, mod, leaf, p, full, norms, layers):
    """(law, value) for parameter ``leaf`` of ``mod`` (``full`` is its name in the network)."""
    from torch import nn

    kind = type(mod).__name__
    if isinstance(mod, norms):
        if leaf in ("weight", "bias"):
            return ("constant", 1.0) if leaf == "weight" else ("constant", 0.0)
    elif isinstance(mod, nn.PReLU):
        if leaf == "weight":
            return ("constant", _PRELU_SLOPE)
    elif isinstance(mod, layers):
        if leaf.startswith("bias"):
            return ("constant", 0.0)
        if leaf.startswith("weight"):
            return weight_law(initializer, tuple(p.shape))
    else:                       # a Gluon parameter declared without init=: the draw
        try:
            return weight_law(initializer, tuple(p.shape))
        except ValueError as err:   # Xavier / MSRAPrelu on a vector: MXNet refuses too
            if isinstance(err, UnsupportedInitializer):
                raise
            raise UnsupportedParameter(
                f"'{full}' ({kind}, shape {tuple(p.shape)}): a parameter of a module that "
                "is not a Gluon layer's twin gets the initialiser's draw, and "
                f"{type(initializer).__name__} needs at least 2 dimensions (MXNet refuses "
                "it too); initialise it yourself, as the Gluon twin's init= does") from None
    raise UnsupportedParameter(f"'{full}' ({kind}, shape {tuple(p.shape)}): a {kind} is "
                               "initialised as its Gluon twin, which has no such parameter; "
                               "initialise it yourself")


def torch_init_like_mxnet(module, initializer) -> dict[str, tuple[str, float]]:
    """Initialise ``module``'s parameters in place as ``initialize(initializer)`` would
    initialise the same network in Gluon (see the module docstring for the rules).

    Returns ``{parameter or buffer name: (law, value)}``, the law as in :func:`weight_law`;
    an Embedding's ``padding_idx`` row appears as ``"<name>.weight[<row>]"``. A weight shared
    by two modules (a language model's ``decoder.weight = encoder.weight``) is drawn once, by
    the law of the module ``named_modules()`` lists first, and named once, as
    ``parameters()`` names it: in Gluon the tied ``Dense(..., params=encoder.params)`` uses the
    Embedding's parameter, so the embedding must come first in the module, as it does when
    ``__init__`` creates it first.
    Checks every parameter before changing any: on an error nothing is changed.
    """
    import torch
    from torch import nn

    weight_law(initializer, (1, 1))          # an unsupported initialiser fails first
    norms, layers = _norm_types(), _layer_types()
    plan, stats, padding, seen = [], [], [], set()
    for mod_name, mod in module.named_modules():
        for leaf, p in mod.named_parameters(recurse=False):
            full = f"{mod_name}.{leaf}" if mod_name else leaf
            if id(p) in seen:     # a tied weight: drawn once, by the module listed first
                continue
            seen.add(id(p))
            if isinstance(p, nn.parameter.UninitializedParameter):
                raise UnsupportedParameter(f"'{full}' is not initialised yet (a lazy module):"
                                           " run one forward pass first")
            plan.append((full, p, _law(initializer, mod, leaf, p, full, norms, layers)))
        if isinstance(mod, (nn.Embedding, nn.EmbeddingBag)) and mod.padding_idx is not None:
            prefix = f"{mod_name}." if mod_name else ""
            padding.append((f"{prefix}weight[{mod.padding_idx}]", mod))
        if isinstance(mod, norms) and hasattr(mod, "reset_running_stats") \
                and getattr(mod, "track_running_stats", False):
            stats.append((mod_name, mod))
    done = {}
    with torch.no_grad():
        for full, p, (kind, value) in plan:
            if kind == "uniform":
                nn.init.uniform_(p, -value, value)
            elif kind == "normal":
                nn.init.normal_(p, 0.0, value)
            else:
                nn.init.constant_(p, value)
            done[full] = (kind, value)
        for name, mod in padding:
            mod.weight[mod.padding_idx].fill_(0.0)
            done[name] = ("constant", 0.0)
        for mod_name, mod in stats:
            mod.reset_running_stats()
            prefix = f"{mod_name}." if mod_name else ""
            done[prefix + "running_mean"] = ("constant", 0.0)
            done[prefix + "running_var"] = ("constant", 1.0)
    return done
