"""The MNIST capstone (examples/mnist): both scripts run from their command lines and train,
their saved models reload into both frameworks with the same test result, and the port
trains in lockstep with the original in float64."""
import importlib.util
import os
import re
import subprocess
import sys

import mxnet as mx
import numpy as np
import pytest
import torch
from torchvision import transforms

from conftest import ROOT
from sidebyside import convert, data

EXAMPLE = ROOT / "examples" / "mnist"
# a name of its own: examples/image_classification has a lockstep.py too
_spec = importlib.util.spec_from_file_location("mnist_lockstep", EXAMPLE / "lockstep.py")
lockstep = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = lockstep
_spec.loader.exec_module(lockstep)

LOSS = re.compile(r"Train Epoch: 1 \[(\d+)/(\d+) \(\d+%\)\]\tLoss: ([0-9.]+)")
TEST = re.compile(r"Test set: Average loss: ([0-9.]+), Accuracy: (\d+)/(\d+) \(\d+%\)")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Both scripts, 15 training batches each, logging every batch, saving the model."""
    out = {}
    for script in ("main.py", "main_gluon.py"):
        cwd = tmp_path_factory.mktemp(script.replace(".", "_"))
        proc = subprocess.run(
            [sys.executable, str(EXAMPLE / script), "--epochs", "1", "--max-batches", "15",
             "--log-interval", "1", "--save-model", "--no-accel"],
            cwd=cwd, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr[-3000:]
        out[script] = (proc.stdout, cwd)
    return out


@pytest.mark.parametrize("script", ["main.py", "main_gluon.py"])
def test_each_script_trains_and_tests(runs, script):
    log, _ = runs[script]
    losses = [float(m[2]) for m in LOSS.findall(log)]
    assert len(losses) == 15
    assert [int(m[0]) for m in LOSS.findall(log)] == [64 * i for i in range(15)]
    assert all(int(m[1]) == 60000 for m in LOSS.findall(log))
    assert np.mean(losses[-5:]) < 0.8 * losses[0], losses        # it learns
    [(avg, correct, total)] = TEST.findall(log)
    assert total == "10000" and int(correct) > 2000 and float(avg) < losses[0]   # chance: 1000


def _test_sets():
    spec = data.SPECS[data.dataset_name()]
    pt = data.torch_dataset(train=False, transform=transforms.Compose(
        [transforms.ToTensor(), transforms.Normalize((spec.mean,), (spec.std,))]))
    gt = mx.gluon.data.vision.transforms
    gl = data.gluon_dataset(train=False).transform_first(
        gt.Compose([gt.ToTensor(), gt.Normalize(spec.mean, spec.std)]))
    return (torch.utils.data.DataLoader(pt, batch_size=1000),
            mx.gluon.data.DataLoader(gl, batch_size=1000))


@pytest.mark.parametrize("script, saved", [("main.py", "mnist_cnn.pt"),
                                           ("main_gluon.py", "mnist_cnn.params")])
def test_saved_model_reloads_into_both_frameworks(runs, script, saved, capsys):
    log, cwd = runs[script]
    [(avg, correct, _)] = TEST.findall(log)
    pt_net, mx_net = lockstep.main_torch.Net(), lockstep.main_gluon.Net()
    source = cwd / saved
    if saved.endswith(".pt"):
        convert.state_dict_to_params(source, cwd / "converted.params", torch_net=pt_net,
                                     gluon_net=mx_net, input_shape=(2, 1, 28, 28))
    else:
        convert.params_to_state_dict(source, cwd / "converted.pt", gluon_net=mx_net,
                                     torch_net=pt_net, input_shape=(2, 1, 28, 28))
    pt_loader, mx_loader = _test_sets()
    pt_loss, pt_correct = lockstep.main_torch.test(pt_net, torch.device("cpu"), pt_loader)
    mx_loss, mx_correct = lockstep.main_gluon.test(mx_net, mx.cpu(), mx_loader)
    capsys.readouterr()
    # the script's own report, and each framework's result on the reloaded weights
    assert abs(pt_loss - float(avg)) < 1e-4 and abs(mx_loss - float(avg)) < 1e-4
    assert abs(pt_correct - int(correct)) <= 2 and abs(mx_correct - int(correct)) <= 2


def test_same_flags_and_defaults():
    pt = vars(lockstep.main_torch.parse_args([]))
    gl = vars(lockstep.main_gluon.parse_args([]))
    assert pt == gl and pt["epochs"] == 14 and pt["lr"] == 1.0 and pt["batch_size"] == 64


@pytest.fixture(scope="module")
def batches():
    return lockstep.batches(30, 16)


def test_float64_lockstep_holds(batches):
    run = lockstep.run(batches, dtype="float64")
    assert run.loss_gap.max() < 1e-12 and run.weight_gap.max() < 1e-12
    assert run.losses[-5:, 0].mean() < run.losses[:5, 0].mean()


def test_lockstep_catches_a_porting_slip(batches):
    slip = lockstep.run(batches[:10], dtype="float64", gluon_optimizer_args={"epsilon": 1e-5})
    assert slip.weight_gap[-1] > 1e-6
    with pytest.raises(ValueError, match="against"):
        lockstep.run(batches[:1], against="jax")


@pytest.mark.parametrize("script", ["main.py", "main_gluon.py"])
def test_unknown_dataset_in_the_environment_is_a_usage_error(script, tmp_path):
    """$SIDEBYSIDE_DATASET is the --dataset default: a wrong value is argparse's exit 2 with
    the choices, like a wrong flag, before any data is read or written."""
    env = {**os.environ, "SIDEBYSIDE_DATASET": "kmnist", "SIDEBYSIDE_DATA": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, str(EXAMPLE / script), "--epochs", "1"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr.strip().splitlines()[-1] == (
        f"{script}: error: unknown dataset 'kmnist' (from the $SIDEBYSIDE_DATASET); "
        "choose one of ['fashion-mnist', 'mnist']")
    assert "Traceback" not in proc.stderr and list(tmp_path.iterdir()) == []
    # the flag still wins over the environment
    assert lockstep.main_torch.parse_args(["--dataset", "mnist"]).dataset == "mnist"
