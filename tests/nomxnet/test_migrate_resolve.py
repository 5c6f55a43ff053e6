"""sidebyside.migrate.resolve: the names a script's constructs resolve to, read from its AST.

Each case is a script spelled as real legacy code spells it, and the (line, canonical name,
how) the analysis must give — so a resolver that greps, or that ignores aliases, scopes or
``hybrid_forward``'s ``F``, fails here. Runs in both environments (standard library only).
"""
import textwrap

import pytest

from sidebyside.migrate import names, resolve


def sites(code, direction="mxnet", kinds=("call", "method", "attribute", "class", "def")):
    a = resolve.analyse(textwrap.dedent(code), "t.py", direction)
    return [(s.line, s.name, s.how) for s in a.sites if s.kind in kinds]


def test_aliases_of_every_import_form():
    got = sites("""\
        import mxnet as mx
        from mxnet import gluon, nd, autograd as ag
        from mxnet.gluon import nn
        import mxnet.ndarray as ndarray
        from mxnet.gluon.model_zoo import vision as models
        a = mx.nd.concat(x, y)
        b = nd.concat(x, y)
        c = ndarray.concat(x, y)
        with ag.record():
            pass
        d = nn.Dense(10)
        e = gluon.nn.Dense(10)
        f = models.get_model('resnet18_v1')
        g = mxnet_free_function(x)
    """)
    assert got == [(6, "mx.nd.concat", "import"), (7, "mx.nd.concat", "import"),
                   (8, "mx.nd.concat", "import"), (9, "mx.autograd.record", "import"),
                   (11, "mx.gluon.nn.Dense", "import"), (12, "mx.gluon.nn.Dense", "import"),
                   (13, "mx.gluon.model_zoo.vision.get_model", "import")]


def test_numpy_interface_and_2x_names_are_their_own_names():
    got = sites("""\
        from mxnet import np, npx
        import mxnet as mx
        npx.set_np()
        a = np.concatenate([x, y])
        m = mx.gluon.metric.Accuracy()
        b = npx.relu(a)
    """)
    assert [n for _, n, _ in got] == ["mx.npx.set_np", "mx.np.concatenate",
                                     "mx.gluon.metric.Accuracy", "mx.npx.relu"]


def test_F_in_hybrid_forward_is_guessed_as_nd_and_only_there():
    a = resolve.analyse(textwrap.dedent("""\
        from mxnet import gluon
        class Net(gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                return F.concat(x, F.relu(x))
        def helper(F, x):
            return F.concat(x, x)
    """), "t.py")
    got = [(s.line, s.kind, s.name, s.how) for s in a.sites if s.kind != "import"]
    assert got == [(2, "class", "mx.gluon.HybridBlock", "import"),
                   (3, "def", "mx.gluon.HybridBlock.hybrid_forward", "inferred"),
                   (4, "call", "mx.nd.concat", "guessed"), (4, "call", "mx.nd.relu", "guessed")]
    concat = [s for s in a.sites if s.name == "mx.nd.concat"][0]
    assert "hybrid_forward" in concat.reason and "mx.sym" in concat.reason


def test_methods_of_assigned_variables_are_inferred():
    got = sites("""\
        import mxnet as mx
        from mxnet import gluon
        mod = mx.mod.Module(sym, context=mx.cpu())
        mod.fit(train_iter, num_epoch=2)
        net = gluon.nn.Dense(10)
        trainer = gluon.Trainer(net.collect_params(), 'sgd')
        trainer.step(32)
        it = mx.io.NDArrayIter(x, y, 10)
        for batch in it:
            batch.data[0]
        mod = something_else()
        mod.fit(train_iter)
    """)
    assert (4, "mx.mod.Module.fit", "inferred") in got
    assert (6, "mx.gluon.Block.collect_params", "inferred") in got
    assert (7, "mx.gluon.Trainer.step", "inferred") in got
    assert (10, "mx.io.DataBatch.data", "inferred") in got
    # a rebound variable keeps no stale type: only its name still suggests one, a guess
    assert [s for s in got if s[0] == 12] == [(12, "mx.mod.Module.fit", "guessed")]


