"""Canonical names: one spelling per MXNet or PyTorch construct, whatever the script wrote.

A script may write ``mxnet.ndarray.concat``, ``mx.nd.concat``, ``nd.concat`` after ``from mxnet
import nd``, or ``F.concat`` inside ``hybrid_forward(self, F, …)``; all of them are
``mx.nd.concat`` here. MXNet names start with ``mx.`` (``mx.gluon.nn.Dense``, ``mx.sym.var``,
``mx.np.concatenate``), PyTorch's with ``torch.``, ``torchvision.`` or ``torchmetrics.``. A
method is named by the class that has it: ``mx.nd.NDArray.asnumpy``, ``mx.gluon.Block.
collect_params``, ``mx.gluon.Trainer.step``, ``torch.Tensor.item``, ``torch.nn.Module.eval``.

Standard library only: :mod:`sidebyside.migrate` reads scripts, it never imports MXNet.
"""

from __future__ import annotations

__all__ = ["MXNET", "TORCH", "canonical", "framework_of", "METHOD_OWNERS",
           "TORCH_METHOD_OWNERS", "RECEIVER_HINTS", "hinted_class", "RETURNS",
           "class_of_call", "NDARRAY", "NP_NDARRAY", "BLOCK", "TENSOR", "MODULE"]

MXNET, TORCH = "mxnet", "torch"

NDARRAY = "mx.nd.NDArray"
NP_NDARRAY = "mx.np.ndarray"
SYMBOL = "mx.sym.Symbol"
BLOCK = "mx.gluon.Block"
TRAINER = "mx.gluon.Trainer"
PARAMETERS = "mx.gluon.ParameterDict"
METRIC = "mx.metric.EvalMetric"
DATAITER = "mx.io.DataIter"
DATABATCH = "mx.io.DataBatch"
MODULE_API = "mx.mod.Module"
TENSOR = "torch.Tensor"
MODULE = "torch.nn.Module"
OPTIMIZER = "torch.optim.Optimizer"
SCHEDULER = "torch.optim.lr_scheduler.LRScheduler"
TORCH_LOADER = "torch.utils.data.DataLoader"

# module paths a script may import, and the spelling used here (longest prefix first)
_MODULE_ALIASES = (
    ("mxnet.ndarray", "mx.nd"), ("mxnet.symbol", "mx.sym"), ("mxnet.numpy_extension", "mx.npx"),
    ("mxnet.numpy", "mx.np"), ("mxnet.module", "mx.mod"), ("mxnet.kvstore", "mx.kv"),
    ("mxnet.initializer", "mx.init"), ("mxnet.optimizer", "mx.optimizer"),
    ("mxnet.context", "mx.context"), ("mxnet", "mx"),
    ("mx.ndarray", "mx.nd"), ("mx.symbol", "mx.sym"), ("mx.numpy_extension", "mx.npx"),
    ("mx.numpy", "mx.np"), ("mx.module", "mx.mod"), ("mx.kvstore", "mx.kv"),
    ("mx.initializer", "mx.init"),
    # the classes' home modules, as the docs name them
    ("mx.gluon.nn.basic_layers", "mx.gluon.nn"), ("mx.gluon.nn.conv_layers", "mx.gluon.nn"),
    ("mx.gluon.nn.activations", "mx.gluon.nn"), ("mx.gluon.rnn.rnn_layer", "mx.gluon.rnn"),
    ("mx.gluon.rnn.rnn_cell", "mx.gluon.rnn"), ("mx.gluon.block", "mx.gluon"),
    ("mx.gluon.trainer", "mx.gluon"), ("mx.gluon.parameter", "mx.gluon"),
    ("mx.nd.ndarray", "mx.nd"), ("mx.sym.symbol", "mx.sym"), ("mx.mod.module", "mx.mod"),
    ("mx.io.io", "mx.io"), ("mx.gluon.data.dataloader", "mx.gluon.data"),
    ("mx.gluon.data.dataset", "mx.gluon.data"),
    # gluon.data.vision re-exports its datasets module, which imports mx.image as image
    ("mx.gluon.data.vision.datasets.image", "mx.image"),
    ("mx.gluon.data.vision.datasets", "mx.gluon.data.vision"),
    ("mx.gluon.data.vision.image", "mx.image"),    # datasets.image, once datasets is gone
    ("torch.nn.modules.module", "torch.nn"), ("torch.optim.optimizer", "torch.optim"),
)


