"""MXNet 1.9.1's public surface, enumerated from the installed package (issue 43's list: every
public class of gluon.nn, gluon.rnn, gluon.loss, gluon.data (+ vision, transforms), mx.init,
mx.lr_scheduler, mx.metric and every registered optimizer): each name has a catalogue entry
with an executed check or recipe, and `apimap.find` answers it with that entry."""

from __future__ import annotations

import pytest

from sidebyside import apimap
from sidebyside.catalogue import index, surface
from sidebyside.catalogue.model import Entry

SURFACE = surface.public_surface()


def test_the_surface_is_read_off_the_package():
    # the namespaces the issue lists, and all the optimizers MXNet registers
    import mxnet as mx

    assert len(SURFACE) >= 160
    spaces = {n.rpartition(".")[0] for n in SURFACE}
    assert {"mx.gluon.nn", "mx.gluon.rnn", "mx.gluon.loss", "mx.init", "mx.metric",
            "mx.lr_scheduler", "mx.gluon.data.vision.transforms"} <= spaces
    optimizers = {f"mx.optimizer.{c.__name__}"
                  for c in mx.optimizer.Optimizer.opt_registry.values()
                  if c.__module__.startswith("mxnet")}  # not those a program registered
    assert len(optimizers) >= 19
    assert optimizers <= {n for reach in SURFACE.values() for n in reach} | set(SURFACE)


@pytest.mark.parametrize("name", sorted(SURFACE))
def test_every_public_name_has_a_checked_entry(name):
    hits = [m.entry for n in sorted(SURFACE[name] | {name}) for m in index.lookup(n)]
    assert hits, f"{name} has no catalogue entry (write one in src/sidebyside/catalogue/entries/)"
    assert any(e.check is not None for e in hits), f"{name}: no entry with a check"


def test_find_answers_the_surface_with_the_catalogue_entry():
    missing = []
    for name, reach in sorted(SURFACE.items()):
        short = name.rpartition(".")[2]
        hits = apimap.find(name.replace("mx.", "mxnet.", 1), notebooks=False) or \
            apimap.find(short, notebooks=False)
        if not any(isinstance(h, Entry) and (reach | {name}) & set(h.names) for h in hits):
            missing.append(name)
    assert not missing, f"find() does not answer {len(missing)}: {missing[:20]}"
