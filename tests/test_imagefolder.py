import numpy as np
import pytest

from sidebyside import data
from sidebyside.imagefolder import ImageFolderTree, write_image_folder


@pytest.fixture(scope="module")
def pair():
    """The test split of the dataset selected by $SIDEBYSIDE_DATASET (as test_data.py)."""
    return data.load(train=False)


def safe_names(pair):
    return [c.replace("/", "-") for c in pair.classes]


@pytest.mark.parametrize("side", ["torch", "gluon"])
def test_writes_first_samples_of_each_class_from_either_framework(pair, side, tmp_path):
    root = tmp_path / "tree"
    tree = write_image_folder(getattr(pair, side), root, safe_names(pair), per_class=2)
    assert isinstance(tree, ImageFolderTree) and tree.root == root
    assert len(tree) == 20
    assert sorted(p.name for p in root.iterdir()) == sorted(safe_names(pair))
    labels = np.array([int(pair.gluon[i][1]) for i in range(max(tree.indices) + 1)])
    for c in range(10):  # the first two indices of each label, nothing else
        assert [im.index for im in tree.images if im.label == c] == \
            np.flatnonzero(labels == c)[:2].tolist()
    assert tree.indices == sorted(tree.indices)  # written in the dataset's order
    for im in tree.images:
        assert im.path.parent.name == tree.class_names[im.label]
        assert im.path.name == f"{im.index:08d}.png"


def test_png_pixels_are_the_sample_pixels(pair, tmp_path):
    from PIL import Image

    tree = write_image_folder(pair.torch, tmp_path / "t", safe_names(pair), per_class=1)
    for im in tree.images:
        with Image.open(im.path) as png:
            assert png.mode == "L" and png.size == (28, 28)
            np.testing.assert_array_equal(np.asarray(png), np.asarray(pair.torch[im.index][0]))


def test_both_readers_see_the_tree(pair, tmp_path):
    import torchvision
    from mxnet.gluon.data.vision import ImageFolderDataset

    tree = write_image_folder(pair.gluon, tmp_path / "t", safe_names(pair), per_class=1)
    pt = torchvision.datasets.ImageFolder(str(tree.root))
    mx = ImageFolderDataset(str(tree.root), flag=0)
    assert pt.classes == mx.synsets == sorted(tree.class_names)
    assert [t for _, t in pt.samples] == [label for _, label in mx.items]


def test_rgb_and_single_channel_arrays(tmp_path):
    """Channels-last uint8 arrays of the three accepted shapes round-trip exactly."""
    from PIL import Image

    rng = np.random.default_rng(0)
    gray = rng.integers(0, 256, (5, 4), dtype=np.uint8)
    rgb = rng.integers(0, 256, (5, 4, 3), dtype=np.uint8)
    samples = [(gray, 0), (gray[:, :, None], 1), (rgb, 2)]
    tree = write_image_folder(samples, tmp_path / "t", ["a", "b", "c"], per_class=1)
    want = [gray, gray, rgb]
    for im in tree.images:
        with Image.open(im.path) as png:
            np.testing.assert_array_equal(np.asarray(png), want[im.index])


def test_stops_reading_once_every_class_is_full(tmp_path):
    def samples():
        yield np.zeros((2, 2), np.uint8), 0
        yield np.zeros((2, 2), np.uint8), 1
        raise AssertionError("read past the last needed sample")

    assert len(write_image_folder(samples(), tmp_path / "t", ["a", "b"], per_class=1)) == 2


def test_empty_existing_root_is_fine(tmp_path):
    tree = write_image_folder([(np.zeros((2, 2), np.uint8), 0)], tmp_path, ["a"], per_class=1)
    assert len(tree) == 1


# ---- bad input --------------------------------------------------------------------------

IMG = np.zeros((2, 2), np.uint8)


@pytest.mark.parametrize("per_class, exc, match", [
    (0, ValueError, "at least 1"), (-1, ValueError, "at least 1"),
    (1.5, TypeError, "must be an int"), (True, TypeError, "must be an int"),
])
def test_bad_per_class(tmp_path, per_class, exc, match):
    with pytest.raises(exc, match=match):
        write_image_folder([(IMG, 0)], tmp_path / "t", ["a"], per_class=per_class)


@pytest.mark.parametrize("names, exc, match", [
    ("ab", TypeError, "sequence of folder names"),
    ([], ValueError, "empty"),
    (["a", 3], TypeError, r"class_names\[1\] must be a str"),
    (["T-shirt/top"], ValueError, "path separator '/'.*'T-shirt-top'"),
    (["a\\b"], ValueError, "path separator"),
    (["a", ".."], ValueError, "cannot be a folder name"),
    (["a", " "], ValueError, "cannot be a folder name"),
    (["a", "b", "a"], ValueError, r"class_names\[0\] and class_names\[2\] are both 'a'"),
])
def test_bad_class_names(tmp_path, names, exc, match):
    with pytest.raises(exc, match=match):
        write_image_folder([(IMG, 0)], tmp_path / "t", names, per_class=1)
    assert not (tmp_path / "t").exists()  # nothing written


def test_root_not_empty(tmp_path):
    (tmp_path / "old.txt").write_text("x")
    with pytest.raises(FileExistsError, match="not empty"):
        write_image_folder([(IMG, 0)], tmp_path, ["a"], per_class=1)


def test_root_is_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(NotADirectoryError):
        write_image_folder([(IMG, 0)], tmp_path / "f", ["a"], per_class=1)


@pytest.mark.parametrize("samples, exc, match", [
    ([(IMG, 2)], ValueError, r"sample 0: label 2 is outside \[0, 2\)"),
    ([(IMG, -1)], ValueError, "outside"),
    ([(IMG, 0.0)], TypeError, "sample 0: the label must be an integer"),
    ([(IMG, np.array([0, 1]))], TypeError, "must be one integer"),
    ([(IMG, 0), (IMG,)], ValueError, r"sample 1 is not an \(image, label\) pair"),
    ([(IMG, 0), 7], ValueError, "sample 1 is not"),
    ([(IMG.astype(np.float32), 0)], TypeError, "dtype float32.*uint8"),
    ([(np.zeros((1, 2, 2), np.uint8), 0)], ValueError, r"shape \(1, 2, 2\).*channels-last"),
    ([(np.zeros((2, 2, 4), np.uint8), 0)], ValueError, "shape"),
    ([(np.zeros((2,), np.uint8), 0)], ValueError, "shape"),
    ([(np.zeros((0, 2), np.uint8), 0)], ValueError, "shape"),
    (7, TypeError, "iterable of"),
])
def test_bad_samples(tmp_path, samples, exc, match):
    with pytest.raises(exc, match=match):
        write_image_folder(samples, tmp_path / "t", ["a", "b"], per_class=1)
    assert not (tmp_path / "t").exists()  # checked before anything is written


def test_too_few_samples_names_the_classes(tmp_path):
    with pytest.raises(ValueError, match=r"wanted 2 per class.*\{'a': 1, 'b': 0\}"):
        write_image_folder([(IMG, 0)], tmp_path / "t", ["a", "b"], per_class=2)
    assert not (tmp_path / "t").exists()


def test_labels_from_framework_scalars(tmp_path):
    import mxnet as mx
    import torch

    samples = [(IMG, torch.tensor(1)), (IMG, mx.nd.array([0], dtype="int32")), (IMG, np.int64(1))]
    tree = write_image_folder(samples, tmp_path / "t", ["a", "b"], per_class=1)
    assert tree.labels == [1, 0]