def test_methods_on_unknown_receivers_are_guessed_only_when_mxnet_only():
    a = resolve.analyse(textwrap.dedent("""\
        def f(x, net, metric):
            y = x.asnumpy()
            net.collect_params()
            metric.update(a, b)
            x.sum()
    """), "t.py")
    got = {s.name: s for s in a.sites}
    assert got["mx.nd.NDArray.asnumpy"].how == "guessed"
    assert "not known" in got["mx.nd.NDArray.asnumpy"].reason
    assert got["mx.gluon.Block.collect_params"].how == "guessed"
    # update: every library has it; only a receiver named like a metric makes it a guess
    assert "named like a mx.metric.EvalMetric" in got["mx.metric.EvalMetric.update"].reason
    # sum: no guess at all
    assert set(got) == {"mx.nd.NDArray.asnumpy", "mx.gluon.Block.collect_params",
                        "mx.metric.EvalMetric.update"}


def test_a_guessed_method_name_needs_a_call():
    """An option named like a Gluon method (``args.hybridize``) is no use of MXNet when it
    is assigned or read without a call; the call is still guessed, and so are properties
    (``trainer.learning_rate``, ``batch.data``) read without one."""
    got = sites("""\
        import mxnet as mx
        args.hybridize = True
        if args.hybridize and opts.initialize:
            net.hybridize()
        rate = trainer.learning_rate
        first = batch.data[0]
    """)
    assert got == [(4, "mx.gluon.Block.hybridize", "guessed"),
                   (5, "mx.gluon.Trainer.learning_rate", "guessed"),
                   (6, "mx.io.DataBatch.data", "guessed")]


def test_a_functions_parameters_are_typed_by_its_calls_in_the_file():
    """train(net, …) called only with a block: net is one inside train; a function called
    with a block and with a number, or passed on as a value, keeps its parameters unknown."""
    got = sites("""\
        from mxnet import gluon
        def get_net():
            net = gluon.nn.Sequential()
            return net
        def train(net, epochs=2):
            net.initialize(force_reinit=True)
        def mixed(net):
            net.hybridize()
        def passed(net):
            net.save_parameters('p')
        def main():
            net = get_net()
            train(net, epochs=3)
            mixed(net)
            mixed(5)
            passed(net)
            run(passed)
        main()
    """, kinds=("method",))
    assert got == [(6, "mx.gluon.Block.initialize", "inferred"),
                   (8, "mx.gluon.Block.hybridize", "guessed"),
                   (10, "mx.gluon.Block.save_parameters", "guessed")]


def test_a_name_hint_needs_a_method_of_that_class():
    got = sites("""\
        def f(model_name, train_iter, my_metric, optimizer):
            model_name.startswith('resnet')
            train_iter.reset()
            my_metric.update(a, b)
            metrics.append(x)
            optimizer.step()
    """)
    assert got == [(3, "mx.io.DataIter.reset", "guessed"),
                   (4, "mx.metric.EvalMetric.update", "guessed")]


def test_a_method_on_a_call_result_takes_the_calls_type():
    a = resolve.analyse("import torch\ny = torch.zeros(3).eq(1).sum()\n", "t.py", "torch")
    got = [(s.name, s.how) for s in a.sites if s.kind != "import"]
    assert got == [("torch.Tensor.sum", "inferred"), ("torch.Tensor.eq", "inferred"),
                   ("torch.zeros", "import")]


def test_self_in_a_block_subclass_and_its_children():
    got = sites("""\
        from mxnet.gluon import nn
        class Base(nn.HybridBlock):
            pass
        class Net(Base):
            def __init__(self):
                super().__init__()
                self.fc = nn.Dense(10)
            def forward(self, x):
                return self.fc(x)
        net = Net()
        net.hybridize()
        class Plain:
            def go(self):
                self.hybridize()
    """)
    assert (2, "mx.gluon.nn.HybridBlock", "import") in got
    assert (11, "mx.gluon.Block.hybridize", "inferred") in got
    assert [g for g in got if g[0] == 14] == [(14, "mx.gluon.Block.hybridize", "guessed")]


def test_a_local_name_shadowing_nothing_and_unimported_nd_are_not_mxnet():
    assert sites("""\
        import numpy as nd
        nd.concatenate([a, b])
        concat(a, b)
        gluon.Trainer(p, 'sgd')
    """) == []


