"""The reverse capstone (examples/image_classification): the legacy MXNet script runs offline in
its three modes, its PyTorch port runs from its command line with the same flags and log
lines, a checkpoint the legacy script saved converts into the port's network with the same
predictions, and the two networks train in lockstep: in float64 to rounding, in float32 within
each framework's own float32 drift."""
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import warnings

import mxnet as mx
import numpy as np
import pytest
import torch

from conftest import ROOT
from sidebyside import convert
from sidebyside import data as sbs_data

EXAMPLE = ROOT / "examples" / "image_classification"
# a name of its own: examples/mnist has a lockstep.py too, and one worker may import both
_spec = importlib.util.spec_from_file_location("image_classification_lockstep",
                                               EXAMPLE / "lockstep.py")
lockstep = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = lockstep
_spec.loader.exec_module(lockstep)

main_torch = lockstep.main_torch
BATCHES = 10
COMMON = ["--model", "resnet18_v1", "--epochs", "1", "--max-batches", str(BATCHES),
          "--log-interval", "5"]
RUNS = {  # name: (script, extra flags)
    "mx-imperative": ("image_classification.py", ["--mode", "imperative"]),
    "mx-hybrid": ("image_classification.py", ["--mode", "hybrid"]),
    "mx-symbolic": ("image_classification.py", ["--mode", "symbolic"]),
    "pt-imperative": ("main_torch.py", ["--mode", "imperative"]),
    "pt-symbolic": ("main_torch.py", ["--mode", "symbolic"]),
    "pt-2-replicas": ("main_torch.py", ["--mode", "imperative", "--cpu-replicas", "2"]),
}
# six processes at once: one thread each, or OpenMP's spinning threads starve each other
ONE_THREAD = {**os.environ, "OMP_NUM_THREADS": "1", "MXNET_OMP_MAX_THREADS": "1"}
BATCH_LINE = re.compile(r"\[Epoch 0 Batch (\d+)\] speed: [0-9.]+ samples/s, training: accuracy=([0-9.]+)")
EPOCH_LINE = re.compile(r"\[Epoch 0\] training: accuracy=([0-9.]+)")
VAL_LINE = re.compile(r"\[Epoch 0\] validation: accuracy=([0-9.]+)")
SPEEDOMETER = re.compile(r"Epoch\[0\] Batch \[(\d+)-(\d+)\]\tSpeed: [0-9.]+ samples/sec\taccuracy=([0-9.]+)")
MODULE_EPOCH = re.compile(r"Epoch\[0\] Train-accuracy=([0-9.]+)")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every run at once (separate processes), 10 batches each; (log, working folder)."""
    procs = {}
    for name, (script, extra) in RUNS.items():
        cwd = tmp_path_factory.mktemp(name)
        procs[name] = (subprocess.Popen([sys.executable, str(EXAMPLE / script), *COMMON, *extra],
                                        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, env=ONE_THREAD), cwd)
    out = {}
    for name, (proc, cwd) in procs.items():
        log, _ = proc.communicate(timeout=900)
        assert proc.returncode == 0, f"{name}:\n{log[-3000:]}"
        out[name] = (log, cwd)
    return out


@pytest.mark.parametrize("name", ["mx-imperative", "mx-hybrid", "pt-imperative", "pt-2-replicas"])
def test_trainer_modes_log_train_and_validate(runs, name):
    log, cwd = runs[name]
    lines = BATCH_LINE.findall(log)
    assert [int(i) for i, _ in lines] == [4, 9]
    [final] = EPOCH_LINE.findall(log)
    assert float(final) > 0.15, log[-2000:]                 # it learns (chance: 0.1)
    [val] = VAL_LINE.findall(log)
    assert 0.0 <= float(val) <= 1.0
    saved = sorted(p.name for p in cwd.iterdir())
    expect = "image-classifier-resnet18_v1-1." + ("params" if name.startswith("mx") else "pt")
    assert saved == [expect]


@pytest.mark.parametrize("name", ["mx-symbolic", "pt-symbolic"])
def test_symbolic_mode_is_module_fit_with_its_defaults(runs, name):
    log, cwd = runs[name]
    lines = SPEEDOMETER.findall(log)        # Speedometer(batch_size, 1): from the 2nd batch on
    assert [(int(a), int(b)) for a, b, _ in lines] == [(i - 1, i) for i in range(1, BATCHES)]
    [final] = MODULE_EPOCH.findall(log)
    assert float(final) > 0.15, log[-2000:]
    assert not VAL_LINE.findall(log) and list(cwd.iterdir()) == []   # no validation, no file


def _options(script):
    text = subprocess.run([sys.executable, str(EXAMPLE / script), "--help"], capture_output=True,
                          text=True, timeout=300, check=True).stdout
    return set(re.findall(r"(--[a-z_-]+)", text))


def test_the_port_has_the_legacy_scripts_flags():
    legacy, port = _options("image_classification.py"), _options("main_torch.py")
    assert port - legacy == {"--cpu-replicas"}
    assert legacy <= port and len(legacy) == 17, sorted(legacy)


def test_the_legacy_checkpoint_converts_with_the_same_predictions(runs, tmp_path):
    _, cwd = runs["mx-imperative"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gnet = mx.gluon.model_zoo.vision.get_model("resnet18_v1", classes=10)
        gnet.load_parameters(str(cwd / "image-classifier-resnet18_v1-1.params"))
    convert.params_to_state_dict(
        cwd / "image-classifier-resnet18_v1-1.params", tmp_path / "converted.pt",
        gluon_net=mx.gluon.model_zoo.vision.get_model("resnet18_v1", classes=10),
        torch_net=main_torch.get_model("resnet18_v1", 10, in_channels=1),
        input_shape=(2, 1, 28, 28), by="order")
    tnet = main_torch.get_model("resnet18_v1", 10, in_channels=1)
    tnet.load_state_dict(torch.load(tmp_path / "converted.pt"))
    tnet.eval()
    [(x, y)] = lockstep.batches(1, 256, train=False)
    mx_out = gnet(mx.nd.array(x, dtype="float32")).asnumpy()
    with torch.no_grad():
        pt_out = tnet(torch.from_numpy(x.astype(np.float32))).numpy()
    np.testing.assert_allclose(pt_out, mx_out, rtol=1e-4, atol=1e-4 * np.abs(mx_out).max())
    assert (pt_out.argmax(1) == mx_out.argmax(1)).mean() > 0.99


def test_float64_lockstep_holds_and_a_slip_shows():
    batch_list = lockstep.batches(6, 32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        good = lockstep.run(batch_list, "float64", check_every=3)
        slip = lockstep.run(batch_list[:3], "float64", check_every=3,
                            port_args={"weight_decay": 0.0})      # a port that forgot wd
    assert good.loss_gap_of("gluon").max() < 1e-12
    assert good.weight_gap_of("gluon").max() < 1e-11
    assert np.ptp(good.losses[:, 0]) > 0.01                       # it trained
    assert slip.weight_gap_of("gluon").max() > 1e-7


def test_lockstep_refuses_unknown_followers():
    with pytest.raises(ValueError, match="against"):
        lockstep.run([], against=("keras",))


def test_the_float32_port_is_judged_by_each_frameworks_own_drift():
    batch_list = lockstep.batches(3, 32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        judged = lockstep.drift(batch_list, check_every=1)
        doubled = lockstep.drift(batch_list[:2], check_every=1,
                                 port_args={"lr": 2 * lockstep.LR})   # a port with twice the rate
    assert judged.ok and judged.weights.steps.tolist() == [1, 2, 3]
    assert judged.loss.float64_gap.max() < 1e-12 and judged.weights.float64_gap.max() < 1e-11
    assert judged.loss.gap.max() > 1e-9                       # float32 does differ
    assert np.all(judged.running_gaps > 1e-3)                 # ÷n against ÷(n−1), float64
    assert not doubled.ok and doubled.weights.first_failure == 1
    with pytest.raises(ValueError, match="batch_list is empty"):
        lockstep.drift([])


def _lockstep_cli(*flags, cwd):
    return subprocess.run([sys.executable, str(EXAMPLE / "lockstep.py"), *flags], cwd=cwd,
                          env=ONE_THREAD, capture_output=True, text=True, timeout=900)


def test_the_lockstep_command_line_judges_the_float32_port(tmp_path):
    proc = _lockstep_cli("--steps", "2", "--dtype", "float32", "--check-every", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = re.findall(r"^step +(\d+): weights gap (\S+), drift port (\S+) / MXNet (\S+), "
                      r"float64 gap (\S+)$", proc.stdout, re.M)
    assert [int(r[0]) for r in rows] == [1, 2] and all(float(r[4]) < 1e-11 for r in rows)
    assert proc.stdout.count("within 2 x the drift") == 2
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("flags, message", [
    (["--steps", "0"], "argument --steps: must be at least 1, got 0"),
    (["--model", "resnet18_v2"], "argument --model: invalid choice"),
    (["--dtype", "float32", "--factor", "-1"], "--factor must be > 0"),
])
def test_the_lockstep_command_line_refuses_bad_flags(flags, message, tmp_path, monkeypatch,
                                                     capsys):
    # in this process (the command line itself runs above): a refusal needs no fresh
    # interpreter, which takes seconds; an exception other than SystemExit propagates
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE / "lockstep.py"), *flags])  # argparse's prog
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        sys.exit(lockstep.main(flags))
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and message in err, err[-2000:]
    assert err.startswith("usage: lockstep.py") and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("script", ["image_classification.py", "main_torch.py"])
def test_unknown_dataset_in_the_environment_is_a_usage_error(script, tmp_path, monkeypatch,
                                                             capsys):
    """--dataset defaults to $SIDEBYSIDE_DATASET, which argparse's choices= does not check:
    a wrong value is exit 2 with the choices, before any data is read or written. The legacy
    script parses as it is imported, so it runs as a command; the port's main() runs here."""
    monkeypatch.setenv("SIDEBYSIDE_DATASET", "kmnist")
    monkeypatch.setenv("SIDEBYSIDE_DATA", str(tmp_path / "data"))
    flags = ["--model", "resnet18_v1"]
    if script == "main_torch.py":
        monkeypatch.chdir(tmp_path)
        monkeypatch.setattr(sys, "argv", [str(EXAMPLE / script), *flags])   # argparse's prog
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_:
            main_torch.main(flags)
        status, err = exit_.value.code, capsys.readouterr().err
    else:
        proc = subprocess.run([sys.executable, str(EXAMPLE / script), *flags], cwd=tmp_path,
                              env={**os.environ, "OMP_NUM_THREADS": "1"}, capture_output=True,
                              text=True, timeout=300)
        status, err = proc.returncode, proc.stderr
        assert "Traceback" not in err
    assert status == 2, err[-2000:]
    assert err.strip().splitlines()[-1] == (
        f"{script}: error: unknown dataset 'kmnist' (from $SIDEBYSIDE_DATASET); "
        "choose one of ['mnist', 'fashion-mnist', 'cifar10', 'dummy']")
    assert list(tmp_path.iterdir()) == []


