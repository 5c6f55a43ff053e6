"""`mx.gluon.rnn`: the fused recurrent layers (RNN, LSTM, GRU), their forms and states."""
from ..model import ARGS, COMPOSITE, check, entry

_LAYERS = "20_sequence_models §2. The recurrent layers: the same gates, other defaults"
_STATES = "20_sequence_models §3. States: `(h, c)` and `begin_state`"
_DROPOUT = "20_sequence_models §5. Inter-layer dropout in fused layers"

_COMMON_ARGS = ("hidden_size → hidden_size (PyTorch's 2nd argument); input_size → input_size "
                "(PyTorch's 1st, required; Gluon infers it when 0); num_layers → num_layers; "
                "dropout → dropout; bidirectional → bidirectional; layout='TNC' (default) → "
                "batch_first=False, 'NTC' → batch_first=True; dtype → .to(dtype); called with "
                "states, net(x, states) → mod(x, states); called without, net(x) returns the "
                "output only → mod(x)[0]")
_SAME_WEIGHTS = ("the weights copy unchanged: l0_i2h_weight ⇄ weight_ih_l0, l0_h2h_weight ⇄ "
                 "weight_hh_l0, l0_i2h_bias ⇄ bias_ih_l0, l0_h2h_bias ⇄ bias_hh_l0 (r0_… ⇄ "
                 "…_l0_reverse), in the same order, both with two biases (the check copies "
                 "them in order)")
_INIT = ("initialisation: Gluon's biases start at zero and its weights from initialize()'s "
         "initialiser; PyTorch draws every weight and bias from U(±1/√hidden_size)")


def _dropout_form(cls, torch_cls, extra_mx="", extra_torch=""):
    """The `dropout` form of a fused layer: ignored by MXNet's CPU float32 kernel."""
    sig = ("hidden_size", "num_layers", "activation", "layout", "dropout") if cls == "RNN" \
        else ("hidden_size", "num_layers", "layout", "dropout")
    return entry(
        f"mx.gluon.rnn.{cls}", form="dropout", when=["dropout"], signature=sig,
        torch=f"torch.nn.{torch_cls}(input_size, hidden_size, num_layers{extra_torch}, "
              "dropout=dropout)",
        status=ARGS,
        args="dropout → dropout (between layers, training only, on both sides)",
        gotchas=[f"MXNet 1.9.1's CPU {cls} in float32 runs oneDNN, which has no dropout: "
                 "dropout= is ignored in training, silently; this check's train-mode MXNet "
                 "output equals PyTorch's with dropout off (mod.eval()). A model trained that "
                 "way is reproduced in PyTorch with dropout=0; float64 (or "
                 "MXNET_USE_MKLDNN_RNN=0) runs MXNet's own kernel, which does drop"],
        teach=_DROPOUT,
        check=check(f"""
            net = rnn.{cls}(3, num_layers=2, dropout=0.5{extra_mx})
            net(x)""", f"""
            mod = nn.{torch_cls}(4, 3, num_layers=2, dropout=0.5{extra_torch})
            mod.eval()(x)[0]""", inputs="x=U(5, 2, 4)", grad="x", dtypes=("float32",),
            note="float32 only: that is the dtype whose CPU kernel (oneDNN) ignores dropout; "
                 "in float64 MXNet's own kernel drops with its own random masks"))


