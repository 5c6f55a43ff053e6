# %% [markdown]
# # 19 · Legacy MXNet files to PyTorch, without MXNet
#
# **What you will learn**
#
# - what is inside an MXNet `.params` file, byte by byte, and how `sidebyside.mx2torch`
#   reads it — and translates a `-symbol.json` graph into a readable PyTorch `model.py` —
#   with numpy and torch alone, in a process where `import mxnet` fails;
# - how to prove a translation: against MXNet's own outputs in float32 and float64, node by
#   node, so that a wrong weight is found at the layer it breaks; and the symbol API's
#   defaults a Module checkpoint relies on (`fix_gamma=True`, `eps=1e-3`, `SoftmaxOutput`);
# - how a Gluon `Trainer.save_states` file becomes a PyTorch optimizer that continues the
#   training exactly, why `torch.optim.Adam` cannot, and what the tool refuses, with its
#   message.
#
# [Notebook 14](14_converting_models.ipynb) converts a model when you can build it in both
# frameworks; this notebook is for the files alone — an `export()` or a
# `Module.save_checkpoint()` whose Python code is lost, or a machine where MXNet 1.9.1 no
# longer installs (it needs Python ≤ 3.11 and numpy 1.23). Which operators and attributes the
# tool translates, with a sweep over the whole model zoo, is the book's
# [mx2torch coverage page](../mx2torch.md).
#
# **Prerequisites**: [notebook 13](13_serialization.ipynb) (the files `export()` and
# `save_checkpoint` write) and [notebook 14](14_converting_models.ipynb) (checking a
# conversion). **Time**: about 25 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import logging
import os
import struct
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

# Without this, every Module.bind writes "Subgraph backend MKLDNN is activated" to stderr
os.environ["MXNET_SUBGRAPH_VERBOSE"] = "0"

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon
from mxnet.gluon.model_zoo import vision

from sidebyside import devices, errors, mxreference, seeding
from sidebyside.mx2torch import codegen, ndfile, optstate, report

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
logging.getLogger().setLevel(logging.WARNING)        # Module.fit's per-epoch log lines

print(f"MXNet {mx.__version__}, PyTorch {torch.__version__}, numpy {np.__version__}; "
      "everything on the CPU (translation is a CPU job)")

# %% [markdown]
# ## 1. The legacy files
#
# Three artifacts of the kind an MXNet project leaves behind, made here with MXNet so that
# every later claim can be checked against it. First, a model-zoo ResNet-18 (random weights,
# 64×64 inputs to keep it fast), given two training-mode passes, forward and backward, so that
# its BatchNorm running statistics are no longer their initial 0 and 1, then exported: a
# `-symbol.json` graph and a `.params` file ([notebook 7](07_hybridize_export.ipynb) §3). The
# explicit `prefix="zoo_"` keeps the parameter names free of MXNet's global counters.

# %%
mx_zoo = vision.get_model("resnet18_v1", classes=10, prefix="zoo_")
mx_zoo.initialize(mx.init.Xavier(magnitude=2.24))
mx_zoo.hybridize()
for _ in range(2):
    with autograd.record():                                  # training mode: batch statistics
        mx_out = mx_zoo(mx.nd.random.normal(shape=(8, 3, 64, 64)))
    mx_out.backward()                                        # no optimizer: only the statistics
mx_zoo.export(str(WORK / "zoo"))
ZOO = (WORK / "zoo-symbol.json", WORK / "zoo-0000.params")
sorted(p.name for p in WORK.iterdir())

# %% [markdown]
# Second, a Module-API checkpoint as [notebook 17](17_legacy_module_api.ipynb) trains one:
# an `mx.sym` graph with the symbol API's own defaults — `mx.sym.BatchNorm` has
# `fix_gamma=True` and `eps=1e-3`, unlike Gluon's `BatchNorm` — ending in the loss layer
# `SoftmaxOutput`, fitted for two epochs and saved with `save_checkpoint`. After training, its
# gamma is set to 3: with `fix_gamma=True`, MXNet ignores the stored value, and so must the
# translation (§5).

# %%
def legacy_symbol(pool_type="max"):
    data = mx.sym.var("data")
    x = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, pad=(1, 1), name="conv1")
    x = mx.sym.BatchNorm(x, name="bn1")                    # fix_gamma=True, eps=1e-3
    x = mx.sym.Activation(x, act_type="relu", name="relu1")
    x = mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type=pool_type, name="pool1")
    x = mx.sym.FullyConnected(x, num_hidden=5, name="fc1")
    return mx.sym.SoftmaxOutput(x, name="softmax")


