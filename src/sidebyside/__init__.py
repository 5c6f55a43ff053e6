"""Helpers for the PyTorch ⇄ Apache MXNet Gluon side-by-side tutorials.

One job per module:

- :mod:`sidebyside.envreport` — versions, build features and known-bad combinations;
- :mod:`sidebyside.devices`   — a device for each framework, with a plain reason;
- :mod:`sidebyside.threads`   — each framework's CPU thread count, and what ``import mxnet`` does to it;
- :mod:`sidebyside.seeding`   — one call seeds Python, numpy, torch and mxnet;
- :mod:`sidebyside.data`      — the MNIST family for both frameworks from one place on disk;
- :mod:`sidebyside.idx`       — the MNIST family's IDX files: specs, checksums, readers;
- :mod:`sidebyside.compare`   — numeric comparison of tensors from either framework;
- :mod:`sidebyside.errors`    — run a call that must fail; keep its type and clean message;
- :mod:`sidebyside.apimap`    — the tensor API map as data, executed and compared row by row;
- :mod:`sidebyside.mappings`  — the notebooks' mapping tables (PyTorch | MXNet columns), read from their sources;
- :mod:`sidebyside.transfer`  — copy weights between an ``nn.Module`` and a Gluon ``Block``;
- :mod:`sidebyside.initmap`   — initialise an ``nn.Module`` as an ``mx.init`` initialiser would its Gluon twin;
- :mod:`sidebyside.checkpoint` — whole checkpoints for both frameworks; damaged files named, digests;
- :mod:`sidebyside.convert`   — a ``.params`` file ⇄ a PyTorch state dict file, verified; a CLI;
- :mod:`sidebyside.optim`     — PyTorch's Adadelta as a Gluon optimizer, ``"torchadadelta"``;
- :mod:`sidebyside.plotting`  — the two frameworks' curves on shared axes, sample grids;
- :mod:`sidebyside.imagefolder` — a class-per-folder tree of PNGs from a dataset's samples;
- :mod:`sidebyside.recordio`  — MXNet's RecordIO files (.rec/.idx) without MXNet; a PyTorch Dataset;
- :mod:`sidebyside.timing`    — wall-clock timing that waits for MXNet's (and CUDA's) work;
- :mod:`sidebyside.board`     — TensorBoard: read both frameworks' event files, serve them;
- :mod:`sidebyside.launch`    — distributed runs here (MXNet parameter server, torchrun) that clean up.

Nothing heavy is imported here, so ``import sidebyside.envreport`` works (and explains the
fix) even when ``import mxnet`` itself is broken.
"""

__version__ = "0.1.0"
