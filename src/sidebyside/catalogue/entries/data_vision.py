"""``mx.gluon.data.vision`` datasets → ``torchvision.datasets`` (and ``sidebyside.recordio``),
checked on small synthetic files written in each library's own format."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry

_NB4 = "04_data_loading §"
_H = "from sidebyside.catalogue.harness_data import "
_FILES_NOTE = ("No download here: the harness writes the same synthetic images and labels as "
               "Gluon's files and as torchvision's (harness_data), and accepts them in place of "
               "the integrity checks (Gluon's SHA-1, torchvision's MD5); nothing else is "
               "patched.")
_XFORM = ("transform=fn(data, label) → transform=f (the image only) and target_transform=g "
          "(the label only); a label-dependent fn needs a wrapper dataset (notebook 18 §4)")

_MNIST_MX = """
    {h}mnist_roots, sha1_ok, nonscalar
    with sha1_ok():
        ds = gluon.data.vision.{cls}(root=mnist_roots('{name}')['mx'], train={train})
    samples = [ds[i] for i in range(len(ds))]
    nonscalar([len(ds)] + [img for img, _ in samples] + [onp.array([lab for _, lab in samples]),
               str(samples[0][1].dtype)])"""
_MNIST_TV = """
    import torchvision
    {h}mnist_roots, nonscalar
    ds = torchvision.datasets.{name}(root=mnist_roots('{name}')['tv'], train={train})
    samples = [ds[i] for i in range(len(ds))]
    imgs = [torchvision.transforms.functional.pil_to_tensor(img).permute(1, 2, 0)
            for img, _ in samples]                             # PIL → CHW → HWC
    labels = onp.array([lab for _, lab in samples], dtype='int32')
    nonscalar([len(ds)] + imgs + [labels, str(labels.dtype)])"""


def _mnist(cls, name, train):
    return check(_MNIST_MX.format(h=_H, cls=cls, name=name, train=train),
                 _MNIST_TV.format(h=_H, name=name, train=train), dtypes=("float64",),
                 note=_FILES_NOTE)


_CIFAR_MX = """
    {h}cifar_roots, sha1_ok, nonscalar
    with sha1_ok():
        ds = gluon.data.vision.{cls}(root=cifar_roots('{cls}')['mx']{extra}, train=True)
    samples = [ds[i] for i in range(len(ds))]
    nonscalar([len(ds)] + [img for img, _ in samples] + [onp.array([lab for _, lab in samples]),
               str(samples[0][1].dtype)])"""
_CIFAR_TV = """
    import torchvision
    {h}cifar_roots, md5_ok, nonscalar
    root = cifar_roots('{cls}')['tv']
    with md5_ok():
        ds = torchvision.datasets.{cls}(root=root, train=True)
    {fix}samples = [ds[i] for i in range(len(ds))]
    imgs = [torch.from_numpy(onp.asarray(img)) for img, _ in samples]   # PIL RGB → HWC
    labels = onp.array([lab for _, lab in samples], dtype='int32')
    nonscalar([len(ds)] + imgs + [labels, str(labels.dtype)])"""

_COARSE = """import os
    import pickle
    with open(os.path.join(root, ds.base_folder, 'train'), 'rb') as f:   # 'test' for train=False
        ds.targets = pickle.load(f, encoding='latin1')['coarse_labels']
    """

_REC_MX = """
    {h}rec_file, nonscalar
    ds = gluon.data.vision.ImageRecordDataset(rec_file({args})['rec']{flag})
    samples = [ds[i] for i in range(len(ds))]
    nonscalar([len(ds)] + [img{cast} for img, _ in samples] + [onp.array([lab for _, lab in
               samples], dtype='float32'), type(samples[0][1]).__name__])"""
_REC_TV = """
    import os
    from sidebyside import recordio
    {h}rec_file, nonscalar
    filename = rec_file({args})['rec']
    ds = recordio.RecordDataset(filename, os.path.splitext(filename)[0] + '.idx', mode={mode!r})
    samples = [ds[i] for i in range(len(ds))]
    imgs = [torch.from_numpy(onp.asarray(img)).reshape(8, 6, -1){cast} for img, _ in samples]
    nonscalar([len(ds)] + imgs + [onp.array([lab for _, lab in samples], dtype='float32'),
               type(samples[0][1]).__name__])"""

_FOLDER_MX = """
    import os
    {h}image_folder, nonscalar
    root = image_folder({gray})
    ds = gluon.data.vision.ImageFolderDataset(root{flag})
    rel = [os.path.relpath(p, root) for p, _ in ds.items]
    nonscalar([ds.synsets, rel, [t for _, t in ds.items]]
              + [img{cast} for img, _ in (ds[i] for i in range(len(ds)))])"""
_FOLDER_TV = """
    import os
    import torchvision
    from PIL import Image
    {h}image_folder, nonscalar
    root = image_folder({gray})
    ds = torchvision.datasets.ImageFolder(root{loader})
    rel = [os.path.relpath(p, root) for p, _ in ds.samples]
    imgs = [torch.from_numpy(onp.asarray(img)).reshape(5, 7, -1){cast}
            for img, _ in (ds[i] for i in range(len(ds)))]
    nonscalar([ds.classes, rel, [t for _, t in ds.samples]] + imgs)"""

ENTRIES = [
    entry("mx.gluon.data.vision.MNIST",
          torch="torchvision.datasets.MNIST(root, train=train)", status=ARGS,
          args="root → root (torchvision reads <root>/MNIST/raw/, the uncompressed IDX files; "
               "Gluon reads the .gz files in root itself); train → train; " + _XFORM,
          defaults="root: $MXNET_HOME/datasets/mnist vs required; Gluon downloads a missing "
                   "file always (no download=), torchvision only with download=True",
          gotchas=["a sample: (28, 28, 1) uint8 NDArray (HWC) and a NumPy int32 label vs a "
                   "PIL 'L' image and a Python int (pil_to_tensor gives (1, 28, 28) CHW; "
                   "batched by default_collate the labels are int64)"],
          teach=_NB4 + "9. The vision datasets",
          check=_mnist("MNIST", "MNIST", True)),
    entry("mx.gluon.data.vision.FashionMNIST",
          torch="torchvision.datasets.FashionMNIST(root, train=train)", status=ARGS,
          args="root → root (torchvision: <root>/FashionMNIST/raw/); train → train; " + _XFORM,
          defaults="root: $MXNET_HOME/datasets/fashion-mnist vs required",
          gotchas=["(28, 28, 1) uint8 NDArray and an int32 label vs a PIL 'L' image and an int"],
          teach=_NB4 + "Fashion-MNIST, offline, through both loaders",
          check=_mnist("FashionMNIST", "FashionMNIST", False)),
    entry("mx.gluon.data.vision.CIFAR10",
          torch="torchvision.datasets.CIFAR10(root, train=train)", status=ARGS,
          args="root → root (different archives: Gluon the binary records "
               "data_batch_k.bin, torchvision the Python pickles under "
               "cifar-10-batches-py/: one download cannot serve both); train → train; " + _XFORM,
          defaults="Gluon downloads missing files always, torchvision only with download=True",
          gotchas=["a sample: (32, 32, 3) uint8 NDArray (HWC, RGB) and an int32 label vs a "
                   "PIL RGB image (the same pixels) and an int"],
          teach=_NB4 + "CIFAR-10 and CIFAR-100: what each side does without the files",
          check=check(_CIFAR_MX.format(h=_H, cls="CIFAR10", extra=""),
                      _CIFAR_TV.format(h=_H, cls="CIFAR10", fix=""), dtypes=("float64",),
                      note=_FILES_NOTE)),
    entry("mx.gluon.data.vision.CIFAR100",
          torch="torchvision.datasets.CIFAR100(root, train=train), then its targets := the "
                "archive's 'coarse_labels'", status=COMPOSITE,
          recipe="import os, pickle\n\nds = torchvision.datasets.CIFAR100(root, train=train)\n"
                 "with open(os.path.join(root, ds.base_folder, 'train' if train else 'test'), "
                 "'rb') as f:\n    ds.targets = pickle.load(f, encoding='latin1')"
                 "['coarse_labels']   # Gluon's default: the 20 superclasses",
          args="root → root; fine_label=False (the default) → the coarse labels, which "
               "torchvision does not offer (the recipe reads them from its archive); train → "
               "train; " + _XFORM,
          defaults="Gluon's labels are the 20 coarse classes unless fine_label=True; "
                   "torchvision's are always the 100 fine ones",
          teach=_NB4 + "CIFAR-10 and CIFAR-100: what each side does without the files",
          check=check(_CIFAR_MX.format(h=_H, cls="CIFAR100", extra=""),
                      _CIFAR_TV.format(h=_H, cls="CIFAR100", fix=_COARSE),
                      dtypes=("float64",), note=_FILES_NOTE)),
    entry("mx.gluon.data.vision.CIFAR100", form="fine_label=True", when=["fine_label=True"],
          signature=("root", "fine_label", "train", "transform"),
          torch="torchvision.datasets.CIFAR100(root, train=train)", status=ARGS,
          args="fine_label=True → torchvision's only labels (100 classes); root, train as "
               "the default form",
          teach=_NB4 + "CIFAR-10 and CIFAR-100: what each side does without the files",
          check=check(_CIFAR_MX.format(h=_H, cls="CIFAR100", extra=", fine_label=True"),
                      _CIFAR_TV.format(h=_H, cls="CIFAR100", fix=""), dtypes=("float64",),
                      note=_FILES_NOTE)),
    entry("mx.gluon.data.vision.ImageRecordDataset",
          torch="sidebyside.recordio.RecordDataset(filename, os.path.splitext(filename)[0] + "
                "'.idx', mode='RGB')", status=RECIPE,
          recipe="""
              import os
              from sidebyside import recordio   # pure Python: struct, NumPy, Pillow

              ds = recordio.RecordDataset(filename, os.path.splitext(filename)[0] + '.idx',
                                          mode='RGB', transform=f, target_transform=g)""",
          args="filename → rec_path (the .idx beside it: Gluon finds it by the same stem); "
               "flag=1 → mode='RGB' (flag=0: its own form); " + _XFORM,
          gotchas=["a sample: (H, W, 3) uint8 NDArray (RGB) and the header's label as a "
                   "Python float vs a PIL image (the same pixels) and the same float"],
          teach="18_legacy_data_recordio §Reading with MXNet, three ways",
          note="The .rec here was written by MXNet's MXIndexedRecordIO (PNG payloads).",
          check=check(_REC_MX.format(h=_H, args="", flag="", cast=""),
                      _REC_TV.format(h=_H, args="", mode="RGB", cast=""), dtypes=("float32",))),
    entry("mx.gluon.data.vision.ImageRecordDataset", form="flag=0", when=["flag=0"],
          signature=("filename", "flag", "transform"),
          torch="sidebyside.recordio.RecordDataset(filename, os.path.splitext(filename)[0] + "
                "'.idx', mode='L')", status=RECIPE,
          recipe="""
              import os
              from sidebyside import recordio

              ds = recordio.RecordDataset(filename, os.path.splitext(filename)[0] + '.idx',
                                          mode='L')   # images (H, W); Gluon's are (H, W, 1)""",
          args="flag=0 → mode='L'",
          gotchas=["colour records converted to gray differ by 1 grey level (OpenCV's "
                   "fixed-point BGR2GRAY in MXNet vs Pillow's convert('L')); gray records "
                   "are equal", "Gluon's gray image is (H, W, 1), Pillow's (H, W)"],
          teach="18_legacy_data_recordio §Reading with MXNet, three ways",
          check=check(_REC_MX.format(h=_H, args="", flag=", flag=0",
                                     cast=".astype('float32')"),
                      _REC_TV.format(h=_H, args="", mode="L", cast=".float()"),
                      dtypes=("float32",), atol32=1.0, rtol32=0.0,
                      note="Colour PNG records read as gray: |MXNet − Pillow| ≤ 1 grey level "
                           "(compared as float32 with atol 1); see the gotcha.")),
    entry("mx.gluon.data.vision.ImageFolderDataset",
          aliases=["mx.gluon.data.vision.datasets.ImageFolderDataset"],
          torch="torchvision.datasets.ImageFolder(root)", status=ARGS,
          args="root → root; flag=1 → the default loader (PIL, converted to RGB); flag=0: its "
               "own form; synsets → classes; items → samples; " + _XFORM,
          gotchas=["the classes are the sorted folder names on both sides, and the files "
                   "sorted within each", "a sample: (H, W, 3) uint8 NDArray (decoded by "
                   "OpenCV) vs a PIL RGB image: the same pixels for PNG",
                   "an empty class folder: torchvision raises (allow_empty=True to accept), "
                   "Gluon shifts every label silently (notebook 4 §10)"],
          teach=_NB4 + "10. `ImageFolder` vs `ImageFolderDataset`",
          check=check(_FOLDER_MX.format(h=_H, gray="", flag="", cast=""),
                      _FOLDER_TV.format(h=_H, gray="", loader="", cast=""),
                      dtypes=("float32",))),
    entry("mx.gluon.data.vision.ImageFolderDataset", form="flag=0", when=["flag=0"],
          signature=("root", "flag", "transform"),
          torch="torchvision.datasets.ImageFolder(root, loader=lambda path: "
                "PIL.Image.open(path).convert('L'))", status=ARGS,
          args="flag=0 → a loader that converts to 'L' (gray images (H, W) vs Gluon's "
               "(H, W, 1))",
          gotchas=["colour files converted to gray differ by 1 grey level (OpenCV vs Pillow); "
                   "gray PNG files are equal"],
          teach=_NB4 + "10. `ImageFolder` vs `ImageFolderDataset`",
          check=check(_FOLDER_MX.format(h=_H, gray="", flag=", flag=0",
                                                         cast=".astype('float32')"),
                      _FOLDER_TV.format(
                          h=_H, gray="", cast=".float()",
                          loader=", loader=lambda path: Image.open(path).convert('L')"),
                      dtypes=("float32",), atol32=1.0, rtol32=0.0,
                      note="Colour PNGs read as gray: |MXNet − Pillow| ≤ 1 grey level "
                           "(compared as float32 with atol 1).")),
]
