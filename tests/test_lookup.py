"""`sidebyside.apimap.find`: any name, from either side, finds where the book teaches it.

The names below are written out by hand, each taken from a real row of the API map (the
PyTorch side and the MXNet side), from the helper package's API or from a table row, with
the row it must find; none is generated from the index the lookup builds.
"""

import re

import pytest

from conftest import ROOT
from sidebyside import apimap, mappings
from sidebyside.apimap import errorindex, helpers, lookup

# (what a reader types, the API-map row it must find)
PYTORCH_SIDE = [
    ("torch.acos", "acos"), ("torch.addbmm", "addbmm"), ("addcdiv", "addcdiv"),
    ("torch.addmm", "addmm"), ("addr", "addr"), ("apply_", "apply_"), ("torch.asin", "asin"),
    ("torch.atan", "atan"), ("torch.atan2", "atan2"), ("torch.bmm", "bmm"),
    ("bernoulli", "bernoulli"), ("cauchy_", "cauchy_"), ("chunk", "chunk"), ("clamp", "clamp"),
    ("x.clone()", "clone"), ("torch.linalg.cross", "cross"), ("cumprod", "cumprod"),
    ("cumsum", "cumsum"), ("data_ptr", "data_ptr"), ("torch.diag", "diag"),
    ("torch.dist", "dist"), ("torch.erf", "erf"), ("expand", "expand"),
    ("exponential_", "exponential_"), ("torch.fmod", "fmod"), ("torch.frac", "frac"),
    ("torch.gather", "gather"), ("torch.linalg.lstsq", "gels"), ("geometric_", "geometric_"),
    ("repeat", "repeat"), ("scatter_", "scatter_"), ("numel", "numel"),
    ("torch.linalg.eigh", "symeig"), ("uniform_", "uniform_"), ("unsqueeze", "unsqueeze"),
    ("view_as", "view_as"), ("copy_", "copy_"), ("torch.zeros", "zeros"),
    ("torch.ones", "ones"), ("torch.ones_like", "ones_like"), ("torch.randn", "randn"),
    ("randn_like", "randn_like"), ("torch.rand", "rand"), ("rand_like", "rand_like"),
    ("torch.cat", "cat"), ("torch.stack", "stack"), ("torch.sigmoid", "sigmoid"),
    ("torch.relu", "relu"), ("torch.tanh", "tanh"), ("torch.log", "log"),
    ("torch.softmax", "softmax"), ("net.double()", "double()"), ("LazyLinear", "double()"),
    ("torchvision.utils.make_grid", "make_grid"), ("save_image", "save_image"),
    ("detach", "detach"), ("requires_grad_", "detach"), ("narrow", "narrow"),
    ("contiguous", "contiguous"), ("is_contiguous", "contiguous"), ("new_zeros", "new_zeros"),
    ("torch.full", "full"), ("torch.tensor", "tensor"), ("torch.arange", "arange"),
    ("torch.linspace", "linspace"), ("torch.exp", "exp"), ("pow", "pow"),
    ("torch.pow", "pow"), ("torch.sqrt", "sqrt"), ("torch.abs", "abs"),
    ("torch.maximum", "maximum"), ("torch.log_softmax", "log_softmax"), ("keepdim", "sum"),
    ("prod", "prod"), ("x.std(dim=1)", "std"), ("argmax", "argmax"), ("x.max(dim=1)", "max"),
    ("torch.topk", "topk"), ("torch.sort", "sort"), ("torch.matmul", "matmul"),
    ("torch.mm", "matmul"), ("permute", "permute"), ("torch.transpose", "transpose"),
    ("squeeze", "squeeze"), ("torch.flatten", "flatten"), ("torch.split", "split"),
    ("torch.index_select", "index_select"), ("masked_fill", "masked_fill"),
    ("torch.nn.functional.one_hot", "one_hot"), ("torch.unique", "unique"),
    ("torch.equal", "equal"), ("tolist", "tolist"), ("torch.randperm", "randperm"),
    ("torch.save", "save"), ("torch.load", "save"), ("nn.Embedding", "Embedding"),
    ("Embedding", "Embedding"), ("LSTM", "LSTM"), ("torch.nn.LSTM", "LSTM"), ("GRU", "GRU"),
    ("RNN", "RNN"), ("weight_ih_l0", "LSTM"), ("NLLLoss", "NLLLoss"),
    ("torch.nn.functional.binary_cross_entropy", "binary_cross_entropy"),
    ("binary_cross_entropy", "binary_cross_entropy"), ("torch.optim.SGD", "sgd_mom_update"),
    ("state_dict", "name_scope"), ("x.device", "device"), ("x.numpy()", "numpy()"),
    ("x.size()", "size()"), ("x.t()", "t()"), ("x.type()", "type()"),
    ("torch.float64", "type(dtype)"), ("w.view(16)", "view"),
    ("flatten_parameters", "flatten_parameters"), ("torch.nn.LSTMCell", "LSTMCell"),
    ("h_0", "begin_state"), ("torch.nn.utils.clip_grad_norm_", "clip_global_norm"),
]
MXNET_SIDE = [
    ("nd.arccos", "acos"), ("mx.np.arccos", "acos"), ("nd.linalg.gemm2", "bmm"),
    ("nd.linalg.gemm", "addmm"), ("mx.np.outer", "addr"), ("nd.arcsin", "asin"),
    ("nd.arctan", "atan"), ("mx.np.arctan2", "atan2"), ("nd.batch_dot", "bmm"),
    ("npx.random.bernoulli", "bernoulli"), ("nd.split", "chunk"),
    ("mx.np.array_split", "chunk"), ("nd.clip", "clamp"), ("mx.np.nancumprod", "cumprod"),
    ("nd.cumsum", "cumsum"), ("to_dlpack_for_read", "data_ptr"), ("nd.diag", "diag"),
    ("nd.norm", "dist"), ("npx.erf", "erf"), ("broadcast_to", "expand"),
    ("nd.random_exponential", "exponential_"), ("nd.modulo", "fmod"), ("nd.trunc", "frac"),
    ("nd.gather_nd", "gather"), ("mx.np.take_along_axis", "gather"),
    ("mx.np.linalg.lstsq", "gels"), ("x.context", "device"), ("tile", "repeat"),
    ("astype", "type(dtype)"), ("nd.scatter_nd", "scatter_"), ("asnumpy", "numpy()"),
    ("nd.linalg.syevd", "symeig"), ("nd.random.uniform", "uniform_"),
    ("nd.expand_dims", "unsqueeze"), ("reshape_like", "view_as"), ("copyto", "copy_"),
    ("nd.zeros", "zeros"), ("nd.ones", "ones"), ("nd.ones_like", "ones_like"),
    ("nd.random.normal", "randn"), ("nd.random.normal_like", "randn_like"),
    ("nd.random.uniform_like", "rand_like"), ("nd.concat", "cat"),
    ("mx.np.concatenate", "cat"), ("nd.stack", "stack"), ("npx.sigmoid", "sigmoid"),
    ("npx.relu", "relu"), ("nd.tanh", "tanh"), ("nd.log", "log"), ("npx.softmax", "softmax"),
    ("net.cast('float64')", "double()"), ("mx.image.imread", "save_image"),
    ("as_in_context", "GPU 0 to GPU 1"), ("as_in_ctx", "GPU 0 to GPU 1"),
    ("nd.slice_axis", "narrow"), ("nd.full", "full"), ("nd.array", "tensor"),
    ("nd.arange", "arange"), ("nd.linspace", "linspace"), ("nd.exp", "exp"),
    ("mx.nd.exp", "exp"), ("nd.power", "pow"), ("nd.sqrt", "sqrt"), ("nd.abs", "abs"),
    ("nd.maximum", "maximum"), ("nd.log_softmax", "log_softmax"),
    ("npx.log_softmax", "log_softmax"), ("keepdims", "sum"), ("nd.prod", "prod"),
    ("mx.np.std", "std"), ("ddof", "std"), ("nd.argmax", "argmax"), ("nd.max", "max"),
    ("nd.topk", "topk"), ("npx.topk", "topk"), ("nd.argsort", "sort"), ("nd.dot", "matmul"),
    ("mx.np.matmul", "matmul"), ("nd.transpose", "permute"), ("nd.swapaxes", "transpose"),
    ("nd.squeeze", "squeeze"), ("nd.flatten", "flatten"), ("npx.batch_flatten", "flatten"),
    ("nd.take", "index_select"), ("nd.where", "masked_fill"), ("nd.one_hot", "one_hot"),
    ("mx.np.unique", "unique"), ("mx.np.array_equal", "equal"),
    ("nd.random.shuffle", "randperm"), ("nd.save", "save"), ("mx.nd.load", "save"),
    (".params", "save"), ("gluon.nn.Embedding", "Embedding"), ("gluon.rnn.LSTM", "LSTM"),
    ("mx.gluon.rnn.GRU", "GRU"), ("gluon.rnn.RNN", "RNN"), ("l0_i2h_weight", "LSTM"),
    ("begin_state", "LSTM"), ("SoftmaxCrossEntropyLoss", "NLLLoss"), ("from_logits", "NLLLoss"),
    ("SigmoidBinaryCrossEntropyLoss", "binary_cross_entropy"),
    ("gluon.loss.SigmoidBCELoss", "binary_cross_entropy"),
    ("nd.sgd_mom_update", "sgd_mom_update"), ("sgd_mom_update", "sgd_mom_update"),
    ("name_scope", "name_scope"), ("collect_params", "name_scope"),
    ("attach_grad", "detach"), ("autograd.record", "detach"), ("mx.np.einsum", "addbmm"),
    ("u.asnumpy()", "apply_"), ("nd.tan", "cauchy_"), ("NDArray.copy", "clone"),
    ("x.T.reshape", "contiguous"), ("nd.take(a3, i, axis=-1)", "cross"), ("nd.ceil", "geometric_"),
    ("def make_grid(imgs, nrow=8, padding=2, pad_value=0.0): pass", "make_grid"),
    ("nd.zeros((2, 3), ctx=u.context, dtype=u.dtype)", "new_zeros"), ("NDArray.size", "numel"),
    ("mx.np.random.uniform", "rand"), ("NDArray.shape", "size()"), ("mx.np.split", "split"),
    ("NDArray.T", "t()"), ("mx.np.ndarray.tolist", "tolist"), ("NDArray.dtype", "type()"),
    ("NDArray.reshape", "view"), ("layer.begin_state(batch_size=1)", "begin_state"),
    ("mx.gluon.rnn.LSTMCell", "LSTMCell"), ("cell.unroll", "LSTMCell"),
    ("mx.gluon.utils.clip_global_norm", "clip_global_norm"),
]
# (a helper name, the Helper it must find)
HELPERS = [
    ("params_to_state_dict", "sidebyside.convert.params_to_state_dict"),
    ("convert.state_dict_to_params", "sidebyside.convert.state_dict_to_params"),
    ("gluon_to_torch", "sidebyside.transfer.gluon_to_torch"),
    ("transfer.torch_to_gluon", "sidebyside.transfer.torch_to_gluon"),
    ("transfer", "sidebyside.transfer"), ("errors.catch", "sidebyside.errors.catch"),
    ("compare.assert_same", "sidebyside.compare.assert_same"),
    ("max_abs_diff", "sidebyside.compare.max_abs_diff"),
    ("seeding.seed_everything", "sidebyside.seeding.seed_everything"),
    ("devices.pick", "sidebyside.devices.pick"),
    ("initmap.torch_init_like_mxnet", "sidebyside.initmap.torch_init_like_mxnet"),
    ("recordio.RecordDataset", "sidebyside.recordio.RecordDataset"),
    ("checkpoint.read", "sidebyside.checkpoint.read"),
    ("apimap.find", "sidebyside.apimap.find"),
    ("plotting.curves", "sidebyside.plotting.curves"),
    ("launch.mxnet_ps", "sidebyside.launch.mxnet_ps"),
]
# the names the lookup found nothing for before (the cheat sheet neither)
ONCE_MISSING = ["LSTM", "GRU", "RNN", "Embedding", "NLLLoss", "detach", "narrow", "contiguous",
                "new_zeros", "torch.exp", "pow", "binary_cross_entropy", "name_scope",
                "mx.nd.load", ".params", "params_to_state_dict", "gluon_to_torch", "transfer",
                "sgd_mom_update", "Trainer(", "Dense(128, activation='relu')"]
