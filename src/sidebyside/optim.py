"""PyTorch's optimizer steps in Gluon, and PyTorch set up to take MXNet's.

Three Gluon optimizers that take ``torch.optim``'s steps, registered (under the lower-cased
class name) when this module is imported::

    import sidebyside.optim                  # registers the three names below
    trainer = gluon.Trainer(net.collect_params(), "torchadam", {"learning_rate": 1e-3})

- ``"torchadam"``: :class:`TorchAdam`, the steps of ``torch.optim.Adam(params, lr=1e-3,
  betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False)`` (MXNet's own ``"adam"``
  takes other steps: below);
- ``"torchadamw"``: :class:`TorchAdamW`, the steps of ``torch.optim.AdamW(params, lr=1e-3,
  betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01, amsgrad=False)``, weight decay outside the
  adaptive step (MXNet 1.9.1 has no AdamW optimizer);
- ``"torchadadelta"``: :class:`TorchAdadelta`, the steps of ``torch.optim.Adadelta(params,
  lr=1.0, rho=0.9, eps=1e-6, weight_decay=0)`` (MXNet's own ``"adadelta"`` ignores the
  learning rate: below).

The arguments take MXNet's names: ``lr`` → ``learning_rate``, ``betas=(b1, b2)`` →
``beta1=b1, beta2=b2``, ``eps`` → ``epsilon``, ``weight_decay`` → ``wd``; ``amsgrad`` and
``rho`` keep theirs. The defaults are PyTorch's. :func:`gluon_optimizer_for` reads a PyTorch
optimizer and returns the name and options to give ``gluon.Trainer``.

**Adam and AdamW** (:class:`TorchAdam`, :class:`TorchAdamW`). Each update is PyTorch's
(``torch.optim.adam._single_tensor_adam``, torch 2.14.1), in its order of operations, with
``t`` the parameter's update count::

    g = clip(rescale_grad * grad, clip_gradient)
    g = g + wd * w                       # Adam: L2 decay, coupled into the gradient
    w = w * (1 - lr * wd)                # AdamW instead: decoupled, outside the step
    m = m + (1 - beta1) * (g - m)        # torch's lerp_
    v = beta2 * v + (1 - beta2) * g * g
    v_max = max(v_max, v)                # amsgrad=True only; then v_max replaces v below
    w -= lr / (1 - beta1 ** t) * m / (sqrt(v) / sqrt(1 - beta2 ** t) + epsilon)

MXNet 1.9.1's ``"adam"`` divides by ``√v + ε`` and folds both bias corrections into the
learning rate — PyTorch's rule with ``ε / √(1 − β₂ᵗ)`` in place of ``ε`` (31.6 ε at the first
step) — and its fused ``adam_update`` kernel receives the learning rate, the betas, ε and
``wd`` rounded to float32. Where gradients come near ε the two runs split; on a VAE they
split completely (notebook 8 §4; the deep dive ``optim_adam_vae`` measures it).
:func:`mxnet_adam_settings` goes the other way: it sets a ``torch.optim.Adam`` to take
MXNet's ``"adam"`` steps exactly.

**Adadelta** (:class:`TorchAdadelta`). Each update::

    g = clip(rescale_grad * grad, clip_gradient) + wd * w
    square_avg = rho * square_avg + (1 - rho) * g * g
    delta = sqrt(acc_delta + epsilon) / sqrt(square_avg + epsilon) * g
    acc_delta = rho * acc_delta + (1 - rho) * delta * delta
    w -= lr * delta

What MXNet 1.9.1's built-in ``"adadelta"`` (``mx.optimizer.AdaDelta``) does differently:

- it **ignores** ``learning_rate`` (and so any ``lr_scheduler`` or ``set_learning_rate``):
  its step is ``delta`` itself, PyTorch's ``lr=1.0``;
- its ``epsilon`` defaults to ``1e-5``, PyTorch's ``eps`` to ``1e-6``;
- its weight decay is *decoupled*: ``w ← w − delta − wd·w``, outside the adaptive step (its
  docstring says it also adds ``wd·w`` to the gradient; the code does not). PyTorch's
  ``weight_decay`` adds ``wd·w`` to the gradient, inside the step;
- it creates its state without the weight's dtype, in float32, so the first update of a
  float64 weight fails;
- it rescales the gradient in place (``grad *= rescale_grad``), so after
  ``trainer.step(n)`` the parameter's ``.grad()`` holds the rescaled gradient.

**What all three share.** On the same weights and gradients, float64 trajectories agree
with PyTorch's to rounding (``tests/test_optim.py`` checks 1e-12 relative over 50 steps),
float32 ones to float32 rounding. The remaining :class:`mx.optimizer.Optimizer` options:

- ``rescale_grad`` (``trainer.step(batch_size)`` sets it to ``1/batch_size``) multiplies the
  gradient first: a summed (or per-sample) loss with ``step(batch_size)`` is PyTorch's mean
  loss;
- ``clip_gradient=c`` clips the rescaled gradient element-wise to ``[-c, c]`` *before* weight
  decay, as ``torch.nn.utils.clip_grad_value_(params, c)`` before ``optimizer.step()`` does
  (MXNet's own ``adam_update`` clips *after* adding ``wd·w``);
- ``learning_rate`` is read at every update, so ``trainer.set_learning_rate`` (PyTorch:
  ``group["lr"] = …``) and an ``lr_scheduler`` take effect from the next update; per-parameter
  ``lr_mult`` and ``wd_mult`` apply as in MXNet's own optimizers (PyTorch: one param group per
  setting). Given no ``learning_rate`` but an ``lr_scheduler``, the scheduler's ``base_lr`` is
  the rate;
- the update count ``t`` starts from ``begin_num_update`` (default 0), as in MXNet's Adam;
- ``multi_precision=True`` keeps a float32 master copy of float16 weights (MXNet's generic
  mechanism); PyTorch has no counterpart.

The state is created in the weight's dtype and on its context, so float64 weights train and
the update runs wherever the weight lives; the gradient is never modified. Sparse
(``row_sparse``) gradients and weights are refused, as PyTorch's Adam and Adadelta refuse
sparse gradients. All arithmetic is NDArray operations with Python-float (double) scalars;
MXNet's fused update kernels, which round hyper-parameters to float32, are not used.
"""

