"""MXNet's optimizer update operators (``sgd_update``, ``adam_update``, …), which code calls
directly in custom training loops and optimizers: each as an in-place PyTorch recipe, checked
over three steps against MXNet."""
from ..model import RECIPE, check, entry


def _code(*parts):
    import textwrap

    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


_PRE = """
import numpy


def _f32(v):  # MXNet's hyper-parameters are float32 fields: 0.1 is 0.10000000149011612
    return float(numpy.float32(v))


def _clip(g, clip):  # clip >= 0 clips (clip=0 clips to 0); the default -1 does not
    return g.clamp(-_f32(clip), _f32(clip)) if clip >= 0 else g
"""

_SGD = """
@torch.no_grad()
def mx_sgd_update(weight, grad, lr, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    lr, wd = _f32(lr), _f32(wd)
    g = _clip(_f32(rescale_grad) * grad, clip_gradient)
    weight.mul_(1 - lr * wd).sub_(lr * g)
"""
_SGD_MOM = """
@torch.no_grad()
def mx_sgd_mom_update(weight, grad, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0,
                      clip_gradient=-1.0):
    lr, wd = _f32(lr), _f32(wd)
    g = _clip(_f32(rescale_grad) * grad, clip_gradient)
    mom.mul_(_f32(momentum)).sub_(lr * wd * weight).sub_(lr * g)
    weight.add_(mom)
"""
_NAG = """
@torch.no_grad()
def mx_nag_mom_update(weight, grad, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0,
                      clip_gradient=-1.0):
    lr, mu, wd = _f32(lr), _f32(momentum), _f32(wd)
    g = _clip(_f32(rescale_grad) * grad, clip_gradient)
    mom.mul_(mu)
    weight.add_(-mom + (mu + 1) * (mom - lr * (g + wd * weight)))
    mom.sub_(lr * (g + wd * weight))  # MXNet's kernel reads the *updated* weight here
"""
_ADAM = """
@torch.no_grad()
def mx_adam_update(weight, grad, mean, var, lr, beta1=0.9, beta2=0.999, epsilon=1e-8,
                   wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    # no bias correction here: mx.optimizer.Adam folds it into lr
    b1, b2 = _f32(beta1), _f32(beta2)
    g = _clip(_f32(rescale_grad) * grad + _f32(wd) * weight, clip_gradient)
    mean.mul_(b1).add_((1 - b1) * g)
    var.mul_(b2).add_((1 - b2) * g * g)
    weight.sub_(_f32(lr) * mean / (var.sqrt() + _f32(epsilon)))
"""
_ADAMW = """
@torch.no_grad()
def mx_adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                    epsilon=1e-8, wd=0.0, clip_gradient=-1.0):
    # contrib.adamw_update: rescale_grad is an array; not finite → no update at all
    if not torch.isfinite(rescale_grad).all():
        return
    b1, b2 = _f32(beta1), _f32(beta2)
    g = _clip(rescale_grad.to(grad.dtype) * grad, clip_gradient)
    mean.mul_(b1).add_(_f32(1 - b1) * g)  # 1 - beta1 computed in float32
    var.mul_(b2).add_(_f32(1 - b2) * g * g)
    weight.sub_(_f32(eta) * (_f32(lr) * mean / (var.sqrt() + _f32(epsilon))
                             + _f32(wd) * weight))
"""
_RMSPROP = """
@torch.no_grad()
def mx_rmsprop_update(weight, grad, n, lr, gamma1=0.95, epsilon=1e-8, wd=0.0,
                      rescale_grad=1.0, clip_gradient=-1.0, clip_weights=-1.0):
    g1 = _f32(gamma1)
    g = _clip(_f32(rescale_grad) * grad + _f32(wd) * weight, clip_gradient)
    n.mul_(g1).add_((1 - g1) * g * g)
    weight.sub_(_f32(lr) * g / (n + _f32(epsilon)).sqrt())  # epsilon inside the root
    if clip_weights >= 0:
        weight.clamp_(-_f32(clip_weights), _f32(clip_weights))
"""
_RMSPROPALEX = """
@torch.no_grad()
def mx_rmspropalex_update(weight, grad, n, g_avg, delta, lr, gamma1=0.95, gamma2=0.9,
                          epsilon=1e-8, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0,
                          clip_weights=-1.0):
    # the centred RMSProp (Graves 2013) with momentum gamma2 on the step
    g1 = _f32(gamma1)
    g = _clip(_f32(rescale_grad) * grad + _f32(wd) * weight, clip_gradient)
    n.mul_(g1).add_((1 - g1) * g * g)
    g_avg.mul_(g1).add_((1 - g1) * g)
    delta.mul_(_f32(gamma2)).sub_(_f32(lr) * g / (n - g_avg * g_avg + _f32(epsilon)).sqrt())
    weight.add_(delta)
    if clip_weights >= 0:
        weight.clamp_(-_f32(clip_weights), _f32(clip_weights))
"""
_SIGNSGD = """
@torch.no_grad()
def mx_signsgd_update(weight, grad, lr, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0):
    # rescale_grad and clip_gradient have no effect on a sign
    lr = _f32(lr)
    weight.mul_(1 - lr * _f32(wd)).sub_(lr * torch.sign(grad))
"""
_SIGNUM = """
@torch.no_grad()
def mx_signum_update(weight, grad, mom, lr, momentum=0.0, wd=0.0, rescale_grad=1.0,
                     clip_gradient=-1.0, wd_lh=0.0):
    lr, mu = _f32(lr), _f32(momentum)
    g = _clip(_f32(rescale_grad) * grad, clip_gradient)
    mom.mul_(mu).sub_((1 - mu) * _f32(wd) * weight).sub_((1 - mu) * g)
    weight.mul_(1 - lr * _f32(wd_lh)).add_(lr * torch.sign(mom))
"""
_FTML = """
@torch.no_grad()
def mx_ftml_update(weight, grad, d, v, z, lr, t, beta1=0.6, beta2=0.999, epsilon=1e-8,
                   wd=0.0, rescale_grad=1.0, clip_grad=-1.0):
    b1, b2 = _f32(beta1), _f32(beta2)
    g = _clip(_f32(rescale_grad) * grad + _f32(wd) * weight, clip_grad)
    v.mul_(b2).add_((1 - b2) * g * g)
    d_t = (1 - b1 ** t) / _f32(lr) * ((v / (1 - b2 ** t)).sqrt() + epsilon)
    z.mul_(b1).add_((1 - b1) * g - (d_t - b1 * d) * weight)
    d.copy_(d_t)
    weight.copy_(-z / d_t)
"""
_FTRL = """
@torch.no_grad()
def mx_ftrl_update(weight, grad, z, n, lr, lamda1=0.01, beta=1.0, wd=0.0, rescale_grad=1.0,
                   clip_gradient=-1.0):
    lr, l1 = _f32(lr), _f32(lamda1)
    g = _clip(_f32(rescale_grad) * grad, clip_gradient)
    z.add_(g - ((n + g * g).sqrt() - n.sqrt()) * weight / lr)
    n.add_(g * g)
    weight.copy_((torch.sign(z) * l1 - z) / ((_f32(beta) + n.sqrt()) / lr + _f32(wd))
                 * (z.abs() > l1))
"""
_MULTI_SGD = """
@torch.no_grad()
def mx_multi_sgd_update(weights, grads, lrs, wds, rescale_grad=1.0, clip_gradient=-1.0,
                        moms=None, momentum=0.0):
    # multi_sgd_update / multi_sgd_mom_update: one sgd(_mom)_update per weight, its own lr, wd
    for i, (w, g) in enumerate(zip(weights, grads)):
        lr, wd = _f32(lrs[i]), _f32(wds[i])
        g = _clip(_f32(rescale_grad) * g, clip_gradient)
        if moms is None:
            w.mul_(1 - lr * wd).sub_(lr * g)
        else:
            moms[i].mul_(_f32(momentum)).sub_(lr * wd * w).sub_(lr * g)
            w.add_(moms[i])
"""
_MP_SGD = """
@torch.no_grad()
def mx_mp_sgd_update(weight, grad, weight32, lr, wd=0.0, rescale_grad=1.0, clip_gradient=-1.0,
                     mom=None, momentum=0.0):
    # mp_sgd_update / mp_sgd_mom_update: the float32 master weight32 (and a float32 mom) is
    # updated, weight (float16) receives its rounding
    lr, wd = _f32(lr), _f32(wd)
    g = _clip(_f32(rescale_grad) * grad.float(), clip_gradient)
    if mom is None:
        weight32.mul_(1 - lr * wd).sub_(lr * g)
    else:
        mom.mul_(_f32(momentum)).sub_(lr * wd * weight32).sub_(lr * g)
        weight32.add_(mom)
    weight.copy_(weight32.to(weight.dtype))
"""


