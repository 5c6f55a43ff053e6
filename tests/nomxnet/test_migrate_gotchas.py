"""The gotcha detectors of sidebyside.migrate: each fires where it should, on the right line
and with the value it computes, and stays quiet on the look-alike a naive detector flags.

Standard library, pytest and the package only (runs without MXNet).
"""

import re
import textwrap
from pathlib import Path

import pytest

from sidebyside import mappings
from sidebyside.migrate import gotchas, resolve

ROOT = Path(__file__).resolve().parents[2]

MX = "import mxnet as mx\nfrom mxnet import gluon, nd, autograd\nfrom mxnet.gluon import nn\n"
TORCH = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
         "from torch import optim\nimport torchvision\n")

# detector -> (positives, negatives). A positive is (source, [message fragments]): the line
# marked "# <-" must hold exactly one finding of that detector, containing every fragment;
# a negative is a source in which the detector finds nothing. Sources are MXNet scripts for
# direction "torch" detectors and PyTorch scripts for "gluon" ones (the header is added).
CASES = {
    "trainer-step-mean": (
        [("""
          def train(net, trainer, L, x, y, batch_size):
              with autograd.record():
                  loss = L(net(x), y).mean()
              loss.backward()
              trainer.step(batch_size)  # <-
          """, ["trainer.step(batch_size) divides by batch_size again", "lr/batch_size"]),
         ("""
          trainer = gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
          with autograd.record():
              out = net(x)
              L = loss_fn(out, y)
          nd.mean(L).backward()
          trainer.step(64)  # <-
          """, ["divides by 64 again"]),
         ("""
          loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
          def step(net, opt_trainer, x, y):
              with autograd.record():
                  loss = loss_fn(net(x), y)
              loss.backward()
              opt_trainer.step(1)  # <-
          """, ["per-sample losses", "reduction='sum'"])],
        ["""
         def train(net, trainer, L, x, y):
             with autograd.record():
                 loss = L(net(x), y).mean()
             loss.backward()
             trainer.step(1)
         """,
         """
         loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
         def train(net, trainer, x, y, n):
             with autograd.record():
                 loss = loss_fn(net(x), y)
             loss.backward()
             trainer.step(n)
         """,
         """
         def other(trainer, loss):
             trainer.step(16)
         def train(loss):
             loss.mean().backward()
         """,
         """
         def train(net, trainer, loss):
             loss.mean(axis=1).backward()
             trainer.step(16)
         """,
         """
         first = (net(x) - y).mean()
         first.backward()
         with autograd.record():
             per_sample = ((net(x) - y) ** 2).mean(axis=1)
         per_sample.backward()
         trainer.step(8)
         """]),
    "dense-flatten": (
        [("net = nn.Dense(10)  # <-", ["flatten=True (the default)", "torch.flatten(x, 1)"]),
         ("from mxnet.gluon.nn import Dense as D\nlayer = D(5, activation='relu')  # <-",
          ["(N, T·C)"]),
         ("net = gluon.nn.Dense(10, flatten=flag)  # <-", ["flatten=flag"])],
        ["net = nn.Dense(10, flatten=False)",
         "def Dense(n):\n    return n\nlayer = Dense(3)",
         "net = nn.Dense(10, 'relu', True, False)"]),
    "concat-default-dim": (
        [("y = nd.concat(a, b)  # <-", ["dim=1 by default"]),
         ("from mxnet import nd as ndarray\ny = ndarray.concat(a, b, c)  # <-", ["dim=1"]),
         ("""
          class Net(gluon.HybridBlock):
              def hybrid_forward(self, F, x):
                  return F.concat(x, x)  # <-
          """, ["dim=1 by default"]),
         ("s = mx.sym.Concat(a, b, name='c')  # <-", ["Concat"])],
        ["y = nd.concat(a, b, dim=0)",
         "y = mx.sym.concat(a, b, dim=1)",
         "def concat(*xs):\n    return xs\ny = concat(a, b)",
         "y = mx.np.concatenate([a, b])"]),
    "batchnorm-momentum": (
        [("bn = nn.BatchNorm()  # <-", ["momentum=0.9 (the default)", "momentum=0.1 in torch",
                                         "unbiased"]),
         ("bn = gluon.nn.BatchNorm(momentum=0.99)  # <-", ["momentum=0.01 in torch"]),
         ("bn = nn.BatchNorm(1, 0.8)  # <-", ["momentum=0.2"]),
         ("bn = nn.BatchNorm(momentum=args.m)  # <-", ["1 - (args.m)"])],
        ["bn = mx.sym.BatchNorm(data, fix_gamma=False, eps=1e-5)",
         "class BatchNorm:\n    pass\nbn = BatchNorm()"]),
    "symbol-batchnorm-defaults": (
        [("bn = mx.sym.BatchNorm(data, name='bn1')  # <-",
          ["fix_gamma=True (the default)", "eps=0.0010000000474974513"]),
         ("bn = mx.sym.BatchNorm(data, fix_gamma=False)  # <-", ["eps=1e-3"]),
         ("""
          class Net(gluon.HybridBlock):
              def hybrid_forward(self, F, x):
                  return F.BatchNorm(x, g, b, m, v, eps=1e-5)  # <-
          """, ["fix_gamma=True"])],
        ["bn = mx.sym.BatchNorm(data, fix_gamma=False, eps=1e-3)",
         "bn = nn.BatchNorm()"]),
    "float64-clip-global-norm": (
        [("gluon.utils.clip_global_norm(grads, 1.0)  # <-",
          ["1e-8", "1e-6", 'sidebyside.clipping.clip_global_norm(..., rule="mxnet")']),
         ("from mxnet.gluon.utils import clip_global_norm as clip\nclip(grads, 5)  # <-",
          ["rule=\"mxnet\""])],
        ["def clip_global_norm(g, m):\n    return g\nclip_global_norm(grads, 1.0)",
         "import torch\ntorch.nn.utils.clip_grad_norm_(params, 1.0)"]),
    "float64-optimizer": (
        [("""
          net.cast('float64')
          trainer = gluon.Trainer(net.collect_params(), 'rmsprop')  # <-
          """, ["'rmsprop' with float64 (line 4", "MXNetError"]),
         ("""
          x = nd.array(data, dtype=np.float64)
          trainer = gluon.Trainer(params, optimizer='adadelta', optimizer_params={})  # <-
          """, ["'adadelta'", "float32"]),
         ("""
          net.initialize(dtype='float64')
          opt = mx.optimizer.AdaGrad(learning_rate=0.1)  # <-
          """, ["'adagrad'"])],
        ["net.cast('float64')\ntrainer = gluon.Trainer(net.collect_params(), 'sgd')",
         "net.cast('float16')\ntrainer = gluon.Trainer(net.collect_params(), 'rmsprop')",
         "x = nd.array(data)\ntrainer = gluon.Trainer(net.collect_params(), 'adagrad')"]),
    "adadelta-learning-rate": (
        [("trainer = gluon.Trainer(p, 'adadelta', {'learning_rate': 0.5})  # <-",
          ["learning_rate=0.5 is ignored", "lr=1.0, eps=1e-5"]),
         ("opt = mx.optimizer.create('AdaDelta', learning_rate=lr)  # <-",
          ["learning_rate=lr"]),
         ("mod = mx.mod.Module(sym)\nmod.fit(it, optimizer='adadelta',  # <-\n"
          "        optimizer_params=(('learning_rate', 1.0),))", ["ignored"])],
        ["trainer = gluon.Trainer(p, 'adadelta', {'rho': 0.95})",
         "trainer = gluon.Trainer(p, 'torchadadelta', {'learning_rate': 0.5})",
         "trainer = gluon.Trainer(p, 'adam', {'learning_rate': 0.5})"]),
    "record-train-mode-false-pooling": (
        [("""
          net = nn.HybridSequential()
          net.add(nn.Conv2D(8, 3), nn.MaxPool2D())
          with autograd.record(train_mode=False):  # <-
              out = net(x)
          """, ["max pooling (first at line 5)", "wrong"]),
         ("""
          net = mx.gluon.model_zoo.vision.resnet18_v1()
          with autograd.record(False):  # <-
              out = net(x)
          """, ["model-zoo"]),
         ("""
          y = nd.Pooling(x, kernel=(2, 2), pool_type='max')
          with mx.autograd.record(train_mode=False):  # <-
              pass
          """, ["max pooling"])],
        ["""
         net.add(nn.MaxPool2D())
         with autograd.record():
             out = net(x)
         """,
         """
         net.add(nn.AvgPool2D(), nn.Dense(3))
         with autograd.record(train_mode=False):
             out = net(x)
         """,
         """
         y = nd.Pooling(x, kernel=(2, 2), pool_type='avg')
         with autograd.record(train_mode=False):
             out = net(x)
         """]),
    "xavier-magnitude": (
        [("net.initialize(mx.init.Xavier(magnitude=2.24))  # <-",
          ["xavier_uniform_(w, gain=0.8641)", "√(2.24/3)", "zeros_"]),
         ("init = mx.init.Xavier()  # <-", ["gain=1"]),
         ("init = mx.init.Xavier('gaussian', 'avg', 2)  # <-", ["xavier_normal_", "gain=1.414"]),
         ("from mxnet import initializer\ninit = initializer.Xavier('uniform', 'in', 1)  # <-",
          ["kaiming_uniform_", "a=2.236", "PyTorch's own default"]),
         ("init = mx.init.Xavier(rnd_type='uniform', factor_type='in', magnitude=6)  # <-",
          ["a=0,"]),
         ("init = mx.init.Xavier(factor_type='out', rnd_type='gaussian', magnitude=8)  # <-",
          ["normal_(w, 0, s) with s = √(8/fan_out)"]),
         ("init = mx.init.Xavier(magnitude=m)  # <-", ["not literal"])],
        ["init = mx.init.MSRAPrelu()",
         "import torch\ntorch.nn.init.xavier_uniform_(w, gain=2.24)"]),
    "last-batch-rollover": (
        [("dl = gluon.data.DataLoader(ds, 4, last_batch='rollover')  # <-",
          ["no such mode", "next epoch"]),
         ("dl = gluon.data.DataLoader(ds, batch_size=4, last_batch='discard')  # <-",
          ["drop_last=True"])],
        ["dl = gluon.data.DataLoader(ds, 4, last_batch='keep')",
         "dl = gluon.data.DataLoader(ds, 4, shuffle=True)",
         "import torch\ndl = torch.utils.data.DataLoader(ds, 4, drop_last=True)"]),
    "ndarrayiter-last-batch": (
        [("it = mx.io.NDArrayIter(X, y, 4)  # <-", ["'pad' (the default)", "first samples"]),
         ("it = mx.io.NDArrayIter(X, y, 4, True, 'roll_over')  # <-", ["next epoch"]),
         ("it = mx.io.NDArrayIter(X, y, batch_size=4, last_batch_handle='discard')  # <-",
          ["drop_last=True"])],
        ["it = mx.io.MNISTIter(image='x', label='y')",
         "class NDArrayIter:\n    pass\nit = NDArrayIter()"]),
    "softmax-ce-options": (
        [("L = gluon.loss.SoftmaxCrossEntropyLoss()  # <-",
          ["reduction='none'", "Long"]),
         ("L = gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)  # <-",
          ["F.nll_loss(x, y, reduction='none')"]),
         ("L = gluon.loss.SoftmaxCELoss(sparse_label=False)  # <-", ["class probabilities"]),
         ("L = gluon.loss.SoftmaxCrossEntropyLoss(axis=1)  # <-", ["axis=1", "dim 1"])],
        ["L = gluon.loss.L2Loss()",
         "import torch\nL = torch.nn.CrossEntropyLoss()"]),
    "mnistiter-scale": (
        [("it = mx.io.MNISTIter(image='t10k', label='l', batch_size=128)  # <-",
          ["uint8/256", "drop_last=True", "drawn once (seed=0)"]),
         ("it = mx.io.MNISTIter(image='t10k', label='l', shuffle=False)  # <-", ["256"])],
        ["it = mx.io.NDArrayIter(X, y, 4, last_batch_handle='discard')",
         "import torchvision\nds = torchvision.datasets.MNIST('.', download=False)"]),
    "transform-not-first": (
        [("ds = gluon.data.vision.MNIST(train=True, transform=scale)  # <-",
          ["transform=scale is called with (data, label)", "target_transform"]),
         ("""
          ds = gluon.data.vision.FashionMNIST(train=False)
          ds = ds.transform(fn)  # <-
          """, [".transform(fn) calls it as fn(data, label)"]),
         ("""
          from mxnet.gluon.data import ArrayDataset
          ds = ArrayDataset(X, y).transform(aug, lazy=False)  # <-
          """, ["fn(data, label)"])],
        ["ds = gluon.data.vision.MNIST(train=True).transform_first(fn)",
         "ds = gluon.data.vision.MNIST(train=True, transform=None)",
         "t = vision.transforms.Compose([]);\nx = t.transform(img)",
         "import torchvision\nds = torchvision.datasets.MNIST('.', transform=fn)"]),
    "nag-aliasing": (
        [("trainer = gluon.Trainer(p, 'nag', {'learning_rate': 0.1, 'momentum': 0.9})  # <-",
          ["nesterov=True", "to rounding"]),
         ("trainer = gluon.Trainer(p, 'nag', {'momentum': 0.9, 'wd': 1e-4})  # <-",
          ["wd=1e-4", "second step"]),
         ("opt = mx.optimizer.NAG(momentum=0.9, wd=args.wd)  # <-", ["wd=args.wd"])],
        ["trainer = gluon.Trainer(p, 'sgd', {'momentum': 0.9, 'wd': 1e-4})",
         "trainer = gluon.Trainer(p, optimizer, {'momentum': 0.9})"]),
    "sgd-default-lr": (
        [("trainer = gluon.Trainer(net.collect_params(), 'sgd')  # <-", ["0.01", "1e-3"]),
         ("trainer = gluon.Trainer(p, 'SGD', {'momentum': 0.9})  # <-", ["lr=0.01"]),
         ("opt = mx.optimizer.SGD(momentum=0.9)  # <-", ["0.01"])],
        ["trainer = gluon.Trainer(p, 'sgd', {'learning_rate': 0.1})",
         "trainer = gluon.Trainer(p, 'sgd', params)",
         "trainer = gluon.Trainer(p, 'adam')"]),
    "pooling-full-convention": (
        [("y = nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pooling_convention='full')  # <-",
          ["ceil_mode=True", "shapes agree"]),
         ("y = mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pad=(1, 1),  # <-\n"
          "                   pooling_convention='full')", ["pad=(1, 1)", "padding"])],
        ["y = nd.Pooling(x, kernel=(2, 2), stride=(2, 2), pooling_convention='valid')",
         "y = f(x, pooling_convention='full')"]),
    "pooling-stride-default": (
        [("y = nd.Pooling(x, kernel=(2, 2), pool_type='max')  # <-", ["stride=1"]),
         ("""
          class Net(gluon.HybridBlock):
              def hybrid_forward(self, F, x):
                  return F.Pooling(x, kernel=(3, 3))  # <-
          """, ["slides by 1"])],
        ["y = nd.Pooling(x, kernel=(2, 2), stride=(2, 2))",
         "y = nd.Pooling(x, kernel=(1, 1), global_pool=True)",
         "pool = nn.MaxPool2D(2)"]),
    "kvstore-sums": (
        [("kv = mx.kv.create('dist_sync')  # <-", ["'dist_sync' sums", "DDP averages"]),
         ("trainer = gluon.Trainer(p, 'sgd', {}, kvstore='dist_device_sync')  # <-",
          ["dist_device_sync"]),
         ("trainer = gluon.Trainer(p, 'sgd', {}, kvstore=opt.kvstore)  # <-",
          ["kvstore=opt.kvstore: if it is"])],
        ["kv = mx.kv.create('device')",
         "trainer = gluon.Trainer(p, 'sgd', {}, kvstore='local')"]),
    "argmax-float": (
        [("pred = nd.argmax(out, axis=1)  # <-", ["float32 indices", "int64"]),
         ("from mxnet import nd as ndarray\np = ndarray.topk(out, k=3)  # <-", ["topk"]),
         ("""
          class Net(gluon.HybridBlock):
              def hybrid_forward(self, F, x):
                  return F.argmax(x, axis=-1)  # <-
          """, ["argmax"])],
        ["pred = mx.np.argmax(out, axis=1)",
         "p = nd.topk(out, k=3, dtype='int64')",
         "import numpy as np\npred = np.argmax(out, axis=1)"]),
    "attach-grad-write": (
        [("""
          w = nd.ones((2,))
          w.attach_grad()  # <-
          """, ["overwrites .grad", "torch adds to it"]),
         ("""
          def init(params):
              for p in params:
                  p.attach_grad(grad_req='write')  # <-
          """, ["None before the first"])],
        ["w = nd.ones((2,))\nw.attach_grad(grad_req='add')",
         "w = nd.ones((2,))\nw.attach_grad('null')",
         "class P:\n    def attach(self):\n        pass\nP().attach()"]),
    "dropout-predict-scope": (
        [("net.add(nn.Dense(64), nn.Dropout(0.5))  # <-", ["Dropout", "model.eval()"]),
         ("bn = gluon.nn.BatchNorm(momentum=0.9)  # <-", ["BatchNorm"]),
         ("""
          class Net(gluon.HybridBlock):
              def hybrid_forward(self, F, x):
                  return F.Dropout(x, p=0.2)  # <-
          """, ["Dropout"])],
        ["y = nd.Dropout(x, p=0.5, mode='always')",
         "class Dropout:\n    pass\nd = Dropout()",
         "net.add(nn.Dense(64), nn.Activation('relu'))"]),
    "module-fit-defaults": (
        [("""
          mod = mx.mod.Module(sym)
          mod.fit(train_iter, num_epoch=args.epochs)  # <-
          """, ["optimizer='sgd'", "lr=0.01", "Uniform(0.01)"]),
         ("""
          mod = mx.mod.Module(sym)
          mod.fit(it, optimizer='sgd', initializer=init,  # <-
                  optimizer_params={'learning_rate': 0.1, 'wd': 1e-4})
          """, ["wd=1e-4 decays only", "*_weight/*_gamma"])],
        ["""
         mod = mx.mod.Module(sym)
         mod.fit(it, optimizer='sgd', optimizer_params={'learning_rate': 0.1},
                 initializer=mx.init.Xavier(), num_epoch=2)
         """,
         """
         mod = mx.mod.Module(sym)
         mod.bind(data_shapes=it.provide_data)
         mod.init_params(init)
         mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 0.1})
         mod.fit(it, num_epoch=2)
         """,
         "model.fit(X, y)"]),
    "rnn-relu-default": (
        [("layer = gluon.rnn.RNN(32)  # <-", ["activation='relu' (the default)",
                                                "nonlinearity='relu'"])],
        ["layer = gluon.rnn.RNN(32, activation='tanh')",
         "layer = gluon.rnn.LSTM(32)"]),
    "softmax-output-loss": (
        [("out = mx.sym.SoftmaxOutput(fc, name='softmax')  # <-",
          ["probabilities", "F.cross_entropy"])],
        ["out = mx.sym.softmax(fc)",
         "out = nd.softmax(x)"]),
    # -- PyTorch scripts ------------------------------------------------------------------
    "optimizer-step-batch-size": (
        [("""
          def train(model, optimizer, data, target):
              optimizer.zero_grad()
              loss = F.nll_loss(model(data), target)
              loss.backward()
              optimizer.step()  # <-
          """, ["batch mean", "trainer.step(batch_size)"]),
         ("""
          criterion = nn.CrossEntropyLoss(reduction='sum')
          opt = optim.SGD(model.parameters(), lr=0.1)
          criterion(model(x), y).backward()
          opt.step()  # <-
          """, ["batch sum", "trainer.step(1)"]),
         ("""
          def train(model, optimizer, loss):
              loss.backward()
              optimizer.step()  # <-
          """, ["not known"])],
        ["""
         def train(model, scheduler, optimizer):
             scheduler.step()
         """,
         """
         def train(lr_scheduler, loss):
             loss.backward()
             lr_scheduler.step()
         """]),
    "torch-default-init": (
        [("fc = nn.Linear(784, 256)  # <-", ["Uniform(0.03571)", "Xavier('uniform', 'in'"]),
         ("conv = nn.Conv2d(1, 32, 3, 1)  # <-", ["Uniform(0.3333)"]),
         ("rnn = nn.LSTM(256, 32)  # <-", ["Uniform(0.1768)", "h2h_weight"]),
         ("emb = torch.nn.Embedding(1000, 16)  # <-", ["Normal(1)"])],
        ["act = nn.ReLU()",
         "class Linear:\n    pass\nfc = Linear()"]),
    "eval-mode": (
        [("model.eval()  # <-", ["outside autograd.record()"]),
         ("with torch.no_grad():  # <-\n    out = model(x)", ["torch.no_grad()", "drop it"]),
         ("model.train()  # <-", ["inside autograd.record()"])],
        ["out = eval('1 + 1')",
         "model.train(data, labels, epochs)"]),
    "torchvision-transform": (
        [("ds = torchvision.datasets.MNIST('.', train=True, transform=tf)  # <-",
          ["transform_first(tf)"]),
         ("from torchvision import datasets\nds = datasets.FashionMNIST('.', transform=T)  # <-",
          ["transform_first(T)"])],
        ["ds = torchvision.datasets.MNIST('.', train=True)",
         "tf = torchvision.transforms.Compose([torchvision.transforms.ToTensor()])"]),
    "adadelta-torch": (
        [("opt = optim.Adadelta(model.parameters(), lr=args.lr)  # <-",
          ["'torchadadelta'", "'learning_rate': args.lr"]),
         ("opt = torch.optim.Adadelta(model.parameters())  # <-", ["'learning_rate': 1.0"])],
        ["opt = optim.SGD(model.parameters(), lr=0.1)",
         "class Adadelta:\n    pass\nopt = Adadelta()"]),
    "adam-epsilon": (
        [("opt = optim.Adam(model.parameters(), lr=1e-3)  # <-", ["'torchadam'"]),
         ("opt = torch.optim.AdamW(model.parameters())  # <-", ["'torchadamw'"])],
        ["opt = optim.Adadelta(model.parameters())",
         "opt = optim.SGD(model.parameters(), lr=0.1)"]),
    "torch-batchnorm-momentum": (
        [("bn = nn.BatchNorm2d(16)  # <-", ["momentum=0.1 (the default)",
                                              "momentum=0.9 in gluon"]),
         ("bn = nn.BatchNorm1d(16, 1e-5, 0.01)  # <-", ["momentum=0.99"]),
         ("bn = nn.BatchNorm2d(16, momentum=None)  # <-", ["cumulative"])],
        ["ln = nn.LayerNorm(16)", "bn = nn.GroupNorm(2, 16)"]),
    "torch-cat-dim": (
        [("y = torch.cat([a, b])  # <-", ["dim=0", "nd.concat(*tensors, dim=0)"])],
        ["y = torch.cat([a, b], dim=1)", "y = torch.cat([a, b], 0)",
         "y = torch.stack([a, b])"]),
}


