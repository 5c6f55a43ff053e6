import random

import mxnet as mx
import numpy as np
import pytest
import torch

from sidebyside.seeding import seed_everything


def draw():
    return (random.random(), np.random.rand(3).tolist(), torch.rand(3).tolist(),
            mx.nd.random.uniform(shape=(3,)).asnumpy().tolist(),
            mx.np.random.uniform(size=(3,)).asnumpy().tolist())


def test_same_seed_same_draws_in_every_library():
    assert seed_everything(1234) == 1234
    first = draw()
    seed_everything(1234)
    assert draw() == first


def test_different_seeds_differ_in_every_library():
    seed_everything(1)
    a = draw()
    seed_everything(2)
    b = draw()
    assert all(x != y for x, y in zip(a, b))


@pytest.mark.parametrize("bad, exc", [(1.5, TypeError), ("7", TypeError), (True, TypeError),
                                      (None, TypeError), (-1, ValueError), (2**32, ValueError)])
def test_bad_seeds_are_rejected(bad, exc):
    with pytest.raises(exc, match="seed"):
        seed_everything(bad)
