import mxnet as mx
import pytest
import torch

from sidebyside import devices


def test_torch_device_follows_cuda_availability():
    choice = devices.torch_device()
    assert choice.device.type == ("cuda" if torch.cuda.is_available() else "cpu")
    assert choice.reason


def test_cpu_when_gpu_not_wanted():
    assert devices.torch_device(prefer_gpu=False).device == torch.device("cpu")
    assert devices.mxnet_context(prefer_gpu=False).device == mx.cpu()


def test_pick_prints_one_line_per_framework_and_the_threads(capsys):
    from sidebyside import threads

    original = torch.get_num_threads()
    torch.set_num_threads(1)        # what `import mxnet` does on a two-CPU machine
    try:
        devs = devices.pick()
        assert torch.get_num_threads() == threads.torch_default()
    finally:
        torch.set_num_threads(original)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("torch: ") and lines[1].startswith("mxnet: ")
    assert lines[2].startswith(f"threads: PyTorch {threads.torch_default()}, MXNet operators")
    assert devs.threads.mxnet == threads.mxnet_operator_threads()
    # whatever was chosen really computes
    assert torch.ones(2, device=devs.torch.device).sum().item() == 2.0
    assert mx.nd.ones((2,), ctx=devs.mxnet.device).sum().asscalar() == 2.0


class _CudaFeatures:
    def is_enabled(self, name):
        return name == "CUDA"


@pytest.fixture
def fake_cuda_build(monkeypatch):
    """Pretend this MXNet was built with CUDA and sees one GPU (the probe decides the rest)."""
    monkeypatch.setattr(mx.runtime, "Features", _CudaFeatures)
    monkeypatch.setattr(mx.context, "num_gpus", lambda: 1)


def test_gpu_whose_kernels_fail_falls_back_to_cpu(fake_cuda_build):
    def sm90_probe(ctx):
        raise mx.base.MXNetError(
            "Traceback (most recent call last):\n  File \"src/x.cu\"\n"
            "MXNetError: CUDA: no kernel image is available for execution on the device")

    choice = devices.mxnet_context(probe=sm90_probe)
    assert choice.device == mx.cpu()
    assert "no kernel image is available" in choice.reason
    assert "sm_50–sm_86" in choice.reason
    assert "\n" not in choice.reason  # one plain line


def test_gpu_whose_kernel_runs_is_used(fake_cuda_build):
    seen = []
    choice = devices.mxnet_context(probe=seen.append)
    assert choice.device == mx.gpu(0)
    assert seen == [mx.gpu(0)]


def test_no_visible_gpu(monkeypatch):
    monkeypatch.setattr(mx.runtime, "Features", _CudaFeatures)
    monkeypatch.setattr(mx.context, "num_gpus", lambda: 0)
    choice = devices.mxnet_context()
    assert choice.device == mx.cpu() and "no GPU visible" in choice.reason


def test_gpu_count_failure(monkeypatch):
    def broken():
        raise mx.base.MXNetError("CUDA: CUDA driver version is insufficient")

    monkeypatch.setattr(mx.runtime, "Features", _CudaFeatures)
    monkeypatch.setattr(mx.context, "num_gpus", broken)
    choice = devices.mxnet_context()
    assert choice.device == mx.cpu() and "driver version is insufficient" in choice.reason


def test_probe_checks_the_result_on_cpu():
    devices.mxnet_gpu_works(mx.cpu())  # the arithmetic itself is right

