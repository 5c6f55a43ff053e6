import dataclasses
import gzip
import hashlib
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import debian_fashion_mnist
from sidebyside import data


def tree(folder):
    """Everything under ``folder``, as sorted relative paths: what a failed call must not change."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture(autouse=True)
def fresh_cache():
    """Every test starts (and leaves) with nothing remembered as checked."""
    data.clear_cache()
    yield
    data.clear_cache()


# --- choosing the dataset and the root -------------------------------------------------------------

def test_default_dataset_is_fashion_mnist(isolated_data_env):
    # the notebooks' stored outputs come from Fashion-MNIST; nbval compares against them
    assert data.dataset_name() == "fashion-mnist"


def test_dataset_from_env_and_argument(isolated_data_env, monkeypatch):
    monkeypatch.setenv("SIDEBYSIDE_DATASET", "Fashion_MNIST")
    assert data.dataset_name() == "fashion-mnist"
    assert data.dataset_name("mnist") == "mnist"  # the argument wins


def test_unknown_dataset_names_the_choices(isolated_data_env, monkeypatch):
    with pytest.raises(ValueError, match=r"unknown dataset 'cifar10' \(from the argument\).*fashion-mnist"):
        data.dataset_name("cifar10")
    with pytest.raises(ValueError, match=r"unknown dataset 'cifar10'"):
        data.prepare("cifar10", root=isolated_data_env / "root")
    monkeypatch.setenv("SIDEBYSIDE_DATASET", "kmnist")
    with pytest.raises(ValueError, match=r"\$SIDEBYSIDE_DATASET"):
        data.dataset_name()
    with pytest.raises(ValueError, match=r"unknown dataset 'kmnist' \(from the \$SIDEBYSIDE_DATASET\)"):
        data.load(root=isolated_data_env / "root")
    assert tree(isolated_data_env) == []  # refused before anything was created


def test_root_from_argument_env_and_default(isolated_data_env, monkeypatch, tmp_path):
    assert data.data_root() == (data.Path.home() / ".cache" / "sidebyside" / "data").resolve()
    monkeypatch.setenv("SIDEBYSIDE_DATA", str(tmp_path / "env"))
    assert data.data_root() == tmp_path / "env"
    assert data.data_root(tmp_path / "arg") == tmp_path / "arg"
    assert data.raw_dir("fashion-mnist", tmp_path) == tmp_path / "FashionMNIST" / "raw"


# --- no data: a clear error naming both ways out ------------------------------------------------

def test_offline_without_files_names_both_ways_out(isolated_data_env, no_downloads):
    with pytest.raises(data.DatasetUnavailable) as err:
        data.prepare("mnist", root=isolated_data_env)
    msg = str(err.value)
    assert "torchvision could not download it" in msg
    assert "go online" in msg
    assert "apt-get install dataset-fashion-mnist" in msg
    assert "SIDEBYSIDE_DATASET=fashion-mnist" in msg and "SIDEBYSIDE_IDX_DIR" in msg
    assert tree(isolated_data_env) == []  # the folders torchvision made for it are gone again


def test_fashion_without_debian_package_or_network(isolated_data_env, no_downloads, monkeypatch):
    spec = data.SPECS["fashion-mnist"]
    monkeypatch.setitem(data.SPECS, "fashion-mnist",
                        dataclasses.replace(spec, default_source=isolated_data_env / "absent"))
    with pytest.raises(data.DatasetUnavailable, match="Two ways out"):
        data.load("fashion-mnist", root=isolated_data_env)


def test_missing_source_folder(isolated_data_env):
    with pytest.raises(data.DatasetUnavailable, match="does not exist"):
        data.prepare("mnist", root=isolated_data_env, source=isolated_data_env / "nowhere")
    assert tree(isolated_data_env) == []
    (isolated_data_env / "a-file").write_bytes(b"")
    with pytest.raises(data.DatasetUnavailable, match="a-file for MNIST is a file, not a folder"):
        data.prepare("mnist", root=isolated_data_env / "root", source=isolated_data_env / "a-file")
    assert tree(isolated_data_env) == ["a-file"]


def test_source_folder_lacking_files(isolated_data_env):
    src = isolated_data_env / "src"
    src.mkdir()
    (src / "train-images-idx3-ubyte.gz").write_bytes(gzip.compress(b"x"))
    with pytest.raises(data.DatasetUnavailable, match="lacks train-labels-idx1-ubyte, t10k-images"):
        data.prepare("mnist", root=isolated_data_env, source=src)
    assert tree(isolated_data_env) == ["src", "src/train-images-idx3-ubyte.gz"]


def test_source_folder_with_wrong_files(isolated_data_env, monkeypatch):
    src = isolated_data_env / "src"
    src.mkdir()
    for f in data.FILES:  # right names, wrong bytes (an IDX header and zeros)
        (src / f).write_bytes(b"\x00\x00\x08\x01" + bytes(12))
    monkeypatch.setenv("SIDEBYSIDE_IDX_DIR", str(src))
    with pytest.raises(data.DataIntegrityError, match="is not the original MNIST file 'train-images-idx3-ubyte'"):
        data.prepare("mnist", root=isolated_data_env)
    assert tree(isolated_data_env) == ["src"] + [f"src/{f}" for f in sorted(data.FILES)]


def test_gluon_expected_sha1_is_read_from_gluon():
    from mxnet.gluon.data import vision

    assert data.gluon_expected_sha1(vision.MNIST, train=True) == {
        "train-images-idx3-ubyte.gz": "6c95f4b05d2bf285e1bfb0e7960c31bd3b3f8a7d",
        "train-labels-idx1-ubyte.gz": "2a80914081dc54586dbdf242f9805a6b8d2a15fc"}
    assert set(data.gluon_expected_sha1(vision.FashionMNIST, train=False)) == {
        "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"}


# --- the real data: the same sample in both frameworks ------------------------------------------

def assert_same_samples(pair, indices):
    assert len(pair.torch) == len(pair.gluon)
    for i in indices:
        pt_img, pt_label = pair.torch[i]
        mx_img, mx_label = pair.gluon[i]
        assert mx_img.shape == (28, 28, 1) and mx_img.dtype == np.uint8
        np.testing.assert_array_equal(np.asarray(pt_img), mx_img.asnumpy()[:, :, 0], err_msg=f"image {i}")
        assert int(pt_label) == int(mx_label), f"label {i}"


@pytest.mark.parametrize("train, n", [(True, 60000), (False, 10000)])
def test_selected_dataset_gives_the_same_sample_in_both(train, n):
    """On the dataset selected by $SIDEBYSIDE_DATASET (MNIST by default: needs the internet once)."""
    pair = data.load(train=train)
    assert len(pair) == n
    assert_same_samples(pair, [0, 1, 2, n // 2, n - 1])
    if pair.name == "mnist":  # torchvision's download is exactly the files Gluon expects
        assert pair.gluon_route.stock, pair.gluon_route


def test_debian_fashion_mnist_in_both_frameworks(tmp_path):
    src = debian_fashion_mnist()
    pair = data.load("fashion-mnist", root=tmp_path, train=False, source=src)
    assert not pair.gluon_route.stock  # Debian recompressed the archives: Gluon's SHA-1s differ
    assert "Verified" in type(pair.gluon).__name__
    assert_same_samples(pair, [0, 4999, 9999])
    labels = np.array([int(pair.gluon[i][1]) for i in range(len(pair.gluon))])
    assert np.bincount(labels).tolist() == [1000] * 10  # the test split is balanced
    assert pair.classes[int(pair.torch[0][1])] == "Ankle boot"


def test_uncompressed_source_folder(tmp_path):
    src = tmp_path / "idx"
    src.mkdir()
    for f in data.FILES:  # decompress Debian's files: torchvision-style raw files only
        with gzip.open(debian_fashion_mnist() / f"{f}.gz") as fin, open(src / f, "wb") as fout:
            shutil.copyfileobj(fin, fout)
    root = tmp_path / "root"
    pair = data.load("fashion-mnist", root=root, train=True, source=src)
    assert sorted(os.listdir(pair.raw_dir)) == sorted(list(data.FILES) + [f"{f}.gz" for f in data.FILES])
    assert_same_samples(pair, [0, 59999])


def test_tampered_file_on_disk_is_caught(tmp_path):
    root = tmp_path / "root"
    raw = data.prepare("fashion-mnist", root=root, source=debian_fashion_mnist())
    blob = bytearray((raw / "t10k-labels-idx1-ubyte").read_bytes())
    blob[100] = (blob[100] + 1) % 10
    (raw / "t10k-labels-idx1-ubyte").write_bytes(bytes(blob))
    with pytest.raises(data.DataIntegrityError, match="t10k-labels-idx1-ubyte"):
        data.load("fashion-mnist", root=root, train=False)


def test_gluon_subclass_checks_content_itself(tmp_path):
    from sidebyside import _gluon_local

    raw = data.prepare("fashion-mnist", root=tmp_path, source=debian_fashion_mnist())
    (raw / "t10k-images-idx3-ubyte.gz").write_bytes(gzip.compress(b"\x00\x00\x08\x03" + bytes(12)))
    with pytest.raises(data.DataIntegrityError, match="t10k-images-idx3-ubyte"):
        _gluon_local.VerifiedFashionMNIST(root=str(raw), train=False)


def test_missing_gzipped_copy_is_restored(tmp_path):
    raw = data.prepare("fashion-mnist", root=tmp_path, source=debian_fashion_mnist())
    (raw / "t10k-labels-idx1-ubyte.gz").unlink()
    pair = data.load("fashion-mnist", root=tmp_path, train=False)
    assert (raw / "t10k-labels-idx1-ubyte.gz").is_file()
    assert_same_samples(pair, [0, 9999])


# --- the modules: idx stands alone -------------------------------------------------------------

def test_idx_needs_no_framework_and_gluon_local_not_data():
    code = ("import sys, sidebyside.idx\n"
            "assert not {'torch', 'mxnet'} & set(sys.modules), 'idx imported a framework'\n"
            "import sidebyside._gluon_local\n"
            "assert 'sidebyside.data' not in sys.modules, '_gluon_local imported data'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# --- the specs: normalisation constants are the training images' ------------------------------

def training_images(name):
    """The training images of ``name``: the shared copy, else a system package's; else skip."""
    spec = data.SPECS[name]
    for folder in (data.raw_dir(name), spec.default_source):
        for fname in ("train-images-idx3-ubyte", "train-images-idx3-ubyte.gz"):
            if folder is not None and (folder / fname).is_file():
                return folder / fname
    pytest.skip(f"no copy of {spec.folder}'s training images here (MNIST needs the internet once)")


