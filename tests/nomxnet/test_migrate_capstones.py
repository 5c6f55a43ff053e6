"""sidebyside.migrate on the collection's own legacy code, against what the notebooks changed
by hand.

The capstones' summary tables list every construct their port changed (notebook 16: the
legacy ``image_classification.py`` and its ``data.py`` → PyTorch; notebook 15: ``mnist/main.py``
→ Gluon), and notebooks 17 and 18 sum up the Module API and the ``mx.io`` iterators the same
way. The report on that code must list every construct those tables name (the two lists are
compared both ways: what the report finds beyond the tables is named here with the reason),
each with a counterpart; the draft port marks exactly the sites that need a decision; and the
book's page of these reports is current. Runs in both environments (standard library only).
"""
import ast
import importlib.util
import re
from pathlib import Path

import pytest

from sidebyside import mappings
from sidebyside.migrate import catalogue, report, structure

ROOT = Path(__file__).resolve().parents[2]
IMAGE_CLASSIFICATION = ("examples/image_classification/image_classification.py",
                        "examples/image_classification/data.py")
MNIST = ("examples/mnist/main.py",)

# what the reports find beyond the tables' names, and why it is not a row of its own
ALSO_FOUND_16 = {
    "mx.cpu": "the device row's other half: [mx.gpu(i) …] if gpus else [mx.cpu()]",
    "mx.Context": "isinstance(ctx, mx.Context), beside the device row",
    "mx.gluon.Block.collect_params": "the Trainer row's first argument",
    "mx.metric.EvalMetric.update": "the metric row: .update(label, outputs)",
    "mx.metric.EvalMetric.get": "the metric row: .get()",
    "mx.metric.EvalMetric.reset": "the metric row: a new epoch",
    "mx.io.DataBatch": "the DataBatch row (data.py builds the dummy batches)",
    "mx.io.DataBatch.data": "the DataBatch row: .data[0]",
    "mx.io.DataBatch.label": "the DataBatch row: .label[0]",
    "mx.io.DataIter": "data.py's iterators derive from it: the DataBatch row",
    "mx.io.DataIter.provide_data": "data.py's FirstBatches forwards it: the DataBatch row",
    "mx.io.DataIter.provide_label": "data.py's FirstBatches forwards it: the DataBatch row",
    "mx.nd.zeros": "data.py's dummy batches (the draft rewrites it)",
}
ALSO_FOUND_15 = {
    "torch.device": "the device row: torch.device(...) after is_available()",
    "torch.accelerator.current_accelerator": "the device row",
    "torch.Tensor.to": "the device row: .to(device)",
    "torch.nn.Module.to": "Net().to(device): the device row names a tensor's .to; no table "
                          "row maps a model's move (the report says: not in the map)",
    "torch.Tensor.argmax": "the test loop's accuracy row (pred = output.argmax(...))",
    "torch.nn.Module.parameters": "the optimizer row's first argument",
    "torch.utils.data.DataLoader.dataset": "the DataLoader row: len(loader.dataset)",
}
# names a table gives that the scanned code does not use, and why
ABSENT_15 = {"torchvision.datasets.MNIST": "main.py reads the files with sidebyside.data "
                                           "(offline), not datasets.MNIST"}
ABSENT_17 = {"mx.metric.create": "the row sums up the deep dive module_callbacks, which calls "
                                 "it; notebook 17's own cells pass eval_metric names"}


def scan(paths, direction):
    return report.scan_sources([(p, (ROOT / p).read_text(encoding="utf-8"), None)
                                for p in paths], direction)


def table_entries(number: int, direction: str, first_table_only: bool = False):
    """The catalogue's entries for notebook ``number``'s Summary table that name an API on the
    script's side (a row naming none, like ``argparse`` flags, has no entry; the catalogue's
    own test keeps it equal to the tables)."""
    stem = next(p.stem for p in (ROOT / "notebooks").glob(f"{number:02d}_*.py"))
    rows = [m for m in mappings.read_notebook(ROOT / "notebooks" / f"{stem}.py").rows
            if m.section == "Summary" and (not first_table_only or m.mxnet_first)]
    entries = {(e.mxnet, e.torch): e for e in catalogue.entries()
               if e.origin == f"table in notebook {number}, §Summary"}
    found = []
    for m in rows:
        key = (" ".join(m.mxnet.split()), " ".join(m.pytorch.split()))
        entry = entries.get(key)
        if entry is not None and entry.names_of(direction):
            found.append(entry)
    return found


def compare(files, entries, direction, absent, also):
    found = {s.site.name for f in files for s in f.sites}
    table_names = {n for e in entries for n in e.names_of(direction)}
    missing = sorted(table_names - found - set(absent))
    assert not missing, f"the report misses what the notebook changed by hand: {missing}"
    assert not (set(absent) & found), "an ABSENT name is found after all: drop it from the list"
    extra = sorted(found - table_names - set(also))
    assert not extra, f"the report finds constructs no table row names: {extra}"
    stale = sorted(set(also) - found)
    assert not stale, f"ALSO_FOUND names the report no longer finds: {stale}"
    unmapped = sorted({s.site.name for f in files for s in f.sites
                       if s.site.name in table_names and not s.mapped})
    assert not unmapped, f"constructs a table maps but the report does not: {unmapped}"