def test_the_ports_dataset_gives_mnistiters_numbers():
    """The lockstep runs make their batches themselves, so only this test sees the port's
    dataset: main_torch.IDXImages must give what the legacy script's MNISTIter gives — pixels
    / 256 (not torchvision's / 255) and their labels. (MNISTIter shuffles by default, the
    validation iterator too, so its images are looked up in the port's by their bytes.)"""
    spec = importlib.util.spec_from_file_location("image_classification_data",
                                                  EXAMPLE / "data.py")
    legacy_data = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(legacy_data)
    name = sbs_data.dataset_name()
    _, val = legacy_data.mnist_iterator(64, (1, 28, 28), name)
    batch = val.next()
    port = main_torch.IDXImages(sbs_data.raw_dir(name), train=False)
    assert len(port) == 10_000 and float(port.images.max()) == 255 / 256
    where = {}
    for i, image in enumerate(port.images.numpy()):
        where.setdefault(image.tobytes(), []).append(i)
    found = [where.get(image.tobytes(), []) for image in batch.data[0].asnumpy()]
    assert all(found), f"{sum(not f for f in found)} of 64 MNISTIter images not in the port's"
    labels = batch.label[0].asnumpy()
    assert all(labels[k] in port.labels[f].tolist() for k, f in enumerate(found))
    assert [f[0] for f in found[:8]] != list(range(8))          # it did shuffle