@pytest.mark.parametrize("name", sorted(data.SPECS))
def test_spec_mean_and_std_are_the_training_pixels(name):
    spec, path = data.SPECS[name], training_images(name)
    blob = data.read_idx_bytes(path)
    data.check_original(spec, "train-images-idx3-ubyte", blob, path)
    pixels = np.frombuffer(blob, np.uint8, offset=16)  # after the header: magic, count, rows, cols
    assert pixels.size == 60_000 * 28 * 28
    mean = pixels.mean(dtype=np.float64) / 255
    std = pixels.std(dtype=np.float64) / 255  # population std (ddof=0)
    assert spec.mean == pytest.approx(mean, abs=5e-5)
    assert spec.std == pytest.approx(std, abs=5e-5)


# --- checked once: what prepare() and the Gluon route remember ---------------------------------

@pytest.fixture
def tiny_mnist(isolated_data_env, monkeypatch):
    """A folder of four small IDX files, and an "mnist" spec whose checksums are theirs."""
    src = isolated_data_env / "src"
    src.mkdir()
    md5 = {}
    for i, f in enumerate(data.FILES):  # label-file headers and three labels each
        blob = b"\x00\x00\x08\x01" + (3).to_bytes(4, "big") + bytes([i, 1, 2])
        (src / f).write_bytes(blob)
        md5[f] = hashlib.md5(blob).hexdigest()
    monkeypatch.setitem(data.SPECS, "mnist", dataclasses.replace(data.SPECS["mnist"], raw_md5=md5))
    return src


