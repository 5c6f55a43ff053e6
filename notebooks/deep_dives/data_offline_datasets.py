# %% [markdown]
# # Deep dive · Vision datasets without their files: CIFAR on both sides
#
# [Notebook 4](../04_data_loading.ipynb) §9 reads from the signatures and the sources what
# torchvision's and Gluon's CIFAR classes do; this deep dive runs it, offline. What happens
# when the files are missing (torchvision refuses, Gluon downloads), and what the two
# archive formats hold: the same three records, written here in each format and read by
# each side's own code, with the label each side gives by default.
#
# **Time**: about 10 minutes.

# %% tags=["nbval-ignore-output"]
import contextlib
import inspect
import io
import os
import pickle
import tempfile
from pathlib import Path

import mxnet as mx
import numpy as np
import torch
import torchvision

from sidebyside import devices, errors, seeding

SEED = seeding.seed_everything(0)
devs = devices.pick()
pt_dev, mx_ctx = devs.torch.device, devs.mxnet.device
folder = tempfile.TemporaryDirectory()
WORK = Path(folder.name)
CIFARS = ("CIFAR10", "CIFAR100")
pt_vision = {n: getattr(torchvision.datasets, n) for n in CIFARS}
mx_vision = {n: getattr(mx.gluon.data.vision, n) for n in CIFARS}
print(f"torch {torch.__version__} · torchvision {torchvision.__version__}"
      f" · mxnet {mx.__version__}")

# %% [markdown]
# ## 1. Without the files: refuse, or download
#
# **PyTorch** only downloads when asked (`download=False` is the default), so without the
# files the constructor fails at once:

# %% tags=["pytorch"]
pt_cifar = {n: errors.catch(lambda n=n: pt_vision[n](str(WORK / "empty"))).brief
            for n in CIFARS}
pt_cifar

# %% [markdown]
# **Gluon** has no `download` argument: a missing file is always downloaded, from
# `$MXNET_GLUON_REPO` (default: Apache MXNet's S3 bucket), with five attempts. So that this
# cell neither downloads 330 MB when online nor depends on the network, it points that
# repository at a closed local port: the failure is the same `requests` `ConnectionError`
# that a machine without internet gets (there it names the S3 host instead).

# %% tags=["gluon"]
def gluon_cifar(name):
    """The error's type, and how many times Gluon said 'Downloading'."""
    log = io.StringIO()
    old = os.environ.get("MXNET_GLUON_REPO")
    os.environ["MXNET_GLUON_REPO"] = "http://127.0.0.1:9/"
    try:
        with contextlib.redirect_stdout(log):
            error = errors.catch(lambda: mx_vision[name](root=str(WORK / "empty"))).brief
    finally:
        if old is None:
            del os.environ["MXNET_GLUON_REPO"]
        else:
            os.environ["MXNET_GLUON_REPO"] = old
    return error[0], log.getvalue().count("Downloading ")


mx_cifar = {n: gluon_cifar(n) for n in CIFARS}
mx_cifar

# %%
not_found = ("RuntimeError", "Dataset not found or corrupted. "
             "You can use download=True to download it")
assert pt_cifar == {n: not_found for n in CIFARS}
assert mx_cifar == {n: ("ConnectionError", 5) for n in CIFARS}
assert inspect.signature(pt_vision["CIFAR10"]).parameters["download"].default is False
assert "download" not in inspect.signature(mx_vision["CIFAR10"]).parameters
"torchvision: RuntimeError at once; Gluon: five download attempts, then ConnectionError"

# %% [markdown]
# ## 2. Two archives, the same records
#
# The two sides download different archives: torchvision the Python-pickle version (a dict
# with `data`, `labels` or `fine_labels`), Gluon the binary version (fixed-size records:
# the label bytes, then 3,072 pixel bytes, red plane, green plane, blue plane). Gluon's
# archive name is set in the constructor, read here from an instance that loads nothing:

# %%
class _NoLoad:
    def _get_data(self):  # keep the attributes __init__ sets, load nothing
        pass


def gluon_probe(name, **options):
    return type("Probe", (_NoLoad, mx_vision[name]), {})(root=str(WORK / "empty"), **options)


