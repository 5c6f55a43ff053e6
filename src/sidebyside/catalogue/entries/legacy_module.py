"""The legacy Module API (mx.mod.Module and its methods) → a PyTorch model and a plain
training loop. Every check trains or runs the same tiny MLP (4 → 5 relu → 3, SoftmaxOutput
head, batches of 4) on both sides from the same weights (harness_legacy)."""

import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, entry
from ..model import check as _check

_H = "from sidebyside.catalogue.harness_legacy import "
_MX = _H + "mx_module, mx_weights, mx_arrays, mx_iter\n"
_PT = (_H + "torch_setup, torch_weights, torch_loader, problem\n"
       "model = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.ReLU(), "
       "torch.nn.Linear(5, 3))\n"
       "x, y = torch_setup(model, dtype)\n")
_SCALE = ("Module.init_optimizer (and fit) set the optimizer's rescale_grad to 1/batch_size: "
          "a SoftmaxOutput head's gradient is the batch's summed cross-entropy, so the steps "
          "equal PyTorch's with F.cross_entropy's default mean")
_HEAD = ("a SoftmaxOutput head outputs probabilities (softmax) in forward, and its backward "
         "is the gradient of the summed cross-entropy against the label: "
         "F.cross_entropy(logits, y, reduction='sum') in PyTorch")
_LR = "learning rate 0.5 and momentum 0.5 (exact in float32: MXNet passes them as float32)"

_LOOP = """
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)
for epoch in range(num_epoch):
    for x, y in loader:                       # forward / backward / update
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)   # SoftmaxOutput; mean = rescale_grad 1/batch
        loss.backward()
        optimizer.step()
"""

_FIT = '''
import torch
import torch.nn.functional as F


def fit(model, loader, optimizer, num_epoch):
    """Module.fit: epochs of forward, backward and update; returns the last epoch's accuracy."""
    for epoch in range(num_epoch):
        model.train()
        correct = total = 0
        for x, y in loader:
            optimizer.zero_grad()
            logits = model(x)
            F.cross_entropy(logits, y).backward()
            optimizer.step()
            correct += int((logits.argmax(1) == y).sum())
            total += len(y)
    return correct / total
'''

_SCORE = '''
import torch


@torch.no_grad()
def score(model, loader):
    """Module.score(eval_data, 'acc'): accuracy over the loader, in eval mode."""
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += int((model(x).argmax(1) == y).sum())
        total += len(y)
    return correct / total
'''

_STEPS_MX = _MX + """
mod, batches = mx_module(dtype)
mod.init_optimizer(optimizer='sgd', optimizer_params={'learning_rate': 0.5, 'momentum': 0.5})
out = []
for b in (batches + batches)[:3]:
    mod.forward(b, is_train=True)
    mod.backward()
    mod.update()
    out.append(mx_weights(mod))
out"""

_STEPS_PT = _PT + """
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.5)
out = []
for xb, yb in (list(torch_loader(x, y)) * 2)[:3]:
    optimizer.zero_grad()
    F.cross_entropy(model(xb), yb).backward()
    optimizer.step()
    out.append(torch_weights(model))
out"""

_GRADS_MX = _MX + """
mod, batches = mx_module(dtype, inputs_need_grad=True)
mod.forward(batches[0], is_train=True)
mod.backward()
grads = mod._exec_group.execs[0].grad_dict
[mod.get_input_grads()[0]] + [grads[k] for k in ('fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias')]"""

_GRADS_PT = _PT + """
xb = x[:4].clone().requires_grad_()
F.cross_entropy(model(xb), y[:4], reduction='sum').backward()
[xb.grad] + [p.grad for p in model.parameters()]"""

_OUT_PT = _PT + "model.eval()\nF.softmax(model(x[:4]), dim=1).detach()"