rng = np.random.default_rng(SEED)
X_legacy = rng.standard_normal((32, 1, 8, 8)).astype(np.float32)
y_legacy = rng.integers(0, 5, 32).astype(np.float32)
mx_mod = mx.mod.Module(legacy_symbol(), context=mx.cpu())
mx_mod.fit(mx.io.NDArrayIter(X_legacy, y_legacy, batch_size=8, label_name="softmax_label"),
           num_epoch=2, optimizer="sgd", optimizer_params={"learning_rate": 0.1},
           initializer=mx.init.Xavier())
arg_params, aux_params = mx_mod.get_params()
arg_params["bn1_gamma"][:] = 3.0
mx_mod.set_params(arg_params, aux_params)
mx_mod.save_checkpoint(str(WORK / "legacy"), 2)
LEGACY = (WORK / "legacy-symbol.json", WORK / "legacy-0002.params")
sorted(p.name for p in WORK.glob("legacy*"))

# %% [markdown]
# Third, a training run to resume: a small convolutional network in float64 (so that the
# resumed steps can be compared tightly in §6), trained three steps with a Gluon `Trainer`
# using Adam with weight decay, then exported and its optimizer state saved with
# `save_states`. The network stays as it is, at step 3, for §6 to continue.

# %%
BATCH = 4                          # a power of two: 1/BATCH is exact (Trainer.step rescales)
seeding.seed_everything(SEED)
mx_small = gluon.nn.HybridSequential(prefix="small_")
with mx_small.name_scope():
    mx_small.add(gluon.nn.Conv2D(4, 3, activation="relu"), gluon.nn.Flatten(),
                 gluon.nn.Dense(3))
mx_small.initialize(mx.init.Xavier())
mx_small.cast("float64")
mx_small.hybridize()
mx_trainer = gluon.Trainer(mx_small.collect_params(), "adam",
                           {"learning_rate": 0.01, "wd": 0.01})
X_small = rng.standard_normal((BATCH, 1, 6, 6))
Y_small = rng.standard_normal((BATCH, 3))


def mx_step():
    with autograd.record():
        loss = ((mx_small(mx.nd.array(X_small, dtype="float64"))
                 - mx.nd.array(Y_small, dtype="float64")) ** 2).sum()
    loss.backward()
    mx_trainer.step(BATCH)


def mx_weights():
    return {name: p.data().asnumpy().copy() for name, p in mx_small.collect_params().items()}


for _ in range(3):
    mx_step()
mx_small.export(str(WORK / "small"))
mx_trainer.save_states(str(WORK / "small.states"))
SMALL = (WORK / "small-symbol.json", WORK / "small-0000.params")
sorted(p.name for p in WORK.glob("small*"))

# %%
mx_running_var = mx.nd.load(str(ZOO[1]))["aux:zoo_batchnorm0_running_var"].asnumpy()
assert not np.allclose(mx_running_var, 1.0)                 # statistics moved off their start
assert mx.nd.load(str(LEGACY[1]))["arg:bn1_gamma"].asnumpy().tolist() == [3.0] * 4
assert [p.name for p in sorted(WORK.iterdir())] == [
    "legacy-0002.params", "legacy-symbol.json", "small-0000.params", "small-symbol.json",
    "small.states", "zoo-0000.params", "zoo-symbol.json"]
"three legacy artifacts: an export, a Module checkpoint, a Trainer state"

# %% [markdown]
# From here on, MXNet only *checks*: every translation below reads these files with
# `sidebyside.mx2torch`, which never imports MXNet (§3 proves it).
#
# ## 2. A `.params` file, byte by byte
#
# `mx.nd.save` (and so `export()` and `save_checkpoint`) writes a small binary format: a
# header, then one record per array, then the names. All integers are little-endian:
#
# | bytes | field |
# |---|---|
# | `uint64` ×3 | magic `0x112`, reserved `0`, number of arrays |
# | per array: `uint32` | record magic `0xF993FAC9` (V2: what `mx.nd.save` writes) |
# | `int32` | storage type (0 dense, 1 row_sparse, 2 csr) |
# | `int32` + `int64` ×ndim | the shape |
# | `int32` ×2 | context: device type (1 = cpu), device id — ignored when read |
# | `int32` | dtype flag (0 float32, 1 float64, 2 float16, 3 uint8, 4 int32, 6 int64, …) |
# | the data | prod(shape) × itemsize bytes, C order |
# | `uint64` + per name `uint64` length + UTF-8 | the names (`arg:…`, `aux:…`) |
#
# `struct.unpack_from` on the first bytes of the exported file shows it:

