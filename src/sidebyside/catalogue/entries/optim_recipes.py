"""PyTorch optimizers that take MXNet 1.9.1's steps, as recipe text (no entries of its own).

Each constant is a self-contained piece of PyTorch code that an entry of ``optim_optimizers``
or ``optim_trainer`` shows as its recipe and that the entry's check executes verbatim. The
classes keep MXNet's argument names (``lr`` for ``learning_rate``) so a port can copy the
options over.
"""

ENTRIES: list = []

ADAM = '''
import math
import torch


class MXNetAdam(torch.optim.Optimizer):
    """MXNet's "adam": both bias corrections in the rate, epsilon added to sqrt(v)."""

    def __init__(self, params, lr=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0,
                 clip_gradient=None):
        super().__init__(params, dict(lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                                      clip_gradient=clip_gradient))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            b1, b2, clip = g["beta1"], g["beta2"], g["clip_gradient"]
            for p in [p for p in g["params"] if p.grad is not None]:
                s = self.state[p]
                if not s:
                    s.update(t=0, mean=torch.zeros_like(p), var=torch.zeros_like(p))
                s["t"] += 1
                grad = p.grad + g["wd"] * p                   # wd first, then the clip
                if clip is not None:
                    grad = grad.clamp(-clip, clip)
                s["mean"].mul_(b1).add_(grad, alpha=1 - b1)
                s["var"].mul_(b2).addcmul_(grad, grad, value=1 - b2)
                lr = g["lr"] * math.sqrt(1 - b2 ** s["t"]) / (1 - b1 ** s["t"])
                p.sub_(lr * s["mean"] / (s["var"].sqrt() + g["epsilon"]))
'''

RMSPROP = '''
import torch


class MXNetRMSProp(torch.optim.Optimizer):
    """MXNet's "rmsprop": epsilon inside the root; centered=True is Graves' version, whose
    momentum (gamma2) holds steps (lr inside)."""

    def __init__(self, params, lr=0.001, gamma1=0.9, gamma2=0.9, epsilon=1e-8, centered=False,
                 wd=0.0):
        super().__init__(params, dict(lr=lr, gamma1=gamma1, gamma2=gamma2, epsilon=epsilon,
                                      centered=centered, wd=wd))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            g1, g2, lr, eps = g["gamma1"], g["gamma2"], g["lr"], g["epsilon"]
            for p in [p for p in g["params"] if p.grad is not None]:
                s = self.state[p]
                if not s:
                    s.update(n=torch.zeros_like(p), g=torch.zeros_like(p),
                             delta=torch.zeros_like(p))
                grad = p.grad + g["wd"] * p
                s["n"].mul_(g1).addcmul_(grad, grad, value=1 - g1)
                if not g["centered"]:
                    p.sub_(lr * grad / (s["n"] + eps).sqrt())
                    continue
                s["g"].mul_(g1).add_(grad, alpha=1 - g1)
                root = (s["n"] - s["g"] * s["g"] + eps).sqrt()
                s["delta"].mul_(g2).sub_(lr * grad / root)
                p.add_(s["delta"])
'''

NAG = '''
import torch


class MXNetNAG(torch.optim.Optimizer):
    """MXNet's "nag" (nag_mom_update): the momentum takes wd times the *updated* weight."""

    def __init__(self, params, lr=0.01, momentum=0.0, wd=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum, wd=wd))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            mu, lr, wd = g["momentum"], g["lr"], g["wd"]
            for p in [p for p in g["params"] if p.grad is not None]:
                m = self.state[p].setdefault("mom", torch.zeros_like(p))
                m.mul_(mu)
                p.add_((mu + 1) * (m - lr * (p.grad + wd * p)) - m)
                m.sub_(lr * (p.grad + wd * p))                # p is the new weight here
'''

NADAM = '''
import torch


class MXNetNadam(torch.optim.Optimizer):
    """MXNet's "nadam": ONE momentum schedule for the optimizer, advanced at every
    parameter's update, in order (torch.optim.NAdam keeps one per parameter)."""

    def __init__(self, params, lr=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 schedule_decay=0.004, wd=0.0):
        super().__init__(params, dict(lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon,
                                      schedule_decay=schedule_decay, wd=wd))
        self.m_schedule = 1.0

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            b1, b2, decay = g["beta1"], g["beta2"], g["schedule_decay"]
            for p in [p for p in g["params"] if p.grad is not None]:
                s = self.state[p]
                if not s:
                    s.update(t=0, m=torch.zeros_like(p), v=torch.zeros_like(p))
                s["t"] += 1
                t, grad = s["t"], p.grad + g["wd"] * p
                mu = b1 * (1 - 0.5 * 0.96 ** (t * decay))
                mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * decay))
                self.m_schedule *= mu
                s["m"].mul_(b1).add_(grad, alpha=1 - b1)
                s["v"].mul_(b2).addcmul_(grad, grad, value=1 - b2)
                m_bar = ((1 - mu) * grad / (1 - self.m_schedule)
                         + mu_next * s["m"] / (1 - self.m_schedule * mu_next))
                v_hat = s["v"] / (1 - b2 ** t)
                p.sub_(g["lr"] * m_bar / (v_hat.sqrt() + g["epsilon"]))
'''