def _fix(code):
    """A known head (unindented) + an indented body: dedent the body alone."""
    heads = sorted((_FIT.strip() + "\n" + _PT, _SCORE.strip() + "\n" + _PT, _MX, _PT),
                   key=len, reverse=True)
    for head in heads:
        if code.startswith(head):
            return head + textwrap.dedent(code[len(head):]).strip()
    return code


def check(mx, torch, **kw):
    return _check(_fix(mx), _fix(torch), **kw)


ENTRIES = [
    entry("mx.mod.Module",
          torch="torch.nn.Sequential(*layers)  # the symbol's layers; a training loop "
                "replaces bind / init_optimizer / forward / backward / update",
          status=RECIPE, recipe="model = torch.nn.Sequential(...)  # or an nn.Module subclass\n"
                                + _LOOP.strip(),
          args="symbol → the model (its layers as torch.nn modules; sidebyside.mx2torch "
               "converts a saved symbol graph); data_names / label_names → what the loader "
               "yields; context → model.to(device)",
          gotchas=[_SCALE, _HEAD,
                   "Module.bind fixes the batch shape; PyTorch takes any batch size per call"],
          check=check(_STEPS_MX, _STEPS_PT, note=_LR)),
    entry("mx.mod.Module.bind", torch="model.train(for_training)", status=COMPOSITE,
          args="data_shapes, label_shapes → nothing (PyTorch sizes every call from its "
               "inputs); for_training → model.train(for_training); inputs_need_grad=True → "
               "x.requires_grad_(); grad_req='add' → gradients accumulate unless zeroed "
               "(PyTorch's default)",
          gotchas=["bind(for_training=False) makes forward run in inference mode: "
                   "model.eval() (or model.train(False))"],
          check=check(_MX + """
              mod, batches = mx_module(dtype, for_training=False)
              mod.forward(batches[0])
              mod.get_outputs()[0]""",
                      _PT + "model.train(False)\nF.softmax(model(x[:4]), dim=1).detach()")),
    entry("mx.mod.Module.get_outputs", torch="model(x)  # the forward call's value",
          status=COMPOSITE,
          args="merge_multi_context → nothing (one device); the outputs are what the model "
               "call returned",
          gotchas=["Module.forward returns None; get_outputs() returns a list of the "
                   "symbol's outputs. " + _HEAD],
          check=check(_MX + """
              mod, batches = mx_module(dtype, head=False)
              mod.forward(mx.io.DataBatch(batches[1].data), is_train=False)
              mod.get_outputs()[0]""",
                      _PT + "model.eval()\nmodel(x[4:]).detach()")),
    entry("mx.mod.Module.forward",
          torch="model(x)  # x = data_batch.data[0]; is_train → model.train(is_train)",
          status=COMPOSITE,
          args="data_batch → its arrays as the call's arguments (data_batch.data[0]); "
               "is_train → model.train(is_train) before the call (None: bind's "
               "for_training)",
          gotchas=["Module.forward returns None: read get_outputs(). " + _HEAD],
          check=check(_MX + """
              mod, batches = mx_module(dtype)
              mod.forward(batches[0], is_train=True)
              mod.get_outputs()[0]""",
                      _PT + "model.train(True)\nF.softmax(model(x[:4]), dim=1).detach()")),
    entry("mx.mod.Module.init_params",
          torch="torch.nn.init.uniform_(weight, -0.01, 0.01)  # every weight; biases: "
                "torch.nn.init.zeros_",
          status=ARGS,
          args="initializer → the torch.nn.init function of each parameter (mx.init entries)",
          defaults="initializer=mx.init.Uniform(0.01): weights uniform in [-0.01, 0.01], "
                   "biases 0; torch.nn.Linear draws kaiming-uniform weights and biases",
          gotchas=["the check draws a 100×200 FullyConnected weight on both sides and "
                   "compares the distributions"],
          check=check("""
              s = sym.FullyConnected(sym.var('data'), num_hidden=100, name='fc')
              m = mx.mod.Module(s, label_names=())
              m.bind(data_shapes=[mx.io.DataDesc('data', (1, 200), dtype=dtype)],
                     for_training=False)
              m.init_params()
              m.get_params()[0]['fc_weight']""", """
              w = torch.empty(100, 200, dtype=dtype)
              torch.nn.init.uniform_(w, -0.01, 0.01)""", kind="random")),
    entry("mx.mod.Module.init_params", form="arg_params", when=["arg_params"],
          signature=["initializer", "arg_params"],
          torch="model.load_state_dict(state_dict)", status=ARGS,
          args="arg_params, aux_params → one state_dict, keys renamed (fc1_weight → "
               "0.weight, BatchNorm's moving_mean / moving_var → running_mean / "
               "running_var); allow_missing=True → strict=False",
          check=check(_MX + """
              x, y, params = mx_arrays(dtype)
              mod, batches = mx_module(dtype, for_training=False)
              mod.init_params(arg_params={k: v * 2 for k, v in params.items()},
                              force_init=True)
              mod.forward(batches[0])
              mod.get_outputs()[0]""", _PT + """
              state = {k: torch.from_numpy(v) * 2 for k, v in
                       zip(model.state_dict(), problem(dtype)[2].values())}
              model.load_state_dict(state)
              model.eval()
              F.softmax(model(x[:4]), dim=1).detach()""")),
    entry("mx.mod.Module.set_params", torch="model.load_state_dict(state_dict)", status=ARGS,
          args="arg_params, aux_params → one state_dict, keys renamed (fc1_weight → "
               "0.weight; aux moving_mean / moving_var → running_mean / running_var); "
               "allow_missing=True → strict=False",
          gotchas=["MXNet keys parameters by symbol name (fc1_weight), PyTorch by module "
                   "path (0.weight): map the names once (sidebyside.convert does it for "
                   "Gluon blocks)"],
          check=check(_MX + """
              x, y, params = mx_arrays(dtype)
              mod, batches = mx_module(dtype, for_training=False)
              mod.set_params({k: -v for k, v in params.items()}, {})
              mod.forward(batches[1])
              mod.get_outputs()[0]""", _PT + """
              state = {k: -torch.from_numpy(v) for k, v in
                       zip(model.state_dict(), problem(dtype)[2].values())}
              model.load_state_dict(state)
              model.eval()
              F.softmax(model(x[4:]), dim=1).detach()""")),
    entry("mx.mod.Module.get_params", torch="model.state_dict()", status=ARGS,
          args="returns (arg_params, aux_params), two dicts of copies by symbol name → one "
               "dict of tensors by module path (the live tensors: .clone() to keep a copy)",
          check=check(_MX + """
              mod, batches = mx_module(dtype)
              mod.init_optimizer(optimizer_params={'learning_rate': 0.5})
              mod.forward_backward(batches[0])
              mod.update()
              arg, aux = mod.get_params()
              [arg[k] for k in ('fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias')]""", _PT + """
              optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
              F.cross_entropy(model(x[:4]), y[:4]).backward()
              optimizer.step()
              [v.clone() for v in model.state_dict().values()]""", note=_LR)),
    entry("mx.mod.Module.init_optimizer",
          torch="torch.optim.SGD(model.parameters(), lr=learning_rate, momentum=momentum, "
                "weight_decay=wd)",
          status=ARGS,
          args="optimizer (a name) → the PyTorch optimizer of that name (see "
               "mx.gluon.Trainer's forms); optimizer_params → its options (learning_rate → "
               "lr, wd → weight_decay); kvstore → DistributedDataParallel",
          defaults="optimizer='sgd' with learning_rate 0.01; rescale_grad 1/batch_size is "
                   "set for you",
          gotchas=[_SCALE],
          check=check(_STEPS_MX, _STEPS_PT, note=_LR)),
    entry("mx.mod.Module.backward", torch="loss.backward()", status=COMPOSITE,
          args="out_grads → loss.backward(gradient) (or torch.autograd.backward(outputs, "
               "out_grads)); a loss head (SoftmaxOutput) needs none: compute the loss",
          gotchas=[_HEAD, "grad_req='write' (bind's default): each backward overwrites the "
                   "gradients; PyTorch adds to .grad until optimizer.zero_grad()"],
          check=check(_GRADS_MX, _GRADS_PT)),
    entry("mx.mod.Module.forward_backward",
          torch="F.cross_entropy(model(x), y, reduction='sum').backward()  # for a "
                "SoftmaxOutput head",
          status=COMPOSITE,
          args="data_batch → x = data_batch.data[0], y = data_batch.label[0]; the symbol's "
               "loss head → the loss function (SoftmaxOutput → cross_entropy, summed)",
          gotchas=[_HEAD],
          check=check(_GRADS_MX.replace("mod.forward(batches[0], is_train=True)\nmod.backward()",
                                        "mod.forward_backward(batches[0])"), _GRADS_PT)),
    entry("mx.mod.Module.get_input_grads", torch="x.grad  # x.requires_grad_() before the "
                                                 "forward call", status=COMPOSITE,
          args="bind(inputs_need_grad=True) → x.requires_grad_(); returns a list → one "
               "tensor's .grad per input",
          check=check(_GRADS_MX, _GRADS_PT)),
    entry("mx.mod.Module.update", torch="optimizer.step()", status=RENAMED,
          gotchas=[_SCALE, "Module.backward overwrites the gradients (grad_req='write'): no "
                   "zero_grad() step; in PyTorch call optimizer.zero_grad() each batch"],
          check=check(_STEPS_MX, _STEPS_PT, note=_LR)),
    entry("mx.mod.Module.fit",
          torch="fit(model, loader, torch.optim.SGD(model.parameters(), lr=learning_rate), "
                "num_epoch)",
          status=RECIPE, recipe=_FIT,
          args="train_data (a DataIter) → a DataLoader; optimizer, optimizer_params → the "
               "optimizer; arg_params → model.load_state_dict; initializer → torch.nn.init; "
               "eval_metric → what the loop computes; batch_end_callback / "
               "epoch_end_callback → code in the loop (mx.callback.Speedometer, "
               "do_checkpoint)",
          defaults="optimizer 'sgd' with learning_rate 0.01; initializer Uniform(0.01) "
                   "(used unless arg_params are given); eval_metric 'acc'",
          gotchas=[_SCALE, "fit's NDArrayIter pads the last batch by wrapping around "
                   "(last_batch_handle='pad'): those samples are trained twice per epoch"],
          check=check(_MX + """
              x, y, params = mx_arrays(dtype)
              it = mx_iter(dtype)
              m = mx.mod.Module(sidebyside_symbol(), label_names=('softmax_label',))
              metric = mx.metric.Accuracy()
              m.fit(it, arg_params=params, optimizer='sgd', eval_metric=metric,
                    optimizer_params={'learning_rate': 0.5}, num_epoch=2)
              [mx_weights(m), metric.get()[1]]""".replace(
                "sidebyside_symbol()", "__import__('sidebyside.catalogue.harness_legacy', "
                "fromlist=['x']).mx_symbol()"),
                      _FIT.strip() + "\n" + _PT + """
              acc = fit(model, torch_loader(x, y), torch.optim.SGD(model.parameters(), lr=0.5), 2)
              [torch_weights(model), acc]""", note=_LR)),
    entry("mx.mod.Module.score", torch="score(model, loader)", status=RECIPE, recipe=_SCORE,
          args="eval_data → a DataLoader; eval_metric → the metric the loop computes "
               "(torchmetrics, or the mx.metric entries' recipes)",
          gotchas=["score returns a list of (name, value) pairs: [('accuracy', 0.5)]"],
          check=check(_MX + """
              mod, batches = mx_module(dtype, for_training=False)
              res = mod.score(mx_iter(dtype), 'acc')
              [res[0][0], res[0][1]]""",
                      _SCORE.strip() + "\n" + _PT + "['accuracy', score(model, torch_loader(x, y))]",
                      kind="exact")),
    entry("mx.mod.Module.predict",
          torch="torch.cat([model(x) for x, _ in loader])  # under torch.no_grad(), "
                "model.eval()",
          status=COMPOSITE,
          args="eval_data → a DataLoader; num_batch → stop after that many batches; "
               "merge_batches=False → the list of per-batch outputs",
          gotchas=["the padded samples of a last_batch_handle='pad' iterator are dropped "
                   "from the result", _HEAD],
          check=check(_MX + """
              mod, batches = mx_module(dtype, head=False, for_training=False)
              mod.predict(mx_iter(dtype))""", _PT + """
              model.eval()
              with torch.no_grad():
                  out = torch.cat([model(xb) for xb, _ in torch_loader(x, y)])
              out""")),
    entry("mx.mod.Module.update_metric",
          torch="(outputs.argmax(1) == y).sum()  # for mx.metric.Accuracy; a metric object "
                "accumulates it",
          status=COMPOSITE,
          args="eval_metric, labels → the metric's update(outputs, labels) on the last "
               "forward's outputs (torchmetrics.Accuracy, or a running count)",
          check=check(_MX + """
              mod, batches = mx_module(dtype, for_training=False)
              metric = mx.metric.Accuracy()
              for b in batches:
                  mod.forward(b)
                  mod.update_metric(metric, b.label)
              metric.get()[1]""", _PT + """
              model.eval()
              correct = 0
              for xb, yb in torch_loader(x, y):
                  outputs = model(xb)
                  correct += int((outputs.argmax(1) == yb).sum())
              correct / len(y)""", kind="exact")),
    entry("mx.mod.Module.save_checkpoint",
          torch="torch.save({'epoch': epoch, 'model': model.state_dict()}, path)",
          status=ARGS,
          args="prefix, epoch → a path (MXNet writes prefix-symbol.json and "
               "prefix-%04d.params with keys 'arg:NAME' / 'aux:NAME'); "
               "save_optimizer_states=True → add optimizer.state_dict() to the saved dict",
          gotchas=["the symbol file has no PyTorch counterpart: the model's class is the "
                   "code; sidebyside.mx2torch rebuilds a PyTorch module from "
                   "prefix-symbol.json + .params"],
          check=check(_MX + """
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              mod, batches = mx_module(dtype)
              prefix = os.path.join(tmpdir(), 'mlp')
              mod.save_checkpoint(prefix, 3)
              saved = nd.load(prefix + '-0003.params')
              [saved['arg:' + k] for k in ('fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias')]""",
                      _PT + """
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              path = os.path.join(tmpdir(), 'mlp.pt')
              torch.save({'epoch': 3, 'model': model.state_dict()}, path)
              list(torch.load(path)['model'].values())""")),
]

