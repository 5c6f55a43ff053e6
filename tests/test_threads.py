"""Thread counts: the rule MXNet applies at import, checked in fresh processes."""
import os
import subprocess
import sys

import pytest

from sidebyside import threads

PROBE = """
import torch
before = torch.get_num_threads()
import mxnet
after = torch.get_num_threads()
from sidebyside import threads
print(before, after, threads.torch_default(), threads.mxnet_operator_threads())
"""


def _probe(**env_vars):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_NUM_THREADS", "MXNET_OMP_MAX_THREADS")}
    env.update(env_vars)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, timeout=300, check=True).stdout
    return tuple(int(v) for v in out.split())


def test_import_mxnet_lowers_torch_to_mxnets_count():
    before, after, torch_default, mxnet_n = _probe()
    cpus = threads.available_cpus()
    assert before == torch_default == cpus
    assert after == mxnet_n == max(1, cpus // 2)


def test_omp_num_threads_is_respected_by_both():
    before, after, torch_default, mxnet_n = _probe(OMP_NUM_THREADS="1")
    assert before == after == torch_default == mxnet_n == 1
    before, after, torch_default, mxnet_n = _probe(OMP_NUM_THREADS="3")
    assert before == after == torch_default == min(3, threads.available_cpus())
    assert mxnet_n == 3         # MXNet takes the variable as it is


def test_mxnet_omp_max_threads_leaves_torch_alone():
    before, after, torch_default, mxnet_n = _probe(MXNET_OMP_MAX_THREADS="5")
    assert before == after == torch_default == threads.available_cpus()
    assert mxnet_n == 5


def test_rule_reads_a_given_environment():
    cpus = threads.available_cpus()
    assert threads.mxnet_operator_threads({}) == max(1, cpus // 2)
    assert threads.mxnet_operator_threads({"OMP_NUM_THREADS": "4,2"}) == 4
    assert threads.mxnet_operator_threads({"OMP_NUM_THREADS": "x"}) == max(1, cpus // 2)
    assert threads.mxnet_operator_threads({"MXNET_OMP_MAX_THREADS": "6",
                                           "OMP_NUM_THREADS": "2"}) == 6
    assert threads.torch_default({"OMP_NUM_THREADS": "0"}) == cpus
    assert threads.torch_default({"OMP_NUM_THREADS": "1"}) == 1
    assert threads.torch_default({"OMP_NUM_THREADS": str(cpus + 1)}) == cpus


def test_restore_and_matched_put_counts_back():
    import torch

    original = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        report = threads.restore()
        assert report.torch == torch.get_num_threads() == threads.torch_default()
        if threads.torch_default() > 1:
            assert "restored from 1" in str(report)
        with threads.matched() as inside:
            assert torch.get_num_threads() == inside.torch == threads.mxnet_operator_threads()
        assert torch.get_num_threads() == threads.torch_default()
        with pytest.raises(ValueError, match="MXNET_OMP_MAX_THREADS="):
            with threads.matched(threads.mxnet_operator_threads() + 1):
                pass
        with pytest.raises(ValueError, match="positive int"):
            with threads.matched(0):
                pass
    finally:
        torch.set_num_threads(original)
