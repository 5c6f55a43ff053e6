# %% [markdown]
# # Deep dive · Truncated BPTT: what `detach()` cuts, and why Gluon forgives forgetting it
#
# This page deepens [notebook 20](../20_sequence_models.ipynb) §4 (*Truncated
# backpropagation through time*), whose rule is: the hidden state carried from one window to
# the next is cut off first —
# `hidden = tuple(h.detach() for h in hidden)` in PyTorch, `hidden = [h.detach() for h in
# hidden]` in Gluon. Forgetting it makes PyTorch's second `backward()` raise, while Gluon
# computes the same gradients as with `detach()` and says nothing. Here: the batches of a
# language-model loop (§1) and the row shift of the `IntervalSampler` route (§2); the loop
# with and without `detach()` in both frameworks, against the truncated and the full
# gradient (§3); why Gluon forgives it — `backward()` frees the recorded graph, so the old
# hidden state becomes a constant (§4); and which gradient each way of writing the loop
# computes: one `record()` scope or several, `backward()` between the windows or not,
# `retain_graph=True` (§5). The model is a tiny LSTM language model, float64, on a corpus
# of consecutive integers, so that every token is its own word. **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import json
from collections import Counter

import mxnet as mx
import numpy as np
import torch
import torch.nn.functional as F
from mxnet import autograd, gluon, nd

from sidebyside import devices, errors, seeding, transfer

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
TOKENS, BATCH, BPTT = 27, 2, 5        # the corpus 0, 1, ..., 26; two streams; windows of 5
EMBED, HIDDEN = 3, 4
print(f"torch {torch.__version__} · mxnet {mx.__version__}")

# %% [markdown]
# ## 1. The batches: `batchify` and `get_batch`
#
# The word-language-model examples of both frameworks cut the corpus into `BATCH` streams,
# one per column, and walk down them `BPTT` rows at a time. `batchify` drops the tokens that
# do not fill a row.
#
# **PyTorch**: `view` row-major into `BATCH` rows, then transpose so that a stream is a
# column:

# %% tags=["pytorch"]
def pt_batchify(tokens, batch_size):
    rows = tokens.numel() // batch_size
    return tokens[:rows * batch_size].view(batch_size, rows).t().contiguous()


pt_source = pt_batchify(torch.arange(TOKENS, device=pt_dev), BATCH)
pt_source.t().tolist()

# %% [markdown]
# **Gluon**: the same with `reshape` and `.T` (an `NDArray` has no `view`):

# %% tags=["gluon"]
def mx_batchify(tokens, batch_size):
    rows = tokens.shape[0] // batch_size
    return tokens[:rows * batch_size].reshape((batch_size, rows)).T


mx_source = mx_batchify(nd.arange(TOKENS, ctx=mx_ctx), BATCH)
mx_source.T.asnumpy().astype(int).tolist()

# %% [markdown]
# `get_batch` takes the window that starts at row `i` and its targets, the same window one
# row further down; the last window is shorter when the rows run out. Slicing and `reshape`
# read alike on both sides, so one function serves both.
#
# **Check**: token 26 was dropped; each column is one stretch of the corpus; the windows
# start at rows 0, 5, 10 and the last is 2 rows long; each target is its input plus one.

# %%
def get_batch(source, i, bptt=BPTT):
    length = min(bptt, len(source) - 1 - i)
    return source[i:i + length], source[i + 1:i + 1 + length].reshape((-1,))


STARTS = list(range(0, len(pt_source) - 1, BPTT))
windows = {"PyTorch": [get_batch(pt_source, i) for i in STARTS],
           "Gluon": [get_batch(mx_source, i) for i in STARTS]}
as_int = {"PyTorch": lambda t: t.cpu().numpy(), "Gluon": lambda a: a.asnumpy().astype(int)}
for name, pairs in windows.items():
    for data, target in pairs:
        data, target = as_int[name](data), as_int[name](target)
        np.testing.assert_array_equal(target, data.reshape(-1) + 1)
    assert [len(data) for data, _ in pairs] == [5, 5, 2], name
np.testing.assert_array_equal(pt_source.cpu().numpy(), mx_source.asnumpy())
assert pt_source.t().tolist() == [list(range(0, 13)), list(range(13, 26))]
{"window starts": STARTS, "last window, inputs": windows["PyTorch"][-1][0].t().tolist()}

