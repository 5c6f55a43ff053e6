"""``mx.gluon.data``: datasets, samplers and ``DataLoader`` (its forms) → ``torch.utils.data``."""
from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, check, entry

_NB4 = "04_data_loading §"
_FG = " " * 14 + "from sidebyside.catalogue.harness_data import frozen_gc, nonscalar\n"
_GC_NOTE = ("Gluon's DataLoader.__init__ runs gc.collect() twice (about 0.17 s each loader in "
            "this process): the check builds it inside gc.freeze() (harness_data.frozen_gc), "
            "which changes no batch.")
_DL_SIG = ("dataset", "batch_size", "shuffle", "sampler", "last_batch", "batch_sampler",
           "batchify_fn", "num_workers", "pin_memory", "pin_device_id", "prefetch",
           "thread_pool")

_ROLLOVER = '''class RolloverBatchSampler(torch.utils.data.Sampler):
    """Gluon's last_batch='rollover': the short last batch waits for the next epoch."""

    def __init__(self, sampler, batch_size):
        self.sampler, self.batch_size, self.carry = sampler, batch_size, []

    def __iter__(self):
        batch, self.carry = self.carry, []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        self.carry = batch

    def __len__(self):
        return (len(self.carry) + len(self.sampler)) // self.batch_size
'''

_MAP = '''class MapDataset(torch.utils.data.Dataset):
    """Gluon's dataset.transform(fn): fn(*sample) for a tuple sample, else fn(sample)."""

    def __init__(self, dataset, fn):
        self.dataset, self.fn = dataset, fn

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, i):
        s = self.dataset[i]
        return self.fn(*s) if isinstance(s, tuple) else self.fn(s)
'''

_BATCHES = "nonscalar([len(loader)] + [part for batch in loader for part in batch])"
_EPOCHS = "nonscalar([[len(loader)] + [part for b in loader for part in b] for epoch in range(3)])"

