# %% [markdown]
# # 18 · Legacy MXNet data: mx.io iterators and RecordIO
#
# Scripts written for MXNet's Module API, and many Gluon scripts after them, read their data
# through `mx.io`'s iterators, often from RecordIO files (`.rec` + `.idx`). A port replaces
# both, and the data files must stay readable once MXNet is gone.
#
# **What you will learn**
#
# - `mx.io.NDArrayIter`, `MNISTIter` and `DataLoaderIter` next to `TensorDataset` +
#   `DataLoader`: `DataBatch`, the padded last batch (and why metrics must skip it),
#   `reset()`, `MNISTIter`'s /256 scaling and the arguments it silently ignores;
# - RecordIO files written by MXNet and by `im2rec.py`, read by MXNet's three readers and by
#   `sidebyside.recordio` — pure Python, no MXNet — into a PyTorch `DataLoader`;
# - the `transform=` trap: Gluon's datasets call it with `(data, label)`, torchvision's with
#   the image alone.
#
# **Prerequisites**: [notebook 4](04_data_loading.ipynb) (`DataLoader` on both sides);
# metrics are [notebook 11](11_metrics.ipynb). **Time**: about 30 minutes.

# %% tags=["nbval-ignore-output"]
import inspect
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
import torchvision
import torchvision.transforms as T
from mxnet import gluon
from PIL import Image
from torch.utils.data import DataLoader, RandomSampler, TensorDataset

from sidebyside import data, devices, errors, imagefolder, recordio, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
ROOT = data.data_root()                      # absolute: the folder changes below
RAW = data.raw_dir()                         # the IDX files, uncompressed
fm_test = data.torch_dataset(root=ROOT, train=False)
folder = tempfile.TemporaryDirectory()
os.chdir(folder.name)                        # every file below is written here
print(f"torch {torch.__version__} · torchvision {torchvision.__version__} · "
      f"mxnet {mx.__version__}")

# %% [markdown]
# ## 1. `mx.io.NDArrayIter` ↔ `TensorDataset` + `DataLoader`
#
# Ten samples of two features, batches of four. Sample *i* is `[2i, 2i+1]` with label *i*,
# so every batch shows which samples it holds.
#
# **PyTorch**: a dataset of tensors and a loader; a batch is a plain tuple.

# %% tags=["pytorch"]
X = np.arange(20, dtype=np.float32).reshape(10, 2)
y = np.arange(10, dtype=np.float32)
pt_ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
pt_loader = DataLoader(pt_ds, batch_size=4)
[yb.int().tolist() for _, yb in pt_loader]

# %% [markdown]
# **MXNet**: the iterator announces its batches' names and shapes (`provide_data`,
# `provide_label`: the Module API binds its network to them) and yields `DataBatch`es —
# lists of arrays, plus `pad` and `index`. The label is called `softmax_label`, the name
# `SoftmaxOutput` looks for. Then `last_batch_handle`, which decides what happens to the two
# samples left over: `'pad'` (the default), `'discard'` or `'roll_over'`, over three epochs
# with `reset()` after each.

# %% tags=["mxnet"]
mx_iter = mx.io.NDArrayIter(X, y, batch_size=4, last_batch_handle="pad")
mx_databatch = next(mx_iter)
{"provide_data": mx_iter.provide_data, "provide_label": mx_iter.provide_label,
 "type": type(mx_databatch).__name__, "data": [d.shape for d in mx_databatch.data],
 "label": mx_databatch.label[0].asnumpy().astype(int).tolist(), "pad": mx_databatch.pad,
 "index": mx_databatch.index}

# %%
def labels_and_pads(it, epochs=3):
    """Per epoch, (labels, pad) of each batch; reset() after each epoch."""
    out = []
    for _ in range(epochs):
        out.append([(b.label[0].asnumpy().astype(int).tolist(), b.pad) for b in it])
        it.reset()
    return out


mx_modes = {h: labels_and_pads(mx.io.NDArrayIter(X, y, batch_size=4, last_batch_handle=h))
         for h in ("pad", "discard", "roll_over")}
mx_modes

# %% [markdown]
# **Check**: `'pad'` fills the last batch with samples 0 and 1 again and says `pad=2`;
# `'discard'` is `drop_last=True`; `'roll_over'` carries 8 and 9 into the next epoch, like
# Gluon's `DataLoader(last_batch='rollover')` ([notebook 4](04_data_loading.ipynb) §3) — and
# reports that batch as `pad=2` too, although nothing in it is a repeat: a metric that skips
# the `pad` rows (below) then never scores samples 0 and 1 in that epoch.

# %%
assert mx_modes["pad"] == [[([0, 1, 2, 3], 0), ([4, 5, 6, 7], 0), ([8, 9, 0, 1], 2)]] * 3
pt_dropped = [yb.int().tolist() for _, yb in DataLoader(pt_ds, batch_size=4, drop_last=True)]
assert [[labels for labels, _ in epoch] for epoch in mx_modes["discard"]] == [pt_dropped] * 3
mx_rollover = gluon.data.DataLoader(gluon.data.ArrayDataset(X, y), batch_size=4,
                                       last_batch="rollover")
assert [[labels for labels, _ in epoch] for epoch in mx_modes["roll_over"]] == [
    [yb.asnumpy().astype(int).tolist() for _, yb in mx_rollover] for _ in range(3)]
assert mx_modes["roll_over"][1][0] == ([8, 9, 0, 1], 2)
"pad: wraps to the start; discard: drop_last=True; roll_over: Gluon's 'rollover'"

# %% [markdown]
# An `mx.io` iterator is a one-pass object: a second `for` loop without `reset()` yields
# nothing, and says nothing. A `DataLoader` starts a new epoch at every `for`. A stray
# extra pass — `len(list(it))` to count the batches — also costs `'roll_over'` its carried
# samples:

# %%
mx_once = mx.io.NDArrayIter(X, y, batch_size=4)
mx_passes = {"first": len(list(mx_once)), "second, no reset()": len(list(mx_once))}
mx_once.reset()
mx_passes["after reset()"] = len(list(mx_once))
mx_counted = mx.io.NDArrayIter(X, y, batch_size=4, last_batch_handle="roll_over")
list(mx_counted)
list(mx_counted)                                # the stray pass
mx_counted.reset()
mx_after_stray = [b.label[0].asnumpy().astype(int).tolist() for b in mx_counted]
{"mx.io passes": mx_passes, "DataLoader passes": [len(list(pt_loader)), len(list(pt_loader))],
 "roll_over's next epoch after a stray pass": mx_after_stray}