def test_torch_direction():
    got = sites("""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.optim.lr_scheduler import StepLR
        class Net(nn.Module):
            def forward(self, x):
                return F.relu(self.fc(x))
        model = Net()
        optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
        scheduler = StepLR(optimizer, step_size=1)
        loss = F.nll_loss(out, y)
        loss.item()
    """, "torch")
    assert (5, "torch.nn.Module", "import") in got
    assert (7, "torch.nn.functional.relu", "import") in got
    assert (9, "torch.optim.Adadelta", "import") in got
    assert (9, "torch.nn.Module.parameters", "inferred") in got
    assert (10, "torch.optim.lr_scheduler.StepLR", "import") in got
    assert (12, "torch.Tensor.item", "inferred") in got


def test_site_fields_point_at_the_code():
    a = resolve.analyse("from mxnet import nd\n\ny = nd.concat(\n    a, b)\n", "f.py")
    (site,) = [s for s in a.sites if s.kind == "call"]
    assert (site.line, site.col, site.end_line, site.text) == (3, 4, 4, "nd.concat(")
    assert site.where == "f.py:3" and site.framework == names.MXNET
    assert a.qualname(site.node) == "mx.nd.concat"


def test_imports_are_sites_with_canonical_names():
    a = resolve.analyse("import mxnet.ndarray as F\nfrom mxnet.symbol import var\n", "t.py")
    assert [(s.kind, s.name) for s in a.sites] == [("import", "mx.nd"), ("import",
                                                                       "mx.sym.var")]


def test_syntax_error_is_raised_for_the_caller():
    with pytest.raises(SyntaxError):
        resolve.analyse("def f(:\n", "bad.py")


def test_a_type_inferred_in_one_function_does_not_leak_into_another():
    got = sites("""\
        import mxnet as mx
        def a():
            x = mx.nd.ones((2, 3))
            return x.asnumpy()
        def b(x):
            return x.reshape((3, 2))
        x = mx.nd.zeros(3)
        def c():
            return x.reshape((3, 1))
    """)
    assert (4, "mx.nd.NDArray.asnumpy", "inferred") in got
    assert not [g for g in got if g[0] == 6], "b's parameter x is not a's NDArray"
    assert (9, "mx.nd.NDArray.reshape", "inferred") in got  # the module-level x, a global


def test_what_leaves_mxnet_is_no_ndarray_any_more():
    # asnumpy() gives numpy: its astype and reshape are numpy's, not NDArray methods
    got = sites("""\
        import mxnet as mx
        y = mx.nd.ones((2, 3)).asnumpy().astype('int32')
        lab = mx.nd.ones((2, 3)).asnumpy()
        z = lab.reshape((3, 2))
        k = mx.nd.ones(3).shape.index(3)
        n = mx.nd.ones((2, 3)).reshape((3, 2)).sum()
    """)
    names_ = [n for _, n, _ in got]
    assert "mx.nd.NDArray.astype" not in names_ and "mx.nd.NDArray.reshape" in names_
    assert [g for g in got if g[0] == 4] == []
    assert (6, "mx.nd.NDArray.sum", "inferred") in got


def test_F_npx_in_hybrid_forward_is_the_numpy_extension():
    got = sites("""\
        from mxnet import gluon
        class Net(gluon.HybridBlock):
            def hybrid_forward(self, F, x):
                return F.npx.activation(F.np.abs(x), act_type='relu')
    """)
    assert (4, "mx.npx.activation", "guessed") in got and (4, "mx.np.abs", "guessed") in got


def test_a_call_of_a_module_function_takes_the_class_it_returns():
    got = sites("""\
        from mxnet import gluon
        from mxnet.gluon import nn

        def get_net():
            net = nn.Sequential()
            return net

        def either(flag):
            if flag:
                return nn.Sequential()
            return gluon.Trainer(params, 'sgd')

        def nothing():
            pass

        a = get_net()
        a.initialize()
        b = either(True)
        b.initialize()
        c = nothing()
        c.initialize()

        def get_net():
            return 3

        d = get_net()
        d.initialize()
        """, kinds=("method",))
    assert got == [(17, "mx.gluon.Block.initialize", "inferred"),
                   (19, "mx.gluon.Block.initialize", "guessed"),
                   (21, "mx.gluon.Block.initialize", "guessed"),
                   (27, "mx.gluon.Block.initialize", "guessed")]
