"""sidebyside.recordio against MXNet's own RecordIO code, both ways, on real Fashion-MNIST
images; split records; every damaged-file case; and that it never imports mxnet."""
import ast
import json
import pickle
import random
import subprocess
import sys
import textwrap

import mxnet as mx
import numpy as np
import pytest
import torch

from sidebyside import data
from sidebyside import recordio as rio
from sidebyside.recordio import RecordIOError

from conftest import ROOT

N = 120                      # real images per test file
M = rio.MAGIC_BYTES


@pytest.fixture(scope="module")
def fashion():
    ds = data.torch_dataset(train=False)
    return ds.data[:N].numpy(), ds.targets[:N].numpy()


def colour(images):
    """Real images, made three-channel with different content in each channel (R, G, B)."""
    return np.stack([images, 255 - images, images // 2], axis=-1)


def frame_head(cflag, length):
    return M + ((cflag << 29) | length).to_bytes(4, "little")


def magic_payloads():
    rng = random.Random(0)
    fixed = [b"", b"a", b"abcd", M, M + M, b"xy" + M + b"zz", b"abcd" + M, M + b"abc",
             b"abcd" + M + M + b"12345", b"abc" + M + b"defg" + M, bytes(range(256)) * 3]
    for _ in range(40):
        parts = [M if rng.random() < 0.4
                 else bytes(rng.randrange(256) for _ in range(rng.randrange(12)))
                 for _ in range(rng.randrange(1, 8))]
        fixed.append(b"".join(parts))
    return fixed


# --- framing: the same bytes as MXNet's writer --------------------------------------------


def test_writer_matches_mxnet_byte_for_byte(tmp_path):
    payloads = magic_payloads()
    theirs = mx.recordio.MXIndexedRecordIO(str(tmp_path / "m.idx"), str(tmp_path / "m.rec"), "w")
    for i, p in enumerate(payloads):
        theirs.write_idx(i, p)
    theirs.close()
    with rio.IndexedRecordWriter(tmp_path / "o.idx", tmp_path / "o.rec") as ours:
        for i, p in enumerate(payloads):
            ours.write_idx(i, p)
    assert (tmp_path / "o.rec").read_bytes() == (tmp_path / "m.rec").read_bytes()
    assert (tmp_path / "o.idx").read_text() == (tmp_path / "m.idx").read_text()
    # each reads the other's file
    reader = rio.IndexedRecordReader(tmp_path / "m.idx", tmp_path / "m.rec")
    assert len(reader) == len(payloads) and reader.keys == list(range(len(payloads)))
    assert [reader.read_idx(i) for i in range(len(payloads))] == payloads
    assert list(rio.RecordReader(tmp_path / "m.rec")) == payloads
    back = mx.recordio.MXIndexedRecordIO(str(tmp_path / "o.idx"), str(tmp_path / "o.rec"), "r")
    assert [back.read_idx(i) for i in range(len(payloads))] == payloads


def test_split_record_layout():
    payload = b"abcd" + M + b"xyz"           # the magic at offset 4: cut out, two frames
    assert rio.frame(payload) == (frame_head(1, 4) + b"abcd" + frame_head(3, 3) + b"xyz\0")
    assert rio.frame(M) == frame_head(1, 0) + frame_head(3, 0)
    assert rio.frame(M + M) == frame_head(1, 0) + frame_head(2, 0) + frame_head(3, 0)
    unaligned = b"xy" + M + b"zz"            # not at a multiple of 4: stays in the payload
    assert rio.frame(unaligned) == frame_head(0, 8) + unaligned
    assert rio.frame(b"abcde") == frame_head(0, 5) + b"abcde\0\0\0"


def test_sequential_reader_and_writer(tmp_path):
    payloads = magic_payloads()[:10]
    with rio.RecordWriter(tmp_path / "s.rec") as w:
        offsets = [w.write(p) for p in payloads]
    reader = rio.RecordReader(tmp_path / "s.rec")
    assert [reader.read() for _ in payloads] == payloads and reader.read() is None
    assert rio.scan(tmp_path / "s.rec") == offsets
    reader.seek(offsets[3])
    assert reader.read() == payloads[3] and reader.tell() == offsets[4]
    assert reader.read_at(offsets[5]) == payloads[5]
    theirs = mx.recordio.MXRecordIO(str(tmp_path / "s.rec"), "r")
    assert [theirs.read() for _ in payloads] == payloads and theirs.read() is None


# --- headers and labels -------------------------------------------------------------------


@pytest.mark.parametrize("label", [3.0, 7, [1.0, 2.5, -3.0], np.arange(5, dtype=np.float32),
                                   np.float32(0.25)])
def test_pack_matches_mxnet(label):
    header = (0, label, 123456789012, 42)
    ours = rio.pack(header, b"payload")
    assert ours == mx.recordio.pack(mx.recordio.IRHeader(*header), b"payload")
    for h, rest in (rio.unpack(ours), mx.recordio.unpack(ours)):
        assert rest == b"payload" and h.id == 123456789012 and h.id2 == 42
        np.testing.assert_array_equal(np.asarray(h.label, np.float32),
                                      np.asarray(label, np.float32))
    ours_h, theirs_h = rio.unpack(ours)[0], mx.recordio.unpack(ours)[0]
    assert ours_h.flag == theirs_h.flag == (0 if np.ndim(label) == 0 else np.size(label))


def test_unpack_rejects_short_payloads():
    with pytest.raises(RecordIOError, match="shorter than the 24-byte IRHeader"):
        rio.unpack(b"x" * 10)
    with pytest.raises(RecordIOError, match="announces 4 float32 labels"):
        rio.unpack(rio.pack((0, [1.0, 2.0, 3.0, 4.0], 0, 0), b"")[:-4])


# --- images: MXNet writes, we read; we write, MXNet reads ---------------------------------


def write_with_mxnet(tmp_path, images, labels, img_fmt=".png"):
    w = mx.recordio.MXIndexedRecordIO(str(tmp_path / "mx.idx"), str(tmp_path / "mx.rec"), "w")
    for i, (img, lab) in enumerate(zip(images, labels)):
        w.write_idx(i, mx.recordio.pack_img(mx.recordio.IRHeader(0, float(lab), 1000 + i, 0),
                                            img, quality=95 if img_fmt == ".jpg" else 3,
                                            img_fmt=img_fmt))
    w.close()
    return tmp_path / "mx.idx", tmp_path / "mx.rec"


def write_with_ours(tmp_path, images, labels, img_fmt=".png"):
    with rio.IndexedRecordWriter(tmp_path / "ours.idx", tmp_path / "ours.rec") as w:
        for i, (img, lab) in enumerate(zip(images, labels)):
            w.write_idx(i, rio.pack_img((0, float(lab), 1000 + i, 0), img, img_fmt=img_fmt))
    return tmp_path / "ours.idx", tmp_path / "ours.rec"


def test_mxnet_written_images_read_here(tmp_path, fashion):
    images, labels = fashion
    idx, rec = write_with_mxnet(tmp_path, images, labels)
    reader = rio.IndexedRecordReader(idx, rec)
    assert len(reader) == N
    for i in range(N):
        header, img = rio.unpack_img(reader.read_idx(i))
        assert header == rio.IRHeader(0, float(labels[i]), 1000 + i, 0)
        assert img.shape == (28, 28, 1) and img.dtype == np.uint8
        np.testing.assert_array_equal(img[:, :, 0], images[i])


def test_our_images_read_by_mxnet(tmp_path, fashion):
    images, labels = fashion
    idx, rec = write_with_ours(tmp_path, images, labels)
    theirs = mx.recordio.MXIndexedRecordIO(str(idx), str(rec), "r")
    assert theirs.keys == list(range(N))
    for i in range(N):
        header, img = mx.recordio.unpack_img(theirs.read_idx(i))
        assert (header.flag, header.label, header.id, header.id2) == (0, labels[i], 1000 + i, 0)
        np.testing.assert_array_equal(img, images[i])         # cv2: (H, W) for grayscale
    gluon = mx.gluon.data.vision.ImageRecordDataset(str(rec), flag=0)
    assert len(gluon) == N
    for i in range(N):
        img, label = gluon[i]
        np.testing.assert_array_equal(img.asnumpy()[:, :, 0], images[i])
        assert label == labels[i]
    it = mx.io.ImageRecordIter(path_imgrec=str(rec), path_imgidx=str(idx), data_shape=(1, 28, 28),
                               batch_size=N, preprocess_threads=1, verbose=False)
    batch = it.next()
    assert batch.pad == 0
    np.testing.assert_array_equal(batch.data[0].asnumpy()[:, 0], images.astype(np.float32))
    np.testing.assert_array_equal(batch.label[0].asnumpy(), labels.astype(np.float32))


def test_channel_order(tmp_path, fashion):
    """MXNet's pack_img/unpack_img speak BGR (OpenCV); everything else, ours included, RGB."""
    rgb = colour(fashion[0][:8])
    labels = fashion[1][:8]
    idx, rec = write_with_ours(tmp_path, rgb, labels)
    theirs = mx.recordio.MXIndexedRecordIO(str(idx), str(rec), "r")
    gluon = mx.gluon.data.vision.ImageRecordDataset(str(rec))          # flag=1: colour
    it = mx.io.ImageRecordIter(path_imgrec=str(rec), data_shape=(3, 28, 28), batch_size=8,
                               preprocess_threads=1, verbose=False)
    batch = it.next().data[0].asnumpy().transpose(0, 2, 3, 1)
    for i in range(8):
        np.testing.assert_array_equal(mx.recordio.unpack_img(theirs.read_idx(i))[1],
                                      rgb[i][..., ::-1])
        np.testing.assert_array_equal(gluon[i][0].asnumpy(), rgb[i])
        np.testing.assert_array_equal(batch[i], rgb[i])
    # the other way: MXNet's pack_img takes its array as BGR
    s = mx.recordio.pack_img((0, 1.0, 0, 0), rgb[0], img_fmt=".png")
    np.testing.assert_array_equal(rio.unpack_img(s)[1], rgb[0][..., ::-1])
    s = mx.recordio.pack_img((0, 1.0, 0, 0), rgb[0][..., ::-1], img_fmt=".png")
    np.testing.assert_array_equal(rio.unpack_img(s)[1], rgb[0])
    np.testing.assert_array_equal(mx.recordio.unpack_img(s)[1], rgb[0][..., ::-1])


@pytest.mark.parametrize("kind", ["gray", "colour"])
def test_jpeg_decodes_alike(tmp_path, fashion, kind):
    images = fashion[0][:40] if kind == "gray" else colour(fashion[0][:40])
    idx, rec = write_with_mxnet(tmp_path, images if kind == "gray" else images[..., ::-1],
                                fashion[1][:40], img_fmt=".jpg")
    reader = rio.IndexedRecordReader(idx, rec)
    theirs = mx.recordio.MXIndexedRecordIO(str(idx), str(rec), "r")
    for i in range(40):
        ours = rio.unpack_img(reader.read_idx(i))[1].astype(int)
        cv = mx.recordio.unpack_img(theirs.read_idx(i))[1]
        cv = cv[:, :, None] if cv.ndim == 2 else cv[..., ::-1]
        assert np.abs(ours - cv).max() <= 2          # same libjpeg family: 0 here


def test_multi_label_records(tmp_path, fashion):
    images, labels = fashion
    multi = np.stack([labels, labels * 2 + 0.5, -labels], axis=1).astype(np.float32)[:16]
    with rio.IndexedRecordWriter(tmp_path / "ml.idx", tmp_path / "ml.rec") as w:
        for i in range(16):
            w.write_idx(i, rio.pack_img((0, multi[i], i, 0), images[i], img_fmt=".png"))
    theirs = mx.recordio.MXIndexedRecordIO(str(tmp_path / "ml.idx"), str(tmp_path / "ml.rec"), "r")
    for i in range(16):
        h = mx.recordio.unpack(theirs.read_idx(i))[0]
        assert h.flag == 3
        np.testing.assert_array_equal(h.label, multi[i])
    gluon = mx.gluon.data.vision.ImageRecordDataset(str(tmp_path / "ml.rec"), flag=0)
    np.testing.assert_array_equal(gluon[5][1], multi[5])
    it = mx.io.ImageRecordIter(path_imgrec=str(tmp_path / "ml.rec"), data_shape=(1, 28, 28),
                               batch_size=16, label_width=3, preprocess_threads=1, verbose=False)
    np.testing.assert_array_equal(it.next().label[0].asnumpy(), multi)
    ds = rio.RecordDataset(tmp_path / "ml.rec", tmp_path / "ml.idx")
    assert ds.header(5).flag == 3
    np.testing.assert_array_equal(ds[5][1], multi[5])


# --- the Dataset ---------------------------------------------------------------------------


def test_record_dataset(tmp_path, fashion):
    images, labels = fashion
    idx, rec = write_with_mxnet(tmp_path, images, labels)
    ds = rio.RecordDataset(rec, idx)
    assert isinstance(ds, torch.utils.data.Dataset) and len(ds) == N
    img, label = ds[7]
    assert img.mode == "L" and label == float(labels[7]) and isinstance(label, float)
    np.testing.assert_array_equal(np.asarray(img), images[7])
    assert ds[-1][1] == float(labels[-1])
    with pytest.raises(IndexError):
        ds[N]
    seen = []
    ds_t = rio.RecordDataset(rec, transform=lambda im: (seen.append(type(im).__name__), im)[1],
                             target_transform=int)
    assert ds_t[0][1] == int(labels[0]) and seen == ["PngImageFile"]   # image only, no label
    assert rio.RecordDataset(rec, mode="RGB")[0][0].mode == "RGB"

    import torchvision.transforms as T
    loader = torch.utils.data.DataLoader(
        rio.RecordDataset(rec, idx, transform=T.PILToTensor(), target_transform=int),
        batch_size=32, num_workers=2)
    x, y = zip(*loader)
    x, y = torch.cat(x), torch.cat(y)
    assert x.shape == (N, 1, 28, 28) and x.dtype == torch.uint8
    assert torch.equal(x[:, 0], torch.from_numpy(images))
    assert torch.equal(y, torch.from_numpy(labels))
    again = pickle.loads(pickle.dumps(ds))
    np.testing.assert_array_equal(np.asarray(again[3][0]), images[3])


def test_record_dataset_order_follows_the_index(tmp_path, fashion):
    images, labels = fashion
    with rio.IndexedRecordWriter(tmp_path / "k.idx", tmp_path / "k.rec") as w:
        for i in range(10):
            w.write_idx(100 - i, rio.pack_img((0, float(labels[i]), i, 0), images[i],
                                              img_fmt=".png"))
    lines = (tmp_path / "k.idx").read_text().splitlines()
    (tmp_path / "k.idx").write_text("\n".join(reversed(lines)) + "\n")
    ds = rio.RecordDataset(tmp_path / "k.rec", tmp_path / "k.idx")
    assert ds.keys == list(range(91, 101))
    assert [ds.header(i).id for i in range(10)] == list(range(9, -1, -1))
    in_file_order = rio.RecordDataset(tmp_path / "k.rec")
    assert [in_file_order.header(i).id for i in range(10)] == list(range(10))


# --- damaged files: one error class, the file and the byte offset named -------------------


@pytest.fixture
def small(tmp_path, fashion):
    """Three image records (the second one split: its payload holds the magic), and an index."""
    images, labels = fashion
    payloads = [rio.pack_img((0, float(labels[0]), 0, 0), images[0], img_fmt=".png"),
                rio.pack((0, 1.0, 1, 0), b"abcd" * 2 + M + b"tail"),   # 24 + 8: aligned magic
                rio.pack_img((0, float(labels[2]), 2, 0), images[2], img_fmt=".png")]
    assert len(payloads[1]) % 4 == 0 and payloads[1].index(M) == 32
    with rio.IndexedRecordWriter(tmp_path / "d.idx", tmp_path / "d.rec") as w:
        offsets = [w.write_idx(i, p) for i, p in enumerate(payloads)]
    return tmp_path / "d.rec", tmp_path / "d.idx", offsets, payloads


def read_all(rec):
    return list(rio.RecordReader(rec))


def test_small_fixture_is_sound(small):
    rec, idx, offsets, payloads = small
    assert read_all(rec) == payloads
    assert rio.scan(rec) == offsets
    assert rio.frame(payloads[1])[:8] == frame_head(1, 32)


def test_missing_files(tmp_path, small):
    rec, idx, _, _ = small
    with pytest.raises(RecordIOError, match=r"nope\.rec: no such record file"):
        rio.RecordReader(tmp_path / "nope.rec")
    with pytest.raises(RecordIOError, match=r"nope\.idx: no such index file"):
        rio.IndexedRecordReader(tmp_path / "nope.idx", rec)
    with pytest.raises(RecordIOError, match=r"nope\.rec: no such record file"):
        rio.RecordDataset(tmp_path / "nope.rec")
    with pytest.raises(RecordIOError, match="no such record file"):
        rio.RecordWriter(tmp_path / "no-dir" / "x.rec")


def test_index_in_a_missing_folder_leaves_the_record_file_alone(tmp_path, small):
    rec, idx, _, payloads = small
    blob = rec.read_bytes()
    for target in (rec, tmp_path / "new.rec"):
        with pytest.raises(RecordIOError, match=r"no-dir/x\.idx: no such index file"):
            rio.IndexedRecordWriter(tmp_path / "no-dir" / "x.idx", target)
    assert rec.read_bytes() == blob               # not truncated
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.idx", "d.rec"]


@pytest.mark.parametrize("cut, message", [
    (3, r"d\.rec: truncated record at byte 0: the file ends inside the 8-byte frame header "
        r"\(3 bytes left; file size 3\)"),
    (20, r"d\.rec: truncated record at byte 0: the frame at byte 0 declares \d+ payload bytes "
         r"\(\d+ with padding\), but the file ends 12 bytes after its header"),
])
def test_truncated_first_record(small, cut, message):
    rec = small[0]
    rec.write_bytes(rec.read_bytes()[:cut])
    with pytest.raises(RecordIOError, match=message):
        read_all(rec)
    with pytest.raises(RecordIOError, match=message):
        rio.scan(rec)


def test_truncated_last_record_and_split_record(small):
    rec, idx, offsets, payloads = small
    whole = rec.read_bytes()
    rec.write_bytes(whole[:-1])
    with pytest.raises(RecordIOError, match=rf"truncated record at byte {offsets[2]}: the frame at "
                                            rf"byte {offsets[2]} declares"):
        read_all(rec)
    with pytest.raises(RecordIOError, match=rf"truncated record at byte {offsets[2]}"):
        rio.IndexedRecordReader(idx, rec)                 # verify=True walks the file
    assert rio.IndexedRecordReader(idx, rec, verify=False).read_idx(0) == payloads[0]
    # cut right after the split record's first frame: no end frame
    end_of_first_frame = offsets[1] + 8 + 32
    rec.write_bytes(whole[:end_of_first_frame])
    with pytest.raises(RecordIOError, match=rf"the split record that starts at byte {offsets[1]} "
                                            rf"has no end frame; the file ends at byte "
                                            rf"{end_of_first_frame}"):
        read_all(rec)


def test_wrong_magic(tmp_path, small):
    junk = tmp_path / "junk.rec"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    with pytest.raises(RecordIOError, match=r"junk\.rec: byte 0 holds 0x474e5089, not the "
                                            r"RecordIO magic 0xced7230a"):
        read_all(junk)
    rec, _, offsets, _ = small
    data = bytearray(rec.read_bytes())
    data[offsets[2]] ^= 0xFF
    rec.write_bytes(bytes(data))
    with pytest.raises(RecordIOError, match=rf"d\.rec: byte {offsets[2]} holds 0xced723f5, not "
                                            "the RecordIO magic"):
        read_all(rec)


def test_broken_split_records(small):
    rec, _, offsets, _ = small
    whole = rec.read_bytes()
    second = offsets[1] + 8 + 32                     # the split record's end frame
    lrec = int.from_bytes(whole[second + 4: second + 8], "little")
    assert lrec >> 29 == 3
    # the end frame turned into a whole record: the start frame never ends
    whole_lrec = (lrec & rio.MAX_LENGTH).to_bytes(4, "little")
    rec.write_bytes(whole[:second + 4] + whole_lrec + whole[second + 8:])
    with pytest.raises(RecordIOError, match=rf"the split record that starts at byte {offsets[1]} "
                                            rf"is broken: at byte {second} a new record "
                                            r"\(whole record"):
        read_all(rec)
    # a continuation frame where a record must start
    rec.write_bytes(whole[:offsets[1]] + whole[second:])
    with pytest.raises(RecordIOError, match=rf"byte {offsets[1]} is not a record start: it holds "
                                            r"the end of a split record \(cflag 3\)"):
        read_all(rec)
    # a cflag above 3
    rec.write_bytes(whole[:4] + ((5 << 29) | 4).to_bytes(4, "little") + whole[8:])
    with pytest.raises(RecordIOError, match=r"the frame at byte 0 has cflag 5"):
        read_all(rec)


def test_index_mismatches(small):
    rec, idx, offsets, _ = small
    good = idx.read_text()

    def expect(text, message, **kw):
        idx.write_text(text)
        with pytest.raises(RecordIOError, match=message):
            rio.IndexedRecordReader(idx, rec, **kw)

    size = rec.stat().st_size
    expect(good + f"3\t{size + 400}\n",
           rf"d\.idx \(index of d\.rec\): key 3 points at byte {size + 400}, beyond the end of "
           rf".*d\.rec \({size} bytes\)")
    expect(good.replace(f"1\t{offsets[1]}", f"1\t{offsets[1] + 2}"),
           rf"key 1 points at byte {offsets[1] + 2}, not a record start \(records start at "
           "multiples of 4\\)")
    expect(good.replace(f"2\t{offsets[2]}", f"2\t{offsets[2] + 8}"),
           rf"key 2 points at byte {offsets[2] + 8}, not a record start of .*d\.rec \(it holds "
           "0x[0-9a-f]{8}, not the magic\\)")
    expect(good.replace(f"1\t{offsets[1]}", f"1\t{offsets[1] + 8 + 32}"),
           rf"key 1 points at byte {offsets[1] + 40}, not a record start .*a continuation frame "
           r"\(cflag 3\)")
    expect(good + f"0\t{offsets[0]}\n",
           rf"d\.idx: duplicate key 0 on lines 1 and 4 \(offsets {offsets[0]} and {offsets[0]}\)")
    expect("\n".join(good.splitlines()[:2]) + "\n",
           rf"the index lists 2 records, the file holds 3; not in the index: the records at "
           rf"bytes {offsets[2]} ")
    expect(good + f"9\t{offsets[0]}\n",
           rf"keys 0 and 9 both point at the record at byte {offsets[0]}")
    expect(good + "7 100\n", r"d\.idx: line 4 is '7 100', not 'key<TAB>offset'")
    expect(good + "x\t0\n", r"d\.idx: line 4: key 'x' is not a int")
    expect(good + "7\t-4\n", r"d\.idx: line 4: offset '-4' is not a byte offset")
    # fewer lines than records: allowed with verify=False (a deliberate subset)
    idx.write_text("\n".join(good.splitlines()[:2]) + "\n")
    assert len(rio.IndexedRecordReader(idx, rec, verify=False)) == 2


def test_dataset_names_the_record_that_is_not_an_image(tmp_path):
    with rio.IndexedRecordWriter(tmp_path / "t.idx", tmp_path / "t.rec") as w:
        w.write_idx(0, rio.pack((0, 1.0, 0, 0), b"not an image at all"))
        w.write_idx(1, b"short")
    ds = rio.RecordDataset(tmp_path / "t.rec", tmp_path / "t.idx")
    with pytest.raises(RecordIOError, match=r"t\.rec: the record at byte 0: the image bytes "
                                            r"\(19 bytes, starting b'not an i'\) cannot be "
                                            "decoded"):
        ds[0]
    with pytest.raises(RecordIOError, match=r"t\.rec: the record at byte 52: a payload of 5 bytes "
                                            "is shorter than the 24-byte IRHeader"):
        ds[1]


def test_writer_refuses_bad_keys(tmp_path):
    with rio.IndexedRecordWriter(tmp_path / "w.idx", tmp_path / "w.rec", key_type=str) as w:
        w.write_idx("a", b"1")
        with pytest.raises(RecordIOError, match=r"w\.idx: key 'a' was already written \(the "
                                                "record at byte 0\\)"):
            w.write_idx("a", b"2")
        with pytest.raises(RecordIOError, match="holds a tab"):
            w.write_idx("b\tc", b"3")
    reader = rio.IndexedRecordReader(tmp_path / "w.idx", tmp_path / "w.rec", key_type=str)
    assert reader.keys == ["a"] and reader.read_idx("a") == b"1"


# --- no mxnet ------------------------------------------------------------------------------


def test_module_source_never_imports_mxnet():
    tree = ast.parse((ROOT / "src" / "sidebyside" / "recordio.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert "mxnet" not in imported
    assert imported <= {"__future__", "io", "numbers", "os", "struct", "collections", "pathlib",
                        "typing", "numpy", "PIL", "torch"}, imported


def test_reading_never_imports_mxnet(tmp_path, fashion):
    images, labels = fashion
    idx, rec = write_with_mxnet(tmp_path, images[:20], labels[:20])
    script = textwrap.dedent(f"""
        import json, sys
        import sidebyside.recordio as rio
        after_import = "mxnet" in sys.modules
        reader = rio.IndexedRecordReader({str(idx)!r}, {str(rec)!r})
        header, img = rio.unpack_img(reader.read_idx(3))
        ds = rio.RecordDataset({str(rec)!r}, {str(idx)!r})
        pixels = int(sum(int(v) for v in ds[3][0].getdata()))
        print(json.dumps({{"after_import": after_import, "after_reading": "mxnet" in sys.modules,
                           "torch": "torch" in sys.modules, "label": header.label,
                           "sum": int(img.sum()), "ds_sum": pixels}}))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=120)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["after_import"] is False and result["after_reading"] is False
    assert result["torch"] is True                     # RecordDataset imports torch, only then
    assert result["label"] == float(labels[3])
    assert result["sum"] == result["ds_sum"] == int(images[3].astype(int).sum())


def test_import_alone_pulls_in_neither_framework():
    out = subprocess.run([sys.executable, "-c",
                          "import sys, sidebyside.recordio as r; "
                          "print(sorted(m for m in ('mxnet', 'torch') if m in sys.modules))"],
                         capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"