@pytest.fixture
def checked(monkeypatch):
    """The names of the files that data checks against the original checksums, in order."""
    names, original = [], data.check_original

    def counting(spec, fname, blob, where):
        names.append(fname)
        return original(spec, fname, blob, where)

    monkeypatch.setattr(data, "check_original", counting)
    return names


def new_mtime(path, seconds=1):
    """Move ``path``'s mtime on: what a rewrite does on a file system with fine timestamps."""
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 10**9))


def test_second_prepare_hashes_nothing(isolated_data_env, tiny_mnist, checked):
    root = isolated_data_env / "root"
    raw = data.prepare("mnist", root=root, source=tiny_mnist)
    assert len(checked) == 4  # an explicit source is imported and checked the first time
    assert data.prepare("mnist", root=root, source=tiny_mnist) == raw
    assert len(checked) == 4
    data.prepare("mnist", root=root)  # no source: a question of its own, checked once too
    data.prepare("mnist", root=root)
    assert len(checked) == 8


def test_touched_missing_or_corrupted_file_is_checked_again(isolated_data_env, tiny_mnist, checked):
    root = isolated_data_env / "root"
    raw = data.prepare("mnist", root=root, source=tiny_mnist)
    data.prepare("mnist", root=root)
    assert len(checked) == 8
    target = raw / "t10k-labels-idx1-ubyte"
    new_mtime(target)  # same bytes, new mtime: checked in full again, then remembered again
    data.prepare("mnist", root=root)
    data.prepare("mnist", root=root)
    assert len(checked) == 12
    (raw / "train-images-idx3-ubyte.gz").unlink()  # missing: checked again, and restored
    data.prepare("mnist", root=root)
    assert len(checked) == 16 and (raw / "train-images-idx3-ubyte.gz").is_file()
    blob = bytearray(target.read_bytes())
    blob[-1] ^= 0xFF
    target.write_bytes(bytes(blob))  # same size, other bytes
    new_mtime(target, 2)  # independent of the file system's timestamp resolution
    for _ in range(2):  # caught, and a failed check is not remembered
        with pytest.raises(data.DataIntegrityError, match="t10k-labels-idx1-ubyte"):
            data.prepare("mnist", root=root)