def _analyse(detector, source):
    """The analysis of ``source``, with the header of its direction's framework added."""
    torch_side = detector.direction == "gluon"
    text = (TORCH if torch_side else MX) + textwrap.dedent(source).strip("\n") + "\n"
    return text, resolve.analyse(text, "script.py", direction="torch" if torch_side else "mxnet")


def _of(detector, analysis):
    return [f for f in gotchas.detect_all(analysis, detector.direction) if f.rule == detector.name]


def _positives():
    for name, (pos, _) in CASES.items():
        for k, case in enumerate(pos):
            yield pytest.param(name, *case, id=f"{name}-{k}")


def _negatives():
    for name, (_, neg) in CASES.items():
        for k, source in enumerate(neg):
            yield pytest.param(name, source, id=f"{name}-{k}")


@pytest.mark.parametrize("name, source, fragments", list(_positives()))
def test_fires_on_the_marked_line(name, source, fragments):
    detector = gotchas.by_name(name)
    text, analysis = _analyse(detector, source)
    marked = [n for n, line in enumerate(text.splitlines(), 1) if line.endswith("# <-")]
    assert len(marked) == 1, "each positive case marks one line"
    found = _of(detector, analysis)
    assert [f.line for f in found] == marked, found
    finding = found[0]
    for fragment in fragments:
        assert fragment in finding.message, (fragment, finding.message)
    assert finding.path == "script.py" and finding.site_name
    assert finding.site_name.startswith(("mx.", "torch.", "torchvision."))