import math

import mxnet as mx
import numpy as np

__all__ = ["TorchAdadelta", "TorchAdam", "TorchAdamW", "f32", "mxnet_float", "gluon_optimizer_for",
           "mxnet_adam_settings"]


def mxnet_float(value: float) -> float:
    """The float32 an MXNet operator receives for the Python float ``value``: MXNet hands
    every keyword argument to the operator as ``str(value)``, which dmlc-core's
    ``ParseFloat<float>`` reads back — whole part as a float32, up to 19 fraction digits as
    one double ratio rounded to float32 and added in float32, then divided (or multiplied) in
    float32 by a power of ten built from ``1e8`` and ``10`` steps. That parse is not
    correctly rounded: for about 1 value in 12 it lands one float32 step away from
    ``f32(value)`` (measured over 4,000 random values; ``tests/test_optim.py`` compares it
    with ``adam_update`` itself).

    >>> mxnet_float(1.2513113578505208e-05), f32(1.2513113578505208e-05)
    (1.2513112778833602e-05, 1.2513113688328303e-05)
    >>> mxnet_float(0.1) == f32(0.1)
    True
    """
    x = float(value)
    if math.isnan(x) or math.isinf(x):
        return x
    text = str(abs(x))
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    out = np.float32(int(whole))
    if fraction:
        digits = fraction[:19]
        out = np.float32(out + np.float32(int(digits) / 10 ** len(digits)))
    if exponent:
        e = int(exponent)
        n, scale = min(abs(e), 38), np.float32(1.0)
        while n >= 8:
            scale, n = np.float32(scale * np.float32(1e8)), n - 8
        while n > 0:
            scale, n = np.float32(scale * np.float32(10.0)), n - 1
        out = np.float32(out / scale) if e < 0 else np.float32(out * scale)
    return float(out) if x >= 0 else -float(out)


def f32(value: float) -> float:
    """``value`` rounded to float32 (correctly). MXNet's fused update operators
    (``sgd_update``, ``adam_update``, …) receive the learning rate and the other
    hyper-parameters as float32 too, but through a parse that rounds a long decimal one step
    off now and then: :func:`mxnet_float` is exactly what they receive; for short decimals
    (``0.1``, ``0.9``, ``1e-8``) the two agree.

    Give PyTorch ``lr=f32(0.1)`` to take the float64 steps MXNet takes with
    ``learning_rate=0.1``.

    >>> f32(0.1)
    0.10000000149011612
    >>> f32(0.125)
    0.125
    """
    return float(np.float32(value))