# %%
assert mx_passes == {"first": 3, "second, no reset()": 0, "after reset()": 3}
assert [len(list(pt_loader)), len(list(pt_loader))] == [3, 3]
assert mx_after_stray == [[0, 1, 2, 3], [4, 5, 6, 7]]           # 8 and 9 are gone
"no reset(), no batches; every for over a DataLoader is an epoch"

# %% [markdown]
# ### A hand-written iterator: `mx.io.DataIter` ↔ `IterableDataset`
#
# Legacy scripts often write their own iterator: a subclass of `mx.io.DataIter` whose
# `next()` builds each `mx.io.DataBatch(data=[x], label=[y])` and raises `StopIteration` at
# the end of an epoch, and whose `reset()` rewinds it. (A network bound by the Module API
# also needs `provide_data` and `provide_label`.)
#
# **MXNet**

# %% tags=["mxnet"]
class MyIter(mx.io.DataIter):
    """Batches of X and y in order, the legacy way: next() and reset()."""

    def __init__(self, X, y, batch_size):
        super().__init__(batch_size)
        self.X, self.y, self.start = X, y, 0

    def reset(self):
        self.start = 0

    def next(self):
        if self.start >= len(self.X):
            raise StopIteration
        end = self.start + self.batch_size
        xb, yb = self.X[self.start:end], self.y[self.start:end]
        self.start = end
        return mx.io.DataBatch(data=[mx.nd.array(xb)], label=[mx.nd.array(yb)])


mx_my_iter = MyIter(X, y, batch_size=4)
[b.label[0].asnumpy().astype(int).tolist() for b in mx_my_iter]

# %% [markdown]
# **PyTorch**: an `IterableDataset` whose `__iter__` yields the batches as `(x, y)` tuples
# (a map-style `Dataset` of samples + `DataLoader(ds, batch_size=4)` is the other way, the
# one above). `batch_size=None` tells the `DataLoader` that the dataset batches itself. No
# `reset()`: each `for` calls `__iter__` again.

# %% tags=["pytorch"]
class MyData(torch.utils.data.IterableDataset):
    """The same batches: __iter__ yields (x, y); every for starts an epoch."""

    def __init__(self, X, y, batch_size):
        super().__init__()
        self.X, self.y, self.batch_size = X, y, batch_size

    def __iter__(self):
        for start in range(0, len(self.X), self.batch_size):
            end = start + self.batch_size
            yield torch.from_numpy(self.X[start:end]), torch.from_numpy(self.y[start:end])


pt_my_loader = DataLoader(MyData(X, y, batch_size=4), batch_size=None)
[yb.int().tolist() for _, yb in pt_my_loader]

# %% [markdown]
# **Check**: two epochs (`reset()` between them on the MXNet side), the same arrays in the
# same batches, and the same batches as `TensorDataset` + `DataLoader`:

# %%
mx_my_epochs = []
for _ in range(2):
    mx_my_iter.reset()
    mx_my_epochs.append([(b.data[0].asnumpy(), b.label[0].asnumpy()) for b in mx_my_iter])
pt_my_epochs = [[(xb.numpy(), yb.numpy()) for xb, yb in pt_my_loader] for _ in range(2)]
assert [len(e) for e in mx_my_epochs] == [len(e) for e in pt_my_epochs] == [3, 3]
for mx_batch, pt_batch in zip(mx_my_epochs[0] + mx_my_epochs[1],
                              pt_my_epochs[0] + pt_my_epochs[1]):
    for mx_a, pt_a in zip(mx_batch, pt_batch):      # data, then label
        assert mx_a.shape == pt_a.shape and np.array_equal(mx_a, pt_a)
assert [yb.tolist() for _, yb in pt_my_loader] == [yb.tolist() for _, yb in pt_loader]
"DataIter.next() -> DataBatch(data=[x], label=[y]) is IterableDataset.__iter__ -> (x, y)"

# %% [markdown]
# ### `'pad'` in PyTorch, and the metric that must skip it
#
# `DataLoader` never pads. To feed a legacy network that needs full batches, give the
# sampler the indices `'pad'` uses: the epoch's order, then its first `pad` samples again.
# With `shuffle=True`, `NDArrayIter` shuffles `arange(n)` with numpy's global generator (at
# construction and at every `reset()`), so its order can be recomputed:
#
# **PyTorch**

# %% tags=["pytorch"]
def padded(order, batch_size):
    """NDArrayIter's 'pad': the order, then its first samples again, to whole batches."""
    order = [int(i) for i in order]
    pad = -len(order) % batch_size
    return order + order[:pad], pad


np.random.seed(3)
order = np.arange(10)
np.random.shuffle(order)
indices, pad = padded(order, 4)
pt_padded = [yb.int().tolist() for _, yb in DataLoader(pt_ds, batch_size=4, sampler=indices)]
pt_padded, pad

# %% [markdown]
# **MXNet**

# %% tags=["mxnet"]
np.random.seed(3)
mx_shuffled = mx.io.NDArrayIter(X, y, batch_size=4, shuffle=True, last_batch_handle="pad")
mx_padded = [(b.label[0].asnumpy().astype(int).tolist(), b.pad) for b in mx_shuffled]
mx_padded

# %%
assert [labels for labels, _ in mx_padded] == pt_padded
assert [p for _, p in mx_padded] == [0, 0, pad] and pad == 2
"the same shuffled, padded batches from the same numpy seed"

# %% [markdown]
# The padded samples are repeats: a metric fed whole batches counts them twice. The Module
# API's `score()` and `update_metric()` drop the last `pad` rows of each batch; a
# hand-written loop must do the same. A toy model, right on samples 0–4 and wrong on 5–9,
# so its true accuracy is 5/10:

# %%
def toy_predict(features):
    """Class predictions from the features: right for samples 0-4, wrong for 5-9."""
    ids = features[:, 0] // 2
    return np.where(ids < 5, ids, (ids + 1) % 10)


mx_whole, mx_trimmed = mx.metric.Accuracy(), mx.metric.Accuracy()
for b in mx.io.NDArrayIter(X, y, batch_size=4, last_batch_handle="pad"):
    pred = mx.nd.array(toy_predict(b.data[0].asnumpy()))
    mx_whole.update([b.label[0]], [pred])
    keep = b.data[0].shape[0] - b.pad
    mx_trimmed.update([b.label[0][:keep]], [pred[:keep]])
pt_correct = sum(int((toy_predict(xb.numpy()) == yb.numpy()).sum()) for xb, yb in pt_loader)
counts = {"mx, whole batches": (int(mx_whole.sum_metric), mx_whole.num_inst),
          "mx, pad rows dropped": (int(mx_trimmed.sum_metric), mx_trimmed.num_inst),
          "torch, no padding": (pt_correct, len(pt_ds))}
counts

# %%
assert counts == {"mx, whole batches": (7, 12), "mx, pad rows dropped": (5, 10),
                  "torch, no padding": (5, 10)}