# the names a port of a sequence model looks up, from either side, with what must come first:
# the API map's row (its key), or the pages' table row that is about the name — then (stem,
# a spelling its PyTorch cell holds) — and the map's row that must be among the hits as well
SEQUENCE_NAMES = [
    ("narrow", "narrow", "narrow"), ("slice_axis", "narrow", "narrow"),
    ("contiguous", "contiguous", "contiguous"), ("detach", "detach", "detach"),
    ("new_zeros", "new_zeros", "new_zeros"),
    ("flatten_parameters", "flatten_parameters", "flatten_parameters"),
    ("Embedding", "Embedding", "Embedding"), ("nn.Embedding", "Embedding", "Embedding"),
    ("gluon.nn.Embedding", "Embedding", "Embedding"), ("LSTM", "LSTM", "LSTM"),
    ("nn.LSTM", ("02_tensor_ops", "`nn.LSTM`"), "LSTM"), ("gluon.rnn.LSTM", "LSTM", "LSTM"),
    ("GRU", "GRU", "GRU"), ("RNN", "RNN", "RNN"), ("begin_state", "begin_state", "begin_state"),
    ("clip_global_norm", "clip_global_norm", "clip_global_norm"),
    ("gluon.utils.clip_global_norm", "clip_global_norm", "clip_global_norm"),
    ("clip_grad_norm_", "clip_global_norm", "clip_global_norm"),
    ("torch.nn.utils.clip_grad_norm_", "clip_global_norm", "clip_global_norm"),
    ("NLLLoss", "NLLLoss", "NLLLoss"), ("nll_loss", ("10_losses", "`F.nll_loss("), "NLLLoss"),
    ("F.nll_loss", ("10_losses", "`F.nll_loss("), "NLLLoss"),
    ("LSTMCell", "LSTMCell", "LSTMCell"), ("gluon.rnn.LSTMCell", "LSTMCell", "LSTMCell"),
    ("unroll", "LSTMCell", "LSTMCell"),
]
NOWHERE = ["no_such_api", "frobnicate", "nd.frobnicate", "torch.frobnicate_",
           "Trainer no_such_api"]