def _check_clip(who: str, kwargs: dict) -> None:
    clip = kwargs.get("clip_gradient")
    if clip is not None and not clip >= 0.0:
        raise ValueError(f"{who}: invalid clip_gradient {clip!r} "
                         "(must be >= 0, or None for no clipping)")


def _check_dense(opt, index, weight, grad, torch_name: str) -> None:
    """Refuse anything but dense NDArrays, naming the parameter."""
    who = type(opt).__name__
    if not isinstance(weight, mx.nd.NDArray) or not isinstance(grad, mx.nd.NDArray):
        raise TypeError(f"{who}.update expects mxnet NDArrays for weight and grad, "
                        f"got {type(weight).__name__} and {type(grad).__name__}")
    for what, array in (("gradient", grad), ("weight", weight)):
        if array.stype != "default":
            name = (opt.param_dict[index].name if index in opt.param_dict
                    else opt.idx2name.get(index, index))
            raise NotImplementedError(
                f"{who} does not support sparse arrays: parameter {name!r} has a "
                f"{array.stype} {what} ({torch_name} refuses sparse gradients too); use "
                "dense gradients, e.g. Embedding(..., sparse_grad=False)")


def _rescaled_clipped(opt, grad):
    """``clip(rescale_grad * grad, clip_gradient)`` as a new array (``grad`` is left alone)."""
    g = grad * opt.rescale_grad if opt.rescale_grad != 1.0 else grad
    if opt.clip_gradient is not None:
        # scalar maximum/minimum take a double; nd.clip would round the bound to float32
        g = mx.nd.minimum(mx.nd.maximum(g, -opt.clip_gradient), opt.clip_gradient)
    return g


@mx.optimizer.register
class TorchAdam(mx.optimizer.Optimizer):
    """PyTorch's Adam as an MXNet optimizer; ``gluon.Trainer(params, "torchadam", {...})``.

    Parameters
    ----------
    learning_rate : float, optional
        PyTorch's ``lr``. Default 1e-3 (PyTorch's and MXNet's); if ``lr_scheduler`` is given
        and ``learning_rate`` is not, the scheduler's ``base_lr``.
    beta1, beta2 : float, default 0.9, 0.999
        PyTorch's ``betas``: the decay rates of the first and the second moment, in [0, 1).
    epsilon : float, default 1e-8
        PyTorch's ``eps``, added to the bias-corrected ``√v̂``.
    wd : float, default 0.0
        PyTorch's ``weight_decay``: ``wd·w`` added to the gradient (AdamW: see
        :class:`TorchAdamW`).
    amsgrad : bool, default False
        PyTorch's ``amsgrad``: divide by the running maximum of ``v``.
    **kwargs
        The other options of :class:`mx.optimizer.Optimizer`: ``rescale_grad``,
        ``clip_gradient``, ``lr_scheduler``, ``multi_precision``, ...
    """

    decoupled = False           # TorchAdamW: weight decay outside the adaptive step
    torch_name = "torch.optim.Adam"

    def __init__(self, learning_rate=None, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0,
                 amsgrad=False, **kwargs):
        who = type(self).__name__
        if learning_rate is None and kwargs.get("lr_scheduler") is None:
            learning_rate = 1e-3
        if learning_rate is not None and not learning_rate >= 0.0:
            raise ValueError(f"{who}: invalid learning_rate {learning_rate!r} (must be >= 0)")
        for name, beta in (("beta1", beta1), ("beta2", beta2)):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"{who}: invalid {name} {beta!r} (must be in [0, 1))")
        if not epsilon >= 0.0:
            raise ValueError(f"{who}: invalid epsilon {epsilon!r} (must be >= 0)")
        if not wd >= 0.0:
            raise ValueError(f"{who}: invalid wd {wd!r} (must be >= 0)")
        if not isinstance(amsgrad, (bool, np.bool_)):
            raise ValueError(f"{who}: invalid amsgrad {amsgrad!r} (must be True or False)")
        _check_clip(who, kwargs)
        super().__init__(learning_rate=learning_rate, wd=wd, **kwargs)
        self.beta1 = float(beta1)
        self.beta2 = float(beta2)
        self.epsilon = float(epsilon)
        self.amsgrad = bool(amsgrad)

    def create_state(self, index, weight):
        """``(exp_avg, exp_avg_sq)``, and ``max_exp_avg_sq`` with ``amsgrad``: zeros of the
        weight's shape, dtype and context."""
        count = 3 if self.amsgrad else 2
        return tuple(mx.nd.zeros(weight.shape, weight.context, dtype=weight.dtype)
                     for _ in range(count))

    def update(self, index, weight, grad, state):
        """One PyTorch Adam (or AdamW) step of ``weight`` (in place) on ``grad``; ``grad`` is
        not modified."""
        _check_dense(self, index, weight, grad, self.torch_name)
        self._update_count(index)
        t = self._index_update_count[index]
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        beta1, beta2 = self.beta1, self.beta2

        g = _rescaled_clipped(self, grad)
        if wd != 0.0:
            if self.decoupled:
                weight *= 1.0 - lr * wd
            else:
                g = g + wd * weight
        exp_avg, exp_avg_sq = state[0], state[1]
        exp_avg += (1.0 - beta1) * (g - exp_avg)
        exp_avg_sq *= beta2
        exp_avg_sq += (1.0 - beta2) * g * g
        if self.amsgrad:
            state[2][:] = mx.nd.maximum(state[2], exp_avg_sq)
            second = state[2]
        else:
            second = exp_avg_sq
        step_size = lr / (1.0 - beta1 ** t)
        bias_correction2_sqrt = (1.0 - beta2 ** t) ** 0.5
        denom = mx.nd.sqrt(second) / bias_correction2_sqrt + self.epsilon
        weight -= step_size * exp_avg / denom


