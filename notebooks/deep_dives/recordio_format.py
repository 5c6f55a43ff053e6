# %% [markdown]
# # Deep dive · RecordIO in detail: the bytes, split records, channel order, damaged files
#
# [Notebook 18](../18_legacy_data_recordio.ipynb) §3 reads MXNet's RecordIO files with
# MXNet and with `sidebyside.recordio`, which needs no MXNet. This deep dive opens the files
# themselves: the frame and the image header, decoded by hand with `struct`; what the writer
# does with a payload that contains the frame's magic number; which of six readers returns
# which channel order; what each reader says when a file or its index is damaged; and how
# `ImageRecordIter` fills its last batch, epoch after epoch.
#
# **Time**: about 15 minutes.

# %% tags=["nbval-ignore-output"]
import struct
import tempfile
from pathlib import Path

import mxnet as mx
import numpy as np
import torch

from sidebyside import data, devices, errors, recordio, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
fm_test = data.torch_dataset(train=False)
print(f"torch {torch.__version__} · mxnet {mx.__version__}")

# %% [markdown]
# ## 1. The frame and the image header
#
# A `.rec` file is a sequence of records, each a frame header and a payload:
#
# | bytes | field | |
# |---|---|---|
# | 0–3 | magic | `0xced7230a`, a little-endian uint32 (the bytes `0a 23 d7 ce`) |
# | 4–7 | `lrecord` | uint32: `cflag = lrecord >> 29`, `length = lrecord & (2**29 − 1)` |
# | 8 … 7+length | payload | |
# | … | padding | 0–3 zero bytes, to a multiple of 4 |
#
# An image record's payload (`mx.recordio.pack`) starts with the 24-byte `IRHeader`, struct
# `'<IfQQ'`:
#
# | bytes | field | |
# |---|---|---|
# | 0–3 | `flag` | uint32: 0, or the number *n* of float32 labels after the header |
# | 4–7 | `label` | float32: the label when `flag` is 0 (else 0) |
# | 8–15, 16–23 | `id`, `id2` | uint64 |
# | 24 … 23+4*n* | labels | *n* float32, when `flag` = *n* > 0 |
# | … | image | the encoded image: JPEG (`pack_img`'s default) or PNG |
#
# The `.idx` file is text, one line per record: `key<TAB>byte offset`.
#
# **MXNet** writes 64 real test images with their labels, as PNG (`quality=0`: zlib level 0,
# the pixels stored uncompressed, so that every record has the same size on every machine);
# then the first record, decoded by hand:

# %%
N = 64
images, labels = fm_test.data[:N].numpy(), fm_test.targets[:N].numpy()
rec, idx = WORK / "fm.rec", WORK / "fm.idx"
mx_writer = mx.recordio.MXIndexedRecordIO(str(idx), str(rec), "w")
for i in range(N):
    header = mx.recordio.IRHeader(flag=0, label=float(labels[i]), id=i, id2=0)
    mx_writer.write_idx(i, mx.recordio.pack_img(header, images[i], quality=0, img_fmt=".png"))
mx_writer.close()
rec_bytes = rec.read_bytes()
magic, lrecord = struct.unpack_from("<II", rec_bytes, 0)
flag, label, id_, id2 = struct.unpack_from("<IfQQ", rec_bytes, 8)
length = lrecord & (2**29 - 1)
idx_lines = idx.read_text().splitlines()
{"magic": hex(magic), "cflag": lrecord >> 29, "length": length,
 "IRHeader": (flag, label, id_, id2), "image starts": rec_bytes[32:40],
 "file size": len(rec_bytes), "fm.idx": idx_lines[:3]}

# %% [markdown]
# **Check**: the magic, a whole record (`cflag` 0), the header's label and id, a PNG
# signature after the 24 header bytes, and the second record where the padding of the first
# ends. `sidebyside.recordio.scan` finds the same record starts as the `.idx` lists.

