"""The PyTorch port of ``image_classification.py`` (MXNet's legacy Gluon/Module example):
same flags, same behaviour.

Each change is one of the maps the collection teaches; notebook 16 walks through them and
proves the two scripts train in lockstep:

- ``model_zoo.vision.get_model('resnet18_v1', classes=…, thumbnail=…)`` → torchvision's
  ``resnet18(num_classes=…)`` with the first convolution taking the data's channels;
  ``thumbnail=True`` → a 3×3 stride-1 first convolution and no BN/ReLU/max-pool after it;
  the v1 bottleneck (ResNet-50 and up) strides its first 1×1 convolution, torchvision's its
  3×3 one, and has biases in its 1×1 convolutions (:func:`get_model`);
- ``mx.init.Xavier(magnitude=2.24)`` → ``nn.init.xavier_uniform_(w, gain=√(2.24/3))`` for every
  convolution and dense weight, zero biases, BatchNorm γ=1, β=0 (notebook 6);
- ``mx.io.MNISTIter`` → a ``Dataset``/``DataLoader`` that does what it does: pixels / 256, one
  shuffle for the whole run, the last partial batch dropped (:func:`mnist_loaders`;
  notebook 18);
- ``split_and_load`` over ``--gpus N`` contexts with the ``device`` kvstore →
  ``DistributedDataParallel``, one process per device (gloo on CPU with ``--cpu-replicas``),
  each with ``--batch-size`` samples, gradients averaged as ``trainer.step(total batch)`` does
  (notebook 9);
- ``Trainer('sgd', {learning_rate, wd})`` + ``SoftmaxCrossEntropyLoss`` →
  ``optim.SGD(lr, weight_decay=wd)`` + ``CrossEntropyLoss()`` (notebook 8);
- ``mx.metric.Accuracy`` → ``torchmetrics.classification.MulticlassAccuracy(average='micro')``
  (notebook 11); the log lines keep their format;
- ``--mode hybrid`` (``net.hybridize()``) changes speed, not results: here it runs eagerly
  (``torch.compile`` is the speed counterpart; notebook 7);
- ``--mode symbolic`` (``Module.fit`` with its **defaults**: ``Uniform(0.01)`` weights, SGD at
  learning rate 0.01 with no weight decay — ``--lr``/``--wd`` are ignored — a
  ``Speedometer(batch_size, 1)`` line per batch, no validation, nothing saved) → the same
  loop with those settings (notebook 17);
- ``net.save_params(f)`` → ``torch.save(net.state_dict(), 'image-classifier-<model>-<epochs>.pt')``;
  ``python -m sidebyside.convert`` turns the MXNet file into this one (notebook 14).

Run: ``python examples/image_classification/main_torch.py --model resnet18_v1 --mode imperative``.
"""
import argparse
import logging
import math
import os
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torchmetrics.classification import MulticlassAccuracy

from sidebyside import data as sbs_data
from sidebyside.launch import free_port

logging.basicConfig(level=logging.INFO)

RESNETS = {f'resnet{depth}_v1': (getattr(torchvision.models, f'resnet{depth}'), depth >= 50)
           for depth in (18, 34, 50, 101, 152)}


