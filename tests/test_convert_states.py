"""sidebyside.convert on word language models: token ids, recurrent states, a tied embedding."""

import re

import mxnet as mx
import numpy as np
import pytest
import torch

from sidebyside import convert, transfer

LMS = '''\
"""Word language models, PyTorch's and Gluon's: Embedding -> 2-layer LSTM (or GRU) -> a
decoder that reuses the embedding, forward(input, hidden) -> (decoded, hidden)."""
import torch
from mxnet import gluon
from mxnet.gluon import nn, rnn


class TorchLM(torch.nn.Module):
    def __init__(self, kind="LSTM", vocab=12, hidden=8, tie=True):
        super().__init__()
        self.encoder = torch.nn.Embedding(vocab, hidden)
        self.rnn = getattr(torch.nn, kind)(hidden, hidden, 2)
        self.decoder = torch.nn.Linear(hidden, vocab)
        if tie:
            self.decoder.weight = self.encoder.weight

    def forward(self, input, hidden):
        output, hidden = self.rnn(self.encoder(input), hidden)
        return self.decoder(output), hidden


class GluonLM(gluon.Block):
    """swap='input' reads the states as (c, h), swap='output' returns them so: bugs."""

    def __init__(self, kind="LSTM", vocab=12, hidden=8, tie=True, swap=None, **kwargs):
        super().__init__(**kwargs)
        self.swap = swap
        with self.name_scope():
            self.encoder = nn.Embedding(vocab, hidden)
            self.rnn = getattr(rnn, kind)(hidden, num_layers=2, input_size=hidden)
            self.decoder = nn.Dense(vocab, in_units=hidden, flatten=False,
                                    params=self.encoder.params if tie else None)

    def forward(self, inputs, hidden):
        if self.swap == "input":
            hidden = hidden[::-1]
        output, hidden = self.rnn(self.encoder(inputs), hidden)
        if self.swap == "output":
            hidden = hidden[::-1]
        return self.decoder(output), hidden
'''

V, H = 12, 8                      # the factories' defaults: vocabulary, hidden size
STATE = (2, 3, H)                 # (layers, batch, hidden)
IDS = dict(input_shape=(7, 3), input_range=(0, V))
LSTM_STATES = [STATE, STATE]
FLAGS = ["--input-shape", "7,3", "--input-range", f"0,{V}",
         "--state-shape", "2,3,8", "--state-shape", "2,3,8"]


@pytest.fixture
def lms(tmp_path):
    path = tmp_path / "lms.py"
    path.write_text(LMS)
    return str(path)


def _net(lms, call):
    return convert.build_network(f"{lms}:{call}")


def _randomise(net, seed=0):
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for t in net.parameters():       # a tied weight once: the tie is kept
            t.copy_(torch.randn(t.shape, generator=gen) * 0.5)
    return net


def _nothing_written(folder, *names):
    for name in names:
        assert not (folder / name).exists()
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def _gluon_file(g, path, **save):
    g.initialize(mx.init.Uniform(0.5))
    g.save_parameters(str(path), **save)
    return g


# --- compare_outputs with states ----------------------------------------------------------

def _pair(lms, kind="LSTM", swap=None, dtype="float64"):
    pt = _randomise(_net(lms, f"TorchLM({kind!r})")).to(getattr(torch, dtype))
    g = _net(lms, f"GluonLM({kind!r}, swap={swap!r})")
    g.initialize()
    g.cast(dtype)
    transfer.torch_to_gluon(pt, g)
    return pt, g


def _inputs(n_states, dtype="float64", seed=1):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, V, (7, 3))
    return ids, [rng.standard_normal(STATE).astype(dtype) for _ in range(n_states)]


def test_compare_outputs_passes_the_states_and_compares_every_output(lms):
    pt, g = _pair(lms)
    ids, (h, c) = _inputs(2)
    check = convert.compare_outputs(pt, g, ids, states=[h, c])
    assert check.ok and check.compared == "all 3 outputs" and check.shape == (7, 3, V)
    assert (check.atol, check.rtol) == (1e-10, 1e-12)    # float64, from the network
    assert check.max_abs_diff < 1e-12
    # the states reach the networks: PyTorch's own output from (h, c) is what was compared
    with torch.no_grad():
        _, (h_out, _c_out) = pt(torch.from_numpy(ids), (torch.from_numpy(h),
                                                       torch.from_numpy(c)))
        _, (h_zero, _) = pt(torch.from_numpy(ids), (torch.zeros(STATE, dtype=torch.float64),
                                                    torch.zeros(STATE, dtype=torch.float64)))
    _, [g_h, _g_c] = g(mx.nd.array(ids), [mx.nd.array(h, dtype="float64"),
                                          mx.nd.array(c, dtype="float64")])
    np.testing.assert_allclose(g_h.asnumpy(), h_out.numpy(), atol=1e-12)
    assert np.abs(h_zero.numpy() - h_out.numpy()).max() > 1e-2
    # a tuple works as a list does
    assert convert.compare_outputs(pt, g, ids, states=(h, c)).max_abs_diff < 1e-12


