"""Helpers for the ops_math checks (elementwise math, comparisons, casts)."""


def mx_rint(x):
    """MXNet's rint: a value exactly halfway goes DOWN (to the floor), not to the even one."""
    import torch
    return torch.ceil(x - 0.5)


def mx_round(x):
    """MXNet's round: a value exactly halfway goes away from zero."""
    import torch
    return torch.sign(x) * torch.floor(x.abs() + 0.5)