def get_model(name, classes, thumbnail=False, in_channels=3):
    """torchvision's ResNet laid out like Gluon's model-zoo ``<name>`` (a v1 ResNet)."""
    if name not in RESNETS:
        raise SystemExit(f"--model {name}: not ported; this port has {', '.join(RESNETS)} "
                         "(Gluon's v2 ResNets and the other zoo networks have no torchvision "
                         "twin with the same layout)")
    build, bottleneck = RESNETS[name]
    net = build(num_classes=classes)
    if thumbnail:      # Gluon: conv3x3(64, stride 1) straight into the first stage
        net.conv1 = nn.Conv2d(in_channels, 64, 3, 1, 1, bias=False)
        net.bn1, net.relu, net.maxpool = nn.Identity(), nn.Identity(), nn.Identity()
    elif in_channels != 3:
        net.conv1 = nn.Conv2d(in_channels, 64, 7, 2, 3, bias=False)
    if bottleneck:
        # Gluon's BottleneckV1 strides its first 1×1 convolution (torchvision the 3×3 one), and
        # both its 1×1 convolutions have biases
        for stage in (net.layer1, net.layer2, net.layer3, net.layer4):
            for block in stage:
                stride = block.conv2.stride
                block.conv1 = nn.Conv2d(block.conv1.in_channels, block.conv1.out_channels, 1,
                                        stride, bias=True)
                block.conv2.stride = (1, 1)
                block.conv3 = nn.Conv2d(block.conv3.in_channels, block.conv3.out_channels, 1,
                                        bias=True)
    return net


def init_like_mxnet(net, weight_init):
    """What ``net.initialize(init)`` does to a Gluon network: ``weight_init`` for every
    convolution/dense weight, zeros for biases, BatchNorm γ=1, β=0."""
    for m in net.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            weight_init(m.weight)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)


def xavier_224(w):
    """``mx.init.Xavier(magnitude=2.24)``: uniform, bound √(2.24 / ((fan_in + fan_out)/2))."""
    nn.init.xavier_uniform_(w, gain=math.sqrt(2.24 / 3))


def uniform_001(w):
    """``mx.init.Uniform(0.01)``, ``Module.fit``'s default initialiser."""
    nn.init.uniform_(w, -0.01, 0.01)


class IDXImages(torch.utils.data.Dataset):
    """An IDX image/label file pair as ``MNISTIter`` delivers it: float32 pixels / 256."""

    def __init__(self, raw, train):
        prefix = 'train' if train else 't10k'
        with open(raw / f'{prefix}-images-idx3-ubyte', 'rb') as f:
            images = np.frombuffer(f.read(), np.uint8, offset=16)
        with open(raw / f'{prefix}-labels-idx1-ubyte', 'rb') as f:
            self.labels = torch.from_numpy(np.frombuffer(f.read(), np.uint8, offset=8).astype(np.int64))
        self.images = torch.from_numpy(images.reshape(-1, 1, 28, 28).astype(np.float32) / 256)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class OneShuffle(torch.utils.data.Sampler):
    """One random order, drawn once and kept for every epoch (as ``MNISTIter(shuffle=True)``);
    with several replicas each takes every ``world``-th batch-sized slice of it."""

    def __init__(self, n, seed, batch_size, rank=0, world=1):
        order = torch.randperm(n, generator=torch.Generator().manual_seed(seed)).tolist()
        chunks = [order[i:i + batch_size] for i in range(0, n - batch_size + 1, batch_size)]
        self.order = [i for chunk in chunks[rank::world] for i in chunk]

    def __iter__(self):
        return iter(self.order)

    def __len__(self):
        return len(self.order)


def mnist_loaders(dataset, batch_size, seed, rank=0, world=1):
    sbs_data.prepare(dataset)
    raw = sbs_data.raw_dir(dataset)
    train_set, val_set = IDXImages(raw, True), IDXImages(raw, False)
    train = torch.utils.data.DataLoader(
        train_set, batch_size=batch_size, drop_last=True,
        sampler=OneShuffle(len(train_set), seed, batch_size, rank, world))
    val = torch.utils.data.DataLoader(val_set, batch_size=batch_size * world, drop_last=True)
    return train, val


def dummy_loaders(batch_size, shape, batches=100):
    zeros = torch.utils.data.TensorDataset(torch.zeros((batch_size,) + shape),
                                           torch.zeros(batch_size, dtype=torch.int64))
    loader = torch.utils.data.DataLoader(
        zeros, batch_size=batch_size,
        sampler=torch.utils.data.RandomSampler(zeros, replacement=True, num_samples=batch_size * batches))
    return loader, loader