_MP_NAG = """
@torch.no_grad()
def mx_mp_nag_mom_update(weight, grad, mom, weight32, lr, momentum=0.0, wd=0.0,
                         rescale_grad=1.0, clip_gradient=-1.0):
    # float32 master weight32 and mom; the momentum's decay term reads the updated weight
    lr, mu, wd = _f32(lr), _f32(momentum), _f32(wd)
    g = _clip(_f32(rescale_grad) * grad.float(), clip_gradient)
    mom.mul_(mu)
    weight32.add_(-mom + (mu + 1) * (mom - lr * (g + wd * weight32)))
    mom.sub_(lr * (g + wd * weight32))
    weight.copy_(weight32.to(weight.dtype))
"""
_MP_ADAMW = """
@torch.no_grad()
def mx_mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                       beta2=0.999, epsilon=1e-8, wd=0.0, clip_gradient=-1.0):
    # float32 master weight32, mean, var; rescale_grad an array (not finite: no update)
    if not torch.isfinite(rescale_grad).all():
        return
    b1, b2 = _f32(beta1), _f32(beta2)
    g = _clip(rescale_grad.float() * grad.float(), clip_gradient)
    mean.mul_(b1).add_(_f32(1 - b1) * g)
    var.mul_(b2).add_(_f32(1 - b2) * g * g)
    weight32.sub_(_f32(eta) * (_f32(lr) * mean / (var.sqrt() + _f32(epsilon))
                               + _f32(wd) * weight32))
    weight.copy_(weight32.to(weight.dtype))
"""
_MULTI_MP = """
@torch.no_grad()
def mx_multi_mp_sgd_update(weights, grads, weights32, lrs, wds, rescale_grad=1.0,
                           clip_gradient=-1.0, moms=None, momentum=0.0):
    # multi_mp_sgd(_mom)_update: mx_mp_sgd_update per (weight, grad, weight32), own lr, wd
    for i, (w, g, w32) in enumerate(zip(weights, grads, weights32)):
        mx_mp_sgd_update(w, g, w32, lrs[i], wds[i], rescale_grad, clip_gradient,
                         None if moms is None else moms[i], momentum)
"""


