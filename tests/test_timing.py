import time

import mxnet as mx
import numpy as np
import pytest
import torch

from sidebyside import timing


def test_measure_counts_runs_and_reports_seconds():
    calls = []
    t = timing.measure(lambda: calls.append(1), repeat=3, warmup=2)
    assert len(calls) == 5
    assert len(t.seconds) == 3 and all(s >= 0 for s in t.seconds)
    assert t.synced and t.best <= t.median
    assert "3 runs, synced" in str(t)


def test_measure_sees_the_time_of_a_slow_callable():
    t = timing.measure(lambda: time.sleep(0.02), repeat=2, warmup=0)
    assert t.best >= 0.015


def test_unsynced_measurement_says_so_and_drains_the_queue():
    a = mx.nd.ones((200, 200))
    out = []
    t = timing.measure(lambda: out.append(mx.nd.dot(a, a)), repeat=2, warmup=0,
                       sync_each=False)
    assert not t.synced and "NOT synced" in str(t)
    assert out[-1].asnumpy()[0, 0] == 200.0


@pytest.mark.parametrize("make, work, words", [
    (lambda: mx.nd.ones((2,)) * 2, "async", "NOT synced: launch time only)"),
    (lambda: (torch.ones(2), mx.nd.ones((2,))), "async", "launch time only)"),
    (lambda: torch.ones(2) * 2, "eager", "computed on return: the full time"),
    (lambda: np.ones(2), "eager", "the full time"),
    (lambda: None, "?", "launch time only if the work is asynchronous"),
])
def test_unsynced_label_follows_what_the_call_returned(make, work, words):
    t = timing.measure(make, repeat=1, warmup=0, sync_each=False)
    assert t.work == work and str(t).endswith(words if words.endswith(")") else words + ")")
    assert timing.measure(make, repeat=1, warmup=0).how == "synced"


def test_sync_waits_for_mxnet_arrays_and_accepts_the_others():
    a = mx.nd.ones((3, 3)) * 2
    timing.sync(a, mx.np.ones(2), torch.ones(2), np.ones(2), 1.5, np.float32(1))
    timing.sync()
    assert a.asnumpy().sum() == 18.0


def test_sync_surfaces_a_deferred_mxnet_error():
    bad = mx.nd.take(mx.nd.arange(5), mx.nd.array([7]), mode="raise")
    with pytest.raises(mx.base.MXNetError, match="out of bound"):
        timing.sync(bad)


@pytest.mark.parametrize("thing", ["a string", [1, 2], None, object()])
def test_sync_rejects_what_it_cannot_wait_for(thing):
    with pytest.raises(TypeError, match="cannot wait for"):
        timing.sync(thing)


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"repeat": 0}, ValueError, "repeat must be >= 1"),
    ({"warmup": -1}, ValueError, "warmup must be >= 0"),
    ({"repeat": 2.0}, TypeError, "repeat must be an int"),
    ({"warmup": True}, TypeError, "warmup must be an int"),
])
def test_measure_rejects_bad_counts(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        timing.measure(lambda: None, **kwargs)


def test_measure_rejects_a_non_callable():
    with pytest.raises(TypeError, match="fn must be callable"):
        timing.measure(42)