@mx.optimizer.register
class TorchAdamW(TorchAdam):
    """PyTorch's AdamW as an MXNet optimizer; ``gluon.Trainer(params, "torchadamw", {...})``.

    The parameters of :class:`TorchAdam`, but ``wd`` (PyTorch's ``weight_decay``, default
    0.01 as in ``torch.optim.AdamW``) decays the weight outside the adaptive step,
    ``w ← w·(1 − lr·wd)``, before it.
    """

    decoupled = True
    torch_name = "torch.optim.AdamW"

    def __init__(self, learning_rate=None, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.01,
                 amsgrad=False, **kwargs):
        super().__init__(learning_rate=learning_rate, beta1=beta1, beta2=beta2,
                         epsilon=epsilon, wd=wd, amsgrad=amsgrad, **kwargs)


@mx.optimizer.register
class TorchAdadelta(mx.optimizer.Optimizer):
    """PyTorch's Adadelta as an MXNet optimizer; ``gluon.Trainer(params, "torchadadelta", {...})``.

    Parameters
    ----------
    learning_rate : float, optional
        Scales the step, as PyTorch's ``lr``. Default 1.0 (PyTorch's); if ``lr_scheduler`` is
        given and ``learning_rate`` is not, the scheduler's ``base_lr``. (Given both, MXNet's
        rule applies: ``learning_rate`` overwrites the scheduler's ``base_lr``.)
    rho : float, default 0.9
        Decay rate of both running averages (PyTorch ``rho``).
    epsilon : float, default 1e-6
        Added inside both square roots (PyTorch ``eps``; MXNet's ``adadelta`` uses 1e-5).
    wd : float, default 0.0
        L2 weight decay added to the gradient, PyTorch's ``weight_decay``.
    **kwargs
        The other options of :class:`mx.optimizer.Optimizer`: ``rescale_grad``,
        ``clip_gradient``, ``lr_scheduler``, ``multi_precision``, ...
    """

    def __init__(self, learning_rate=None, rho=0.9, epsilon=1e-6, wd=0.0, **kwargs):
        if learning_rate is None and kwargs.get("lr_scheduler") is None:
            learning_rate = 1.0
        if learning_rate is not None and not learning_rate >= 0.0:
            raise ValueError(f"TorchAdadelta: invalid learning_rate {learning_rate!r} "
                             "(must be >= 0)")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"TorchAdadelta: invalid rho {rho!r} (must be in [0, 1])")
        if not epsilon >= 0.0:
            raise ValueError(f"TorchAdadelta: invalid epsilon {epsilon!r} (must be >= 0)")
        if not wd >= 0.0:
            raise ValueError(f"TorchAdadelta: invalid wd {wd!r} (must be >= 0)")
        _check_clip("TorchAdadelta", kwargs)
        super().__init__(learning_rate=learning_rate, wd=wd, **kwargs)
        self.rho = float(rho)
        self.epsilon = float(epsilon)

    def create_state(self, index, weight):
        """``(square_avg, acc_delta)``: zeros of the weight's shape, dtype and context."""
        return (mx.nd.zeros(weight.shape, weight.context, dtype=weight.dtype),
                mx.nd.zeros(weight.shape, weight.context, dtype=weight.dtype))

    def update(self, index, weight, grad, state):
        """One PyTorch Adadelta step of ``weight`` (in place) on ``grad``; ``grad`` is not
        modified."""
        _check_dense(self, index, weight, grad, "torch.optim.Adadelta")
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        rho = self.rho
        eps = self.epsilon
        square_avg, acc_delta = state

        g = _rescaled_clipped(self, grad)
        if wd != 0.0:
            g = g + wd * weight

        square_avg *= rho
        square_avg += (1.0 - rho) * g * g
        delta = mx.nd.sqrt(acc_delta + eps) / mx.nd.sqrt(square_avg + eps) * g
        acc_delta *= rho
        acc_delta += (1.0 - rho) * delta * delta
        weight -= lr * delta