_PRELOADED = """
@torch.no_grad()
def mx_preloaded_multi_sgd_update(weights, grads, lrs, wds, rescale_grad=1.0,
                                  clip_gradient=-1.0, moms=None, momentum=0.0):
    # lrs, wds: float32 arrays; the product lr·wd is formed in float32
    for i, (w, g) in enumerate(zip(weights, grads)):
        lr = float(lrs[i])
        lr_wd = float(numpy.float32(lrs[i]) * numpy.float32(wds[i]))
        g = _clip(_f32(rescale_grad) * g, clip_gradient)
        step = -lr_wd * w - lr * g
        if moms is not None:
            step += _f32(momentum) * moms[i]
            moms[i].copy_(step)
        w.add_(step)
"""


def _steps(mx_call, torch_call, states, extra_mx="", extra_t=""):
    """Three updates from the same start (w0, states) with the gradients g[0..2]."""
    names = ", ".join(["w", *states])
    mx = _code(f"""
        {names} = {", ".join(n + "0.copy()" for n in ["w", *states])}
        {extra_mx}
        for i in range(3):
            {mx_call}
        ({names})""")
    t = _code(f"""
        {names} = {", ".join(n + "0.clone()" for n in ["w", *states])}
        {extra_t}
        for i in range(3):
            {torch_call}
        ({names})""")
    return mx, t


def _entry(name, recipe, call_mx, call_t, states, inputs, torch, args, gotchas=(),
           aliases=(), teach="", **kw):
    mx_code, t_code = _steps(call_mx, call_t, states, kw.pop("extra_mx", ""),
                             kw.pop("extra_t", ""))
    return entry(name, aliases=list(aliases), torch=torch, status=RECIPE,
                 recipe=_code(_PRE, recipe), args=args, gotchas=list(gotchas), teach=teach,
                 check=check(mx_code, _code(_PRE, recipe, t_code), inputs=inputs, **kw))


_F32_LR = ("lr, wd, momentum and the other hyper-parameters are float32 fields: lr=0.1 is "
           "applied as 0.10000000149011612 (2e-9 relative on float64 weights); the recipe "
           "rounds them the same way")
_TEACH = "03_mnist_mlp §Gotcha: MXNet's optimizer kernels take their hyper-parameters in float32"
_W = "w0=U(3, 4); g=U(3, 3, 4)"