def test_the_name_lists_are_long_and_cover_both_sides():
    names = [n for n, _ in PYTORCH_SIDE + MXNET_SIDE + HELPERS]
    assert len(set(names)) == len(names) >= 250
    assert len(PYTORCH_SIDE) >= 100 and len(MXNET_SIDE) >= 100
    # every row of the map is found from the PyTorch side by one of these names, and from
    # the MXNet side too where that side has a name (addcdiv is arithmetic)
    rows = [r for r in apimap.ROWS if r.table != "device"]
    assert {r.key for r in rows} <= {key for _, key in PYTORCH_SIDE}
    assert {r.key for r in rows if r.mxnet_name or r.key == "contiguous"} <= {
        key for _, key in MXNET_SIDE}


@pytest.mark.parametrize("name, key", PYTORCH_SIDE + MXNET_SIDE,
                         ids=[n for n, _ in PYTORCH_SIDE + MXNET_SIDE])
def test_a_name_from_either_side_finds_its_row(name, key):
    hits = apimap.find(name)
    assert key in [h.key for h in hits if isinstance(h, apimap.Row)], [h.key for h in hits][:8]


@pytest.mark.parametrize("name, key", HELPERS, ids=[n for n, _ in HELPERS])
def test_a_helper_name_finds_the_helper_and_where_it_is_used(name, key):
    hits = apimap.find(name)
    found = [h for h in hits if isinstance(h, helpers.Helper) and h.key == key]
    assert found, [h.key for h in hits][:8]
    helper = found[0]
    assert helper.uses, f"{key}: no notebook section uses it"
    assert re.match(r"(notebook \d+|deep dive “[^”]+”)", helper.where), helper.where