@pytest.mark.parametrize("swap", ["input", "output"])
def test_swapped_h_and_c_are_caught(lms, swap):
    pt, g = _pair(lms, swap=swap)
    ids, (h, c) = _inputs(2)
    check = convert.compare_outputs(pt, g, ids, states=[h, c])
    assert not check.ok and check.max_abs_diff > 1e-2     # random states: h and c differ
    assert check.compared == "all 3 outputs"


def test_a_gru_takes_one_state_as_a_tensor(lms):
    pt, g = _pair(lms, "GRU")
    ids, [h] = _inputs(1)
    for states in (h, [h]):                       # one array, or a list of one
        check = convert.compare_outputs(pt, g, ids, states=states)
        assert check.ok and check.compared == "all 2 outputs" and check.max_abs_diff < 1e-12
    with torch.no_grad():
        pt.rnn.weight_hh_l1[0, 0] += 1e-3         # a weight only the second layer's h uses
    assert not convert.compare_outputs(pt, g, ids, states=h).ok


def test_compare_outputs_refuses_states_that_are_no_arrays(lms):
    pt, g = _pair(lms)
    ids, (h, _c) = _inputs(2)
    for states, message in [(h.tolist(), r"states\[0\] is a list, not a numpy array"),
                            ([], "non-empty list"), ("h", "not str")]:
        with pytest.raises(TypeError, match=message):
            convert.compare_outputs(pt, g, ids, states=states)


# --- the tie survives both ways, in Python ------------------------------------------------

def test_tied_lm_state_dict_to_params_and_back(lms, tmp_path):
    pt = _randomise(_net(lms, "TorchLM()"))
    assert pt.decoder.weight is pt.encoder.weight
    torch.save(pt.state_dict(), tmp_path / "lm.pt")
    result = convert.state_dict_to_params(
        tmp_path / "lm.pt", tmp_path / "lm.params", torch_net=_net(lms, "TorchLM()"),
        gluon_net=_net(lms, "GluonLM()"), state_shapes=LSTM_STATES, train_check=True, **IDS)
    assert [c.mode for c in result.checks] == ["eval", "train"]
    for check in result.checks:
        assert check.ok and check.compared == "all 3 outputs" and check.shape == (7, 3, V)
        assert check.max_abs_diff <= 1e-5            # measured ~1e-7 (float32)
    assert result.pairs == [("encoder", "encoder"), ("rnn", "rnn"), ("decoder", "decoder")]
    report = result.report()
    assert f"input   token ids in [0, {V}) of shape (7, 3) with the states (2, 3, 8), " \
           "(2, 3, 8) (standard normal)" in report
    # what the converter writes: save_parameters' default, the tie under both names
    arrays = mx.nd.load(str(tmp_path / "lm.params"))
    assert result.n_written == len(arrays) == 11
    want = pt.encoder.weight.detach().numpy()
    for key in ("encoder.weight", "decoder.weight"):
        np.testing.assert_array_equal(arrays[key].asnumpy(), want)
    # ... which MXNet's load_parameters reads into a fresh tied model: one shared Parameter
    fresh = _net(lms, "GluonLM()")
    fresh.load_parameters(str(tmp_path / "lm.params"))
    assert fresh.decoder.weight is fresh.encoder.weight
    np.testing.assert_array_equal(fresh.encoder.weight.data().asnumpy(), want)

    back = _net(lms, "TorchLM()")
    result = convert.params_to_state_dict(tmp_path / "lm.params", tmp_path / "back.pt",
                                          gluon_net=_net(lms, "GluonLM()"), torch_net=back,
                                          state_shapes=LSTM_STATES, **IDS)
    assert result.checks[0].ok and result.checks[0].compared == "all 3 outputs"
    state = torch.load(tmp_path / "back.pt", weights_only=True)
    assert sorted(state) == sorted(pt.state_dict())          # both names of the tie
    fresh = _net(lms, "TorchLM()")
    fresh.load_state_dict(state)
    assert fresh.decoder.weight is fresh.encoder.weight
    for k, v in pt.state_dict().items():
        assert torch.equal(fresh.state_dict()[k], v), k