SIGNUM = '''
import torch


class MXNetSignum(torch.optim.Optimizer):
    """MXNet's "signum" (momentum > 0) and signSGD (momentum=0)."""

    def __init__(self, params, lr=0.01, momentum=0.9, wd=0.0, wd_lh=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum, wd=wd, wd_lh=wd_lh))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            mu, lr, wd = g["momentum"], g["lr"], g["wd"]
            for p in [p for p in g["params"] if p.grad is not None]:
                if mu == 0:                    # signsgd_update: wd decays, wd_lh unused
                    p.mul_(1 - lr * wd).sub_(lr * p.grad.sign())
                    continue
                m = self.state[p].setdefault("mom", torch.zeros_like(p))
                m.mul_(mu).sub_((1 - mu) * (p.grad + wd * p))
                p.mul_(1 - lr * g["wd_lh"]).add_(lr * m.sign())
'''

FTML = '''
import torch


class MXNetFTML(torch.optim.Optimizer):
    """MXNet's "ftml" (Follow the Moving Leader)."""

    def __init__(self, params, lr=0.01, beta1=0.6, beta2=0.999, epsilon=1e-8, wd=0.0):
        super().__init__(params, dict(lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            b1, b2 = g["beta1"], g["beta2"]
            for p in [p for p in g["params"] if p.grad is not None]:
                s = self.state[p]
                if not s:
                    s.update(t=0, d=torch.zeros_like(p), v=torch.zeros_like(p),
                             z=torch.zeros_like(p))
                s["t"] += 1
                t, grad = s["t"], p.grad + g["wd"] * p
                s["v"].mul_(b2).addcmul_(grad, grad, value=1 - b2)
                d = (1 - b1 ** t) / g["lr"] * ((s["v"] / (1 - b2 ** t)).sqrt() + g["epsilon"])
                s["z"].mul_(b1).add_(grad, alpha=1 - b1).sub_((d - b1 * s["d"]) * p)
                s["d"] = d
                p.copy_(-s["z"] / d)
'''

FTRL = '''
import torch


class MXNetFtrl(torch.optim.Optimizer):
    """MXNet's "ftrl" (FTRL-Proximal, L1 strength lamda1)."""

    def __init__(self, params, lr=0.1, lamda1=0.01, beta=1.0, wd=0.0):
        super().__init__(params, dict(lr=lr, lamda1=lamda1, beta=beta, wd=wd))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            lr, l1 = g["lr"], g["lamda1"]
            for p in [p for p in g["params"] if p.grad is not None]:
                s = self.state[p]
                if not s:
                    s.update(z=torch.zeros_like(p), n=torch.zeros_like(p))
                z, n, grad = s["z"], s["n"], p.grad
                z.add_(grad - ((n + grad * grad).sqrt() - n.sqrt()) * p / lr)
                n.add_(grad * grad)
                p.copy_((z.sign() * l1 - z) / ((g["beta"] + n.sqrt()) / lr + g["wd"])
                        * (z.abs() > l1))
'''

DCASGD = '''
import torch


class MXNetDCASGD(torch.optim.Optimizer):
    """MXNet's "dcasgd" with momentum=0 (its momentum > 0 path raises in 1.9.1)."""

    def __init__(self, params, lr=0.01, lamda=0.04, wd=0.0):
        super().__init__(params, dict(lr=lr, lamda=lamda, wd=wd))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in [p for p in g["params"] if p.grad is not None]:
                prev = self.state[p].setdefault("previous_weight", p.clone())
                grad = p.grad
                delta = -g["lr"] * (grad + g["wd"] * p + g["lamda"] * grad * grad * (p - prev))
                prev.copy_(p)
                p.add_(delta)
'''

SGLD = '''
import math
import torch


class MXNetSGLD(torch.optim.Optimizer):
    """MXNet's "sgld": half a gradient step, then Gaussian noise of variance lr."""

    def __init__(self, params, lr=0.01, wd=0.0):
        super().__init__(params, dict(lr=lr, wd=wd))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in [p for p in g["params"] if p.grad is not None]:
                p.add_(-g["lr"] / 2 * (p.grad + g["wd"] * p))
                p.add_(torch.randn_like(p) * math.sqrt(g["lr"]))
'''