def test_clear_cache_forgets(isolated_data_env, tiny_mnist, checked):
    root = isolated_data_env / "root"
    data.prepare("mnist", root=root, source=tiny_mnist)
    data.clear_cache()
    data.prepare("mnist", root=root, source=tiny_mnist)
    assert len(checked) == 8


def test_second_load_checks_neither_files_nor_route(tmp_path, monkeypatch, checked):
    src = debian_fashion_mnist()
    first = data.load("fashion-mnist", root=tmp_path, train=False, source=src)
    hashed, sha1_file = [], data.sha1_file
    monkeypatch.setattr(data, "sha1_file", lambda path: hashed.append(path) or sha1_file(path))
    n = len(checked)
    second = data.load("fashion-mnist", root=tmp_path, train=False, source=src)
    assert (len(checked), hashed) == (n, [])
    assert second.gluon_route == first.gluon_route and not second.gluon_route.stock
    assert_same_samples(second, [0, 9999])
    new_mtime(first.raw_dir / "t10k-images-idx3-ubyte.gz")  # the source is imported again...
    assert data.gluon_route("fashion-mnist", root=tmp_path, train=False, source=src) == first.gluon_route
    assert len(checked) == n + 4 and len(hashed) == 2  # ...and the route checked again


# --- bad input leaves the disk as it was ------------------------------------------------------

def test_one_wrong_file_among_good_ones_writes_none(isolated_data_env, tiny_mnist):
    """Every file of the source folder is checked before the first is written."""
    (tiny_mnist / "t10k-labels-idx1-ubyte").write_bytes(b"\x00\x00\x08\x01" + bytes(7))
    root = isolated_data_env / "root"
    with pytest.raises(data.DataIntegrityError, match="is not the original MNIST file 't10k-labels"):
        data.prepare("mnist", root=root, source=tiny_mnist)
    assert not root.exists()