@pytest.mark.parametrize("deduplicate", [False, True])
def test_tied_lm_params_to_state_dict(lms, tmp_path, deduplicate):
    g = _gluon_file(_net(lms, "GluonLM()"), tmp_path / "lm.params", deduplicate=deduplicate)
    keys = set(mx.nd.load(str(tmp_path / "lm.params")))
    # save_parameters writes the shared weight under both names, or once with deduplicate
    assert ("encoder.weight" in keys) == (not deduplicate) and "decoder.weight" in keys
    reloaded = _net(lms, "GluonLM()")
    reloaded.load_parameters(str(tmp_path / "lm.params"))     # MXNet reads both kinds
    shared = g.encoder.weight.data().asnumpy()
    np.testing.assert_array_equal(reloaded.encoder.weight.data().asnumpy(), shared)
    result = convert.params_to_state_dict(
        tmp_path / "lm.params", tmp_path / "lm.pt", gluon_net=_net(lms, "GluonLM()"),
        torch_net=_net(lms, "TorchLM()"), state_shapes=LSTM_STATES, **IDS)
    assert result.n_read == len(keys) and result.checks[0].ok
    state = torch.load(tmp_path / "lm.pt", weights_only=True)
    for key in ("encoder.weight", "decoder.weight"):
        np.testing.assert_array_equal(state[key].numpy(), shared)
    fresh = _net(lms, "TorchLM()")
    fresh.load_state_dict(state)
    assert fresh.decoder.weight is fresh.encoder.weight
    np.testing.assert_array_equal(fresh.decoder.weight.detach().numpy(), shared)


def test_a_gru_lm_with_one_state_converts_both_ways(lms, tmp_path):
    pt = _randomise(_net(lms, "TorchLM('GRU')"))
    torch.save(pt.state_dict(), tmp_path / "gru.pt")
    result = convert.state_dict_to_params(
        tmp_path / "gru.pt", tmp_path / "gru.params", torch_net=_net(lms, "TorchLM('GRU')"),
        gluon_net=_net(lms, "GluonLM('GRU')"), state_shapes=[STATE], **IDS)
    assert result.checks[0].ok and result.checks[0].compared == "all 2 outputs"
    assert "with the state (2, 3, 8) (standard normal)" in result.report()
    back = _net(lms, "TorchLM('GRU')")
    convert.params_to_state_dict(tmp_path / "gru.params", tmp_path / "back.pt",
                                 gluon_net=_net(lms, "GluonLM('GRU')"), torch_net=back,
                                 state_shapes=[STATE], **IDS)
    for k, v in pt.state_dict().items():
        assert torch.equal(back.state_dict()[k], v), k


# --- what the verification catches ---------------------------------------------------------

@pytest.mark.parametrize("swap", ["input", "output"])
def test_verification_catches_swapped_states_and_writes_nothing(lms, tmp_path, swap):
    torch.save(_randomise(_net(lms, "TorchLM()")).state_dict(), tmp_path / "lm.pt")
    with pytest.raises(convert.VerificationFailed,
                       match="verification failed: in eval mode .*nothing was written.*"
                             "read their states in different orders") as failed:
        convert.state_dict_to_params(
            tmp_path / "lm.pt", tmp_path / "lm.params", torch_net=_net(lms, "TorchLM()"),
            gluon_net=_net(lms, f"GluonLM(swap={swap!r})"), state_shapes=LSTM_STATES, **IDS)
    assert failed.value.check.compared == "all 3 outputs"
    _nothing_written(tmp_path, "lm.params")


def test_verification_catches_a_transposed_tied_weight(lms, tmp_path, monkeypatch):
    """A square embedding (vocab = hidden) copied transposed fits every shape check."""
    square = "TorchLM(vocab=8)", "GluonLM(vocab=8)"
    torch.save(_randomise(_net(lms, square[0])).state_dict(), tmp_path / "lm.pt")
    copy = transfer.torch_to_gluon

    def transposed(torch_net, gluon_net, *args, **kwargs):
        pairs = copy(torch_net, gluon_net, *args, **kwargs)
        w = gluon_net.encoder.weight
        w.set_data(w.data().T.copy())
        return pairs

    ids = dict(input_shape=(7, 3), input_range=(0, 8))
    convert.state_dict_to_params(tmp_path / "lm.pt", tmp_path / "ok.params",
                                 torch_net=_net(lms, square[0]),
                                 gluon_net=_net(lms, square[1]), state_shapes=LSTM_STATES,
                                 **ids)
    monkeypatch.setattr(transfer, "torch_to_gluon", transposed)
    with pytest.raises(convert.VerificationFailed, match="nothing was written"):
        convert.state_dict_to_params(tmp_path / "lm.pt", tmp_path / "lm.params",
                                     torch_net=_net(lms, square[0]),
                                     gluon_net=_net(lms, square[1]),
                                     state_shapes=LSTM_STATES, **ids)
    _nothing_written(tmp_path, "lm.params")