# %%
raw = ZOO[1].read_bytes()
magic, reserved, count = struct.unpack_from("<QQQ", raw, 0)
record_magic, storage_type, ndim = struct.unpack_from("<Iii", raw, 24)
dims = struct.unpack_from(f"<{ndim}q", raw, 36)
dev_type, dev_id, dtype_flag = struct.unpack_from("<iii", raw, 36 + 8 * ndim)
header = {"file magic": hex(magic), "reserved": reserved, "arrays": count,
          "record magic": hex(record_magic), "storage type": storage_type, "ndim": ndim,
          "shape": dims, "context": (dev_type, dev_id), "dtype flag": dtype_flag}
header

# %% [markdown]
# **MXNet** reads it with `mx.nd.load`; **without MXNet**, `ndfile.load_params` reads the same
# bytes with numpy alone — strictly: a truncated file, a wrong magic or trailing bytes raise
# one error naming the file and the byte offset. `ndfile.save_params` writes the format back.

# %%
mx_arrays = mx.nd.load(str(ZOO[1]))
arrays = ndfile.load_params(ZOO[1])
first = next(iter(arrays))
ndfile.save_params(WORK / "copy.params", arrays)
first, arrays[first].shape, arrays[first].dtype

# %%
assert header["file magic"] == "0x112" and header["record magic"] == "0xf993fac9"
assert header["arrays"] == len(arrays) == len(mx_arrays) and header["dtype flag"] == 0
assert list(arrays) == list(mx_arrays) and dims == arrays[first].shape
assert all(np.array_equal(arrays[k], mx_arrays[k].asnumpy()) for k in mx_arrays)
assert (WORK / "copy.params").read_bytes() == raw              # written back byte for byte
(WORK / "copy.params").unlink()
f"{len(arrays)} arrays, every one equal to mx.nd.load's; save_params writes the same bytes"

# %% [markdown]
# ## 3. Without MXNet
#
# The claim "no MXNet needed" is easy to make and easy to break (one stray `import mxnet` in a
# helper). So the translation runs here in a fresh Python process in which `import mxnet` is
# made impossible: `sys.modules['mxnet'] = None` makes every import of it raise
# `ModuleNotFoundError`, as in an environment where MXNet was never installed.

# %%
GUARD = "import sys; sys.modules['mxnet'] = None   # from here on, `import mxnet` fails\n"
probe = GUARD + textwrap.dedent("""
    try:
        import mxnet
    except ImportError as e:
        print("import mxnet:", type(e).__name__, "-", e)
    from sidebyside.mx2torch import codegen
    t = codegen.translation("zoo-symbol.json", "zoo-0000.params")
    print(type(t.module).__name__, "with", len(t.nodes), "nodes; inputs", t.inputs)
    print("mxnet modules loaded:", [m for m, v in sys.modules.items() if "mxnet" in m and v])
""")
run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=WORK)
print(run.stdout + run.stderr[-2000:])

# %% [markdown]
# The command line does the same job end to end. Its check file comes from the MXNet side:
# `python -m sidebyside.mxreference` (the one companion that needs MXNet) runs the graph on
# random inputs and saves MXNet's outputs, every node's included. Then
# `python -m sidebyside.mx2torch`, under the same guard, translates, checks against that file
# in float64, and only then writes the state dict and the generated `model.py`:

# %% tags=["nbval-ignore-output"]
reference_run = subprocess.run(
    [sys.executable, "-m", "sidebyside.mxreference", "zoo-symbol.json", "zoo-0000.params",
     "--input", "data=2,3,64,64", "--out", "check64.npz", "--float64"],
    capture_output=True, text=True, cwd=WORK)
cli = GUARD + "from sidebyside.mx2torch.cli import main; sys.exit(main(sys.argv[1:]))"
cli_run = subprocess.run(
    [sys.executable, "-c", cli, "zoo-symbol.json", "zoo-0000.params", "--out", "model.pt",
     "--code", "model.py", "--check", "check64.npz", "--float64"],
    capture_output=True, text=True, cwd=WORK)
print(reference_run.stdout + cli_run.stdout + cli_run.stderr[-2000:])

# %%
assert run.returncode == 0 and "import mxnet: ModuleNotFoundError" in run.stdout
assert "mxnet modules loaded: []" in run.stdout
assert reference_run.returncode == 0 and cli_run.returncode == 0, cli_run.stderr
assert "all agree" in cli_run.stdout and "output 0 (2, 10)" in cli_run.stdout
assert (WORK / "model.pt").exists() and (WORK / "model.py").exists()
"translated, checked in float64 against MXNet node by node, and written: all with no mxnet"