@pytest.mark.parametrize("name", ONCE_MISSING)
def test_the_names_that_found_nothing_find_a_row_now(name):
    hits = apimap.find(name)
    assert hits, name
    # a name of a tensor op or layer finds an executed row first (a catalogue entry keyed by
    # MXNet's API, checked, or a row of the map); mx.nd.load is the
    # call notebook 19's summary row is about (ndfile.load_params, no MXNet needed): that row
    # comes first, the map's row is among the hits
    if name == "mx.nd.load":  # its catalogue entry, then notebook 19's row and the map's
        assert hits[0].key == "mx.nd.load" and any(isinstance(h, apimap.Row) for h in hits)
        assert any(getattr(h, "notebook", None) == 19 for h in hits)
    elif re.fullmatch(r"[\w.]+", name.lstrip(".")) and name not in (
            "params_to_state_dict", "gluon_to_torch", "transfer"):
        from sidebyside.catalogue import Entry

        assert isinstance(hits[0], apimap.Row) or (
            isinstance(hits[0], Entry) and hits[0].check is not None), (name, hits[0].key)


@pytest.mark.parametrize("name, first, key", SEQUENCE_NAMES, ids=[n for n, _, _ in SEQUENCE_NAMES])
def test_a_sequence_model_s_names_find_the_right_entry_first(name, first, key):
    hits = apimap.find(name)
    assert hits, name
    top = hits[0]
    from sidebyside.catalogue import Entry

    if isinstance(top, Entry):  # an MXNet name: its checked catalogue entry comes first
        assert top.check is not None and any(
            n.rpartition(".")[2] == name.rpartition(".")[2] for n in top.names), (name, top.key)
    elif isinstance(first, str):  # the map's row comes first
        assert isinstance(top, apimap.Row) and top.key == first, (name, top.key)
    else:  # a table row about the name (the one that teaches it), then the map's row
        stem, spelling = first
        assert isinstance(top, mappings.Mapping) and top.stem == stem, (name, top.key)
        assert spelling in top.pytorch, (name, top.pytorch)
    # of the map's rows, the row for the name comes first
    rows = [r for r in apimap.find(name, notebooks=False) if isinstance(r, apimap.Row)]
    assert rows and rows[0].key == key, (name, [r.key for r in rows][:4])


