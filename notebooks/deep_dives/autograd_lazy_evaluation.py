# %% [markdown]
# # Deep dive · MXNet's lazy engine: clocks that stop early, errors that come late or never
#
# This page deepens [notebook 5](../05_autograd.ipynb) §6 (*Lazy evaluation*), which shows
# one matrix product timed before it exists and one error raised a line after its cause.
# Here: the same at the scale of a training loop (§1); which invalid calls raise at the
# call, at the sync point or never, and what a second read returns (§2); and
# `MXNET_ENGINE_TYPE=NaiveEngine`, which raises an error on the line that caused it and
# stops the clock only when the work is done (§3). **Time**: about 10 minutes.
#
# Timings depend on the machine and its load: they are printed for reading, in cells whose
# output nbval does not compare, and only a ratio with a wide margin is asserted.

# %% tags=["nbval-ignore-output"]
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time

import mxnet as mx
import numpy as np
import torch
from mxnet import autograd, gluon, nd

from sidebyside import devices, errors, seeding, table, threads

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
print(f"torch {torch.__version__} · mxnet {mx.__version__}")


# %% [markdown]
# ## 1. A training loop that never waits
#
# A loop that keeps its running loss as an `NDArray` (`total_loss += loss.mean()`, no
# `asscalar()`) never reaches a sync point: when it returns, most of its arithmetic is
# still queued, and a clock stopped there measures how fast work was *queued*. 20 steps of
# an MLP like [notebook 3](../03_mnist_mlp.ipynb)'s, with 1024 hidden units (batches of
# 512, in memory), on the CPU:

# %% tags=["nbval-ignore-output"]
loop_X = [nd.random.uniform(shape=(512, 784)) for _ in range(10)]
loop_y = [nd.array(np.arange(512) % 10) for _ in range(10)]
mx_net = gluon.nn.Sequential()
mx_net.add(gluon.nn.Dense(1024, activation="relu"), gluon.nn.Dense(10))
mx_net.initialize()
mx_trainer = gluon.Trainer(mx_net.collect_params(), "sgd", {"learning_rate": 0.1})
mx_loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
mx_net(loop_X[0])
mx.nd.waitall()

tic = time.perf_counter()
total_loss = nd.zeros((1,))
for step in range(20):
    with autograd.record():
        mx_loss = mx_loss_fn(mx_net(loop_X[step % 10]), loop_y[step % 10])
    mx_loss.backward()
    mx_trainer.step(512)
    total_loss += mx_loss.mean()                  # stays an NDArray: nothing waits
loop_returned = time.perf_counter() - tic
mx.nd.waitall()
loop_done = time.perf_counter() - tic
print(threads.current())
print(f"the loop returned after {loop_returned:.3f} s; the work was done after "
      f"{loop_done:.3f} s")

# %%
assert loop_returned < 0.5 * loop_done         # most of the work was still queued
assert np.isfinite(total_loss.asscalar())
"a clock stopped when the loop returned would have missed most of the work"

# %% [markdown]
# ## 2. Which errors wait, and which never come
#
# A survey of a few invalid calls: where each one is raised, if at all, and what a second
# read of the same array does after the error. `sidebyside.errors.where_raised` makes the
# call, waits for its result, and reads it a second time.

# %%
INVALID = {
    "dot, shapes (2,3)·(2,3)": lambda: nd.dot(nd.ones((2, 3)), nd.ones((2, 3))),
    "take index 7 of 5, mode='raise'":
        lambda: nd.take(nd.arange(5), nd.array([7]), mode="raise"),
    "mx.np fancy index 7 of 5":
        lambda: mx.np.arange(5)[mx.np.array([7], dtype="int64")],
    "gather_nd index 5 of 2":
        lambda: nd.gather_nd(nd.ones((2, 3)), nd.array([[5], [1]])),
    "linalg.potrf, not pos. definite":
        lambda: nd.linalg.potrf(nd.array([[1.0, 2.0], [2.0, 1.0]])),
    "linalg.inverse of zeros": lambda: nd.linalg.inverse(nd.zeros((2, 2))),
    "Embedding index 7 of 3":
        lambda: nd.Embedding(nd.array([7]), nd.ones((3, 2)),
                             input_dim=3, output_dim=2),
    "one_hot index 7 of 3": lambda: nd.one_hot(nd.array([7]), 3),
}
surfaced = {name: errors.where_raised(make) for name, make in INVALID.items()}
late_rows = [{"invalid call": name, "raised": s.where,
              "as": s.failure.type if s.failure else "no error",
              "2nd read": s.second_read or ""} for name, s in surfaced.items()]
table.show(late_rows)

# %% [markdown]
# **Check**: only the shape error is raised at the call. The value errors wait for the
# sync point, and a second read of the same array is then silent: it returns values
# nobody computed. `Embedding` and `one_hot` never complain about an index out of range
# (PyTorch's `nn.Embedding` raises an `IndexError`).

