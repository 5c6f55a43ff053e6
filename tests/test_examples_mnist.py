"""The MNIST capstone (examples/mnist): both scripts run from their command lines and train,
their saved models reload into both frameworks with the same test result, and the port
trains in lockstep with the original — in float64 to rounding, with dropout on and the same
masks on both sides, and in float32 within each framework's own float32 drift."""
import importlib.util
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


def test_the_port_draws_its_initial_weights_as_pytorch_does():
    """The lockstep runs copy PyTorch's weights into the port, so they cannot see the port's
    own initialisation: main_gluon.Net().initialize() must draw U(±1/√fan_in) for each
    weight and bias, the rule main.py's Net gets from PyTorch (the range and the spread)."""
    torch.manual_seed(0)
    pt = dict(lockstep.main_torch.Net().named_parameters())
    mx.random.seed(0)
    net = lockstep.main_gluon.Net()
    net.initialize()
    gl = {k: p.data().asnumpy() for k, p in net._collect_params_with_prefix().items()}
    assert sorted(gl) == sorted(pt)
    biases = {"PyTorch": [], "Gluon": []}
    for name, param in pt.items():
        layer = name.rsplit(".", 1)[0]
        bound = 1 / np.sqrt(pt[layer + ".weight"][0].numel())
        for side, w in (("PyTorch", param.detach().numpy()), ("Gluon", gl[name])):
            assert w.shape == tuple(param.shape), (side, name)
            assert np.abs(w).max() <= bound * (1 + 1e-6), (side, name, np.abs(w).max(), bound)
            if name.endswith(".weight"):        # 288 to 1.2 M draws: U(-b, b) has std b/√3
                assert abs(w.std() / (bound / np.sqrt(3)) - 1) < 0.1, (side, name, w.std())
                assert np.abs(w).max() > 0.9 * bound, (side, name)
            else:
                biases[side].append(w / bound)
    for side, scaled in biases.items():         # 234 biases in all, each U(-1, 1)/bound
        scaled = np.concatenate(scaled)
        assert abs(scaled.std() / (1 / np.sqrt(3)) - 1) < 0.15, (side, scaled.std())


def test_the_scripts_own_train_loops_take_the_same_steps(batches, capsys):
    """The lockstep runs step with their own code; this one runs main.py's train() and
    main_gluon.py's (their loss, backward, zero_grad and step(batch_size) calls) for one
    epoch of three batches from the same float64 weights, dropout off: the same weights
    after, and the same losses logged."""
    pair = lockstep._Pair(lockstep._base(1), "float64", "off", None, 1.0, "torchadadelta", None)
    args = lockstep.main_torch.parse_args(["--log-interval", "1"])
    x = np.concatenate([b[0] for b in batches[:3]])
    y = np.concatenate([b[1] for b in batches[:3]])
    pt_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(
        torch.from_numpy(x), torch.from_numpy(y).long()), batch_size=16)
    mx_loader = [(mx.nd.array(x[i:i + 16], dtype="float64"), mx.nd.array(y[i:i + 16]))
                 for i in range(0, len(x), 16)]
    start, start_gl = pair.weights()
    assert lockstep._relative_gap(start, start_gl) < 1e-12
    start = [w.copy() for w in start]            # PyTorch's numpy views share the weights
    lockstep.main_torch.train(args, pair.pt, torch.device("cpu"), pt_loader, pair.pt_opt, 1)
    pt_log = capsys.readouterr().out
    lockstep.main_gluon.train(args, pair.mx, mx.cpu(), mx_loader, pair.trainer, 1, len(x))
    mx_log = capsys.readouterr().out
    after, after_gl = pair.weights()
    assert lockstep._relative_gap(after, after_gl) < 1e-12
    assert lockstep._relative_gap(start, after) > 1e-3                 # they did train
    pt_losses = [float(m[2]) for m in LOSS.findall(pt_log)]
    mx_losses = [float(m[2]) for m in LOSS.findall(mx_log)]
    assert len(pt_losses) == len(mx_losses) == 3
    np.testing.assert_allclose(mx_losses, pt_losses, atol=2e-6)    # printed to 6 decimals


@pytest.fixture(scope="module")
def batches():
    return lockstep.batches(30, 16)


def test_float64_lockstep_holds_with_dropout_on_and_the_same_masks(batches):
    run = lockstep.run(batches, dtype="float64")
    assert run.dropout == "same"
    assert run.loss_gap.max() < 1e-12 and run.weight_gap.max() < 1e-12
    assert run.losses[-5:, 0].mean() < run.losses[:5, 0].mean()
    # dropout was on: without it the same training gives other losses
    off = lockstep.run(batches[:5], dtype="float64", dropout="off")
    assert np.abs(off.losses[1:, 0] - run.losses[1:5, 0]).max() > 1e-3


def test_the_lockstep_proves_the_optimizer_the_script_builds(batches, tmp_path, monkeypatch,
                                                            capsys):
    """The lockstep runs build their own Trainer: capture the optimizer and options that
    main_gluon.main() gives gluon.Trainer (one batch of one epoch), and train the float64
    lockstep with exactly those."""
    seen, real = [], mx.gluon.Trainer

    def spy(params, optimizer, optimizer_params=None, **kwargs):
        seen.append((optimizer, dict(optimizer_params or {}), kwargs))
        return real(params, optimizer, optimizer_params, **kwargs)

    monkeypatch.chdir(tmp_path)
    with monkeypatch.context() as patched:
        patched.setattr(lockstep.main_gluon.gluon, "Trainer", spy)
        lockstep.main_gluon.main(["--epochs", "1", "--max-batches", "1", "--no-accel"])
    capsys.readouterr()
    [(optimizer, options, kwargs)] = seen
    assert options == {"learning_rate": 1.0} and kwargs == {}
    lr = options.pop("learning_rate")
    run = lockstep.run(batches[:3], dtype="float64", lr=lr, check_every=1,
                       gluon_optimizer=optimizer, gluon_optimizer_args=options)
    assert run.loss_gap.max() < 1e-12 and run.weight_gap.max() < 1e-12, run.weight_gap