def test_the_legacy_script_report_lists_what_notebook_16_changed():
    entries = table_entries(16, "torch")
    assert len(entries) >= 12
    compare(scan(IMAGE_CLASSIFICATION, "torch"), entries, "torch", {}, ALSO_FOUND_16)


def test_the_mnist_report_lists_what_notebook_15_changed():
    entries = table_entries(15, "gluon")
    assert len(entries) >= 12
    compare(scan(MNIST, "gluon"), entries, "gluon", ABSENT_15, ALSO_FOUND_15)


def notebook_code(number: int) -> str:
    stem = next(p for p in (ROOT / "notebooks").glob(f"{number:02d}_*.py"))
    return "\n\n".join(code for _, _, code in mappings.code_cells(stem.read_text()))


@pytest.mark.parametrize("number, absent", [(17, ABSENT_17), (18, {})])
def test_the_legacy_notebooks_code_reports_every_row_of_their_summary(number, absent):
    """Notebook 17's Module-API cells and notebook 18's iterator cells, scanned as one script:
    every MXNet name of their MXNet → PyTorch table is found and mapped."""
    entries = table_entries(number, "torch", first_table_only=True)
    assert len(entries) >= 12
    (rep,) = report.scan_sources([(f"notebook {number}", notebook_code(number), None)],
                                 "torch")
    found = {s.site.name: s for s in rep.sites}
    names = {n for e in entries for n in e.mxnet_names} - set(absent)
    assert sorted(names - set(found)) == []
    assert sorted(n for n in names if not found[n].mapped) == []
    assert not set(absent) & set(found)


# what the draft leaves unmarked in notebook 16's scripts, decided by hand from the port
# notebook 16 made: the device list it rewrites (context = [mx.gpu(i) …] else [mx.cpu()]);
# the metric (the draft's GluonAccuracy keeps update/get/reset); the seed; the loss (the
# draft's helper is Gluon's, labels and all) and its backward() (the sum it means); hybridize(), dropped where LibCST carries out statement
# rewrites (the migrate extra); the data module's DummyIter, a DataIter of its own that
# builds its batch of zeros (GluonDataIter, GluonDataBatch); MNISTIter (GluonMNISTIter, MXNet's
# batches in MXNet's order). Every other site needs a decision
# (FirstBatches, a DataIter that passes on another iterator's batches, keeps its marker).
UNMARKED_16 = {"examples/image_classification/image_classification.py":
               {"mx.cpu", "mx.gpu", "mx.Context", "mx.metric.Accuracy",
                "mx.metric.EvalMetric.update",
                "mx.metric.EvalMetric.get", "mx.metric.EvalMetric.reset", "mx.random.seed",
                "mx.nd.NDArray.backward", "mx.gluon.loss.SoftmaxCrossEntropyLoss"}
               | ({"mx.gluon.Block.hybridize"} if structure.available() else set()),
               "examples/image_classification/data.py": {"mx.io.DataIter", "mx.io.DataBatch",
                                                          "mx.nd.zeros", "mx.io.MNISTIter"}}
# the decisions named beyond [port]: which kvstore, the softmax
# output, fit's defaults (MNISTIter's scaling and last batch: the draft's helper keeps them)
RULES_16 = {"examples/image_classification/image_classification.py":
            {"port", "kvstore-sums", "module-fit-defaults", "softmax-output-loss"},
            "examples/image_classification/data.py": {"port"}}


def test_the_draft_marks_exactly_the_sites_that_need_a_decision():
    files = scan(IMAGE_CLASSIFICATION, "torch")
    for f in files:
        ast.parse(f.draft.source)
        marked = {m.line for m in f.draft.marked}
        unmarked = {s.site.name for s in f.sites if s.site.line not in marked}
        assert unmarked == UNMARKED_16[f.path], f.path
        assert {m.rule for m in f.draft.marked} == RULES_16[f.path], f.path
        assert marked <= {s.site.line for s in f.sites}  # no marker on a line without a site
    main = files[0]
    by_line = {}
    for s in main.sites:
        by_line.setdefault(s.site.line, []).append(s)
    # context = [mx.gpu(i) …] if gpus > 0 else [mx.cpu()]: rewritten, unmarked; the same
    # calls inside mx.mod.Module(context=…) stay MXNet (the Module is not ported) and marked
    (line,) = [ln for ln, ss in by_line.items()
               if {s.site.name for s in ss} == {"mx.gpu", "mx.cpu"}]
    assert all(s.rewrite for s in by_line[line])
    module_line = next(s.site.line for s in main.sites if s.site.name == "mx.mod.Module")
    assert not any(s.rewrite for s in by_line[module_line])
    # the loss is Gluon's own (the helper takes its float labels and layouts): not marked
    (ce,) = [s for s in main.sites if s.site.name == "mx.gluon.loss.SoftmaxCrossEntropyLoss"]
    assert ce.rewrite == "softmax-ce-loss" and ce.site.line not in {
        m.line for m in main.draft.marked}
    # the Trainer is the helper's, the script's kvstore option passed for it to check when
    # the draft runs (a distributed one refused), and still marked: a distributed kvstore
    # sums gradients where DDP averages them, a decision
    (trainer,) = [s for s in main.sites if s.site.name == "mx.gluon.Trainer"]
    assert trainer.rewrite == "trainer-optimizer" and trainer.site.line in {
        m.line for m in main.draft.marked}
    assert "kvstore=opt.kvstore)" in main.draft.source