# %% [markdown]
# In this project's environment MXNet is installed, hence the guard. The real thing is an
# environment with no MXNet at all, on numpy 2: `pip install -e '.[mx2torch]'` installs only
# numpy and torch beside the package, and `make test-nomxnet` builds such an environment
# pinned (`.venv-nomxnet`; the README says how) and runs the translator's tests in it.
#
# ## 4. The exported ResNet, translated and checked
#
# In the notebook, `codegen.translation` returns everything at once: `.module` (an
# `nn.Module` in eval mode, weights loaded), `.source` (the generated `model.py`: the module
# *is* compiled from it), `.state_dict`, `.inputs`, `.mx_names` (which MXNet parameter each
# PyTorch key came from) and `.notes` on semantics that differ. The start of the class and of
# its forward:

# %%
zoo = codegen.translation(*ZOO)
lines = zoo.source.splitlines()
init = lines.index("    def __init__(self):")
forward = next(i for i, line in enumerate(lines) if line.startswith("    def forward("))
print("\n".join(lines[init - 2:init + 7] + ["        ..."] + lines[forward:forward + 22]
                + ["        ..."]))

# %% [markdown]
# Plain PyTorch: `nn.Conv2d`, `nn.BatchNorm2d` with MXNet's `eps` as the float32 value MXNet
# computes with, the residual additions spelt out. As in torchvision's ResNets, each
# intermediate is deleted after its last use and a ReLU or a sum that nothing else reads is
# done in place (`relu_`, `add_`): the forward runs as fast as torchvision's
# (`make mx2torch-speed` measures it; the table is on the book's mx2torch page). The saved
# `model.py` is a file of its own: `Model()` plus `load_state_dict(torch.load("model.pt"))` is the whole deployment.
#
# The check, as [notebook 14](14_converting_models.ipynb) §1 does it, but against the graph
# MXNet itself runs (`mxreference.reference`, inference mode) on the same input — in float32,
# and in float64, where the only differences left are the order of the additions.

# %% tags=["nbval-ignore-output"]
x32 = rng.standard_normal((2, 3, 64, 64)).astype(np.float32)
x64 = x32.astype(np.float64)
mx_ref = {"float32": mxreference.reference(*ZOO, {"data": x32}),
          "float64": mxreference.reference(*ZOO, {"data": x64}, dtype="float64")}
with torch.no_grad():
    pt_out = {"float32": zoo.module.float()(torch.from_numpy(x32)).numpy(),
              "float64": zoo.module.double()(torch.from_numpy(x64)).numpy()}
mx_out = {dtype: ref["output0"] for dtype, ref in mx_ref.items()}
scale = np.abs(mx_out["float64"]).max()
gap = {dtype: np.abs(pt_out[dtype] - mx_out[dtype]).max() / scale for dtype in pt_out}
drift = {"PyTorch": np.abs(pt_out["float32"] - pt_out["float64"]).max() / scale,
         "MXNet": np.abs(mx_out["float32"] - mx_out["float64"]).max() / scale}
print(f"PyTorch vs MXNet, relative to max|output| = {scale:.2f}: float64 {gap['float64']:.1e}, "
      f"float32 {gap['float32']:.1e}; each framework's own float32 drift: PyTorch "
      f"{drift['PyTorch']:.1e}, MXNet {drift['MXNet']:.1e}")

# %%
assert pt_out["float64"].dtype == np.float64 and pt_out["float64"].shape == (2, 10)
assert gap["float64"] < 1e-10                        # measured about 1e-12: rounding only
assert gap["float32"] < 3 * max(drift.values())      # within float32's own rounding
assert 1e-9 < min(drift.values())                    # the yardstick is float32 drift indeed
"float64: equal to rounding; float32: as far apart as float32 is from float64 in either"

# %% [markdown]
# The output agreeing does not say much when it does *not*: 68 nodes deep, a wrong output
# could come from anywhere. `codegen.tapped` builds the same translation with a forward that
# also returns every node's output, and `report.compare_nodes` compares each with MXNet's
# (element by element, unsorted: a permutation is a failure), in graph order:

# %%
zoo_taps = codegen.tapped(zoo, *ZOO)
zoo_report = report.compare_nodes(zoo, zoo_taps, {"data": x64}, mx_ref["float64"],
                                  rtol=1e-10, atol=1e-13)
print(zoo_report.lines()[0])
[(row.node, row.op, row.shape) for row in zoo_report.rows[:4]]