# --- files whose tie does not hold, and inputs that do not fit ------------------------------

def test_a_file_whose_tied_names_differ_is_refused(lms, tmp_path):
    _gluon_file(_net(lms, "GluonLM()"), tmp_path / "lm.params")
    arrays = mx.nd.load(str(tmp_path / "lm.params"))
    arrays["encoder.weight"] = arrays["encoder.weight"] + 1
    mx.nd.save(str(tmp_path / "bad.params"), arrays)
    with pytest.raises(convert.ConversionError,
                       match=r"bad.params: 'encoder.weight', 'decoder.weight' are one parameter "
                             r"shared by the Gluon network GluonLM \(a tied weight\), but the "
                             r"file holds different values"):
        convert.params_to_state_dict(tmp_path / "bad.params", tmp_path / "bad.pt",
                                     gluon_net=_net(lms, "GluonLM()"),
                                     torch_net=_net(lms, "TorchLM()"))
    state = _net(lms, "TorchLM(tie=False)").state_dict()       # two different tensors
    torch.save(state, tmp_path / "untied.pt")
    with pytest.raises(convert.ConversionError,
                       match=r"untied.pt: 'encoder.weight', 'decoder.weight' are one tensor "
                             r"tied in the PyTorch network TorchLM"):
        convert.state_dict_to_params(tmp_path / "untied.pt", tmp_path / "bad2.params",
                                     torch_net=_net(lms, "TorchLM()"),
                                     gluon_net=_net(lms, "GluonLM()"))
    _nothing_written(tmp_path, "bad.pt", "bad2.params")


@pytest.fixture
def lm_file(lms, tmp_path):
    torch.save(_randomise(_net(lms, "TorchLM()")).state_dict(), tmp_path / "lm.pt")
    torch.save(_randomise(_net(lms, "TorchLM('GRU')")).state_dict(), tmp_path / "gru.pt")
    return tmp_path


RUN_ERRORS = {   # flags -> what the one line says
    "no states": (["--input-shape", "7,3", "--input-range", f"0,{V}"],
                  r"could not be run on token ids in \[0, 12\) of shape \(7, 3\) \(eval mode\): "
                  r"TypeError: TorchLM.forward\(\) missing 1 required positional argument: "
                  r"'hidden'. Its forward takes more inputs: give the recurrent states' shapes "
                  r"with --state-shape"),
    "one state for an LSTM": (["--input-shape", "7,3", "--input-range", f"0,{V}",
                               "--state-shape", "2,3,8"],
                              r"with the state \(2, 3, 8\) .*An LSTM takes two states, \(h, c\): "
                              r"give --state-shape twice"),
    "three states": (FLAGS + ["--state-shape", "2,3,8"],
                     r"An LSTM takes two states, \(h, c\): give --state-shape twice"),
    "two states for a GRU": (FLAGS, r"It takes one state \(a GRU's or RNN's h\), not 2: give "
                                    r"--state-shape once"),
    "float input": (["--input-shape", "7,3", "--state-shape", "2,3,8", "--state-shape",
                     "2,3,8"], r"could not be run on an input of shape \(7, 3\) with the "
                               r"states .*The network takes token ids: give --input-range"),
    "ids beyond the vocabulary": (["--input-shape", "7,3", "--input-range", "0,50",
                                   "--state-shape", "2,3,8", "--state-shape", "2,3,8"],
                                  r"IndexError: index out of range in self. The token ids are "
                                  r"drawn from \[0, 50\) \(--input-range\): its HIGH must not "
                                  r"exceed the vocabulary size"),
    "wrong state shape": (["--input-shape", "7,3", "--input-range", f"0,{V}",
                           "--state-shape", "2,4,8", "--state-shape", "2,4,8"],
                          r"Expected hidden\[0\] size \(2, 3, 8\), got \[2, 4, 8\]"),
}