def test_the_reverse_draft_rewrites_nothing_and_marks_every_site():
    (f,) = scan(MNIST, "gluon")
    ast.parse(f.draft.source)
    assert f.draft.rewritten == []
    assert {s.site.line for s in f.sites} == {m.line for m in f.draft.marked}
    assert {m.rule for m in f.draft.marked} == {"port", "not-in-map"}


def _page_tool():
    spec = importlib.util.spec_from_file_location("make_migrate_page",
                                                  ROOT / "tools" / "make_migrate_page.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_book_page_of_these_reports_is_current():
    page, _ = _page_tool().render()
    committed = (ROOT / "book" / "migrate_report.md").read_text(encoding="utf-8")
    assert committed == page, "book/migrate_report.md is out of date: run make migrate-page"


def test_the_book_page_links_resolve_to_notebook_sections():
    """Section links are the built book's HTML targets (MyST resolves pages, not headings);
    each names a notebook that exists and the id of one of its headings."""
    page = (ROOT / "book" / "migrate_report.md").read_text(encoding="utf-8")
    links = set(re.findall(r'<a href="notebooks/([^"#]+)\.html#([^"]+)">', page))
    assert len(links) >= 10
    assert ".ipynb#" not in page  # no Markdown section link left for MyST to miss
    for target, anchor in links:
        path = ROOT / "notebooks" / f"{target}.py"
        assert path.exists(), target
        ids = {mappings.section_id(line.lstrip("# ").lstrip("#").strip())
               for line in path.read_text().splitlines() if line.startswith("# #")}
        assert anchor in ids, f"{target}#{anchor}"


# the counterpart a reader should see first, for the constructs every legacy script has: a
# fragment of the row's spelling, written by hand from the notebooks (not from the ranking)
BEST = [
    ("with autograd.record():\n    pass", "mx.autograd.record", "enable_grad"),
    ("net = gluon.nn.HybridSequential()", "mx.gluon.nn.HybridSequential", "nn.Sequential("),
    ("t = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})",
     "mx.gluon.Trainer", "optim.SGD("),
    ("t = gluon.Trainer(net.collect_params(), 'adam', {'learning_rate': 0.1})",
     "mx.gluon.Trainer", "Adam("),
    ("L = gluon.loss.SoftmaxCrossEntropyLoss()", "mx.gluon.loss.SoftmaxCrossEntropyLoss",
     "CrossEntropyLoss(reduction='none')"),  # Gluon's loss is per sample
    ("L = gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)",
     "mx.gluon.loss.SoftmaxCrossEntropyLoss", "NLLLoss"),
    ("net = gluon.nn.Dense(3)\nnet.save_parameters('f.params')",
     "mx.gluon.Block.save_parameters", "torch.save("),
    ("net = gluon.nn.Dense(3)\nnet.load_parameters('f.params')",
     "mx.gluon.Block.load_parameters", "load_state_dict"),
    ("net = gluon.nn.Dense(3)\nnet.initialize(mx.init.Normal(0.02), ctx=ctx)",
     "mx.init.Normal", "normal_("),
    ("x = nd.zeros(3)\ny = x.asnumpy()", "mx.nd.NDArray.asnumpy", "numpy()"),
    ("x = nd.zeros(3)\ny = x.as_in_context(ctx)", "mx.nd.NDArray.as_in_context", ".to("),
]
BEST_TORCH = [
    ("model = nn.Linear(3, 2)\nmodel.train()", "torch.nn.Module.train", "train_mode"),
    ("with torch.no_grad():\n    pass", "torch.no_grad", "autograd.pause"),
    ("model = nn.Linear(3, 2)", "torch.nn.Linear", "Dense("),
]


@pytest.mark.parametrize("code, name, fragment", BEST + BEST_TORCH)
def test_the_first_counterpart_of_a_common_construct_is_the_right_row(code, name, fragment):
    direction = "gluon" if (code, name, fragment) in BEST_TORCH else "torch"
    head = ("import torch\nfrom torch import nn\n" if direction == "gluon" else
            "import mxnet as mx\nfrom mxnet import autograd, gluon, nd\n")
    rep = report.scan_source(head + code + "\n", "t.py", direction)
    (site,) = [s for s in rep.sites if s.site.name == name]
    shown = report.counterpart_text(site.counterpart, direction)
    assert fragment in shown, f"{name}: {shown!r} ({site.counterpart.origin})"