ENTRIES += [
    entry("mx.mod.Module.save_params", torch="torch.save(model.state_dict(), fname)",
          status=ARGS,
          args="fname → the path; the file holds 'arg:NAME' / 'aux:NAME' arrays (MXNet's "
               "format) → a state_dict by module path",
          gotchas=["sidebyside.convert / mx2torch read MXNet's .params files into "
                   "state_dicts"],
          check=check(_MX + """
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              mod, batches = mx_module(dtype)
              path = os.path.join(tmpdir(), 'mlp.params')
              mod.save_params(path)
              saved = nd.load(path)
              [saved['arg:' + k] for k in ('fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias')]""",
                      _PT + """
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              path = os.path.join(tmpdir(), 'mlp.pt')
              torch.save(model.state_dict(), path)
              list(torch.load(path).values())""")),
    entry("mx.mod.Module.load_params", torch="model.load_state_dict(torch.load(fname))",
          status=ARGS,
          args="fname → torch.load(fname), then load_state_dict (keys by module path)",
          check=check(_MX + """
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              x, y, params = mx_arrays(dtype)
              path = os.path.join(tmpdir(), 'mlp.params')
              nd.save(path, {'arg:' + k: v * 3 for k, v in params.items()})
              mod, batches = mx_module(dtype, for_training=False)
              mod.load_params(path)
              mod.forward(batches[0])
              mod.get_outputs()[0]""", _PT + """
              import os
              from sidebyside.catalogue.harness_legacy import tmpdir
              path = os.path.join(tmpdir(), 'mlp.pt')
              torch.save({k: v * 3 for k, v in model.state_dict().items()}, path)
              model.load_state_dict(torch.load(path))
              model.eval()
              F.softmax(model(x[:4]), dim=1).detach()""")),
    entry("mx.mod.Module.data_shapes", torch="x.shape  # the input's shape, call by call",
          status=RECIPE, recipe="shape = x.shape   # PyTorch keeps no bound input shapes",
          gotchas=["a list of DataDesc (name, shape) fixed by bind; a PyTorch model takes "
                   "any batch size"],
          check=check(_MX + """
              mod, batches = mx_module(dtype)
              [(d.name, d.shape) for d in mod.data_shapes]""",
                      _PT + "[('data', tuple(x[:4].shape))]", kind="exact",
                      dtypes=("float64",))),
]

