"""The Gluon port of ``main.py`` (pytorch/examples' MNIST script): same flags, same behaviour.

Each change from ``main.py`` is one of the maps the collection teaches; notebook 15 walks
through them hunk by hunk and proves the two scripts train in lockstep:

- ``nn.Module`` → ``gluon.HybridBlock`` with ``hybrid_forward(F, x)``; ``Conv2d(1, 32, 3, 1)``
  → ``Conv2D(32, 3, 1, in_channels=1)``; ``F.max_pool2d(x, 2)`` → ``F.Pooling(kernel=(2, 2),
  stride=(2, 2))``; ``torch.flatten(x, 1)`` → ``F.flatten(x)`` (same order);
  ``F.log_softmax(x, dim=1)`` → ``F.log_softmax(x, axis=1)`` (notebook 7);
- PyTorch's default initialisation of ``Conv2d``/``Linear`` (U(±1/√fan_in) for weight and
  bias; not the rule of its RNN layers or ``Embedding``), reproduced: weights
  ``Xavier('uniform', 'in', 1)``, biases ``Uniform(1/√fan_in)`` (notebook 6);
- ``F.nll_loss`` of log-probabilities → ``SoftmaxCrossEntropyLoss(from_logits=True)``, one
  loss per sample: ``backward()`` on the per-sample losses and ``trainer.step(batch_size)``
  give the mean's gradient; ``reduction='sum'`` → ``.sum()`` (notebook 10);
- ``optim.Adadelta(lr=1.0)`` → ``sidebyside.optim.TorchAdadelta``, because MXNet's own
  ``adadelta`` ignores the learning rate and uses ``epsilon=1e-5`` (notebook 8);
- ``StepLR(step_size=1, gamma)`` → ``trainer.set_learning_rate(lr · gamma)`` after each epoch
  (notebook 8);
- ``model.train()``/``model.eval()`` + ``torch.no_grad()`` → ``autograd.record()`` while
  training, nothing while testing (Dropout follows ``autograd.is_training()``; notebook 5);
- the device: ``torch.accelerator`` → ``mx.gpu(0)`` when ``mx.context.num_gpus()`` (the
  arrays are moved with ``as_in_context``); ``persistent_workers`` has no Gluon flag: the
  loader keeps its workers for its lifetime (notebook 4);
- ``torch.save(model.state_dict(), "mnist_cnn.pt")`` → ``net.save_parameters("mnist_cnn.params")``;
  ``python -m sidebyside.convert`` turns either file into the other (notebook 14).

Run: ``python examples/mnist/main_gluon.py --epochs 1`` (``--help`` lists the flags).
"""
import argparse
import math

import mxnet as mx
import numpy as np
from mxnet import autograd, gluon
from mxnet.gluon import nn
from mxnet.gluon.data.vision import transforms

from sidebyside import data
from sidebyside.optim import TorchAdadelta  # noqa: F401  (registers "torchadadelta")


def torch_init(fan_in):
    """PyTorch's default initialisation of a Linear/Conv layer, as Gluon initialisers."""
    return dict(weight_initializer=mx.init.Xavier(rnd_type='uniform', factor_type='in',
                                                  magnitude=1),
                bias_initializer=mx.init.Uniform(1 / math.sqrt(fan_in)))


class Net(gluon.HybridBlock):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.conv1 = nn.Conv2D(32, 3, 1, in_channels=1, **torch_init(1 * 3 * 3))
        self.conv2 = nn.Conv2D(64, 3, 1, in_channels=32, **torch_init(32 * 3 * 3))
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Dense(128, in_units=9216, **torch_init(9216))
        self.fc2 = nn.Dense(10, in_units=128, **torch_init(128))

    def hybrid_forward(self, F, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type='max')
        x = self.dropout1(x)
        x = F.flatten(x)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        x = self.fc2(x)
        return F.log_softmax(x, axis=1)


nll_loss = gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)   # per sample


def train(args, model, ctx, train_loader, trainer, epoch, n_train):
    for batch_idx, (images, target) in enumerate(train_loader):
        images, target = images.as_in_context(ctx), target.as_in_context(ctx)
        with autograd.record():
            output = model(images)
            loss = nll_loss(output, target)
        loss.backward()
        trainer.step(images.shape[0])
        if batch_idx % args.log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(images), n_train,
                100. * batch_idx / len(train_loader), loss.mean().asscalar()))
            if args.dry_run:
                break
        if args.max_batches and batch_idx + 1 >= args.max_batches:
            break


