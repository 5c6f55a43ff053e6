"""Legacy data iterators (mx.io), callbacks, KVStore, RecordIO, the profiler and
mx.test_utils' download helpers → torch.utils.data, torch.distributed, torch.profiler and
sidebyside.recordio (MXNet's RecordIO files without MXNet)."""

import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, check, entry

_ONE = ("float64",)                    # exact checks: one run is enough
_H = "from sidebyside.catalogue.harness_legacy import "

_PAD = '''
import torch


def padded_loader(dataset, batch_size):
    """NDArrayIter(last_batch_handle='pad'): the last batch is filled with the first samples."""
    n = len(dataset)
    order = list(range(n)) + list(range(-n % batch_size))
    return torch.utils.data.DataLoader(torch.utils.data.Subset(dataset, order), batch_size)
'''

_ROLL = '''
import torch


def roll_over_loaders(dataset, batch_size):
    """NDArrayIter(last_batch_handle='roll_over'): one DataLoader per epoch; the samples
    left over by an epoch open the next one."""
    carry = []
    while True:
        order = carry + list(range(len(dataset)))
        full = len(order) // batch_size * batch_size
        carry = order[full:]
        yield torch.utils.data.DataLoader(torch.utils.data.Subset(dataset, order[:full]),
                                          batch_size)
'''

_SPEEDO = '''
import logging
import time


class Speedometer:
    """mx.callback.Speedometer: call it after every batch; logs samples/s every `frequent`
    batches (the first batch of each epoch starts the clock)."""

    def __init__(self, batch_size, frequent=50):
        self.batch_size, self.frequent, self.tic = batch_size, frequent, None

    def __call__(self, epoch, nbatch):
        if nbatch == 0 or self.tic is None:
            self.tic = time.time()
        elif nbatch % self.frequent == 0:
            speed = self.frequent * self.batch_size / max(time.time() - self.tic, 1e-12)
            logging.info("Iter[%d] Batch [%d]\\tSpeed: %.2f samples/sec", epoch, nbatch, speed)
            self.tic = time.time()
'''

_CKPT = '''
import torch


def do_checkpoint(prefix, period=1):
    """mx.callback.do_checkpoint: call it at the end of each epoch."""
    def callback(epoch, model):
        if (epoch + 1) % period == 0:
            torch.save(model.state_dict(), "%s-%04d.pt" % (prefix, epoch + 1))
    return callback
'''

_TS = "torch.utils.data.TensorDataset(x, y)"