# %% [markdown]
# Now a deliberately broken file: two output channels of one convolution in the second stage
# exchanged — the kind of mistake a hand-written conversion makes, and one that a check
# comparing sorted outputs would pass. The report names the node where the two part:

# %% tags=["nbval-ignore-output"]
broken = ndfile.load_params(ZOO[1])
weight = broken["arg:zoo_stage2_conv0_weight"]
broken["arg:zoo_stage2_conv0_weight"] = weight[[1, 0, *range(2, len(weight))]]
bad = codegen.translation(ZOO[0], broken)
bad_report = report.compare_nodes(bad, codegen.tapped(bad, ZOO[0], broken), {"data": x64},
                                  mx_ref["float64"], rtol=1e-10, atol=1e-13)
print("\n".join(bad_report.lines(around=2)))

# %%
assert zoo_report.ok and len(zoo_report.rows) == len(zoo.nodes) == 68
assert bad_report.first_failure.node == "zoo_stage2_conv0_fwd"
bad_at = bad_report.rows.index(bad_report.first_failure)
assert all(row.ok for row in bad_report.rows[:bad_at]) and bad_at > 10
assert bad_report.first_failure.max_abs_diff > 1e-3 * bad_report.first_failure.max_abs_ref
f"{len(zoo_report.rows)} nodes agree; the swapped channels are found at node {bad_at + 1}, " \
    "zoo_stage2_conv0_fwd, with every node before it correct"

# %% [markdown]
# ## 5. A Module checkpoint: the symbol API's defaults
#
# The symbol API's `BatchNorm` defaults differ from Gluon's and PyTorch's: `fix_gamma=True`
# (the stored gamma is *ignored*, as if it were 1) and `eps=1e-3`, which MXNet keeps as a
# float32 number. The file does not say any of this — only the graph's defaults do — so the
# translation reads them from the operator, not from the file. And `SoftmaxOutput` is a loss
# layer whose forward pass returns probabilities ([notebook 17](17_legacy_module_api.ipynb)
# §2): the translated module returns them too, and says so in its notes.

# %%
legacy = codegen.translation(*LEGACY)
print("\n".join(line.strip() for line in legacy.source.splitlines() if "bn1 =" in line))
legacy.notes

# %% [markdown]
# **MXNet**: the checkpoint loaded with `Module.load` and run with `predict`, MXNet's own way.

# %% tags=["mxnet"]
X_new = rng.standard_normal((6, 1, 8, 8)).astype(np.float32)
mx_loaded = mx.mod.Module.load(str(WORK / "legacy"), 2, context=mx.cpu())
mx_loaded.bind(data_shapes=[("data", X_new.shape)],
               label_shapes=[("softmax_label", (len(X_new),))], for_training=False)
mx_probs = mx_loaded.predict(mx.io.NDArrayIter(X_new, batch_size=6)).asnumpy()
mx_probs.shape

# %% [markdown]
# **PyTorch**: the translation, on the same images.

# %% tags=["pytorch"]
with torch.no_grad():
    pt_probs = legacy.module(torch.from_numpy(X_new)).numpy()
pt_probs.shape

# %% [markdown]
# And what the stored gamma of 3 would have done if it had been used:

# %%
stored_gamma = ndfile.load_params(LEGACY[1])["arg:bn1_gamma"]
with torch.no_grad():
    legacy.module.bn1.weight.fill_(3.0)
    pt_wrong = legacy.module(torch.from_numpy(X_new)).numpy()
    legacy.module.bn1.weight.fill_(1.0)
assert stored_gamma.tolist() == [3.0] * 4
assert torch.equal(legacy.module.bn1.weight, torch.ones(4))            # fix_gamma honoured
assert legacy.module.bn1.eps == float(np.float32(1e-3)) != 1e-3        # MXNet's float32 eps
assert np.allclose(pt_probs.sum(axis=1), 1.0, atol=1e-6)               # probabilities
assert np.abs(pt_probs - mx_probs).max() < 1e-6                        # = Module.predict
assert np.abs(pt_wrong - mx_probs).max() > 1e-2                        # gamma = 3 is wrong
assert any("fix_gamma=True" in note for note in legacy.notes)
"gamma ignored (fix_gamma=True), eps = float32(1e-3), rows sum to 1, equal to Module.predict"

