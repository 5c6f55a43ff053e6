"""Scan a legacy MXNet script or folder and get a verified migration plan, and a draft PyTorch
port; the reverse for a PyTorch script going to Gluon. It reads code, it never imports MXNet
or PyTorch: the scan is standard library only, the draft's statement rewrites use LibCST
(``pip install 'sidebyside[migrate]'``; without it those sites get a marker instead).

One job per module:

- :mod:`sidebyside.migrate.names`     — one canonical name per construct (``mx.nd.concat``,
  ``mx.gluon.Trainer.step``, ``torch.nn.Linear``);
- :mod:`sidebyside.migrate.resolve`   — the AST read: imports and aliases, attribute chains,
  ``hybrid_forward``'s ``F``, methods on variables whose type an assignment gives (and which
  names are guesses);
- :mod:`sidebyside.migrate.catalogue` — each construct's counterpart from the collection's
  executed rows (the API map, the notebooks' tables), with the tolerance it was checked to;
- :mod:`sidebyside.migrate.gotchas`   — the named detectors, one per behaviour a notebook
  section asserts;
- :mod:`sidebyside.migrate.rewrite`   — the draft port: rewrites, each exact and executed
  against MXNet in the tests, and marker comments everywhere else;
- :mod:`sidebyside.migrate.draft_helpers` — the helpers a draft carries where PyTorch needs
  several lines (Gluon's initialisation, ``Trainer.step(batch_size)``, its Adam, its metrics,
  datasets and ``ToTensor``, ``split_and_load``, the training scope its Dropout and BatchNorm
  follow);
- :mod:`sidebyside.migrate.structure` — the draft's second pass (LibCST): ``with`` blocks made
  their bodies, statements dropped, the MXNet imports nothing uses any more removed;
- :mod:`sidebyside.migrate.notebooks` — a Jupyter notebook's code cells as one script to scan,
  and the draft back into the notebook, cell by cell;
- :mod:`sidebyside.migrate.report`    — a scan of a file or folder, as text, Markdown, JSON or
  SARIF, with the conversion rate in lines and the blockers;
- :mod:`sidebyside.migrate.prove`     — ``--prove``: each Gluon block class the draft made a
  module, built in both frameworks (MXNet and PyTorch needed there, in a child process) with
  the same weights, its float64 outputs compared;
- :mod:`sidebyside.migrate.cli`       — ``python -m sidebyside.migrate``.

The short calls::

    from sidebyside import migrate
    rep = migrate.scan("train.py")                   # or a folder; scan(path, "gluon"): PyTorch code
    print(migrate.render(rep, "md"))
    draft = rep.files[0].draft.source                # the draft port of the first file

and on the command line ``python -m sidebyside.migrate --help``.
"""

from __future__ import annotations

_EXPORTS = {
    "report": ("scan", "scan_source", "render", "Report", "FileReport", "SiteReport",
               "ScanError"),
    "resolve": ("analyse", "Site", "Analysis"),
    "catalogue": ("lookup",),
    "gotchas": ("DETECTORS", "detect_all"),
    "rewrite": ("RULES", "draft"),
    "prove": ("prove_report",),
}
__all__ = [name for names in _EXPORTS.values() for name in names]


def __getattr__(name):
    for module, names in _EXPORTS.items():
        if name in names:
            from importlib import import_module

            return getattr(import_module(f"{__name__}.{module}"), name)
    raise AttributeError(f"module 'sidebyside.migrate' has no attribute {name!r}")
