"""Data iterators for ``image_classification.py``: MXNet's legacy ``mx.io`` API, read offline.

Legacy MXNet scripts feed their training loops from ``mx.io`` iterators, not Gluon
DataLoaders. These are the iterators MXNet's own example used, pointed at files this
collection already has:

- ``mnist_iterator``: ``mx.io.MNISTIter`` over the IDX files that :mod:`sidebyside.data`
  prepares (Fashion-MNIST offline, or MNIST where its files exist). What it does, which the
  PyTorch port reproduces: pixels divided by **256** (not 255); ``input_shape`` only decides
  ``flat`` (a (1, 32, 32) request still gives 1×28×28 batches); the training set is shuffled
  **once**, with the iterator's own seed, so every epoch sees the same order; the last
  partial batch is dropped (the test loop sees 9 984 of 10 000 images at batch size 32).
- ``cifar10_iterator``: ``mx.io.ImageRecordIter`` over ``data/cifar/{train,test}.rec``
  (RecordIO; notebook 18 writes and reads such files). Nothing is downloaded: a missing file
  is an error that says where it was looked for.
- ``dummy_iterator``: zeros, for ``--benchmark``.
"""
import os

import mxnet as mx

from sidebyside import data as sbs_data


def mnist_iterator(batch_size, input_shape, dataset='fashion-mnist'):
    """Training and validation ``MNISTIter``s over ``dataset``'s IDX files."""
    sbs_data.prepare(dataset)                     # checks the files; downloads nothing
    raw = sbs_data.raw_dir(dataset)
    flat = len(input_shape) != 3
    train = mx.io.MNISTIter(image=str(raw / 'train-images-idx3-ubyte'),
                            label=str(raw / 'train-labels-idx1-ubyte'),
                            input_shape=input_shape, batch_size=batch_size,
                            shuffle=True, flat=flat)
    val = mx.io.MNISTIter(image=str(raw / 't10k-images-idx3-ubyte'),
                          label=str(raw / 't10k-labels-idx1-ubyte'),
                          input_shape=input_shape, batch_size=batch_size, flat=flat)
    return train, val


def cifar10_iterator(batch_size, data_shape, resize=-1, folder='data/cifar'):
    """``ImageRecordIter``s over CIFAR-10 RecordIO files that must already exist."""
    paths = [os.path.join(folder, name) for name in ('train.rec', 'test.rec')]
    missing = [p for p in paths if not os.path.isfile(p)]
    if missing:
        raise SystemExit(f"cifar10: {', '.join(missing)} not found (this collection downloads "
                         "nothing; write RecordIO files as notebook 18 shows)")
    train = mx.io.ImageRecordIter(path_imgrec=paths[0], resize=resize, data_shape=data_shape,
                                  batch_size=batch_size, rand_crop=True, rand_mirror=True)
    val = mx.io.ImageRecordIter(path_imgrec=paths[1], resize=resize, data_shape=data_shape,
                                batch_size=batch_size, rand_crop=False, rand_mirror=False)
    return train, val


class DummyIter(mx.io.DataIter):
    """``batches`` batches of zeros with labels 0, the same batch object each time."""

    def __init__(self, batch_size, data_shape, batches=100):
        super().__init__(batch_size)
        self.data_shape = (batch_size,) + data_shape
        self.label_shape = (batch_size,)
        self.provide_data = [('data', self.data_shape)]
        self.provide_label = [('softmax_label', self.label_shape)]
        self.batch = mx.io.DataBatch(data=[mx.nd.zeros(self.data_shape)],
                                     label=[mx.nd.zeros(self.label_shape)])
        self._batches = 0
        self.batches = batches

    def next(self):
        if self._batches < self.batches:
            self._batches += 1
            return self.batch
        self._batches = 0
        raise StopIteration

    def reset(self):
        self._batches = 0


def dummy_iterator(batch_size, data_shape):
    return DummyIter(batch_size, data_shape), DummyIter(batch_size, data_shape)


class FirstBatches(mx.io.DataIter):
    """The first ``n`` batches of ``it`` per epoch (``--max-batches``; 0 = all)."""

    def __init__(self, it, n):
        super().__init__(it.batch_size)
        self.it, self.n, self.i = it, n, 0
        self.provide_data, self.provide_label = it.provide_data, it.provide_label

    def reset(self):
        self.it.reset()
        self.i = 0

    def next(self):
        if self.n and self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.it.next()