def mxnet_adam_settings(torch_optimizer, t: int, learning_rate: float = 0.001,
                        beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                        wd: float = 0.0) -> None:
    """Set ``torch_optimizer`` (a ``torch.optim.Adam``) so that its step number ``t`` is the
    step MXNet 1.9.1's ``"adam"`` takes with these options; call it before every step.

    MXNet's ``Adam.update`` computes ``lr·√(1 − β₂ᵗ)/(1 − β₁ᵗ)`` in Python and hands it, with
    ``β₁``, ``β₂``, ``ε`` and ``wd``, to the ``adam_update`` kernel, which takes them as
    float32 (parsed from their text: :func:`mxnet_float`, not always ``f32``) and divides by
    ``√v + ε``. This sets every param group's ``betas`` and ``weight_decay`` to those float32
    values, ``eps`` to ``ε/√(1 − β₂ᵗ)`` and ``lr`` so that
    PyTorch's bias corrections give back the kernel's rate: float64 trajectories then agree
    to rounding (notebook 8, §4). The options are MXNet's ``"adam"`` options, defaults
    included; ``rescale_grad`` and ``clip_gradient`` are not covered (scale the loss instead).

    >>> import torch
    >>> w = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    >>> pt_opt = torch.optim.Adam([w])
    >>> mxnet_adam_settings(pt_opt, 1)
    >>> group = pt_opt.param_groups[0]
    >>> group["betas"] == (f32(0.9), f32(0.999))
    True
    >>> round(group["eps"] / 1e-8, 1)            # ε/√(1 − β₂): 31.6 ε at the first step
    31.6
    """
    import torch

    if not isinstance(torch_optimizer, torch.optim.Adam):
        raise TypeError("mxnet_adam_settings: torch_optimizer must be a torch.optim.Adam, got "
                        f"{type(torch_optimizer).__name__}")
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1:
        raise ValueError(f"mxnet_adam_settings: invalid t {t!r} (the number of the step about "
                         "to be taken: an int >= 1)")
    for name, value in (("learning_rate", learning_rate), ("epsilon", epsilon), ("wd", wd)):
        if not value >= 0.0:
            raise ValueError(f"mxnet_adam_settings: invalid {name} {value!r} (must be >= 0)")
    for name, beta in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"mxnet_adam_settings: invalid {name} {beta!r} (must be in [0, 1))")
    for n, group in enumerate(torch_optimizer.param_groups):
        for option in ("amsgrad", "maximize"):
            if group.get(option):
                raise ValueError(f"mxnet_adam_settings: param group {n} has {option}=True, "
                                 "which MXNet's adam does not have")
        if wd != 0.0 and group.get("decoupled_weight_decay"):
            raise ValueError(f"mxnet_adam_settings: param group {n} decouples weight decay "
                             "(AdamW); MXNet's adam adds wd*w to the gradient: use "
                             "torch.optim.Adam")
        for p in group["params"]:
            done = torch_optimizer.state.get(p, {}).get("step")
            if done is not None and int(done) != t - 1:
                raise ValueError(f"mxnet_adam_settings: t={t}, but the optimizer has taken "
                                 f"{int(done)} steps; pass t = steps taken + 1")
    c1, c2 = 1.0 - beta1 ** t, 1.0 - beta2 ** t          # MXNet's, in Python doubles
    # what its adam_update receives: each scalar as str(), parsed to float32 by dmlc-core
    kernel_lr = mxnet_float(learning_rate * math.sqrt(c2) / c1)
    b1, b2 = mxnet_float(beta1), mxnet_float(beta2)
    bc1, bc2 = 1.0 - b1 ** t, 1.0 - b2 ** t              # PyTorch's, from its betas
    for group in torch_optimizer.param_groups:
        group.update(betas=(b1, b2), eps=mxnet_float(epsilon) / math.sqrt(bc2),
                     lr=kernel_lr * bc1 / math.sqrt(bc2), weight_decay=mxnet_float(wd))