_AMP_MX = """
with autograd.pause():   # the runner records the snippet; trainer.step must not be
    from sidebyside.catalogue.harness_legacy import amp_flags, amp_problem_mx
    dense, trainer, xs = amp_problem_mx()
    with amp_flags():
        mx.contrib.amp.init_trainer(trainer)
    out = []
    for x in xs:
        with autograd.record():
            loss = (dense(x) ** 2).mean()
            with mx.contrib.amp.scale_loss(loss, trainer) as scaled:
                autograd.backward(scaled)
        trainer.step(1)
        out.append(dense.weight.data().copy())
out"""

_AMP_PT = """
from sidebyside.catalogue.harness_legacy import amp_problem_torch
dense, xs = amp_problem_torch()
optimizer = torch.optim.SGD(dense.parameters(), lr=0.5)
scaler = torch.amp.GradScaler('cpu')
out = []
for x in xs:
    optimizer.zero_grad()
    loss = (dense(x) ** 2).mean()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    out.append(dense.weight.detach().clone())
out"""

_AMP_G = ["both start at a loss scale of 2**16, halve it on an overflow (the step is "
          "skipped) and double it after 2000 clean steps (GradScaler's defaults)",
          "measured: after an overflow PyTorch's next step uses 32768, MXNet's still 65536 "
          "(its halved scale applies one step later); the weights agree, the scales differ"]