def test_each_framework_drawing_its_own_masks_parts_the_runs_at_once(batches):
    own = lockstep.run(batches[:3], dtype="float64", dropout="own", check_every=1)
    assert own.loss_gap[0] > 1e-4 and own.weight_gap[0] > 1e-3


def test_lockstep_catches_a_porting_slip_at_the_first_step(batches):
    slip = lockstep.run(batches[:3], dtype="float64", check_every=1,
                        gluon_optimizer_args={"epsilon": 1e-5})
    assert slip.checked_at.tolist() == [1, 2, 3]
    assert slip.loss_gap[0] < 1e-12            # step 1's loss comes before its update
    assert slip.weight_gap[0] > 1e-2           # the update itself: MXNet's epsilon, at once
    with pytest.raises(ValueError, match="dropout must be one of"):
        lockstep.run(batches[:1], dropout="sometimes")
    with pytest.raises(ValueError, match="check_every must be an int >= 1"):
        lockstep.run(batches[:1], check_every=0)


def test_the_float32_port_is_judged_by_each_frameworks_own_drift(batches):
    judged = lockstep.drift(batches[:12], check_every=4)
    assert judged.ok and judged.loss.first_failure is None
    assert judged.weights.steps.tolist() == [4, 8, 12] and len(judged.loss) == 12
    # its float64 pair is the float64 lockstep
    assert judged.loss.float64_gap.max() < 1e-12 and judged.weights.float64_gap.max() < 1e-12
    assert judged.loss.gap.max() > 1e-9                  # float32 does differ
    np.testing.assert_array_equal(judged.losses[:, 1], lockstep.run(batches[:12]).losses[:, 0])
    slip = lockstep.drift(batches[:4], check_every=2, gluon_optimizer_args={"epsilon": 1e-5})
    assert not slip.ok and slip.loss.first_failure == 2 and slip.weights.first_failure == 2
    with pytest.raises(ValueError, match="batch_list is empty"):
        lockstep.drift([])


def _lockstep_cli(*flags, tmp_path):
    return subprocess.run([sys.executable, str(EXAMPLE / "lockstep.py"), *flags], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)


def test_the_lockstep_command_line_prints_the_judgement(tmp_path, monkeypatch, capsys):
    proc = _lockstep_cli("--steps", "3", "--check-every", "1", tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = re.findall(r"^\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$", proc.stdout, re.M)
    assert [int(r[0]) for r in rows] == [1, 2, 3]
    assert all(float(r[4]) < 1e-12 for r in rows)             # the float64 gap
    assert proc.stdout.count("within 2 x the drift") == 2     # loss and weights
    assert list(tmp_path.iterdir()) == []                     # it writes nothing
    # a factor no float32 run can meet: the judgement fails, exit status 1
    status, printed = in_process("lockstep.py", lockstep.main, ["--steps", "2", "--factor", "1e-9"],
                                 tmp_path, monkeypatch, capsys)
    assert status == 1, printed.err[-2000:]
    assert "NOT within the drift" in printed.err and "NOT within (first at step" in printed.out


def in_process(script: str, main, flags, folder, monkeypatch, capsys):
    """``python <script> <flags>`` run inside this process from ``folder`` (the command line
    itself is run above; a refusal needs no fresh interpreter, which takes seconds): the exit
    status and what was printed. An exception other than SystemExit propagates."""
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE / script), *flags])   # argparse's prog
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        sys.exit(main(flags))
    return exit_.value.code, capsys.readouterr()


@pytest.mark.parametrize("flags, message", [
    (["--steps", "0"], "argument --steps: must be at least 1, got 0"),
    (["--dropout", "sometimes"], "argument --dropout: invalid choice"),
    (["--factor", "0"], "--factor must be > 0"),
])
def test_the_lockstep_command_line_refuses_bad_flags(flags, message, tmp_path, monkeypatch,
                                                     capsys):
    status, printed = in_process("lockstep.py", lockstep.main, flags, tmp_path, monkeypatch,
                                 capsys)
    assert status == 2 and message in printed.err, printed.err[-2000:]
    assert printed.err.startswith("usage: lockstep.py") and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("script", ["main.py", "main_gluon.py"])
def test_unknown_dataset_in_the_environment_is_a_usage_error(script, tmp_path, monkeypatch,
                                                             capsys):
    """$SIDEBYSIDE_DATASET is the --dataset default: a wrong value is argparse's exit 2 with
    the choices, like a wrong flag, before any data is read or written."""
    monkeypatch.setenv("SIDEBYSIDE_DATASET", "kmnist")
    monkeypatch.setenv("SIDEBYSIDE_DATA", str(tmp_path / "data"))
    module = lockstep.main_torch if script == "main.py" else lockstep.main_gluon
    status, printed = in_process(script, module.main, ["--epochs", "1"], tmp_path, monkeypatch,
                                 capsys)
    assert status == 2, printed.err[-2000:]
    assert printed.err.strip().splitlines()[-1] == (
        f"{script}: error: unknown dataset 'kmnist' (from the $SIDEBYSIDE_DATASET); "
        "choose one of ['fashion-mnist', 'mnist']")
    assert list(tmp_path.iterdir()) == []
    # the flag still wins over the environment
    assert lockstep.main_torch.parse_args(["--dataset", "mnist"]).dataset == "mnist"