@pytest.mark.parametrize("name", NOWHERE)
def test_a_name_that_is_nowhere_finds_nothing(name):
    assert apimap.find(name) == []


def _page_sections(link: str) -> set[str]:
    path = ROOT / "book" / link
    text = path.with_suffix(".py").read_text(encoding="utf-8")
    return {mappings.section_id(t.lstrip("#").strip()) for _, t in mappings.markdown_lines(text)
            if re.match(r"#{2,3} ", t)}


def test_every_hit_says_where_it_is_taught_with_a_link_that_exists():
    seen = 0
    for name, _ in PYTORCH_SIDE[::7] + MXNET_SIDE[::7] + HELPERS + [(n, "") for n in ONCE_MISSING]:
        for h in apimap.find(name):
            if isinstance(h, helpers.Helper) and not h.uses:
                assert h.where == f"no notebook uses it: see help({h.key})" and not h.link
                continue
            if h.link == "mxnet_api.md":  # a catalogue entry no section teaches: its row there
                assert h.where.startswith("All of MXNet's API, ") and f'id="{h.anchor}"' in (
                    ROOT / "book" / h.link).read_text(encoding="utf-8"), h.key
                seen += 1
                continue
            assert re.match(r"(notebook \d+|deep dive “[^”]+”)(, §.+)?$", h.where), h.where
            assert (ROOT / "book" / h.link).is_file(), h.link
            if h.anchor:
                assert h.anchor in _page_sections(h.link), (h.key, h.anchor)
                assert h.target == f"{h.link.removesuffix('.ipynb')}.html#{h.anchor}"
            seen += 1
    assert seen > 200


def test_a_row_of_the_map_is_taught_in_notebook_2_section_8():
    r = apimap.row("acos")
    assert r.where == "notebook 2, §" + apimap.MAP_SECTION
    assert r.link == "notebooks/02_tensor_ops.ipynb"
    assert r.target == "notebooks/02_tensor_ops.html#the-whole-map-run"