ENTRIES += [
    entry("mx.contrib.amp.init_trainer", torch="torch.amp.GradScaler(device)",
          status=ARGS, aliases=["mx.contrib.amp.amp.init_trainer"],
          args="trainer → nothing (the scaler is separate: scaler.step(optimizer), "
               "scaler.update() each step)",
          gotchas=_AMP_G + ["the check runs init_trainer without amp.init() (which "
                            "rewrites MXNet's operators for the whole process): "
                            "float32 weights, the loss scaling alone"],
          check=check(_AMP_MX, _AMP_PT, dtypes=("float32",),
                      note="float32 only: AMP's loss scaling on a float32 model")),
    entry("mx.contrib.amp.scale_loss",
          torch="scaler.scale(loss).backward()  # scaler = torch.amp.GradScaler(device)",
          status=COMPOSITE, aliases=["mx.contrib.amp.amp.scale_loss"],
          args="loss, trainer → scaler.scale(loss); the with-block → nothing; trainer.step "
               "→ scaler.step(optimizer); scaler.update()",
          gotchas=_AMP_G,
          check=check(_AMP_MX, _AMP_PT, dtypes=("float32",),
                      note="float32 only: AMP's loss scaling on a float32 model")),
]

ENTRIES += [
    entry("mx.mod.BucketingModule",
          torch="model(x)  # one model takes every length: no buckets, no sym_gen",
          status=RECIPE,
          recipe="model = torch.nn.Sequential(...)   # sym_gen's layers, once\n"
                 "for x, y in loader:                  # batches of any length\n"
                 "    out = model(x)                   # bucket_key → nothing",
          args="sym_gen(bucket_key) → the model's forward (shapes vary per call); "
               "default_bucket_key → nothing; the buckets' shared parameters → one set of "
               "parameters; DataBatch.bucket_key → nothing",
          gotchas=["to batch sequences of different lengths PyTorch pads them "
                   "(torch.nn.utils.rnn.pad_sequence) or sorts them into buckets in the "
                   "sampler; the model itself needs no bucket",
                   "get_outputs() hands back the executors' own buffers: measured, the "
                   "next forward (even of another bucket) overwrote them; .copy() to keep "
                   "one"],
          check=check("""
              def sym_gen(key):
                  h = sym.FullyConnected(sym.var('data'), num_hidden=3, flatten=False,
                                         name='fc')
                  return sym.mean(h, axis=1), ('data',), None
              bm = mx.mod.BucketingModule(sym_gen, default_bucket_key=5)
              bm.bind(data_shapes=[mx.io.DataDesc('data', (2, 5, 4), dtype=dtype)],
                      for_training=False)
              bm.set_params({'fc_weight': w, 'fc_bias': b}, {})
              outs = []
              for x in (x5, x2, x3):
                  bm.forward(mx.io.DataBatch([x], bucket_key=x.shape[1], provide_data=[
                      mx.io.DataDesc('data', x.shape, dtype=dtype)]))
                  outs.append(bm.get_outputs()[0].copy())
              outs""", """
              model = torch.nn.Linear(4, 3).to(dtype)
              with torch.no_grad():
                  model.weight.copy_(w)
                  model.bias.copy_(b)
              [model(x).mean(1).detach() for x in (x5, x2, x3)]""",
                      inputs="x5=U(2, 5, 4); x2=U(2, 2, 4); x3=U(2, 3, 4); w=U(3, 4); b=U(3)")),
]

