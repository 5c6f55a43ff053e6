"""A legacy Gluon training script, written the way MXNet 1.x examples were: the input of
``sidebyside.migrate``'s whole-script test (tests/test_migrate_port.py), which drafts its port
to PyTorch and runs the draft as it is written, with no hand edit.

A multilayer perceptron on Fashion-MNIST: a ``HybridSequential`` filled inside
``name_scope()``, ``Dense`` layers without input sizes (Gluon infers them), a dataset
``transform=`` that reshapes and scales each sample, ``Xavier`` initialisation, SGD with
momentum through ``Trainer``, ``autograd.record()`` and ``trainer.step(batch_size)``,
``mx.metric.Accuracy``. ``--data-dir`` holds the four IDX files as Gluon keeps them.

Run: ``python examples/legacy_gluon_mlp/train.py --data-dir DIR --epochs 1``; the last line
printed is ``validation accuracy 0.xxxx``.
"""
import argparse
import logging

import mxnet as mx
from mxnet import autograd, gluon, nd
from mxnet.gluon import nn

parser = argparse.ArgumentParser(description="A Gluon MLP on Fashion-MNIST")
parser.add_argument("--data-dir", default="./data", help="the IDX files (gzipped or not)")
parser.add_argument("--batch-size", type=int, default=128)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--lr", type=float, default=0.1)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--gpu", action="store_true", help="train on the first GPU")
parser.add_argument("--save", default="", help="save the parameters to this file")
parser.add_argument("--max-batches", type=int, default=0,
                    help="stop each epoch after this many batches (default 0: all)")
args = parser.parse_args()
logging.basicConfig(level=logging.INFO, format="%(message)s")

mx.random.seed(args.seed)
ctx = mx.gpu(0) if args.gpu else mx.cpu()

# the model: two hidden layers, their input sizes left to Gluon
net = nn.HybridSequential()
with net.name_scope():
    net.add(nn.Dense(256, activation="relu"),
            nn.Dense(128, activation="tanh"))
    net.add(nn.Dense(10))


def to_float(data, label):
    """One sample: (28, 28, 1) uint8 pixels → 784 floats in [0, 1]."""
    return data.reshape((-1,)).astype("float32") / 255, label


train_set = gluon.data.vision.FashionMNIST(args.data_dir, train=True, transform=to_float)
val_set = gluon.data.vision.FashionMNIST(args.data_dir, train=False, transform=to_float)
train_data = gluon.data.DataLoader(train_set, batch_size=args.batch_size, shuffle=True,
                                   last_batch="discard")
val_data = gluon.data.DataLoader(val_set, batch_size=256, shuffle=False)


def evaluate(loader):
    metric = mx.metric.Accuracy()
    for data, label in loader:
        data = data.as_in_context(ctx)
        label = label.as_in_context(ctx)
        metric.update([label], [net(data)])
    return metric.get()[1]


net.initialize(mx.init.Xavier(magnitude=2.24), ctx=ctx)
net.hybridize()
trainer = gluon.Trainer(net.collect_params(), "sgd",
                        {"learning_rate": args.lr, "momentum": 0.9, "wd": 1e-4})
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()

for epoch in range(args.epochs):
    total, seen = 0.0, 0
    for i, (data, label) in enumerate(train_data):
        if args.max_batches and i == args.max_batches:
            break
        data = data.as_in_context(ctx)
        label = label.as_in_context(ctx)
        with autograd.record():
            loss = loss_fn(net(data), label)
            loss.backward()
        trainer.step(data.shape[0])
        total += nd.sum(loss).asscalar()
        seen += data.shape[0]
    logging.info("epoch %d: training loss %.4f", epoch, total / seen)

if args.save:
    net.save_parameters(args.save)
print(f"validation accuracy {evaluate(val_data):.4f}")