ENTRIES = [
    _entry("mx.nd.sgd_update", _SGD,
           "nd.sgd_update(w, g[i], lr=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=0.2, "
           "out=w)",
           "mx_sgd_update(w, g[i], lr=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=0.2)",
           [], _W, "mx_sgd_update(weight, grad, lr, wd, rescale_grad, clip_gradient)",
           "in place with out=weight: weight ← (1 − lr·wd)·weight − lr·clip(rescale_grad·grad,"
           " clip_gradient); lazy_update: row-sparse gradients only",
           [_F32_LR, "the weight decay is applied as (1 − lr·wd)·weight, outside the clip"],
           aliases=["mx.sym.sgd_update", "mx.nd.sparse.sgd_update"], teach=_TEACH),
    _entry("mx.nd.sgd_mom_update", _SGD_MOM,
           "nd.sgd_mom_update(w, g[i], m, lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2, out=w)",
           "mx_sgd_mom_update(w, g[i], m, lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2)",
           ["m"], _W + "; m0=U(3, 4, lo=-0.1, hi=0.1)",
           "mx_sgd_mom_update(weight, grad, mom, lr, momentum, wd, rescale_grad, "
           "clip_gradient)",
           "mom ← momentum·mom − lr·wd·weight − lr·clip(rescale_grad·grad); weight ← weight "
           "+ mom (the state holds the step, lr included: torch.optim.SGD's buffer does not)",
           [_F32_LR, "MXNet's momentum state includes lr; torch.optim.SGD's momentum_buffer "
                     "does not (buffer = mom / −lr while lr is constant)"],
           aliases=["mx.sym.sgd_mom_update", "mx.nd.sparse.sgd_mom_update"], teach=_TEACH),
    _entry("mx.nd.nag_mom_update", _NAG,
           "nd.nag_mom_update(w, g[i], m, lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2, out=w)",
           "mx_nag_mom_update(w, g[i], m, lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2)",
           ["m"], _W + "; m0=U(3, 4, lo=-0.1, hi=0.1)",
           "mx_nag_mom_update(weight, grad, mom, lr, momentum, wd, rescale_grad, "
           "clip_gradient)",
           "mom ← momentum·mom; weight ← weight − mom + (momentum + 1)·(mom − lr·(clip("
           "rescale_grad·grad) + wd·weight)); then mom ← mom − lr·(clip(…) + wd·weight')",
           [_F32_LR, "called with out=weight (as mx.optimizer.NAG does), the kernel's "
                     "momentum update reads the already *updated* weight for its weight-decay "
                     "term (the output aliases the input): with wd > 0 the textbook formula is "
                     "2.4e-4 off after three steps (measured); the recipe reproduces it"],
           aliases=["mx.sym.nag_mom_update"],
           teach="deep_dives/optim_rules §1. Nesterov with weight decay: MXNet's kernel "
                 "decays the updated weight"),
    _entry("mx.nd.adam_update", _ADAM,
           "nd.adam_update(w, g[i], m, v, lr=0.01, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2, out=w)",
           "mx_adam_update(w, g[i], m, v, lr=0.01, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2)",
           ["m", "v"], _W + "; m0=U(3, 4, lo=-0.1, hi=0.1); v0=P(3, 4, lo=0.01, hi=0.1)",
           "mx_adam_update(weight, grad, mean, var, lr, beta1, beta2, epsilon, wd, "
           "rescale_grad, clip_gradient)",
           "g = clip(rescale_grad·grad + wd·weight); mean, var ← moving averages (beta1, "
           "beta2); weight ← weight − lr·mean / (sqrt(var) + epsilon); no bias correction "
           "(mx.optimizer.Adam passes lr·sqrt(1 − beta2^t)/(1 − beta1^t))",
           [_F32_LR + " (lr reaches the kernel through float32: the Adam optimizer's "
                      "bias-corrected lr too)",
            "no bias correction inside the operator, unlike torch.optim.Adam's step",
            "wd is added to the gradient *before* clipping (L2, not decoupled)"],
           aliases=["mx.sym.adam_update", "mx.nd.sparse.adam_update"], teach=_TEACH),
    _entry("mx.nd.contrib.adamw_update", _ADAMW,
           "nd.contrib.adamw_update(w, g[i], m, v, rs.astype('float32'), lr=0.01, eta=0.5, wd=0.1, "
           "clip_gradient=0.3, out=w)",
           "mx_adamw_update(w, g[i], m, v, rs, lr=0.01, eta=0.5, wd=0.1, clip_gradient=0.3)",
           ["m", "v"], _W + "; m0=U(3, 4, lo=-0.1, hi=0.1); v0=P(3, 4, lo=0.01, hi=0.1); "
                            "rs=A([0.5]); bad=A([onp.inf])",
           "mx_adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1, beta2, "
           "epsilon, wd, clip_gradient)",
           "decoupled weight decay: weight ← weight − eta·(lr·mean/(sqrt(var) + epsilon) + "
           "wd·weight); rescale_grad is an *array* (a loss scale): when it is not finite the "
           "update is skipped; no bias correction; rescale_grad must be a float32 array even "
           "for float64 weights ('Type inconsistent' otherwise)",
           ["1 − beta1 and 1 − beta2 are computed in float32 (0.100000024 for beta1=0.9), "
            "even for float64 weights", "a NaN / inf rescale_grad leaves weight and states "
            "unchanged (the check makes one such call before its three steps)"],
           aliases=["mx.sym.contrib.adamw_update"],
           extra_mx="nd.contrib.adamw_update(w, g[0], m, v, bad.astype('float32'), lr=0.01, "
                    "eta=0.5, out=w)",
           extra_t="mx_adamw_update(w, g[0], m, v, bad, lr=0.01, eta=0.5)"),
    _entry("mx.nd.rmsprop_update", _RMSPROP,
           "nd.rmsprop_update(w, g[i], n, lr=0.01, gamma1=0.9, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2, clip_weights=0.8, out=w)",
           "mx_rmsprop_update(w, g[i], n, lr=0.01, gamma1=0.9, wd=0.01, rescale_grad=0.5, "
           "clip_gradient=0.2, clip_weights=0.8)",
           ["n"], _W + "; n0=P(3, 4, lo=0.01, hi=0.1)",
           "mx_rmsprop_update(weight, grad, n, lr, gamma1, epsilon, wd, rescale_grad, "
           "clip_gradient, clip_weights)",
           "n ← gamma1·n + (1 − gamma1)·g²; weight ← weight − lr·g / sqrt(n + epsilon); "
           "clip_weights ≥ 0 clamps the weight",
           [_F32_LR, "epsilon is inside the square root (torch.optim.RMSprop adds it "
                     "outside); gamma1 default 0.95 vs alpha=0.99"],
           aliases=["mx.sym.rmsprop_update"],
           teach="deep_dives/optim_rules §3. RMSProp, Adagrad and Adadelta, in float32"),
    _entry("mx.nd.rmspropalex_update", _RMSPROPALEX,
           "nd.rmspropalex_update(w, g[i], n, ga, dl, lr=0.01, gamma1=0.9, gamma2=0.8, "
           "wd=0.01, clip_gradient=0.5, out=w)",
           "mx_rmspropalex_update(w, g[i], n, ga, dl, lr=0.01, gamma1=0.9, gamma2=0.8, "
           "wd=0.01, clip_gradient=0.5)",
           ["n", "ga", "dl"], _W + "; n0=P(3, 4, lo=0.5, hi=1); ga0=U(3, 4, lo=-0.1, hi=0.1); "
                                   "dl0=U(3, 4, lo=-0.01, hi=0.01)",
           "mx_rmspropalex_update(weight, grad, n, g, delta, lr, gamma1, gamma2, epsilon, "
           "wd, rescale_grad, clip_gradient, clip_weights)",
           "centred RMSProp: n, g moving averages of g² and g; delta ← gamma2·delta − "
           "lr·g / sqrt(n − g_avg² + epsilon); weight ← weight + delta",
           [_F32_LR], aliases=["mx.sym.rmspropalex_update"]),
    _entry("mx.nd.signsgd_update", _SIGNSGD,
           "nd.signsgd_update(w, g[i], lr=0.1, wd=0.01, rescale_grad=0.5, clip_gradient=0.2, "
           "out=w)",
           "mx_signsgd_update(w, g[i], lr=0.1, wd=0.01)",
           [], _W, "mx_signsgd_update(weight, grad, lr, wd)",
           "weight ← (1 − lr·wd)·weight − lr·sign(grad)",
           [_F32_LR, "rescale_grad and clip_gradient are accepted and have no effect"],
           aliases=["mx.sym.signsgd_update"]),
    _entry("mx.nd.signum_update", _SIGNUM,
           "nd.signum_update(w, g[i], m, lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, "
           "wd_lh=0.05, out=w)",
           "mx_signum_update(w, g[i], m, lr=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5, "
           "wd_lh=0.05)",
           ["m"], _W + "; m0=U(3, 4, lo=-0.1, hi=0.1)",
           "mx_signum_update(weight, grad, mom, lr, momentum, wd, rescale_grad, "
           "clip_gradient, wd_lh)",
           "mom ← momentum·mom − (1 − momentum)·(wd·weight + clip(rescale_grad·grad)); "
           "weight ← (1 − lr·wd_lh)·weight + lr·sign(mom)",
           [_F32_LR], aliases=["mx.sym.signum_update"]),
    _entry("mx.nd.ftml_update", _FTML,
           "nd.ftml_update(w, g[i], d, v, z, lr=0.05, t=i + 1, wd=0.01, rescale_grad=0.5, "
           "out=w)",
           "mx_ftml_update(w, g[i], d, v, z, lr=0.05, t=i + 1, wd=0.01, rescale_grad=0.5)",
           ["d", "v", "z"], _W + "; d0=P(3, 4, lo=0.5, hi=1); v0=P(3, 4, lo=0.01, hi=0.1); "
                                 "z0=U(3, 4, lo=-0.1, hi=0.1)",
           "mx_ftml_update(weight, grad, d, v, z, lr, t, beta1, beta2, epsilon, wd, "
           "rescale_grad, clip_grad)",
           "Follow The Moving Leader (Zheng & Kwok 2017); t: the update count from 1; "
           "epsilon is a double field (not rounded)",
           [_F32_LR + " (epsilon excepted: a double field)"],
           aliases=["mx.sym.ftml_update"]),
    _entry("mx.nd.ftrl_update", _FTRL,
           "nd.ftrl_update(w, g[i], z, n, lr=0.1, lamda1=0.05, beta=0.5, wd=0.01, out=w)",
           "mx_ftrl_update(w, g[i], z, n, lr=0.1, lamda1=0.05, beta=0.5, wd=0.01)",
           ["z", "n"], _W + "; z0=U(3, 4, lo=-0.1, hi=0.1); n0=P(3, 4, lo=0.01, hi=0.1)",
           "mx_ftrl_update(weight, grad, z, n, lr, lamda1, beta, wd, rescale_grad, "
           "clip_gradient)",
           "FTRL-proximal (McMahan et al. 2013): z, n accumulators; weight 0 where |z| ≤ "
           "lamda1",
           [_F32_LR], aliases=["mx.sym.ftrl_update", "mx.nd.sparse.ftrl_update"]),
    _entry("mx.nd.multi_sgd_update", _MULTI_SGD,
           "nd.multi_sgd_update(w, g[i], w2, g2[i], lrs=(0.1, 0.2), wds=(0.01, 0.0), "
           "rescale_grad=0.5, clip_gradient=0.2, num_weights=2, out=[w, w2])",
           "mx_multi_sgd_update([w, w2], [g[i], g2[i]], lrs=(0.1, 0.2), wds=(0.01, 0.0), "
           "rescale_grad=0.5, clip_gradient=0.2)",
           ["w2"], _W + "; w20=U(5); g2=U(3, 5)",
           "mx_multi_sgd_update(weights, grads, lrs, wds, rescale_grad, clip_gradient)",
           "*data = weight, grad, weight, grad, …; lrs, wds: one per weight; num_weights; "
           "out=[weights] (required: without out MXNet 1.9.1 raises 'shape must have a "
           "valid ndim')",
           [_F32_LR, "call it with out=[the weights]: it updates them in place"],
           aliases=["mx.sym.multi_sgd_update"]),
    _entry("mx.nd.multi_sgd_mom_update", _MULTI_SGD,
           "nd.multi_sgd_mom_update(w, g[i], m, w2, g2[i], m2, lrs=(0.1, 0.2), "
           "wds=(0.01, 0.0), momentum=0.9, num_weights=2, out=[w, w2])",
           "mx_multi_sgd_update([w, w2], [g[i], g2[i]], lrs=(0.1, 0.2), wds=(0.01, 0.0), "
           "moms=[m, m2], momentum=0.9)",
           ["m", "w2", "m2"], _W + "; m0=U(3, 4, lo=-0.1, hi=0.1); w20=U(5); g2=U(3, 5); "
                                   "m20=U(5, lo=-0.1, hi=0.1)",
           "mx_multi_sgd_update(weights, grads, lrs, wds, rescale_grad, clip_gradient, moms, "
           "momentum)",
           "*data = weight, grad, mom, … per weight; each as sgd_mom_update with its lr, wd",
           [_F32_LR], aliases=["mx.sym.multi_sgd_mom_update"]),
    _entry("mx.nd.mp_sgd_update", _MP_SGD,
           "nd.mp_sgd_update(w, g[i].astype('float16'), w32, lr=0.1, wd=0.01, out=w)",
           "mx_mp_sgd_update(w, g[i].half(), w32, lr=0.1, wd=0.01)",
           ["w32"], "w0=U(3, 4); g=U(3, 3, 4); w320=U(3, 4)",
           "mx_mp_sgd_update(weight, grad, weight32, lr, wd, rescale_grad, clip_gradient)",
           "multi-precision: weight and grad float16, weight32 the float32 master copy "
           "(updated), weight ← weight32 rounded to float16",
           [_F32_LR], aliases=["mx.sym.mp_sgd_update"], dtypes=("float32",),
           extra_mx="w = w.astype('float16')", extra_t="w = w.half()",
           note="float16 weights with a float32 master copy: the run's dtype is float32"),
    _entry("mx.nd.mp_sgd_mom_update", _MP_SGD,
           "nd.mp_sgd_mom_update(w, g[i].astype('float16'), m, w32, lr=0.1, momentum=0.9, "
           "wd=0.01, out=w)",
           "mx_mp_sgd_update(w, g[i].half(), w32, lr=0.1, wd=0.01, mom=m, momentum=0.9)",
           ["m", "w32"], "w0=U(3, 4); g=U(3, 3, 4); m0=U(3, 4, lo=-0.1, hi=0.1); w320=U(3, 4)",
           "mx_mp_sgd_update(weight, grad, weight32, lr, wd, rescale_grad, clip_gradient, "
           "mom, momentum)",
           "as mp_sgd_update with a float32 momentum state mom",
           [_F32_LR], aliases=["mx.sym.mp_sgd_mom_update"], dtypes=("float32",),
           extra_mx="w = w.astype('float16')", extra_t="w = w.half()",
           note="float16 weights with a float32 master copy: the run's dtype is float32"),
]

