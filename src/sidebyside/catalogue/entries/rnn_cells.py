"""`mx.gluon.rnn` cells: one step (`cell(x, states)`), `unroll`, `begin_state`, stacks."""
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, check, entry

_CELL_ARGS = ("hidden_size → hidden_size (PyTorch's 2nd argument); input_size → input_size "
              "(PyTorch's 1st, required; Gluon infers it when 0); the weights copy unchanged "
              "and in the same order: i2h_weight ⇄ weight_ih, h2h_weight ⇄ weight_hh, "
              "i2h_bias ⇄ bias_ih, h2h_bias ⇄ bias_hh")
_INIT = ("initialisation: Gluon's biases start at 0, its weights from initialize()'s "
         "initialiser; PyTorch draws all four from U(±1/√hidden_size)")
_STEP = ("one step: Gluon's cell(x, states) returns (output, new_states) with states a list; "
         "PyTorch's cell returns the new state(s) only (the output is h). Gluon's output and "
         "states[0] are one array: autograd.backward([out, states[0]], heads) does not sum "
         "the two heads as PyTorch does (measured: a different input gradient); the checks "
         "back-propagate through out and c only")

ENTRIES = [
    entry("mx.gluon.rnn.LSTMCell", torch="torch.nn.LSTMCell(input_size, hidden_size)",
          status=ARGS,
          args=_CELL_ARGS + "; cell(x, [h, c]) → (h, [h, c]) ⇄ mod(x, (h, c)) → (h, c)",
          defaults=_INIT,
          gotchas=[_STEP, "gate order (input, forget, cell, output) is the same: float64 "
                   "agrees to 3e-17 (measured)",
                   "activation/recurrent_activation (MXNet-only arguments) other than "
                   "'tanh'/'sigmoid' have no PyTorch counterpart"],
          check=check("""
              net = rnn.LSTMCell(3, input_size=4)
              out_and_c = lambda out, states: (out, states[1])
              out_and_c(*net(x, [h, c]))""", """
              mod = nn.LSTMCell(4, 3)
              mod(x, (h, c))""", inputs="x=U(2, 4); h=U(2, 3); c=U(2, 3)", grad="x, h, c")),
    entry("mx.gluon.rnn.GRUCell", torch="torch.nn.GRUCell(input_size, hidden_size)",
          status=ARGS, args=_CELL_ARGS + "; cell(x, [h]) → (h, [h]) ⇄ mod(x, h) → h",
          defaults=_INIT,
          gotchas=[_STEP, "the same gates (reset, update, new) and the same candidate: the "
                   "reset gate multiplies (W_hn·h + b_hn) in both (not W_hn·(r∘h)): float64 "
                   "agrees to 1e-16 (measured)"],
          check=check("""
              net = rnn.GRUCell(3, input_size=4)
              net(x, [h])[0]""", """
              mod = nn.GRUCell(4, 3)
              mod(x, h)""", inputs="x=U(2, 4); h=U(2, 3)", grad="x, h")),
    entry("mx.gluon.rnn.RNNCell", torch="torch.nn.RNNCell(input_size, hidden_size)",
          status=ARGS, args=_CELL_ARGS + "; activation → nonlinearity ('tanh', 'relu'); "
                                         "cell(x, [h]) → (h, [h]) ⇄ mod(x, h) → h",
          defaults="activation 'tanh' on both sides (the fused rnn.RNN layer defaults to "
                   "'relu'); " + _INIT,
          gotchas=[_STEP, "MXNet's RNNCell also takes 'sigmoid' and 'softrelu' (and an "
                   "Activation block); PyTorch's RNNCell only 'tanh' and 'relu'"],
          check=check("""
              net = rnn.RNNCell(3, input_size=4)
              net(x, [h])[0]""", """
              mod = nn.RNNCell(4, 3)
              mod(x, h)""", inputs="x=U(2, 4); h=U(2, 3)", grad="x, h")),
    entry("mx.gluon.rnn.RNNCell", form="activation='relu'", when=["activation='relu'"],
          signature=("hidden_size", "activation"),
          torch="torch.nn.RNNCell(input_size, hidden_size, nonlinearity='relu')",
          status=ARGS, args="activation='relu' → nonlinearity='relu'",
          gotchas=["the cell computes ReLU in the run's dtype: no float32 rounding in float64, "
                   "unlike the fused rnn.RNN layer's kernel"],
          check=check("""
              net = rnn.RNNCell(3, activation='relu', input_size=4)
              net(x, [h])[0]""", """
              mod = nn.RNNCell(4, 3, nonlinearity='relu')
              mod(x, h)""", inputs="x=U(2, 4); h=U(2, 3)", grad="x, h")),
    entry("mx.gluon.rnn.HybridSequentialRNNCell",
          torch="torch.nn.LSTM(input_size, hidden_size, num_layers=len(cells), batch_first=True)",
          status=COMPOSITE,
          args="a stack of LSTMCells (GRUCells, RNNCells) of one hidden size, unrolled → one "
               "multi-layer torch.nn.LSTM (GRU, RNN); the weights copy in order (cell k's "
               "i2h/h2h ⇄ weight_ih_lk/weight_hh_lk); states [h0, c0, h1, c1] ⇄ (h, c) with "
               "h[k], c[k] per layer; unroll's layout='NTC' (its default) → batch_first=True",
          gotchas=["the states are one flat list, layer by layer: [h0, c0, h1, c1] for two "
                   "LSTM cells; PyTorch stacks them, (h, c) each (layers, N, hidden)",
                   "cells with other sizes, or DropoutCell/ResidualCell between them, are a "
                   "Python loop over torch.nn.*Cell modules in PyTorch"],
          check=check("""
              net = rnn.HybridSequentialRNNCell()
              net.add(rnn.LSTMCell(3, input_size=4))
              net.add(rnn.LSTMCell(3, input_size=3))
              net.unroll(3, x, begin_state=net.begin_state(batch_size=2, dtype=dtype),
                         merge_outputs=True)""", """
              mod = nn.LSTM(4, 3, num_layers=2, batch_first=True)
              flat = lambda out, hc: (out, [hc[0][0], hc[1][0], hc[0][1], hc[1][1]])
              flat(*mod(x))""", inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.rnn.RecurrentCell.unroll",
          aliases=["mx.gluon.rnn.LSTMCell.unroll", "mx.gluon.rnn.GRUCell.unroll",
                   "mx.gluon.rnn.RNNCell.unroll"],
          torch="torch.stack([h := mod(x[:, t], h) for t in range(length)], dim=1)",
          status=COMPOSITE,
          recipe="""
              h, c = states                      # zeros when unroll had no begin_state
              outs = []
              for t in range(length):            # layout='NTC': time is axis 1
                  h, c = cell(x[:, t], (h, c))
                  outs.append(h)
              out = torch.stack(outs, dim=1)     # merge_outputs=True
              # out, [h, c] is unroll's (outputs, states)""",
          args="length → the loop's length; inputs (N, T, C) → x[:, t]; begin_state → the "
               "first state (zeros if left out); merge_outputs=True → torch.stack(…, 1), "
               "False → the list; returns (outputs, states)",
          defaults="layout 'NTC' (batch first): unroll's default, not the fused layers' 'TNC'",
          gotchas=["unroll defaults to layout='NTC' where the fused rnn.LSTM defaults to "
                   "'TNC'", "merge_outputs=None gives a list of steps (one array per time step), "
                   "whatever the input: merge_outputs=True for one stacked array",
                   "in float64, unroll without begin_state fails (its zeros are float32, measured "
                   "MXNetError): pass begin_state=cell.begin_state(batch_size=N, "
                   "dtype='float64')", "a single LSTMCell unrolled equals torch.nn.LSTM(batch_first=True) with "
                   "the same four weights"],
          check=check("""
              net = rnn.LSTMCell(3, input_size=4)
              net.unroll(5, x, begin_state=[h, c], merge_outputs=True)""", """
              mod = nn.LSTMCell(4, 3)
              def unroll(hh, cc):
                  outs = []
                  for t in range(5):
                      hh, cc = mod(x[:, t], (hh, cc))
                      outs.append(hh)
                  return torch.stack(outs, dim=1), [hh, cc]
              unroll(h, c)""",
              inputs="x=U(2, 5, 4); h=U(2, 3); c=U(2, 3)", grad="x, h, c")),
    entry("mx.gluon.rnn.RecurrentCell.unroll", form="layout='TNC'", when=["layout='TNC'"],
          signature=("length", "inputs", "begin_state", "layout"),
          torch="torch.stack([h := mod(x[t], h) for t in range(length)], dim=0)",
          status=COMPOSITE,
          args="layout='TNC': time is axis 0 → x[t], torch.stack(…, dim=0)",
          check=check("""
              net = rnn.GRUCell(3, input_size=4)
              net.unroll(5, x, net.begin_state(batch_size=2, dtype=dtype), layout='TNC',
                         merge_outputs=True)""", """
              mod = nn.GRUCell(4, 3)
              def unroll(hh):
                  outs = []
                  for t in range(5):
                      hh = mod(x[t], hh)
                      outs.append(hh)
                  return torch.stack(outs, dim=0), [hh]
              unroll(torch.zeros(2, 3, dtype=dtype))""", inputs="x=U(5, 2, 4)", grad="x")),
    entry("mx.gluon.rnn.RecurrentCell.unroll", form="merge_outputs=False",
          when=["merge_outputs=False"],
          signature=("length", "inputs", "begin_state", "layout", "merge_outputs"),
          torch="[h := mod(x[:, t], h) for t in range(length)]", status=COMPOSITE,
          args="merge_outputs=False → the list of per-step outputs (not stacked)",
          check=check("""
              net = rnn.RNNCell(3, input_size=4)
              net.unroll(3, x, net.begin_state(batch_size=2, dtype=dtype),
                         merge_outputs=False)[0]""", """
              mod = nn.RNNCell(4, 3)
              def unroll(hh):
                  outs = []
                  for t in range(3):
                      hh = mod(x[:, t], hh)
                      outs.append(hh)
                  return outs
              unroll(torch.zeros(2, 3, dtype=dtype))""", inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.rnn.RecurrentCell.begin_state",
          aliases=["mx.gluon.rnn.LSTMCell.begin_state", "mx.gluon.rnn.GRUCell.begin_state",
                   "mx.gluon.rnn.RNNCell.begin_state"],
          torch="[torch.zeros(batch_size, hidden_size) for _ in range(n_states)]",
          status=COMPOSITE,
          args="batch_size → batch_size; func=mx.nd.zeros → torch.zeros; LSTMCell: two "
               "states [h, c], GRUCell/RNNCell one [h], each (batch_size, hidden_size)",
          gotchas=["a cell's begin_state is float32 unless dtype= is given: it does not "
                   "follow cast('float64') (the fused layers' does)",
                   "PyTorch's cells take hx=None as zeros: begin_state is rarely needed"],
          check=check("""
              net = rnn.LSTMCell(3, input_size=4)
              net.begin_state(batch_size=2)""", """
              [torch.zeros(2, 3), torch.zeros(2, 3)]""", kind="exact")),
]

_ZONEOUT = """
def zoneout_step(cell, x, h, zoneout_states, training):
    h_new = cell(x, h)
    if not training:
        return h_new                     # MXNet's predict mode: the base cell alone
    keep_old = torch.rand_like(h_new) < zoneout_states
    return torch.where(keep_old, h, h_new)
"""

ENTRIES += [
    entry("mx.gluon.rnn.ResidualCell", torch="mod(x, h) + x", status=COMPOSITE,
          args="ResidualCell(base_cell) → the base cell's output plus its input (sizes "
               "equal); the states are the base cell's, unchanged",
          gotchas=["only the output gets the residual, not the state: the next step sees "
                   "the base cell's h"],
          check=check("""
              net = rnn.ResidualCell(rnn.GRUCell(4, input_size=4))
              net(x, [h])[0]""", """
              mod = nn.GRUCell(4, 4)
              mod(x, h) + x""", inputs="x=U(2, 4); h=U(2, 4)", grad="x, h")),
    entry("mx.gluon.rnn.DropoutCell", torch="torch.nn.Dropout(rate)", status=ARGS,
          args="rate → p; axes (dimensions sharing one mask) has no Dropout argument: "
               "draw the mask with size 1 on those axes by hand; the cell keeps no state "
               "(states pass through)",
          gotchas=["called as a cell, DropoutCell(rate)(x, states) returns (dropped x, "
                   "states); in a HybridSequentialRNNCell it drops between cells, at every "
                   "step with a new mask, as nn.Dropout between PyTorch cells in a loop",
                   "the check compares predict mode (identity on both sides); train mode "
                   "scales kept values by 1/(1 − rate) in both"],
          check=check("""
              net = rnn.DropoutCell(0.5)
              net(x, [])[0]""", """
              mod = nn.Dropout(0.5)
              mod(x)""", inputs="x=U(2, 4)", grad="x", mode="predict")),
    entry("mx.gluon.rnn.BidirectionalCell",
          torch="torch.nn.LSTM(input_size, hidden_size, bidirectional=True, batch_first=True)",
          status=COMPOSITE,
          args="BidirectionalCell(l_cell, r_cell) of two LSTMCells (GRUCells, RNNCells), "
               "unrolled → one bidirectional torch.nn.LSTM (GRU, RNN); l_cell's weights ⇄ "
               "…_l0, r_cell's ⇄ …_l0_reverse; unroll's layout 'NTC' → batch_first=True; "
               "the output concatenates forward and backward (2·hidden) in both",
          gotchas=["a BidirectionalCell cannot be stepped (cell(x, states) raises): unroll "
                   "only", "its states are [l_h, l_c, r_h, r_c], PyTorch's (h, c) stacked "
                   "(2, N, hidden)",
                   "in float64, pass begin_state=cell.begin_state(batch_size=N, "
                   "dtype='float64')"],
          check=check("""
              net = rnn.BidirectionalCell(rnn.LSTMCell(3, input_size=4),
                                          rnn.LSTMCell(3, input_size=4))
              net.unroll(3, x, net.begin_state(batch_size=2, dtype=dtype),
                         merge_outputs=True)[0]""", """
              mod = nn.LSTM(4, 3, bidirectional=True, batch_first=True)
              mod(x)[0]""", inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.rnn.ZoneoutCell",
          torch="zoneout_step(cell, x, h, zoneout_states, training)", status=RECIPE,
          recipe=_ZONEOUT,
          args="ZoneoutCell(base_cell, zoneout_outputs, zoneout_states): each state value "
               "keeps its previous value with probability zoneout_states in training; the "
               "recipe shows the state part (zoneout_outputs does the same to the output "
               "against the previous output)",
          gotchas=["in predict mode (and in the check) ZoneoutCell is its base cell; in "
                   "training the masks are random on both sides, not the same draws"],
          check=check("""
              net = rnn.ZoneoutCell(rnn.GRUCell(3, input_size=4), zoneout_states=0.3)
              net(x, [h])[0]""", _ZONEOUT + textwrap.dedent("""
              mod = nn.GRUCell(4, 3)
              zoneout_step(mod, x, h, 0.3, training=mod.training)"""),
              inputs="x=U(2, 4); h=U(2, 3)", grad="x, h", mode="predict")),
]

_CUSTOM_PT = """
class TanhCell(nn.Module):          # a custom cell: forward(x, h) -> new h
    def __init__(self):
        super().__init__()
        self.dense = nn.Linear(4, 3)

    def forward(self, x, h):
        return torch.tanh(self.dense(x) + h)


def unroll(cell, x, h):             # layout 'NTC', merge_outputs=True
    outs = []
    for t in range(x.shape[1]):
        h = cell(x[:, t], h)
        outs.append(h)
    return torch.stack(outs, dim=1)
"""
_CUSTOM_MX = """
class TanhCell(rnn.{base}):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.weight = self.params.get('weight', shape=(3, 4))
        self.bias = self.params.get('bias', shape=(3,))

    def state_info(self, batch_size=0):
        return [{{'shape': (batch_size, 3), '__layout__': 'NC'}}]

    {body}
"""
_FWD = """def forward(self, x, states):
        y = nd.FullyConnected(x, self.weight.data(), self.bias.data(), num_hidden=3)
        h = nd.tanh(y + states[0])
        return h, [h]"""
_HFWD = """def hybrid_forward(self, F, x, states, weight, bias):
        h = F.tanh(F.FullyConnected(x, weight, bias, num_hidden=3) + states[0])
        return h, [h]"""
_RUN_MX = """
net = TanhCell()
net.unroll(3, x, net.begin_state(batch_size=2, dtype=dtype), merge_outputs=True)[0]"""
_RUN_PT = """
mod = TanhCell()
unroll(mod, x, torch.zeros(2, 3, dtype=dtype))"""
_VALID = """
def unroll_valid(cell, x, h, valid_length):      # layout 'NTC'
    outs = []
    for t in range(x.shape[1]):
        live = (t < valid_length).to(x.dtype)[:, None]   # 1 while t < valid_length
        h = live * cell(x[:, t], h) + (1 - live) * h     # past the end: keep the state
        outs.append(live * h)                             # ... and output zeros
    return torch.stack(outs, dim=1), [h]
"""
_MODIFIER_PT = """
class Doubled(nn.Module):           # a custom modifier: wraps a cell, changes its output
    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def forward(self, x, h):
        h_new = self.cell(x, h)
        return 2 * h_new, h_new     # (output, state): the state stays the cell's own
"""
_MODIFIER_MX = """
class Doubled(rnn.ModifierCell):
    def hybrid_forward(self, F, x, states):
        out, states = self.base_cell(x, states)
        return 2 * out, states
"""

ENTRIES += [
    entry("mx.gluon.rnn.SequentialRNNCell",
          torch="torch.nn.GRU(input_size, hidden_size, num_layers=len(cells), batch_first=True)",
          status=COMPOSITE,
          args="as mx.gluon.rnn.HybridSequentialRNNCell: a stack of cells of one size, "
               "unrolled → one multi-layer torch.nn.GRU (LSTM, RNN); states [h0, h1] ⇄ "
               "h[0], h[1]",
          check=check("""
              net = rnn.SequentialRNNCell()
              net.add(rnn.GRUCell(3, input_size=4))
              net.add(rnn.GRUCell(3, input_size=3))
              net.unroll(3, x, net.begin_state(batch_size=2, dtype=dtype),
                         merge_outputs=True)[0]""", """
              mod = nn.GRU(4, 3, num_layers=2, batch_first=True)
              mod(x)[0]""", inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.rnn.RecurrentCell.unroll", form="valid_length", when=["valid_length"],
          signature=("length", "inputs", "begin_state", "layout", "merge_outputs",
                     "valid_length"),
          torch="unroll_valid(mod, x, h, valid_length)", status=RECIPE, recipe=_VALID,
          args="valid_length (N,) → a mask per step: outputs past a sequence's end are 0, "
               "its final state is the one at its last valid step",
          gotchas=["torch.nn.utils.rnn.pack_padded_sequence does the same for the fused "
                   "layers (nn.GRU/LSTM) but not for a loop over cells"],
          check=check("""
              net = rnn.GRUCell(3, input_size=4)
              net.unroll(4, x, net.begin_state(batch_size=2, dtype=dtype), merge_outputs=True,
                         valid_length=vl)""", _VALID + textwrap.dedent("""
              mod = nn.GRUCell(4, 3)
              unroll_valid(mod, x, torch.zeros(2, 3, dtype=dtype), vl)"""),
              inputs="x=U(2, 4, 4); vl=A([2, 4])", grad="x")),
    entry("mx.gluon.rnn.RecurrentCell", torch="class TanhCell(torch.nn.Module)",
          status=RECIPE, recipe=_CUSTOM_PT + "\nout = unroll(TanhCell(), x, h0)",
          args="a subclass's state_info + forward(x, states) → (out, new_states) → an "
               "nn.Module whose forward(x, h) returns the new state; begin_state → "
               "torch.zeros(N, hidden); unroll → a loop (mx.gluon.rnn.RecurrentCell.unroll)",
          gotchas=["Gluon calls reset() before unroll and counts steps (_counter): "
                   "PyTorch keeps no step count",
                   "reset() recurses into the children: a Dense child of a RecurrentCell "
                   "raises AttributeError ('Dense' object has no attribute 'reset', "
                   "measured); declare Parameters with self.params.get instead"],
          check=check(_CUSTOM_MX.format(base="RecurrentCell", body=_FWD) + _RUN_MX,
                      _CUSTOM_PT + _RUN_PT, inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.rnn.HybridRecurrentCell", torch="class TanhCell(torch.nn.Module)",
          status=RECIPE, recipe=_CUSTOM_PT + "\nout = unroll(TanhCell(), x, h0)",
          args="hybrid_forward(F, x, states) → forward(x, h), F.op → torch.op; the rest as "
               "mx.gluon.rnn.RecurrentCell",
          check=check(_CUSTOM_MX.format(base="HybridRecurrentCell", body=_HFWD) + _RUN_MX,
                      _CUSTOM_PT + _RUN_PT, inputs="x=U(2, 3, 4)", grad="x")),
    entry("mx.gluon.rnn.ModifierCell", torch="class Doubled(torch.nn.Module)",
          status=RECIPE, recipe=_MODIFIER_PT + "\nout, h = Doubled(nn.GRUCell(4, 3))(x, h)  # feed h back, not out",
          args="ModifierCell(base_cell) with hybrid_forward → an nn.Module holding the cell "
               "and changing what it returns",
          check=check(_MODIFIER_MX + textwrap.dedent("""
              net = Doubled(rnn.GRUCell(3, input_size=4))
              # two steps, the second from the state the first returned
              (lambda o: (o[0], *(lambda o2: (o2[0], o2[1][0]))(net(x, o[1]))))(net(x, [h]))"""),
              _MODIFIER_PT + textwrap.dedent("""
              mod = Doubled(nn.GRUCell(4, 3))
              (lambda o: (o[0], *mod(x, o[1])))(mod(x, h))"""), inputs="x=U(2, 4); h=U(2, 3)", grad="x, h")),
]
