"""Helpers for the PyTorch ⇄ Apache MXNet Gluon side-by-side tutorials.

One job per module:

- :mod:`sidebyside.envreport` — versions, build features and known-bad combinations;
- :mod:`sidebyside.devices`   — a device for each framework, with a plain reason;
- :mod:`sidebyside.threads`   — each framework's CPU thread count, and what ``import mxnet`` does to it;
- :mod:`sidebyside.seeding`   — one call seeds Python, numpy, torch and mxnet;
- :mod:`sidebyside.data`      — the MNIST family for both frameworks from one place on disk;
- :mod:`sidebyside.idx`       — the MNIST family's IDX files: specs, checksums, readers;
- :mod:`sidebyside.compare`   — numeric comparison of tensors from either framework;
- :mod:`sidebyside.drift`     — the float32 yardstick: a port's gap judged by each framework's own float32-vs-float64 drift;
- :mod:`sidebyside.samerandom` — the same noise tensors and dropout masks in both frameworks, for a lockstep;
- :mod:`sidebyside.errors`    — run a call that must fail; keep its type and clean message;
- :mod:`sidebyside.table`     — a short list of records printed as an aligned table;
- :mod:`sidebyside.logs`      — the lines a block logs to the root logger (MXNet's Module API, callbacks);
- :mod:`sidebyside.apimap`    — the API map as data, executed and compared row by row, and ``find``: any
  name from either side (map rows, notebook tables, errors, helpers) and where it is taught;
- :mod:`sidebyside.mappings`  — the notebooks' mapping tables (PyTorch | MXNet columns), read from their sources;
- :mod:`sidebyside.transfer`  — copy weights between an ``nn.Module`` and a Gluon ``Block``;
- :mod:`sidebyside.initmap`   — initialise an ``nn.Module`` as an ``mx.init`` initialiser would its Gluon twin;
- :mod:`sidebyside.checkpoint` — whole checkpoints for both frameworks; damaged files named, digests;
- :mod:`sidebyside.convert`   — a ``.params`` file ⇄ a PyTorch state dict file, verified (``api``), Module
  checkpoints (``module``), the command line (``cli``);
- :mod:`sidebyside.mx2torch`  — legacy MXNet files (``.params``, ``-symbol.json``, Module checkpoints,
  ``Trainer.save_states``) into PyTorch with no MXNet installed: imports only numpy and torch;
- :mod:`sidebyside.catalogue` — one migration catalogue keyed by MXNet 1.9.1's real API: an entry
  per construct and form, its PyTorch counterpart, an executed check (``find`` and ``migrate`` read it);
- :mod:`sidebyside.migrate`   — a legacy MXNet script or folder scanned (no MXNet needed): each
  construct's executed counterpart, the gotchas that apply, a draft PyTorch port; the reverse too;
- :mod:`sidebyside.mxreference` — MXNet's outputs, every node's included, for ``mx2torch --check``
  (needs MXNet: run it where MXNet still works);
- :mod:`sidebyside.clipping`  — global-norm gradient clipping with PyTorch's or MXNet's rule, either framework's
  arrays, any float dtype;
- :mod:`sidebyside.textdata`  — a small word corpus generated in WikiText's layout, for the sequence notebooks;
- :mod:`sidebyside.optim`     — PyTorch's Adam, AdamW and Adadelta as Gluon optimizers (``"torchadam"``,
  ``"torchadamw"``, ``"torchadadelta"``), ``torch.optim.Adam`` set to take MXNet's ``"adam"`` steps, ``f32``;
- :mod:`sidebyside.plotting`  — the two frameworks' curves on shared axes, sample grids;
- :mod:`sidebyside.imagefolder` — a class-per-folder tree of PNGs from a dataset's samples;
- :mod:`sidebyside.recordio`  — MXNet's RecordIO files (.rec/.idx) without MXNet; a PyTorch Dataset;
- :mod:`sidebyside.timing`    — wall-clock timing that waits for MXNet's (and CUDA's) work;
- :mod:`sidebyside.board`     — TensorBoard: read both frameworks' event files, serve them;
- :mod:`sidebyside.launch`    — distributed runs here (MXNet parameter server, torchrun) that clean up.
- :mod:`sidebyside.progress`  — the user tools' progress bars: tqdm on a terminal, silent in a log or pipe.

Nothing heavy is imported here, so ``import sidebyside.envreport`` works (and explains the
fix) even when ``import mxnet`` itself is broken.
"""

__version__ = "0.1.0"