# %% [markdown]
# ## 2. The `IntervalSampler` route, and its row shift
#
# MXNet's Gluon word-language-model example (`example/gluon/word_language_model/train.py`,
# 1.9.1) batches differently: `contrib.data.text.WikiText2(seq_len=bptt)` cuts the corpus
# into segments of `bptt` tokens, and a `DataLoader` with
# `contrib.data.IntervalSampler(len(dataset), len(dataset) // batch_size)` and
# `last_batch='discard'` picks segments `0, k, 2k, …` for the first batch, `1, 1 + k, …` for
# the next, so that row `r` of every batch continues row `r` of the one before. That holds
# only when the number of segments `N` is a multiple of the batch size: otherwise the first
# lane of the sampler has one segment more, and from that batch on every stream has moved
# one row. Below, a sampler written here (it yields the same indices as MXNet's: the check
# compares them), segments of 2 tokens, batches of 4, and a helper that counts the rows of
# each batch that continue the row above.

# %%
class IntervalSampler:
    """0, k, 2k, ... < length, then 1, 1 + k, ...: every index once, lane after lane."""

    def __init__(self, length, interval):
        if not 0 < interval <= length:
            raise ValueError(f"interval must be in [1, length={length}], got {interval}")
        self.length, self.interval = length, interval

    def __iter__(self):
        for lane in range(self.interval):
            yield from range(lane, self.length, self.interval)

    def __len__(self):
        return self.length


SEG, ROWS = 2, 4                                 # tokens per segment, segments per batch


def segments(count):
    """`count` segments of SEG consecutive tokens: WikiText2(seq_len=SEG)'s inputs."""
    return np.arange(count * SEG, dtype=np.int64).reshape(count, SEG)


def continuing_rows(batches):
    """For each batch after the first: how many rows start where the row above ended."""
    return [int((b[:, 0] == a[:, -1] + 1).sum()) for a, b in zip(batches, batches[1:])]


for length, interval in [(13, 3), (12, 3), (10, 4)]:
    assert list(IntervalSampler(length, interval)) == list(
        gluon.contrib.data.IntervalSampler(length, interval))

# %% [markdown]
# **PyTorch**: a `DataLoader` takes the sampler as it is (`drop_last=True` for `'discard'`):