def canonical(dotted: str) -> str:
    """The canonical spelling of a fully resolved dotted name.

    >>> canonical("mxnet.ndarray.concat"), canonical("mxnet.gluon.nn.basic_layers.Dense")
    ('mx.nd.concat', 'mx.gluon.nn.Dense')
    """
    for old, new in _MODULE_ALIASES:
        if dotted == old or dotted.startswith(old + "."):
            dotted = new + dotted[len(old):]
    return dotted


def framework_of(name: str) -> str | None:
    """``"mxnet"`` for ``mx.…``, ``"torch"`` for ``torch.…``/``torchvision.…``/
    ``torchmetrics.…``, else ``None``."""
    head = name.split(".", 1)[0]
    if head == "mx":
        return MXNET
    if head in ("torch", "torchvision", "torchmetrics"):
        return TORCH
    return None


#: methods and attributes only one framework's objects have: the class named for each, when a
#: receiver's type is not known (the site is then marked as guessed)
METHOD_OWNERS = {
    **{m: NDARRAY for m in (
        "asnumpy", "asscalar", "as_in_context", "attach_grad", "wait_to_read", "copyto",
        "as_nd_ndarray", "as_np_ndarray", "tostype", "astype", "context", "detach",
        "broadcast_to", "broadcast_like", "reshape_like", "expand_dims", "swapaxes",
        "backward", "grad", "one_hot", "argmax_channel", "topk", "flatten")},
    **{m: BLOCK for m in (
        "collect_params", "hybridize", "initialize", "save_parameters", "load_parameters",
        "save_params", "load_params", "hybrid_forward", "export", "cast", "register_child",
        "name_scope", "register_forward_hook", "summary", "infer_shape")},
    **{m: TRAINER for m in ("set_learning_rate", "learning_rate", "save_states",
                            "load_states", "allreduce_grads", "update")},
    **{m: MODULE_API for m in ("bind", "init_params", "init_optimizer", "forward_backward",
                               "get_params", "set_params", "save_checkpoint", "score",
                               "predict", "fit", "get_outputs")},
    **{m: DATAITER for m in ("reset", "provide_data", "provide_label", "iter_next", "next")},
    **{m: METRIC for m in ("get", "get_name_value", "update", "reset")},
}
METHOD_OWNERS["update"] = METRIC  # also Trainer.update, Module.update
METHOD_OWNERS["reset"] = DATAITER
#: PyTorch's side, for scripts read in the PyTorch → Gluon direction
TORCH_METHOD_OWNERS = {
    **{m: TENSOR for m in ("item", "numpy", "to", "cuda", "cpu", "backward", "view",
                           "view_as", "permute", "contiguous", "requires_grad_", "detach",
                           "eq", "argmax", "sum", "mean", "size", "unsqueeze", "squeeze",
                           "float", "long", "double", "clone", "tolist", "type")},
    **{m: MODULE for m in ("parameters", "named_parameters", "state_dict",
                           "load_state_dict", "train", "eval", "zero_grad", "modules",
                           "children", "apply", "register_buffer")},
}