# %% [markdown]
# ## 6. Resuming training from the optimizer state
#
# A `Trainer.save_states` file is a pickle of the optimizer and its per-parameter state.
# `optstate.load_trainer_states` reads it without MXNet and without running code from it
# (MXNet's classes become inert holders; anything else in the pickle is refused before it is
# called). `optstate.to_torch_optimizer` turns it into a PyTorch optimizer; it needs the
# translated module's parameters in the Trainer's order — the Trainer sorted
# `collect_params()` by name — which `codegen.trainer_parameters` gives. For Adam it returns
# `optstate.MXNetAdam`, MXNet's update rule as a `torch.optim.Optimizer`.

# %%
states = optstate.load_trainer_states(WORK / "small.states")
small = codegen.translation(*SMALL)
pt_opt = optstate.to_torch_optimizer(states, codegen.trainer_parameters(small))
(states.optimizer, type(pt_opt).__name__, states.num_update,
 {key: small.mx_names[key] for key in list(small.mx_names)[:2]})

# %% [markdown]
# **PyTorch**: the next three steps. `Trainer.step(BATCH)` multiplies every gradient by
# 1/BATCH; PyTorch has no such factor, so the loss carries it (exact for a power of two).

# %% tags=["pytorch"]
X_pt, Y_pt = torch.from_numpy(X_small), torch.from_numpy(Y_small)


def pt_steps(model, opt, n=3):
    after = []
    for _ in range(n):
        opt.zero_grad()
        loss = ((model(X_pt) - Y_pt) ** 2).sum() / BATCH
        loss.backward()
        opt.step()
        after.append({small.mx_names[k]: v.detach().numpy().copy()
                      for k, v in model.state_dict().items()})
    return after


pt_next = pt_steps(small.module, pt_opt)
len(pt_next)

# %% [markdown]
# **Gluon**: the same three steps, continuing the training that saved the state (§1).

# %% tags=["gluon"]
mx_next = []
for _ in range(3):
    mx_step()
    mx_next.append(mx_weights())
len(mx_next)

# %% [markdown]
# The weights after each step, compared in float64:

# %%
def resume_gap(after):
    return max(np.abs(a[name] - m[name]).max() / np.abs(m[name]).max()
               for a, m in zip(after, mx_next) for name in m)


exact_gap = resume_gap(pt_next)
sorted(mx_next[0])

# %% [markdown]
# And the same resume with plain `torch.optim.Adam`, given the same moments: PyTorch puts
# Adam's ε inside the bias correction, MXNet outside, so the steps differ from the first one
# ([notebook 8](08_optimizers_trainer.ipynb) §4 has the two rules).

# %% tags=["nbval-ignore-output"]
plain = codegen.translation(*SMALL)
plain_params = codegen.trainer_parameters(plain)
converted = optstate.to_torch_optimizer(states, plain_params)      # the moments at step 3
hp = states.hyperparameters
pt_adam = torch.optim.Adam(plain_params, lr=hp["lr"], betas=(hp["beta1"], hp["beta2"]),
                           eps=hp["epsilon"], weight_decay=hp["wd"])
for p in plain_params:
    pt_adam.state[p] = {k: v.float() if k == "step" else v.clone()
                        for k, v in converted.state[p].items()}
plain_gap = resume_gap(pt_steps(plain.module, pt_adam))
print(f"largest relative weight difference after 3 resumed steps: MXNetAdam {exact_gap:.1e}, "
      f"torch.optim.Adam {plain_gap:.1e}")

# %%
assert type(pt_opt).__name__ == "MXNetAdam" and states.num_update == 3
assert exact_gap < 1e-12                                   # MXNet's steps, to rounding
assert plain_gap > 1e-8 and plain_gap > 1e4 * exact_gap    # torch.optim.Adam: another rule
"the converted optimizer continues MXNet's training exactly; torch.optim.Adam does not"

# %% [markdown]
# ## 7. What it cannot do, and what it says
#
# The tool translates the operators listed by `python -m sidebyside.mx2torch --ops`, each with
# the attributes it honours (the book's [coverage page](../mx2torch.md) has the table, and
# which model-zoo networks pass). Anything else is refused before anything is written, with
# a message naming the operator, the node and the value (every one of them at once, when a
# graph has several). Three files to show it: the Module checkpoint's graph with a
# `boolean_mask` head added, the same graph with `Pooling(pool_type='lp')`, and a Gluon
# `save_parameters()` file of the ResNet.

# %%
probs = legacy_symbol()
sure = round(float(np.median(mx_probs.max(axis=1))), 2)       # half the rows pass it
mx.sym.contrib.boolean_mask(probs, mx.sym.max(probs, axis=1) > sure, name="confident").save(
    str(WORK / "confident-symbol.json"))