# %% tags=["pytorch"]
def pt_batches(count):
    data = torch.utils.data.TensorDataset(torch.from_numpy(segments(count)))
    loader = torch.utils.data.DataLoader(
        data, batch_size=ROWS, sampler=IntervalSampler(count, count // ROWS), drop_last=True)
    return [batch.numpy() for (batch,) in loader]


pt_batches(13)[1].tolist()

# %% [markdown]
# **Gluon**: the same loader, as the example writes it:

# %% tags=["gluon"]
def mx_batches(count):
    data = gluon.data.ArrayDataset(segments(count))
    loader = gluon.data.DataLoader(data, batch_size=ROWS, last_batch="discard",
                                   sampler=IntervalSampler(count, count // ROWS))
    return [batch.asnumpy().astype(np.int64) for batch in loader]


mx_batches(13)[1].tolist()

# %% [markdown]
# **Check**: with 12 segments every row of every batch continues the row above. With 13,
# the second batch is segments `12, 1, 4, 7`: no row continues (row 1 carries the state of
# segment 3 into segment 1, row 0 that of segment 0 into segment 12), and from then on the
# streams run one row lower; segment 11 is discarded. Trimming the dataset to a multiple of
# the batch size before sampling (`IntervalSampler(N // B * B, N // B)`) mends it;
# `batchify` in §1 never shifts, because it trims the tokens first.

# %%
shift = {}
for count in (12, 13):
    pt_b, mx_b = pt_batches(count), mx_batches(count)
    assert len(pt_b) == len(mx_b) == 3
    for a, b in zip(pt_b, mx_b):
        np.testing.assert_array_equal(a, b)
    shift[f"{count} segments"] = continuing_rows(pt_b)
mended = IntervalSampler(13 // ROWS * ROWS, 13 // ROWS)
mended_batches = [segments(13)[list(mended)[i:i + ROWS]] for i in range(0, 12, ROWS)]
shift["13 segments, trimmed to 12"] = continuing_rows(mended_batches)
assert shift == {"12 segments": [4, 4], "13 segments": [0, 3],
                 "13 segments, trimmed to 12": [4, 4]}
assert (pt_batches(13)[1][:, 0] // SEG).tolist() == [12, 1, 4, 7]
shift

# %% [markdown]
# ## 3. The loop, with and without `detach()`
#
# The model: an embedding of the 27 tokens, a one-layer LSTM, a linear decoder. The Gluon
# copy gets PyTorch's weights (`transfer.torch_to_gluon`), both in float64, so that both
# frameworks compute the same numbers and each gradient can be named by what it equals.

# %% tags=["pytorch"]
class PtLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = torch.nn.Embedding(TOKENS, EMBED)
        self.lstm = torch.nn.LSTM(EMBED, HIDDEN)
        self.decoder = torch.nn.Linear(HIDDEN, TOKENS)

    def forward(self, data, hidden):
        out, hidden = self.lstm(self.embedding(data), hidden)
        return self.decoder(out), hidden


pt_net = PtLM().double().to(pt_dev)

# %% tags=["gluon"]
class MxLM(gluon.Block):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.embedding = gluon.nn.Embedding(TOKENS, EMBED)
            self.lstm = gluon.rnn.LSTM(HIDDEN, input_size=EMBED)
            self.decoder = gluon.nn.Dense(TOKENS, in_units=HIDDEN, flatten=False)

    def forward(self, data, hidden):
        out, hidden = self.lstm(self.embedding(data), hidden)
        return self.decoder(out), hidden


mx_net = MxLM()
mx_net.initialize(ctx=mx_ctx)
mx_net.cast("float64")
transfer.torch_to_gluon(pt_net, mx_net)

# %% [markdown]
# Two reference gradients of window `k`'s loss, both computed in PyTorch with no loop to
# get wrong: the **truncated** one (the state entering window `k` computed under
# `no_grad()`, a constant) and the **full** one (windows `0 … k` in one graph, the
# untruncated gradient of that loss). `classify` names the reference a set of gradients
# equals (float64, within 1e-12), and `reached` lists the embedding rows with a nonzero
# gradient: the input tokens the gradient flowed back to. The loops below compute each
# window's gradients and no optimizer step, so that the weights — and the references —
# stay the same.

# %%
PARAMS = list(zip((name for name, _ in pt_net.named_parameters()),
                  mx_net.collect_params().values()))
assert all(p.shape == tuple(dict(pt_net.named_parameters())[n].shape) for n, p in PARAMS)


def pt_state():
    return tuple(torch.zeros(1, BATCH, HIDDEN, dtype=torch.float64, device=pt_dev)
                 for _ in range(2))


def pt_grads():
    return {name: p.grad.cpu().numpy().copy() for name, p in pt_net.named_parameters()}


def mx_grads():
    return {name: p.grad().asnumpy().copy() for name, p in PARAMS}


def pt_reference(k, full):
    pt_net.zero_grad()
    hidden = pt_state()
    with torch.set_grad_enabled(full):
        for i in STARTS[:k]:
            _, hidden = pt_net(get_batch(pt_source, i)[0], hidden)
    data, target = get_batch(pt_source, STARTS[k])
    out, _ = pt_net(data, hidden)
    F.cross_entropy(out.reshape(-1, TOKENS), target).backward()
    return pt_grads()


REFERENCE = [{"truncated": pt_reference(k, False), "full": pt_reference(k, True)}
             for k in range(len(STARTS))]


def gap(a, b):
    return max(float(np.abs(a[name] - b[name]).max()) for name in a)


def classify(grads, k):
    found = [kind for kind, ref in REFERENCE[k].items() if gap(grads, ref) <= 1e-12]
    return "truncated = full" if len(found) == 2 else (found[0] if found else "neither")


def reached(grads):
    return np.flatnonzero(np.abs(grads["embedding.weight"]).sum(axis=1)).tolist()


def spans(tokens):
    """[0, 1, 2, 5, 6] -> '0-2, 5-6'."""
    runs = []
    for t in tokens:
        if runs and t == runs[-1][1] + 1:
            runs[-1][1] = t
        else:
            runs.append([t, t])
    return ", ".join(f"{a}-{b}" for a, b in runs)


# %% [markdown]
# **PyTorch**: the loop of the word-language-model example, without the optimizer step.
# `retain_graph=True` is the other way to silence the error of forgetting `detach()`:

# %% tags=["pytorch"]
def pt_loop(detach, retain_graph=False, done=None):
    hidden, out_grads = pt_state(), []
    for i in STARTS:
        data, target = get_batch(pt_source, i)
        if detach:
            hidden = tuple(h.detach() for h in hidden)
        pt_net.zero_grad()
        out, hidden = pt_net(data, hidden)
        loss = F.cross_entropy(out.reshape(-1, TOKENS), target)
        loss.backward(retain_graph=retain_graph)
        out_grads.append(pt_grads())
        if done is not None:
            done.append(i)            # the windows whose backward() went through
    return out_grads


pt_runs = {"detach": pt_loop(True), "no detach, retain_graph=True": pt_loop(False, True)}

# %% [markdown]
# **Gluon**: the same loop; each window is recorded in its own `record()` scope, and
# `backward()` is called after it (`grad_req='write'` overwrites the gradients):

# %% tags=["gluon"]
def mx_state():
    return mx_net.lstm.begin_state(batch_size=BATCH, func=nd.zeros, ctx=mx_ctx,
                                   dtype="float64")


def mx_loop(detach, retain_graph=False):
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    hidden, out_grads = mx_state(), []
    for i in STARTS:
        data, target = get_batch(mx_source, i)
        if detach:
            hidden = [h.detach() for h in hidden]
        with autograd.record():
            out, hidden = mx_net(data, hidden)
            loss = loss_fn(out.reshape((-1, TOKENS)), target).mean()
        loss.backward(retain_graph=retain_graph)
        out_grads.append(mx_grads())
    return out_grads


mx_runs = {"detach": mx_loop(True), "no detach": mx_loop(False)}

# %% [markdown]
# Without `detach()` and without `retain_graph`, PyTorch's second `backward()` raises:

# %% tags=["raises-exception"]
pt_loop(False)

# %% [markdown]
# **Check**: PyTorch's detached loop computes the truncated gradients, and forgetting
# `detach()` raises at the second window. With `retain_graph=True` instead, it runs and
# computes the *full* gradient of each window's loss, back to the start of the corpus: a
# different one (from the second window on, the two references differ by more than 1e-3),
# reaching the embeddings of every earlier token. Gluon's loop computes the truncated
# gradients with or without `detach()`, bit for bit the same.

# %%
windows_done = []
failure = errors.catch(pt_loop, False, done=windows_done, expect=RuntimeError)
assert failure.line.startswith("Trying to backward through the graph a second time")
assert windows_done == [0]                             # raised in the second window
for k in range(1, len(STARTS)):
    assert gap(REFERENCE[k]["truncated"], REFERENCE[k]["full"]) > 1e-3
rows = {}
for runs, name in ((pt_runs, "PyTorch"), (mx_runs, "Gluon")):
    for variant, per_window in runs.items():
        rows[f"{name}, {variant}"] = [classify(g, k) for k, g in enumerate(per_window)]
        for g, g_detached in zip(per_window, runs["detach"]):
            if variant == "no detach" and name == "Gluon":
                assert gap(g, g_detached) == 0.0           # the same computation
assert rows == {
    "PyTorch, detach": ["truncated = full", "truncated", "truncated"],
    "PyTorch, no detach, retain_graph=True": ["truncated = full", "full", "full"],
    "Gluon, detach": ["truncated = full", "truncated", "truncated"],
    "Gluon, no detach": ["truncated = full", "truncated", "truncated"]}
assert reached(pt_runs["no detach, retain_graph=True"][2]) == list(range(12)) + list(
    range(13, 25))
assert reached(mx_runs["no detach"][2]) == [10, 11, 23, 24]
rows["third window reaches tokens, Gluon no detach"] = spans(reached(mx_runs["no detach"][2]))
rows["third window reaches tokens, PyTorch retain_graph"] = spans(
    reached(pt_runs["no detach, retain_graph=True"][2]))
rows

# %% tags=["nbval-ignore-output"]
# the gaps behind those names (float64): a loop against the reference it matched, and the
# two references against each other in the last window
measured = {
    "Gluon detach vs truncated": max(gap(g, REFERENCE[k]["truncated"])
                                     for k, g in enumerate(mx_runs["detach"])),
    "PyTorch retain_graph vs full": max(gap(g, REFERENCE[k]["full"]) for k, g in
                                        enumerate(pt_runs["no detach, retain_graph=True"])),
    "truncated vs full, last window": gap(REFERENCE[2]["truncated"], REFERENCE[2]["full"])}
assert measured["Gluon detach vs truncated"] <= 1e-12
assert measured["PyTorch retain_graph vs full"] <= 1e-12
assert measured["truncated vs full, last window"] > 1e-3
{name: f"{value:.2g}" for name, value in measured.items()}

# %% [markdown]
# ## 4. Why Gluon says nothing: `backward()` frees the graph
#
# In MXNet the graph is not kept by the `record()` scope but by the arrays: every array a
# recorded operator writes points to its node, and the node to its inputs'
# (`Imperative::RecordOp` in `src/imperative/imperative.cc`, 1.9.1). A later scope that
# uses the array simply links to that node, so the history continues. What ends it is
# `backward()`: at the end of `Imperative::Backward`, in the block commented `// Clear
# history` and guarded by `if (!retain_graph)`, every node of the graph just
# differentiated is visited and `AGInfo::Clear(n)` empties it (skipping the variables marked
# with `attach_grad`), and its inputs are dropped. An array whose node is empty is *not in a graph*
# (`AGInfo::IsNone`), and when it meets a recorded operator again, `RecordOp` gives it a
# fresh variable node: a constant, as `detach()` would have made it. `retain_graph=False`
# is the default of `NDArray.backward` and `autograd.backward` (their docstrings in
# python/mxnet/ndarray/ndarray.py and python/mxnet/autograd.py: by default the history is
# cleared). PyTorch also frees what backward needed (the saved tensors) but keeps the
# graph's nodes, so a second pass through them finds the tensors gone and raises.
#
# `autograd.get_symbol(array)` shows an array's recorded history. Below, the LSTM's hidden
# state after one window, after two (no `backward()` between), and after a `backward()`;
# then the same reduced to two numbers: `y = x·w` recorded, then `z = y²` recorded in a new
# scope. Without a `backward()` between, `z.backward()` reaches `x` (`dz/dx = 2·x·w² = 36`
# at `x = 2, w = 3`). With `y.backward()` between, `y` is a constant: `z = y²` depends on no
# variable, so it is not even recorded, and `z.backward()` raises the "no graph" error of
# [notebook 5](../05_autograd.ipynb) §1.
#
# **Check**: the hidden state's history holds both windows' LSTM until a `backward()`, and
# nothing after one; `x` gets its gradient only without the `backward()` between.

# %%
def recorded_ops(array):
    """The operators in an array's recorded history (MXNet's autograd.get_symbol)."""
    nodes = json.loads(autograd.get_symbol(array).tojson())["nodes"]
    return dict(Counter(node["op"] for node in nodes if node["op"] in ("RNN", "Embedding")))


def scalar_case(backward_between):
    x, w = nd.array([2.0], ctx=mx_ctx), nd.array([3.0], ctx=mx_ctx)
    x.attach_grad()
    w.attach_grad()
    with autograd.record():
        y = x * w
    if backward_between:
        y.backward()
    with autograd.record():
        z = y * y
    return z, x


mx_loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
history = {}
mx_hidden = mx_state()
with autograd.record():
    mx_out, mx_hidden = mx_net(get_batch(mx_source, 0)[0], mx_hidden)
history["LSTM state after window 0"] = recorded_ops(mx_hidden[0])
with autograd.record():
    mx_out, mx_hidden = mx_net(get_batch(mx_source, 5)[0], mx_hidden)
    mx_loss = mx_loss_fn(mx_out.reshape((-1, TOKENS)), get_batch(mx_source, 5)[1]).mean()
history["after window 1, no backward between"] = recorded_ops(mx_hidden[0])
mx_loss.backward()
history["after backward"] = errors.catch(autograd.get_symbol, mx_hidden[0]).reason
mx_z, mx_x = scalar_case(backward_between=False)
mx_z.backward()
history["y = x*w, z = y*y: no backward between, dz/dx"] = mx_x.grad.asnumpy().tolist()
mx_z_freed, _ = scalar_case(backward_between=True)
history["y.backward() between, z.backward()"] = errors.catch(mx_z_freed.backward).reason

assert history["LSTM state after window 0"] == {"Embedding": 1, "RNN": 1}
assert history["after window 1, no backward between"] == {"Embedding": 2, "RNN": 2}
assert history["after backward"] == "NDArray is not part of a computation graph"
assert history["y = x*w, z = y*y: no backward between, dz/dx"] == [36.0]
assert history["y.backward() between, z.backward()"] == (
    "Cannot differentiate node because it is not in a computational graph")
history

# %% [markdown]
# ## 5. One scope or several, `backward()` or not, `retain_graph`: which gradient?
#
# So the scope does not decide what the gradient reaches; the `backward()` calls do. Five
# ways to write three windows in Gluon, each classified against §3's references for the
# last window: one `record()` scope around all three with one `backward()` at the end; a
# scope per window with one `backward()` at the end (the windows before were recorded and
# never differentiated, as in an evaluation pass run under `record()`); one scope with a
# `backward()` after each window inside it (the MXNet example calls `L.backward()` inside
# its scope); a scope and a `backward()` per window (§3's loop); and the same with
# `retain_graph=True` (which keeps the graph, like PyTorch's).

# %% tags=["gluon"]
def mx_variant(one_scope, backward_each, retain_graph=False):
    hidden = mx_state()
    outer = autograd.record() if one_scope else contextlib.nullcontext()
    with outer:
        for i in STARTS:
            data, target = get_batch(mx_source, i)
            with contextlib.nullcontext() if one_scope else autograd.record():
                out, hidden = mx_net(data, hidden)
                loss = mx_loss_fn(out.reshape((-1, TOKENS)), target).mean()
            if backward_each or i == STARTS[-1]:
                loss.backward(retain_graph=retain_graph)
    return mx_grads()


mx_variants = {
    "one scope, backward at the end": mx_variant(True, False),
    "a scope per window, backward at the end": mx_variant(False, False),
    "one scope, backward after each window": mx_variant(True, True),
    "a scope per window, backward after each": mx_variant(False, True),
    "a scope per window, backward after each, retain_graph=True":
        mx_variant(False, True, retain_graph=True)}
mx_named = {variant: classify(g, 2) for variant, g in mx_variants.items()}
mx_named

# %% [markdown]
# **PyTorch** has the same two outcomes — full without a cut, truncated with `detach()` —
# plus one trap: `retain_graph=True` with an optimizer step between the windows raises,
# because the step changed weights that window 0's graph saved (PyTorch checks a version
# counter; MXNet keeps no such counter).

# %% tags=["pytorch"]
def pt_loop_with_step():
    pt_step_net = PtLM().double().to(pt_dev)
    pt_opt = torch.optim.SGD(pt_step_net.parameters(), lr=0.1)
    hidden = pt_state()
    for i in STARTS:
        data, target = get_batch(pt_source, i)
        pt_opt.zero_grad()
        out, hidden = pt_step_net(data, hidden)
        F.cross_entropy(out.reshape(-1, TOKENS), target).backward(retain_graph=True)
        pt_opt.step()


stepped = errors.catch(pt_loop_with_step, expect=RuntimeError)
stepped.line.split(":")[0]

# %% [markdown]
# **Check**: without a `backward()` between the windows — whatever the scopes — the
# gradient is the full one; with a `backward()` after each window it is the truncated one,
# in one scope as in several; `retain_graph=True` brings back the full one. §3 showed the
# full gradient differs from the truncated one.

# %%
assert mx_named == {
    "one scope, backward at the end": "full",
    "a scope per window, backward at the end": "full",
    "one scope, backward after each window": "truncated",
    "a scope per window, backward after each": "truncated",
    "a scope per window, backward after each, retain_graph=True": "full"}
assert stepped.line.startswith("one of the variables needed for gradient computation has "
                               "been modified by an inplace operation")
"the backward() calls decide: each one cuts the history behind it, unless retain_graph=True"

# %% [markdown]
# ## What this means for a port
#
# - **Gluon → PyTorch**: the `hidden = detach(hidden)` line must come along. Gluon code
#   that forgot it ran with the right, truncated gradients, because each `backward()` freed
#   the graph and left the hidden state a constant (§4); in PyTorch the same loop raises
#   *Trying to backward through the graph a second time* at the second window (§3). The
#   fix is `hidden = tuple(h.detach() for h in hidden)` (a GRU/RNN: `hidden.detach()`),
#   never `retain_graph=True`: that computes the full gradient back to the start of the
#   epoch, a different one, costs a backward pass through every earlier window, and raises
#   anyway once an optimizer step changed the weights (§5).
# - **PyTorch → Gluon**: keep `[h.detach() for h in hidden]` — it costs nothing, and Gluon
#   truncates without it *only* while a `backward()` follows every window. Code that runs
#   windows under `record()` without a backward (gradient accumulation over several
#   windows, an evaluation pass left inside `record()`) carries the history on: the
#   gradient then reaches back into those windows (§5).
# - What cuts in MXNet is `backward()`, not the end of a `record()` scope; the scope only
#   switches recording on. For the other scope rules (a `pause()` result is a constant in
#   a later `record()`, scopes are per thread) see
#   [scopes in detail](autograd_scopes.ipynb).
# - Batching: `batchify` + `get_batch` keep every stream in its column. The
#   `IntervalSampler` route keeps them in their rows only when the number of segments is a
#   multiple of the batch size; otherwise trim the dataset first (§2), or the hidden states
#   are carried into the wrong streams once per epoch.