"with the pad rows the accuracy is 7/12, not 5/10: drop b.pad rows before every metric"

# %% [markdown]
# ## 2. `mx.io.MNISTIter` ↔ a torchvision dataset
#
# MXNet's C++ MNIST reader takes the uncompressed IDX files (here Fashion-MNIST's, the same
# format) and makes float batches itself.
#
# **PyTorch**: torchvision's dataset over the same files, with a transform that does what
# `MNISTIter` does to a pixel — divide by **256** (`ToTensor` divides by 255):

# %% tags=["pytorch"]
def over_256(img):
    """MNISTIter's scaling: uint8 -> float32 / 256."""
    return T.functional.pil_to_tensor(img).to(torch.float32) / 256


fm_scaled = data.torch_dataset(root=ROOT, train=False, transform=over_256)
pt_batch = next(iter(DataLoader(fm_scaled, batch_size=100)))
pt_batch[0].shape, pt_batch[1].dtype

# %% [markdown]
# **MXNet**: the call as legacy scripts write it, `input_shape=(1, 32, 32)` included:

# %% tags=["mxnet"]
def mnist_iter(**kwargs):
    return mx.io.MNISTIter(image=str(RAW / "t10k-images-idx3-ubyte"),
                           label=str(RAW / "t10k-labels-idx1-ubyte"), silent=True, **kwargs)


mx_legacy = mnist_iter(batch_size=100, shuffle=False, flat=False, input_shape=(1, 32, 32))
mx_batch = next(mx_legacy)
{"provide_data": mx_legacy.provide_data, "provide_label": mx_legacy.provide_label,
 "data": (mx_batch.data[0].shape, mx_batch.data[0].dtype),
 "label dtype": mx_batch.label[0].dtype}

# %% tags=["nbval-ignore-output"]
raw_pixels = torch.stack([T.functional.pil_to_tensor(fm_test[i][0]) for i in range(100)])
mx_x = torch.from_numpy(mx_batch.data[0].asnumpy())
to_tensor = raw_pixels.float() / 255
{"MNISTIter max pixel": mx_x.max().item(), "ToTensor max pixel": to_tensor.max().item(),
 "largest |ToTensor - MNISTIter|": (to_tensor - mx_x).abs().max().item()}

# %% [markdown]
# **Check**: the pixels are exactly `uint8 / 256` (a power of two: no rounding), so the
# brightest is 255/256 = 0.99609375, not 1; `ToTensor`'s are larger by x/255 − x/256 = x/65280,
# up to 1/256 for white.
# The batches stay 1×28×28: `input_shape` is ignored. Labels are float32, named
# `softmax_label`.

# %%
assert torch.equal(mx_x, pt_batch[0])
assert torch.equal(mx_x * 256, raw_pixels.float())
assert mx_x.max().item() == 255 / 256
assert not torch.equal(to_tensor, mx_x)
assert abs((to_tensor - mx_x).abs().max().item() - 1 / 256) <= 1e-7     # x/255 - x/256 at 255
assert mx_batch.data[0].shape == (100, 1, 28, 28)
assert mx_legacy.provide_label[0].name == "softmax_label"
assert mx_batch.label[0].dtype == np.float32
assert torch.equal(torch.from_numpy(mx_batch.label[0].asnumpy()).long(), pt_batch[1])
"MNISTIter's pixels are uint8/256 exactly; input_shape changes nothing"

# %% [markdown]
# Why `input_shape` is ignored: it is not one of `MNISTIter`'s parameters, and `MNISTIter`
# accepts **any** keyword without a word — a misspelt one too:

# %%
mx_anything = mnist_iter(batch_size=100, shuffle=False, input_shape=(3, 64, 64),
                      data_shape=(1, 32, 32), shufle=False, foo=1)
assert mx_anything.provide_data[0].shape == (100, 1, 28, 28)
documented = mx.io.MNISTIter.__doc__
assert "input_shape" not in documented and "shuffle : boolean, optional, default=1" in documented
"unknown keywords are accepted and ignored: check legacy calls against the parameter list"

# %% [markdown]
# ### A whole epoch, `flat=True`, and the last batch
#
# All 10 000 test images, flattened (`flat=True` gives `(batch, 784)`), against PyTorch's
# `flatten(1)`. And `MNISTIter`'s default `batch_size=128`, which does not divide 10 000:

# %%
mx_flat = torch.cat([torch.from_numpy(b.data[0].asnumpy())
                     for b in mnist_iter(batch_size=1000, shuffle=False, flat=True)])
pt_flat = torch.cat([xb.flatten(1) for xb, _ in DataLoader(fm_scaled, batch_size=1000)])
default_pads = [b.pad for b in mnist_iter(shuffle=False)]
{"flat shape": tuple(mx_flat.shape), "batches of 128": len(default_pads),
 "images seen": 128 * len(default_pads), "pads": sorted(set(default_pads)),
 "DataLoader(drop_last=True) batches": len(DataLoader(fm_test, batch_size=128,
                                                       drop_last=True))}

# %%
assert torch.equal(mx_flat, pt_flat) and mx_flat.shape == (10000, 784)
assert len(default_pads) == 10000 // 128 == 78 and set(default_pads) == {0}
"MNISTIter drops the last 16 images (10000 = 78 × 128 + 16): drop_last=True, silently"

# %% [markdown]
# ### Shuffling: on by default, once
#
# `shuffle` defaults to **true** (`seed=0`), and the order is drawn once: `reset()` replays
# the same permutation every epoch, where `DataLoader(shuffle=True)` draws a new one each
# epoch. `batch.index` is not filled in, so the order is recovered here by matching every
# image against the file. Copy each batch before asking for the next: `MNISTIter` reuses its
# output arrays, and a batch kept as it is (`list(it)`) shows a later batch's numbers.

# %%
lookup = {bytes(img): i for i, img in enumerate(fm_test.data.numpy().reshape(-1, 784))}


def order_of(it):
    """The file positions of the images the iterator yields, in its order."""
    return [lookup[bytes((row * 256).astype(np.uint8))]
            for b in it for row in b.data[0].asnumpy().reshape(-1, 784)]


mx_shuffling = mnist_iter(batch_size=1000)          # the defaults: shuffle=True, seed=0
epoch_1 = order_of(mx_shuffling)
mx_shuffling.reset()
epoch_2 = order_of(mx_shuffling)
seed_1 = order_of(mnist_iter(batch_size=1000, seed=1))
indexes = {int(i) for b in mnist_iter(batch_size=1000) for i in b.index}
kept = list(mnist_iter(batch_size=100, shuffle=False))
stale = sum(not np.array_equal(b.label[0].asnumpy(), fm_test.targets[100 * k:100 * (k + 1)].numpy())
            for k, b in enumerate(kept))
{"first positions": epoch_1[:5], "batch.index values": sorted(indexes)}