@pytest.mark.parametrize("name, source", list(_negatives()))
def test_quiet_on_the_look_alike(name, source):
    detector = gotchas.by_name(name)
    _, analysis = _analyse(detector, source)
    assert _of(detector, analysis) == []


def test_every_detector_has_cases_both_ways():
    assert set(CASES) == {d.name for d in gotchas.DETECTORS}
    for name, (pos, neg) in CASES.items():
        assert pos and neg, name


def test_names_unique_kebab_and_directions():
    names = [d.name for d in gotchas.DETECTORS]
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", n) for n in names)
    assert {d.direction for d in gotchas.DETECTORS} == set(gotchas.DIRECTIONS)
    for d in gotchas.DETECTORS:
        assert d.title and "\n" not in d.title and d.advice, d.name


def _page(link):
    """The py:percent source of the page at ``link`` (relative to book/)."""
    source = ROOT / link.replace(".ipynb", ".py")
    assert source.exists(), f"{link}: no {source.relative_to(ROOT)}"
    return source.read_text(encoding="utf-8")


@pytest.mark.parametrize("detector", gotchas.DETECTORS, ids=lambda d: d.name)
def test_each_detector_points_at_a_section_of_its_page(detector):
    assert re.fullmatch(r"notebooks/(deep_dives/)?[a-z0-9_]+\.ipynb", detector.link)
    source = _page(detector.link)
    headings = {mappings.section_id(h): h
                for h in re.findall(r"^# ## (\d+\. .+)$", source, re.M)}
    assert detector.anchor in headings, (detector.anchor, sorted(headings))
    number, _, title = headings[detector.anchor].partition(". ")
    stem, folder = Path(detector.link).stem, Path(detector.link).parent.name
    page_title = re.search(r"^# # (.+)$", source, re.M).group(1)
    label = mappings.page_label(stem, "" if folder == "notebooks" else folder, page_title)
    assert detector.where == f"{label}, §{number}. {title}"