# ---------------------------------------------------------------- how names are matched
def test_find_looks_up_either_side():
    def rows(name):
        return [r.key for r in apimap.find(name) if isinstance(r, apimap.Row)]

    assert rows("arccos") == ["acos"]
    assert "acos" in [r.key for r in apimap.find("torch.acos")]
    assert {"fmod"} <= {r.key for r in apimap.find("modulo")}
    # an MXNet name: its own catalogue entries first, then the map's rows that mention it
    assert apimap.find("linalg.gemm2")[0].key == "mx.nd.linalg.gemm2"
    assert rows("linalg.gemm2")[:2] == ["addbmm", "bmm"]
    assert "exponential_" in [r.key for r in apimap.find("exponential")]


@pytest.mark.parametrize("name, not_this", [
    ("metric", "geometric_"), ("cast", "expand"), ("nd.exp", "unsqueeze"),
    ("cat", "scatter_"), ("gemm", "addbmm"), ("exp", "expand"), ("max", "maximum"),
    ("gluon.nn", "LSTM")])
def test_find_matches_names_not_substrings(name, not_this):
    assert not_this not in [r.key for r in apimap.find(name)]


def test_a_leading_mx_and_punctuation_are_ignored():
    assert apimap.find("mx.nd.concat") == apimap.find("nd.concat")
    assert apimap.find("Trainer(") == apimap.find("Trainer") == apimap.find("  Trainer  ")
    assert apimap.find(".params") == apimap.find("params")
    assert apimap.find("exponential_()") == apimap.find("exponential")


def test_a_dotted_name_is_found_by_its_tail_after_the_whole_name():
    hits = apimap.find("torch.nn.functional.nll_loss")
    assert "NLLLoss" in [h.key for h in hits if isinstance(h, apimap.Row)]
    # the whole name first: the row that writes torch.exp before the rows that only say exp
    assert apimap.find("torch.exp")[0].key == "exp"
    # a namespace is never the tail that matches: gluon.nn does not find torch.nn's rows
    assert {r.key for r in apimap.find("gluon.nn", notebooks=False)
            if isinstance(r, apimap.Row)} == {
        r.key for r in apimap.ROWS if ("gluon", "nn") in lookup.names_in(r.text)} == {
        "double()", "Embedding", "flatten", "name_scope"}
    assert "LSTM" not in [h.key for h in apimap.find("gluon.nn")]


def test_several_names_must_all_be_in_one_hit():
    both = apimap.find("log softmax")
    assert both and all({("log",), ("softmax",)} <= lookup.names_in(h.text) for h in both)
    assert {h.key for h in apimap.find("Trainer step")} <= {h.key for h in apimap.find("Trainer")}


@pytest.mark.parametrize("line, names", [
    ("Dense(128, activation='relu')", [("dense",)]),
    ("x = nd.concat(a, b, dim=1)", [("nd", "concat")]),
    ("nd.zeros(shape=(2, 3), dtype='float64')", [("nd", "zeros")]),
    ("trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})",
     [("gluon", "trainer"), ("net", "collect_params")]),
    ("out = x.asnumpy().mean()", [("mean",), ("x", "asnumpy")]),
    ("from mxnet import gluon, nd", [("gluon",), ("nd",)]),
    ("class Net(gluon.HybridBlock):\n    def hybrid_forward(self, F, x): return F.relu(x)",
     [("net",), ("hybrid_forward",), ("gluon", "hybridblock"), ("f", "relu")]),
])
def test_a_pasted_line_gives_the_names_it_uses(line, names):
    found, code = apimap.query_names(line)
    assert code and sorted(found) == sorted(names)


def test_a_pasted_line_finds_the_rows_of_its_names_those_with_more_first():
    line = "trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})"
    terms, _ = apimap.query_names(line)
    hits = apimap.find(line)
    assert len(hits) > 3

    def held(h):
        names = lookup.names_in(h.text)
        return sum(t in names or any(s in names for s in lookup._tails(t)) for t in terms)

    counts = [held(h) for h in hits]
    assert counts == sorted(counts, reverse=True) and counts[0] == len(terms) > counts[-1]
    # the arguments are not names: no hit is there for 'sgd' or 'learning_rate' alone
    assert apimap.find("Dense(128, activation='relu')") == apimap.find("Dense")
    assert apimap.find("x = nd.concat(a, b, dim=1)")[0].key == "mx.nd.concat"
    assert apimap.find("out, state = lstm(x)")[0].key in ("LSTM", "mx.gluon.rnn.LSTM")


