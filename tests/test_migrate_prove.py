"""``python -m sidebyside.migrate --prove``: each Gluon block class the draft made a module,
built in both frameworks with the Gluon weights copied, compared in float64 — and a draft that
is wrong, or a block that cannot be built, said so. Each proof runs MXNet 1.9.1 and PyTorch in
a child process (a few seconds each)."""

from __future__ import annotations

import json
import textwrap

import pytest

from sidebyside.migrate import cli, prove, report

SCRIPT = textwrap.dedent("""\
    import argparse
    import mxnet as mx
    from mxnet import gluon, nd
    from mxnet.gluon import nn

    HIDDEN = 7
    args = argparse.ArgumentParser().parse_args([])
    open("/no/such/file/the/prover/must/not/run")   # what runs at import: left out


    class ConvNet(gluon.HybridBlock):
        def __init__(self, classes=10, **kwargs):
            super(ConvNet, self).__init__(**kwargs)
            with self.name_scope():
                self.conv = nn.Conv2D(8, 3, padding=1, activation='relu')
                self.pool = nn.GlobalAvgPool2D()
                self.fc = nn.Dense(classes)

        def hybrid_forward(self, F, x):
            pooled = self.pool(self.conv(x))
            return F.concat(self.fc(pooled), F.relu(F.flatten(pooled)), dim=1)


    class Seq(gluon.HybridBlock):
        def __init__(self, **kwargs):
            super(Seq, self).__init__(**kwargs)
            self.conv = nn.Conv1D(4, 3, in_channels=8)
            self.out = nn.Dense(2)

        def hybrid_forward(self, F, x):
            return self.out(F.sigmoid(self.conv(x)))


    class Mlp(nn.Block):
        def __init__(self, hidden, out=2):
            super().__init__()
            self.a = nn.Dense(hidden, activation='tanh', flatten=False)
            self.b = nn.Dense(out, in_units=hidden, flatten=False)

        def forward(self, x):
            return self.b(self.a(x)), self.a(x)


    class Head(nn.Block):
        def __init__(self, units):
            super().__init__()
            self.fc = nn.Dense(units)

        def forward(self, x):
            return self.fc(x)


    net = ConvNet(classes=5)
    seq = Seq()
    mlp = Mlp(HIDDEN)
    mlp2 = Mlp(3, out=4)
    head = Head(args.units)
    """)


@pytest.fixture(scope="module")
def proven(tmp_path_factory):
    path = tmp_path_factory.mktemp("legacy") / "train.py"
    path.write_text(SCRIPT)
    out = path.parent.parent / "report.json"
    assert cli.main([str(path), "--prove", "--format", "json", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    return path, {p["block"]: p for p in data["files"][0]["proofs"]}


def test_blocks_the_draft_made_modules_agree_with_gluon_in_float64(proven):
    _, proofs = proven
    assert set(proofs) == {"ConvNet", "Seq", "Mlp", "Head"}
    conv, seq, mlp = proofs["ConvNet"], proofs["Seq"], proofs["Mlp"]
    assert conv["status"] == seq["status"] == mlp["status"] == "proven", (conv, seq, mlp)
    # built with the first literal arguments the script passes (Mlp(3, out=4): HIDDEN is a
    # name), or none; Seq's Conv1D over 8 channels refuses the image and flat inputs first
    assert conv["args"] == "(classes=5)" and mlp["args"] == "(3, out=4)" and seq["args"] == "()"
    assert conv["input_shape"] == [2, 3, 32, 32] and seq["input_shape"] == [2, 8, 16]
    assert max(p["max_abs"] for p in (conv, seq, mlp)) < 1e-12


def test_a_block_that_needs_arguments_is_not_built_and_says_why(proven):
    _, proofs = proven
    head = proofs["Head"]
    assert head["status"] == "not built" and "missing 1 required positional argument" \
        in head["detail"] and head["max_abs"] is None


def test_a_wrong_draft_differs_and_parameters_that_do_not_line_up_are_said(proven):
    path, _ = proven
    rep = report.scan(path)
    f = rep.analysed[0]
    wrong = f.draft.source.replace("torch.nn.Tanh()", "torch.nn.Sigmoid()")   # a wrong port
    wrong = wrong.replace("self.fc = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.LazyLinear(classes))",
                          "self.fc = torch.nn.Sequential(torch.nn.Flatten(), "
                          "torch.nn.LazyLinear(classes, bias=False))")
    assert wrong.count("Sigmoid") == 1 and "bias=False" in wrong, f.draft.source
    got = {p.block: p for p in prove.prove_file(f.source, wrong, f.draft.rewritten,
                                                str(path.parent))}
    assert got["Mlp"].status == "differs" and got["Mlp"].max_abs > 1e-3
    assert got["ConvNet"].status == "not built" and "do not line up" in got["ConvNet"].detail


def test_definitions_keep_what_defines_blocks_and_drop_what_runs():
    kept = prove.definitions(SCRIPT)
    assert "class ConvNet" in kept and "HIDDEN = 7" in kept and "import argparse" in kept
    assert "open(" not in kept and "parse_args" not in kept and "ConvNet(classes=5)" not in kept


def test_prove_wants_the_torch_direction(capsys, tmp_path):
    path = tmp_path / "main.py"
    path.write_text("import torch\nx = torch.ones(2)\n")
    with pytest.raises(SystemExit) as exit_:
        cli.main([str(path), "--to", "gluon", "--prove"])
    assert exit_.value.code == 2
    assert "--prove checks drafts to PyTorch" in capsys.readouterr().err


def test_the_markdown_report_says_what_was_proven(proven):
    path, proofs = proven
    rep = report.scan(path)   # the proofs the command line found (a new run costs seconds)
    rep.analysed[0].proofs = [prove.Proof(**p) for p in proofs.values()]
    md = report.render(rep, "md")
    assert "Blocks proven in float64 against Gluon: 3 of the 4 block classes" in md
    assert "- Mlp(3, out=4): proven on an input of shape (2, 3, 32, 32)" in md