ENTRIES = [
    # ----------------------------------------------------------------------- RNN
    entry("mx.gluon.rnn.RNN",
          torch="torch.nn.RNN(input_size, hidden_size, num_layers, nonlinearity='relu', "
                "bidirectional=bidirectional)",
          status=ARGS,
          args=_COMMON_ARGS + "; activation → nonlinearity",
          defaults="activation: Gluon 'relu', PyTorch nonlinearity='tanh': write "
                   "nonlinearity='relu' (or activation='tanh' in Gluon); " + _INIT,
          gotchas=["Gluon's RNN defaults to ReLU, PyTorch's to tanh",
                   "MXNet's float64 ReLU RNN rounds each hidden value (and its gradient) "
                   "through float32 (src/operator/rnn_impl.h: relu() returns "
                   "static_cast<float>(x)): its float64 results are ~1e-7 relative off "
                   "(rtol 1e-7 fails, 2e-7 passes on this check), float32 precision",
                   _SAME_WEIGHTS],
          teach=_LAYERS,
          check=check("""
              net = rnn.RNN(3, num_layers=2)
              (net(x), net(x, h))""", """
              mod = nn.RNN(4, 3, num_layers=2, nonlinearity='relu')
              (mod(x)[0], mod(x, h))""", inputs="x=U(5, 2, 4); h=U(2, 2, 3)", grad="x, h",
              rtol=5e-7,
              note="rtol 5e-7 in float64: MXNet's ReLU RNN kernel casts each activation "
                   "and its gradient to float32 (rnn_impl.h); measured: rtol 1e-7 fails "
                   "(5.6e-9 on a weight gradient), 2e-7 passes")),
    entry("mx.gluon.rnn.RNN", form="activation='tanh'", when=["activation='tanh'"],
          signature=("hidden_size", "num_layers", "activation"),
          torch="torch.nn.RNN(input_size, hidden_size, num_layers, batch_first=True, "
                "bidirectional=bidirectional)",
          status=ARGS,
          args=_COMMON_ARGS,
          defaults="tanh is PyTorch's default nonlinearity; " + _INIT,
          gotchas=["the tanh kernel has no float32 rounding: float64 agrees to 1e-15",
                   "layout='NTC' ⇄ batch_first=True (the check), the states stay (layers · "
                   "directions, N, hidden) in both"],
          teach=_LAYERS,
          check=check("""
              net = rnn.RNN(3, num_layers=2, activation='tanh', layout='NTC')
              (net(x), net(x, h))""", """
              mod = nn.RNN(4, 3, num_layers=2, batch_first=True)
              (mod(x)[0], mod(x, h))""", inputs="x=U(2, 5, 4); h=U(2, 2, 3)", grad="x, h")),
    _dropout_form("RNN", "RNN", extra_mx=", activation='tanh'"),
    # ---------------------------------------------------------------------- LSTM
    entry("mx.gluon.rnn.LSTM",
          torch="torch.nn.LSTM(input_size, hidden_size, num_layers, "
                "bidirectional=bidirectional)",
          status=ARGS,
          args=_COMMON_ARGS + "; states: Gluon's list [h, c] ⇄ PyTorch's tuple (h, c), each "
                              "(num_layers · directions, N, hidden_size)",
          defaults=_INIT,
          gotchas=["called without states, Gluon returns the output alone, PyTorch always "
                   "(output, (h, c))",
                   "gate order (input, forget, cell, output) and the two biases are the same: "
                   + _SAME_WEIGHTS,
                   "state_clip_min/max/nan have no PyTorch argument"],
          teach=_LAYERS,
          check=check("""
              net = rnn.LSTM(3, num_layers=2)
              (net(x), net(x, [h, c]))""", """
              mod = nn.LSTM(4, 3, num_layers=2)
              (mod(x)[0], mod(x, (h, c)))""",
              inputs="x=U(5, 2, 4); h=U(2, 2, 3); c=U(2, 2, 3)", grad="x, h, c")),
    entry("mx.gluon.rnn.LSTM", form="layout='NTC'", when=["layout='NTC'"],
          signature=("hidden_size", "num_layers", "layout"),
          torch="torch.nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, "
                "bidirectional=bidirectional)",
          status=ARGS,
          args="layout='NTC' → batch_first=True; the rest as the default form",
          gotchas=["batch_first=True changes the input and output only: the states stay "
                   "(num_layers · directions, N, hidden_size) on both sides",
                   "bidirectional: the output concatenates forward and backward (2·hidden), "
                   "r0_… ⇄ …_l0_reverse"],
          teach=_LAYERS,
          check=check("""
              net = rnn.LSTM(3, layout='NTC', bidirectional=True)
              net(x, [h, c])""", """
              mod = nn.LSTM(4, 3, batch_first=True, bidirectional=True)
              mod(x, (h, c))""",
              inputs="x=U(2, 5, 4); h=U(2, 2, 3); c=U(2, 2, 3)", grad="x, h, c")),
    entry("mx.gluon.rnn.LSTM", form="projection_size", when=["projection_size"],
          signature=("hidden_size", "num_layers", "layout", "dropout", "bidirectional",
                     "input_size", "i2h_weight_initializer", "h2h_weight_initializer",
                     "i2h_bias_initializer", "h2h_bias_initializer", "projection_size"),
          torch="torch.nn.LSTM(input_size, hidden_size, num_layers, proj_size=projection_size)",
          status=ARGS,
          args="projection_size → proj_size; l0_h2r_weight ⇄ weight_hr_l0 (projection_size, "
               "hidden_size); h is (layers, N, projection_size), c (layers, N, hidden_size)",
          gotchas=["MXNet 1.9.1 cannot train a projected LSTM on the CPU ('No training "
                   "support for LSTM with projection on CPU currently', raised even in predict "
                   "mode once gradients are recorded): the check compares inference, its "
                   "parameters' grad_req set to 'null'"],
          teach=_LAYERS,
          check=check("""
              net = rnn.LSTM(4, projection_size=2)
              net.collect_params().setattr('grad_req', 'null')
              net(x, [h, c])""", """
              mod = nn.LSTM(3, 4, proj_size=2)
              mod(x, (h, c))""", inputs="x=U(5, 2, 3); h=U(1, 2, 2); c=U(1, 2, 4)",
              mode="predict",
              note="inference only: MXNet's CPU kernel has no backward for projections")),
    _dropout_form("LSTM", "LSTM"),
    entry("mx.gluon.rnn.LSTM.begin_state",
          aliases=["mx.gluon.rnn.GRU.begin_state", "mx.gluon.rnn.RNN.begin_state"],
          torch="(torch.zeros(num_layers * num_directions, batch_size, hidden_size), "
                "torch.zeros(num_layers * num_directions, batch_size, hidden_size))",
          status=COMPOSITE,
          args="batch_size → batch_size; func=mx.nd.zeros → torch.zeros (nd.ones → "
               "torch.ones …); ctx → device=; dtype → dtype= (Gluon's default: the layer's "
               "dtype, which follows cast()); LSTM: two states [h, c], GRU and RNN: one [h]",
          defaults="PyTorch needs no begin_state: states left out are zeros",
          gotchas=["a fused layer's begin_state follows cast('float64') (the check's states "
                   "have the run's dtype), a cell's does not (mx.gluon.rnn.RecurrentCell."
                   "begin_state)",
                   "Gluon returns a list [h, c], PyTorch's layers take and return a tuple"],
          teach=_STATES,
          check=check("""
              net = rnn.LSTM(3, num_layers=2, bidirectional=True, input_size=4)
              (net.begin_state(batch_size=2), net(x, net.begin_state(batch_size=2)))""", """
              mod = nn.LSTM(4, 3, num_layers=2, bidirectional=True)
              zeros = torch.zeros(2 * 2, 2, 3, dtype=dtype)
              ((zeros, zeros), mod(x, (zeros, zeros)))""", inputs="x=U(5, 2, 4)", grad="x")),
    # ----------------------------------------------------------------------- GRU
    entry("mx.gluon.rnn.GRU",
          torch="torch.nn.GRU(input_size, hidden_size, num_layers, "
                "bidirectional=bidirectional)",
          status=ARGS,
          args=_COMMON_ARGS + "; the state is one array h (a list [h] in Gluon's output)",
          defaults=_INIT,
          gotchas=["the same gate order (reset, update, new) and the same formula, the reset "
                   "gate applied to W_hn·h + b_hn, in both: " + _SAME_WEIGHTS,
                   "called with states, Gluon returns (output, [h]), PyTorch (output, h)"],
          teach=_LAYERS,
          check=check("""
              net = rnn.GRU(3, num_layers=2)
              (net(x), net(x, h))""", """
              mod = nn.GRU(4, 3, num_layers=2)
              (mod(x)[0], mod(x, h))""", inputs="x=U(5, 2, 4); h=U(2, 2, 3)", grad="x, h")),
    entry("mx.gluon.rnn.GRU", form="layout='NTC'", when=["layout='NTC'"],
          signature=("hidden_size", "num_layers", "layout"),
          torch="torch.nn.GRU(input_size, hidden_size, num_layers, batch_first=True, "
                "bidirectional=bidirectional)",
          status=ARGS,
          args="layout='NTC' → batch_first=True; the rest as the default form",
          gotchas=["the state stays (num_layers · directions, N, hidden_size) with "
                   "batch_first=True"],
          teach=_LAYERS,
          check=check("""
              net = rnn.GRU(3, layout='NTC', bidirectional=True)
              net(x, h)""", """
              mod = nn.GRU(4, 3, batch_first=True, bidirectional=True)
              mod(x, h)""", inputs="x=U(2, 5, 4); h=U(2, 2, 3)", grad="x, h")),
    _dropout_form("GRU", "GRU"),
]