def _train_in_process(flags, tmp_path, monkeypatch):
    """main_torch.main(flags) in this process, in tmp_path: what it gave torch.optim.SGD (the
    parameters, a copy of their values at that moment, the options) and its log."""
    seen, real = [], torch.optim.SGD

    def spy(params, **options):
        params = list(params)
        seen.append((params, [p.detach().clone() for p in params], options))
        return real(params, **options)

    monkeypatch.chdir(tmp_path)
    with monkeypatch.context() as patched:
        patched.setattr(torch.optim, "SGD", spy)
        main_torch.main(["--model", "resnet18_v1", "--epochs", "1", *flags])
    [captured] = seen
    return captured


def test_the_ports_training_loop_takes_the_lockstep_steps(tmp_path, monkeypatch):
    """The lockstep runs step with their own code (proven against the legacy network): the
    script's own loop (zero_grad, loss, backward, step, with the flags' lr and wd) must take
    the same steps on the same three batches from the same initial weights."""
    params, start, options = _train_in_process(
        ["--mode", "imperative", "--max-batches", "3", "--log-interval", "0"], tmp_path,
        monkeypatch)
    assert options == {"lr": lockstep.LR, "weight_decay": lockstep.WD}
    replay = main_torch.get_model("resnet18_v1", 10, in_channels=1)
    with torch.no_grad():
        for p, value in zip(replay.parameters(), start, strict=True):
            p.copy_(value)
    optimizer = torch.optim.SGD(replay.parameters(), **options)
    train_data, _ = main_torch.mnist_loaders(sbs_data.dataset_name(), 32, 123)
    for _, (x, y) in zip(range(3), train_data):
        lockstep._torch_step(replay, optimizer, x, y)
    moved = max(float((p.detach() - s).abs().max()) for p, s in zip(params, start))
    gap = max(float((p.detach() - r.detach()).abs().max())
              for p, r in zip(params, replay.parameters(), strict=True))
    assert moved > 1e-4 and gap < 1e-6, (moved, gap)


def test_the_symbolic_mode_takes_module_fits_defaults_not_the_flags(tmp_path, monkeypatch):
    """Module.fit's defaults (read from MXNet's signature): SGD at learning rate 0.01 with no
    weight decay, whatever --lr and --wd say, and weights drawn from Uniform(0.01)."""
    fit = inspect.signature(mx.mod.BaseModule.fit).parameters
    assert dict(fit["optimizer_params"].default) == {"learning_rate": 0.01}
    assert isinstance(fit["initializer"].default, mx.init.Uniform)
    scale = fit["initializer"].default.scale
    params, start, options = _train_in_process(
        ["--mode", "symbolic", "--max-batches", "1", "--lr", "0.5", "--wd", "0.1"], tmp_path,
        monkeypatch)
    assert options == {"lr": 0.01, "weight_decay": 0.0}
    net = main_torch.get_model("resnet18_v1", 10, in_channels=1)
    assert len(list(net.parameters())) == len(start)
    weights = [w for w, (name, _) in zip(start, net.named_parameters())
               if name.endswith("weight") and w.dim() > 1]  # conv and dense weights
    assert len(weights) == 21
    assert all(float(w.abs().max()) <= scale and float(w.abs().max()) > 0.9 * scale
               for w in weights)