# %% tags=["nbval-ignore-output"]
{"batches of list(it) that show another batch's labels": f"{stale} of {len(kept)}"}

# %% [markdown]
# **PyTorch**: a permutation drawn once and handed over as the sampler replays across epochs
# the way `MNISTIter` does; handing over MXNet's own order gives its batches exactly.

# %%
pt_replay = DataLoader(fm_scaled, batch_size=1000, sampler=epoch_1)
pt_first = next(iter(pt_replay))[0]
mx_first = next(mnist_iter(batch_size=1000)).data[0].asnumpy()
pt_sampler = RandomSampler(range(10000), generator=torch.Generator().manual_seed(0))
pt_epochs = [list(pt_sampler), list(pt_sampler)]

# %%
assert sorted(epoch_1) == list(range(10000)) and epoch_1 != list(range(10000))
assert epoch_1 == epoch_2 and epoch_1 != seed_1
assert indexes == {0}
assert torch.equal(pt_first, torch.from_numpy(mx_first))
assert pt_epochs[0] != pt_epochs[1]
assert stale > 0
"MNISTIter: one permutation per seed, replayed every epoch; copy batches before next()"

# %% [markdown]
# ## 3. RecordIO: `.rec` + `.idx`, read without MXNet
#
# A `.rec` file is a sequence of records, each an 8-byte frame header (a magic number and
# the length) and a payload padded to a multiple of 4 bytes; an image record's payload
# (`mx.recordio.pack`) is a 24-byte `IRHeader` (`flag`, `label`, `id`, `id2`) and then the
# encoded image. The `.idx` file is text, one line per record: `key<TAB>byte offset`. The
# deep dive [RecordIO in detail](deep_dives/recordio_format.ipynb) decodes a record by hand
# (§1), splits a payload that holds the magic (§2), runs six readers for their channel order
# (§3) and damaged files through both readers (§4), and follows `ImageRecordIter`'s epochs
# (§5).
#
# ### Writing with MXNet
#
# **MXNet**: 64 real test images, with their labels, packed as PNG (lossless). For PNG,
# `pack_img`'s `quality` is the zlib compression level: 0 stores the pixels uncompressed, so
# every record has the same size on every machine (a compressor's output may not):

# %%
N = 64
images = fm_test.data[:N].numpy()
labels = fm_test.targets[:N].numpy()
mx_writer = mx.recordio.MXIndexedRecordIO("fm.idx", "fm.rec", "w")
for i in range(N):
    header = mx.recordio.IRHeader(flag=0, label=float(labels[i]), id=i, id2=0)
    mx_writer.write_idx(i, mx.recordio.pack_img(header, images[i], quality=0, img_fmt=".png"))
mx_writer.close()
rec_bytes = Path("fm.rec").read_bytes()
first_offsets = [int(line.split("\t")[1]) for line in Path("fm.idx").read_text().splitlines()]
{"file size": len(rec_bytes), "records": len(first_offsets), "fm.idx": first_offsets[:3]}

# %% [markdown]
# ### Writing with `im2rec.py`
#
# The wheel ships MXNet's packing tool, `mxnet/tools/im2rec.py`: it packs the images of a
# folder listed in a `.lst` file (`index<TAB>label<TAB>relative path`). It runs offline —
# once OpenCV's Python package is installed: the tool and `mx.recordio.pack_img` /
# `unpack_img` import `cv2`, which the `mxnet` wheel does not depend on (this project pins
# `opencv-python-headless`). Forty PNG files, four per class, and a list with their true
# labels; `--encoding .png --color 0` keeps the pixels (the defaults, `.jpg` and `--color 1`,
# store lossy three-channel JPEGs). Its other mode writes the list itself
# (`--list --recursive`), numbering the folders in alphabetical order — not the data set's
# class order:

# %%
names = [c.replace("/", "-") for c in data.SPECS[data.dataset_name()].classes]
tree = imagefolder.write_image_folder(fm_test, "png", names, per_class=4)
with open("tool.lst", "w") as lst:
    for im in tree.images:
        lst.write(f"{im.index}\t{im.label}\t{im.path.relative_to(tree.root)}\n")
IM2REC = Path(mx.__file__).parent / "tools" / "im2rec.py"
packed = subprocess.run([sys.executable, str(IM2REC), "--encoding", ".png", "--color", "0",
                         "tool", "png"], capture_output=True, text=True)
listed = subprocess.run([sys.executable, str(IM2REC), "--list", "--recursive", "auto", "png"],
                        capture_output=True, text=True)
auto = {line.split("\t")[2].split("/")[0]: int(float(line.split("\t")[1]))
        for line in Path("auto.lst").read_text().splitlines()}
{"exit status": (packed.returncode, listed.returncode),
 "files": sorted(p.name for p in Path().glob("tool.*")),
 "labels": {name: {"im2rec --list": auto[name], "Fashion-MNIST": names.index(name)}
            for name in names[:3]}}

# %%
assert packed.returncode == 0 and listed.returncode == 0
assert auto == {name: k for k, name in enumerate(sorted(names))}
assert auto != {name: k for k, name in enumerate(names)}
"im2rec packs offline (with cv2); --list labels folders alphabetically"

# %% [markdown]
# ### Reading with MXNet, three ways
#
# `MXIndexedRecordIO` + `unpack_img` (OpenCV decodes), Gluon's `ImageRecordDataset` (it
# needs the `.idx` beside the `.rec`, under the same name; `flag=0` for grayscale) and the
# C++ `ImageRecordIter` (float32 NCHW batches, pixels **not** scaled):

# %% tags=["gluon"]
mx_reader = mx.recordio.MXIndexedRecordIO("fm.idx", "fm.rec", "r")
mx_via_recordio = [mx.recordio.unpack_img(mx_reader.read_idx(k)) for k in mx_reader.keys]
mx_via_gluon = gluon.data.vision.ImageRecordDataset("fm.rec", flag=0)
mx_via_iter = mx.io.ImageRecordIter(path_imgrec="fm.rec", path_imgidx="fm.idx",
                                 data_shape=(1, 28, 28), batch_size=16,
                                 preprocess_threads=1, verbose=False)
mx_iter_x, mx_iter_y = (np.concatenate(parts) for parts in zip(
    *[(b.data[0].asnumpy(), b.label[0].asnumpy()) for b in mx_via_iter]))
{"unpack_img": (mx_via_recordio[0][0], mx_via_recordio[0][1].shape),
 "ImageRecordDataset": (mx_via_gluon[0][0].shape, mx_via_gluon[0][1]),
 "ImageRecordIter": (mx_iter_x.shape, mx_iter_x.dtype, mx_iter_y.dtype)}