DATASETS = ['mnist', 'fashion-mnist', 'cifar10', 'dummy']


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='Train a model for image classification.')
    parser.add_argument('--dataset', type=str,
                        default=os.environ.get('SIDEBYSIDE_DATASET', 'fashion-mnist'),
                        choices=DATASETS,
                        help='dataset to use: mnist, fashion-mnist, cifar10 or dummy.')
    parser.add_argument('--batch-size', type=int, default=32,
                        help='training batch size per device (CPU/GPU).')
    parser.add_argument('--gpus', type=int, default=0, help='number of gpus to use.')
    parser.add_argument('--epochs', type=int, default=3, help='number of training epochs.')
    parser.add_argument('--lr', type=float, default=0.01, help='learning rate. default is 0.01.')
    parser.add_argument('--wd', type=float, default=0.0001,
                        help='weight decay rate. default is 0.0001.')
    parser.add_argument('--seed', type=int, default=123, help='random seed to use. Default=123.')
    parser.add_argument('--benchmark', action='store_true', help='whether to run benchmark.')
    parser.add_argument('--mode', type=str,
                        help='mode in which to train the model. options are symbolic, imperative, hybrid')
    parser.add_argument('--model', type=str, required=True,
                        help='type of model to use. see vision_model for options.')
    parser.add_argument('--use_thumbnail', action='store_true',
                        help='use thumbnail or not in resnet. default is false.')
    parser.add_argument('--batch-norm', action='store_true',
                        help='enable batch normalization or not in vgg. default is false.')
    parser.add_argument('--use-pretrained', action='store_true',
                        help='enable using pretrained model from gluon.')
    parser.add_argument('--kvstore', type=str, default='device',
                        help='kvstore to use for trainer/module.')
    parser.add_argument('--log-interval', type=int, default=50,
                        help='Number of batches to wait before logging.')
    parser.add_argument('--max-batches', type=int, default=0,
                        help='use only this many batches per epoch and per validation (0: all).')
    parser.add_argument('--cpu-replicas', type=int, default=0,
                        help='(port only) data-parallel CPU processes, as --gpus N does on GPUs.')
    opt = parser.parse_args(argv)
    if opt.dataset not in DATASETS:   # choices= does not check a default from the environment
        parser.error(f'unknown dataset {opt.dataset!r} (from $SIDEBYSIDE_DATASET); '
                     f'choose one of {DATASETS}')
    return opt


def test(net, val_data, device, classes, max_batches=0):
    # one process validates everything, so no gathering across replicas
    metric = MulticlassAccuracy(num_classes=classes, average='micro',
                                sync_on_compute=False).to(device)
    net.eval()
    with torch.no_grad():
        for i, (x, y) in enumerate(val_data):
            if max_batches and i >= max_batches:
                break
            metric.update(net(x.to(device)), y.to(device))
    net.train()
    return 'accuracy', metric.compute().item()


