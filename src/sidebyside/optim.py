"""Optimizers for Gluon that take PyTorch's steps.

:class:`TorchAdadelta` is ``torch.optim.Adadelta`` as an MXNet optimizer, registered under the
name ``"torchadadelta"``::

    from sidebyside.optim import TorchAdadelta          # registers "torchadadelta"
    trainer = gluon.Trainer(net.collect_params(), "torchadadelta", {"learning_rate": 1.0})

It matches ``torch.optim.Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0)``, with
the arguments renamed ``learning_rate``, ``rho``, ``epsilon``, ``wd``. Each update is
PyTorch's, in the same order of operations::

    g = clip(rescale_grad * grad, clip_gradient) + wd * w
    square_avg = rho * square_avg + (1 - rho) * g * g
    delta = sqrt(acc_delta + epsilon) / sqrt(square_avg + epsilon) * g
    acc_delta = rho * acc_delta + (1 - rho) * delta * delta
    w -= lr * delta

On the same weights and gradients, float64 trajectories agree with PyTorch's to rounding
(``tests/test_optim.py`` checks 1e-12 relative over 50 steps), float32 ones to float32
rounding.

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

The mapping of the remaining :class:`mx.optimizer.Optimizer` options:

- ``rescale_grad`` (``trainer.step(batch_size)`` sets it to ``1/batch_size``) multiplies the
  gradient first: a summed (or per-sample) loss with ``step(batch_size)`` is PyTorch's mean
  loss;
- ``clip_gradient=c`` clips the rescaled gradient element-wise to ``[-c, c]`` *before* weight
  decay, as ``torch.nn.utils.clip_grad_value_(params, c)`` before ``optimizer.step()`` does;
- ``learning_rate`` is read at every update, so ``trainer.set_learning_rate`` (PyTorch:
  ``group["lr"] = …``) and an ``lr_scheduler`` take effect from the next update; per-parameter
  ``lr_mult`` and ``wd_mult`` apply as in MXNet's own optimizers;
- ``multi_precision=True`` keeps a float32 master copy of float16 weights (MXNet's generic
  mechanism); PyTorch has no counterpart.

The state — ``(square_avg, acc_delta)`` — is created in the weight's dtype and on its context,
so float64 weights train and the update runs wherever the weight lives. Sparse
(``row_sparse``) gradients and weights are refused, as PyTorch's Adadelta refuses sparse
gradients. All arithmetic is NDArray operations with Python-float (double) scalars; MXNet's
fused update kernels, which round hyper-parameters to float32, are not used.
"""

import mxnet as mx

__all__ = ["TorchAdadelta"]


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
        clip = kwargs.get("clip_gradient")
        if clip is not None and not clip >= 0.0:
            raise ValueError(f"TorchAdadelta: invalid clip_gradient {clip!r} "
                             "(must be >= 0, or None for no clipping)")
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
        if not isinstance(weight, mx.nd.NDArray) or not isinstance(grad, mx.nd.NDArray):
            raise TypeError("TorchAdadelta.update expects mxnet NDArrays for weight and grad, "
                            f"got {type(weight).__name__} and {type(grad).__name__}")
        for what, array in (("gradient", grad), ("weight", weight)):
            if array.stype != "default":
                name = (self.param_dict[index].name if index in self.param_dict
                        else self.idx2name.get(index, index))
                raise NotImplementedError(
                    f"TorchAdadelta does not support sparse arrays: parameter {name!r} has a "
                    f"{array.stype} {what} (torch.optim.Adadelta refuses sparse gradients "
                    "too); use dense gradients, e.g. Embedding(..., sparse_grad=False)")
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        rho = self.rho
        eps = self.epsilon
        square_avg, acc_delta = state

        g = grad * self.rescale_grad if self.rescale_grad != 1.0 else grad
        if self.clip_gradient is not None:
            # scalar maximum/minimum take a double; nd.clip would round the bound to float32
            g = mx.nd.minimum(mx.nd.maximum(g, -self.clip_gradient), self.clip_gradient)
        if wd != 0.0:
            g = g + wd * weight

        square_avg *= rho
        square_avg += (1.0 - rho) * g * g
        delta = mx.nd.sqrt(acc_delta + eps) / mx.nd.sqrt(square_avg + eps) * g
        acc_delta *= rho
        acc_delta += (1.0 - rho) * delta * delta
        weight -= lr * delta