ENTRIES = [
    # ------------------------------------------------------------------ batches
    entry("mx.io.DataBatch", torch="(x, y)  # the tuple a DataLoader yields",
          status=RECIPE,
          recipe="x, y = batch            # DataBatch(data=[x], label=[y])\n"
                 "# batch.pad: batch_size - len(x) on the last batch; index: keep it "
                 "yourself",
          args="data (a list of arrays) → the inputs; label (a list) → the targets; pad, "
               "index, bucket_key, provide_data / provide_label → nothing",
          gotchas=["data and label are lists even with one array: batch.data[0]"],
          check=check("b = mx.io.DataBatch(data=[x], label=[y])\n[b.data[0], b.label[0]]",
                      "batch = (x, y)\nxb, yb = batch\n[xb, yb]",
                      inputs="x=U(2, 3); y=IA([0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataBatch.data", torch="batch[0]  # the inputs of a (x, y) batch",
          status=RENAMED,
          gotchas=["a list of arrays (one per data name): data[0] is the array"],
          check=check("mx.io.DataBatch(data=[x], label=[y]).data[0]", "(x, y)[0]",
                      inputs="x=U(2, 3); y=IA([0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataBatch.label", torch="batch[1]  # the targets of a (x, y) batch",
          status=RENAMED,
          gotchas=["a list of arrays (one per label name): label[0] is the array"],
          check=check("mx.io.DataBatch(data=[x], label=[y]).label[0]", "(x, y)[1]",
                      inputs="x=U(2, 3); y=IA([0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataBatch.pad", torch="batch_size - len(y)  # the last batch of a "
                                       "DataLoader is shorter",
          status=RECIPE, recipe="pad = batch_size - len(y)   # 0 but on the last batch",
          gotchas=["MXNet pads the last batch (with samples from the start) and says how "
                   "many in pad; a DataLoader yields a shorter last batch instead"],
          check=check("[b.pad for b in mx.io.NDArrayIter(x, y, batch_size=2)]",
                      "loader = torch.utils.data.DataLoader(" + _TS + ", batch_size=2)\n"
                      "[2 - len(yb) for xb, yb in loader]",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    # ------------------------------------------------------------------ NDArrayIter
    entry("mx.io.NDArrayIter", torch="padded_loader(torch.utils.data.TensorDataset(data, "
                                     "label), batch_size)",
          status=RECIPE, recipe=_PAD,
          args="data, label → a TensorDataset; batch_size → batch_size; shuffle → "
               "DataLoader(shuffle=True); data_name / label_name → nothing",
          defaults="last_batch_handle='pad': the last batch is completed with the first "
                   "samples (pad says how many); a DataLoader yields a shorter one",
          gotchas=["NDArrayIter turns numpy float64 data into float32 (its default dtype); "
                   "NDArrays keep theirs",
                   "5 samples, batch_size 2 → batches [0 1] [2 3] [4 0] with pad 0, 0, 1, "
                   "every epoch"],
          check=check("""
              it = mx.io.NDArrayIter(x, y, batch_size=2)
              out = []
              for epoch in range(2):
                  out += [(b.data[0], b.label[0]) for b in it]
                  it.reset()
              out""", _PAD.strip() + "\n" + textwrap.dedent(f"""
              loader = padded_loader({_TS}, 2)
              out = []
              for epoch in range(2):
                  out += [(xb, yb) for xb, yb in loader]
              out""").strip(), inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.NDArrayIter", form="last_batch_handle='discard'",
          when=["last_batch_handle='discard'"],
          signature=["data", "label", "batch_size", "shuffle", "last_batch_handle"],
          torch="torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data, label), "
                "batch_size, shuffle=shuffle, drop_last=True)",
          status=ARGS, args="last_batch_handle='discard' → drop_last=True; data, label → a "
                            "TensorDataset",
          check=check("""
              it = mx.io.NDArrayIter(x, y, batch_size=2, last_batch_handle='discard')
              [(b.data[0], b.label[0]) for b in it]""",
                      "loader = torch.utils.data.DataLoader(" + _TS + ", 2, shuffle=False, "
                      "drop_last=True)\n[(xb, yb) for xb, yb in loader]",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.NDArrayIter", form="last_batch_handle='roll_over'",
          when=["last_batch_handle='roll_over'"],
          signature=["data", "label", "batch_size", "shuffle", "last_batch_handle"],
          torch="roll_over_loaders(torch.utils.data.TensorDataset(data, label), batch_size)",
          status=RECIPE, recipe=_ROLL,
          args="the leftover samples of an epoch open the next: one DataLoader per epoch",
          gotchas=["5 samples, batch 2: epoch 1 [0 1] [2 3]; epoch 2 [4 0] [1 2] [3 4]; "
                   "epoch 3 as epoch 1. MXNet 1.9.1 reports pad=1 on the [4 0] batch although "
                   "nothing is padded"],
          check=check("""
              it = mx.io.NDArrayIter(x, y, batch_size=2, last_batch_handle='roll_over')
              out = []
              for epoch in range(3):
                  out += [(b.data[0], b.label[0]) for b in it]
                  it.reset()
              out""", _ROLL.strip() + "\n" + textwrap.dedent(f"""
              loaders = roll_over_loaders({_TS}, 2)
              out = []
              for epoch in range(3):
                  out += [(xb, yb) for xb, yb in next(loaders)]
              out""").strip(), inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    # ------------------------------------------------------------------ DataIter
    entry("mx.io.DataIter.provide_data",
          torch="next(iter(loader))[0].shape  # PyTorch needs no shapes ahead",
          status=RECIPE, recipe="shape = next(iter(loader))[0].shape   # the first batch's",
          gotchas=["provide_data is a list of DataDesc (name, shape, dtype, layout), one per "
                   "input; Module.bind reads it, PyTorch never needs it"],
          check=check("it = mx.io.NDArrayIter(x, y, batch_size=2)\n"
                      "[(d.name, d.shape) for d in it.provide_data]",
                      "loader = torch.utils.data.DataLoader(" + _TS + ", batch_size=2)\n"
                      "[('data', tuple(next(iter(loader))[0].shape))]",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataIter.provide_label",
          torch="next(iter(loader))[1].shape  # PyTorch needs no shapes ahead",
          status=RECIPE, recipe="shape = next(iter(loader))[1].shape   # the first batch's",
          gotchas=["NDArrayIter names its label 'softmax_label' (label_name=) — the name "
                   "SoftmaxOutput's label input has in a Module"],
          check=check("it = mx.io.NDArrayIter(x, y, batch_size=2)\n"
                      "[(d.name, d.shape) for d in it.provide_label]",
                      "loader = torch.utils.data.DataLoader(" + _TS + ", batch_size=2)\n"
                      "[('softmax_label', tuple(next(iter(loader))[1].shape))]",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataIter.reset", torch="iter(loader)  # a new pass over the data",
          status=RECIPE, recipe="it = iter(loader)   # each pass (epoch) starts a new iterator",
          gotchas=["an MXNet iterator is exhausted after one epoch until reset(); a "
                   "DataLoader starts over each time it is iterated (for x, y in loader)"],
          check=check("""
              it = mx.io.NDArrayIter(x, y, batch_size=2)
              first = it.next().data[0]
              it.next()
              it.reset()
              [first, it.next().data[0]]""",
                      "loader = torch.utils.data.DataLoader(" + _TS + ", batch_size=2)\n"
                      "it = iter(loader)\nfirst = next(it)[0]\nnext(it)\nit = iter(loader)\n"
                      "[first, next(it)[0]]",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataIter.next", torch="next(it)  # it = iter(loader)", status=RENAMED,
          gotchas=["it.next() returns a DataBatch (.data[0], .label[0]); next(it) on a "
                   "DataLoader's iterator a (x, y) tuple; both raise StopIteration at the end"],
          check=check("it = mx.io.NDArrayIter(x, y, batch_size=2)\n"
                      "b = it.next()\n[b.data[0], b.label[0]]",
                      "it = iter(torch.utils.data.DataLoader(" + _TS + ", batch_size=2))\n"
                      "xb, yb = next(it)\n[xb, yb]",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataIter.batch_size", torch="loader.batch_size", status=RENAMED,
          check=check("mx.io.NDArrayIter(x, y, batch_size=2).batch_size",
                      "torch.utils.data.DataLoader(" + _TS + ", batch_size=2).batch_size",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.io.DataDesc", torch="torch.Size(shape)  # only the shape matters",
          status=RECIPE, recipe="shape = torch.Size((batch_size, 3, 224, 224))  # PyTorch "
                                "takes shapes from the inputs at each call",
          args="name, shape → the shape; dtype (default float32), layout (default 'NCHW') "
               "→ nothing",
          gotchas=["DataDesc is a namedtuple (name, shape) with dtype and layout attributes; "
                   "Module.bind takes a list of them (or of (name, shape) pairs)"],
          check=check("d = mx.io.DataDesc('data', (2, 3))\n[d.name, tuple(d.shape)]",
                      "['data', tuple(torch.Size((2, 3)))]", kind="exact", dtypes=_ONE)),
]

_MNIST_T = ("torchvision.datasets.MNIST(root, train=True, transform=lambda im: "
            "torchvision.transforms.functional.pil_to_tensor(im) / 256)")

ENTRIES += [
    # ------------------------------------------------------------------ file iterators
    entry("mx.io.MNISTIter",
          torch="torch.utils.data.DataLoader(" + _MNIST_T + ", batch_size, shuffle=shuffle, "
                "drop_last=True)",
          status=COMPOSITE,
          args="image, label (idx-ubyte paths) → root (torchvision looks in root/MNIST/raw "
               "for the four unzipped files); batch_size → batch_size; shuffle → shuffle; "
               "flat=True → x.flatten(1)",
          defaults="shuffle=True (DataLoader: False); pixels scaled by 1/256 (torchvision's "
                   "ToTensor: 1/255); a last partial batch is dropped; labels float32 "
                   "(torchvision: int64)",
          gotchas=["measured: MNISTIter gives pixel 217 as 0.84765625 = 217/256, not "
                   "217/255; divide by 256 to get MXNet's numbers",
                   "6 images with batch_size 4 give one batch: the partial one is dropped"],
          check=check(_H + """write_mnist, tmpdir
              import os
              root = tmpdir()
              write_mnist(root, n=6, raw=True)
              raw = os.path.join(root, 'MNIST', 'raw')
              it = mx.io.MNISTIter(image=os.path.join(raw, 'train-images-idx3-ubyte'),
                                   label=os.path.join(raw, 'train-labels-idx1-ubyte'),
                                   batch_size=4, shuffle=False, silent=True)
              [(b.data[0], b.label[0]) for b in it]""".replace("\n              ", "\n"),
                      _H + """write_mnist, tmpdir
              import torchvision
              root = tmpdir()
              write_mnist(root, n=6, raw=True)
              ds = torchvision.datasets.MNIST(root, train=True, transform=lambda im:
                  torchvision.transforms.functional.pil_to_tensor(im) / 256)
              loader = torch.utils.data.DataLoader(ds, 4, shuffle=False, drop_last=True)
              [(xb, yb.float()) for xb, yb in loader]""".replace("\n              ", "\n"),
                      kind="exact", dtypes=_ONE)),
    entry("mx.io.ImageRecordIter",
          torch="torch.utils.data.DataLoader(sidebyside.recordio.RecordDataset(path_imgrec, "
                "path_imgidx, transform=torchvision.transforms.PILToTensor()), batch_size)",
          status=COMPOSITE,
          args="path_imgrec, path_imgidx → RecordDataset (sidebyside.recordio, no MXNet "
               "needed); data_shape → torchvision.transforms.Resize / CenterCrop; "
               "mean_r/g/b, std_r/g/b → transforms.Normalize (on 0–255 values); rand_crop, "
               "rand_mirror → RandomCrop, RandomHorizontalFlip; shuffle → shuffle",
          defaults="round_batch=True: the last batch is completed with the first samples "
                   "(pad > 0), a DataLoader's is shorter; values float32 in 0–255 "
                   "(ToTensor: 0–1)",
          gotchas=["images come out RGB, CHW; mx.recordio.pack_img expects BGR "
                   "(OpenCV): pack rgb[..., ::-1]",
                   "the iterator starts decoding threads: about 45 ms to open here"],
          check=check(_H + """tmpdir
              import os
              from sidebyside.catalogue.harness_legacy import problem
              d = tmpdir()
              rng = onp.random.default_rng(3)
              imgs = [rng.integers(0, 256, (6, 6, 3)).astype('uint8') for i in range(2)]
              w = mx.recordio.MXIndexedRecordIO(d + '/a.idx', d + '/a.rec', 'w')
              for i, im in enumerate(imgs):
                  head = mx.recordio.IRHeader(0, float(i + 1), i, 0)
                  w.write_idx(i, mx.recordio.pack_img(head, im[..., ::-1], img_fmt='.png'))
              w.close()
              it = mx.io.ImageRecordIter(path_imgrec=d + '/a.rec', path_imgidx=d + '/a.idx',
                                         data_shape=(3, 6, 6), batch_size=2)
              b = it.next()
              [b.data[0], b.label[0], imgs]""".replace("\n              ", "\n"),
                      _H + """tmpdir
              import torchvision
              import sidebyside.recordio
              d = tmpdir()
              rng = onp.random.default_rng(3)
              imgs = [rng.integers(0, 256, (6, 6, 3)).astype('uint8') for i in range(2)]
              w = sidebyside.recordio.IndexedRecordWriter(d + '/a.idx', d + '/a.rec')
              for i, im in enumerate(imgs):
                  head = sidebyside.recordio.IRHeader(0, float(i + 1), i, 0)
                  w.write_idx(i, sidebyside.recordio.pack_img(head, im, img_fmt='.png'))
              w.close()
              ds = sidebyside.recordio.RecordDataset(d + '/a.rec', d + '/a.idx',
                                                     transform=torchvision.transforms.PILToTensor())
              xb, yb = next(iter(torch.utils.data.DataLoader(ds, 2)))
              [xb.float(), yb.float(), imgs]""".replace("\n              ", "\n"),
                      kind="exact", dtypes=_ONE)),
    # ------------------------------------------------------------------ callbacks
    entry("mx.callback.Speedometer", torch="Speedometer(batch_size, frequent)",
          status=RECIPE, recipe=_SPEEDO,
          args="the callback gets BatchEndParam(epoch, nbatch, eval_metric, locals) → call "
               "it with (epoch, nbatch) after each batch",
          defaults="frequent=50; auto_reset=True resets the metric's local values at each "
                   "log line (with an eval_metric it also logs the metric)",
          gotchas=["the first batch of an epoch only starts the clock: frequent=2 over "
                   "batches 0..6 logs at 2, 4, 6"],
          check=check(_H + """capture_logs
              import re
              cb = mx.callback.Speedometer(batch_size=4, frequent=2)
              def run():
                  for epoch in range(2):
                      for n in range(7):
                          cb(mx.model.BatchEndParam(epoch, n, None, None))
              [re.sub(r'Speed: [0-9.]+', '', m) for m in capture_logs(run)]""".replace(
                "\n              ", "\n"),
                      _SPEEDO.strip() + "\n" + _H + """capture_logs
              import re
              cb = Speedometer(batch_size=4, frequent=2)
              def run():
                  for epoch in range(2):
                      for n in range(7):
                          cb(epoch, n)
              [re.sub(r'Speed: [0-9.]+', '', m) for m in capture_logs(run)]""".replace(
                "\n              ", "\n"), kind="exact", dtypes=_ONE)),
    entry("mx.callback.do_checkpoint", torch="do_checkpoint(prefix, period)",
          status=RECIPE, recipe=_CKPT,
          args="MXNet calls it with (epoch, symbol, arg_params, aux_params) at each epoch's "
               "end → call it with (epoch, model)",
          gotchas=["the file of epoch e (0-based) is numbered e + 1: prefix-0001.params after "
                   "the first epoch; with period=2 epochs 2, 4, … are saved"],
          check=check(_H + """tmpdir, mx_arrays, mx_symbol
              import os
              d = tmpdir()
              x, y, params = mx_arrays(dtype)
              cb = mx.callback.do_checkpoint(os.path.join(d, 'mlp'), period=2)
              for epoch in range(5):
                  cb(epoch, mx_symbol(), params, {})
              sorted(f.split('.')[0] for f in os.listdir(d) if f.endswith('.params'))""".replace(
                "\n              ", "\n"),
                      _CKPT.strip() + "\n" + _H + """tmpdir
              import os
              d = tmpdir()
              model = torch.nn.Linear(4, 3)
              cb = do_checkpoint(os.path.join(d, 'mlp'), period=2)
              for epoch in range(5):
                  cb(epoch, model)
              sorted(f.split('.')[0] for f in os.listdir(d))""".replace("\n              ", "\n"),
                      kind="exact", dtypes=_ONE)),
]

_R = "sidebyside.recordio"
_RGOT = ("sidebyside.recordio reads and writes MXNet's .rec/.idx files without MXNet, byte "
         "for byte (the check writes with MXNet and reads with it)")
_KVG = ("a KVStore push sums the values (over the devices' list, and over the workers in "
        "dist_sync); DistributedDataParallel averages gradients over the workers: with "
        "MXNet's rescale_grad=1/batch_size per worker, the steps agree only when the "
        "learning rate or the scale is adjusted by the number of workers")
_PG = ("torch.distributed.init_process_group('gloo', store=torch.distributed.HashStore(), "
       "rank=0, world_size=1)\n")
_REC_MX = """
import os
from sidebyside.catalogue.harness_legacy import tmpdir, SHARED
d = tmpdir()
recs = [b'first', b'x' * 9, b'\\x0a\\x23\\xd7\\xce' * 2 + b'magic inside', b'']
w = mx.recordio.MXRecordIO(os.path.join(d, 'a.rec'), 'w')
for r in recs:
    w.write(r)
w.close()
SHARED['rec'] = os.path.join(d, 'a.rec')
r = mx.recordio.MXRecordIO(SHARED['rec'], 'r')
out = []
while True:
    item = r.read()
    if item is None:
        break
    out.append(item)
out"""

ENTRIES += [
    # ------------------------------------------------------------------ KVStore
    entry("mx.kv.create",
          torch="torch.distributed.init_process_group(backend)  # for 'dist_sync'; "
                "'local' / 'device': no group, sum the devices' gradients",
          status=RECIPE,
          recipe="# 'dist_sync' / 'dist_device_sync' (launched with torchrun):\n"
                 "torch.distributed.init_process_group('nccl')   # 'gloo' on CPUs\n"
                 "model = torch.nn.parallel.DistributedDataParallel(model)\n"
                 "# 'local' / 'device' (one process): nothing; 'dist_async': no counterpart",
          args="name 'local' / 'device' → nothing in one process; 'dist_sync' → "
               "init_process_group + DistributedDataParallel; 'dist_async' → none "
               "(PyTorch's collectives are synchronous); 'horovod' → horovod.torch",
          gotchas=[_KVG, "the check runs a one-process gloo group: all_reduce with SUM of "
                   "the devices' sum gives the KVStore's push/pull result"],
          check=check("""
              kv = mx.kv.create('local')
              kv.init(0, nd.zeros((2, 3), dtype=dtype))
              kv.push(0, [g1, g2])
              out = nd.zeros((2, 3), dtype=dtype)
              kv.pull(0, out=out)
              [kv.rank, kv.num_workers, out]""", _PG + """
              t = g1 + g2
              torch.distributed.all_reduce(t, op=torch.distributed.ReduceOp.SUM)
              res = [torch.distributed.get_rank(), torch.distributed.get_world_size(), t]
              torch.distributed.destroy_process_group()
              res""".replace("\n              ", "\n"),
                      inputs="g1=U(2, 3); g2=U(2, 3)", kind="exact", dtypes=_ONE)),
    entry("mx.kv.KVStore.rank", torch="torch.distributed.get_rank()", status=RENAMED,
          gotchas=["0 without a process group in MXNet ('local'); PyTorch's get_rank() "
                   "needs init_process_group first"],
          check=check("mx.kv.create('local').rank",
                      _PG + "r = torch.distributed.get_rank()\n"
                      "torch.distributed.destroy_process_group()\nr", kind="exact",
                      dtypes=_ONE)),
    entry("mx.kv.KVStore.num_workers", torch="torch.distributed.get_world_size()",
          status=RENAMED,
          check=check("mx.kv.create('local').num_workers",
                      _PG + "n = torch.distributed.get_world_size()\n"
                      "torch.distributed.destroy_process_group()\nn", kind="exact",
                      dtypes=_ONE)),
    entry("mx.kv.KVStore.push",
          torch="torch.distributed.all_reduce(value, op=torch.distributed.ReduceOp.SUM)  "
                "# value: the sum over this process's devices",
          status=COMPOSITE,
          args="key → nothing (one call per tensor, or DDP's buckets); value (a list, one per "
               "device) → their sum; priority → nothing",
          gotchas=[_KVG],
          check=check("""
              kv = mx.kv.create('local')
              kv.init('w', nd.zeros((2, 3), dtype=dtype))
              kv.push('w', [g1, g2, g1])
              out = nd.zeros((2, 3), dtype=dtype)
              kv.pull('w', out=out)
              out""", _PG + """
              value = g1 + g2 + g1
              torch.distributed.all_reduce(value, op=torch.distributed.ReduceOp.SUM)
              torch.distributed.destroy_process_group()
              value""".replace("\n              ", "\n"),
                      inputs="g1=U(2, 3); g2=U(2, 3)", kind="exact", dtypes=_ONE)),
    entry("mx.kv.KVStore.pull", torch="value  # all_reduce leaves the result in place",
          status=RECIPE, recipe="# nothing to call: after torch.distributed.all_reduce(value)"
                                " every process holds the reduced tensor in `value`",
          args="out (a list: one copy per device) → value.to(device) for each",
          gotchas=["pull without a push returns what init stored (worker 0's value): "
                   "torch.distributed.broadcast(value, src=0)"],
          check=check("""
              kv = mx.kv.create('local')
              kv.init(3, g1)
              out = nd.zeros((2, 3), dtype=dtype)
              kv.pull(3, out=out)
              out""", _PG + """
              value = g1.clone()
              torch.distributed.broadcast(value, src=0)
              torch.distributed.destroy_process_group()
              value""".replace("\n              ", "\n"),
                      inputs="g1=U(2, 3)", kind="exact", dtypes=_ONE)),
    # ------------------------------------------------------------------ RecordIO
    entry("mx.recordio.pack", torch="sidebyside.recordio.pack(header, s)", status=RENAMED,
          gotchas=[_RGOT, "a list of labels is stored after the header (flag = their "
                   "count, header label 0)"],
          check=check("""
              [mx.recordio.pack(mx.recordio.IRHeader(0, 3.0, 7, 0), b'payload'),
               mx.recordio.pack(mx.recordio.IRHeader(0, [1.0, 2.5], 8, 1), b'two labels')]""",
                      """
              import sidebyside.recordio
              [sidebyside.recordio.pack(sidebyside.recordio.IRHeader(0, 3.0, 7, 0), b'payload'),
               sidebyside.recordio.pack(sidebyside.recordio.IRHeader(0, [1.0, 2.5], 8, 1),
                                        b'two labels')]""", kind="exact", dtypes=_ONE)),
    entry("mx.recordio.unpack", torch="sidebyside.recordio.unpack(s)", status=RENAMED,
          gotchas=[_RGOT, "with flag > 0 the header's label is a float32 array of flag "
                   "labels"],
          check=check("""
              from sidebyside.catalogue.harness_legacy import SHARED
              SHARED['packed'] = mx.recordio.pack(mx.recordio.IRHeader(0, [1.0, 2.5], 8, 1),
                                                  b'two labels')
              h, rest = mx.recordio.unpack(SHARED['packed'])
              [h.flag, h.label, h.id, h.id2, rest]""", """
              import sidebyside.recordio
              from sidebyside.catalogue.harness_legacy import SHARED
              h, rest = sidebyside.recordio.unpack(SHARED['packed'])
              [h.flag, h.label, h.id, h.id2, rest]""", kind="exact", dtypes=_ONE)),
    entry("mx.recordio.IRHeader", torch="sidebyside.recordio.IRHeader(flag, label, id, id2)",
          status=RENAMED, gotchas=[_RGOT],
          check=check("list(mx.recordio.IRHeader(0, 2.0, 5, 0))",
                      "import sidebyside.recordio\n"
                      "list(sidebyside.recordio.IRHeader(0, 2.0, 5, 0))",
                      kind="exact", dtypes=_ONE)),
    entry("mx.recordio.MXRecordIO",
          torch="sidebyside.recordio.RecordReader(uri)  # flag='r'; flag='w': "
                "sidebyside.recordio.RecordWriter(uri)",
          status=ARGS, args="uri → rec_path; flag 'r' / 'w' → RecordReader / RecordWriter "
                            "(read(), write(s), close(), tell() as in MXNet)",
          gotchas=[_RGOT, "the check's records include the magic word 0xced7230a inside a "
                   "payload, which the writer splits into frames"],
          check=check(_REC_MX, """
              import sidebyside.recordio
              from sidebyside.catalogue.harness_legacy import SHARED
              r = sidebyside.recordio.RecordReader(SHARED['rec'])
              out = []
              while True:
                  item = r.read()
                  if item is None:
                      break
                  out.append(item)
              out""", kind="exact", dtypes=_ONE)),
    entry("mx.recordio.MXIndexedRecordIO",
          torch="sidebyside.recordio.IndexedRecordReader(idx_path, uri)  # flag='r'; "
                "flag='w': sidebyside.recordio.IndexedRecordWriter(idx_path, uri)",
          status=ARGS, args="idx_path, uri → the same; flag 'r' / 'w' → IndexedRecordReader "
                            "/ IndexedRecordWriter; key_type → key_type (read_idx, "
                            "write_idx, keys as in MXNet)",
          gotchas=[_RGOT],
          check=check("""
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir, SHARED
              d = tmpdir()
              SHARED['idx'] = (os.path.join(d, 'a.idx'), os.path.join(d, 'a.rec'))
              w = mx.recordio.MXIndexedRecordIO(*SHARED['idx'], 'w')
              for k in (5, 2, 9):
                  w.write_idx(k, b'record %d' % k)
              w.close()
              r = mx.recordio.MXIndexedRecordIO(*SHARED['idx'], 'r')
              [list(r.keys), [r.read_idx(k) for k in (9, 5, 2)]]""", """
              import sidebyside.recordio
              from sidebyside.catalogue.harness_legacy import SHARED
              r = sidebyside.recordio.IndexedRecordReader(*SHARED['idx'])
              [list(r.keys), [r.read_idx(k) for k in (9, 5, 2)]]""", kind="exact",
                      dtypes=_ONE)),
    # ------------------------------------------------------------------ profiler, test_utils
    entry("mx.profiler.set_state",
          torch="torch.profiler.profile()  # a context manager: 'run' on entry, 'stop' on "
                "exit",
          status=RECIPE,
          recipe="with torch.profiler.profile() as prof:      # set_state('run') … "
                 "set_state('stop')\n    train_step()\n"
                 "print(prof.key_averages().table())           # mx.profiler.dumps()\n"
                 "prof.export_chrome_trace('profile.json')     # mx.profiler.dump()",
          args="state 'run' / 'stop' → entering / leaving the context (or prof.start() / "
               "prof.stop()); set_config(filename=…) → prof.export_chrome_trace(filename)",
          gotchas=["both record operator names: FullyConnected in MXNet's dumps(), "
                   "aten::linear / aten::addmm in PyTorch's table"],
          check=check("""
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              mx.profiler.set_config(profile_all=True, aggregate_stats=True,
                                     filename=os.path.join(tmpdir(), 'profile.json'))
              mx.profiler.set_state('run')
              nd.FullyConnected(x, w, num_hidden=4, no_bias=True).wait_to_read()
              mx.profiler.set_state('stop')
              'FullyConnected' in mx.profiler.dumps(reset=True)""", """
              with torch.profiler.profile() as prof:
                  F.linear(x, w)
              any(e.key == 'aten::linear' for e in prof.key_averages())""",
                      inputs="x=U(2, 3); w=U(4, 3)", kind="exact", dtypes=_ONE)),
    entry("mx.test_utils.download", torch="torch.hub.download_url_to_file(url, dst)",
          status=ARGS,
          args="url → url; fname / dirname → dst (a full path); overwrite=False → check "
               "os.path.exists(dst) first; retries → none",
          defaults="fname: the URL's last part, in the working directory; an existing file "
                   "is not downloaded again",
          gotchas=["mx.test_utils.download returns the file's path; download_url_to_file "
                   "returns None"],
          check=check("""
              import os
              from sidebyside.catalogue.harness_legacy import serve, tmpdir
              url, stop = serve(b'some bytes ' * 50, 'data.bin')
              try:
                  path = mx.test_utils.download(url, dirname=tmpdir())
              finally:
                  stop()
              [os.path.basename(path), open(path, 'rb').read()]""", """
              import os
              from sidebyside.catalogue.harness_legacy import serve, tmpdir
              url, stop = serve(b'some bytes ' * 50, 'data.bin')
              dst = os.path.join(tmpdir(), url.rsplit('/', 1)[1])
              try:
                  torch.hub.download_url_to_file(url, dst, progress=False)
              finally:
                  stop()
              [os.path.basename(dst), open(dst, 'rb').read()]""", kind="exact", dtypes=_ONE)),
    entry("mx.test_utils.get_mnist",
          torch="torchvision.datasets.MNIST(root, train=True, download=True, "
                "transform=torchvision.transforms.ToTensor())",
          status=COMPOSITE,
          args="nothing → root (get_mnist downloads the four .gz files into the working "
               "directory); the returned dict → two datasets (train=True / False): "
               "train_data = torch.stack([x for x, _ in ds]), train_label = ds.targets",
          gotchas=["get_mnist's labels are int8 (torchvision's targets int64); its images "
                   "are float32 (N, 1, 28, 28) scaled by 1/255, like ToTensor (MNISTIter "
                   "scales by 1/256)",
                   "the check writes tiny MNIST files; get_mnist reuses files already "
                   "in the working directory"],
          check=check("""
              from sidebyside.catalogue.harness_legacy import write_mnist, tmpdir, in_dir
              root = tmpdir()
              write_mnist(root, n=3, gz=True)
              with in_dir(root):
                  m = mx.test_utils.get_mnist()
              [m['train_data'], m['train_label'], m['test_data'], m['test_label']]""", """
              import torchvision
              from sidebyside.catalogue.harness_legacy import write_mnist, tmpdir
              root = tmpdir()
              write_mnist(root, n=3, raw=True)
              out = []
              for train in (True, False):
                  ds = torchvision.datasets.MNIST(root, train=train, download=True,
                                                  transform=torchvision.transforms.ToTensor())
                  out += [torch.stack([x for x, _ in ds]), ds.targets]
              out""", kind="exact", dtypes=_ONE)),
]

_ITER_MX = '''
class Squares(mx.io.DataIter):
    """A custom iterator: batches of (i, i*i), i = 0..n-1."""

    def __init__(self, n, batch_size):
        super().__init__(batch_size)
        self.n, self.i = n, 0

    def reset(self):
        self.i = 0

    def next(self):
        if self.i + self.batch_size > self.n:
            raise StopIteration
        i = nd.arange(self.i, self.i + self.batch_size, dtype=dtype)
        self.i += self.batch_size
        return mx.io.DataBatch([i], [i * i])
'''

_ITER_PT = '''
class Squares(torch.utils.data.IterableDataset):
    """The same data as an IterableDataset: each iteration is a new pass (no reset)."""

    def __init__(self, n, batch_size):
        self.n, self.batch_size = n, batch_size

    def __iter__(self):
        for i in range(0, self.n - self.batch_size + 1, self.batch_size):
            x = torch.arange(i, i + self.batch_size, dtype=dtype)
            yield x, x * x
'''

ENTRIES += [
    entry("mx.io.DataIter", torch="torch.utils.data.IterableDataset  # subclass it: "
                                  "__iter__ yields the batches",
          status=RECIPE, recipe=_ITER_PT,
          args="batch_size → the dataset's own, or DataLoader(dataset, batch_size=None) "
               "around an IterableDataset that yields whole batches; next() / reset() → "
               "one generator __iter__ (each for loop starts over); provide_data / "
               "provide_label → nothing",
          gotchas=["an IterableDataset used with DataLoader(num_workers>0) runs in every "
                   "worker: split the data by torch.utils.data.get_worker_info()"],
          check=check(_ITER_MX.strip() + "\nit = Squares(7, 3)\nout = []\nfor e in range(2):\n"
                      "    out += [(b.data[0], b.label[0]) for b in it]\n    it.reset()\nout",
                      _ITER_PT.strip() + "\nds = Squares(7, 3)\nout = []\nfor e in range(2):\n"
                      "    out += [(xb, yb) for xb, yb in torch.utils.data.DataLoader(ds, "
                      "batch_size=None)]\nout", kind="exact", dtypes=_ONE)),
    entry("mx.io.PrefetchingIter",
          torch="torch.utils.data.DataLoader(dataset, batch_size, num_workers=1, "
                "prefetch_factor=2)",
          status=ARGS,
          args="iters (an iterator, or a list whose batches are joined) → the DataLoader "
               "of the dataset; the background thread → num_workers (processes), "
               "prefetch_factor; rename_data / rename_label → nothing",
          gotchas=["PrefetchingIter reads one batch ahead in a thread; DataLoader's workers "
                   "are processes (num_workers=0 reads in the main process)"],
          check=check("""
              it = mx.io.PrefetchingIter(mx.io.NDArrayIter(x, y, batch_size=2,
                                                           last_batch_handle='discard'))
              [(b.data[0], b.label[0]) for b in it]""",
                      "loader = torch.utils.data.DataLoader(" + _TS + ", 2, drop_last=True, "
                      "num_workers=0)\n[(xb, yb) for xb, yb in loader]",
                      inputs="x=U(5, 3); y=A([0, 1, 2, 0, 1])", kind="exact", dtypes=_ONE)),
    entry("mx.kv.KVStore.init", torch="torch.distributed.broadcast(value, src=0)",
          status=COMPOSITE,
          args="key → nothing; value → the tensor every worker gets from worker 0 "
               "(DistributedDataParallel does it for the parameters when it wraps the model)",
          check=check("""
              kv = mx.kv.create('local')
              kv.init('w', g1)
              out = nd.zeros((2, 3), dtype=dtype)
              kv.pull('w', out=out)
              out""", _PG + """
              value = g1.clone()
              torch.distributed.broadcast(value, src=0)
              torch.distributed.destroy_process_group()
              value""".replace("\n              ", "\n"),
                      inputs="g1=U(2, 3)", kind="exact", dtypes=_ONE)),
    entry("mx.test_utils.list_gpus", torch="list(range(torch.cuda.device_count()))",
          status=COMPOSITE,
          gotchas=["list_gpus runs nvidia-smi; torch.cuda.device_count asks the CUDA "
                   "runtime (and honours CUDA_VISIBLE_DEVICES)"],
          check=check("list(mx.test_utils.list_gpus())",
                      "list(range(torch.cuda.device_count()))", kind="exact", dtypes=_ONE)),
    entry("mx.test_utils.assert_almost_equal",
          torch="torch.testing.assert_close(a, b, rtol=rtol, atol=atol)", status=ARGS,
          args="a, b → actual, expected (|a − b| ≤ atol + rtol·|b| on both sides); rtol, "
               "atol → rtol, atol; equal_nan → equal_nan; names → msg",
          defaults="MXNet: float32 rtol 1e-4, atol 1e-3; float64 rtol 1e-5, atol 1e-20; "
                   "PyTorch: float32 rtol 1.3e-6, atol 1e-5; float64 rtol 1e-7, atol 1e-7; "
                   "assert_close also requires equal dtypes (check_dtype=False to lift)",
          check=check(_H + """tolerance_verdicts
              tolerance_verdicts(lambda a, b: mx.test_utils.assert_almost_equal(
                  a, b, rtol=1e-4, atol=1e-3), lambda v: v)""".replace("\n              ", "\n"),
                      _H + """tolerance_verdicts
              tolerance_verdicts(lambda a, b: torch.testing.assert_close(
                  a, b, rtol=1e-4, atol=1e-3), torch.from_numpy)""".replace(
                "\n              ", "\n"), kind="exact", dtypes=_ONE)),
    entry("mx.profiler.set_config",
          torch="torch.profiler.profile(record_shapes=True, profile_memory=True)",
          status=ARGS,
          args="profile_all / profile_symbolic / profile_imperative → activities="
               "[torch.profiler.ProfilerActivity.CPU, …CUDA]; profile_memory → "
               "profile_memory; filename → prof.export_chrome_trace(filename); "
               "aggregate_stats → prof.key_averages()",
          check=check("""
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              mx.profiler.set_config(profile_all=True, aggregate_stats=True,
                                     profile_memory=True,
                                     filename=os.path.join(tmpdir(), 'profile.json'))
              mx.profiler.set_state('run')
              nd.dot(x, w).wait_to_read()
              mx.profiler.set_state('stop')
              'dot' in mx.profiler.dumps(reset=True)""", """
              with torch.profiler.profile(record_shapes=True, profile_memory=True) as prof:
                  torch.matmul(x, w)
              any(e.key == 'aten::matmul' for e in prof.key_averages())""",
                      inputs="x=U(2, 3); w=U(3, 4)", kind="exact", dtypes=_ONE)),
]

ENTRIES += [
    entry("mx.recordio.unpack_img",
          torch="sidebyside.recordio.unpack_img(s)  # RGB: MXNet's (BGR) is [..., ::-1]",
          status=ARGS,
          args="s → s; iscolor → mode ('L' grayscale, 'RGB'); the array comes back RGB "
               "(MXNet: BGR, through OpenCV) and always HWC ((H, W, 1) for grayscale)",
          gotchas=[_RGOT, "channel order: unpack_img(s)[1] == mx.recordio.unpack_img(s)[1]"
                   "[..., ::-1] for a colour record"],
          check=check("""
              from sidebyside.catalogue.harness_legacy import SHARED
              SHARED['img'] = mx.recordio.pack_img(mx.recordio.IRHeader(0, 1.0, 2, 0),
                                                   img.asnumpy(), img_fmt='.png')
              h, bgr = mx.recordio.unpack_img(SHARED['img'])
              [list(h), bgr]""", """
              import sidebyside.recordio
              from sidebyside.catalogue.harness_legacy import SHARED
              h, rgb = sidebyside.recordio.unpack_img(SHARED['img'])
              [list(h), rgb[..., ::-1]]""", inputs="img=IMG(4, 5)", kind="exact",
                      dtypes=_ONE)),
    entry("mx.recordio.pack_img",
          torch="sidebyside.recordio.pack_img(header, img[..., ::-1], quality, img_fmt)  "
                "# it takes RGB, MXNet's BGR",
          status=ARGS,
          args="header, quality, img_fmt → the same; img: MXNet's is BGR (OpenCV), ours RGB "
               "(PIL): pass img[..., ::-1] for the same record",
          gotchas=[_RGOT, "JPEG bytes differ between OpenCV's and PIL's encoders; PNG "
                   "pixels are equal (the check decodes both with MXNet)"],
          check=check("""
              h, out = mx.recordio.unpack_img(mx.recordio.pack_img(
                  mx.recordio.IRHeader(0, 4.0, 1, 0), img.asnumpy(), img_fmt='.png'))
              [list(h), out]""", """
              import mxnet
              import sidebyside.recordio
              s = sidebyside.recordio.pack_img(sidebyside.recordio.IRHeader(0, 4.0, 1, 0),
                                               img.numpy()[..., ::-1], img_fmt='.png')
              h, out = mxnet.recordio.unpack_img(s)
              [list(h), out]""", inputs="img=IMG(4, 5)", kind="exact", dtypes=_ONE)),
    entry("mx.profiler.dumps", torch="prof.key_averages().table()  # prof: a "
                                     "torch.profiler.profile",
          status=RENAMED,
          args="reset=True → a new profile context; format / sort_by → table(sort_by=…)",
          check=check("""
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              mx.profiler.set_config(profile_all=True, aggregate_stats=True,
                                     filename=os.path.join(tmpdir(), 'profile.json'))
              mx.profiler.set_state('run')
              nd.dot(x, w).wait_to_read()
              mx.profiler.set_state('stop')
              'dot' in mx.profiler.dumps(reset=True)""", """
              with torch.profiler.profile() as prof:
                  torch.matmul(x, w)
              'aten::matmul' in prof.key_averages().table()""",
                      inputs="x=U(2, 3); w=U(3, 4)", kind="exact", dtypes=_ONE)),
    entry("mx.profiler.dump", torch="prof.export_chrome_trace(filename)  # prof: a "
                                    "torch.profiler.profile",
          status=ARGS,
          args="the file named by set_config(filename=…) → export_chrome_trace(filename); "
               "finished → nothing (PyTorch's profile ends with its with-block)",
          defaults="finished=True closes the trace: measured, a later set_config in the "
                   "same process raises MXNetError; with finished=False the file is "
                   "unterminated JSON, and only the first dump of a process starts with the "
                   "'traceEvents' header (the check reads the file as text)",
          gotchas=["both write Chrome-trace JSON (a 'traceEvents' list): chrome://tracing "
                   "or Perfetto opens either"],
          check=check("""
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              path = os.path.join(tmpdir(), 'profile.json')
              mx.profiler.set_config(profile_all=True, filename=path)
              mx.profiler.set_state('run')
              nd.dot(x, w).wait_to_read()
              mx.profiler.set_state('stop')
              mx.profiler.dump(finished=False)
              text = open(path).read()
              '"name": "dot"' in text""",
                      """
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              path = os.path.join(tmpdir(), 'trace.json')
              with torch.profiler.profile() as prof:
                  torch.matmul(x, w)
              prof.export_chrome_trace(path)
              text = open(path).read()
              '"name": "aten::matmul"' in text""",
                      inputs="x=U(2, 3); w=U(3, 4)", kind="exact", dtypes=_ONE)),
    entry("mx.io.CSVIter",
          torch="padded_loader(torch.utils.data.TensorDataset(torch.from_numpy("
                "numpy.loadtxt(data_csv, delimiter=',', dtype='float32'))), batch_size)",
          status=RECIPE, recipe=_PAD,
          args="data_csv, label_csv → numpy.loadtxt of each, in a TensorDataset; "
               "data_shape → .reshape(-1, *data_shape); batch_size → batch_size",
          defaults="round_batch=True: the last batch wraps around to the first rows (pad > "
                   "0), as NDArrayIter's 'pad'; values float32",
          gotchas=["MXNet's CSV parser is not correctly rounded: -0.96694475 (numpy's "
                   "float32 of the same text) came back as -0.9669447, one float32 step "
                   "off; the check uses values exact in binary",
                   "measured: 5 rows, batch 2 → pads 0, 0, 1 in the first pass; after "
                   "reset() the pass yields 2 batches (pad 0, 0): it continues after the "
                   "wrapped rows"],
          check=check("""
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              d = tmpdir()
              onp.savetxt(os.path.join(d, 'x.csv'), x.asnumpy(), delimiter=',')
              onp.savetxt(os.path.join(d, 'y.csv'), y.asnumpy(), delimiter=',')
              it = mx.io.CSVIter(data_csv=os.path.join(d, 'x.csv'), data_shape=(3,),
                                 label_csv=os.path.join(d, 'y.csv'), batch_size=2)
              [(b.data[0], b.label[0], b.pad) for b in it]""",
                      _PAD.strip() + "\n" + textwrap.dedent("""
              import os
              import numpy
              from sidebyside.catalogue.harness_legacy import tmpdir
              d = tmpdir()
              onp.savetxt(os.path.join(d, 'x.csv'), x.numpy(), delimiter=',')
              onp.savetxt(os.path.join(d, 'y.csv'), y.numpy(), delimiter=',')
              ds = torch.utils.data.TensorDataset(
                  torch.from_numpy(numpy.loadtxt(os.path.join(d, 'x.csv'), delimiter=',',
                                                 dtype='float32')),
                  torch.from_numpy(numpy.loadtxt(os.path.join(d, 'y.csv'), delimiter=',',
                                                 dtype='float32')))
              [(xb, yb, 2 - len(set(range(2)) & set(range(5 - 2 * i)))) for i, (xb, yb)
               in enumerate(padded_loader(ds, 2))]""").strip(),
                      inputs="x=A([[0, .25, .5], [.75, 1, 1.25], [1.5, 1.75, 2], [2.25, 2.5, 2.75], "
                             "[3, 3.25, 3.5]]); y=A([0, 1, 2, 0, 1])", kind="exact",
                      dtypes=_ONE)),
]

_SUMS = ("[sorted(float(v) for v in onp.asarray(X, dtype='float64').reshape(len(X), -1)"
         ".sum(1)), sorted(float(v) for v in Y)]")

ENTRIES += [
    entry("mx.test_utils.get_mnist_iterator",
          torch="torch.utils.data.DataLoader(" + _MNIST_T + ", batch_size, shuffle=True, "
                "drop_last=True)",
          status=COMPOSITE,
          args="batch_size → batch_size; input_shape (1, 28, 28) → the transform's output "
               "(a 1-d input_shape: flatten); the pair (train, val) → two DataLoaders "
               "(train=True / False); num_parts, part_index → a DistributedSampler",
          defaults="both iterators shuffle (MNISTIter's default, the validation one too); "
                   "pixels scaled by 1/256; the last partial batch is dropped",
          gotchas=["get_mnist_iterator reads (or downloads and unzips) ./data/*-ubyte "
                   "files in the working directory",
                   "the check compares one epoch's samples as sorted sums, the order being "
                   "random on both sides"],
          check=check(_H + """write_mnist, tmpdir, in_dir
              import os
              root = tmpdir()
              write_mnist(os.path.join(root, 'data'), n=8)
              with in_dir(root):
                  train, val = mx.test_utils.get_mnist_iterator(4, (1, 28, 28))
                  batches = [(b.data[0].asnumpy(), b.label[0].asnumpy()) for b in val]
              X = onp.concatenate([b[0] for b in batches])
              Y = onp.concatenate([b[1] for b in batches])
              """.replace("\n              ", "\n") + _SUMS,
                      _H + """write_mnist, tmpdir
              import torchvision
              root = tmpdir()
              write_mnist(root, n=8, raw=True)
              ds = torchvision.datasets.MNIST(root, train=False, transform=lambda im:
                  torchvision.transforms.functional.pil_to_tensor(im) / 256)
              loader = torch.utils.data.DataLoader(ds, 4, shuffle=True, drop_last=True)
              batches = [(xb.numpy(), yb.numpy()) for xb, yb in loader]
              X = onp.concatenate([b[0] for b in batches])
              Y = onp.concatenate([b[1] for b in batches])
              """.replace("\n              ", "\n") + _SUMS, kind="exact", dtypes=_ONE)),
]

ENTRIES += [
    entry("mx.contrib.io.DataLoaderIter",
          torch="torch.utils.data.DataLoader(dataset, batch_size)  # the loader is the iterator",
          status=RECIPE,
          recipe="""
              # a Module-era loop over DataLoaderIter(loader) → iterate the loader itself:
              for x, y in torch.utils.data.DataLoader(dataset, batch_size=10):
                  ...            # batch.data[0] → x, batch.label[0] → y (the last batch short)""",
          args="loader → the DataLoader itself; data_name/label_name → the tuple's positions; "
               "batch.pad → (none: the last batch is short)",
          gotchas=["it pads a short last batch to the full size with uninitialised rows (not "
                   "repeated samples) and reports pad; labels come back float32",
                   "a second pass needs reset(); a DataLoader starts again by itself"],
          teach="18_legacy_data_recordio §5. `mx.contrib.io.DataLoaderIter`: a Gluon "
                "`DataLoader` as an `mx.io` iterator",
          check=check("""
              loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=4)
              it = mx.contrib.io.DataLoaderIter(loader)
              bs = [(b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad) for b in it]
              [(d[:len(d) - p], l[:len(l) - p].astype('int64'), p) for d, l, p in bs]""", """
              ds = torch.utils.data.TensorDataset(x, y)
              bs = [(xb, yb) for xb, yb in torch.utils.data.DataLoader(ds, batch_size=4)]
              [(xb, yb, 4 - len(xb)) for xb, yb in bs]""",
              inputs="x=U(10, 3); y=I(0, 5, (10,))", dtypes=("float32",),
              note="float32 only: DataLoaderIter casts the data to its dtype= (float32)")),
]