ENTRIES = [
    # ------------------------------------------------------------------ DataLoader and its forms
    entry("mx.gluon.data.DataLoader",
          torch="torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, "
                "sampler=sampler, batch_sampler=batch_sampler, collate_fn=batchify_fn, "
                "num_workers=num_workers, pin_memory=pin_memory, drop_last=False)",
          status=ARGS,
          args="dataset → dataset (an ArrayDataset → TensorDataset); batch_size → batch_size; "
               "shuffle → shuffle; sampler → sampler; last_batch=None|'keep' → drop_last=False "
               "('discard', 'rollover': their own forms); batch_sampler → batch_sampler; "
               "batchify_fn → collate_fn; num_workers → num_workers (Gluon forks one "
               "multiprocessing.Pool in the constructor, alive as long as the loader, its "
               "workers keep the parent's NumPy state; PyTorch starts workers per epoch, each "
               "reseeded — persistent_workers=True keeps them); pin_memory → pin_memory; "
               "pin_device_id → (the current accelerator); prefetch → "
               "prefetch_factor=prefetch // num_workers (Gluon counts batches in all, PyTorch "
               "per worker); thread_pool=True → its own form; timeout → timeout; "
               "auto_reload → —",
          defaults="batch_size None (an error unless batch_sampler is given) vs 1 (None turns "
                   "batching off); last_batch None = 'keep' vs drop_last=False; timeout 120 vs "
                   "0; prefetch 2·num_workers in all vs prefetch_factor 2 per worker",
          gotchas=["the batches keep the samples' dtypes on both sides: float64 rows stay "
                   "float64, int64 labels stay int64",
                   "len(loader) is the number of batches on both sides (the short last batch "
                   "counted)"],
          teach=_NB4 + "2. `DataLoader`'s signature: the seed's defaults, checked",
          note="With workers, Gluon's default batchify_fn puts batches in cpu_shared(0) "
               "memory (notebook 4 §7). The check uses num_workers=0.",
          check=check(_FG + """
              with frozen_gc():
                  loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, lab), batch_size=3)
              """ + _BATCHES, """
              from sidebyside.catalogue.harness_data import nonscalar
              ds = torch.utils.data.TensorDataset(x, lab)
              loader = torch.utils.data.DataLoader(ds, batch_size=3, shuffle=False,
                                                   drop_last=False)
              """ + _BATCHES, inputs="x=U(7, 3); lab=IA([0, 1, 2, 0, 1, 2, 0])",
              note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader", form="last_batch='discard'",
          when=["last_batch='discard'"], signature=_DL_SIG[:5],
          torch="torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, "
                "sampler=sampler, drop_last=True)",
          status=ARGS, args="last_batch='discard' → drop_last=True; the rest as the default form",
          teach=_NB4 + "3. The last batch: `drop_last` vs `last_batch`",
          check=check(_FG + """
              with frozen_gc():
                  loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, lab), batch_size=3,
                                                 last_batch='discard')
              """ + _EPOCHS, """
              from sidebyside.catalogue.harness_data import nonscalar
              ds = torch.utils.data.TensorDataset(x, lab)
              loader = torch.utils.data.DataLoader(ds, batch_size=3, drop_last=True)
              """ + _EPOCHS, inputs="x=U(7, 2); lab=IA([0, 1, 2, 3, 4, 5, 6])",
              dtypes=("float64",), note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader", form="last_batch='rollover'",
          when=["last_batch='rollover'"], signature=_DL_SIG[:5],
          torch="torch.utils.data.DataLoader(dataset, batch_sampler=RolloverBatchSampler("
                "torch.utils.data.SequentialSampler(dataset), batch_size))",
          status=RECIPE, recipe=_ROLLOVER,
          args="last_batch='rollover' → a batch_sampler that keeps the leftover indices "
               "(the recipe); shuffle=True → RolloverBatchSampler(RandomSampler(dataset), "
               "batch_size)",
          gotchas=["the leftovers live in the loader object: epoch 2 starts with epoch 1's "
                   "last samples, and len(loader) changes from epoch to epoch (2, 3, 2 "
                   "batches for 7 samples in batches of 3)"],
          teach=_NB4 + "3. The last batch: `drop_last` vs `last_batch`",
          check=check(_FG + """
              with frozen_gc():
                  loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, lab), batch_size=3,
                                                 last_batch='rollover')
              """ + _EPOCHS, _ROLLOVER + """
from sidebyside.catalogue.harness_data import nonscalar
ds = torch.utils.data.TensorDataset(x, lab)
loader = torch.utils.data.DataLoader(ds, batch_sampler=RolloverBatchSampler(
    torch.utils.data.SequentialSampler(ds), 3))
""" + _EPOCHS, inputs="x=U(7, 2); lab=IA([0, 1, 2, 3, 4, 5, 6])",
              dtypes=("float64",), note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader", form="batchify_fn", when=["batchify_fn"],
          signature=_DL_SIG[:7],
          torch="torch.utils.data.DataLoader(dataset, batch_size=batch_size, "
                "collate_fn=batchify_fn)",
          status=ARGS,
          args="batchify_fn → collate_fn: the same contract (the list of samples in, the "
               "batch out); return tensors instead of NDArrays",
          gotchas=["both defaults fail on ragged samples: a function of your own pads them "
                   "(here: to the longest, with the lengths)"],
          teach=_NB4 + "4. Merging samples into a batch: `collate_fn` vs `batchify_fn`",
          check=check(_FG + """
              seqs = [(onp.arange(n) + 1, n) for n in (3, 1, 2, 4, 2)]
              def pad(samples):
                  out = onp.zeros((len(samples), max(n for _, n in samples)), dtype='int64')
                  for row, (s, n) in enumerate(samples):
                      out[row, :n] = s
                  return nd.array(out, dtype='int64'), nd.array([n for _, n in samples])
              with frozen_gc():
                  loader = gluon.data.DataLoader(seqs, batch_size=2, batchify_fn=pad)
              [part for batch in loader for part in batch]""", """
              seqs = [(onp.arange(n) + 1, n) for n in (3, 1, 2, 4, 2)]
              def pad(samples):
                  out = torch.zeros((len(samples), max(n for _, n in samples)), dtype=torch.int64)
                  for row, (s, n) in enumerate(samples):
                      out[row, :n] = torch.from_numpy(s)
                  return out, torch.tensor([n for _, n in samples], dtype=torch.float32)
              loader = torch.utils.data.DataLoader(seqs, batch_size=2, collate_fn=pad)
              [part for batch in loader for part in batch]""", dtypes=("float32",),
              note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader", form="sampler", when=["sampler"], signature=_DL_SIG[:4],
          torch="torch.utils.data.DataLoader(dataset, batch_size=batch_size, sampler=sampler)",
          status=RENAMED, args="sampler → sampler (any iterable of indices on both sides); "
                               "shuffle must stay False on both (ValueError)",
          teach=_NB4 + "6. `sampler` and `batch_sampler`",
          check=check(_FG + """
              order = [4, 0, 6, 2, 5, 1, 3]
              with frozen_gc():
                  loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, lab), batch_size=3,
                                                 sampler=order)
              """ + _BATCHES, """
              from sidebyside.catalogue.harness_data import nonscalar
              order = [4, 0, 6, 2, 5, 1, 3]
              loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, lab),
                                                   batch_size=3, sampler=order)
              """ + _BATCHES, inputs="x=U(7, 2); lab=IA([0, 1, 2, 3, 4, 5, 6])",
              dtypes=("float64",), note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader", form="batch_sampler", when=["batch_sampler"],
          signature=_DL_SIG[:6],
          torch="torch.utils.data.DataLoader(dataset, batch_sampler=batch_sampler)",
          status=RENAMED,
          args="batch_sampler → batch_sampler (an iterable of lists of indices); batch_size, "
               "shuffle, sampler, last_batch must not be given (ValueError on both sides)",
          teach=_NB4 + "6. `sampler` and `batch_sampler`",
          check=check(_FG + """
              batches = [[6, 0], [1, 2, 3], [5]]
              with frozen_gc():
                  loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, lab),
                                                 batch_sampler=batches)
              """ + _BATCHES, """
              from sidebyside.catalogue.harness_data import nonscalar
              batches = [[6, 0], [1, 2, 3], [5]]
              loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, lab),
                                                   batch_sampler=batches)
              """ + _BATCHES, inputs="x=U(7, 2); lab=IA([0, 1, 2, 3, 4, 5, 6])",
              dtypes=("float64",), note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader", form="shuffle=True", when=["shuffle=True"],
          signature=_DL_SIG[:3],
          torch="torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True)",
          status=RENAMED,
          args="shuffle=True → shuffle=True (a new permutation every epoch on both sides)",
          gotchas=["Gluon draws the order from NumPy's global state (np.random.seed repeats "
                   "it, mx.random.seed does not); PyTorch from torch's generator (or the "
                   "loader's generator=)"],
          teach=_NB4 + "5. Samplers: `SequentialSampler` and `RandomSampler`",
          note="Checked: every epoch is a permutation of all samples, the epochs differ, and "
               "the sampler is a RandomSampler on both sides.",
          check=check(_FG + """
              onp.random.seed(0)
              with frozen_gc():
                  loader = gluon.data.DataLoader(list(range(20)), batch_size=6, shuffle=True)
              e1, e2 = ([int(i) for b in loader for i in b.asnumpy()] for _ in range(2))
              (sorted(e1) == list(range(20)), sorted(e2) == list(range(20)), e1 != e2,
               type(loader._batch_sampler._sampler).__name__, len(loader))""", """
              loader = torch.utils.data.DataLoader(list(range(20)), batch_size=6, shuffle=True)
              e1, e2 = ([int(i) for b in loader for i in b] for _ in range(2))
              (sorted(e1) == list(range(20)), sorted(e2) == list(range(20)), e1 != e2,
               type(loader.sampler).__name__, len(loader))""", kind="exact",
              dtypes=("float64",), note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader", form="thread_pool=True", when=["thread_pool=True"],
          signature=_DL_SIG,
          torch="torch.utils.data.DataLoader(dataset, batch_size=batch_size, num_workers=0)",
          status=ARGS,
          args="thread_pool=True, num_workers=n → no thread-pool loader in PyTorch: "
               "num_workers=0 loads in the main process (the same batches, the same process), "
               "num_workers=n in worker processes",
          note="Gluon's threads share the process (os.getpid() of every sample is the "
               "caller's); the check compares the batches and the process that loaded them.",
          check=check(_FG + """
              from sidebyside.catalogue.harness_data import nonscalar
              import os
              class WhoLoads(gluon.data.Dataset):
                  def __getitem__(self, i):
                      return onp.float32(i), os.getpid()
                  def __len__(self):
                      return 5
              with frozen_gc():
                  loader = gluon.data.DataLoader(WhoLoads(), batch_size=2, num_workers=2,
                                                 thread_pool=True)
              out = [(b[0], {int(p) for p in b[1].asnumpy()} == {os.getpid()}) for b in loader]
              del loader
              nonscalar(out)""", """
              from sidebyside.catalogue.harness_data import nonscalar
              import os
              class WhoLoads(torch.utils.data.Dataset):
                  def __getitem__(self, i):
                      return onp.float32(i), os.getpid()
                  def __len__(self):
                      return 5
              loader = torch.utils.data.DataLoader(WhoLoads(), batch_size=2, num_workers=0)
              nonscalar([(b[0], {int(p) for p in b[1]} == {os.getpid()}) for b in loader])""",
              dtypes=("float32",), note=_GC_NOTE)),
    entry("mx.gluon.data.DataLoader._dataset", torch="loader.dataset", status=RENAMED,
          args="the loader's private _dataset → the public attribute dataset",
          gotchas=["Gluon's DataLoader has no .dataset (AttributeError): a script's "
                   "len(loader.dataset) reads _dataset, or keeps its own reference"],
          teach=_NB4 + "8. A training script's loader: what Gluon does not have",
          check=check(_FG + """
              ds = gluon.data.ArrayDataset(x)
              with frozen_gc():
                  loader = gluon.data.DataLoader(ds, batch_size=2)
              (loader._dataset is ds, len(loader._dataset), hasattr(loader, 'dataset'))""", """
              ds = torch.utils.data.TensorDataset(x)
              loader = torch.utils.data.DataLoader(ds, batch_size=2)
              (loader.dataset is ds, len(loader.dataset), not hasattr(loader, 'dataset'))""",
              inputs="x=U(5, 2)", kind="exact", dtypes=("float64",), note=_GC_NOTE)),
    # ------------------------------------------------------------------------------- datasets
    entry("mx.gluon.data.Dataset", torch="torch.utils.data.Dataset", status=RENAMED,
          args="subclass it and define __getitem__ and __len__ on both sides",
          gotchas=["NumPy float32 scalars batch to float32 and Python ints to int64 on both "
                   "sides"],
          check=check(_FG + """
              class Squares(gluon.data.Dataset):
                  def __getitem__(self, i):
                      return onp.float32(i * i), i
                  def __len__(self):
                      return 5
              ds = Squares()
              with frozen_gc():
                  loader = gluon.data.DataLoader(ds, batch_size=2)
              nonscalar([len(ds), ds[3]] + [part for batch in loader for part in batch])""", """
              from sidebyside.catalogue.harness_data import nonscalar
              class Squares(torch.utils.data.Dataset):
                  def __getitem__(self, i):
                      return onp.float32(i * i), i
                  def __len__(self):
                      return 5
              ds = Squares()
              loader = torch.utils.data.DataLoader(ds, batch_size=2)
              nonscalar([len(ds), ds[3]] + [part for batch in loader for part in batch])""",
              dtypes=("float32",), note=_GC_NOTE)),
    entry("mx.gluon.data.SimpleDataset", torch="data", status=COMPOSITE,
          args="data → the list (or array) itself: any object with __len__ and __getitem__ "
               "is a map-style dataset for torch.utils.data.DataLoader",
          note="SimpleDataset adds Gluon's Dataset methods (transform, filter, …); see those "
               "entries for their counterparts.",
          check=check(_FG + """
              from sidebyside.catalogue.harness_data import nonscalar
              items = [(onp.float32(v), k) for k, v in enumerate([0.5, -1.0, 2.0, 3.5, 1.0])]
              ds = gluon.data.SimpleDataset(items)
              with frozen_gc():
                  loader = gluon.data.DataLoader(ds, batch_size=2)
              nonscalar([len(ds), ds[2]] + [part for batch in loader for part in batch])""", """
              from sidebyside.catalogue.harness_data import nonscalar
              items = [(onp.float32(v), k) for k, v in enumerate([0.5, -1.0, 2.0, 3.5, 1.0])]
              ds = items
              loader = torch.utils.data.DataLoader(ds, batch_size=2)
              nonscalar([len(ds), ds[2]] + [part for batch in loader for part in batch])""",
              dtypes=("float32",), note=_GC_NOTE)),
    entry("mx.gluon.data.ArrayDataset", torch="torch.utils.data.TensorDataset(*args)",
          status=RENAMED,
          args="*args → *tensors (PyTorch: tensors only, torch.as_tensor them first; Gluon "
               "takes NDArrays, NumPy arrays and lists)",
          gotchas=["a 1-D NDArray is turned into a NumPy array inside ArrayDataset: its "
                   "samples are NumPy scalars, a 2-D one's are NDArray rows (notebook 4 §1 "
                   "shows the types); the values and dtypes are TensorDataset's"],
          teach=_NB4 + "1. Datasets that hold arrays: `TensorDataset` vs `ArrayDataset`",
          check=check("""
              from sidebyside.catalogue.harness_data import nonscalar
              ds = gluon.data.ArrayDataset(x, lab)
              nonscalar([len(ds)] + [part for i in range(len(ds)) for part in ds[i]])""", """
              from sidebyside.catalogue.harness_data import nonscalar
              ds = torch.utils.data.TensorDataset(x, lab)
              nonscalar([len(ds)] + [part for i in range(len(ds)) for part in ds[i]])""",
              inputs="x=U(4, 3); lab=IA([3, 1, 0, 2])")),
    entry("mx.gluon.data.RecordFileDataset",
          torch="[reader.read_idx(k) for k in reader.keys]", status=RECIPE,
          recipe="""
              import os
              from sidebyside import recordio

              reader = recordio.IndexedRecordReader(os.path.splitext(filename)[0] + '.idx',
                                                    filename)
              dataset = [reader.read_idx(k) for k in reader.keys]   # the raw records (bytes)""",
          args="filename → the .rec path; the .idx beside it (same stem) is read by both",
          note="sidebyside.recordio reads MXNet's files without MXNet (notebook 18 §3). For "
               "a lazy dataset index reader.read_idx(reader.keys[i]) in __getitem__.",
          teach="18_legacy_data_recordio §Reading with MXNet, three ways",
          check=check("""
              from sidebyside.catalogue.harness_data import rec_file
              ds = gluon.data.RecordFileDataset(rec_file()['rec'])
              [len(ds)] + [ds[i] for i in range(len(ds))]""", """
              import os
              from sidebyside import recordio
              from sidebyside.catalogue.harness_data import rec_file
              filename = rec_file()['rec']
              reader = recordio.IndexedRecordReader(os.path.splitext(filename)[0] + '.idx',
                                                    filename)
              dataset = [reader.read_idx(k) for k in reader.keys]
              [len(dataset)] + dataset""", kind="exact", dtypes=("float64",))),
    # ------------------------------------------------------------------------ Dataset methods
    entry("mx.gluon.data.Dataset.transform", torch="MapDataset(dataset, fn)", status=RECIPE,
          recipe=_MAP,
          args="fn → fn (called with the sample unpacked: fn(x, y)); lazy=False → "
               "[fn(*s) for s in dataset] (eager: a random fn is then drawn once)",
          gotchas=["fn gets the sample's fields as separate arguments and must return the "
                   "whole sample: fn(x, y) → (x', y')"],
          teach="03_mnist_mlp §`transform` is not `transform_first`",
          check=check("""
              from sidebyside.catalogue.harness_data import nonscalar
              ds = gluon.data.ArrayDataset(x, lab).transform(lambda a, b: (a * 2, b + 1))
              nonscalar([len(ds)] + [part for i in range(len(ds)) for part in ds[i]])""", _MAP + """
from sidebyside.catalogue.harness_data import nonscalar
ds = MapDataset(torch.utils.data.TensorDataset(x, lab), lambda a, b: (a * 2, b + 1))
nonscalar([len(ds)] + [part for i in range(len(ds)) for part in ds[i]])""",
              inputs="x=U(3, 2); lab=IA([4, 5, 6])")),
    entry("mx.gluon.data.Dataset.transform_first",
          torch="MapDataset(dataset, lambda x, *rest: (fn(x), *rest) if rest else fn(x))",
          status=RECIPE, recipe=_MAP + "\n# torchvision datasets: transform=fn does this\n",
          args="fn → fn (the first field only); a torchvision dataset's transform=fn is the "
               "same thing; lazy=False → a list, as for transform",
          gotchas=["a Gluon vision dataset's own transform= argument is the two-argument "
                   "form (fn(data, label)); transform_first(fn) is torchvision's transform=fn"],
          teach="03_mnist_mlp §`transform` is not `transform_first`",
          check=check("""
              from sidebyside.catalogue.harness_data import nonscalar
              ds = gluon.data.ArrayDataset(x, lab).transform_first(lambda a: a - 1)
              nonscalar([len(ds)] + [part for i in range(len(ds)) for part in ds[i]])""", _MAP + """
from sidebyside.catalogue.harness_data import nonscalar
fn = lambda a: a - 1
ds = MapDataset(torch.utils.data.TensorDataset(x, lab),
                lambda x, *rest: (fn(x), *rest) if rest else fn(x))
nonscalar([len(ds)] + [part for i in range(len(ds)) for part in ds[i]])""",
              inputs="x=U(3, 2); lab=IA([4, 5, 6])")),
    entry("mx.gluon.data.Dataset.filter",
          torch="torch.utils.data.Subset(dataset, [i for i in range(len(dataset)) "
                "if fn(dataset[i])])",
          status=COMPOSITE, args="fn → fn (called once per sample, when filter() is called)",
          check=check("""
              ds = gluon.data.SimpleDataset(list(range(10))).filter(lambda s: s % 3 == 1)
              [len(ds)] + [ds[i] for i in range(len(ds))]""", """
              dataset = list(range(10))
              fn = lambda s: s % 3 == 1
              ds = torch.utils.data.Subset(dataset, [i for i in range(len(dataset))
                                                     if fn(dataset[i])])
              [len(ds)] + [ds[i] for i in range(len(ds))]""", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.data.Dataset.shard",
          torch="torch.utils.data.Subset(dataset, torch.tensor_split(torch.arange(len(dataset)), "
                "num_shards)[index].tolist())",
          status=COMPOSITE,
          args="num_shards → sections of tensor_split; index → the part taken",
          gotchas=["Gluon's shards are contiguous blocks, the first len % num_shards of them "
                   "one longer (tensor_split's rule); DistributedSampler instead interleaves "
                   "(rank::num_replicas) and pads to equal lengths"],
          check=check("""
              ds = gluon.data.SimpleDataset(list(range(11)))
              [[ds.shard(4, k)[i] for i in range(len(ds.shard(4, k)))] for k in range(4)]""", """
              dataset = list(range(11))
              parts = [torch.utils.data.Subset(dataset, torch.tensor_split(
                  torch.arange(len(dataset)), 4)[k].tolist()) for k in range(4)]
              [[p[i] for i in range(len(p))] for p in parts]""", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.data.Dataset.take",
          torch="torch.utils.data.Subset(dataset, range(min(count, len(dataset))))",
          status=COMPOSITE, args="count → the range's end (None or more than len: all)",
          check=check("""
              ds = gluon.data.SimpleDataset(list(range(5)))
              [[d[i] for i in range(len(d))] for d in (ds.take(3), ds.take(9))]""", """
              dataset = list(range(5))
              parts = [torch.utils.data.Subset(dataset, range(min(c, len(dataset))))
                       for c in (3, 9)]
              [[d[i] for i in range(len(d))] for d in parts]""", kind="exact",
              dtypes=("float64",))),
    entry("mx.gluon.data.Dataset.sample",
          torch="torch.utils.data.Subset(dataset, list(sampler))", status=COMPOSITE,
          args="sampler → its indices, drawn once (Gluon also draws them once, at sample())",
          check=check("""
              ds = gluon.data.SimpleDataset([10, 11, 12, 13, 14, 15])
              d = ds.sample(gluon.data.SequentialSampler(3, start=2))
              [d[i] for i in range(len(d))]""", """
              dataset = [10, 11, 12, 13, 14, 15]
              d = torch.utils.data.Subset(dataset, list(range(2, 5)))
              [d[i] for i in range(len(d))]""", kind="exact", dtypes=("float64",))),
    # ------------------------------------------------------------------------------ samplers
    entry("mx.gluon.data.Sampler", aliases=["mx.gluon.data.sampler.Sampler"],
          torch="torch.utils.data.Sampler", status=RENAMED,
          args="subclass it and define __iter__ (indices) and __len__ on both sides",
          check=check(_FG + """
              class EvensFirst(gluon.data.Sampler):
                  def __init__(self, n):
                      self.n = n
                  def __iter__(self):
                      return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))
                  def __len__(self):
                      return self.n
              with frozen_gc():
                  loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x), batch_size=3,
                                                 sampler=EvensFirst(7))
              [b for b in loader]""", """
              class EvensFirst(torch.utils.data.Sampler):
                  def __init__(self, n):
                      self.n = n
                  def __iter__(self):
                      return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))
                  def __len__(self):
                      return self.n
              loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x),
                                                   batch_size=3, sampler=EvensFirst(7))
              [b for b in loader]""", inputs="x=U(7)", dtypes=("float64",), note=_GC_NOTE)),
    entry("mx.gluon.data.SequentialSampler", aliases=["mx.gluon.data.sampler.SequentialSampler"],
          torch="torch.utils.data.SequentialSampler(range(length))", status=ARGS,
          args="length → a dataset (or range) of that length: PyTorch's samplers take the "
               "data source, Gluon's a length",
          teach=_NB4 + "5. Samplers: `SequentialSampler` and `RandomSampler`",
          check=check("""
              s = gluon.data.SequentialSampler(6)
              [len(s), list(s)]""", """
              s = torch.utils.data.SequentialSampler(range(6))
              [len(s), list(s)]""", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.data.SequentialSampler", form="start", when=["start"],
          signature=("length", "start"), torch="range(start, start + length)", status=COMPOSITE,
          args="length, start → range(start, start + length) (an iterable of indices is a "
               "sampler for DataLoader); torch.utils.data.SequentialSampler has no start",
          check=check("""
              s = gluon.data.SequentialSampler(4, start=3)
              [len(s), list(s)]""", """
              s = range(3, 3 + 4)
              [len(s), list(s)]""", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.data.RandomSampler", aliases=["mx.gluon.data.sampler.RandomSampler"],
          torch="torch.utils.data.RandomSampler(range(length))", status=ARGS,
          args="length → a dataset (or range) of that length",
          gotchas=["Gluon shuffles with NumPy's global state (np.random.seed repeats it) and "
                   "yields NumPy int64 indices; PyTorch draws from torch's generator "
                   "(generator=) and yields Python ints"],
          teach=_NB4 + "5. Samplers: `SequentialSampler` and `RandomSampler`",
          note="Compared: the distribution of Σ i·perm[i] over 1000 permutations of 40 "
               "(a sequential or biased order shifts it).",
          check=check("""
              w = onp.arange(40)
              s = gluon.data.RandomSampler(40)
              onp.array([float(w @ onp.array(list(s))) for _ in range(1000)])""", """
              w = onp.arange(40)
              s = torch.utils.data.RandomSampler(range(40))
              onp.array([float(w @ onp.array(list(s))) for _ in range(1000)])""",
              kind="random", dtypes=("float64",))),
    entry("mx.gluon.data.FilterSampler",
          torch="[i for i in range(len(dataset)) if fn(dataset[i])]", status=COMPOSITE,
          args="fn, dataset → the indices list (a sampler for DataLoader)",
          check=check("""
              s = gluon.data.FilterSampler(lambda v: v > 2, [5, 1, 3, 0, 4])
              [len(s), list(s)]""", """
              dataset, fn = [5, 1, 3, 0, 4], lambda v: v > 2
              s = [i for i in range(len(dataset)) if fn(dataset[i])]
              [len(s), list(s)]""", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.data.BatchSampler", aliases=["mx.gluon.data.sampler.BatchSampler"],
          torch="torch.utils.data.BatchSampler(sampler, batch_size, drop_last=False)",
          status=ARGS,
          args="sampler → sampler; batch_size → batch_size; last_batch='keep' → "
               "drop_last=False",
          defaults="last_batch='keep' vs drop_last required (no default)",
          teach=_NB4 + "6. `sampler` and `batch_sampler`",
          check=check("""
              b = gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3)
              [len(b), list(b)]""", """
              b = torch.utils.data.BatchSampler(range(7), 3, drop_last=False)
              [len(b), list(b)]""", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.data.BatchSampler", form="last_batch='discard'",
          when=["last_batch='discard'"], signature=("sampler", "batch_size", "last_batch"),
          torch="torch.utils.data.BatchSampler(sampler, batch_size, drop_last=True)",
          status=ARGS, args="last_batch='discard' → drop_last=True",
          check=check("""
              b = gluon.data.BatchSampler([6, 5, 4, 3, 2, 1, 0], 3, 'discard')
              [len(b), list(b)]""", """
              b = torch.utils.data.BatchSampler([6, 5, 4, 3, 2, 1, 0], 3, drop_last=True)
              [len(b), list(b)]""", kind="exact", dtypes=("float64",))),
    entry("mx.gluon.data.BatchSampler", form="last_batch='rollover'",
          when=["last_batch='rollover'"], signature=("sampler", "batch_size", "last_batch"),
          torch="RolloverBatchSampler(sampler, batch_size)", status=RECIPE, recipe=_ROLLOVER,
          args="last_batch='rollover' → the recipe's batch sampler",
          gotchas=["len() counts the carried indices: 2, 3, 2 batches over three epochs of 7 "
                   "indices in batches of 3"],
          teach=_NB4 + "3. The last batch: `drop_last` vs `last_batch`",
          check=check("""
              b = gluon.data.BatchSampler(gluon.data.SequentialSampler(7), 3, 'rollover')
              [[len(b), list(b)] for epoch in range(3)]""", _ROLLOVER + """
b = RolloverBatchSampler(range(7), 3)
[[len(b), list(b)] for epoch in range(3)]""", kind="exact", dtypes=("float64",))),
]