# %%
raised = {r["invalid call"]: r["raised"] for r in late_rows}
assert raised["dot, shapes (2,3)·(2,3)"] == "at the call"
WAITING = ("take index 7 of 5, mode='raise'", "mx.np fancy index 7 of 5",
           "gather_nd index 5 of 2", "linalg.potrf, not pos. definite",
           "linalg.inverse of zeros")
for name in WAITING:
    assert raised[name] == "at the sync point", name
    assert surfaced[name].second_read == "silent", name
assert raised["Embedding index 7 of 3"] == raised["one_hot index 7 of 3"] == "never"
pt_embedding_error = errors.catch(lambda: torch.nn.Embedding(3, 2)(torch.tensor([7])))
assert pt_embedding_error.type == "IndexError"
pt_embedding_error.line

# %% [markdown]
# ## 3. `MXNET_ENGINE_TYPE=NaiveEngine`: the line of the error, and the clock
#
# The naive engine runs every operator synchronously in the calling thread. It is chosen
# when MXNet is imported, so it needs a fresh process (or `export
# MXNET_ENGINE_TYPE=NaiveEngine` before starting Python or Jupyter). First, the error: the
# same six-line script, run with each engine.

# %%
SCRIPT = textwrap.dedent("""\
    import mxnet as mx
    data = mx.nd.arange(5)
    picked = mx.nd.take(data, mx.nd.array([7]), mode="raise")  # line 3: the bug
    scaled = picked * 2
    print("line 5 reached")
    print(scaled.asnumpy())                                    # line 6: a sync point
""")


def run_script(engine, script):
    """Run `script` in a fresh Python, with MXNET_ENGINE_TYPE=engine (None: the default)."""
    env = {k: v for k, v in os.environ.items() if k != "MXNET_ENGINE_TYPE"}
    if engine:
        env["MXNET_ENGINE_TYPE"] = engine
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bug.py")
        with open(path, "w") as f:
            f.write(script)
        return subprocess.run([sys.executable, path], env=env, capture_output=True,
                              text=True, timeout=300)


def where_it_failed(proc):
    lines = re.findall(r'File ".*bug\.py", line (\d+)', proc.stderr)
    return {"error at line": int(lines[-1]) if lines else None,
            "line 5 reached": "line 5 reached" in proc.stdout,
            "error": proc.stderr.strip().splitlines()[-1].split(": ")[-1]}


ENGINES = {"default (threaded)": None, "NaiveEngine": "NaiveEngine"}
engines = {label: where_it_failed(run_script(engine, SCRIPT))
           for label, engine in ENGINES.items()}
engines

# %%
assert engines["default (threaded)"]["error at line"] == 6
assert engines["default (threaded)"]["line 5 reached"]
assert engines["NaiveEngine"]["error at line"] == 3
assert not engines["NaiveEngine"]["line 5 reached"]
assert all(e["error"] == "take operator contains indices out of bound"
           for e in engines.values())

# %% [markdown]
# Then the clock: [notebook 5](../05_autograd.ipynb) §6's stopwatch, a 2000×2000 `nd.dot`
# timed when the call returns and when the product exists, again in a fresh process with
# each engine:

# %% tags=["nbval-ignore-output"]
STOPWATCH = textwrap.dedent("""\
    import json, time
    import mxnet as mx
    big = mx.nd.random.uniform(shape=(2000, 2000))
    big.wait_to_read()
    start = time.perf_counter()
    product = mx.nd.dot(big, big)
    returned = time.perf_counter() - start
    product.wait_to_read()
    print(json.dumps({"returned": returned, "existed": time.perf_counter() - start}))
""")
stopwatch = {}
for label, engine in ENGINES.items():
    proc = run_script(engine, STOPWATCH)
    assert proc.returncode == 0, proc.stderr
    stopwatch[label] = json.loads(proc.stdout)
    print(f"{label:20} nd.dot returned after {stopwatch[label]['returned'] * 1e3:8.2f} ms, "
          f"the product existed after {stopwatch[label]['existed'] * 1e3:8.2f} ms")

# %% [markdown]
# **Check**: with the default engine the call returns after a small part of the work (the
# launch); with `NaiveEngine` it returns only when the product exists, as a PyTorch CPU
# call does.

# %%
assert stopwatch["default (threaded)"]["returned"] < 0.1 * stopwatch["default (threaded)"][
    "existed"]
assert stopwatch["NaiveEngine"]["returned"] > 0.5 * stopwatch["NaiveEngine"]["existed"]
"NaiveEngine: nd.dot returns when the product exists; the default engine after the launch"

# %% [markdown]
# ## What this means for a port
#
# - Time MXNet code only after a sync point (`mx.nd.waitall()`, or
#   `sidebyside.timing.measure`, which waits): a loop that keeps its loss as an `NDArray`
#   returns long before its work is done.
# - A PyTorch port raises an index error where the MXNet original clipped silently
#   (`Embedding`, `one_hot`), and the MXNet original raises a value error at the next sync
#   point, once: a loop that catches it and reads on gets values nobody computed.
# - `MXNET_ENGINE_TYPE=NaiveEngine` makes MXNet synchronous: run a failing script with it
#   to find the line of the error; time with the default engine, which the code will run
#   with.
