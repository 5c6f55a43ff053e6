"""The helpers a draft port carries: Gluon behaviours that PyTorch spells in several lines.

A rewrite rule of :mod:`.rewrite` that needs one writes a call to it, and the draft gets the
helper's source (``inspect.getsource``), once, after its imports: the draft depends on torch
(and torchvision for the datasets) only, never on MXNet or on this package. Each helper
imports what it uses inside its body, so this module imports nothing at load time
(``sidebyside.migrate`` stays standard-library only). ``tests/test_migrate_port.py`` runs
every helper against MXNet 1.9.1: the same distributions, the same updates, the same counts.
"""

from __future__ import annotations

import functools
import inspect

__all__ = ["HELPERS", "source_of"]


def gluon_init_uniform(scale=0.07):
    """mx.init.Uniform(scale): every weight drawn from U(-scale, scale)."""
    def draw(weight):
        weight.uniform_(-scale, scale)
    return draw


def gluon_init_normal(sigma=0.01):
    """mx.init.Normal(sigma): every weight drawn from N(0, sigma²)."""
    def draw(weight):
        weight.normal_(0.0, sigma)
    return draw


def gluon_init_xavier(rnd_type="uniform", factor_type="avg", magnitude=3):
    """mx.init.Xavier: scale = sqrt(magnitude / fan), fan the mean of fan-in and fan-out
    ('avg'), fan-in ('in') or fan-out ('out'), each times the kernel's spatial size; then
    U(-scale, scale) ('uniform') or N(0, scale²) ('gaussian')."""
    import math

    if rnd_type not in ("uniform", "gaussian") or factor_type not in ("avg", "in", "out"):
        raise ValueError(f"Xavier: rnd_type {rnd_type!r}, factor_type {factor_type!r}")

    def draw(weight):
        shape = weight.shape
        if len(shape) < 2:
            raise ValueError(f"Xavier needs 2 or more axes, not the shape {tuple(shape)}")
        spatial = math.prod(shape[2:])
        fan_in, fan_out = shape[1] * spatial, shape[0] * spatial
        fan = {"avg": (fan_in + fan_out) / 2.0, "in": fan_in, "out": fan_out}[factor_type]
        scale = math.sqrt(magnitude / fan)
        if rnd_type == "uniform":
            weight.uniform_(-scale, scale)
        else:
            weight.normal_(0.0, scale)
    return draw


def gluon_initialize(module, init=None, device=None):
    """Block.initialize(init, ctx): every weight of two or more axes drawn by ``init`` (Gluon's
    default: U(-0.07, 0.07)) and every bias zero; the other parameters (a BatchNorm's or
    LayerNorm's scale and shift, PReLU's slope) keep PyTorch's defaults, which are Gluon's; a
    block's own parameters (``gluon_parameter``) as Gluon fills them. A lazy layer (no input
    size given) is initialised when its first input arrives, as Gluon defers it."""
    import torch

    draw = init or gluon_init_uniform(0.07)

    def fill(layer):
        with torch.no_grad():
            for name, p in layer.named_parameters(recurse=False):
                if hasattr(p, "gluon_name"):   # a block's own (gluon_parameter)
                    gluon_fill_parameter(p, draw)
                elif name.startswith("weight") and p.dim() >= 2:
                    draw(p)
                elif name.startswith("bias"):
                    p.zero_()

    lazy = torch.nn.modules.lazy.LazyModuleMixin
    for layer in module.modules():
        if isinstance(layer, lazy) and layer.has_uninitialized_params():
            handle = []

            def once(mod, args, handle=handle):  # after the layer's own hook made its weights
                fill(mod)
                handle[0].remove()
            handle.append(layer.register_forward_pre_hook(once))
        else:
            fill(layer)
    if device is not None:
        module.to(device)
    return module


def gluon_init_constant(value):
    """mx.init.Zero() (0), mx.init.One() (1), mx.init.Constant(value): every value set."""
    def draw(weight):
        weight.fill_(value)
    return draw


def gluon_parameter(name, shape, init=None, dtype=None, grad_req="write"):
    """self.params.get(name, shape, init, dtype, grad_req) in a Block: a torch Parameter of
    that shape, left empty until gluon_initialize fills it (with ``init`` if given, else with
    initialize()'s initializer, whatever the name, as Gluon does); grad_req 'null' freezes it
    ('add', Gluon's accumulation, is refused). A 0 in the shape (Gluon's deferred size) is
    refused: give the size."""
    import torch

    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(d == 0 for d in shape):
        raise ValueError(f"parameter {name!r}: shape {shape} holds 0 (a size Gluon infers "
                         "at the first call); give the size")
    if grad_req not in ("write", "null"):
        raise ValueError(f"parameter {name!r}: grad_req {grad_req!r}: the draft carries "
                         "'write' and 'null' (port 'add' by not zeroing that gradient)")
    if init is not None and (not callable(init)
                             or type(init).__module__.split(".")[0] == "mxnet"):
        raise TypeError(f"parameter {name!r}: initializer {init!r} is not one of the draft's "
                        "(an MXNet initializer left unported?)")
    dtype = getattr(torch, dtype) if isinstance(dtype, str) else dtype
    p = torch.nn.Parameter(torch.empty(shape, dtype=dtype), requires_grad=grad_req != "null")
    p.gluon_name, p.gluon_init = name, init
    return p


def gluon_init_named(init):
    """An initializer given as a Block's argument, as Gluon reads it: ``None`` (initialize()'s
    then), one of the draft's, or the name of one in MXNet's registry with its defaults
    ('zero'/'zeros', 'one'/'ones', 'uniform', 'normal', 'xavier', 'msraprelu'); another name,
    or an MXNet initializer object left in the draft, is refused."""
    makers = {"zero": lambda: gluon_init_constant(0.0), "zeros": lambda: gluon_init_constant(0.0),
              "one": lambda: gluon_init_constant(1.0), "ones": lambda: gluon_init_constant(1.0),
              "uniform": gluon_init_uniform, "normal": gluon_init_normal,
              "xavier": gluon_init_xavier,
              "msraprelu": lambda: gluon_init_xavier("gaussian", "avg", 2.0 / (1 + 0.25 ** 2))}
    if isinstance(init, str):
        if init.lower() not in makers:
            raise ValueError(f"initializer {init!r}: the draft knows {', '.join(sorted(makers))}")
        return makers[init.lower()]()
    if init is not None and (not callable(init)
                             or type(init).__module__.split(".")[0] == "mxnet"):
        raise TypeError(f"initializer {init!r} is not one of the draft's (an MXNet "
                        "initializer left unported?)")
    return init


def gluon_parameter_initialize(parameter, init=None, ctx=None, default_init=None,
                               force_reinit=False):
    """Parameter.initialize(init, ctx, default_init, force_reinit) of a gluon_parameter: its
    first values drawn by ``init``, else by its own initializer, else by ``default_init``
    (Gluon's U(-0.07, 0.07)); initialised already, it warns and keeps its values as Gluon
    does, unless ``force_reinit``; moved to ``ctx``'s device when given (the first of a
    list: one device per process)."""
    import warnings

    import torch

    if getattr(parameter, "gluon_filled", False) and not force_reinit:
        warnings.warn(f"Parameter {parameter.gluon_name!r} is already initialized, ignoring. "
                      "Set force_reinit=True to re-initialize.", stacklevel=2)
        return
    draw = init or parameter.gluon_init or default_init or gluon_init_uniform(0.07)
    with torch.no_grad():
        draw(parameter)
        if ctx is not None:
            device = ctx[0] if isinstance(ctx, (list, tuple)) else ctx
            parameter.data = parameter.data.to(device)
    parameter.gluon_filled = True


def gluon_set_data(parameter, data):
    """Parameter.set_data(data): the values replaced in place, outside autograd; a shape
    other than the parameter's is refused, as Gluon refuses it."""
    import torch

    if tuple(data.shape) != tuple(parameter.shape):
        raise ValueError(f"set_data: shape {tuple(data.shape)} for a parameter of shape "
                         f"{tuple(parameter.shape)}")
    with torch.no_grad():
        parameter.copy_(data)


def gluon_fill_parameter(p, default):
    """A gluon_parameter's first values: its own initializer, else ``default`` (the one given
    to initialize(), Gluon's U(-0.07, 0.07) without one) whatever its name, as Gluon applies
    it to a Parameter; an initializer that cannot fill it (Xavier on a vector) says so."""
    try:
        (p.gluon_init or default)(p)
    except (ValueError, IndexError) as err:
        raise ValueError(f"parameter {p.gluon_name!r}: {err}") from err


class GluonMode:
    """Gluon's training flag, as the draft's Dropout and BatchNorm layers read it: True inside
    ``autograd.record()`` and ``train_mode()``, False elsewhere (Gluon predicts outside
    ``record()``), whatever ``module.train()`` or ``.eval()`` said. One flag per process, as
    MXNet's: the drafts of several files, each with its own copy of these helpers, share it
    (it lives in ``sys.modules['gluon_mode']``)."""

    @staticmethod
    def state():
        import sys
        import types

        if "gluon_mode" not in sys.modules:
            flag = types.ModuleType("gluon_mode", "Gluon's training flag, for the drafts")
            flag.training = False
            sys.modules["gluon_mode"] = flag
        return sys.modules["gluon_mode"]

    @classmethod
    def is_training(cls):
        return cls.state().training


def gluon_scope(training):
    """autograd.record() / train_mode() (``training=True``), record(train_mode=False) /
    predict_mode() (``False``): a context manager that sets :class:`GluonMode` for its body
    and restores it after. PyTorch records gradients everywhere: only the flag is Gluon's."""
    import contextlib

    @contextlib.contextmanager
    def scope():
        state = GluonMode.state()
        before = state.training
        state.training = bool(training)
        try:
            yield
        finally:
            state.training = before
    return scope()


def gluon_pause(train_mode=False):
    """autograd.pause(train_mode=False): its body not recorded (torch.no_grad) and Gluon's
    training flag set to ``train_mode`` (:class:`GluonMode`), both restored after."""
    import contextlib

    import torch

    @contextlib.contextmanager
    def scope():
        with torch.no_grad(), gluon_scope(train_mode):
            yield
    return scope()


def gluon_scoped(module):
    """``module`` (a Dropout or BatchNorm) set to train or predict at each call as Gluon's
    scope says (:class:`GluonMode`), not by ``.train()``/``.eval()``."""
    def follow(layer, args):
        layer.training = GluonMode.is_training()
    module.register_forward_pre_hook(follow)
    return module


def gluon_share_params(layer, owner):
    """A layer built with ``params=owner.params`` (or ``owner.collect_params()``): each of
    the layer's parameters that ``owner`` holds itself under the same name (weight, bias) is
    owner's very parameter, as Gluon finds it in the shared dictionary (a Dense tied to an
    Embedding shares the weight and keeps its own bias); a shape that differs raises, as
    Gluon's does. ``owner`` a Dense, Conv or Embedding layer. The layer is returned."""
    def own(module):   # a layer's parameters, through the draft's Sequential(Flatten, Linear)
        direct = dict(module.named_parameters(recurse=False))
        if direct:
            return module, direct
        holders = [c for c in module.children() if any(True for _ in c.parameters())]
        return own(holders[0]) if len(holders) == 1 else (module, {})

    import torch

    target, mine = own(layer)
    holder, theirs = own(owner)
    kinds = (torch.nn.Linear, torch.nn.modules.conv._ConvNd, torch.nn.Embedding)
    if not isinstance(holder, kinds):   # Gluon's names (gamma, i2h_weight...) differ there
        raise TypeError(f"params=: the draft shares the parameters of a Dense, Conv or "
                        f"Embedding layer, not of a {type(holder).__name__}")
    for name, param in theirs.items():
        if name not in mine:
            continue
        if tuple(mine[name].shape) != tuple(param.shape):
            raise ValueError(f"params=: the layer's {name} has shape {tuple(mine[name].shape)},"
                             f" the shared one {tuple(param.shape)}")
        setattr(target, name, param)
    return layer


def gluon_grad(param):
    """Parameter.grad(ctx): the parameter's gradient, to read or change in place (zeros
    before any backward, as Gluon's buffer is); a frozen parameter raises, as Gluon's
    grad_req='null' does."""
    import torch

    if not param.requires_grad:
        raise RuntimeError("grad(): the parameter is frozen (Gluon's grad_req='null'): it has "
                           "no gradient")
    if param.grad is None:
        param.grad = torch.zeros_like(param)
    return param.grad


def gluon_clip_global_norm(arrays, max_norm, check_isfinite=True):
    """gluon.utils.clip_global_norm(arrays, max_norm, check_isfinite): the arrays (gradients)
    scaled in place by max_norm / (total + 1e-8) where that is below 1, total their joint
    2-norm; returns total (a float; a (1,) tensor when check_isfinite is False), warning when
    it is not finite, as Gluon's does."""
    import math
    import warnings

    import torch

    if len(arrays) == 0:
        raise ValueError("clip_global_norm: no arrays")
    with torch.no_grad():
        device = arrays[0].device
        total = torch.sqrt(sum(torch.dot(a.reshape(-1), a.reshape(-1)).to(device)
                               for a in arrays)).reshape(1)
        if check_isfinite and not math.isfinite(total.item()):
            warnings.warn(UserWarning("nan or inf is detected. Clipping results will be "
                                      "undefined."), stacklevel=2)
        scale = torch.clamp(max_norm / (total + 1e-8), max=1.0)
        for a in arrays:
            a.mul_(scale.to(a.device))
    return total.item() if check_isfinite else total


def gluon_broadcast_shape(shape, zero=-1):
    """broadcast_to's ``shape`` for torch: MXNet's 0 is ``zero``: -1 for the nd.broadcast_to
    operator (0 keeps that axis of the input, of the same rank), 1 for the NDArray method
    (which allows 0 only where the input, padded with leading 1s, has 1)."""
    return tuple(zero if int(d) == 0 else int(d) for d in shape)