#: what a variable's conventional name says about its class, per framework: (a word the name is
#: or contains, the class); first match wins. Used only for a method call on a variable of
#: unknown type, and the site is then marked as guessed.
RECEIVER_HINTS = {
    MXNET: (("trainer", TRAINER), ("metric", METRIC), ("iter", DATAITER),
            ("train_data", DATAITER), ("val_data", DATAITER), ("test_data", DATAITER),
            ("batch", DATABATCH), ("mod", MODULE_API), ("net", BLOCK), ("model", BLOCK)),
    TORCH: (("optimizer", OPTIMIZER), ("opt", OPTIMIZER), ("sched", SCHEDULER),
            ("loader", TORCH_LOADER), ("model", MODULE), ("net", MODULE),
            ("pred", TENSOR), ("output", TENSOR), ("target", TENSOR), ("loss", TENSOR),
            ("logits", TENSOR)),
}
_EXACT_HINT_ONLY = {"mod", "net", "opt", "batch", "pred"}  # too short to look for inside a name


#: methods and attributes a hinted class has beyond those it owns in METHOD_OWNERS (names
#: every library uses, which are never guessed from the method alone)
_MORE_METHODS = {
    TRAINER: {"step", "update"}, METRIC: {"update", "get", "reset"},
    DATAITER: {"reset", "next"}, DATABATCH: {"data", "label", "pad"},
    MODULE_API: {"fit", "score", "predict", "forward", "backward", "update"},
    BLOCK: {"forward"}, OPTIMIZER: {"step", "zero_grad", "add_param_group", "state_dict",
                                    "load_state_dict", "param_groups"},
    SCHEDULER: {"step", "get_last_lr"}, TORCH_LOADER: {"dataset", "batch_size"},
    MODULE: {"to", "cuda", "cpu", "double", "float"},
}


def methods_of(cls: str) -> set[str]:
    """The method and attribute names a guess may give ``cls``."""
    owned = {m for table in (METHOD_OWNERS, TORCH_METHOD_OWNERS) for m, c in table.items()
             if c == cls}
    return owned | _MORE_METHODS.get(cls, set())


def hinted_class(variable: str, framework: str) -> tuple[str, str] | None:
    """(the class a variable's name suggests, the word it matched), or ``None``:
    ``train_iter`` → ``mx.io.DataIter``; ``optimizer`` → ``torch.optim.Optimizer``.

    >>> hinted_class("val_iter", MXNET)
    ('mx.io.DataIter', 'iter')
    """
    low = variable.lower()
    for word, cls in RECEIVER_HINTS.get(framework, ()):
        if low == word or (word not in _EXACT_HINT_ONLY and word in low) or (
                word in _EXACT_HINT_ONLY and (low.startswith(word + "_")
                                              or low.endswith("_" + word))):
            return cls, word
    return None


def _return_kinds() -> dict[str, str]:
    out = {}
    for prefix, kind in (("mx.nd.", NDARRAY), ("mx.np.", NP_NDARRAY), ("mx.npx.", NP_NDARRAY),
                         ("mx.sym.", SYMBOL), ("mx.gluon.nn.", BLOCK), ("mx.gluon.rnn.", BLOCK),
                         ("mx.gluon.loss.", BLOCK), ("mx.gluon.model_zoo.", BLOCK),
                         ("mx.metric.", METRIC), ("mx.gluon.metric.", METRIC),
                         ("mx.io.", DATAITER), ("torch.nn.functional.", TENSOR),
                         ("torch.nn.", MODULE), ("torch.optim.lr_scheduler.", SCHEDULER),
                         ("torch.optim.", OPTIMIZER), ("torchvision.models.", MODULE),
                         ("torch.", TENSOR)):
        out[prefix] = kind
    return out