def test(model, ctx, test_loader):
    test_loss = 0
    correct = 0
    n = 0
    for images, target in test_loader:
        images, target = images.as_in_context(ctx), target.as_in_context(ctx)
        output = model(images)
        test_loss += nll_loss(output, target).sum().asscalar()
        pred = output.argmax(axis=1)
        correct += int((pred == target.astype(pred.dtype)).sum().asscalar())
        n += images.shape[0]
    test_loss /= n
    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, n, 100. * correct / n))
    return test_loss, correct


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='Gluon MNIST Example (port of PyTorch\'s)')
    parser.add_argument('--batch-size', type=int, default=64, metavar='N',
                        help='input batch size for training (default: 64)')
    parser.add_argument('--test-batch-size', type=int, default=1000, metavar='N',
                        help='input batch size for testing (default: 1000)')
    parser.add_argument('--epochs', type=int, default=14, metavar='N',
                        help='number of epochs to train (default: 14)')
    parser.add_argument('--lr', type=float, default=1.0, metavar='LR',
                        help='learning rate (default: 1.0)')
    parser.add_argument('--gamma', type=float, default=0.7, metavar='M',
                        help='Learning rate step gamma (default: 0.7)')
    parser.add_argument('--no-accel', action='store_true',
                        help='disables accelerator')
    parser.add_argument('--dry-run', action='store_true',
                        help='quickly check a single pass')
    parser.add_argument('--seed', type=int, default=1, metavar='S',
                        help='random seed (default: 1)')
    parser.add_argument('--log-interval', type=int, default=10, metavar='N',
                        help='how many batches to wait before logging training status')
    parser.add_argument('--save-model', action='store_true',
                        help='For Saving the current Model')
    parser.add_argument('--dataset', choices=sorted(data.SPECS), default=None,
                        help='fashion-mnist or mnist (default: $SIDEBYSIDE_DATASET, else '
                             'fashion-mnist), read by sidebyside.data')
    parser.add_argument('--max-batches', type=int, default=0, metavar='N',
                        help='stop each training epoch after N batches (default: 0, all)')
    args = parser.parse_args(argv)
    if args.dataset is None:   # $SIDEBYSIDE_DATASET, checked as strictly as the flag
        try:
            args.dataset = data.dataset_name()
        except ValueError as err:
            parser.error(str(err))
    return args


def main(argv=None):
    args = parse_args(argv)
    use_accel = not args.no_accel and mx.context.num_gpus() > 0

    mx.random.seed(args.seed)
    np.random.seed(args.seed)          # Gluon's shuffling draws from numpy

    ctx = mx.gpu(0) if use_accel else mx.cpu()

    train_kwargs = {'batch_size': args.batch_size}
    test_kwargs = {'batch_size': args.test_batch_size}
    if use_accel:
        accel_kwargs = {'num_workers': 1,
                        'pin_memory': True,
                        'shuffle': True}
        train_kwargs.update(accel_kwargs)
        test_kwargs.update(accel_kwargs)

    spec = data.SPECS[args.dataset]
    transform = transforms.Compose([
        transforms.ToTensor(),
        transforms.Normalize(spec.mean, spec.std)
    ])
    dataset1 = data.gluon_dataset(args.dataset, train=True).transform_first(transform)
    dataset2 = data.gluon_dataset(args.dataset, train=False).transform_first(transform)
    train_loader = gluon.data.DataLoader(dataset1, **train_kwargs)
    test_loader = gluon.data.DataLoader(dataset2, **test_kwargs)

    model = Net()
    model.initialize(ctx=ctx)
    model.hybridize()
    trainer = gluon.Trainer(model.collect_params(), 'torchadadelta',
                            {'learning_rate': args.lr})

    for epoch in range(1, args.epochs + 1):
        train(args, model, ctx, train_loader, trainer, epoch, len(dataset1))
        test(model, ctx, test_loader)
        trainer.set_learning_rate(trainer.learning_rate * args.gamma)

    if args.save_model:
        model.save_parameters("mnist_cnn.params")


if __name__ == '__main__':
    main()