archives = {n: (pt_vision[n].filename, gluon_probe(n)._archive_file[0]) for n in CIFARS}
assert archives == {
    "CIFAR10": ("cifar-10-python.tar.gz", "cifar-10-binary.tar.gz"),
    "CIFAR100": ("cifar-100-python.tar.gz", "cifar-100-binary.tar.gz")}
archives

# %% [markdown]
# Each CIFAR-100 record carries two labels, a **coarse** one (20 super-classes) and a
# **fine** one (100 classes). Three records of random pixels with known labels, written in
# each format, and read by each side's own reading code (the checksums of the real files,
# which these small files cannot match, are skipped):

# %%
rng = np.random.default_rng(SEED)
pixels = rng.integers(0, 256, size=(3, 3 * 32 * 32), dtype=np.uint8)   # planes R, G, B
coarse, fine = [3, 7, 19], [42, 99, 0]

binary = WORK / "test.bin"
binary.write_bytes(np.concatenate(
    [np.array([coarse, fine], dtype=np.uint8).T, pixels], axis=1).tobytes())
python_dir = WORK / "torch" / torchvision.datasets.CIFAR100.base_folder
python_dir.mkdir(parents=True)
with open(python_dir / "test", "wb") as f:
    pickle.dump({"data": pixels, "fine_labels": fine, "coarse_labels": coarse}, f)
with open(python_dir / "meta", "wb") as f:
    pickle.dump({"fine_label_names": [f"class {k}" for k in range(100)]}, f)


class UncheckedCIFAR100(torchvision.datasets.CIFAR100):
    def _check_integrity(self):
        return True

    def _load_meta(self):
        with open(python_dir / "meta", "rb") as f:
            self.classes = pickle.load(f)["fine_label_names"]


# %% [markdown]
# **PyTorch**: torchvision's `CIFAR100` over the pickle.

# %% tags=["pytorch"]
pt_records = UncheckedCIFAR100(str(WORK / "torch"), train=False)
pt_images = np.stack([np.asarray(pt_records[k][0]) for k in range(3)])
pt_labels = [pt_records[k][1] for k in range(3)]
(pt_images.shape, pt_labels)

# %% [markdown]
# **Gluon**: `CIFAR100._read_batch` over the binary file, with the default
# `fine_label=False` and with `fine_label=True`.

# %% tags=["gluon"]
mx_images, mx_coarse = gluon_probe("CIFAR100")._read_batch(str(binary))
_, mx_fine = gluon_probe("CIFAR100", fine_label=True)._read_batch(str(binary))
(mx_images.shape, mx_coarse.tolist(), mx_fine.tolist())

# %% [markdown]
# **Check**: the same pixels, channels last on both sides; torchvision gives the fine
# labels, Gluon the coarse ones unless `fine_label=True`.

# %%
assert np.array_equal(pt_images, mx_images)
assert np.array_equal(pt_images, pixels.reshape(3, 3, 32, 32).transpose(0, 2, 3, 1))
assert pt_labels == fine and mx_fine.tolist() == fine and mx_coarse.tolist() == coarse
assert inspect.signature(mx_vision["CIFAR100"]).parameters["fine_label"].default is False
pt_reader = inspect.getsource(torchvision.datasets.CIFAR10.__init__)
assert 'entry["fine_labels"]' in pt_reader and "coarse" not in pt_reader
{"torchvision CIFAR100 labels": "fine", "gluon CIFAR100 labels": "coarse",
 "gluon CIFAR100(fine_label=True)": "fine"}

# %% [markdown]
# ## What this means for a port
#
# - A Gluon script that reads CIFAR downloads it the first time it runs; a torchvision one
#   needs `download=True` once, or the files in place. Offline, neither can build it.
# - One download does not serve both sides: the archives differ (pickles against binary
#   records), though a record carries the same pixels and labels in either format.
# - A CIFAR-100 port from Gluon to torchvision changes the labels from 20 coarse classes to
#   100 fine ones unless the Gluon code said `fine_label=True`: check the number of classes
#   of the network's last layer. torchvision's reader takes `fine_labels` only; for the
#   coarse ones, read the pickle's `coarse_labels` yourself.