def train(opt, rank=0, world=1):
    device = torch.device(f'cuda:{rank}') if opt.gpus > 0 else torch.device('cpu')
    if world > 1:
        dist.init_process_group('nccl' if opt.gpus > 0 else 'gloo', rank=rank, world_size=world)
    torch.manual_seed(opt.seed)
    dataset, classes, batch_size = opt.dataset, 10, opt.batch_size   # per device, as upstream
    if opt.benchmark:
        batch_size, dataset, classes = 32, 'dummy', 1000
    in_channels = 1 if dataset in ('mnist', 'fashion-mnist') else 3
    if opt.use_pretrained:
        raise SystemExit('--use-pretrained: convert the Gluon weights with python -m '
                         'sidebyside.convert (notebook 14) and load them instead')
    if dataset in ('mnist', 'fashion-mnist'):
        train_data, val_data = mnist_loaders(dataset, batch_size, opt.seed, rank, world)
    elif dataset == 'dummy':
        side = 299 if opt.model == 'inceptionv3' else 224
        train_data, val_data = dummy_loaders(batch_size, (3, side, side))
    else:
        raise SystemExit('cifar10: read the RecordIO files with sidebyside.recordio.RecordDataset '
                         '(notebook 18)')
    net = get_model(opt.model, classes, opt.use_thumbnail, in_channels)
    symbolic = opt.mode == 'symbolic'
    init_like_mxnet(net, uniform_001 if symbolic else xavier_224)
    net = net.to(device)
    model = nn.parallel.DistributedDataParallel(net) if world > 1 else net
    lr, wd = (0.01, 0.0) if symbolic else (opt.lr, opt.wd)     # Module.fit's defaults
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=wd)
    metric = MulticlassAccuracy(num_classes=classes, average='micro').to(device)
    recent = MulticlassAccuracy(num_classes=classes, average='micro').to(device)  # Speedometer's
    log_every = 1 if symbolic else opt.log_interval
    total = batch_size * world

    for epoch in range(opt.epochs):
        tic = btic = time.time()
        metric.reset()
        recent.reset()
        for i, (x, y) in enumerate(train_data):
            if opt.max_batches and i >= opt.max_batches:
                break
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            out = model(x)
            F.cross_entropy(out, y).backward()
            optimizer.step()
            metric.update(out.detach(), y)
            recent.update(out.detach(), y)
            # with several replicas compute() gathers every replica's counts (all must call
            # it), as MXNet's metric sees every context's outputs; rank 0 writes the log
            if symbolic and i > 0:
                # Speedometer(batch_size, 1): from the second batch on, the accuracy since its
                # last line (it resets the metric's local part; the epoch's line is global)
                acc = recent.compute().item()
                recent.reset()
                if rank == 0:
                    logging.info('Epoch[%d] Batch [%d-%d]\tSpeed: %.2f samples/sec\taccuracy=%f',
                                 epoch, i - 1, i, total / (time.time() - btic), acc)
                btic = time.time()
            elif not symbolic and log_every and not (i + 1) % log_every:
                acc = metric.compute().item()
                if rank == 0:
                    logging.info('[Epoch %d Batch %d] speed: %f samples/s, training: %s=%f',
                                 epoch, i, total / (time.time() - btic), 'accuracy', acc)
            if not symbolic:
                btic = time.time()
        acc = metric.compute().item()
        if rank != 0:
            continue
        if symbolic:
            logging.info('Epoch[%d] Train-accuracy=%f', epoch, acc)
            logging.info('Epoch[%d] Time cost=%.3f', epoch, time.time() - tic)
            continue
        logging.info('[Epoch %d] training: %s=%f', epoch, 'accuracy', acc)
        logging.info('[Epoch %d] time cost: %f', epoch, time.time() - tic)
        name, val_acc = test(net, val_data, device, classes, opt.max_batches)
        logging.info('[Epoch %d] validation: %s=%f', epoch, name, val_acc)

    if rank == 0 and not symbolic:
        torch.save(net.state_dict(), 'image-classifier-%s-%d.pt' % (opt.model, opt.epochs))
    if world > 1:
        dist.destroy_process_group()


def _replica(rank, opt, world):
    train(opt, rank, world)


def main(argv=None):
    opt = parse_args(argv)
    print(opt)
    world = max(1, opt.gpus, opt.cpu_replicas)
    if opt.gpus and opt.gpus > torch.cuda.device_count():
        raise SystemExit(f'--gpus {opt.gpus}: this machine has {torch.cuda.device_count()} CUDA devices')
    if world == 1:
        train(opt)
        return
    os.environ.setdefault('MASTER_ADDR', '127.0.0.1')        # one machine: loopback
    os.environ.setdefault('MASTER_PORT', str(free_port()))
    if not opt.gpus:
        os.environ.setdefault('GLOO_SOCKET_IFNAME', 'lo')      # gloo would look up the hostname
    mp.spawn(_replica, args=(opt, world), nprocs=world, join=True)


if __name__ == '__main__':
    main()