# %% [markdown]
# **PyTorch**: `sidebyside.recordio.RecordDataset` reads the same files in pure Python
# (`struct`, numpy, Pillow). Like a torchvision dataset, its `transform` gets the PIL image
# and `target_transform` the label (a float, as MXNet stores it):

# %% tags=["pytorch"]
pt_rec = recordio.RecordDataset("fm.rec", "fm.idx", transform=T.PILToTensor(),
                                target_transform=int)
pt_x, pt_y = (torch.cat(parts) for parts in zip(*DataLoader(pt_rec, batch_size=16)))
pt_rec, tuple(pt_x.shape), pt_x.dtype

# %%
assert torch.equal(pt_x[:, 0], torch.from_numpy(images))
assert pt_y.tolist() == labels.tolist()
for k, (header, img) in enumerate(mx_via_recordio):
    assert header.label == labels[k] and header.id == k and np.array_equal(img, images[k])
for k in range(N):
    assert np.array_equal(mx_via_gluon[k][0].asnumpy()[:, :, 0], images[k])
    assert mx_via_gluon[k][1] == labels[k]
assert np.array_equal(mx_iter_x, pt_x.numpy().astype(np.float32))
assert np.array_equal(mx_iter_y, labels.astype(np.float32))
pt_tool = recordio.RecordDataset("tool.rec", "tool.idx", target_transform=int)
assert pt_tool.keys == [im.index for im in tree.images]
for k, im in enumerate(tree.images):
    assert np.array_equal(np.asarray(pt_tool[k][0]), fm_test.data[im.index].numpy())
    assert pt_tool[k][1] == im.label
"the same 64 images and labels from MXNet's three readers and RecordDataset; im2rec's 40 too"

# %% [markdown]
# ### Writing without MXNet
#
# `recordio.IndexedRecordWriter` frames records exactly as MXNet's writer does: MXNet's own
# payloads, written again, give the same bytes. `recordio.pack_img` encodes with Pillow —
# other PNG bytes than OpenCV's, the same pixels. MXNet's readers read both files:

# %%
with recordio.IndexedRecordWriter("copy.idx", "copy.rec") as w:
    for k in mx_reader.keys:
        w.write_idx(k, mx_reader.read_idx(k))             # MXNet's payloads, our framing
with recordio.IndexedRecordWriter("ours.idx", "ours.rec") as w:
    for i in range(N):
        header = recordio.IRHeader(flag=0, label=float(labels[i]), id=i, id2=0)
        w.write_idx(i, recordio.pack_img(header, images[i], img_fmt=".png"))
mx_ours_gluon = gluon.data.vision.ImageRecordDataset("ours.rec", flag=0)
mx_ours_batch = mx.io.ImageRecordIter(path_imgrec="ours.rec", data_shape=(1, 28, 28),
                                   batch_size=N, preprocess_threads=1, verbose=False).next()
mx_ours_reader = mx.recordio.MXIndexedRecordIO("ours.idx", "ours.rec", "r")

# %%
assert Path("copy.rec").read_bytes() == rec_bytes
assert Path("copy.idx").read_text() == Path("fm.idx").read_text()
for k in range(N):
    assert np.array_equal(mx_ours_gluon[k][0].asnumpy()[:, :, 0], images[k])
    assert mx_ours_gluon[k][1] == labels[k]
    header, img = mx.recordio.unpack_img(mx_ours_reader.read_idx(k))
    assert np.array_equal(img, images[k]) and header == (0, labels[k], k, 0)
assert np.array_equal(mx_ours_batch.data[0].asnumpy()[:, 0], images.astype(np.float32))
assert np.array_equal(mx_ours_batch.label[0].asnumpy(), labels.astype(np.float32))
"byte-identical framing; Pillow's PNGs read by all three MXNet readers"

# %% [markdown]
# ### Channel order: `unpack_img` is the odd one out
#
# `mx.recordio.pack_img` and `unpack_img` use OpenCV, which takes a 3-channel array to be
# **BGR**. Everything else — Pillow, torchvision, `mx.image.imdecode`,
# `ImageRecordDataset`, `ImageRecordIter`, and `sidebyside.recordio` — speaks **RGB** (the
# deep dive's §3 runs all six readers on records packed by each side). A colour image made
# from a real one (red: the image, green: its negative, blue: half of it), packed by MXNet:

# %%
rgb = np.stack([images[0], 255 - images[0], images[0] // 2], axis=-1)
from_mx = mx.recordio.pack_img(mx.recordio.IRHeader(0, 0.0, 0, 0), rgb, img_fmt=".png")
mx_rgb = mx.recordio.unpack_img(from_mx)[1]
pt_rgb = recordio.unpack_img(from_mx)[1]
mx_imdecode = mx.image.imdecode(recordio.unpack(from_mx)[1]).asnumpy()
assert np.array_equal(mx_rgb, rgb)                                   # as packed
assert np.array_equal(pt_rgb, rgb[..., ::-1]) and np.array_equal(mx_imdecode, pt_rgb)
gray = mx_via_recordio[0][1], recordio.unpack_img(mx_reader.read_idx(0))[1]
assert gray[0].shape == (28, 28) and gray[1].shape == (28, 28, 1)
"mx.recordio's pair is BGR; recordio and mx.image read RGB; grayscale: (H, W) vs (H, W, 1)"

# %% [markdown]
# So, for a 3-channel record `s`: `mx.recordio.unpack_img(s)[1]` is
# `recordio.unpack_img(s)[1][..., ::-1]`, and to write an RGB array with MXNet's
# `pack_img`, pass `rgb[..., ::-1]` — as `im2rec.py` does, since `cv2.imread` returns BGR.
# A legacy pipeline that fed `unpack_img`'s output to a network was training on BGR; one
# moved to torchvision (or `ImageRecordDataset`) gets RGB and may need `[..., ::-1]` to
# match an old model.
#
# ### `ImageRecordIter`'s last batch
#
# 64 records in batches of 10. `round_batch=True` (the default) fills the last batch by
# wrapping to the start, like `'pad'`, and the next epoch then starts *after* the wrapped
# records, so epochs differ in length (the deep dive's §5 follows three of them). With
# `round_batch=False` the last batch still has 10 rows, of which only 4 are records, and
# says `pad=0`:

# %%
mx_no_wrap = [(b.pad, b.data[0].asnumpy()) for b in mx.io.ImageRecordIter(
    path_imgrec="fm.rec", data_shape=(1, 28, 28), batch_size=10, round_batch=False,
    preprocess_threads=1, verbose=False)]
assert (len(mx_no_wrap), mx_no_wrap[-1][0], len(mx_no_wrap[-1][1])) == (7, 0, 10)
assert np.array_equal(mx_no_wrap[-1][1][:4, 0], images[60:].astype(np.float32))
"round_batch=False: a last batch of 10 rows, 4 of them records, and pad=0"

# %% [markdown]
# ### Without MXNet
#
# A new Python process in which `import mxnet` fails (a meta-path hook refuses it, as on a
# machine where MXNet was uninstalled) reads the file into a `DataLoader` with two worker
# processes:

# %%
no_mxnet = textwrap.dedent("""
    import json, sys

    class NoMXNet:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "mxnet":
                raise ImportError("mxnet is not installed here")

    sys.meta_path.insert(0, NoMXNet())
    import torch
    import torchvision.transforms as T
    from torch.utils.data import DataLoader
    from sidebyside import recordio

    ds = recordio.RecordDataset("fm.rec", "fm.idx", transform=T.PILToTensor(),
                                target_transform=int)
    x, y = (torch.cat(p) for p in zip(*DataLoader(ds, batch_size=16, num_workers=2)))
    try:
        import mxnet
        importable = True
    except ImportError:
        importable = False
    print(json.dumps({"mxnet importable": importable, "mxnet in sys.modules":
                      "mxnet" in sys.modules, "pixel sum": int(x.sum()), "labels": y.tolist()}))
""")
result = subprocess.run([sys.executable, "-c", no_mxnet], capture_output=True, text=True)
without = json.loads(result.stdout)
{k: without[k] for k in ("mxnet importable", "mxnet in sys.modules")}

# %%
assert result.returncode == 0
assert without["mxnet importable"] is False and without["mxnet in sys.modules"] is False
assert without["pixel sum"] == int(pt_x.sum()) and without["labels"] == labels.tolist()
"the .rec file read into a DataLoader, two workers, no MXNet in the process"

# %% [markdown]
# ### A damaged file
#
# The file cut 10 bytes short — a copy that did not finish. `sidebyside.recordio` raises
# `RecordIOError` (a `ValueError`), naming the file, the record and the byte; MXNet stops
# with dmlc-core's check, naming neither. The deep dive's §4 runs more damaged cases through
# both: an index line that points inside a record, a key listed twice (MXNet reads it twice,
# silently), an index that lists 40 of the 64 records (MXNet reads 40, silently).

# %% tags=["raises-exception"]
Path("cut.rec").write_bytes(rec_bytes[:-10])
recordio.RecordDataset("cut.rec")

# %%
def mx_read_all(rec):
    reader = mx.recordio.MXRecordIO(rec, "r")
    while reader.read() is not None:
        pass


cut_at = first_offsets[-1]
ours_cut = errors.catch(recordio.RecordDataset, "cut.rec")
mx_cut = errors.catch(mx_read_all, "cut.rec")
assert ours_cut.type == "RecordIOError" and isinstance(ours_cut.exception, ValueError)
assert ours_cut.line.startswith(f"cut.rec: truncated record at byte {cut_at}")
assert mx_cut.type == "MXNetError" and "Invalid RecordIO File" in mx_cut.line
assert "cut.rec" not in mx_cut.line and str(cut_at) not in mx_cut.line
"the cut file: RecordIOError names the file and the byte; MXNet's check names neither"

# %% [markdown]
# ## 4. The `transform=` trap
#
# Both frameworks' vision datasets take a `transform=` keyword. torchvision calls it with the
# **image**; Gluon's datasets (`MNIST`, `FashionMNIST`, `CIFAR10`, `ImageFolderDataset`,
# `ImageRecordDataset`) call it with **(data, label)** and expect a pair back.
#
# **PyTorch**: a one-argument function, torchvision's contract:

# %% tags=["pytorch"]
def scale_image(img):
    """A torchvision-style transform: the image in, the image out."""
    return T.functional.pil_to_tensor(img).to(torch.float32) / 255


pt_sample = recordio.RecordDataset("fm.rec", "fm.idx", transform=scale_image)[0]
tuple(pt_sample[0].shape), pt_sample[1]

# %% [markdown]
# **Gluon**: the same kind of function, passed the same way, is called with two arguments:

# %% tags=["raises-exception", "gluon"]
def scale_nd(img):
    """The same one-argument transform, for an MXNet image."""
    return img.astype("float32") / 255


gluon.data.vision.ImageRecordDataset("fm.rec", flag=0, transform=scale_nd)[0]

# %% [markdown]
# Where each Gluon vision dataset calls its `transform`, and the right forms: a
# two-argument function, or the one-argument function through `transform_first` (which
# applies it to the first element only). `dataset.transform(fn)` calls `fn(*sample)`: two
# arguments again. Gluon's `transforms.ToTensor` with `transform_first` is torchvision's
# `ToTensor` as `transform=`:

# %%
transform_calls = {
    cls.__name__: [line.strip() for line in inspect.getsource(cls.__getitem__).splitlines()
                   if "self._transform(" in line]
    for cls in (gluon.data.vision.MNIST, gluon.data.vision.FashionMNIST,
                gluon.data.vision.CIFAR10, gluon.data.vision.ImageFolderDataset,
                gluon.data.vision.ImageRecordDataset)}


def scale_pair(img, label):
    """Gluon's contract: (data, label) in, (data, label) out."""
    return img.astype("float32") / 255, label


mx_records = gluon.data.vision.ImageRecordDataset("fm.rec", flag=0)
mx_forms = {
    "transform=two-argument": gluon.data.vision.ImageRecordDataset(
        "fm.rec", flag=0, transform=scale_pair)[0],
    "transform_first(one-argument)": mx_records.transform_first(scale_nd)[0],
    "transform(two-argument)": mx_records.transform(scale_pair)[0],
}
mx_to_tensor = mx_records.transform_first(gluon.data.vision.transforms.ToTensor())[0][0]
pt_to_tensor = recordio.RecordDataset("fm.rec", "fm.idx", transform=T.ToTensor())[0][0]
{"transform is called as": transform_calls,
 "forms": {form: (x.shape, lab) for form, (x, lab) in mx_forms.items()}}

# %%
failure = errors.catch(lambda: gluon.data.vision.ImageRecordDataset(
    "fm.rec", flag=0, transform=scale_nd)[0])
assert failure.brief == ("TypeError", "scale_nd() takes 1 positional argument but 2 were given")
assert all(len(lines) == 1 and "," in lines[0] for lines in transform_calls.values())
for x, lab in mx_forms.values():
    assert np.array_equal(x.asnumpy()[:, :, 0] * 255, images[0]) and lab == labels[0]
    assert np.allclose(x.asnumpy()[:, :, 0], pt_sample[0][0].numpy(), rtol=0, atol=1e-7)
assert mx_to_tensor.shape == (1, 28, 28)
assert np.allclose(mx_to_tensor.asnumpy(), pt_to_tensor.numpy(), rtol=0, atol=1e-7)
"Gluon's transform= gets (data, label); transform_first is torchvision's transform="

# %% [markdown]
# ### The other way: a Gluon transform into torchvision
#
# A Gluon `(data, label)` function splits into torchvision's `transform` (the image part)
# and `target_transform` (the label part). When the image's treatment depends on the label —
# say, flip the sandals only — neither keyword can do it: wrap the dataset (torchvision's
# base class `VisionDataset` also has a two-argument `transforms=`, but `MNIST`,
# `FashionMNIST` and `ImageFolder` do not accept it).
#
# **Gluon** (the legacy code):

# %% tags=["gluon"]
SANDAL = names.index("Sandal")


def mx_augment(img, label):
    """Flip sandals left-right; labels become int32."""
    if label == SANDAL:
        img = img[:, ::-1, :]
    return img.astype("float32") / 255, np.int32(label)


mx_ported = mx_records.transform(mx_augment)
mx_out = [mx_ported[k] for k in range(N)]

# %% [markdown]
# **PyTorch**: the label-free part as `transform`/`target_transform`, the label-dependent
# part in a wrapper dataset:

# %% tags=["pytorch"]
class PairTransform(torch.utils.data.Dataset):
    """Apply fn(image, target) to each sample: Gluon's transform= contract."""

    def __init__(self, dataset, fn):
        self.dataset, self.fn = dataset, fn

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, index):
        return self.fn(*self.dataset[index])


def flip_sandals(img, target):
    return (img.flip(-1) if target == SANDAL else img), target


pt_ported = PairTransform(recordio.RecordDataset(
    "fm.rec", "fm.idx", transform=scale_image, target_transform=int), flip_sandals)
pt_out = [pt_ported[k] for k in range(N)]

# %%
flipped = [k for k in range(N) if labels[k] == SANDAL]
assert flipped, "the first 64 test images hold sandals"
for (gx, gy), (tx, ty) in zip(mx_out, pt_out):
    assert int(gy) == ty
    assert np.allclose(gx.asnumpy()[:, :, 0], tx[0].numpy(), rtol=0, atol=1e-7)
assert "transforms" in inspect.signature(torchvision.datasets.VisionDataset).parameters
f"the same {N} samples, {len(flipped)} of them flipped, on both sides"

# %% [markdown]
# ## 5. `mx.contrib.io.DataLoaderIter`: a Gluon `DataLoader` as an `mx.io` iterator
#
# For legacy code that wants `DataBatch`es (the Module API's `fit`, `score`) from a Gluon
# `DataLoader`. It is in `mx.contrib.io` (its docstring's `mx.io.DataloaderIter` does not
# exist). It pads a short last batch to the full size — with uninitialised rows, not
# repeated samples — and reports `pad`.
#
# **PyTorch**: the loader is the iterator; a batch is `(x, y)`, the last one short.

# %%
pt_tensors = DataLoader(recordio.RecordDataset("fm.rec", "fm.idx", transform=T.ToTensor(),
                                               target_transform=int), batch_size=10)
pt_tensor_batches = list(pt_tensors)
[len(xb) for xb, _ in pt_tensor_batches]

# %% [markdown]
# **MXNet**

# %%
mx_loader = gluon.data.DataLoader(
    mx_records.transform_first(gluon.data.vision.transforms.ToTensor()), batch_size=10)
mx_as_iter = mx.contrib.io.DataLoaderIter(mx_loader)
mx_dl_batches = [(b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad) for b in mx_as_iter]
again = len(list(mx_as_iter))
{"provide_data": mx_as_iter.provide_data, "provide_label": mx_as_iter.provide_label,
 "batch rows": [len(x) for x, _, _ in mx_dl_batches], "pads": [p for _, _, p in mx_dl_batches],
 "second pass without reset()": again, "mx.io has DataLoaderIter": hasattr(mx.io, "DataLoaderIter")}

# %%
assert [p for _, _, p in mx_dl_batches] == [0] * 6 + [6] and again == 0
assert [len(xb) for xb, _ in pt_tensor_batches] == [10] * 6 + [4]
for (mx_xb, mx_yb, p), (pt_xb, pt_yb) in zip(mx_dl_batches, pt_tensor_batches):
    keep = len(mx_xb) - p
    assert np.allclose(mx_xb[:keep], pt_xb.numpy(), rtol=0, atol=1e-7)
    assert mx_yb.dtype == np.float32 and np.array_equal(mx_yb[:keep], pt_yb.numpy())
assert mx_as_iter.provide_label[0].name == "softmax_label"
"DataLoaderIter: DataBatches with pad; labels cast to float32; reset() between epochs"

# %% [markdown]
# ## Summary
#
# **MXNet → PyTorch**
#
# | MXNet | PyTorch | note |
# |---|---|---|
# | `mx.io.NDArrayIter(X, y, batch_size, shuffle=True)` | `DataLoader(TensorDataset(X, y), batch_size, shuffle=True)` | §1 |
# | `NDArrayIter(X, y, batch_size, last_batch_handle='pad')` | `DataLoader(ds, batch_size, sampler=order + order[:pad])` | the default; drop the `pad` rows before a metric (§1) |
# | `NDArrayIter(X, y, batch_size, last_batch_handle='discard')` | `DataLoader(ds, batch_size, drop_last=True)` | §1 |
# | `NDArrayIter(X, y, batch_size, last_batch_handle='roll_over')` | — | Gluon: `DataLoader(ds, batch_size, last_batch='rollover')` (§1) |
# | `batch.data[0]`, `batch.label[0]`, `batch.pad` | `x, y = batch` | a `DataLoader` never pads (§1) |
# | `it.reset()` | — | every `for` over a `DataLoader` is an epoch (§1) |
# | `class MyIter(mx.io.DataIter)` with `MyIter.next()`, `MyIter.reset()` | `class MyData(torch.utils.data.IterableDataset)` with `MyData.__iter__()`, then `DataLoader(MyData(), batch_size=None)` | or a `Dataset` + `DataLoader`; no `reset()` (§1) |
# | `mx.io.DataBatch(data=[x], label=[y])` | `(x, y)` | what `next()` returns (§1) |
# | `it.provide_data`, `it.provide_label` | `next(iter(loader))[0].shape` | the label is named `softmax_label` (§1) |
# | `mx.io.MNISTIter(image=, label=, batch_size=128)` | `DataLoader(FashionMNIST(root, transform=lambda img: pil_to_tensor(img).float() / 256), 128, drop_last=True)` | /256, not `ToTensor`'s /255 (§2) |
# | `MNISTIter(shuffle=True, seed=s)` | `DataLoader(ds, batch_size, sampler=perm)` | the default: one permutation, the same every epoch (§2) |
# | `MNISTIter(flat=True)` | `x.flatten(1)` | §2 |
# | `MNISTIter(input_shape=(1, 32, 32))` | — | ignored, as is any unknown keyword (§2) |
# | `mx.recordio.MXIndexedRecordIO(idx, rec, 'r').read_idx(k)` | `recordio.IndexedRecordReader(idx, rec).read_idx(k)` | §3 |
# | `mx.recordio.unpack_img(s)` | `recordio.unpack_img(s)` | BGR and `(H, W)` for gray, against RGB and `(H, W, C)` (§3) |
# | `gluon.data.vision.ImageRecordDataset(rec, flag=0)` | `recordio.RecordDataset(rec, idx)` | §3 |
# | `mx.io.ImageRecordIter(path_imgrec=rec, data_shape=, batch_size=)` | `DataLoader(RecordDataset(rec, idx, transform=T.PILToTensor()), batch_size)`, then `x.float()` | pixels not scaled (§3) |
# | `ImageRecordDataset(rec, transform=fn)`, `fn(data, label)` | `RecordDataset(rec, idx, transform=f, target_transform=g)` | a wrapper dataset when the image depends on the label (§4) |
# | `mx.contrib.io.DataLoaderIter(loader)` | `loader` | §5 |
#
# **PyTorch → MXNet**
#
# | PyTorch | MXNet | note |
# |---|---|---|
# | `DataLoader(TensorDataset(X, y), batch_size)` | `mx.io.NDArrayIter(X, y, batch_size, last_batch_handle='pad')` | call `reset()` each epoch |
# | `drop_last=True` / `drop_last=False` | `last_batch_handle='discard'` / `last_batch_handle='pad'` | skip the `pad` rows (§1) |
# | `DataLoader(ds, batch_size, shuffle=True)` | `mx.io.NDArrayIter(X, y, batch_size, shuffle=True)` | reshuffles at `reset()`; `MNISTIter` does not (§1, §2) |
# | `transforms.ToTensor()` | `gluon.data.vision.transforms.ToTensor()` | both /255; `MNISTIter` gives /256 (§2, §4) |
# | `transform=fn` | `dataset.transform_first(fn)` | §4 |
# | `target_transform=fn` | `dataset.transform(lambda x, y: (x, fn(y)))` | §4 |
# | `ImageFolder(root)` | `python im2rec.py --encoding .png prefix root` | needs `cv2`; or `recordio.IndexedRecordWriter` + `recordio.pack_img` (§3) |
# | `recordio.pack_img(header, rgb)` | `mx.recordio.pack_img(header, rgb[..., ::-1])` | OpenCV takes BGR (§3) |
# | `loader` | `mx.contrib.io.DataLoaderIter(gluon_loader)` | `DataBatch`es with `pad`, for Module-API code (§5) |
#
# Gotchas met on the way: `mx.io` iterators yield nothing on a second pass without
# `reset()`; `MNISTIter` reuses its output arrays (copy each batch) and silently drops the
# last partial batch; `ImageRecordIter(round_batch=False)` says `pad=0` for a batch with
# rows that are not records.
#
# ## Exercises
#
# 1. Write a `.rec` whose records carry three labels each (`IRHeader` with a label array)
#    with `recordio.pack_img`, and read the labels back with
#    `mx.io.ImageRecordIter(label_width=3)` and with `RecordDataset`.
# 2. Leave RecordIO behind: turn `fm.rec` into a class-per-folder tree of PNG files and read
#    it with `torchvision.datasets.ImageFolder`. Are the pixels and the labels the same?
# 3. Port §1's metric loop to PyTorch with the padded sampler: compute the accuracy over
#    full, padded batches, masking the padded rows, and check it against `mx_trimmed`.
#
# **Solutions** (folded away in the book: open each one):
#
# :::{dropdown} Solution 1
# `flag` becomes the number of labels; `ImageRecordIter` reads `label_width` of them.
# :::

# %% tags=["hide-cell"]
multi = np.stack([labels, labels * 2 + 0.5, -labels], axis=1).astype(np.float32)
with recordio.IndexedRecordWriter("multi.idx", "multi.rec") as w:
    for i in range(N):
        w.write_idx(i, recordio.pack_img((0, multi[i], i, 0), images[i], img_fmt=".png"))
mx_multi_iter = mx.io.ImageRecordIter(path_imgrec="multi.rec", data_shape=(1, 28, 28),
                                   batch_size=N, label_width=3, preprocess_threads=1,
                                   verbose=False)
pt_multi = recordio.RecordDataset("multi.rec", "multi.idx")
assert pt_multi.header(0).flag == 3
assert np.array_equal(mx_multi_iter.next().label[0].asnumpy(), multi)
assert np.array_equal(np.stack([pt_multi[k][1] for k in range(N)]), multi)
"three float32 labels per record, read alike by ImageRecordIter and RecordDataset"

# %% [markdown]
# :::{dropdown} Solution 2
# `imagefolder.write_image_folder` takes `(image, label)` pairs; the labels come
# back as floats, so `target_transform=int`. `ImageFolder` opens PNGs as RGB: `.convert("L")`.
# :::

# %% tags=["hide-cell"]
exported = imagefolder.write_image_folder(
    recordio.RecordDataset("fm.rec", "fm.idx", target_transform=int), "exported", names,
    per_class=int(min(np.bincount(labels, minlength=len(names)))))
pt_folder = torchvision.datasets.ImageFolder(
    "exported", loader=lambda path: Image.open(path).convert("L"))
position = {path: k for k, (path, _) in enumerate(pt_folder.samples)}
for im in exported.images:
    img, label = pt_folder[position[str(im.path)]]
    assert np.array_equal(np.asarray(img), images[im.index])
    assert pt_folder.classes[label] == names[im.label]
f"{len(exported)} images exported and read back; ImageFolder's labels follow sorted folder names"

# %% [markdown]
# :::{dropdown} Solution 3
# The padded sampler from §1, a mask from the number of real samples:
# :::

# %% tags=["hide-cell"]
correct = seen = 0
real = len(pt_ds)
for start, (xb, yb) in zip(range(0, len(indices), 4),
                           DataLoader(pt_ds, batch_size=4, sampler=padded(range(10), 4)[0])):
    mask = torch.arange(start, start + len(yb)) < real
    hits = torch.from_numpy(toy_predict(xb.numpy()) == yb.numpy())
    correct += int(hits[mask].sum())
    seen += int(mask.sum())
assert (correct, seen) == (int(mx_trimmed.sum_metric), mx_trimmed.num_inst) == (5, 10)
"masked: 5 of 10, as MXNet's pad-aware metric"