LARS = '''
import torch


class MXNetLARS(torch.optim.Optimizer):
    """MXNet's "lars": SGD whose rate, per parameter, is lr*eta*|w|/(|g| + wd*|w| + eps) when
    both norms are > 0; the momentum buffer holds steps (lr inside). A group with lars=False
    keeps the plain rate (MXNet: names ending in gamma, beta or bias, Module API only)."""

    def __init__(self, params, lr=0.01, momentum=0.0, eta=0.001, eps=0.0, wd=0.0, lars=True):
        super().__init__(params, dict(lr=lr, momentum=momentum, eta=eta, eps=eps, wd=wd,
                                      lars=lars))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in [p for p in g["params"] if p.grad is not None]:
                lr, w_norm, g_norm = g["lr"], p.norm(), p.grad.norm()
                if g["lars"] and w_norm > 0 and g_norm > 0:
                    lr = lr * g["eta"] * w_norm / (g_norm + g["wd"] * w_norm + g["eps"])
                m = self.state[p].setdefault("mom", torch.zeros_like(p))
                m.mul_(g["momentum"]).sub_(lr * (p.grad + g["wd"] * p))
                p.add_(m)
'''

LAMB = '''
import torch


class MXNetLAMB(torch.optim.Optimizer):
    """MXNet's "lamb" (lamb_update_phase1 and phase2)."""

    def __init__(self, params, lr=0.001, beta1=0.9, beta2=0.999, epsilon=1e-6, wd=0.0,
                 bias_correction=True):
        super().__init__(params, dict(lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                                      bias_correction=bias_correction))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            b1, b2 = g["beta1"], g["beta2"]
            for p in [p for p in g["params"] if p.grad is not None]:
                s = self.state[p]
                if not s:
                    s.update(t=0, mean=torch.zeros_like(p), var=torch.zeros_like(p))
                s["t"] += 1
                s["mean"].mul_(b1).add_(p.grad, alpha=1 - b1)
                s["var"].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                m, v = s["mean"], s["var"]
                if g["bias_correction"]:
                    m, v = m / (1 - b1 ** s["t"]), v / (1 - b2 ** s["t"])
                update = m / (v.sqrt() + g["epsilon"]) + g["wd"] * p
                r1, r2 = p.norm(), update.norm()
                ratio = r1 / r2 if r1 > 0 and r2 > 0 else 1.0
                p.sub_(g["lr"] * ratio * update)
'''

GROUPADAGRAD = '''
import torch


class MXNetGroupAdaGrad(torch.optim.Optimizer):
    """MXNet's "groupadagrad": one AdaGrad history per row of a 2-D weight (no weight decay)."""

    def __init__(self, params, lr=0.01, eps=1e-5):
        super().__init__(params, dict(lr=lr, eps=eps))

    @torch.no_grad()
    def step(self):
        for g in self.param_groups:
            for p in [p for p in g["params"] if p.grad is not None]:
                history = self.state[p].setdefault("history", p.new_zeros(p.shape[0], 1))
                history.add_(p.grad.square().mean(dim=1, keepdim=True))
                p.sub_(g["lr"] * p.grad / (history + g["eps"]).sqrt())
'''

#: AdaGrad's and AdaDelta's weight decay, outside the adaptive step (w_old decays)
DECOUPLED_WD = '''
import torch


def step_with_mxnet_wd(optimizer, params, lr_times_wd):
    """optimizer.step(), then w -= lr*wd * (the weight before the step), as MXNet's
    "adagrad" (lr*wd) and "adadelta" (wd: its rate is 1) decay weights."""
    with torch.no_grad():
        decay = [lr_times_wd * p.detach().clone() for p in params]
        optimizer.step()
        for p, d in zip(params, decay):
            p.sub_(d)
'''

#: rescale_grad and clip_gradient of the SGD family: scale, clip, then the step adds wd*w
RESCALE_CLIP = '''
import torch


def step_with_mxnet_clip(optimizer, params, rescale_grad=1.0, clip_gradient=None):
    """MXNet's rescale_grad and element-wise clip_gradient, applied before the step."""
    with torch.no_grad():
        for p in params:
            p.grad.mul_(rescale_grad)
    if clip_gradient is not None:
        torch.nn.utils.clip_grad_value_(params, clip_gradient)
    optimizer.step()
'''

#: MXNet's "test" optimizer: w += rescale_grad * grad
TEST = '''
import torch


def mxnet_test_step(params, rescale_grad=1.0):
    with torch.no_grad():
        for p in params:
            p.add_(p.grad, alpha=rescale_grad)
'''

#: MXNet's optimizer names -> builders taking MXNet's options (create, Trainer by a name)
BUILDERS = '''
import torch

# MXNet's name -> a builder that takes MXNet's options, with MXNet's defaults
OPTIMIZERS = {
    "sgd": lambda params, learning_rate=0.01, momentum=0.0, wd=0.0: torch.optim.SGD(
        params, lr=learning_rate, momentum=momentum, weight_decay=wd),
    "nag": lambda params, learning_rate=0.01, momentum=0.0: torch.optim.SGD(
        params, lr=learning_rate, momentum=momentum, nesterov=momentum > 0),
    "adamax": lambda params, learning_rate=0.002, beta1=0.9, beta2=0.999, wd=0.0:
        torch.optim.Adamax(params, lr=learning_rate, betas=(beta1, beta2), eps=0,
                           weight_decay=wd),
}
'''