ENTRIES += [
    entry("mx.mod.SequentialModule", torch="torch.nn.Sequential(*modules)", status=ARGS,
          args="add(module) → one argument per module (or .append); take_labels / "
               "auto_wiring → nothing: each module's output is the next one's input",
          gotchas=["each added Module's data_names must name the previous module's output "
                   "(relu1_output); PyTorch passes the value along",
                   "measured: the later modules bind in float32 (the output's DataDesc "
                   "carries no dtype) although the first is bound in float64"],
          check=check("""
              from sidebyside.catalogue.harness_legacy import mx_arrays
              x, y, params = mx_arrays(dtype)
              s1 = sym.Activation(sym.FullyConnected(sym.var('data'), num_hidden=5,
                                                     name='fc1'), act_type='relu', name='relu1')
              s2 = sym.FullyConnected(sym.var('relu1_output'), num_hidden=3, name='fc2')
              seq = mx.mod.SequentialModule()
              seq.add(mx.mod.Module(s1, label_names=()))
              seq.add(mx.mod.Module(s2, data_names=('relu1_output',), label_names=()))
              seq.bind(data_shapes=[mx.io.DataDesc('data', (4, 4), dtype=dtype)],
                       for_training=False)
              seq.set_params(params, {})
              seq.forward(mx.io.DataBatch([x[:4]]))
              seq.get_outputs()[0]""", """
              from sidebyside.catalogue.harness_legacy import torch_setup
              modules = [torch.nn.Linear(4, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3)]
              model = torch.nn.Sequential(*modules)
              x, y = torch_setup(model, dtype)
              model(x[:4]).detach()""", dtypes=("float32",),
                      note="float32: SequentialModule binds its later modules in float32")),
]