# %%
offsets = [int(line.split("\t")[1]) for line in idx_lines]
assert rec_bytes[:4] == bytes.fromhex("0a23d7ce") and magic == recordio.MAGIC
assert lrecord >> 29 == 0 and (flag, label, id_, id2) == (0, labels[0], 0, 0)
assert rec_bytes[32:40] == b"\x89PNG\r\n\x1a\n"
assert offsets[0] == 0 and offsets[1] == 8 + (length + 3) // 4 * 4
assert recordio.scan(rec) == offsets and len(offsets) == N
assert all(rec_bytes[o:o + 4] == recordio.MAGIC_BYTES for o in offsets)
"record 0: frame header, IRHeader, PNG; record 1 starts after the padding; the idx agrees"

# %% [markdown]
# ## 2. A payload that holds the magic: split records
#
# The writer (dmlc-core's, which MXNet uses) cuts out every copy of the magic found *inside*
# the payload at a 4-byte-aligned position and writes the pieces as frames with `cflag` 1
# (first), 2 (middle) and 3 (last); the reader puts one magic back between them. So every
# aligned magic in a file is a frame header, and a reader dropped anywhere in the file — one
# of several workers sharing it — finds the next record by looking for the magic followed by
# `cflag` 0 or 1. A payload with the magic at offset 4 (aligned: cut out, two frames) and one
# at offset 2 (not aligned: left alone), written by MXNet and by `sidebyside.recordio`:

# %%
M = recordio.MAGIC_BYTES
split_payloads = [b"abcd" + M + b"xyz", b"xy" + M + b"zz"]
mx_split = mx.recordio.MXRecordIO(str(WORK / "split-mx.rec"), "w")
for p in split_payloads:
    mx_split.write(p)
mx_split.close()
with recordio.RecordWriter(WORK / "split-ours.rec") as w:
    for p in split_payloads:
        w.write(p)
frames = [recordio.frame(p).hex(" ", 4) for p in split_payloads]
frames

# %% [markdown]
# **Check**: the same bytes from both writers; each reads the other's file back; the first
# payload is two frames (`cflag` 1, then 3: `lrecord` `0x20000004` and `0x60000003`), the
# second one whole frame (`cflag` 0).

# %%
mx_split_back = mx.recordio.MXRecordIO(str(WORK / "split-ours.rec"), "r")
assert [mx_split_back.read() for _ in range(3)] == split_payloads + [None]
assert list(recordio.RecordReader(WORK / "split-mx.rec")) == split_payloads
assert (WORK / "split-mx.rec").read_bytes() == (WORK / "split-ours.rec").read_bytes()
assert frames[0] == "0a23d7ce 04000020 61626364 0a23d7ce 03000060 78797a00"
assert frames[1].split(" ")[1] == "08000000"
"aligned magic: two frames (cflag 1 and 3); unaligned: one whole record"

# %% [markdown]
# ## 3. Channel order, reader by reader
#
# `mx.recordio.pack_img` and `unpack_img` use OpenCV, which takes a 3-channel array to be
# **BGR**; the other readers speak **RGB**. A colour image made from a real one (red: the
# image, green: its negative, blue: half of it), packed by each side's `pack_img` from the
# same array, then read by each of six readers:

# %%
rgb = np.stack([images[0], 255 - images[0], images[0] // 2], axis=-1)
from_mx = mx.recordio.pack_img(mx.recordio.IRHeader(0, 0.0, 0, 0), rgb, img_fmt=".png")
from_ours = recordio.pack_img(recordio.IRHeader(0, 0.0, 1, 0), rgb, img_fmt=".png")
colour = WORK / "colour.rec"
with recordio.IndexedRecordWriter(WORK / "colour.idx", colour) as w:
    w.write_idx(0, from_mx)
    w.write_idx(1, from_ours)
mx_colour_batch = mx.io.ImageRecordIter(
    path_imgrec=str(colour), data_shape=(3, 28, 28), batch_size=2, preprocess_threads=1,
    verbose=False).next().data[0].asnumpy().transpose(0, 2, 3, 1)
mx_colour = mx.gluon.data.vision.ImageRecordDataset(str(colour))
pt_colour = recordio.RecordDataset(colour)
read = {
    "mx.recordio.unpack_img": lambda k, s: mx.recordio.unpack_img(s)[1],
    "mx.image.imdecode": lambda k, s: mx.image.imdecode(recordio.unpack(s)[1]).asnumpy(),
    "ImageRecordDataset": lambda k, s: mx_colour[k][0].asnumpy(),
    "ImageRecordIter": lambda k, s: mx_colour_batch[k],
    "recordio.unpack_img": lambda k, s: recordio.unpack_img(s)[1],
    "RecordDataset": lambda k, s: np.asarray(pt_colour[k][0]),
}


def channels(arr):
    return ("as packed" if np.array_equal(arr, rgb) else
            "reversed" if np.array_equal(arr, rgb[..., ::-1]) else "other")


order_table = {reader: {"mx.recordio.pack_img": channels(fn(0, from_mx)),
                        "recordio.pack_img": channels(fn(1, from_ours))}
               for reader, fn in read.items()}
order_table

# %% [markdown]
# **Check**: MXNet's `unpack_img` gives back what MXNet's `pack_img` was given, and reverses
# what `sidebyside.recordio.pack_img` wrote; every other reader does the opposite.

# %%
for reader, row in order_table.items():
    odd = reader == "mx.recordio.unpack_img"
    assert row == {"mx.recordio.pack_img": "as packed" if odd else "reversed",
                   "recordio.pack_img": "reversed" if odd else "as packed"}, reader
"mx.recordio's pair is BGR; every other reader is RGB"

# %% [markdown]
# ## 4. Damaged files and indexes
#
# Four damaged cases, each read to the end by MXNet's reader (with the index, when there is
# one) and by `sidebyside.recordio.RecordDataset`: the file cut 10 bytes short (a copy that
# did not finish), an index line that points inside a record, a key listed twice, and an
# index that lists 40 of the 64 records.

# %%
def read_all_mx(rec_path, idx_path=None):
    if idx_path is None:
        reader = mx.recordio.MXRecordIO(str(rec_path), "r")
        while reader.read() is not None:
            pass
        return "read to the end"
    reader = mx.recordio.MXIndexedRecordIO(str(idx_path), str(rec_path), "r")
    ids = [mx.recordio.unpack(reader.read_idx(k))[0].id for k in reader.keys]
    return f"read {len(ids)} records, ids {ids[:4]}..."


def read_all_ours(rec_path, idx_path=None):
    ds = recordio.RecordDataset(rec_path, idx_path)
    return f"read {len(ds)} records, ids {[ds.header(k).id for k in range(4)]}..."


def outcome(fn, *args):
    """What fn(*args) returns, or its error's type and first line, the folder hidden."""
    try:
        return fn(*args)
    except (mx.base.MXNetError, recordio.RecordIOError):
        return errors.short(errors.catch(fn, *args), WORK)


(WORK / "cut.rec").write_bytes(rec_bytes[:-10])
(WORK / "inside.idx").write_text("\n".join(
    idx_lines[:3] + [f"3\t{offsets[3] + 8}"] + idx_lines[4:]) + "\n")
(WORK / "twice.idx").write_text("\n".join(idx_lines + ["3\t" + idx_lines[9].split("\t")[1]]) + "\n")
(WORK / "other.idx").write_text("".join(line + "\n" for line in idx_lines[:40]))
cases = {"file cut short": (WORK / "cut.rec", None),
         "offset inside a record": (rec, WORK / "inside.idx"),
         "key listed twice": (rec, WORK / "twice.idx"),
         "index lists 40 of 64": (rec, WORK / "other.idx")}
damage = {case: {"MXNet": outcome(read_all_mx, *args), "sidebyside": outcome(read_all_ours, *args)}
          for case, args in cases.items()}
damage

# %% [markdown]
# **Check**: MXNet stops the cut file and the misplaced offset with dmlc-core's check, naming
# neither the file nor the byte, and reads the other two without a word — 65 records with
# one of them twice, or 40 of 64. `sidebyside.recordio` raises `RecordIOError` (a
# `ValueError`) in all four, naming the file and the byte or the line.

# %%
cut_at = offsets[-1]
assert damage["file cut short"]["MXNet"].startswith("MXNetError: Check failed")
assert "Invalid RecordIO File" in damage["file cut short"]["MXNet"]
assert damage["file cut short"]["sidebyside"].startswith(
    f"RecordIOError: <dir>/cut.rec: truncated record at byte {cut_at}: the frame at byte {cut_at}")
assert "Invalid RecordIO File" in damage["offset inside a record"]["MXNet"]
assert (f"key 3 points at byte {offsets[3] + 8}, not a record start of <dir>/fm.rec"
        in damage["offset inside a record"]["sidebyside"])
assert damage["key listed twice"]["MXNet"] == "read 65 records, ids [0, 1, 2, 9]..."
assert "twice.idx: duplicate key 3 on lines 4 and 65" in damage["key listed twice"]["sidebyside"]
assert damage["index lists 40 of 64"]["MXNet"] == "read 40 records, ids [0, 1, 2, 3]..."
assert ("the index lists 40 records, the file holds 64"
        in damage["index lists 40 of 64"]["sidebyside"])
assert issubclass(recordio.RecordIOError, ValueError)
"MXNet: no file, no byte, and two silent misreads; sidebyside: RecordIOError naming both"

# %% [markdown]
# ## 5. `ImageRecordIter`'s last batch, epoch after epoch
#
# The 64 records in batches of 10, three epochs with `reset()` between them. With
# `round_batch=True` (the default) the last batch is filled by wrapping to the start, like
# `NDArrayIter`'s `'pad'`, and reports the wrapped rows as `pad` — but the next epoch then
# starts *after* the wrapped records. With `round_batch=False` the last batch still has 10
# rows, of which only 4 are records, and says `pad=0`.

# %%
def pads_per_epoch(it, epochs=3):
    out = []
    for _ in range(epochs):
        out.append([(b.pad, b.label[0].asnumpy().astype(int).tolist()) for b in it])
        it.reset()
    return out


def image_record_iter(**options):
    return mx.io.ImageRecordIter(path_imgrec=str(rec), data_shape=(1, 28, 28), batch_size=10,
                                 preprocess_threads=1, verbose=False, **options)


wrapping = pads_per_epoch(image_record_iter())
no_wrap = [(b.pad, b.data[0].asnumpy()) for b in image_record_iter(round_batch=False)]
{"round_batch=True: (batches, last pad) per epoch": [(len(e), e[-1][0]) for e in wrapping],
 "round_batch=False: last batch (rows, pad)": (len(no_wrap[-1][1]), no_wrap[-1][0])}

# %% [markdown]
# **Check**: epochs of 7, 6 and 7 batches — 70, 60 and 70 samples, the first starting at
# record 0, the second at record 6 — and a `round_batch=False` batch whose 6 last rows are
# not records although it says `pad=0`. A PyTorch port's epochs all hold the 64 records
# once; a check that compares per-epoch numbers with the legacy script's must know this.

# %%
assert [(len(e), e[-1][0]) for e in wrapping] == [(7, 6), (6, 2), (7, 8)]
assert wrapping[0][-1][1] == labels[60:].tolist() + labels[:6].tolist()
assert wrapping[1][0][1] == labels[6:16].tolist()                  # epoch 2 starts at 6
assert (len(no_wrap), no_wrap[-1][0], len(no_wrap[-1][1])) == (7, 0, 10)
assert np.array_equal(no_wrap[-1][1][:4, 0], images[60:].astype(np.float32))
folder.cleanup()
"round_batch: epochs of 70, 60, 70 samples; round_batch=False: 6 rows that are not records, pad=0"

# %% [markdown]
# ## What this means for a port
#
# - A `.rec` file can be read, checked and written without MXNet: the format is 8 bytes of
#   framing, a 24-byte header and an encoded image per record, and `sidebyside.recordio`
#   writes MXNet's bytes exactly, split records included.
# - Do not search a `.rec` file for the magic at any offset: only 4-aligned words are frame
#   headers, and a record may span several frames.
# - Check an index against its file before training: MXNet accepts an index with duplicate
#   keys or missing records silently, and reports a damaged file without saying which file
#   or where.
# - A legacy script's `ImageRecordIter` epochs are not the data set once each: with
#   `round_batch=True` they hold 70, 60, 70 samples of 64 here; compare per-epoch numbers
#   with care, and skip `pad` rows (or, with `round_batch=False`, the rows past the end).