@pytest.mark.parametrize("detector", gotchas.DETECTORS, ids=lambda d: d.name)
def test_each_section_asserts(detector):
    """The section a detector cites shows the behaviour with an assert (or a check call)."""
    source = (ROOT / detector.link.replace(".ipynb", ".py")).read_text(encoding="utf-8")
    heads = [(m.start(), mappings.section_id(m.group(1)))
             for m in re.finditer(r"^# ## (.+)$", source, re.M)]
    starts = [i for i, (_, sid) in enumerate(heads) if sid == detector.anchor]
    assert starts
    begin = heads[starts[0]][0]
    end = heads[starts[0] + 1][0] if starts[0] + 1 < len(heads) else len(source)
    body = source[begin:end]
    assert re.search(r"^\s*(assert |compare\.assert_same|np\.testing\.assert)", body, re.M)


def test_detect_all_sorted_and_directed():
    text = MX + "net = nn.Dense(10)\ny = nd.concat(a, b)\nbn = nn.BatchNorm()\nz = nd.concat(c)\n"
    analysis = resolve.analyse(text, "s.py")
    found = gotchas.detect_all(analysis)
    assert [(f.line, f.rule) for f in found] == [
        (4, "dense-flatten"), (5, "concat-default-dim"), (6, "batchnorm-momentum"),
        (6, "dropout-predict-scope"), (7, "concat-default-dim")]
    assert gotchas.detect_all(analysis, "gluon") == []
    with pytest.raises(ValueError, match="direction"):
        gotchas.detect_all(analysis, "mxnet")


def test_decisions_and_by_name():
    text = MX + "net = nn.Dense(10)\ny = nd.concat(a, b)\n"
    found = {f.rule: f for f in gotchas.detect_all(resolve.analyse(text, "s.py"))}
    assert found["dense-flatten"].decision is True
    assert found["concat-default-dim"].decision is False
    assert gotchas.by_name("dense-flatten").direction == "torch"
    with pytest.raises(KeyError, match="known: .*trainer-step-mean"):
        gotchas.by_name("no-such-rule")
