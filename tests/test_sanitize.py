"""tools/nbval_sanitize.cfg, which nbval applies to stored and fresh outputs before comparing
them (the root conftest.py passes it): a device name in an output is not a difference, so the
same stored notebooks pass on a GPU runner; values still are."""
import re

import mxnet as mx
import pytest
import torch
from nbval.plugin import get_sanitize_patterns

from conftest import ROOT

CFG = ROOT / "tools" / "nbval_sanitize.cfg"
PATTERNS = get_sanitize_patterns(CFG.read_text())


def sanitize(text):
    for regex, replace in PATTERNS:          # in file order, as nbval applies them
        text = re.sub(regex, replace, text)
    return text


def test_nbval_reads_every_pattern_of_the_file():
    # nbval's parser silently drops a pair it cannot read (an empty "replace:", for one)
    assert len(PATTERNS) == CFG.read_text().count("\nregex: ") == 4


def test_pytest_runs_nbval_with_it(pytestconfig):
    assert pytestconfig.getoption("nbval_sanitize_with") == str(CFG)


def tensors():
    x = torch.arange(3.0, requires_grad=True)
    return [torch.arange(3.0), x, x * 2, torch.linspace(0, 1, 12, dtype=torch.float64),
            torch.ones(2, 3), torch.zeros(2, dtype=torch.int64)]


def test_a_tensor_on_another_device_prints_the_same_after_sanitizing(monkeypatch):
    plain = [repr(t) for t in tensors()]
    # torch adds device='…' to a repr when the tensor is not on the default device type: make
    # "cuda" the default and the CPU tensors print the suffix a GPU runner's tensors get,
    # through torch's own formatting (suffix order, line breaks)
    monkeypatch.setattr(torch._C, "_get_default_device", lambda: "cuda")
    suffixed = [repr(t) for t in tensors()]
    assert all("device='cpu'" in s for s in suffixed), suffixed
    on_gpu = [s.replace("device='cpu'", "device='cuda:0'") for s in suffixed]
    assert [sanitize(s) for s in on_gpu] == [sanitize(s) for s in plain]


def test_devices_and_contexts():
    assert sanitize(repr(torch.device("cuda", 0))) == sanitize(repr(torch.device("cpu")))
    assert sanitize(repr(mx.gpu(0))) == sanitize(repr(mx.cpu(0)))
    cpu_nd = repr(mx.nd.array([1, 2, 3]))
    assert "@cpu(0)" in cpu_nd
    assert sanitize(cpu_nd.replace("@cpu(0)", "@gpu(0)")) == sanitize(cpu_nd)
    assert sanitize("[gpu(0), gpu(1)]") == sanitize("[cpu(0), cpu(1)]") != sanitize("[cpu(0)]")


@pytest.mark.parametrize("a, b", [
    (repr(torch.tensor([1.0, 2.0])), repr(torch.tensor([1.0, 3.0]))),
    (repr(mx.nd.array([1, 2])), repr(mx.nd.array([1, 3]))),
    (repr(torch.ones(2, dtype=torch.float64)), repr(torch.ones(2))),
])
def test_values_and_dtypes_still_differ(a, b):
    assert sanitize(a) != sanitize(b)