@pytest.mark.parametrize("case", sorted(RUN_ERRORS))
def test_inputs_that_do_not_fit_name_the_flag_and_write_nothing(case, lms, lm_file, capsys):
    kind = "GRU" if "GRU" in case else "LSTM"
    flags, message = RUN_ERRORS[case]
    rc = convert.main([str(lm_file / ("gru.pt" if kind == "GRU" else "lm.pt")),
                       str(lm_file / "out.params"), "--torch", f"{lms}:TorchLM({kind!r})",
                       "--gluon", f"{lms}:GluonLM({kind!r})", *flags])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith(f"error: {lm_file}/"), err
    assert re.search(message, err), err
    assert err.count("\n") == 1, err
    _nothing_written(lm_file, "out.params")


def test_states_given_to_a_network_without_them(tmp_path, capsys):
    net = torch.nn.Linear(4, 3)
    torch.save(net.state_dict(), tmp_path / "lin.pt")
    with pytest.raises(convert.ConversionError,
                       match=r"with the state \(2, 4\) \(eval mode\): TypeError: .*It takes no "
                             r"states: leave out --state-shape"):
        convert.state_dict_to_params(tmp_path / "lin.pt", tmp_path / "lin.params",
                                     torch_net=torch.nn.Linear(4, 3),
                                     gluon_net=mx.gluon.nn.Dense(3, in_units=4),
                                     input_shape=(2, 4), state_shapes=[(2, 4)])
    _nothing_written(tmp_path, "lin.params")


@pytest.mark.parametrize("kwargs, message", [
    (dict(state_shapes=[STATE]), "state_shapes needs input_shape"),
    (dict(input_range=(0, V)), "input_range needs input_shape"),
    (dict(input_shape=(7, 3), input_range=(5, 5)), r"0 <= low < high"),
    (dict(input_shape=(7, 3), input_range=(-1, 5)), r"0 <= low < high"),
    (dict(input_shape=(7, 3), input_range=(0.0, 5)), r"two integers"),
    (dict(input_shape=(7, 3), state_shapes=STATE), "a non-empty list of shapes"),
    (dict(input_shape=(7, 3), state_shapes=[(2, 0, 8)]), "a non-empty list of shapes"),
    (dict(input_shape=(7, 0)), "input_shape must be a tuple of positive integers"),
])
def test_bad_verification_arguments_are_refused_before_reading(lms, tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        convert.state_dict_to_params(tmp_path / "nowhere.pt", tmp_path / "x.params",
                                     torch_net=_net(lms, "TorchLM()"),
                                     gluon_net=_net(lms, "GluonLM()"), **kwargs)
    _nothing_written(tmp_path, "x.params")


# --- the command line -----------------------------------------------------------------------

def test_cli_tied_lm_both_ways(lms, lm_file, capsys):
    nets = ["--torch", f"{lms}:TorchLM()", "--gluon", f"{lms}:GluonLM()"]
    rc = convert.main([str(lm_file / "lm.pt"), str(lm_file / "lm.params"), *nets, *FLAGS])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "input   token ids in [0, 12) of shape (7, 3) with the states (2, 3, 8), " \
           "(2, 3, 8) (standard normal)" in out
    assert re.search(r"check   eval  max \|PyTorch - Gluon\| \S+ <= .*all 3 outputs, shape "
                     r"\(7, 3, 12\): ok", out), out
    assert "lm.params: 11 arrays" in out
    want = torch.load(lm_file / "lm.pt", weights_only=True)["encoder.weight"].numpy()
    arrays = mx.nd.load(str(lm_file / "lm.params"))
    for key in ("encoder.weight", "decoder.weight"):
        np.testing.assert_array_equal(arrays[key].asnumpy(), want)

    rc = convert.main([str(lm_file / "lm.params"), str(lm_file / "back.pt"), *nets, *FLAGS])
    assert rc == 0 and "all 3 outputs" in capsys.readouterr().out
    back = torch.load(lm_file / "back.pt", weights_only=True)
    for k, v in torch.load(lm_file / "lm.pt", weights_only=True).items():
        assert torch.equal(back[k], v), k

    rc = convert.main([str(lm_file / "lm.pt"), str(lm_file / "bad.params"), "--torch",
                       f"{lms}:TorchLM()", "--gluon", f"{lms}:GluonLM(swap='input')", *FLAGS])
    err = capsys.readouterr().err
    assert rc == 3 and "FAILED" in err and "nothing was written" in err
    _nothing_written(lm_file, "bad.params")
