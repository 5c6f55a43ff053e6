"""tools/gpu_job.py: what the GPU job (.ci/gpu) does on which machine, decided without a GPU."""
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("gpu_job", ROOT / "tools" / "gpu_job.py")
gpu_job = sys.modules["gpu_job"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gpu_job)
Gpu = gpu_job.Gpu


def test_nvidia_smi_lines_are_parsed():
    gpus = gpu_job.parse_nvidia_smi("0, NVIDIA H200, 9.0\n1, NVIDIA A100-SXM4-80GB, 8.0\n")
    assert gpus == [Gpu(0, "NVIDIA H200", 9.0), Gpu(1, "NVIDIA A100-SXM4-80GB", 8.0)]
    assert [g.sm for g in gpus] == ["sm_90", "sm_80"]
    with pytest.raises(ValueError, match="unexpected nvidia-smi line"):
        gpu_job.parse_nvidia_smi("No devices were found")


@pytest.mark.parametrize("capability, runs", [
    (3.7, False),                    # K80: below sm_50
    (5.0, True), (6.1, True), (7.0, True), (7.5, True), (8.0, True), (8.6, True),
    (8.9, True),                     # L4 / RTX 4090: sm_86 cubins run on 8.9
    (8.7, True),
    (9.0, False), (10.0, False), (12.0, False),     # H100/H200, B200, RTX 50xx: no cubin, no PTX
])
def test_where_mxnet_cu117_can_run(capability, runs):
    assert gpu_job.mxnet_runs_on(Gpu(0, "x", capability)) is runs


def test_plan_without_a_gpu():
    plan = gpu_job.plan([], "nvidia-smi not found: no NVIDIA driver on this machine")
    assert (plan.torch, plan.mxnet, plan.two_gpus) == ("cpu", "cpu", False)
    assert plan.lines == ["no GPU (nvidia-smi not found: no NVIDIA driver on this machine): "
                          "skipping the GPU parts; PyTorch and MXNet on the CPU"]


def test_plan_on_hopper_keeps_mxnet_on_the_cpu():
    plan = gpu_job.plan([Gpu(0, "NVIDIA H200", 9.0)], "nvidia-smi lists 1 GPU(s)")
    assert (plan.torch, plan.mxnet, plan.two_gpus) == ("cuda", "cpu", False)
    assert "GPU 0: NVIDIA H200, compute capability 9.0 (sm_90)" in plan.lines
    assert any(line.startswith("MXNet: CPU") and "sm_50–sm_86" in line for line in plan.lines)


def test_plan_with_two_ampere_gpus():
    gpus = [Gpu(0, "NVIDIA A100", 8.0), Gpu(1, "NVIDIA A100", 8.0)]
    plan = gpu_job.plan(gpus, "nvidia-smi lists 2 GPU(s)")
    assert (plan.torch, plan.mxnet, plan.two_gpus) == ("cuda", "gpu", True)
    assert any(line.startswith("MXNet: GPU 0, 1 with mxnet-cu117") for line in plan.lines)


def test_detect(monkeypatch):
    monkeypatch.setattr(gpu_job.shutil, "which", lambda name: None)
    assert gpu_job.detect() == ([], "nvidia-smi not found: no NVIDIA driver on this machine")
    monkeypatch.setattr(gpu_job.shutil, "which", lambda name: "/usr/bin/nvidia-smi")
    failed = lambda *a, **k: SimpleNamespace(returncode=9, stdout="",  # noqa: E731
                                             stderr="NVIDIA-SMI has failed because it couldn't "
                                                    "communicate with the NVIDIA driver.\n")
    gpus, why = gpu_job.detect(run=failed)
    assert gpus == [] and why.startswith("nvidia-smi failed: NVIDIA-SMI has failed")
    ok = lambda *a, **k: SimpleNamespace(returncode=0, stdout="0, NVIDIA H200, 9.0\n",  # noqa: E731
                                         stderr="")
    assert gpu_job.detect(run=ok) == ([Gpu(0, "NVIDIA H200", 9.0)], "nvidia-smi lists 1 GPU(s)")


READELF = """
 0x0000000000000001 (NEEDED)             Shared library: [libopenblas.so.0]
 0x0000000000000001 (NEEDED)             Shared library: [libcudnn.so.8]
 0x0000000000000001 (NEEDED)             Shared library: [libcuda.so.1]
 0x0000000000000001 (NEEDED)             Shared library: [libcudart.so.11.0]
 0x0000000000000001 (NEEDED)             Shared library: [libnvToolsExt.so.1]
"""


def fake_site(tmp_path, files):
    for rel in files:
        path = tmp_path / "nvidia" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    return tmp_path


def test_the_cuda_libraries_libmxnet_needs(tmp_path):
    readelf = lambda *a, **k: SimpleNamespace(returncode=0, stdout=READELF, stderr="")  # noqa: E731
    needed = gpu_job.needed_cuda_libraries(Path("libmxnet.so"), run=readelf)
    # the driver's libcuda.so.1 and the bundled OpenBLAS are not the wheels' business
    assert needed == ["libcudnn.so.8", "libcudart.so.11.0", "libnvToolsExt.so.1"]
    site = fake_site(tmp_path / "ok", ["cudnn/lib/libcudnn.so.8", "cuda_runtime/lib/libcudart.so.11.0",
                                       "nvtx/lib/libnvToolsExt.so.1", "cublas/lib/libcublas.so.11"])
    assert gpu_job.library_dirs(site, needed) == [site / "nvidia" / d / "lib"
                                                 for d in ("cudnn", "cuda_runtime", "nvtx")]
    # nvidia-cudnn-cu11 9.x ships libcudnn.so.9: refused by name
    wrong = fake_site(tmp_path / "cudnn9", ["cudnn/lib/libcudnn.so.9",
                                            "cuda_runtime/lib/libcudart.so.11.0",
                                            "nvtx/lib/libnvToolsExt.so.1"])
    with pytest.raises(FileNotFoundError, match=r"provides libcudnn\.so\.8: install "
                                                r"requirements-gpu\.txt \(cuDNN must be 8\.x"):
        gpu_job.library_dirs(wrong, needed)


def test_requirements_gpu_pins_cudnn_8_and_every_library():
    pins = dict(line.split("#")[0].strip().split("==") for line in
                (ROOT / "requirements-gpu.txt").read_text().splitlines()
                if line.strip() and not line.startswith("#"))
    assert pins["mxnet-cu117"] == "1.9.1"
    assert pins["nvidia-cudnn-cu11"].startswith("8.")
    assert {"nvidia-cuda-runtime-cu11", "nvidia-cublas-cu11", "nvidia-cufft-cu11",
            "nvidia-curand-cu11", "nvidia-cusolver-cu11", "nvidia-cusparse-cu11",
            "nvidia-cuda-nvrtc-cu11", "nvidia-nccl-cu11", "nvidia-nvtx-cu11"} <= set(pins)


def test_the_job_without_a_gpu_says_it_skips(tmp_path):
    """.ci/gpu on a machine with no nvidia-smi (PATH without one): plan, skip, exit 0."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3.11").symlink_to(sys.executable)
    proc = subprocess.run([str(ROOT / ".ci" / "gpu")], capture_output=True, text=True,
                          timeout=60, env={"PATH": f"{bin_dir}:/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert "no GPU (nvidia-smi not found" in proc.stdout
    assert "GPU job: skipped the GPU parts (no GPU here)" in proc.stdout