def test_find_refuses_what_is_not_a_name():
    for bad in ("", "   ", None, 3, ["Dense"]):
        with pytest.raises(ValueError, match="non-empty name"):
            apimap.find(bad)
    with pytest.raises(ValueError, match="found no name in '\\(\\)'"):
        apimap.find("()")


# ------------------------------------------------------------------------- the sources
@pytest.mark.parametrize("term, where", [
    ("Dense", {"03_mnist_mlp §Summary: layers", "06_blocks §Summary: layer sizes", "double()"}),
    ("Trainer", {"08_optimizers_trainer §Summary: optimizer", "03_mnist_mlp §Summary: optimiser"}),
    ("SoftmaxCrossEntropyLoss", {"03_mnist_mlp §Summary: loss"}),
    ("Xavier", {"06_blocks §Summary: initialise a network"}),
    ("last_batch", {"04_data_loading §Summary: short last batch"}),
    ("save_parameters", {"13_serialization §Summary: save weights"}),
    ("concat", {"cat", "02_tensor_ops §Summary: `torch.cat(ts, dim=0)`"}),
    ("sigmoid", {"sigmoid"}),
])
def test_find_searches_the_map_and_the_notebooks_tables(term, where):
    hits = apimap.find(term)
    assert where <= {h.key for h in hits}, [h.key for h in hits]
    # either side, any case
    assert [h.key for h in apimap.find(term.lower())] == [h.key for h in hits]
    from sidebyside.catalogue import Entry

    assert apimap.find(term, notebooks=False) == [h for h in hits
                                                  if isinstance(h, (apimap.Row, Entry))]


def test_find_searches_notes_both_sides_and_porting_tasks():
    # a note of the map: the cat row says nd.concat takes its arrays unpacked
    assert "cat" in [h.key for h in apimap.find("unpacked")]
    # the MXNet side of a table whose MXNet column comes first (notebook 16)
    assert any(h.key.startswith("16_capstone_mxnet_to_pytorch §Summary") and h.mxnet_first
               for h in apimap.find("mx.init.Xavier"))
    # a porting task of notebook 14's table, whose columns are directions
    assert any(isinstance(h, mappings.HowTo) and h.stem == "14_converting_models"
               for h in apimap.find("state_dict_to_params"))


def test_every_error_of_the_index_is_found_by_its_type_and_the_names_of_its_message():
    entries = errorindex.read_all()
    assert len(entries) >= 40
    for e in entries:
        names = [n for n in re.findall(r"[A-Za-z_]\w*(?:\.\w+)*", e.message) if len(n) > 3][:3]
        hits = apimap.find(" ".join([e.ename, *names]))
        found = {(h.page, h.ename, h.message) for h in hits if isinstance(h, errorindex.Entry)}
        assert (e.page, e.ename, e.message) in found, (e.key, names)


def test_the_tensor_errors_of_notebook_2_are_found_by_a_reader_s_words():
    def errors_found(query):
        return [h for h in apimap.find(query) if isinstance(h, errorindex.Entry)
                and h.stem == "02_tensor_ops"]
    assert errors_found("view size is not compatible")
    assert errors_found("expected m1 and m2 to have the same dtype")
    assert errors_found("Incompatible attr float64")
    assert errors_found("detach numpy requires grad")


# ------------------------------------------------------------------ section ids
def test_section_ids_are_the_ones_the_book_gives():
    """Every "##"/"###" heading of every page, parsed by MyST as the book does: its section id
    is mappings.section_id of the heading."""
    from docutils import nodes
    from docutils.core import publish_doctree
    from myst_parser.parsers.docutils_ import Parser

    headings = []
    for page in mappings.pages():
        for _, text in mappings.markdown_lines(page.read_text(encoding="utf-8")):
            if re.match(r"#{2,3} \S", text):
                headings.append(text.lstrip("#").strip())
    assert len(headings) > 150
    for heading in headings:
        doc = publish_doctree(f"# Title\n\n## {heading}\n", parser=Parser(),
                              settings_overrides={"report_level": 5,
                                                  "doctitle_xform": False})
        ids = [s["ids"][0] for s in doc.findall(nodes.section) if s["ids"]]
        assert mappings.section_id(heading) == ids[-1], heading