def gluon_optimizer_for(torch_optimizer) -> tuple[str, dict]:
    """The ``(name, options)`` of the Gluon optimizer, registered here, that takes the steps
    of ``torch_optimizer``: ``gluon.Trainer(params, *gluon_optimizer_for(pt_opt))``.

    ``torch.optim.Adam`` → ``"torchadam"`` (``"torchadamw"`` with
    ``decoupled_weight_decay=True``), ``AdamW`` → ``"torchadamw"``, ``Adadelta`` →
    ``"torchadadelta"``. The settings must be the same in every param group (per-parameter
    rates are ``Parameter.lr_mult`` in Gluon); ``maximize``, ``capturable``, ``differentiable``
    and a tensor ``lr`` are refused.

    >>> import torch
    >>> w = torch.zeros(3, requires_grad=True)
    >>> gluon_optimizer_for(torch.optim.AdamW([w], lr=0.01, betas=(0.8, 0.99)))
    ('torchadamw', {'learning_rate': 0.01, 'beta1': 0.8, 'beta2': 0.99, 'epsilon': 1e-08, 'wd': 0.01, 'amsgrad': False})
    """
    import torch

    if isinstance(torch_optimizer, torch.optim.Adam):
        keys = ("lr", "betas", "eps", "weight_decay", "amsgrad", "decoupled_weight_decay")
    elif isinstance(torch_optimizer, torch.optim.Adadelta):
        keys = ("lr", "rho", "eps", "weight_decay")
    else:
        raise TypeError("gluon_optimizer_for: no Gluon optimizer here takes the steps of "
                        f"{type(torch_optimizer).__name__}; supported: torch.optim.Adam, "
                        "AdamW, Adadelta")
    groups = torch_optimizer.param_groups
    for n, group in enumerate(groups):
        for option in ("maximize", "capturable", "differentiable"):
            if group.get(option):
                raise ValueError(f"gluon_optimizer_for: param group {n} has {option}=True, "
                                 "which the Gluon optimizers do not have")
        if isinstance(group["lr"], torch.Tensor):
            raise ValueError(f"gluon_optimizer_for: param group {n} has a tensor lr; give a "
                             "float")
        differing = [k for k in keys if group.get(k) != groups[0].get(k)]
        if differing:
            raise ValueError(f"gluon_optimizer_for: param groups 0 and {n} differ in "
                             f"{differing}; a Gluon Trainer takes one set of options (set "
                             "Parameter.lr_mult / wd_mult for per-parameter rates)")
    group = groups[0]
    if isinstance(torch_optimizer, torch.optim.Adadelta):
        return "torchadadelta", {"learning_rate": float(group["lr"]), "rho": group["rho"],
                                 "epsilon": group["eps"], "wd": group["weight_decay"]}
    name = "torchadamw" if group.get("decoupled_weight_decay") else "torchadam"
    beta1, beta2 = (float(b) for b in group["betas"])
    return name, {"learning_rate": float(group["lr"]), "beta1": beta1, "beta2": beta2,
                  "epsilon": group["eps"], "wd": group["weight_decay"],
                  "amsgrad": bool(group["amsgrad"])}