ENTRIES += [
    entry("mx.nd.all_finite", aliases=["mx.sym.all_finite"],
          torch="torch.isfinite(data).all().to(torch.float32).reshape(1)", status=RECIPE,
          recipe="torch.isfinite(data).all().to(torch.float32).reshape(1)",
          args="→ a float32 array of shape (1,): 1.0 when every value is finite, else 0.0 "
               "(whatever data's dtype); init_output=False: AND with the out array's value",
          gotchas=["a float32 (1,) array, not a bool scalar"],
          check=check("(nd.all_finite(x), nd.all_finite(x / 0))", """
              (torch.isfinite(x).all().to(torch.float32).reshape(1),
               torch.isfinite(x / 0).all().to(torch.float32).reshape(1))""",
              inputs="x=U(3, 4)", kind="exact")),
    entry("mx.nd.multi_all_finite", aliases=["mx.sym.multi_all_finite"],
          torch="torch.stack([torch.isfinite(a).all() for a in data]).all()"
                ".to(torch.float32).reshape(1)",
          status=RECIPE,
          recipe="torch.stack([torch.isfinite(a).all() for a in data]).all()"
                 ".to(torch.float32).reshape(1)",
          args="*data, num_arrays → one float32 (1,) flag for all the arrays",
          check=check("""
              (nd.multi_all_finite(x, y, num_arrays=2),
               nd.multi_all_finite(x, y / 0, num_arrays=2))""", """
              (torch.stack([torch.isfinite(a).all() for a in (x, y)]).all()
               .to(torch.float32).reshape(1),
               torch.stack([torch.isfinite(a).all() for a in (x, y / 0)]).all()
               .to(torch.float32).reshape(1))""",
              inputs="x=U(3, 4); y=U(5)", kind="exact")),
    entry("mx.nd.reset_arrays", aliases=["mx.sym.reset_arrays"],
          torch="[a.zero_() for a in data]", status=RECIPE,
          recipe="with torch.no_grad():\n    for a in data:\n        a.zero_()",
          args="*data, num_arrays → each array set to zero in place (returns nothing)",
          check=check("""
              a, c = x.copy(), y.copy()
              nd.reset_arrays(a, c, num_arrays=2)
              (a, c)""", """
              a, c = x.clone(), y.clone()
              with torch.no_grad():
                  for t in (a, c):
                      t.zero_()
              (a, c)""", inputs="x=U(3, 4); y=U(5)", kind="exact")),
]