def _gluon_nd_filled(fill, shape, ctx=None, dtype=None, **kwargs):
    import torch

    kwargs.pop("name", None)
    kwargs.pop("__layout__", None)   # attributes of the graph node: an array ignores them
    if kwargs:
        raise TypeError(f"unexpected arguments {sorted(kwargs)}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return torch.full(shape, fill, dtype=_np_dtype(dtype), device=ctx)


def gluon_nd_zeros(shape, ctx=None, dtype=None, **kwargs):
    """mx.nd.zeros handed on as a function (begin_state's func=): MXNet's signature, float32
    unless told."""
    return _gluon_nd_filled(0, shape, ctx, dtype, **kwargs)


def gluon_nd_ones(shape, ctx=None, dtype=None, **kwargs):
    """mx.nd.ones handed on as a function: as :func:`gluon_nd_zeros`, ones."""
    return _gluon_nd_filled(1, shape, ctx, dtype, **kwargs)


def gluon_embedding(input_dim, output_dim, weight_initializer=None):
    """nn.Embedding(input_dim, output_dim, weight_initializer=...): torch's Embedding (the
    same ``weight``) reading indices as Gluon's: float ones truncated to integers (MXNet's
    arrays are float32 unless told; torch's Embedding refuses floats), out-of-range ones
    clipped to [0, input_dim); with ``weight_initializer`` (an initializer of the draft),
    gluon_initialize fills the weight with it, whatever initialize() is given, as Gluon's
    layer does."""
    import torch

    class GluonEmbedding(torch.nn.Embedding):
        def forward(self, x):
            x = x.long() if x.is_floating_point() else x
            return super().forward(x.clamp(0, self.num_embeddings - 1))

    layer = GluonEmbedding(input_dim, output_dim)
    if weight_initializer is not None:
        layer.weight.gluon_name, layer.weight.gluon_init = "weight", weight_initializer
    return layer


def gluon_split(data, num_outputs, axis=1, squeeze_axis=False):
    """nd.split / nd.SliceChannel(data, num_outputs, axis, squeeze_axis): ``num_outputs``
    equal parts along ``axis`` (whose length it must divide, as MXNet requires); with
    ``squeeze_axis`` each part without that axis (MXNet then needs as many parts as the
    axis is long); a list, or the part itself when there is one, as MXNet gives them."""
    import torch

    size = data.shape[axis]
    if num_outputs < 1 or size % num_outputs:
        raise ValueError(f"split: {num_outputs} parts of an axis of length {size}")
    if squeeze_axis and size != num_outputs:
        raise ValueError(f"split: squeeze_axis needs {size} parts, not {num_outputs}")
    parts = list(torch.unbind(data, axis)) if squeeze_axis \
        else list(torch.split(data, size // num_outputs, dim=axis))
    return parts[0] if num_outputs == 1 else parts


def gluon_dropout(rate=0.5, axes=()):
    """nn.Dropout(rate, axes): in training each value zeroed with probability ``rate``, the
    rest scaled by 1 / (1 - rate), one draw shared along ``axes`` (the mask has size 1
    there); in prediction the input as it is. Wrap it in gluon_scoped for Gluon's scope."""
    import torch

    class GluonDropout(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rate, self.axes = rate, tuple(axes)

        def forward(self, x):
            if not self.training or self.rate == 0:
                return x
            if any(not -x.dim() <= a < x.dim() for a in self.axes):
                raise ValueError(f"Dropout axes {self.axes} for an input of {x.dim()} axes")
            shared = {a % x.dim() for a in self.axes}
            shape = [1 if i in shared else d for i, d in enumerate(x.shape)]
            keep = torch.empty(shape, dtype=x.dtype, device=x.device).bernoulli_(1 - self.rate)
            return x * keep / (1 - self.rate)

        def extra_repr(self):
            return f"p={self.rate}, axes={self.axes}"

    return GluonDropout()


def gluon_batch_norm(momentum=0.9, epsilon=1e-5, in_channels=0, affine=True):
    """nn.BatchNorm(axis=1): over axis 1 of an input of any rank from 2 (PyTorch's BatchNorm1d,
    2d and 3d each check one), the input size inferred at the first call when ``in_channels``
    is 0 (lazy); ``momentum`` Gluon's (the weight of the old running value: PyTorch's
    ``1 - momentum``). The running statistics move in each training forward (Gluon's in the
    backward that follows: the same in a loop that steps after each recorded forward); the
    running variance with the unbiased batch variance (PyTorch's), Gluon's with the biased
    one: n/(n-1) apart."""
    import torch

    class GluonBatchNorm(torch.nn.LazyBatchNorm1d if not in_channels
                         else torch.nn.BatchNorm1d):
        cls_to_become = None

        def _check_input_dim(self, input):
            if input.dim() < 2:
                raise ValueError(f"expected 2 or more dimensions (got {input.dim()}D input)")

    options = dict(eps=epsilon, momentum=1 - momentum, affine=affine)
    return GluonBatchNorm(in_channels, **options) if in_channels else GluonBatchNorm(**options)


def gluon_instance_norm(axis=1, epsilon=1e-5, center=True, scale=False, in_channels=0):
    """nn.InstanceNorm: each sample's channel (``axis``) normalised over its other axes
    (the biased variance, epsilon inside the root), times ``weight`` (Gluon's gamma: ones,
    trained only with ``scale=True``) plus ``bias`` (beta: zeros, trained with
    ``center=True``, the default); any rank from 3; ``in_channels`` 0: inferred at the first
    call. torch's InstanceNorm has both or neither, and one class per rank."""
    import torch

    class GluonInstanceNorm(torch.nn.modules.lazy.LazyModuleMixin, torch.nn.Module):
        cls_to_become = None

        def __init__(self):
            super().__init__()
            if in_channels:
                self.weight = torch.nn.Parameter(torch.ones(in_channels), requires_grad=scale)
                self.bias = torch.nn.Parameter(torch.zeros(in_channels), requires_grad=center)
            else:
                self.weight = torch.nn.UninitializedParameter(requires_grad=scale)
                self.bias = torch.nn.UninitializedParameter(requires_grad=center)

        def initialize_parameters(self, x):
            if self.has_uninitialized_params():
                with torch.no_grad():
                    self.weight.materialize((x.shape[axis],))
                    self.bias.materialize((x.shape[axis],))
                    self.weight.fill_(1)
                    self.bias.zero_()

        def forward(self, x):
            if x.dim() < 3:
                raise ValueError(f"InstanceNorm takes 3 or more axes, not {x.dim()}")
            x = x.transpose(1, axis) if axis != 1 else x
            out = torch.nn.functional.instance_norm(x, weight=self.weight, bias=self.bias,
                                                    eps=epsilon)
            return out.transpose(1, axis) if axis != 1 else out

    return GluonInstanceNorm()


def gluon_reset_ctx(module, ctx):
    """net.collect_params().reset_ctx(ctx): the module's parameters and buffers moved to the
    device ``ctx`` (or the one device of a list). Several devices: one process holding a copy
    on each is Gluon's data parallelism, which PyTorch does with DistributedDataParallel: a
    ValueError says so."""
    if isinstance(ctx, (list, tuple)):
        if len(ctx) != 1:
            raise ValueError(f"reset_ctx on {len(ctx)} devices: in PyTorch one process per "
                             "device, with DistributedDataParallel (notebook 9)")
        ctx = ctx[0]
    return module.to(ctx)


def gluon_trainer_step(optimizer, batch_size):
    """Trainer.step(batch_size): the gradients divided by ``batch_size``, one update, then the
    gradients cleared (Gluon's backward writes them, PyTorch's adds to them). A
    :func:`gluon_optimizer` takes the 1/batch_size as MXNet does, in its rescale_grad."""
    if hasattr(optimizer, "gluon_batch"):
        optimizer.gluon_batch(batch_size)
        optimizer.step()
        optimizer.zero_grad(set_to_none=False)   # the same buffers, as Gluon's: a list of
        return                                   # p.grad(ctx) taken once stays them
    for group in optimizer.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                p.grad.div_(batch_size)
    optimizer.step()
    optimizer.zero_grad(set_to_none=False)


def gluon_adam(params, lr=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0):
    """mx.optimizer.Adam as Gluon's Trainer runs it, as a torch optimizer: the weight decay
    added to the gradient, the bias corrections folded into the step's learning rate, and
    epsilon added to the square root of the uncorrected second moment (torch.optim.Adam adds it
    to the corrected one: another update). MXNet's kernel takes each setting as float32; so
    does this."""
    import math

    import torch

    def f32(value):
        return torch.tensor(value, dtype=torch.float32).item()

    class GluonAdam(torch.optim.Optimizer):
        @torch.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                b1, b2 = group["beta1"], group["beta2"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if not state:
                        state.update(t=0, mean=torch.zeros_like(p), var=torch.zeros_like(p))
                    state["t"] += 1
                    t = state["t"]
                    lr_t = f32(group["lr"] * (math.sqrt(1 - b2 ** t) / (1 - b1 ** t)))
                    grad = p.grad + f32(group["wd"]) * p
                    state["mean"].mul_(f32(b1)).add_(grad, alpha=1 - f32(b1))
                    state["var"].mul_(f32(b2)).addcmul_(grad, grad, value=1 - f32(b2))
                    p.sub_(lr_t * state["mean"] / (state["var"].sqrt() + f32(group["epsilon"])))

    return GluonAdam(params, dict(lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd))


def gluon_optimizer(params, optimizer, optimizer_params=None, kvstore="device",
                    compression_params=None):
    """gluon.Trainer(params, optimizer, optimizer_params, kvstore, compression_params) with
    optimizer 'sgd', 'nag', 'adam', 'rmsprop' (also centered), 'adagrad' or 'adadelta' (any
    case), named when the draft runs: a torch optimizer whose step is MXNet 1.9.1's update, its
    settings (learning_rate, wd, rescale_grad, clip_gradient and the optimizer's own) as MXNet
    reads them, float32 where MXNet's kernels take them so. AdaDelta has no learning rate
    (MXNet's ignores it). Another optimizer, or a setting such as lr_scheduler, raises: port
    it by hand. One process: a kvstore of one process ('device', 'local'...) or the draft's
    (GluonKVStore); a distributed one, or gradient compression, raises (DistributedDataParallel
    averages the gradients where MXNet's parameter server sums them: port that by hand)."""
    import math

    import torch

    local = ("local", "device", "local_update_cpu", "local_allreduce_cpu",
             "local_allreduce_device")
    if not (kvstore is None or kvstore in local if isinstance(kvstore, str) or kvstore is None
            else type(kvstore).__name__ == "GluonKVStore"):
        raise ValueError(f"gluon_optimizer: kvstore {kvstore!r} is not one process's: "
                         "distributed training is DistributedDataParallel in PyTorch, which "
                         "averages gradients where MXNet's parameter server sums them; port it "
                         "by hand")
    if compression_params is not None:
        raise ValueError("gluon_optimizer: gradient compression "
                         f"{compression_params!r}: port it by hand")

    own = {"sgd": {"momentum": 0.0, "lazy_update": True}, "nag": {"momentum": 0.0},
           "adam": {"learning_rate": 0.001, "beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8,
                    "lazy_update": True},
           "rmsprop": {"learning_rate": 0.001, "gamma1": 0.9, "gamma2": 0.9, "epsilon": 1e-8,
                       "centered": False, "clip_weights": None},
           "adagrad": {"eps": 1e-7}, "adadelta": {"rho": 0.9, "epsilon": 1e-5}}
    name = optimizer.lower() if isinstance(optimizer, str) else None
    if name not in own:
        raise ValueError(f"gluon_optimizer: {optimizer!r} is not one of {sorted(own)}: "
                         "port this Trainer by hand")
    settings = {"learning_rate": 0.01, "wd": 0.0, "rescale_grad": 1.0, "clip_gradient": None,
                "multi_precision": False, **own[name]}
    unknown = sorted(set(optimizer_params or {}) - set(settings) - {"lr_scheduler"})
    if unknown:
        raise ValueError(f"gluon_optimizer: {name} with {unknown}: port this Trainer by hand")
    given = dict(optimizer_params or {})
    scheduler = given.pop("lr_scheduler", None)
    if scheduler is not None and not callable(scheduler):
        raise ValueError(f"gluon_optimizer: lr_scheduler {scheduler!r} is not a scheduler")
    settings.update(given)
    settings["lr"] = settings.pop("learning_rate")
    if scheduler is not None and ("learning_rate" in given or "learning_rate" in own[name]):
        scheduler.base_lr = settings["lr"]    # MXNet's optimizer sets the scheduler's

    def f32(value):
        return torch.tensor(value, dtype=torch.float32).item()

    def kernel_clip(g, c):      # a kernel clips when the setting is given and not negative
        return g.clamp(-f32(c), f32(c)) if c and c >= 0 else g

    def sgd(p, g, st, o):
        mom = st.get("mom", torch.zeros_like(p)) * f32(o["momentum"]) \
            - f32(o["lr"]) * f32(o["wd"]) * p - f32(o["lr"]) * kernel_clip(
                f32(o["rescale_grad"]) * g, o["clip_gradient"])
        if o["momentum"] > 0:
            st["mom"] = mom
        p.add_(mom)

    def nag(p, g, st, o):
        if not o["momentum"] > 0:
            return sgd(p, g, st, o)
        g = kernel_clip(f32(o["rescale_grad"]) * g, o["clip_gradient"])
        wd, lr = f32(o["wd"]), f32(o["lr"])
        mom = st.get("mom", torch.zeros_like(p)) * f32(o["momentum"])
        p.add_(-mom + (f32(o["momentum"]) + 1) * (mom - lr * (g + wd * p)))
        st["mom"] = mom - lr * (g + wd * p)   # MXNet's kernel writes the weight in place
        # first: its momentum then decays the new weight, not the old one

    def adam(p, g, st, o):
        t = st["t"]
        lr = f32(o["lr"] * (math.sqrt(1 - o["beta2"] ** t) / (1 - o["beta1"] ** t)))
        g = kernel_clip(g * f32(o["rescale_grad"]) + p * f32(o["wd"]), o["clip_gradient"])
        b1, b2 = f32(o["beta1"]), f32(o["beta2"])
        st["mean"] = b1 * st.get("mean", torch.zeros_like(p)) + (1 - b1) * g
        st["var"] = b2 * st.get("var", torch.zeros_like(p)) + (1 - b2) * g * g
        p.sub_(lr * st["mean"] / (st["var"].sqrt() + f32(o["epsilon"])))

    def rmsprop(p, g, st, o):
        g = kernel_clip(f32(o["rescale_grad"]) * g + f32(o["wd"]) * p, o["clip_gradient"])
        g1, eps, lr = f32(o["gamma1"]), f32(o["epsilon"]), f32(o["lr"])
        st["n"] = (1 - g1) * (g * g) + g1 * st.get("n", torch.zeros_like(p))
        if o["centered"]:
            st["g"] = (1 - g1) * g + g1 * st.get("g", torch.zeros_like(p))
            st["delta"] = f32(o["gamma2"]) * st.get("delta", torch.zeros_like(p)) \
                - lr * g / (st["n"] - st["g"] * st["g"] + eps).sqrt()
            new = p + st["delta"]
        else:
            new = p - lr * (g / (st["n"] + eps).sqrt())
        p.copy_(kernel_clip(new, o["clip_weights"]))

    def python_clip(g, o):      # the Python-written updates clip whenever it is not None
        c = o["clip_gradient"]
        return g if c is None else g.clamp(-c, c)

    def adagrad(p, g, st, o):
        g = python_clip(g * o["rescale_grad"], o)
        st["history"] = st.get("history", torch.zeros_like(p)) + g * g
        p.add_((g / (st["history"] + o["eps"]).sqrt() + p * o["wd"]) * -o["lr"])

    def adadelta(p, g, st, o):
        g = python_clip(g * o["rescale_grad"], o)
        rho, eps = o["rho"], o["epsilon"]
        st["acc_g"] = st.get("acc_g", torch.zeros_like(p)) * rho + (1.0 - rho) * g * g
        delta = (st.get("acc_delta", torch.zeros_like(p)) + eps).sqrt() \
            / (st["acc_g"] + eps).sqrt() * g
        st["acc_delta"] = st.get("acc_delta", torch.zeros_like(p)) * rho \
            + (1.0 - rho) * delta * delta
        p.sub_(delta + o["wd"] * p)

    update = {"sgd": sgd, "nag": nag, "adam": adam, "rmsprop": rmsprop, "adagrad": adagrad,
              "adadelta": adadelta}[name]

    class GluonOptimizer(torch.optim.Optimizer):
        def gluon_batch(self, batch_size):
            """Trainer.step(batch_size): MXNet's rescale_grad is then its setting / batch_size."""
            for group in self.param_groups:
                group.setdefault("scale", group["rescale_grad"])
                group["rescale_grad"] = group["scale"] / batch_size

        @torch.no_grad()
        def step(self, closure=None):
            """torch's step(closure); step(batch_size), a number, is Gluon's Trainer.step:
            the update with rescale_grad / batch_size, then the gradients cleared."""
            batch = closure is not None and not callable(closure)
            if batch:
                self.gluon_batch(closure)
            self.gluon_num_update += 1      # MXNet counts, then asks the scheduler
            if self.gluon_lr_scheduler is not None:
                lr = self.gluon_lr_scheduler(self.gluon_num_update)
                for group in self.param_groups:
                    group["lr"] = lr
            loss = None
            if callable(closure):
                with torch.enable_grad():
                    loss = closure()
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        state = self.state[p]
                        state["t"] = state.get("t", 0) + 1
                        update(p, p.grad, state, group)
            if batch:
                self.zero_grad(set_to_none=False)
            return loss

    opt = GluonOptimizer(params, settings)
    opt.gluon_lr_scheduler, opt.gluon_num_update = scheduler, 0
    if scheduler is not None:       # Trainer.learning_rate before a step: scheduler(0)
        for group in opt.param_groups:
            group["lr"] = scheduler(0)
    return opt


def gluon_lr_scheduler(kind, *args, **kwargs):
    """mx.lr_scheduler.FactorScheduler / MultiFactorScheduler / PolyScheduler /
    CosineScheduler(...) (``kind`` 'factor', 'multifactor', 'poly', 'cosine'; the rest MXNet's
    arguments, in its order): the learning rate for the number of updates done,
    ``scheduler(num_update)``, with MXNet's warm-up ('linear' from warmup_begin_lr, or
    'constant') and its arithmetic: Factor and MultiFactor multiply ``base_lr`` in place as
    the count passes each step (the optimizer sets base_lr to its learning_rate), Poly and
    Cosine decay from the base_lr they were built with to final_lr at max_update and stay
    there. Pure Python: gluon_optimizer calls it before each update, as MXNet's does."""
    import math

    class Scheduler:
        def __init__(self, base_lr=0.01, warmup_steps=0, warmup_begin_lr=0,
                     warmup_mode="linear"):
            if not isinstance(warmup_steps, int):
                raise TypeError(f"warmup_steps must be an int, not {warmup_steps!r}")
            if warmup_begin_lr > base_lr:
                raise ValueError("Base lr has to be higher than warmup_begin_lr")
            if warmup_steps < 0:
                raise ValueError("Warmup steps has to be positive or 0")
            if warmup_mode not in ("linear", "constant"):
                raise ValueError("Supports only linear and constant modes of warmup")
            self.base_lr, self.warmup_steps, self.warmup_final_lr = base_lr, warmup_steps, base_lr
            self.warmup_begin_lr, self.warmup_mode = warmup_begin_lr, warmup_mode

        def warmup(self, num_update):
            if self.warmup_mode == "constant":
                return self.warmup_begin_lr
            return self.warmup_begin_lr + (self.warmup_final_lr - self.warmup_begin_lr) \
                * float(num_update) / float(self.warmup_steps)

    class Factor(Scheduler):
        def __init__(self, step, factor=1, stop_factor_lr=1e-8, base_lr=0.01, **warmup):
            super().__init__(base_lr, **warmup)
            if step < 1:
                raise ValueError("Schedule step must be greater or equal than 1 round")
            if factor > 1.0:
                raise ValueError("Factor must be no more than 1 to make lr reduce")
            self.step, self.factor, self.stop_factor_lr, self.count = step, factor, \
                stop_factor_lr, 0

        def __call__(self, num_update):
            if num_update < self.warmup_steps:
                return self.warmup(num_update)
            while num_update > self.count + self.step:      # each step passed since
                self.count += self.step
                self.base_lr = max(self.base_lr * self.factor, self.stop_factor_lr)
            return self.base_lr

    class MultiFactor(Scheduler):
        def __init__(self, step, factor=1, base_lr=0.01, **warmup):
            super().__init__(base_lr, **warmup)
            if not isinstance(step, list) or not step:
                raise TypeError(f"step must be a non-empty list, not {step!r}")
            if any(b <= a for a, b in zip(step, step[1:])):
                raise ValueError("Schedule step must be an increasing integer list")
            if step[0] < 1:
                raise ValueError("Schedule step must be greater or equal than 1 round")
            if factor > 1.0:
                raise ValueError("Factor must be no more than 1 to make lr reduce")
            self.step, self.factor, self.passed = step, factor, 0

        def __call__(self, num_update):
            if num_update < self.warmup_steps:
                return self.warmup(num_update)
            while self.passed < len(self.step) and num_update > self.step[self.passed]:
                self.passed += 1
                self.base_lr *= self.factor
            return self.base_lr

    class Decay(Scheduler):
        def __init__(self, max_update, base_lr=0.01, final_lr=0, **warmup):
            super().__init__(base_lr, **warmup)
            if not isinstance(max_update, int):
                raise TypeError(f"max_update must be an int, not {max_update!r}")
            if max_update < 1:
                raise ValueError("maximum number of updates must be strictly positive")
            self.start_lr, self.max_update, self.final_lr = base_lr, max_update, final_lr
            self.max_steps = max_update - self.warmup_steps

        def __call__(self, num_update):
            if num_update < self.warmup_steps:
                return self.warmup(num_update)
            if num_update <= self.max_update:
                done = float(num_update - self.warmup_steps) / float(self.max_steps)
                self.base_lr = self.final_lr + (self.start_lr - self.final_lr) \
                    * self.shape(done)
            return self.base_lr

    class Poly(Decay):
        def __init__(self, max_update, base_lr=0.01, pwr=2, final_lr=0, **warmup):
            super().__init__(max_update, base_lr, final_lr, **warmup)
            self.power = pwr

        def shape(self, done):
            return pow(1 - done, self.power)

    class Cosine(Decay):
        def shape(self, done):
            return (1 + math.cos(math.pi * done)) / 2

    kinds = {"factor": Factor, "multifactor": MultiFactor, "poly": Poly, "cosine": Cosine}
    if kind not in kinds:
        raise ValueError(f"gluon_lr_scheduler: {kind!r} is not one of {sorted(kinds)}")
    return kinds[kind](*args, **kwargs)


def gluon_set_learning_rate(optimizer, lr):
    """Trainer.set_learning_rate(lr): every parameter group's learning rate. With an
    lr_scheduler MXNet refuses (UserWarning, raised): so does this."""
    if getattr(optimizer, "gluon_lr_scheduler", None) is not None:
        raise UserWarning("set_learning_rate: the optimizer has an lr_scheduler, which sets "
                          "the learning rate (MXNet refuses this too)")
    for group in optimizer.param_groups:
        group["lr"] = lr


def gluon_metric_pairs(labels, preds):
    """A Gluon metric's update(labels, preds) arguments as (label, prediction) pairs: two lists
    of the same length, or one tensor each."""
    import torch

    if isinstance(labels, torch.Tensor):
        labels, preds = [labels], [preds]
    if len(labels) != len(preds):
        raise ValueError(f"{len(labels)} labels and {len(preds)} predictions")
    return list(zip(labels, preds))


class GluonAccuracy:
    """mx.metric.Accuracy(axis=1): ``update(labels, preds)`` takes lists (or one tensor each); a
    prediction with another shape than its label is its argmax over ``axis``; ``get()`` gives
    ``(name, correct / seen)``, NaN before any update."""

    def __init__(self, axis=1, name="accuracy"):
        self.axis, self.name = axis, name
        self.reset()

    def reset(self):
        self.sum_metric, self.num_inst = 0, 0

    def update(self, labels, preds):
        import torch

        for label, pred in gluon_metric_pairs(labels, preds):
            if pred.shape != label.shape:
                pred = pred.argmax(dim=self.axis)
            pred = pred.detach().cpu().to(torch.int32).flatten()
            label = label.detach().cpu().to(torch.int32).flatten()
            if pred.numel() != label.numel():
                raise ValueError(f"{label.numel()} labels and {pred.numel()} predictions")
            self.sum_metric += int((pred == label).sum())
            self.num_inst += label.numel()

    def get(self):
        return self.name, (self.sum_metric / self.num_inst if self.num_inst else float("nan"))


class GluonCompositeEvalMetric:
    """mx.metric.CompositeEvalMetric(metrics, name): the draft's metrics updated and reset
    together; ``get()`` gives (names, values), two lists, a child's own lists joined in, as
    Gluon's; ``add``, ``get_metric`` and ``get_name_value`` as Gluon's."""

    def __init__(self, metrics=None, name="composite"):
        self.metrics, self.name = list(metrics or []), name

    def add(self, metric):
        self.metrics.append(metric)

    def get_metric(self, index):
        return self.metrics[index]

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        for metric in self.metrics:
            metric.reset()

    def get(self):
        names, values = [], []
        for metric in self.metrics:
            name, value = metric.get()
            names.extend([name] if isinstance(name, str) else name)
            values.extend(value if isinstance(value, (list, tuple)) else [value])
        return names, values

    def get_name_value(self):
        return list(zip(*self.get()))


class GluonLoss:
    """mx.metric.Loss: ``update(labels, preds)`` ignores the labels and adds each prediction's
    sum (a loss array, or a list of them) and its element count; ``get()`` gives
    ``(name, sum / count)``, NaN before any update."""

    def __init__(self, name="loss"):
        self.name = name
        self.reset()

    def reset(self):
        self.sum_metric, self.num_inst = 0.0, 0

    def update(self, labels, preds):      # the labels are not read
        import torch

        if isinstance(preds, torch.Tensor):
            preds = [preds]
        for pred in preds:
            self.sum_metric += float(pred.detach().sum())
            self.num_inst += pred.numel()

    def get(self):
        return self.name, (self.sum_metric / self.num_inst if self.num_inst else float("nan"))


class GluonTopKAccuracy:
    """mx.metric.TopKAccuracy(top_k): a sample counts when its label is among the ``top_k``
    largest of its prediction row; the name gets ``_<top_k>``; ``get()`` as Accuracy's."""

    def __init__(self, top_k=1, name="top_k_accuracy"):
        if not top_k > 1:
            raise ValueError("Please use Accuracy if top_k is no more than 1")
        self.top_k, self.name = top_k, f"{name}_{top_k}"
        self.reset()

    def reset(self):
        self.sum_metric, self.num_inst = 0, 0

    def update(self, labels, preds):
        import torch

        for label, pred in gluon_metric_pairs(labels, preds):
            pred = pred.detach().cpu().float()
            label = label.detach().cpu().to(torch.int64).flatten()
            if pred.dim() == 1:
                hits = pred.to(torch.int64) == label
            else:
                top = pred.topk(min(self.top_k, pred.shape[1]), dim=1).indices
                hits = (top == label[:, None]).any(dim=1)
            self.sum_metric += int(hits.sum())
            self.num_inst += pred.shape[0]

    def get(self):
        return self.name, (self.sum_metric / self.num_inst if self.num_inst else float("nan"))


def gluon_array(source_array, ctx=None, dtype=None):
    """mx.nd.array(source_array, ctx, dtype): a new tensor (a copy), of the source's dtype when
    it is a tensor (an NDArray in Gluon), else float32 unless ``dtype`` says, on ``ctx``."""
    import numpy
    import torch

    def torch_dtype(d):
        return getattr(torch, numpy.dtype(d).name)

    if isinstance(source_array, torch.Tensor):
        out = source_array.detach().clone()
        if dtype is not None:
            out = out.to(torch_dtype(dtype))
    else:
        out = torch.from_numpy(numpy.array(source_array, dtype=dtype or numpy.float32))
    return out if ctx is None else out.to(ctx)


def gluon_np_array(obj, dtype=None, ctx=None):
    """mx.np.array(obj, dtype, ctx): a new tensor (a copy); a tensor (an mx.np array in MXNet)
    or a numpy array keeps its dtype, anything else (lists, numbers, bools) becomes float32,
    unless ``dtype`` says."""
    import numpy
    import torch

    def torch_dtype(d):
        return d if isinstance(d, torch.dtype) else getattr(torch, numpy.dtype(d).name)

    if isinstance(obj, torch.Tensor):
        out = obj.detach().clone()
    elif isinstance(obj, numpy.ndarray):
        out = torch.from_numpy(obj.copy())
    else:
        out = torch.from_numpy(numpy.array(obj, dtype=numpy.float32))
    if dtype is not None:
        out = out.to(torch_dtype(dtype))
    return out if ctx is None else out.to(ctx)


def _np_dtype(dtype):
    """A torch dtype for mx.np's ``dtype`` argument: None is MXNet's float32; a torch dtype,
    a numpy type or a string."""
    import numpy
    import torch

    if dtype is None:
        return torch.float32
    return dtype if isinstance(dtype, torch.dtype) else getattr(torch, numpy.dtype(dtype).name)


def gluon_np_zeros(shape, dtype=None, order="C", ctx=None):
    """mx.np.zeros(shape, dtype, order, ctx): float32 unless ``dtype`` says (numpy's default
    is float64)."""
    import torch

    if order != "C":
        raise ValueError(f"np.zeros order={order!r}: MXNet takes only 'C'")
    return torch.zeros(shape, dtype=_np_dtype(dtype), device=ctx)


def gluon_np_ones(shape, dtype=None, order="C", ctx=None):
    """mx.np.ones(shape, dtype, order, ctx): as :func:`gluon_np_zeros`, ones."""
    import torch

    if order != "C":
        raise ValueError(f"np.ones order={order!r}: MXNet takes only 'C'")
    return torch.ones(shape, dtype=_np_dtype(dtype), device=ctx)


def gluon_np_arange(start, stop=None, step=1, dtype=None, ctx=None):
    """mx.np.arange(start, stop, step, dtype, ctx): float32 unless ``dtype`` says, whole
    numbers included (numpy's and torch's are int64 there)."""
    import torch

    if stop is None:
        start, stop = 0, start
    return torch.arange(start, stop, step, dtype=_np_dtype(dtype), device=ctx)


class GluonKVStore:
    """mx.kv.create(name) of one process: rank 0 of 1 worker. A distributed type is refused:
    PyTorch's counterpart is torch.distributed with DistributedDataParallel (which averages
    the gradients where MXNet's parameter server sums them)."""

    LOCAL = ("local", "device", "local_update_cpu", "local_allreduce_cpu",
             "local_allreduce_device")

    def __init__(self, name="local"):
        if name not in self.LOCAL:
            raise ValueError(f"kvstore {name!r} is not one of one process {self.LOCAL}: port "
                             "the distributed training with torch.distributed and "
                             "DistributedDataParallel (it averages gradients, MXNet's "
                             "parameter server sums them)")
        self.type, self.rank, self.num_workers = name, 0, 1


class GluonDataDesc(tuple):
    """mx.io.DataDesc(name, shape, dtype, layout): the pair ``(name, shape)``, with ``dtype``
    and ``layout`` beside it."""

    def __new__(cls, name, shape, dtype="float32", layout="NCHW"):
        desc = super().__new__(cls, (name, tuple(shape)))
        desc.dtype, desc.layout = dtype, layout
        return desc

    name = property(lambda self: self[0])
    shape = property(lambda self: self[1])


class GluonDataBatch:
    """mx.io.DataBatch(data, label=None, pad=None, index=None, ...): ``data`` and ``label``
    lists of tensors; ``pad``: how many samples at the end of the batch repeat earlier ones
    to fill it (prediction drops them)."""

    def __init__(self, data, label=None, pad=None, index=None, bucket_key=None,
                 provide_data=None, provide_label=None):
        for what, value in (("data", data), ("label", label)):
            if value is not None and not isinstance(value, (list, tuple)):
                raise TypeError(f"DataBatch: {what} must be a list of arrays")
        self.data, self.label, self.pad, self.index = data, label, pad, index
        self.bucket_key = bucket_key
        self.provide_data, self.provide_label = provide_data, provide_label


class GluonDataIter:
    """mx.io.DataIter, as a base class: ``next()`` builds a batch from ``iter_next()``,
    ``getdata()``, ``getlabel()``, ``getpad()`` and ``getindex()`` (a subclass overrides
    them, or ``next`` itself); iterating calls ``next()`` and does not reset: call
    ``reset()`` before each epoch, as MXNet's loops do."""

    def __init__(self, batch_size=0):
        self.batch_size = batch_size

    def __iter__(self):
        return self

    def reset(self):
        pass

    def next(self):
        if self.iter_next():
            return GluonDataBatch(data=self.getdata(), label=self.getlabel(),
                                  pad=self.getpad(), index=self.getindex())
        raise StopIteration

    def __next__(self):
        return self.next()

    def iter_next(self):
        pass

    def getdata(self):
        pass

    def getlabel(self):
        pass

    def getindex(self):
        return None

    def getpad(self):
        pass


def _mt19937_shuffle(n, seed):
    """The order std::shuffle gives 0..n-1 with std::mt19937(seed), as MXNet's C++
    iterators (built with libstdc++) draw it: Fisher–Yates from the front, each index by
    uniform_int_distribution's downscaling (a raw 32-bit draw, rejected past the last whole
    multiple of the range, divided). numpy's legacy seeding of MT19937 is std::mt19937's."""
    import numpy

    bits = numpy.random.RandomState(seed)._bit_generator   # draws continue across calls
    raw, k = [], 0
    order = list(range(n))
    for i in range(1, n):
        scaling = (2**32 - 1) // (i + 1)
        while True:
            if k == len(raw):
                raw, k = bits.random_raw(4096).tolist(), 0
            r, k = raw[k], k + 1
            if r < (i + 1) * scaling:
                break
        j = r // scaling
        order[i], order[j] = order[j], order[i]
    return order


class GluonMNISTIter(GluonDataIter):
    """mx.io.MNISTIter(image, label, batch_size, shuffle, flat, seed, silent, num_parts,
    part_index, data_name, label_name) as MXNet 1.9.1 runs it: idx files read whole (this part's slice of them),
    pixels / 256 as float32, (N, 1, 28, 28) or flat (N, 784) batches and float32 labels;
    shuffled once, when built, in the order MXNet's std::shuffle gives for ``seed``
    (:func:`_mt19937_shuffle`), the same order every epoch; the last incomplete batch
    dropped."""

    def __init__(self, image="./train-images-idx3-ubyte", label="./train-labels-idx1-ubyte",
                 batch_size=128, shuffle=True, flat=False, seed=0, silent=False, num_parts=1,
                 part_index=0, data_name="data", label_name="softmax_label", input_shape=None,
                 data_shape=None, prefetch_buffer=None):
        # (MXNet takes input_shape, data_shape and prefetch_buffer and does not use them)
        import numpy
        import torch

        super().__init__(batch_size)
        if not 0 <= part_index < num_parts or batch_size < 1:
            raise ValueError(f"MNISTIter: part_index {part_index} of {num_parts} parts, "
                             f"batch_size {batch_size}")
        with open(image, "rb") as f:
            head = numpy.frombuffer(f.read(16), ">i4")
            count, rows, cols = int(head[1]), int(head[2]), int(head[3])
            start = int(count / num_parts * part_index)
            end = int(count / num_parts * (part_index + 1))
            f.seek(16 + start * rows * cols)
            pixels = numpy.frombuffer(f.read((end - start) * rows * cols), numpy.uint8)
        with open(label, "rb") as f:
            count = int(numpy.frombuffer(f.read(8), ">i4")[1])
            first = int(count / num_parts * part_index)
            last = int(count / num_parts * (part_index + 1))
            f.seek(8 + first)
            labels = numpy.frombuffer(f.read(last - first), numpy.uint8)
        images = pixels.reshape(-1, rows, cols).astype(numpy.float32) * numpy.float32(1 / 256)
        if shuffle:
            order = _mt19937_shuffle(len(labels), seed)
            images, labels = images[order], labels[order]
        shape = (-1, rows * cols) if flat else (-1, 1, rows, cols)
        self._data = torch.from_numpy(images.reshape(shape).copy())
        self._label = torch.from_numpy(labels.astype(numpy.float32))
        self.provide_data = [GluonDataDesc(data_name, (batch_size, *self._data.shape[1:]))]
        self.provide_label = [GluonDataDesc(label_name, (batch_size,))]
        self._at = 0

    def reset(self):
        self._at = 0

    def iter_next(self):
        if self._at + self.batch_size > len(self._data):
            return False
        self._at += self.batch_size
        return True

    def getdata(self):
        return [self._data[self._at - self.batch_size:self._at]]

    def getlabel(self):
        return [self._label[self._at - self.batch_size:self._at]]

    def getpad(self):
        return 0


class GluonNDArrayIter(GluonDataIter):
    """mx.io.NDArrayIter as MXNet 1.9.1 runs it. ``data``/``label``: a tensor or numpy array,
    a list of them (named ``_0_data``, ``_1_data``, ...) or a dict, each source sorted by
    name; numpy arrays become float32 tensors. ``shuffle`` draws from numpy's global
    generator (seed it as before) at construction and at each ``reset()``, and, as MXNet's
    does, leaves every source float32. ``last_batch_handle``: 'pad' fills the last batch
    from the start (``batch.pad`` says how many), 'discard' drops it, 'roll_over' carries
    it into the next epoch. Batches are cut along the ``N`` of ``layout``."""

    def __init__(self, data, label=None, batch_size=1, shuffle=False, last_batch_handle="pad",
                 data_name="data", label_name="softmax_label", layout="NCHW"):
        import numpy as np

        super().__init__(batch_size)
        self.data = self._sources(data, False, data_name)
        self.label = self._sources(label, True, label_name)
        self.idx = np.arange(self.data[0][1].shape[0])
        self.shuffle, self.last_batch_handle = shuffle, last_batch_handle
        self.cursor = -batch_size
        self.num_data = self.idx.shape[0]
        self.layout = layout
        self._cache_data = self._cache_label = None
        self.reset()

    @staticmethod
    def _sources(data, allow_empty, default_name):
        import numpy as np
        import torch

        if data is None and not allow_empty:
            raise ValueError("NDArrayIter needs data")
        data = [] if data is None else data
        if isinstance(data, (np.ndarray, torch.Tensor)):
            data = [data]
        if isinstance(data, list):
            if not data and not allow_empty:
                raise ValueError("NDArrayIter needs data")
            data = {default_name: data[0]} if len(data) == 1 else \
                {f"_{i}_{default_name}": d for i, d in enumerate(data)}
        if not isinstance(data, dict):
            raise TypeError("NDArrayIter: data and label must be arrays, a list of them or "
                            "a dict with them as values")
        return sorted((k, v if isinstance(v, torch.Tensor) else
                       torch.as_tensor(np.asarray(v, dtype=np.float32)))
                      for k, v in data.items())

    def _axis(self):
        return self.layout.find("N")

    def _describe(self, sources):
        n = self._axis()
        return [GluonDataDesc(k, (*v.shape[:n], self.batch_size, *v.shape[n + 1:]), v.dtype,
                              self.layout) for k, v in sources]

    @property
    def provide_data(self):
        return self._describe(self.data)

    @property
    def provide_label(self):
        return self._describe(self.label)

    def hard_reset(self):
        if self.shuffle:
            self._shuffle_data()
        self.cursor = -self.batch_size
        self._cache_data = self._cache_label = None

    def reset(self):
        if self.shuffle:
            self._shuffle_data()
        if self.last_batch_handle == "roll_over" and \
                self.num_data - self.batch_size < self.cursor < self.num_data:
            self.cursor = self.cursor - self.num_data - self.batch_size
        else:
            self.cursor = -self.batch_size

    def iter_next(self):
        self.cursor += self.batch_size
        return self.cursor < self.num_data

    def next(self):
        if not self.iter_next():
            raise StopIteration
        data, label = self.getdata(), self.getlabel()
        if data[0].shape[self._axis()] != self.batch_size:   # an incomplete last batch
            self._cache_data, self._cache_label = data, label
            raise StopIteration
        return GluonDataBatch(data=data, label=label, pad=self.getpad(), index=None)

    def _getdata(self, sources, start=None, end=None):
        start = 0 if start is None else start
        end = (sources[0][1].shape[0] if sources else 0) if end is None else end
        return [v.narrow(self._axis(), start, max(0, min(end, v.shape[self._axis()]) - start))
                for _, v in sources]

    def _concat(self, first, second):
        import torch

        if not first or not second:
            return first if first else second
        return [torch.cat([a, b], dim=self._axis()) for a, b in zip(first, second)]

    @staticmethod
    def _tile(data, repeats):
        return [d.repeat(repeats, *[1] * (d.dim() - 1)) for d in data]

    def _batchify(self, sources):
        if not self.cursor < self.num_data:
            raise RuntimeError("DataIter needs reset.")
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            cache = self._cache_data if self._cache_data is not None else self._cache_label
            second = self._getdata(sources, end=self.cursor + self.batch_size)
            if self._cache_data is not None:
                self._cache_data = None
            else:
                self._cache_label = None
            return self._concat(cache, second)
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            pad = self.batch_size - self.num_data + self.cursor
            first = self._getdata(sources, start=self.cursor)
            if pad > self.num_data:
                second = self._tile(self._getdata(sources, end=self.num_data),
                                    pad // self.num_data)
                if pad % self.num_data:
                    second = self._concat(second,
                                          self._getdata(sources, end=pad % self.num_data))
            else:
                second = self._getdata(sources, end=pad)
            return self._concat(first, second)
        end = min(self.cursor + self.batch_size, self.num_data)
        return self._getdata(sources, self.cursor, end)

    def getdata(self):
        return self._batchify(self.data)

    def getlabel(self):
        return self._batchify(self.label)

    def getpad(self):
        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:
            return self.cursor + self.batch_size - self.num_data
        if self.last_batch_handle == "roll_over" and -self.batch_size < self.cursor < 0:
            return -self.cursor
        return 0

    def _shuffle_data(self):
        import numpy as np
        import torch

        np.random.shuffle(self.idx)
        pick = torch.from_numpy(self.idx.copy())
        self.data, self.label = (
            [(k, v[pick.to(v.device)].to(torch.float32)) for k, v in sources]
            for sources in (self.data, self.label))


def gluon_clip(x, a_min, a_max):
    """nd.clip(x, a_min, a_max) with bounds known when the draft runs: a_max above a_max,
    else a_min below a_min, as MXNet's kernel tests them (where a_min > a_max this gives
    a_min below a_min and a_max elsewhere; torch.clamp gives a_max everywhere)."""
    import torch

    return torch.where(x > a_max, torch.as_tensor(a_max, dtype=x.dtype, device=x.device),
                       x.clamp(min=a_min))


def gluon_sample_multinomial(data, shape=None, get_prob=False, dtype="int32"):
    """nd.sample_multinomial / nd.random.multinomial(data, shape, get_prob, dtype): for each
    row of class probabilities in ``data`` (the last axis), draws of a class index, int32 by
    default; ``shape`` draws per row (none: one, and a 1-D ``data`` gives shape (1,), as
    MXNet); with ``get_prob`` also the log-probabilities of the draws. torch's generator:
    the same distribution, other numbers."""
    import math

    import torch

    draws = tuple(shape) if isinstance(shape, (tuple, list)) else \
        (() if shape is None else (int(shape),))
    rows = data.reshape(-1, data.shape[-1])
    picked = torch.multinomial(rows, max(math.prod(draws), 1), replacement=True)
    out_shape = tuple(data.shape[:-1]) + draws or (1,)
    picked = picked.reshape(out_shape)
    out = picked.to(getattr(torch, dtype) if isinstance(dtype, str) else dtype)
    if not get_prob:
        return out
    logp = torch.log(torch.gather(rows, 1, picked.reshape(rows.shape[0], -1))).reshape(out_shape)
    return out, logp


def gluon_reverse_axes(x):
    """NDArray.T and transpose() without axes: every axis reversed, any rank."""
    return x.permute(*range(x.ndim - 1, -1, -1))


def gluon_reshape(data, shape, reverse=False):
    """NDArray.reshape / nd.reshape with MXNet's codes: 0 copies the input's dimension at that
    place, -1 infers one, -2 copies the rest, -3 merges two, -4 splits one into the two values
    after it (one of them may be -1); ``reverse`` reads both shapes from the right. As MXNet
    1.9.1's shape inference does it, step by step."""
    import math

    import torch

    dims = list(data.shape)
    codes = [int(d) for d in shape] if isinstance(shape, (tuple, list, torch.Size)) \
        else [int(shape)]
    if reverse:
        dims.reverse()
        codes.reverse()
    out, src, infer, i = [], 0, -1, 0
    while i < len(codes):
        d = codes[i]
        if d == 0:
            out.append(dims[src])
            src += 1
        elif d == -1:
            if infer >= 0:
                raise ValueError("reshape: one and only one dim can be inferred")
            infer = i        # MXNet keeps the code's place, not the output's
            out.append(1)
            src += 1
        elif d == -2:
            out.extend(dims[src:])
            src = len(dims)
        elif d == -3:
            out.append(dims[src] * dims[src + 1])
            src += 2
        elif d == -4:
            d0, d1, d2 = dims[src], codes[i + 1], codes[i + 2]
            src, i = src + 1, i + 2
            if d1 == -1 and d2 == -1:
                raise ValueError("reshape: split dims cannot both be -1")
            d1 = d0 // d2 if d1 == -1 else d1
            d2 = d0 // d1 if d2 == -1 else d2
            if d1 * d2 != d0:
                raise ValueError(f"reshape: split dims {d1}, {d2} do not divide {d0}")
            out += [d1, d2]
        else:
            out.append(d)
            src += 1
        i += 1
    if infer >= 0:
        out[infer] = data.numel() // math.prod(out)
    if reverse:
        out.reverse()
    return data.reshape(out)


def gluon_split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """gluon.utils.split_and_load: ``data`` cut along ``batch_axis`` into one slice per device
    of ``ctx_list`` (the first ``size % n`` slices one longer), each moved to its device; a
    list, also for one device. With ``even_split`` a size that ``n`` does not divide is a
    ValueError, as in Gluon."""
    import torch

    data = torch.as_tensor(data)
    n = len(ctx_list)
    if n == 1:
        return [data.to(ctx_list[0])]
    if even_split and data.shape[batch_axis] % n:
        raise ValueError(f"data with shape {tuple(data.shape)} cannot be evenly split into {n} "
                         f"slices along axis {batch_axis}")
    return [part.to(device) for part, device in
            zip(torch.tensor_split(data, n, dim=batch_axis), ctx_list)]


def gluon_backward(heads, head_grads=None):
    """mx.autograd.backward(heads, head_grads): the gradients of one array or a list of them,
    each with a head gradient of ones (an array's sum) where none is given."""
    import torch

    if isinstance(heads, torch.Tensor):
        heads = [heads]
        head_grads = None if head_grads is None else [head_grads]
    heads = list(heads)
    if head_grads is None:
        head_grads = [torch.ones_like(h) for h in heads]
    torch.autograd.backward(heads, list(head_grads))


def gluon_copyto(x, other):
    """NDArray.copyto(other): into the array ``other`` (cast to its dtype; ``other``
    returned), or to the device ``other`` (a new copy)."""
    import torch

    if isinstance(other, torch.Tensor):
        if other.shape != x.shape:
            raise ValueError(f"copyto: shape {tuple(x.shape)} into {tuple(other.shape)}")
        return other.copy_(x.detach())
    return x.detach().to(other, copy=True)


def gluon_l2_normalization(data, eps=1e-10, mode="instance"):
    """nd.L2Normalization(data, eps, mode): data / sqrt(sum of squares + eps), the sum over
    every axis but the first ('instance'), over axis 1 ('channel') or over the axes after
    the first two ('spatial')."""
    axes = {"instance": tuple(range(1, data.dim())), "channel": (1,),
            "spatial": tuple(range(2, data.dim()))}.get(mode)
    if not axes:
        raise ValueError(f"L2Normalization mode={mode!r} on a {data.dim()}-D array")
    return data / (data.square().sum(dim=axes, keepdim=True) + eps).sqrt()


def _spatial(value, n, default):
    """An MXNet per-axis setting (``()`` or absent: ``default`` on every axis) as n ints."""
    value = tuple(value) if isinstance(value, (tuple, list)) else () if value is None \
        else (value,)
    return value if value else (default,) * n


def gluon_pooling(data, kernel=(), pool_type="max", global_pool=False, cudnn_off=False,
                  pooling_convention="valid", stride=(), pad=(), p_value=None,
                  count_include_pad=True, layout=None, name=None):
    """nd.Pooling of a (N, C, *spatial) array, 1 to 3 spatial axes: 'max' or 'avg' over
    ``kernel`` windows (stride and pad 1 and 0 per axis when absent); 'valid' drops a partial
    window, 'full' keeps it (max only: torch's ceil_mode); global_pool over every spatial axis
    (kernel then ignored); avg counts the padding unless count_include_pad=False (p_value
    is for MXNet's 'lp' pooling only)."""
    import torch.nn.functional as F

    n = data.dim() - 2
    if pool_type not in ("max", "avg") or layout not in (None, "NCW", "NCHW", "NCDHW") \
            or pooling_convention not in ("valid", "full") or not 1 <= n <= 3 \
            or (pooling_convention == "full" and pool_type == "avg" and not global_pool):
        raise ValueError(f"Pooling {pool_type!r}, {pooling_convention!r}, layout {layout!r} "
                         f"on {n} spatial axes: port it by hand")
    axes = tuple(range(2, data.dim()))
    if global_pool:
        return data.amax(dim=axes, keepdim=True) if pool_type == "max" \
            else data.mean(dim=axes, keepdim=True)
    kernel, stride, pad = tuple(kernel), _spatial(stride, n, 1), _spatial(pad, n, 0)
    if pool_type == "max":
        pool = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[n - 1]
        out = pool(data, kernel, stride, pad, ceil_mode=pooling_convention == "full")
        if pooling_convention == "full":   # torch drops a last window that starts in the
            want = tuple(-(-(size + 2 * p - k) // s) + 1     # padding; MXNet keeps it
                         for size, k, s, p in zip(data.shape[2:], kernel, stride, pad))
            if tuple(out.shape[2:]) != want:
                raise ValueError(f"Pooling 'full' gives {want} here, torch's ceil_mode "
                                 f"{tuple(out.shape[2:])}: port this window by hand")
        return out
    pool = (F.avg_pool1d, F.avg_pool2d, F.avg_pool3d)[n - 1]
    return pool(data, kernel, stride, pad, count_include_pad=bool(count_include_pad))


def gluon_convolution(data, weight, bias=None, kernel=(), stride=(), dilate=(), pad=(),
                      num_filter=None, num_group=1, workspace=None, no_bias=False,
                      cudnn_tune=None, cudnn_off=False, layout=None, name=None):
    """nd.Convolution of a (N, C, *spatial) array with ``weight`` (num_filter, C / num_group,
    *kernel), 1 to 3 spatial axes: stride, dilate and pad per axis (1, 1, 0 when absent), the
    bias added unless no_bias."""
    import torch.nn.functional as F

    n = data.dim() - 2
    if layout not in (None, "NCW", "NCHW", "NCDHW") or not 1 <= n <= 3 \
            or (kernel and tuple(kernel) != tuple(weight.shape[2:])):
        raise ValueError(f"Convolution: layout {layout!r}, kernel {kernel} for a weight of "
                         f"shape {tuple(weight.shape)}")
    conv = (F.conv1d, F.conv2d, F.conv3d)[n - 1]
    return conv(data, weight, None if no_bias else bias, _spatial(stride, n, 1),
                _spatial(pad, n, 0), _spatial(dilate, n, 1), num_group)


def gluon_upsampling(*data, scale, sample_type="nearest", num_args=1, name=None):
    """nd.UpSampling(x, scale=s, sample_type='nearest'): each pixel repeated s times along
    both spatial axes of an (N, C, H, W) array."""
    import torch.nn.functional as F

    if sample_type != "nearest" or len(data) != 1 or int(scale) != scale:
        raise ValueError(f"UpSampling {sample_type!r} of {len(data)} inputs, scale {scale}: "
                         "port it by hand")
    return F.interpolate(data[0], scale_factor=int(scale), mode="nearest")


def gluon_pad(data, mode, pad_width, constant_value=0.0, name=None):
    """nd.pad(data, mode, pad_width, constant_value) of a 4-D or 5-D array: ``pad_width``
    gives (before, after) per axis, from the first, the first two axes' zero; 'constant',
    'edge' (torch's 'replicate') or 'reflect'."""
    import torch.nn.functional as F

    widths = [int(w) for w in pad_width]
    if data.dim() not in (4, 5) or len(widths) != 2 * data.dim() or any(widths[:4]) \
            or mode not in ("constant", "edge", "reflect"):
        raise ValueError(f"pad {mode!r}, pad_width {tuple(pad_width)} of a {data.dim()}-D "
                         "array: MXNet takes 4-D or 5-D arrays padded on their spatial axes")
    pads = []
    for axis in reversed(range(2, data.dim())):
        pads += widths[2 * axis:2 * axis + 2]
    if mode == "constant":
        return F.pad(data, pads, "constant", constant_value)
    return F.pad(data, pads, "replicate" if mode == "edge" else "reflect")


def gluon_waitall():
    """mx.nd.waitall(): wait for every queued operation. PyTorch's CPU operations are done when
    they return; a CUDA device's queue is waited for."""
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


class GluonEvalMetric:
    """mx.metric.EvalMetric as a base class: the subclass's update(labels, preds) adds to
    sum_metric and num_inst; get() is (name, sum_metric / num_inst), NaN before any
    instance; reset, reset_local, get_name_value, the global statistics and update_dict as
    MXNet's base has them."""

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name, self.output_names, self.label_names = str(name), output_names, label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return f"EvalMetric: {dict(self.get_name_value())}"

    def update(self, labels, preds):
        raise NotImplementedError()

    def update_dict(self, label, pred):
        preds = [pred[k] for k in self.output_names] if self.output_names is not None \
            else list(pred.values())
        labels = [label[k] for k in self.label_names] if self.label_names is not None \
            else list(label.values())
        self.update(labels, preds)

    def reset(self):
        self.reset_local()
        self.global_num_inst, self.global_sum_metric = 0, 0.0

    def reset_local(self):
        self.num_inst, self.sum_metric = 0, 0.0

    def get(self):
        return (self.name, self.sum_metric / self.num_inst if self.num_inst else float("nan"))

    def get_global(self):
        if not self._has_global_stats:
            return self.get()
        return (self.name, self.global_sum_metric / self.global_num_inst
                if self.global_num_inst else float("nan"))

    @staticmethod
    def _pairs(name, value):
        return list(zip(name if isinstance(name, list) else [name],
                        value if isinstance(value, list) else [value]))

    def get_name_value(self):
        return self._pairs(*self.get())

    def get_global_name_value(self):
        return self._pairs(*self.get_global())


class GluonCustomMetric:
    """mx.metric.CustomMetric(feval, name=None, allow_extra_outputs=False) and
    mx.metric.np(feval, name): ``update(labels, preds)`` calls ``feval(label, pred)`` on
    numpy arrays, pair by pair; a number adds one instance, a (sum, count) tuple adds both;
    ``get()`` gives ``(name, sum / count)`` (NaN before any update); the name is feval's
    (``custom(<lambda>)`` for a lambda)."""

    def __init__(self, feval, name=None, allow_extra_outputs=False):
        if name is None:
            name = feval.__name__
            name = f"custom({name})" if "<" in name else name
        self.feval, self.name, self.allow_extra = feval, name, allow_extra_outputs
        self.reset()

    def reset(self):
        self.sum_metric, self.num_inst = 0.0, 0

    def update(self, labels, preds):
        import torch

        if isinstance(labels, torch.Tensor):
            labels = [labels]
        if isinstance(preds, torch.Tensor):
            preds = [preds]
        if not self.allow_extra and len(labels) != len(preds):
            raise ValueError(f"{len(labels)} labels and {len(preds)} predictions")
        for pred, label in zip(preds, labels):
            value = self.feval(label.detach().cpu().numpy(), pred.detach().cpu().numpy())
            if isinstance(value, tuple):
                self.sum_metric += value[0]
                self.num_inst += value[1]
            else:
                self.sum_metric += value
                self.num_inst += 1

    def get(self):
        return self.name, (self.sum_metric / self.num_inst if self.num_inst else float("nan"))


class GluonRegressionMetric:
    """mx.metric.MSE / MAE / RMSE (``kind`` "mse", "mae", "rmse"): each ``update(labels,
    preds)`` pair (1-D arrays as columns) adds its batch's mean squared error (absolute error;
    the root of the mean squared) as one instance: ``get()`` is the mean over batches, not over
    samples, as Gluon's."""

    def __init__(self, kind, name=None):
        if kind not in ("mse", "mae", "rmse"):
            raise ValueError(f"kind must be mse, mae or rmse, not {kind!r}")
        self.kind, self.name = kind, name or kind
        self.reset()

    def reset(self):
        self.sum_metric, self.num_inst = 0.0, 0

    def update(self, labels, preds):
        for label, pred in gluon_metric_pairs(labels, preds):
            label = label.detach().cpu().double()
            pred = pred.detach().cpu().double()
            label = label.reshape(-1, 1) if label.dim() == 1 else label
            pred = pred.reshape(-1, 1) if pred.dim() == 1 else pred
            diff = label - pred
            value = diff.abs().mean() if self.kind == "mae" else diff.square().mean()
            self.sum_metric += float(value.sqrt() if self.kind == "rmse" else value)
            self.num_inst += 1

    def get(self):
        return self.name, (self.sum_metric / self.num_inst if self.num_inst else float("nan"))


def gluon_loss_mean(loss, weight, sample_weight, batch_axis, total=False):
    """A Gluon loss's last steps: times ``sample_weight`` (broadcast) and ``weight`` (a
    number, or None), then the mean (``total``: the sum) over every axis but ``batch_axis``:
    one value per sample."""
    if sample_weight is not None:
        loss = loss * sample_weight
    if weight is not None:
        loss = loss * weight
    axes = tuple(d for d in range(loss.dim()) if d != batch_axis % max(loss.dim(), 1))
    if not axes:
        return loss
    return loss.sum(dim=axes) if total else loss.mean(dim=axes)


def gluon_huber_loss(rho=1, weight=None, batch_axis=0):
    """gluon.loss.HuberLoss(rho, weight, batch_axis): ``loss(pred, label, sample_weight=None)``
    is |d| − rho/2 where |d| > rho, d²/(2·rho) elsewhere (d = label − pred, the label
    reshaped to the prediction's shape), averaged per sample (torch's HuberLoss scales the
    squared part by 1/2, not 1/(2·rho), and averages over everything)."""
    import torch

    def loss(pred, label, sample_weight=None):
        d = (label.reshape(pred.shape) - pred).abs()
        value = torch.where(d > rho, d - 0.5 * rho, (0.5 / rho) * d.square())
        return gluon_loss_mean(value, weight, sample_weight, batch_axis)
    return loss


def gluon_ctc_loss(layout="NTC", label_layout="NT", weight=None):
    """gluon.loss.CTCLoss(layout, label_layout, weight): ``loss(pred, label, pred_lengths=None,
    label_lengths=None, sample_weight=None)`` is each sample's negative log-likelihood of its
    label sequence, softmax taken over pred's unnormalised scores, the blank the last class
    (torch's ctc_loss defaults to 0); without label_lengths a label ends at its first -1."""
    import torch

    if layout not in ("NTC", "TNC") or label_layout not in ("NT", "TN"):
        raise ValueError(f"CTCLoss: layout {layout!r}, label_layout {label_layout!r}")

    def loss(pred, label, pred_lengths=None, label_lengths=None, sample_weight=None):
        scores = pred.transpose(0, 1) if layout == "NTC" else pred      # (T, N, C)
        labels = (label.transpose(0, 1) if label_layout == "TN" else label).long()
        steps, n, classes = scores.shape
        if label_lengths is None:
            ended = labels < 0
            label_lengths = torch.where(ended.any(1), ended.int().argmax(1),
                                        torch.full((n,), labels.shape[1]))
        if pred_lengths is None:
            pred_lengths = torch.full((n,), steps)
        value = torch.nn.functional.ctc_loss(
            scores.log_softmax(-1), labels.clamp(min=0), pred_lengths.long(),
            label_lengths.long(), blank=classes - 1, reduction="none")
        if sample_weight is not None:
            value = value * sample_weight.reshape(value.shape)
        return value if weight is None else value * weight
    return loss


def gluon_hinge_loss(margin=1, weight=None, batch_axis=0):
    """gluon.loss.HingeLoss(margin, weight, batch_axis): ``loss(pred, label,
    sample_weight=None)`` is max(0, margin − pred · label) (labels ±1), averaged per sample."""
    def loss(pred, label, sample_weight=None):
        value = (margin - pred * label.reshape(pred.shape)).relu()
        return gluon_loss_mean(value, weight, sample_weight, batch_axis)
    return loss


def gluon_kldiv_loss(from_logits=True, axis=-1, weight=None, batch_axis=0):
    """gluon.loss.KLDivLoss(from_logits, axis, weight, batch_axis): ``loss(pred, label,
    sample_weight=None)`` is label · (log(label + 1e-12) − pred), pred log-probabilities
    (log_softmax taken along ``axis`` when not from_logits), summed per sample (torch's
    KLDivLoss has no 1e-12 and another reduction)."""
    import torch

    def loss(pred, label, sample_weight=None):
        if not from_logits:
            pred = torch.log_softmax(pred, dim=axis)
        value = label * (torch.log(label + 1e-12) - pred)
        return gluon_loss_mean(value, weight, sample_weight, batch_axis, total=True)
    return loss


def gluon_l2_loss(weight=1.0, batch_axis=0):
    """gluon.loss.L2Loss(weight, batch_axis): ``loss(pred, label, sample_weight=None)`` is
    weight/2 · (label − pred)², the label reshaped to the prediction's shape, averaged per
    sample (torch.nn.MSELoss averages over everything, without the 1/2)."""
    def loss(pred, label, sample_weight=None):
        return gluon_loss_mean((label.reshape(pred.shape) - pred).square(), weight / 2,
                               sample_weight, batch_axis)
    return loss


def gluon_l1_loss(weight=None, batch_axis=0):
    """gluon.loss.L1Loss(weight, batch_axis): ``loss(pred, label, sample_weight=None)`` is
    weight · |label − pred| (no weight: 1), averaged per sample."""
    def loss(pred, label, sample_weight=None):
        return gluon_loss_mean((label.reshape(pred.shape) - pred).abs(), weight,
                               sample_weight, batch_axis)
    return loss


def gluon_softmax_ce_loss(axis=-1, sparse_label=True, from_logits=False, weight=None,
                          batch_axis=0):
    """gluon.loss.SoftmaxCrossEntropyLoss(axis, sparse_label, from_logits, weight,
    batch_axis): ``loss(pred, label, sample_weight=None)`` is −log_softmax(pred) at the label
    along ``axis`` (the label a class index, float or int, as Gluon takes it, clipped into
    range as Gluon's pick clips it), or −Σ label · log_softmax(pred) for dense labels;
    ``from_logits``: pred already holds log-probabilities; averaged per sample."""
    def loss(pred, label, sample_weight=None):
        import torch

        logp = pred if from_logits else torch.log_softmax(pred, dim=axis)
        if sparse_label:
            if label.dim() == logp.dim():
                label = label.squeeze(axis)
            index = label.to(torch.int64).clamp(0, logp.shape[axis] - 1).unsqueeze(axis)
            out = -logp.gather(axis, index)
        else:
            out = -(logp * label.reshape(logp.shape)).sum(dim=axis, keepdim=True)
        return gluon_loss_mean(out, weight, sample_weight, batch_axis)
    return loss


def gluon_sigmoid_bce_loss(from_sigmoid=False, weight=None, batch_axis=0):
    """gluon.loss.SigmoidBinaryCrossEntropyLoss(from_sigmoid, weight, batch_axis):
    ``loss(pred, label, sample_weight=None, pos_weight=None)``, per sample: from logits the
    stable max(x, 0) − x·z + log(1 + e^−|x|) (with pos_weight, positives weighted as
    torch's BCEWithLogitsLoss weighs them); from probabilities −(z·log(p + 1e-12) +
    (1 − z)·log(1 − p + 1e-12)), as Gluon computes them; the label reshaped to pred."""
    def loss(pred, label, sample_weight=None, pos_weight=None):
        import torch

        label = label.reshape(pred.shape)
        if not from_sigmoid:
            soft = torch.nn.functional.softplus(-pred.abs())
            if pos_weight is None:
                out = torch.relu(pred) - pred * label + soft
            else:
                out = pred - pred * label + (1 + (pos_weight - 1) * label) * (
                    soft + torch.relu(-pred))
        else:
            eps = 1e-12
            positive = torch.log(pred + eps) * label
            if pos_weight is not None:
                positive = positive * pos_weight
            out = -(positive + torch.log(1.0 - pred + eps) * (1.0 - label))
        return gluon_loss_mean(out, weight, sample_weight, batch_axis)
    return loss


class GluonToTensor:
    """gluon.data.vision.transforms.ToTensor(): an image (H, W, C) or a batch (N, H, W, C) with
    values in [0, 255] to float32 (C, H, W) or (N, C, H, W) in [0, 1]."""

    def __call__(self, image):
        import torch

        image = torch.as_tensor(image)
        if image.dim() not in (3, 4):
            raise ValueError(f"ToTensor takes (H, W, C) or (N, H, W, C), not {tuple(image.shape)}")
        return image.movedim(-1, -3).to(torch.float32) / 255


def gluon_imresize(src, w, h, interp=1):
    """mx.image.imresize(src, w, h, interp) of an (H, W, C) image, or an (N, H, W, C) batch:
    OpenCV's nearest (0) or bilinear (1, the default), as torchvision computes them (nearest:
    the same pixels; bilinear on uint8: within 1 of 255, where OpenCV rounds its fixed-point
    weights). Another method raises: port that resize with OpenCV's cv2.resize."""
    import torchvision.transforms.v2.functional as F

    if interp not in (0, 1):
        raise ValueError(f"imresize interp={interp}: the draft carries 0 (nearest) and 1 "
                         "(bilinear); port this one with cv2.resize")
    mode = F.InterpolationMode.NEAREST if interp == 0 else F.InterpolationMode.BILINEAR
    out = F.resize(src.movedim(-1, -3), [int(h), int(w)], interpolation=mode, antialias=False)
    return out.movedim(-3, -1)


def gluon_center_crop(src, size, interp=2):
    """mx.image.center_crop(src, size, interp): the centre (W, H) = ``size`` of an (H, W, C)
    image, its corner rounded down as MXNet's; an image smaller than ``size`` gives the
    largest centred crop of that aspect, resized to ``size`` (:func:`gluon_imresize`).
    Returns (image, (x0, y0, w, h))."""
    h, w, _ = src.shape
    new_w, new_h = size
    if h < new_h:
        new_w, new_h = float(new_w * h) / new_h, h
    if w < new_w:
        new_w, new_h = w, float(new_h * w) / new_w
    new_w, new_h = int(new_w), int(new_h)
    x0, y0 = int((w - new_w) / 2), int((h - new_h) / 2)
    out = src[y0:y0 + new_h, x0:x0 + new_w]
    if (new_w, new_h) != tuple(size):
        out = gluon_imresize(out, size[0], size[1], interp)
    return out, (x0, y0, new_w, new_h)


def gluon_fixed_crop(src, x0, y0, w, h, size=None, interp=2):
    """mx.image.fixed_crop(src, x0, y0, w, h, size, interp): the (w, h) crop of an (H, W, C)
    image at (x0, y0), resized to ``size`` (W, H) when given and different
    (:func:`gluon_imresize`)."""
    out = src[y0:y0 + h, x0:x0 + w]
    if size is not None and (w, h) != tuple(size):
        out = gluon_imresize(out, size[0], size[1], interp)
    return out


def gluon_random_crop(src, size, interp=2):
    """mx.image.random_crop(src, size, interp): a (W, H) = ``size`` crop of an (H, W, C) image
    at a corner drawn by Python's ``random.randint``, x then y, as MXNet draws it (the same
    crops after the same ``random.seed``); an image smaller than ``size`` gives the largest
    crop of that aspect, resized to ``size``. Returns (image, (x0, y0, w, h))."""
    import random

    h, w, _ = src.shape
    new_w, new_h = size
    if h < new_h:
        new_w, new_h = float(new_w * h) / new_h, h
    if w < new_w:
        new_w, new_h = w, float(new_h * w) / new_w
    new_w, new_h = int(new_w), int(new_h)
    x0 = random.randint(0, w - new_w)
    y0 = random.randint(0, h - new_h)
    return gluon_fixed_crop(src, x0, y0, new_w, new_h, size, interp), (x0, y0, new_w, new_h)


def gluon_random_size_crop(src, size, area, ratio, interp=2):
    """mx.image.random_size_crop(src, size, area, ratio, interp): up to ten draws (Python's
    ``random``, in MXNet's order) of an area (a fraction of the image's, ``area`` a pair or
    the least fraction) and a log-uniform aspect ``ratio`` (min, max); the first crop that
    fits the (H, W, C) image is taken at a corner drawn the same way and resized to ``size``
    (W, H); none fits: the centre crop (:func:`gluon_center_crop`). The same crops as MXNet's
    after the same ``random.seed``. Returns (image, (x0, y0, w, h))."""
    import random

    import numpy     # MXNet's log, exp and sqrt: the same rounding, the same crops

    h, w, _ = src.shape
    if isinstance(area, (int, float)):
        area = (area, 1.0)
    for _ in range(10):
        target = random.uniform(area[0], area[1]) * (h * w)
        aspect = numpy.exp(random.uniform(numpy.log(ratio[0]), numpy.log(ratio[1])))
        new_w = int(round(numpy.sqrt(target * aspect)))
        new_h = int(round(numpy.sqrt(target / aspect)))
        if new_w <= w and new_h <= h:
            x0 = random.randint(0, w - new_w)
            y0 = random.randint(0, h - new_h)
            return gluon_fixed_crop(src, x0, y0, new_w, new_h, size, interp), \
                (x0, y0, new_w, new_h)
    return gluon_center_crop(src, size, interp)


class GluonRandomResizedCrop:
    """gluon.data.vision.transforms.RandomResizedCrop(size, scale, ratio, interpolation): an
    (H, W, C) image's random crop (:func:`gluon_random_size_crop`: ``scale`` the range of its
    area, ``ratio`` of its aspect) resized to ``size`` (an int: a square; or (W, H))."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=1):
        self.size = (size, size) if isinstance(size, (int, float)) else tuple(size)
        self.scale, self.ratio, self.interpolation = scale, ratio, interpolation

    def __call__(self, x):
        return gluon_random_size_crop(x, self.size, self.scale, self.ratio,
                                      self.interpolation)[0]


def gluon_resize_short(src, size, interp=2):
    """mx.image.resize_short(src, size, interp): the shorter side of an (H, W, C) image to
    ``size``, the other by MXNet's integer arithmetic (:func:`gluon_imresize`)."""
    h, w, _ = src.shape
    new_h, new_w = (size * h // w, size) if h > w else (size, size * w // h)
    return gluon_imresize(src, new_w, new_h, interp)


class GluonResize:
    """gluon.data.vision.transforms.Resize(size, keep_ratio=False, interpolation=1) of (H, W, C)
    images or (N, H, W, C) batches: ``size`` (W, H), or an int: a square, or with
    ``keep_ratio`` the shorter side, the other by MXNet's integer arithmetic."""

    def __init__(self, size, keep_ratio=False, interpolation=1):
        self.size, self.keep_ratio, self.interpolation = size, keep_ratio, interpolation

    def __call__(self, x):
        h, w = x.shape[-3], x.shape[-2]
        size = self.size
        if isinstance(size, (tuple, list)) and len(size) == 2:
            new_w, new_h = size
        else:
            size = size[0] if isinstance(size, (tuple, list)) else size
            if not self.keep_ratio:
                new_w = new_h = size
            elif h > w:
                new_w, new_h = size, h * size // w
            else:
                new_w, new_h = w * size // h, size
        return gluon_imresize(x, new_w, new_h, self.interpolation)


class GluonCenterCrop:
    """gluon.data.vision.transforms.CenterCrop(size, interpolation=1): ``size`` an int (a
    square) or (W, H), of (H, W, C) images (:func:`gluon_center_crop`)."""

    def __init__(self, size, interpolation=1):
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        self.interpolation = interpolation

    def __call__(self, x):
        return gluon_center_crop(x, self.size, self.interpolation)[0]


class GluonRandomFlip:
    """gluon.data.vision.transforms.RandomFlipLeftRight (``axis=1``, the width of an (H, W, C)
    image) and RandomFlipTopBottom (``axis=0``): flipped at each call with probability 1/2,
    drawn from torch's generator (MXNet's own cannot be replayed). torchvision's flips
    take (C, H, W): on Gluon's layout they would flip the wrong axis."""

    def __init__(self, axis):
        self.axis = axis

    def __call__(self, x):
        import torch

        if x.dim() != 3:
            raise ValueError(f"the image must be (height, width, channels), not "
                             f"{tuple(x.shape)}")
        return x.flip(self.axis) if torch.rand(()) < 0.5 else x


def gluon_image_color(src, kind, factor):
    """MXNet 1.9.1's colour kernels (nd.image.random_brightness / contrast / saturation / hue
    with a factor drawn, adjust_lighting) on an (H, W, C) image, in float32 as MXNet computes
    them whatever the image's dtype, the result cast back as MXNet's saturate_cast does
    (uint8: clamped to [0, 255], then truncated). ``kind`` 'brightness' (x * factor),
    'contrast' (x * factor + (1 - factor) * the mean of 0.299 R + 0.587 G + 0.114 B),
    'saturation' (x * factor + (1 - factor) * 0.114 B: MXNet's kernel overwrites its grey
    sum at each channel, so only blue's term is left; kept, as the draft must give MXNet's
    images), 'hue' (the hue turned by factor * 360 degrees in HLS), 'lighting' (``factor``
    three PCA weights: AlexNet's eigenvectors and eigenvalues added per channel)."""
    import torch

    if src.dim() != 3:
        raise ValueError(f"the image must be (height, width, channels), not {tuple(src.shape)}")
    x = src.to(torch.float32)
    channels = x.shape[-1]
    f = torch.tensor(factor, dtype=torch.float32)
    if kind == "brightness":
        out = x * f
    elif kind == "contrast":
        coef = torch.tensor([0.299, 0.587, 0.114], dtype=torch.float32)
        total = (x * coef).sum() if channels > 1 else x.sum()
        mean = total / torch.tensor(x.shape[0] * x.shape[1], dtype=torch.float32)
        out = x * f + (1 - f) * mean
    elif kind == "saturation":
        if channels == 1:
            return src.clone()
        grey = x[..., 2:3] * torch.tensor(0.114, dtype=torch.float32) * (1 - f)
        out = grey + x * f
    elif kind == "hue":
        if channels == 1:
            return src.clone()
        out = _gluon_hue(x, f)
    elif kind == "lighting":
        if channels == 1:
            return src.clone()
        eig = torch.tensor([[55.46 * -0.5675, 4.794 * 0.7192, 1.148 * 0.4009],
                            [55.46 * -0.5808, 4.794 * -0.0045, 1.148 * -0.8140],
                            [55.46 * -0.5836, 4.794 * -0.6948, 1.148 * 0.4203]],
                           dtype=torch.float64).to(torch.float32)
        a = f.reshape(3)
        pca = eig[:, 0] * a[0] + eig[:, 1] * a[1] + eig[:, 2] * a[2]
        out = x + pca
    else:
        raise ValueError(f"gluon_image_color: {kind!r} is not brightness, contrast, "
                         "saturation, hue or lighting")
    if src.dtype == torch.uint8:
        return out.clamp(0, 255).to(torch.uint8)
    return out.to(src.dtype)


def _gluon_hue(x, alpha):
    """MXNet's hue kernel, elementwise in float32: RGB to HLS, the hue turned by alpha * 360
    degrees, back to RGB (OpenCV's formulas, as MXNet writes them)."""
    import torch

    r, g, b = (x[..., i] / 255.0 for i in range(3))
    vmax = torch.maximum(torch.maximum(r, g), b)
    vmin = torch.minimum(torch.minimum(r, g), b)
    diff = vmax - vmin
    light = (vmax + vmin) * 0.5
    some = diff > torch.finfo(torch.float32).eps
    low = (light < 0.5).to(torch.float32)
    sat = low * diff / (vmax + vmin) + (1 - low) * diff / (2.0 - vmax - vmin)
    d = 60.0 / diff
    is_r = (vmax == r).to(torch.float32)
    is_g = ((vmax != r) & (vmax == g)).to(torch.float32)
    is_b = ((vmax != r) & (vmax != g)).to(torch.float32)
    hue = is_r * (g - b) * d
    hue = hue + is_g * ((b - r) * d + 120.0)
    hue = hue + is_b * ((r - g) * d + 240.0)
    hue = hue + (hue < 0).to(torch.float32) * 360.0
    hue = torch.where(some, hue, torch.zeros_like(hue))
    sat = torch.where(some, sat, torch.zeros_like(sat))
    hue = hue + alpha * 360.0
    half = (light <= 0.5).to(torch.float32)
    p2 = half * light * (1 + sat) + (1 - half) * (light + sat - light * sat)
    p1 = 2 * light - p2
    h = hue * torch.tensor(1.0 / 60.0, dtype=torch.float32)
    while bool((h < 0).any()):
        h = torch.where(h < 0, h + 6, h)
    while bool((h >= 6).any()):
        h = torch.where(h >= 6, h - 6, h)
    sector = h.to(torch.int64)
    h = h - sector.to(torch.float32)
    tab = torch.stack([p2, p1, p1 + (p2 - p1) * (1 - h), p1 + (p2 - p1) * h], dim=-1)
    order = torch.tensor([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])
    pick = order[sector]                       # (H, W, 3): the table's entry for b, g, r
    bgr = torch.gather(tab, -1, pick)
    grey = sat == 0
    rgb = torch.stack([torch.where(grey, light, bgr[..., 2]),
                       torch.where(grey, light, bgr[..., 1]),
                       torch.where(grey, light, bgr[..., 0])], dim=-1)
    return rgb * 255.0


def gluon_random_image_color(src, kind, min_factor, max_factor):
    """nd.image.random_brightness / contrast / saturation / hue(data, min_factor,
    max_factor): :func:`gluon_image_color` with a factor drawn uniformly (float32) from
    [min_factor, max_factor) by torch's generator (MXNet's own cannot be replayed)."""
    import torch

    factor = torch.empty((), dtype=torch.float32).uniform_(min_factor, max_factor)
    return gluon_image_color(src, kind, float(factor))


def gluon_random_lighting(src, alpha_std=0.05):
    """nd.image.random_lighting(data, alpha_std): three PCA weights drawn from N(0,
    alpha_std²) (float32, torch's generator), then :func:`gluon_image_color` 'lighting'."""
    import torch

    alpha = torch.empty(3, dtype=torch.float32).normal_(0, alpha_std)
    return gluon_image_color(src, "lighting", alpha.tolist())


def gluon_random_color_jitter(src, brightness=0, contrast=0, saturation=0, hue=0):
    """nd.image.random_color_jitter(data, brightness, contrast, saturation, hue): the four
    in a random order (torch's generator), each with an amount above 0 applied with a
    factor 1 + U(-amount, amount) (hue: U(-hue, hue)), as MXNet's kernel does."""
    import torch

    out = src
    amounts = {"brightness": brightness, "contrast": contrast, "saturation": saturation,
               "hue": hue}
    kinds = list(amounts)
    for i in torch.randperm(4).tolist():
        kind = kinds[i]
        if amounts[kind] > 0:
            draw = float(torch.empty((), dtype=torch.float32).uniform_(-amounts[kind],
                                                                       amounts[kind]))
            out = gluon_image_color(out, kind, draw if kind == "hue" else 1.0 + draw)
    return out if out is not src else src.clone()


class GluonRandomColor:
    """gluon.data.vision.transforms.RandomBrightness / RandomContrast / RandomSaturation /
    RandomHue(amount) (``kind`` the first word): the factor drawn from [max(0, 1 - amount),
    1 + amount], as Gluon's; :func:`gluon_random_image_color`."""

    def __init__(self, kind, amount):
        self.kind, self.low, self.high = kind, max(0, 1 - amount), 1 + amount

    def __call__(self, x):
        return gluon_random_image_color(x, self.kind, self.low, self.high)


class GluonRandomColorJitter:
    """gluon.data.vision.transforms.RandomColorJitter(brightness, contrast, saturation,
    hue): :func:`gluon_random_color_jitter`."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        self.amounts = (brightness, contrast, saturation, hue)

    def __call__(self, x):
        return gluon_random_color_jitter(x, *self.amounts)


class GluonRandomLighting:
    """gluon.data.vision.transforms.RandomLighting(alpha): :func:`gluon_random_lighting`
    with alpha_std ``alpha``."""

    def __init__(self, alpha):
        self.alpha = alpha

    def __call__(self, x):
        return gluon_random_lighting(x, self.alpha)


class GluonCast:
    """gluon.data.vision.transforms.Cast(dtype): the tensor as ``dtype`` (a torch dtype)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __call__(self, x):
        return x.to(self.dtype)


class GluonDataset:
    """A dataset of (data, label) items with Gluon's ``transform(fn)`` (``fn(data, label)``)
    and ``transform_first(fn)`` (``fn(data)``)."""

    def __init__(self, items, fn=None, first=False):
        self.items, self.fn, self.first = items, fn, first

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        item = self.items[i]
        if self.fn is None:
            return item
        if not isinstance(item, tuple):   # a dataset of single values: fn(value)
            return self.fn(item)
        if self.first:
            return (self.fn(item[0]), *item[1:])
        return self.fn(*item)

    def transform(self, fn, lazy=True):
        return GluonDataset(self, fn)

    def transform_first(self, fn, lazy=True):
        return GluonDataset(self, fn, first=True)


class GluonDatasetBase:
    """gluon.data.Dataset as a base class: the subclass's ``__getitem__`` and ``__len__`` (what
    torch's DataLoader reads) with Gluon's ``transform(fn)`` and ``transform_first(fn)``."""

    def transform(self, fn, lazy=True):
        return GluonDataset(self, fn)

    def transform_first(self, fn, lazy=True):
        return GluonDataset(self, fn, first=True)


class GluonVocabulary:
    """mx.contrib.text.vocab.Vocabulary(counter, reserved_tokens=[...]) as the WikiText
    datasets build it: index 0 the unknown token '<unk>', then the reserved tokens, then the
    counted tokens by falling count (ties in string order)."""

    def __init__(self, counter, reserved_tokens=(), unknown_token="<unk>"):
        self.unknown_token, self.reserved_tokens = unknown_token, list(reserved_tokens)
        self.idx_to_token = [unknown_token, *reserved_tokens]
        skip = set(self.idx_to_token)
        ranked = sorted(sorted(counter.items(), key=lambda kv: kv[0]), key=lambda kv: kv[1],
                        reverse=True)
        self.idx_to_token += [t for t, _ in ranked if t not in skip]
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}

    def __len__(self):
        return len(self.idx_to_token)

    def to_indices(self, tokens):
        if isinstance(tokens, str):
            return self.token_to_idx.get(tokens, 0)
        return [self.token_to_idx.get(t, 0) for t in tokens]

    def to_tokens(self, indices):
        if isinstance(indices, int):
            return self.idx_to_token[indices]
        return [self.idx_to_token[i] for i in indices]


class GluonWikiText(GluonDatasetBase):
    """gluon.contrib.data.text.WikiText2 / WikiText103(root, segment, vocab, seq_len): the
    segment's tokens (each line's whitespace-split words and '<eos>'), as indices of ``vocab``
    (built from this segment's counts when not given, as Gluon's), item i the (seq_len,)
    int32 inputs and the next tokens as labels, the tail short of a whole row dropped.
    The files (wiki.train.tokens, wiki.valid.tokens, wiki.test.tokens) are read from
    ``root``: unzip wikitext-2-v1.zip (or -103-) there first; Gluon downloads it."""

    FILES = {"train": "wiki.train.tokens", "validation": "wiki.valid.tokens",
             "test": "wiki.test.tokens"}

    def __init__(self, root=None, segment="train", vocab=None, seq_len=35, kind="wikitext-2"):
        import collections
        import os
        import re

        import numpy
        import torch

        if root is None:   # Gluon's default: $MXNET_HOME/datasets/<kind>
            root = os.path.join(os.environ.get("MXNET_HOME", "~/.mxnet"), "datasets", kind)
        if segment not in self.FILES:
            raise ValueError(f"segment {segment!r}: one of {sorted(self.FILES)}")
        path = os.path.join(os.path.expanduser(root), self.FILES[segment])
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: unzip {kind}-v1.zip (the {kind} word-level "
                                    f"dataset) into {root} first")
        with open(path, encoding="utf8") as f:
            content = f.read()
        self.frequencies = collections.Counter(t for t in re.split(" |\n", content) if t)
        self.vocabulary = vocab if vocab is not None else \
            GluonVocabulary(self.frequencies, reserved_tokens=["<eos>"])
        words = [w for line in content.splitlines() for w in (line.split() + ["<eos>"]
                                                             if line.split() else [])]
        ids = numpy.array(self.vocabulary.to_indices(words), dtype=numpy.int32)
        rows = (len(ids) - 1) // seq_len * seq_len
        self._data = torch.from_numpy(ids[:-1][:rows].reshape(-1, seq_len).copy())
        self._label = torch.from_numpy(ids[1:][:rows].reshape(-1, seq_len).copy())

    def __len__(self):
        return len(self._label)

    def __getitem__(self, idx):
        return self._data[idx], self._label[idx]


class GluonArrayDataset(GluonDatasetBase):
    """gluon.data.ArrayDataset(*arrays): item i is (a[i], b[i], ...), or a[i] alone for one
    array; the arrays must have one length. (Gluon turns a 1-D NDArray into numpy, so its
    items are numpy scalars where these are 0-d tensors: a DataLoader batches both into the
    same 1-D tensor.)"""

    def __init__(self, *args):
        if not args:
            raise ValueError("ArrayDataset needs at least one array")
        if any(len(a) != len(args[0]) for a in args):
            raise ValueError(f"ArrayDataset's arrays differ in length: "
                             f"{[len(a) for a in args]}")
        self._data = list(args)

    def __len__(self):
        return len(self._data[0])

    def __getitem__(self, idx):
        if len(self._data) == 1:
            return self._data[0][idx]
        return tuple(data[idx] for data in self._data)


class GluonSequentialSampler:
    """gluon.data.SequentialSampler(length, start=0): start, start + 1, ..., in order."""

    def __init__(self, length, start=0):
        self._length, self._start = length, start

    def __iter__(self):
        return iter(range(self._start, self._start + self._length))

    def __len__(self):
        return self._length


class GluonRandomSampler:
    """gluon.data.RandomSampler(length): 0 .. length - 1 shuffled at each pass by numpy's
    generator, as Gluon's (the same order for the same numpy seed)."""

    def __init__(self, length):
        self._length = length

    def __iter__(self):
        import numpy as np

        indices = np.arange(self._length)
        np.random.shuffle(indices)
        return iter(indices)

    def __len__(self):
        return self._length


class GluonIntervalSampler:
    """gluon.contrib.data.IntervalSampler(length, interval, rollover=True): 0, interval,
    2·interval, ... then, rolling over, 1, 1 + interval, ... (once only without rollover)."""

    def __init__(self, length, interval, rollover=True):
        if interval > length:
            raise ValueError(f"Interval {interval} must be smaller than or equal to length "
                             f"{length}")
        self._length, self._interval, self._rollover = length, interval, rollover

    def __iter__(self):
        for i in range(self._interval if self._rollover else 1):
            yield from range(i, self._length, self._interval)

    def __len__(self):
        return self._length


def gluon_imread(filename, flag=1, to_rgb=True):
    """mx.image.imread(filename, flag, to_rgb): flag 1, an (H, W, 3) uint8 tensor, RGB (BGR
    with ``to_rgb=False``), alpha dropped: the same pixels as MXNet's OpenCV, PNG and JPEG;
    flag 0, (H, W, 1) grayscale, within 1 of 255 for a colour file (another RGB-to-gray
    rounding)."""
    import os

    from torchvision.io import ImageReadMode, decode_image, read_file

    if not os.path.isfile(filename):
        raise FileNotFoundError(f"imread: {filename} is not a file")
    image = decode_image(read_file(filename),
                         mode=ImageReadMode.RGB if flag else ImageReadMode.GRAY)
    image = image.permute(1, 2, 0).contiguous()
    return image.flip(-1) if flag and not to_rgb else image


class GluonImageFolderDataset(GluonDatasetBase):
    """gluon.data.vision.ImageFolderDataset(root, flag=1, transform=None): one class per
    folder of ``root`` in sorted order (``synsets``), its .jpg, .jpeg and .png files (any
    case) in sorted order (``items``: (path, label)); an item is (imread(path, flag), label),
    or ``transform(image, label)``; other files and loose files skipped with a warning."""

    def __init__(self, root, flag=1, transform=None):
        import os
        import warnings

        self._root, self._flag, self._transform = os.path.expanduser(root), flag, transform
        self.synsets, self.items = [], []
        for folder in sorted(os.listdir(self._root)):
            path = os.path.join(self._root, folder)
            if not os.path.isdir(path):
                warnings.warn(f"Ignoring {path}, which is not a directory.", stacklevel=2)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for name in sorted(os.listdir(path)):
                name = os.path.join(path, name)
                if os.path.splitext(name)[1].lower() not in (".jpg", ".jpeg", ".png"):
                    warnings.warn(f"Ignoring {name}: only .jpg, .jpeg and .png", stacklevel=2)
                    continue
                self.items.append((name, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        path, label = self.items[idx]
        image = gluon_imread(path, self._flag)
        return self._transform(image, label) if self._transform is not None else (image, label)


def gluon_vision_dataset(kind, root=None, train=True, transform=None, fine_label=False):
    """gluon.data.vision.MNIST / FashionMNIST / CIFAR10 / CIFAR100(root, train, transform): the
    files in ``root`` itself, as Gluon keeps them (by default Gluon's own folder,
    $MXNET_HOME or ~/.mxnet, then datasets/<name>). MNIST's IDX files are read by torchvision
    (gzipped ones unpacked beside them; missing ones downloaded); CIFAR's binary batches by
    numpy (missing ones: Gluon's archive downloaded from its repository, $MXNET_GLUON_REPO,
    and unpacked there; a file present is read as it is, where Gluon would also check its
    sha1). Items ``(H, W, C)`` uint8 tensors and int labels (CIFAR100's coarse ones unless
    ``fine_label``); ``transform(data, label)`` as Gluon calls it."""
    import gzip
    import os
    import shutil

    import numpy
    import torch

    folder = {"MNIST": "mnist", "FashionMNIST": "fashion-mnist", "CIFAR10": "cifar10",
              "CIFAR100": "cifar100"}[kind]
    if root is None:
        home = os.environ.get("MXNET_HOME", os.path.join(os.path.expanduser("~"), ".mxnet"))
        root = os.path.join(home, "datasets", folder)
    root = os.path.expanduser(root)
    if kind.startswith("CIFAR"):
        names = {"CIFAR10": ([f"data_batch_{i}.bin" for i in range(1, 6)], ["test_batch.bin"],
                             "cifar-10-binary.tar.gz"),
                 "CIFAR100": (["train.bin"], ["test.bin"], "cifar-100-binary.tar.gz")}[kind]
        if not all(os.path.exists(os.path.join(root, n)) for n in names[0] + names[1]):
            import tarfile
            import urllib.request

            repo = os.environ.get("MXNET_GLUON_REPO",
                                  "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/")
            os.makedirs(root, exist_ok=True)
            archive = os.path.join(root, names[2])
            urllib.request.urlretrieve(f"{repo.rstrip('/')}/gluon/dataset/{folder}/{names[2]}",
                                       archive)
            with tarfile.open(archive) as tar:
                tar.extractall(root)
        width = 3072 + (2 if kind == "CIFAR100" else 1)
        rows = numpy.concatenate([
            numpy.fromfile(os.path.join(root, n), dtype=numpy.uint8).reshape(-1, width)
            for n in names[0 if train else 1]])
        labels = rows[:, 1 if kind == "CIFAR100" and fine_label else 0]
        images = torch.from_numpy(rows[:, width - 3072:].reshape(-1, 3, 32, 32)
                                  .transpose(0, 2, 3, 1).copy())
        return GluonDataset([(image, int(label)) for image, label in zip(images, labels)],
                            transform)

    import torchvision

    base = {"MNIST": torchvision.datasets.MNIST,
            "FashionMNIST": torchvision.datasets.FashionMNIST}[kind]
    for part in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                 "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):  # torchvision wants all
        packed = os.path.join(root, part + ".gz")
        if not os.path.exists(os.path.join(root, part)) and os.path.exists(packed):
            with gzip.open(packed, "rb") as src, open(os.path.join(root, part), "wb") as dst:
                shutil.copyfileobj(src, dst)

    class InRoot(base):  # Gluon reads root itself, torchvision root/<Class>/raw
        @property
        def raw_folder(self):
            return self.root

    data = InRoot(root, train=train, download=True)
    items = [(image.unsqueeze(-1), int(label)) for image, label in zip(data.data, data.targets)]
    return GluonDataset(items, transform)


def gluon_get_mnist():
    """mx.test_utils.get_mnist(): MNIST's four gzipped IDX files in the working directory,
    each one missing downloaded there first, as MXNet does (from torchvision's mirrors: the
    data.mxnet.io host MXNet names is gone), read as MXNet reads them: a dict of numpy arrays,
    ``train_data``/``test_data`` (N, 1, 28, 28) float32 in [0, 1] and
    ``train_label``/``test_label`` int8."""
    import gzip
    import os
    import struct
    import urllib.request

    import numpy
    import torchvision

    def fetch(name):
        if os.path.exists(name):
            return name
        for mirror in torchvision.datasets.MNIST.mirrors:
            try:
                urllib.request.urlretrieve(mirror + name, name + ".part")
            except OSError:
                continue
            os.replace(name + ".part", name)
            return name
        raise OSError(f"get_mnist: {name} is not here and no mirror gave it")

    def read(labels, images):
        with gzip.open(fetch(labels)) as f:
            f.read(8)
            label = numpy.frombuffer(f.read(), dtype=numpy.int8)
        with gzip.open(fetch(images)) as f:
            _, _, rows, cols = struct.unpack(">IIII", f.read(16))
            image = numpy.frombuffer(f.read(), dtype=numpy.uint8)
        return label, image.reshape(len(label), 1, rows, cols).astype(numpy.float32) / 255

    train_label, train_data = read("train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz")
    test_label, test_data = read("t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz")
    return {"train_data": train_data, "train_label": train_label,
            "test_data": test_data, "test_label": test_label}


def _gluon_binary(torch_op, lhs, rhs):
    import torch

    if not isinstance(lhs, torch.Tensor) and not isinstance(rhs, torch.Tensor):
        return torch_op(torch.tensor(lhs), torch.tensor(rhs)).item()
    if not isinstance(lhs, torch.Tensor):   # a number, cast to the array's dtype
        lhs = torch.tensor(lhs).to(rhs.dtype)
    if not isinstance(rhs, torch.Tensor):
        rhs = torch.tensor(rhs).to(lhs.dtype)
    return torch_op(lhs, rhs)


def gluon_compare(lhs, rhs, op):
    """``lhs op rhs`` for MXNet NDArrays (op '==', '!=', '<', '<=', '>' or '>='), and
    nd.equal / not_equal / lesser / lesser_equal / greater / greater_equal: 1 where it
    holds, 0 elsewhere, in the array's dtype (MXNet 1.x has no bool arrays; torch's
    comparisons give bool, whose mean() raises and whose sum() is an int64)."""
    import operator

    import torch

    fn = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}[op]
    like = lhs if isinstance(lhs, torch.Tensor) else rhs
    return fn(lhs, rhs).to(like.dtype)


def gluon_maximum(lhs, rhs):
    """nd.maximum(lhs, rhs): elementwise, broadcasting; a number beside an array is first cast
    to the array's dtype (MXNet's scalar operator: an int32 array and 2.5 compare with 2)."""
    import torch

    return _gluon_binary(torch.maximum, lhs, rhs)


def gluon_minimum(lhs, rhs):
    """nd.minimum(lhs, rhs): as gluon_maximum, the smaller of each pair."""
    import torch

    return _gluon_binary(torch.minimum, lhs, rhs)


def gluon_download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """mx.test_utils.download: ``url`` saved as ``fname`` (by default the URL's last part),
    inside ``dirname`` when given (made if missing); a file already there is kept unless
    ``overwrite``; up to ``retries`` more tries; the file's path returned."""
    import os
    import shutil
    import urllib.request

    if retries < 0:
        raise ValueError(f"retries must be at least 0, not {retries}")
    name = fname if fname is not None else url.split("/")[-1]
    folder = os.path.dirname(name) if dirname is None else dirname
    if dirname is not None:
        name = os.path.join(dirname, name)
    if folder:
        os.makedirs(folder, exist_ok=True)
    if os.path.exists(name) and not overwrite:
        return name
    for attempt in range(retries + 1):
        try:
            with urllib.request.urlopen(url) as response, open(name, "wb") as out:
                shutil.copyfileobj(response, out)
            return name
        except OSError:
            if attempt == retries:
                raise


def gluon_utils_download(url, path=None, overwrite=False, sha1_hash=None, retries=5,
                         verify_ssl=True):
    """mx.gluon.utils.download: ``url`` saved at ``path`` (a folder: the URL's last part in
    it; none: that name here). As Gluon 1.9.1 does, a file already there is kept, even with
    ``overwrite``, unless its sha1 differs from ``sha1_hash``; a download whose sha1 differs
    raises UserWarning (after the retries); the file's path returned."""
    import hashlib
    import os
    import shutil
    import ssl
    import urllib.request
    import uuid

    def sha1_matches(name):
        digest = hashlib.sha1()
        with open(name, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest() == sha1_hash

    if retries < 0:
        raise ValueError(f"retries must be at least 0, not {retries}")
    if path is None:
        fname = url.split("/")[-1]
        if not fname:
            raise ValueError(f"{url}: no file name in the URL; give path")
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split("/")[-1]) if os.path.isdir(path) else path
    stale = bool(sha1_hash) and os.path.exists(fname) and not sha1_matches(fname)
    if os.path.exists(fname) and not overwrite and not stale:
        return fname
    os.makedirs(os.path.dirname(os.path.abspath(fname)), exist_ok=True)
    context = None if verify_ssl else ssl._create_unverified_context()
    for attempt in range(retries + 1):
        part = f"{fname}.{uuid.uuid4().hex}"
        try:
            with urllib.request.urlopen(url, context=context) as response, \
                    open(part, "wb") as out:
                shutil.copyfileobj(response, out)
            if not os.path.exists(fname) or (sha1_hash and not sha1_matches(fname)):
                os.replace(part, fname)
            else:   # one already there: Gluon keeps it
                os.remove(part)
            if sha1_hash and not sha1_matches(fname):
                raise UserWarning(f"{fname} was downloaded but its sha1 is not {sha1_hash}")
            return fname
        except Exception:
            if os.path.exists(part):
                os.remove(part)
            if attempt == retries:
                raise


def gluon_rnn(mode, hidden_size, num_layers=1, layout="TNC", bidirectional=False,
              input_size=0, activation="relu", dropout=0.0):
    """gluon.rnn.LSTM / GRU / RNN(hidden_size, num_layers, layout, dropout, bidirectional,
    input_size): torch's layer (the same gates in the same order, weights of the same shapes
    in the same order) with Gluon's call: ``layer(x)`` gives the output alone,
    ``layer(x, states)`` gives (output, the states as a list: [h], or [h, c] for an LSTM);
    layout 'NTC' is batch_first; ``begin_state(batch_size, func, ctx=, dtype=)`` gives the
    zero states as a list.
    Without input_size (or 0) the layer is lazy, as Gluon's: the first layer's input weights
    take their size from the first input (a torch lazy module: an optimizer made before
    holds them). ``dropout`` between layers, when the layer trains (gluon_scoped makes that
    Gluon's scope)."""
    import math

    import numpy
    import torch

    base = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU, "rnn": torch.nn.RNN}[mode]

    class GluonRNN(base):
        def forward(self, inputs, states=None):
            if states is None:
                return super().forward(inputs)[0]
            if isinstance(states, torch.Tensor):
                states = [states]
            out, new = super().forward(inputs, tuple(states) if mode == "lstm" else states[0])
            return out, (list(new) if mode == "lstm" else [new])

        def begin_state(self, batch_size=0, func=None, **kwargs):
            # Gluon's: each state made by func (zeros by default; the draft's gluon_nd_zeros
            # or gluon_nd_ones for nd.zeros, nd.ones) as func(shape=, ctx=, dtype=, …), in
            # dtype (the layer's unless given), on ctx (the layer's device unless given)
            p = next(self.parameters())
            dtype = kwargs.pop("dtype", None)
            if dtype is not None and not isinstance(dtype, torch.dtype):
                dtype = getattr(torch, numpy.dtype(dtype).name)
            kwargs.setdefault("ctx", p.device)
            shape = (self.num_layers * (2 if self.bidirectional else 1), batch_size,
                     self.hidden_size)
            return [(func or gluon_nd_zeros)(shape=shape, dtype=dtype or p.dtype, **kwargs)
                    for _ in range(2 if mode == "lstm" else 1)]

    class LazyGluonRNN(torch.nn.modules.lazy.LazyModuleMixin, GluonRNN):
        cls_to_become = None

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            for name in self._flat_weights_names:
                if name.startswith("weight_ih_l0"):   # the only weights the input sizes
                    setattr(self, name, torch.nn.UninitializedParameter())

        def initialize_parameters(self, inputs, states=None):
            if not self.has_uninitialized_params():
                return
            self.input_size = inputs.shape[-1]
            bound = 1.0 / math.sqrt(self.hidden_size)     # torch's own first values
            with torch.no_grad():
                for name in self._flat_weights_names:
                    p = getattr(self, name)
                    if isinstance(p, torch.nn.UninitializedParameter):
                        p.materialize((self.weight_hh_l0.shape[0], self.input_size))
                        p.uniform_(-bound, bound)
            self._init_flat_weights()

    extra = {"nonlinearity": activation} if mode == "rnn" else {}
    return (GluonRNN if input_size else LazyGluonRNN)(
        input_size or 1, hidden_size, num_layers, batch_first=layout == "NTC",
        bidirectional=bidirectional, dropout=dropout, **extra)


#: helper name -> the names it needs beside it (written first)
HELPERS = {
    "gluon_init_uniform": (), "gluon_init_normal": (), "gluon_init_xavier": (),
    "GluonMode": (), "gluon_scope": ("GluonMode",), "gluon_scoped": ("GluonMode",),
    "gluon_pause": ("GluonMode", "gluon_scope"),
    "gluon_batch_norm": (), "gluon_instance_norm": (), "gluon_dropout": (), "gluon_split": (),
    "gluon_embedding": (), "gluon_share_params": (), "gluon_grad": (),
    "gluon_clip_global_norm": (), "gluon_broadcast_shape": (),
    "_gluon_nd_filled": ("_np_dtype",), "gluon_nd_zeros": ("_gluon_nd_filled", "_np_dtype"),
    "gluon_nd_ones": ("_gluon_nd_filled", "_np_dtype"),
    "gluon_reset_ctx": (),
    "gluon_init_constant": (), "gluon_parameter": (),
    "gluon_fill_parameter": (), "gluon_set_data": (),
    "gluon_parameter_initialize": ("gluon_init_uniform",),
    "gluon_init_named": ("gluon_init_constant", "gluon_init_uniform", "gluon_init_normal",
                         "gluon_init_xavier"),
    "gluon_initialize": ("gluon_init_uniform", "gluon_fill_parameter"),
    "GluonCompositeEvalMetric": (),
    "gluon_trainer_step": (), "gluon_adam": (), "gluon_optimizer": (),
    "gluon_set_learning_rate": (), "gluon_lr_scheduler": (),
    "gluon_metric_pairs": (), "GluonAccuracy": ("gluon_metric_pairs",), "GluonLoss": (),
    "GluonTopKAccuracy": ("gluon_metric_pairs",),
    "GluonKVStore": (), "GluonEvalMetric": (), "_np_dtype": (), "gluon_np_zeros": ("_np_dtype",), "gluon_np_ones": ("_np_dtype",),
    "gluon_np_arange": ("_np_dtype",),
    "gluon_array": (), "gluon_np_array": (), "gluon_reshape": (), "gluon_reverse_axes": (), "gluon_clip": (), "gluon_sample_multinomial": (), "gluon_split_and_load": (), "gluon_backward": (),
    "gluon_waitall": (), "gluon_l2_normalization": (), "_spatial": (),
    "gluon_pooling": ("_spatial",), "gluon_convolution": ("_spatial",), "gluon_upsampling": (),
    "gluon_pad": (), "gluon_copyto": (),
    "GluonRegressionMetric": ("gluon_metric_pairs",), "GluonCustomMetric": (), "gluon_loss_mean": (),
    "gluon_l2_loss": ("gluon_loss_mean",), "gluon_l1_loss": ("gluon_loss_mean",),
    "gluon_huber_loss": ("gluon_loss_mean",), "gluon_ctc_loss": (), "gluon_hinge_loss": ("gluon_loss_mean",),
    "gluon_kldiv_loss": ("gluon_loss_mean",),
    "gluon_softmax_ce_loss": ("gluon_loss_mean",), "gluon_sigmoid_bce_loss": ("gluon_loss_mean",),
    "GluonToTensor": (), "gluon_imresize": (), "gluon_center_crop": ("gluon_imresize",),
    "gluon_resize_short": ("gluon_imresize",), "GluonResize": ("gluon_imresize",),
    "gluon_fixed_crop": ("gluon_imresize",),
    "gluon_random_crop": ("gluon_imresize", "gluon_fixed_crop"),
    "_gluon_hue": (), "gluon_image_color": ("_gluon_hue",),
    "gluon_random_image_color": ("_gluon_hue", "gluon_image_color"),
    "gluon_random_lighting": ("_gluon_hue", "gluon_image_color"),
    "gluon_random_color_jitter": ("_gluon_hue", "gluon_image_color"),
    "GluonRandomColor": ("_gluon_hue", "gluon_image_color", "gluon_random_image_color"),
    "GluonRandomColorJitter": ("_gluon_hue", "gluon_image_color", "gluon_random_color_jitter"),
    "GluonRandomLighting": ("_gluon_hue", "gluon_image_color", "gluon_random_lighting"),
    "gluon_random_size_crop": ("gluon_imresize", "gluon_fixed_crop", "gluon_center_crop"),
    "GluonRandomResizedCrop": ("gluon_imresize", "gluon_fixed_crop", "gluon_center_crop",
                               "gluon_random_size_crop"),
    "GluonCenterCrop": ("gluon_imresize", "gluon_center_crop"), "GluonRandomFlip": (),
    "GluonCast": (), "GluonDataset": (), "gluon_vision_dataset": ("GluonDataset",),
    "gluon_get_mnist": (), "gluon_compare": (),
    "GluonDatasetBase": ("GluonDataset",),
    "GluonArrayDataset": ("GluonDatasetBase", "GluonDataset"), "gluon_imread": (),
    "GluonVocabulary": (),
    "GluonWikiText": ("GluonDatasetBase", "GluonDataset", "GluonVocabulary"),
    "GluonSequentialSampler": (), "GluonRandomSampler": (), "GluonIntervalSampler": (),
    "GluonImageFolderDataset": ("GluonDatasetBase", "GluonDataset", "gluon_imread"),
    "_gluon_binary": (), "gluon_maximum": ("_gluon_binary",),
    "gluon_minimum": ("_gluon_binary",), "gluon_download": (), "gluon_utils_download": (),
    "gluon_rnn": ("gluon_nd_zeros", "_gluon_nd_filled", "_np_dtype"),
    "GluonDataDesc": (), "GluonDataBatch": (), "GluonDataIter": ("GluonDataBatch",),
    "GluonNDArrayIter": ("GluonDataDesc", "GluonDataBatch", "GluonDataIter"),
    "_mt19937_shuffle": (),
    "GluonMNISTIter": ("GluonDataDesc", "GluonDataBatch", "GluonDataIter", "_mt19937_shuffle"),
}


@functools.lru_cache(maxsize=None)
def _source(name: str) -> str:
    return inspect.getsource(globals()[name]).rstrip()


def source_of(names) -> str:
    """The source of the helpers ``names`` and of what they need, each once, in the order of
    :data:`HELPERS`, with a comment saying where they come from."""
    wanted = set()
    for name in names:
        wanted.add(name)
        wanted.update(HELPERS[name])
    chunks = [_source(n) for n in HELPERS if n in wanted]
    return ("# --- helpers written by sidebyside.migrate: Gluon's behaviour in PyTorch, each "
            "checked against MXNet ---\n\n\n" + "\n\n\n".join(chunks) + "\n")