legacy_symbol(pool_type="lp").save(str(WORK / "lp-symbol.json"))
mx_zoo.save_parameters(str(WORK / "zoo-gluon.params"))
[name for name in ("confident-symbol.json", "lp-symbol.json", "zoo-gluon.params")
 if (WORK / name).exists()]

# %% [markdown]
# An operator with no translation: `boolean_mask`, a head that keeps the rows whose top class
# is surer than `sure` (how many rows come out depends on the data).

# %% tags=["raises-exception"]
with contextlib.chdir(WORK):            # relative names: no temporary folder in the message
    codegen.translation("confident-symbol.json", "legacy-0002.params")

# %% [markdown]
# Cut the graph before such a head and do that step in PyTorch: `outputs=` (the command
# line's `--outputs softmax`) translates the graph up to the softmax, and boolean indexing
# keeps the rows.

# %%
refused = {"operator": errors.catch(codegen.translation, WORK / "confident-symbol.json",
                                   LEGACY[1])}
cut_t = codegen.translation(WORK / "confident-symbol.json", LEGACY[1], outputs=["softmax"])
with torch.no_grad():
    pt_probs = cut_t.module(torch.from_numpy(X_new))
pt_sure = pt_probs[pt_probs.max(dim=1).values > sure]
mx_sure = mx_probs[mx_probs.max(axis=1) > sure]
assert refused["operator"].type == "UnsupportedOperator"
assert refused["operator"].line.startswith(
    "operator _contrib_boolean_mask (node 'confident') is not supported")
assert 0 < len(mx_sure) < len(mx_probs) and pt_sure.shape == mx_sure.shape
np.testing.assert_allclose(pt_sure.numpy(), mx_sure, rtol=1e-5, atol=1e-7)
print(refused["operator"].line)

# %% [markdown]
# An attribute value it does not translate: `Pooling` with `pool_type='lp'`.

# %% tags=["raises-exception"]
with contextlib.chdir(WORK):
    codegen.translation("lp-symbol.json", "legacy-0002.params")

# %% [markdown]
# Every attribute is checked against what the translation honours: a translator that fell
# back to max pooling would run, and be wrong on every input.

# %%
refused["attribute"] = errors.catch(codegen.translation, WORK / "lp-symbol.json", LEGACY[1])
assert refused["attribute"].type == "UnsupportedOperator"
assert "(node 'pool1'): pool_type='lp' is not supported" in refused["attribute"].line
print(refused["attribute"].line)

# %% [markdown]
# The wrong file: a Gluon `save_parameters()` file, given instead of the export's `.params`.

# %% tags=["raises-exception"]
with contextlib.chdir(WORK):
    codegen.translation("zoo-symbol.json", "zoo-gluon.params")

# %% [markdown]
# Its names are the network's attribute paths (`features.0.weight`), not the graph's
# variables: give the `-0000.params` file that `export()` wrote beside the symbol, or convert
# this one with `sidebyside.convert`, which builds the network from its Python class.
#
# The command line prints the same one line, exits with status 1 (bad input; 2 is for bad
# flags) and writes nothing:

# %%
refused["wrong file"] = errors.catch(codegen.translation, *ZOO[:1], WORK / "zoo-gluon.params")
cli_refused = subprocess.run(
    [sys.executable, "-m", "sidebyside.mx2torch", "zoo-symbol.json", "zoo-gluon.params",
     "--out", "zoo-gluon.pt"], capture_output=True, text=True, cwd=WORK)
print(errors.short(refused["wrong file"].line, WORK))
print(f"command line: exit {cli_refused.returncode}")

# %%
assert {f.type for f in refused.values()} == {"UnsupportedOperator"}
assert "is it a Gluon save_parameters() file?" in refused["wrong file"].line
assert cli_refused.returncode == 1 and cli_refused.stderr.count("\n") == 1
assert "is it a Gluon save_parameters() file?" in cli_refused.stderr
assert not (WORK / "zoo-gluon.pt").exists()
"each refusal is one line naming the operator, the value or the file; nothing is written"