@pytest.mark.parametrize("damage", ["truncated", "corrupted"])
def test_broken_gzip_in_the_source_folder_is_named(isolated_data_env, tiny_mnist, damage):
    for f in data.FILES:  # the same files, gzipped
        (tiny_mnist / f"{f}.gz").write_bytes(gzip.compress((tiny_mnist / f).read_bytes()))
        (tiny_mnist / f).unlink()
    broken = tiny_mnist / "t10k-images-idx3-ubyte.gz"
    blob = broken.read_bytes()
    broken.write_bytes(blob[:-10] if damage == "truncated" else blob[:-8] + bytes(8))  # CRC
    root = isolated_data_env / "root"
    with pytest.raises(data.DataIntegrityError,
                       match=r"t10k-images-idx3-ubyte.gz is not a readable gzip file .*truncated or "
                             r"corrupted"):
        data.prepare("mnist", root=root, source=tiny_mnist)
    assert not root.exists()


def test_truncated_file_in_the_data_folder_is_named_and_left_alone(isolated_data_env, tiny_mnist):
    root = isolated_data_env / "root"
    raw = data.prepare("mnist", root=root, source=tiny_mnist)
    (raw / "train-images-idx3-ubyte.gz").unlink()  # a copy the next call would restore...
    target = raw / "t10k-labels-idx1-ubyte"
    target.write_bytes(target.read_bytes()[:-1])
    before = tree(root)
    data.clear_cache()
    with pytest.raises(data.DataIntegrityError,
                       match="t10k-labels-idx1-ubyte is not the original MNIST file"):
        data.prepare("mnist", root=root)
    assert tree(root) == before  # ...but not when another file is bad: nothing was written
    assert len(target.read_bytes()) == 10


def test_truncated_gzip_in_the_data_folder_is_named_when_gluon_reads_it(isolated_data_env,
                                                                        tiny_mnist):
    root = isolated_data_env / "root"
    raw = data.prepare("mnist", root=root, source=tiny_mnist)
    target = raw / "t10k-images-idx3-ubyte.gz"
    target.write_bytes(target.read_bytes()[:-10])
    before = tree(root)
    with pytest.raises(data.DataIntegrityError,
                       match=r"t10k-images-idx3-ubyte.gz is not a readable gzip file"):
        data.gluon_dataset("mnist", root=root, train=False)
    assert tree(root) == before


def test_data_folder_under_a_file_writes_nothing(isolated_data_env, tiny_mnist, no_downloads,
                                                 monkeypatch):
    blocker = isolated_data_env / "not-a-folder"
    blocker.write_text("a file where the data folder should go")
    monkeypatch.setenv("SIDEBYSIDE_DATA", str(blocker / "data"))
    message = (r"cannot write the data folder .*not-a-folder/data/MNIST/raw: .*not-a-folder is a "
               r"file, not a folder\. Point \$SIDEBYSIDE_DATA")
    with pytest.raises(data.DataFolderUnwritable, match=message):
        data.prepare("mnist", source=tiny_mnist)   # importing a folder
    with pytest.raises(data.DataFolderUnwritable, match=message):
        data.prepare("mnist")                      # downloading
    assert issubclass(data.DataFolderUnwritable, data.DatasetUnavailable)
    assert blocker.read_text() == "a file where the data folder should go"


def test_read_only_data_folder_writes_nothing(isolated_data_env, tiny_mnist, no_downloads):
    root = isolated_data_env / "root"
    root.mkdir()
    root.chmod(0o555)
    try:
        try:
            (root / "probe").touch()
        except PermissionError:
            pass
        else:
            pytest.skip("this user writes to read-only folders (root)")
        with pytest.raises(data.DataFolderUnwritable, match=r"root is not writable\. Point"):
            data.prepare("mnist", root=root, source=tiny_mnist)
        with pytest.raises(data.DataFolderUnwritable, match=r"root is not writable\. Point"):
            data.prepare("mnist", root=root)
        assert tree(root) == []
    finally:
        root.chmod(0o755)
    raw = data.prepare("mnist", root=root, source=tiny_mnist)
    raw.chmod(0o555)   # a read-only folder that already holds the files is read as it is
    try:
        data.clear_cache()
        assert data.prepare("mnist", root=root) == raw
    finally:
        raw.chmod(0o755)