#: what calling a name under each prefix returns (the longest prefix wins), for inference
RETURNS = _return_kinds()
_EXACT_RETURNS = {
    "mx.gluon.Trainer": TRAINER, "mx.mod.Module": MODULE_API, "mx.mod.Module.load": MODULE_API,
    "mx.gluon.utils.split_and_load": f"list[{NDARRAY}]", "mx.gluon.Block.collect_params":
    PARAMETERS, "mx.gluon.data.DataLoader": "mx.gluon.data.DataLoader",
    "mx.sym.load": SYMBOL, "mx.nd.load": "dict[mx.nd.NDArray]", "mx.cpu": "mx.Context",
    "mx.gpu": "mx.Context", "mx.kv.create": "mx.kv.KVStore",
    "torch.utils.data.DataLoader": TORCH_LOADER, "torch.device": "torch.device",
    "torch.nn.Module.parameters": "iterator[torch.nn.Parameter]",
    "mx.autograd.record": "context manager", "mx.autograd.pause": "context manager",
    "torch.no_grad": "context manager", "torch.save": "None", "torch.load": "object",
    "torch.manual_seed": "torch.Generator", "mx.random.seed": "None",
    "torch.cuda.is_available": "bool", "torch.nn.Parameter": TENSOR,
    "mx.gluon.ParameterDict.get": "mx.gluon.Parameter", "mx.gluon.Parameter": "mx.gluon.Parameter",
    "mx.gluon.ParameterDict.values": "iterator[mx.gluon.Parameter]",
    # Gluon's datasets, and what their transform methods return: a dataset again
    **{f"mx.gluon.data.{c}": "mx.gluon.data.Dataset" for c in (
        "ArrayDataset", "SimpleDataset", "RecordFileDataset", "vision.MNIST",
        "vision.FashionMNIST", "vision.CIFAR10", "vision.CIFAR100", "vision.ImageFolderDataset",
        "vision.ImageRecordDataset", "vision.ImageListDataset", "Dataset.transform",
        "Dataset.transform_first")},
}


#: methods and attributes of an array that give something else (numpy, a Python value, None)
_NOT_ARRAYS = {"backward", "attach_grad", "wait_to_read", "asnumpy", "asscalar", "tolist",
               "shape", "context", "ctx", "dtype", "size", "ndim", "stype", "handle",
               "as_np_ndarray", "as_nd_ndarray", "item", "copyto", "to_dlpack_for_read",
               "to_dlpack_for_write", "tostype"}
_NOT_TENSORS = {"backward", "item", "numpy", "tolist", "size", "dim", "shape", "device",
                "dtype", "data_ptr", "numel", "is_cuda", "requires_grad", "ndim",
                "element_size", "stride", "storage_offset", "register_hook"}


def class_of_call(name: str) -> str | None:
    """What calling the canonical ``name`` returns, as far as a reader can tell from the name:
    an NDArray for ``mx.nd.*``, a Block for ``mx.gluon.nn.*``, a Tensor for ``torch.*``…
    ``None`` when nothing is known (a user's own function).

    >>> class_of_call("mx.nd.array"), class_of_call("mx.gluon.nn.Dense")
    ('mx.nd.NDArray', 'mx.gluon.Block')
    """
    if name in _EXACT_RETURNS:
        return _EXACT_RETURNS[name]
    owner, _, method = name.rpartition(".")
    if owner in (NDARRAY, NP_NDARRAY):  # a method: an array back, unless it leaves MXNet
        return None if method in _NOT_ARRAYS else owner
    if owner == TENSOR:
        return None if method in _NOT_TENSORS else TENSOR
    if owner == MODULE and method in ("to", "cuda", "cpu", "double", "float", "half",
                                      "train", "eval", "requires_grad_", "type"):
        return MODULE  # Module.to(device) returns the module itself
    if owner[:1] != owner[:1].lower() or owner.rpartition(".")[2][:1].isupper():
        return None  # another class's method (Trainer.step, Module.fit): not known here
    for prefix in sorted(RETURNS, key=len, reverse=True):
        if name.startswith(prefix):
            if prefix == "torch.nn." and name.split(".")[2][:1].islower():
                return None  # torch.nn.init.*, torch.nn.utils.*: no module comes back
            return RETURNS[prefix]
    return None