# %% [markdown]
# ## Summary
#
# | | PyTorch | MXNet Gluon |
# |---|---|---|
# | read a `.params` file | `ndfile.load_params(path)` | `mx.nd.load(path)` |
# | write one | `ndfile.save_params(path, arrays)` | `mx.nd.save(path, arrays)` |
# | a symbol file + params as a model | `codegen.translate(symbol, params)` | `gluon.SymbolBlock.imports(symbol, ["data"], params)` |
# | the model's source | `codegen.translation(symbol, params).source` | `-symbol.json` |
# | every node's output | `codegen.tapped(t, symbol, params)` | `sym.get_internals()` |
# | compare node by node | `report.compare_nodes(t, tapped, inputs, ref)` | `mxreference.reference(symbol, params, inputs)` |
# | optimizer state | `optstate.to_torch_optimizer(optstate.load_trainer_states(path), codegen.trainer_parameters(t))` | `trainer.save_states(path)` |
# | Adam, MXNet's rule | `optstate.MXNetAdam(params, lr=0.001)` | `gluon.Trainer(params, "adam")` |
# | translate on the command line | `python -m sidebyside.mx2torch SYMBOL PARAMS --out model.pt --code model.py --check check.npz` | `python -m sidebyside.mxreference SYMBOL PARAMS --input data=1,3,224,224 --out check.npz` |
#
# - The translation needs numpy and torch only (§3); MXNet is needed once, where it still
#   runs, to make the reference outputs a translation is checked against.
# - Check in float64 against MXNet, node by node: a wrong weight is found at its layer (§4).
# - The graph's defaults matter as much as the file: `fix_gamma=True`, float32 `eps`,
#   `SoftmaxOutput` returning probabilities (§5).
# - Resume with the converted optimizer: `MXNetAdam`, not `torch.optim.Adam` (§6).
#
# Saving within each framework is [notebook 13](13_serialization.ipynb); converting when you
# can build the model on both sides is [notebook 14](14_converting_models.ipynb); porting the
# training script that made such files is capstone [notebook 16](16_capstone_mxnet_to_pytorch.ipynb).
#
# ## Exercises
#
# 1. List the arrays of the Module checkpoint's `.params` file with
#    `python -m sidebyside.mx2torch --read`. How many are there, and which are `aux:` arrays?
# 2. Break the exported ResNet another way: exchange two rows of the last layer's weight
#    (`arg:zoo_dense0_weight`). Which node does the report name first?
# 3. `torch.optim.Adam` would match MXNet's step `t` with `eps_torch = eps / sqrt(1 − β2^t)`.
#    Compute it for the next two steps of §6 (`t = 4, 5`): why can no single
#    `torch.optim.Adam(eps=…)` resume exactly?

# %% [markdown]
# :::{dropdown} Solutions
# 1. 8 arrays: six `arg:` (conv1 weight and bias, bn1 gamma and beta, fc1 weight and bias)
#    and two `aux:`, `aux:bn1_moving_mean` and `aux:bn1_moving_var` — the BatchNorm running
#    statistics, which the translation loads as `running_mean` and `running_var`.
# 2. `zoo_dense0_fwd`, the last node: every node before it agrees, and the first failure is
#    the layer whose weight was changed.
# 3. The ε torch would need grows smaller every step (`t = 4` and `t = 5` give two different
#    values, computed below), so a fixed `eps` matches at most one step; `optstate.MXNetAdam`
#    applies MXNet's rule instead.
# :::

# %% tags=["hide-cell"]
read = subprocess.run([sys.executable, "-m", "sidebyside.mx2torch", "--read",
                       "legacy-0002.params"], capture_output=True, text=True, cwd=WORK)
aux = sorted(line.split("\t")[0] for line in read.stdout.splitlines()
             if line.startswith("aux:"))
assert read.returncode == 0 and "8 arrays" in read.stdout
assert aux == ["aux:bn1_moving_mean", "aux:bn1_moving_var"]
"1. 8 arrays, two of them aux: (the BatchNorm running statistics)"

# %% tags=["hide-cell"]
rows = ndfile.load_params(ZOO[1])
rows["arg:zoo_dense0_weight"] = rows["arg:zoo_dense0_weight"][[1, 0, *range(2, 10)]]
rows_bad = codegen.translation(ZOO[0], rows)
rows_report = report.compare_nodes(rows_bad, codegen.tapped(rows_bad, ZOO[0], rows),
                                   {"data": x64}, mx_ref["float64"], rtol=1e-10, atol=1e-13)
assert rows_report.first_failure.node == "zoo_dense0_fwd" == rows_report.rows[-1].node
"2. zoo_dense0_fwd, the last node"

# %% tags=["hide-cell"]
beta2, eps = np.float32(hp["beta2"]), np.float32(hp["epsilon"])
eps_torch = {t: float(eps / np.sqrt(1 - beta2 ** t)) for t in (4, 5)}
assert eps_torch[4] > eps_torch[5] > float(eps)
folder.cleanup()
"3. a different eps for every step: no fixed torch.optim.Adam(eps=...) matches MXNet's rule"
