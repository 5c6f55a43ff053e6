"""One call seeds Python's ``random``, numpy, torch and mxnet."""
from __future__ import annotations

import random

MAX_SEED = 2**32 - 1  # numpy's legacy seeding accepts [0, 2**32)


def seed_everything(seed: int) -> int:
    """Seed Python, numpy, torch (CPU and CUDA) and mxnet (all contexts); return the seed.

    Raises TypeError for a non-integer (bools included) and ValueError outside [0, 2**32).
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}: {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be in [0, {MAX_SEED}], got {seed}")
    import mxnet as mx
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)  # also seeds every CUDA device
    mx.random.seed(seed)     # ctx='all' by default: every device
    return seed