_MP_IN = "w0=U(3, 4); g=U(3, 3, 4); w320=U(3, 4)"
_MULTI_IN = "w0=U(3, 4); g=U(3, 3, 4); w20=U(5); g2=U(3, 5)"
_LRS = "lrs=A([0.1, 0.2]); wds=A([0.01, 0.0])"

ENTRIES += [
    _entry("mx.nd.mp_nag_mom_update", _MP_NAG,
           "nd.mp_nag_mom_update(w, g[i].astype('float16'), m, w32, lr=0.1, momentum=0.9, "
           "wd=0.01, out=w)",
           "mx_mp_nag_mom_update(w, g[i].half(), m, w32, lr=0.1, momentum=0.9, wd=0.01)",
           ["m", "w32"], _MP_IN + "; m0=U(3, 4, lo=-0.1, hi=0.1)",
           "mx_mp_nag_mom_update(weight, grad, mom, weight32, lr, momentum, wd, "
           "rescale_grad, clip_gradient)",
           "nag_mom_update on the float32 master copy weight32 (and a float32 mom); weight "
           "(float16) receives its rounding",
           [_F32_LR, "as nag_mom_update: the momentum's weight-decay term reads the updated "
                     "weight"],
           aliases=["mx.sym.mp_nag_mom_update"], dtypes=("float32",),
           extra_mx="w = w.astype('float16')", extra_t="w = w.half()",
           note="float16 weights with a float32 master copy: the run's dtype is float32"),
    _entry("mx.nd.contrib.mp_adamw_update", _MP_ADAMW,
           "nd.contrib.mp_adamw_update(w, g[i].astype('float16'), m, v, w32, rs, lr=0.01, "
           "eta=0.5, wd=0.1, out=w)",
           "mx_mp_adamw_update(w, g[i].half(), m, v, w32, rs, lr=0.01, eta=0.5, wd=0.1)",
           ["m", "v", "w32"], _MP_IN + "; m0=U(3, 4, lo=-0.1, hi=0.1); "
                                       "v0=P(3, 4, lo=0.01, hi=0.1); rs=A([0.5])",
           "mx_mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, "
           "beta1, beta2, epsilon, wd, clip_gradient)",
           "contrib.adamw_update on the float32 master copy weight32 (mean, var float32); "
           "weight (float16) receives its rounding",
           [_F32_LR, "rescale_grad is a float32 array; not finite → no update"],
           aliases=["mx.sym.contrib.mp_adamw_update"], dtypes=("float32",),
           extra_mx="w = w.astype('float16')", extra_t="w = w.half()",
           note="float16 weights with a float32 master copy: the run's dtype is float32"),
    _entry("mx.nd.multi_mp_sgd_update", _MP_SGD + _MULTI_MP,
           "nd.multi_mp_sgd_update(w, g[i].astype('float16'), w32, w2, g2[i].astype("
           "'float16'), w232, lrs=(0.1, 0.2), wds=(0.01, 0.0), num_weights=2, out=[w, w2])",
           "mx_multi_mp_sgd_update([w, w2], [g[i].half(), g2[i].half()], [w32, w232], "
           "lrs=(0.1, 0.2), wds=(0.01, 0.0))",
           ["w32", "w2", "w232"], _MULTI_IN + "; w320=U(3, 4); w2320=U(5)",
           "mx_multi_mp_sgd_update(weights, grads, weights32, lrs, wds, rescale_grad, "
           "clip_gradient)",
           "*data = weight, grad, weight32 per weight (float16, float16, float32); out="
           "[the weights]",
           [_F32_LR], aliases=["mx.sym.multi_mp_sgd_update"], dtypes=("float32",),
           extra_mx="w, w2 = w.astype('float16'), w2.astype('float16')",
           extra_t="w, w2 = w.half(), w2.half()",
           note="float16 weights with float32 master copies: the run's dtype is float32"),
    _entry("mx.nd.multi_mp_sgd_mom_update", _MP_SGD + _MULTI_MP,
           "nd.multi_mp_sgd_mom_update(w, g[i].astype('float16'), m, w32, w2, g2[i].astype("
           "'float16'), m2, w232, lrs=(0.1, 0.2), wds=(0.01, 0.0), momentum=0.9, "
           "num_weights=2, out=[w, w2])",
           "mx_multi_mp_sgd_update([w, w2], [g[i].half(), g2[i].half()], [w32, w232], "
           "lrs=(0.1, 0.2), wds=(0.01, 0.0), moms=[m, m2], momentum=0.9)",
           ["m", "w32", "w2", "m2", "w232"],
           _MULTI_IN + "; m0=U(3, 4, lo=-0.1, hi=0.1); w320=U(3, 4); "
                       "m20=U(5, lo=-0.1, hi=0.1); w2320=U(5)",
           "mx_multi_mp_sgd_update(weights, grads, weights32, lrs, wds, rescale_grad, "
           "clip_gradient, moms, momentum)",
           "*data = weight, grad, mom, weight32 per weight; out=[the weights]",
           [_F32_LR], aliases=["mx.sym.multi_mp_sgd_mom_update"], dtypes=("float32",),
           extra_mx="w, w2 = w.astype('float16'), w2.astype('float16')",
           extra_t="w, w2 = w.half(), w2.half()",
           note="float16 weights with float32 master copies: the run's dtype is float32"),
    _entry("mx.nd.preloaded_multi_sgd_update", _PRELOADED,
           "nd.preloaded_multi_sgd_update(w, g[i], w2, g2[i], lrs.astype('float32'), "
           "wds.astype('float32'), rescale_grad=0.5, num_weights=2, out=[w, w2])",
           "mx_preloaded_multi_sgd_update([w, w2], [g[i], g2[i]], lrs.float(), wds.float(), "
           "rescale_grad=0.5)",
           ["w2"], _MULTI_IN + "; " + _LRS,
           "mx_preloaded_multi_sgd_update(weights, grads, lrs, wds, rescale_grad, "
           "clip_gradient)",
           "as multi_sgd_update, with lrs and wds passed as float32 arrays after the "
           "weights and gradients",
           [_F32_LR, "lrs and wds must be float32 arrays (float64 raises 'Type "
                     "inconsistent'); the kernel forms lr·wd in float32 and applies "
                     "w − lr·wd·w − lr·g (multi_sgd_update: (1 − lr·wd)·w − lr·g in the "
                     "weight's dtype; 1.6e-10 apart on float64 weights, measured)"],
           aliases=["mx.sym.preloaded_multi_sgd_update"]),
    _entry("mx.nd.preloaded_multi_sgd_mom_update", _PRELOADED,
           "nd.preloaded_multi_sgd_mom_update(w, g[i], m, w2, g2[i], m2, lrs.astype("
           "'float32'), wds.astype('float32'), momentum=0.9, num_weights=2, out=[w, w2])",
           "mx_preloaded_multi_sgd_update([w, w2], [g[i], g2[i]], lrs.float(), wds.float(), "
           "moms=[m, m2], momentum=0.9)",
           ["m", "w2", "m2"], _MULTI_IN + "; m0=U(3, 4, lo=-0.1, hi=0.1); "
                                         "m20=U(5, lo=-0.1, hi=0.1); " + _LRS,
           "mx_preloaded_multi_sgd_update(weights, grads, lrs, wds, rescale_grad, "
           "clip_gradient, moms, momentum)",
           "as multi_sgd_mom_update, with lrs and wds as float32 arrays",
           [_F32_LR], aliases=["mx.sym.preloaded_multi_sgd_mom_update"]),
]
