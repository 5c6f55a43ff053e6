"""The mutation catalogue of ``tools/mutate.py``: plausible wrong ports of the migration code.

Each entry swaps one exact piece of the code a reader copies for the mistake a real port
makes, and names what it models. Add a mutant with :func:`nb` (a notebook's code cell: the
``.ipynb`` is mutated, the cell found by ``cell=``, by default the original text itself) or
:func:`src` (an example script or a helper module; its covering tests come from ``TARGETS``
unless given). ``python tools/mutate.py --check`` validates the whole catalogue against the
files. A mutant that cannot change what the covering run checks is marked ``equivalent=``
with the argument why; it is still run, and reported as ``equivalent_killed`` if the
argument turns out wrong.

Defaults cited: MXNet 1.9.1 API docs (mxnet.apache.org/versions/1.9.1/api/python/docs/api/),
PyTorch docs (pytorch.org/docs/stable/): gluon.nn.Dense(flatten=True),
gluon.nn.BatchNorm(momentum=0.9, epsilon=1e-5), torch.nn.BatchNorm2d(momentum=0.1),
gluon.loss.SoftmaxCrossEntropyLoss(sparse_label=True, from_logits=False),
gluon.loss.SigmoidBCELoss(from_sigmoid=False), gluon.nn.MaxPool2D(ceil_mode=False),
mx.init.Xavier(rnd_type='uniform', factor_type='avg', magnitude=3), mx.sym.BatchNorm(eps=1e-3),
mx.sym.LeakyReLU(slope=0.25), torch.nn.LeakyReLU(negative_slope=0.01), nd.concat(dim=1),
mx.optimizer.AdaDelta (ignores learning_rate, epsilon=1e-5), torch.optim.Adadelta(eps=1e-6),
Module.fit(optimizer_params=(('learning_rate', 0.01),)), MNISTIter (pixels / 256).
"""
from __future__ import annotations

from mutate import ROOT, Mutant

OPERATORS = {
    "call-swap": "a call swapped for its plausible wrong neighbour (fmod/remainder, "
                 "transform/transform_first, softmax/log_softmax, Adam/AdamW, ...)",
    "default-dropped": "a keyword the port needs is left out, so the other framework's "
                       "different default applies",
    "default-changed": "a hyper-parameter or default set to the other framework's value",
    "momentum-complement": "momentum m written where the other framework means 1 - m",
    "scale": "a scale factor: step(n) vs step(1), mean vs sum, rescale_grad, a /n dropped",
    "axis": "an axis, a transpose, a layout, batch_first or a gate order",
    "missing-call": "a call left out: zero_grad, detach, backward, load_states, hybridize, "
                    "cast, a forward pass, ...",
    "mode": "a train/eval mode slip: eval() vs train(), record(train_mode=...)",
    "dtype": "a float32/float64 slip",
    "off-by-one": "an off-by-one in a schedule, a count or an index",
    "activation-dropped": "an activation folded into a Gluon layer lost in the port",
    "check-weakened": "a helper's check or tolerance weakened, so a wrong port passes",
    "validation-dropped": "a check of an untrusted file removed: a malformed value, index, size "
                          "or name reaches the reader's code (a raw error) or the generated "
                          "code",
    "counterpart-swap": "a catalogue entry's PyTorch counterpart (the call shown, or the code "
                        "its check runs) swapped for another entry's: the borrowed answer "
                        "issue 43 found",
}

NOTEBOOKS = {
    "02": "notebooks/02_tensor_ops.ipynb", "03": "notebooks/03_mnist_mlp.ipynb",
    "06": "notebooks/06_blocks.ipynb", "08": "notebooks/08_optimizers_trainer.ipynb",
    "10": "notebooks/10_losses.ipynb", "12": "notebooks/12_tensorboard.ipynb",
    "13": "notebooks/13_serialization.ipynb", "14": "notebooks/14_converting_models.ipynb",
    "15": "notebooks/15_capstone_mnist_to_gluon.ipynb",
    "16": "notebooks/16_capstone_mxnet_to_pytorch.ipynb",
    "17": "notebooks/17_legacy_module_api.ipynb",
}

# the test files (and notebooks) that cover each mutated helper or example
TARGETS = {
    "src/sidebyside/transfer.py": ("tests/test_transfer.py",),
    "src/sidebyside/initmap.py": ("tests/test_initmap.py",),
    "src/sidebyside/optim.py": ("tests/test_optim.py",),
    "src/sidebyside/recordio.py": ("tests/test_recordio.py",),
    "src/sidebyside/convert/api.py": ("tests/test_convert.py",),
    "src/sidebyside/mx2torch/ops.py": ("tests/test_mx2torch_ops.py",),
    "src/sidebyside/mx2torch/optstate.py": ("tests/test_optstate.py",),
    "src/sidebyside/apimap/rows.py": ("notebooks/02_tensor_ops.ipynb",),
    "examples/mnist/main_gluon.py": ("tests/test_examples_mnist.py",),
    "examples/image_classification/main_torch.py": ("tests/test_examples_image_classification.py",),
}

MUTANTS: list[Mutant] = []


def nb(num, id, original, replacement, operator, models, *, cell=None, occurrence=None,
       equivalent=None, targets=()):
    MUTANTS.append(Mutant(f"nb{num}-{id}", NOTEBOOKS[num], original, replacement, operator,
                          models, tuple(targets), cell if cell is not None else original,
                          occurrence, equivalent))


def src(path, id, original, replacement, operator, models, *, occurrence=None,
        equivalent=None, targets=None):
    MUTANTS.append(Mutant(id, path, original, replacement, operator, models,
                          tuple(targets) if targets is not None else TARGETS[path], None,
                          occurrence, equivalent))


# ================================================================== notebook 02: tensors
nb("02", "remainder-fmod", "compare.assert_same(torch.remainder(torch.from_numpy(neg), 3)",
   "compare.assert_same(torch.fmod(torch.from_numpy(neg), 3)", "call-swap",
   "nd.modulo ported as torch.fmod: fmod keeps the dividend's sign, modulo (Python's %) the "
   "divisor's")
nb("02", "fmod-as-modulo", "nd.sign(nd_neg) * nd.modulo(nd.abs(nd_neg), 3))",
   "nd.modulo(nd_neg, 3))", "call-swap",
   "torch.fmod ported as nd.modulo, which is torch.remainder for negative inputs",
   cell="compare.assert_same(torch.remainder(")
nb("02", "repeat-as-repeat", "compare.assert_same(pt_r.repeat(2), nd_r.tile((2,)))",
   "compare.assert_same(pt_r.repeat(2), nd_r.repeat(2))", "call-swap",
   "torch.repeat ported as nd.repeat (which repeats elements, like repeat_interleave) "
   "instead of tile")
nb("02", "gemm-order", "compare.assert_same(pt_addmm, nd.linalg.gemm(nd.array(m1), nd.array(m2), nd.array(M)))",
   "compare.assert_same(pt_addmm, nd.linalg.gemm(nd.array(M), nd.array(m1), nd.array(m2)))",
   "axis", "torch.addmm(M, m1, m2) ported with the arguments in addmm's order: gemm wants "
   "(A, B, C) for A @ B + C")
nb("02", "exponential-scale", "mx_rate = nd.random_exponential(lam=4.0, shape=(20000,))",
   "mx_rate = nd.random.exponential(scale=4.0, shape=(20000,))", "call-swap",
   "exponential_(rate) ported with the rate passed as nd.random.exponential's scale "
   "(1 / rate)")
nb("02", "concat-no-dim", "return nd.concat(*parts, dim=axis)", "return nd.concat(*parts)",
   "default-dropped", "torch.cat(parts, dim) ported as nd.concat without dim: nd.concat's "
   "default is dim=1 (MXNet docs), torch.cat's 0")
nb("02", "slice-end", "parts.append(parts[-1] * nd.slice_axis(a, axis=axis, begin=i, end=i + 1))",
   "parts.append(parts[-1] * nd.slice_axis(a, axis=axis, begin=i, end=i))", "off-by-one",
   "a slice end written inclusively (end=i) where slice_axis's end is exclusive")
nb("02", "float64-dropped", '(nd.array(f64).dtype, nd.array(f64, dtype="float64").dtype,',
   "(nd.array(f64).dtype, nd.array(f64).dtype,", "dtype",
   "torch.from_numpy(float64) ported as nd.array without dtype=: nd.array makes float32")
nb("02", "out-lost", "nd.elemwise_add(nd_c, nd.ones((2,)), out=nd_c)  # in place via out=",
   "nd_c = nd.elemwise_add(nd_c, nd.ones((2,)))  # in place via out=", "missing-call",
   "x.add_(1) ported without out=: a new array, so aliases no longer see the update")
nb("02", "detach-dropped", "assert torch.ones(2, requires_grad=True).detach().numpy().tolist()",
   "assert torch.ones(2, requires_grad=True).numpy().tolist()", "missing-call",
   "asnumpy() of a recorded NDArray ported as .numpy() without detach()")
src("src/sidebyside/apimap/rows.py", "apimap-fmod-row",
    'nd="nd.sign(x) * nd.modulo(nd.abs(x), 0.3)"', 'nd="nd.modulo(x, 0.3)"', "call-swap",
    "the API map's fmod row spelled with nd.modulo (torch.remainder's counterpart)")
src("src/sidebyside/apimap/rows.py", "apimap-repeat-row", 'nd="w.tile((4, 2))"',
    'nd="w.repeat(4, axis=0).repeat(2, axis=1)"', "call-swap",
    "the repeat row spelled with nd.repeat, which repeats elements, not the whole tensor")
src("src/sidebyside/apimap/rows.py", "apimap-cumsum-axis", 'nd="nd.cumsum(x, axis=1)"',
    'nd="nd.cumsum(x, axis=0)"', "axis", "x.cumsum(dim=1) mapped to the wrong axis")

# ================================================================== notebook 03: the MLP
nb("03", "transform", "mx_train_set = train.gluon.transform_first(mx_trans)",
   "mx_train_set = train.gluon.transform(mx_trans)", "call-swap",
   "torchvision's transform= ported as Dataset.transform, which passes (image, label) to "
   "the function, instead of transform_first")
nb("03", "normalize-dropped", "mx_trans = mx_transforms.Compose([mx_transforms.ToTensor(),\n"
   "                                  mx_transforms.Normalize(MEAN, STD)])",
   "mx_trans = mx_transforms.Compose([mx_transforms.ToTensor()])", "missing-call",
   "Compose([ToTensor(), Normalize(...)]) ported without Normalize")
nb("03", "relu-dropped", 'mx_net.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))\n'
   "mx_net.initialize(ctx=mx_ctx)",
   "mx_net.add(gluon.nn.Dense(256), gluon.nn.Dense(10))\nmx_net.initialize(ctx=mx_ctx)",
   "activation-dropped", "Linear, ReLU, Linear ported as two Dense layers: the ReLU "
   "(activation='relu') lost")
nb("03", "step-1", "mx_trainer.step(X.shape[0])", "mx_trainer.step(1)", "scale",
   "CrossEntropyLoss() (a mean) ported as a per-sample loss with trainer.step(1): a "
   "batch-size times larger step")
nb("03", "zero-grad", "        pt_opt.zero_grad()\n        out = pt_net(X.view(-1, 28 * 28))",
   "        out = pt_net(X.view(-1, 28 * 28))", "missing-call",
   "Gluon's loop ported to PyTorch without optimizer.zero_grad(): gradients accumulate")
nb("03", "with-trainer-step", "def with_trainer(gl, trainer, n):\n    trainer.step(n)",
   "def with_trainer(gl, trainer, n):\n    trainer.step(1)", "scale",
   "trainer.step(batch_size) written as step(1) in the lockstep experiment")
nb("03", "by-hand-n", "p.set_data(p.data() - LR * p.grad() / n)",
   "p.set_data(p.data() - LR * p.grad())", "scale",
   "the SGD update written by hand without the 1/n of trainer.step(n)")
nb("03", "test-normalize", "loader = gluon.data.DataLoader(test.gluon.transform_first(mx_trans),",
   "loader = gluon.data.DataLoader(test.gluon.transform_first(mx_transforms.ToTensor()),",
   "missing-call", "the test set loaded without the training set's Normalize")
nb("03", "fresh-relu", '    mx_.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))',
   "    mx_.add(gluon.nn.Dense(256), gluon.nn.Dense(10))", "activation-dropped",
   "the lockstep twin network built without its ReLU")
nb("03", "memory-normalize-dropped",
   "pt_images = ((train.torch.data.to(torch.float32) / 255 - MEAN) / STD).unsqueeze(1)",
   "pt_images = (train.torch.data.to(torch.float32) / 255).unsqueeze(1)", "missing-call",
   "the dataset transformed once into memory without the pipeline's Normalize")
nb("03", "memory-labels-unshuffled",
   "    mx_ = [(mx.nd.take(mx_images, i), mx.nd.take(mx_labels, i))",
   "    mx_ = [(mx.nd.take(mx_images, i), mx_labels[:len(i)])", "off-by-one",
   "batches from memory whose labels are not taken by the same shuffled index as the images")
nb("03", "rescale-grad", "kernel_96 = mx.nd.sgd_update(one, one, lr=0.125, rescale_grad=1 / 96)",
   "kernel_96 = mx.nd.sgd_update(one, one, lr=0.125, rescale_grad=96)", "scale",
   "rescale_grad given the batch size instead of 1 / batch size")

# ================================================================== notebook 06: blocks
nb("06", "flatten", "mx_lin = gluon.nn.Dense(5, flatten=False)", "mx_lin = gluon.nn.Dense(5)",
   "default-dropped", "nn.Linear on a 3-d input ported as Dense(5): Gluon's Dense flattens "
   "all but the first axis by default (flatten=True, MXNet docs)")
nb("06", "ceil-mode", "mx_pool = gluon.nn.MaxPool2D(pool_size=3, strides=2, ceil_mode=True)",
   "mx_pool = gluon.nn.MaxPool2D(pool_size=3, strides=2)", "default-dropped",
   "MaxPool2d(ceil_mode=True) ported without ceil_mode (Gluon's default False)")
nb("06", "padding-dropped", "strides=2, padding=1,", "strides=2,", "default-dropped",
   "Conv2d(padding=1) ported without padding")
nb("06", "xavier-magnitude", 'mx.init.Xavier("uniform", "in", magnitude=1)',
   'mx.init.Xavier("uniform", "in")', "default-dropped",
   "PyTorch's default Linear draw ported as Xavier('uniform', 'in') without magnitude=1: "
   "Xavier's default magnitude is 3 (MXNet docs)")
nb("06", "bias-zero", '"bias_initializer": mx.init.Uniform(1 / np.sqrt(fan_in))}',
   '"bias_initializer": mx.init.Zero()}', "default-changed",
   "PyTorch's U(±1/√fan_in) bias ported as Gluon's zero bias")
nb("06", "rnn-bound", "law = mx.init.Uniform(1 / np.sqrt(hidden_size))",
   "law = mx.init.Uniform(1 / hidden_size)", "scale",
   "the recurrent layers' U(±1/√hidden) written without the square root")
nb("06", "embedding-init", "mx_emb = gluon.nn.Embedding(1000, 16, weight_initializer=mx.init.Normal(1))",
   "mx_emb = gluon.nn.Embedding(1000, 16)", "default-dropped",
   "nn.Embedding's N(0, 1) table ported with Gluon's default initialiser")
nb("06", "cnn-xavier", "mx_cnn.initialize(mx.init.Xavier(magnitude=2.24), ctx=mx_ctx)",
   "mx_cnn.initialize(mx.init.Xavier(), ctx=mx_ctx)", "default-dropped",
   "Xavier(magnitude=2.24) ported as Xavier() (magnitude 3)")
nb("06", "bn-momentum", "mx_bn = gluon.nn.BatchNorm()                 # momentum=0.9",
   "mx_bn = gluon.nn.BatchNorm(momentum=0.1)   # momentum=0.9", "momentum-complement",
   "BatchNorm2d(momentum=0.1) ported literally: Gluon's momentum weighs the old running "
   "value, so 0.1 there is PyTorch's 0.9")
nb("06", "backward-dropped", "        out.backward()           # MXNet moves",
   "        pass                     # MXNet moves", "missing-call",
   "the training step ported without backward(): MXNet updates BatchNorm's running "
   "statistics in backward")
nb("06", "bn-eval", "pt_bn.train()\nfor batch in bn_batches:", "pt_bn.eval()\nfor batch in bn_batches:",
   "mode", "model.train() written as eval(): BatchNorm normalises with running statistics")
nb("06", "record-predict", "        with autograd.record():\n            out = bn(to_mx(batch, mx.cpu()))",
   "        with autograd.record(train_mode=False):\n            out = bn(to_mx(batch, mx.cpu()))",
   "mode", "a training forward recorded in predict mode (record(train_mode=False))")
nb("06", "forward-relu", "return self.out(torch.relu(self.hidden(x)))",
   "return self.out(self.hidden(x))", "activation-dropped",
   "Dense(activation='relu') ported as nn.Linear without the ReLU in forward")
nb("06", "seq-relu", 'mx_seq.add(gluon.nn.Dense(16, activation="relu"), gluon.nn.Dense(3))',
   "mx_seq.add(gluon.nn.Dense(16), gluon.nn.Dense(3))", "activation-dropped",
   "nn.Sequential(Linear, ReLU, Linear) ported without the ReLU")
nb("06", "cast-float64", 'mx_seq64.cast("float64")', 'mx_seq64.cast("float32")', "dtype",
   "a float64 PyTorch network ported into a float32 Gluon one")

# ================================================================== notebook 08: optimisers
nb("08", "step-16", "trainer.step(1)                 # the loss is already",
   "trainer.step(16)                # the loss is already", "scale",
   "a summed loss stepped with step(batch_size): each update 16 times too small")
nb("08", "momentum-complement", 'mx_sgd = gluon_steps("sgd", {"learning_rate": LR, "momentum": MOMENTUM, "wd": WD})',
   'mx_sgd = gluon_steps("sgd", {"learning_rate": LR, "momentum": 1 - MOMENTUM, "wd": WD})',
   "momentum-complement", "SGD momentum ported as 1 - momentum (confusing it with "
   "BatchNorm's convention)")
nb("08", "wd-dropped", 'mx_sgd = gluon_steps("sgd", {"learning_rate": LR, "momentum": MOMENTUM, "wd": WD})',
   'mx_sgd = gluon_steps("sgd", {"learning_rate": LR, "momentum": MOMENTUM})', "default-dropped",
   "SGD(weight_decay=...) ported without wd")
nb("08", "nag-as-sgd", 'return gluon_steps("nag", {"learning_rate": LR, "momentum": MOMENTUM, "wd": wd})',
   'return gluon_steps("sgd", {"learning_rate": LR, "momentum": MOMENTUM, "wd": wd})',
   "call-swap", "SGD(nesterov=True) ported as plain sgd")
nb("08", "adam-eps", 'mx_adam = gluon_steps("adam", {"learning_rate": LR})',
   'mx_adam = gluon_steps("adam", {"learning_rate": LR, "epsilon": 1e-6})', "default-changed",
   "Adam's eps ported with another value")
nb("08", "torchadam", 'mx_torchadam = gluon_steps("torchadam", {"learning_rate": LR})',
   'mx_torchadam = gluon_steps("adam", {"learning_rate": LR})', "call-swap",
   "torch.optim.Adam ported as MXNet's adam, which puts epsilon outside the bias correction")
nb("08", "adamw-as-adam", "pt_adamw = torch_steps(lambda p: torch.optim.AdamW(p, lr=LR, weight_decay=0.01))",
   "pt_adamw = torch_steps(lambda p: torch.optim.Adam(p, lr=LR, weight_decay=0.01))",
   "call-swap", "Gluon's adam(wd) mapped to AdamW's neighbour Adam (coupled decay)")
nb("08", "step-n-1", "    loss.backward()\n    trainer.step(n)", "    loss.backward()\n    trainer.step(1)",
   "scale", "a mean loss stepped with step(n) where step(1) is meant (or the reverse)")
nb("08", "schedule-off-by-one", "return np.array([scheduler(n) for n in range(1, EPOCHS * PER_EPOCH + 1)])",
   "return np.array([scheduler(n) for n in range(0, EPOCHS * PER_EPOCH)])", "off-by-one",
   "an MXNet lr_scheduler called from update 0: MXNet counts num_update from 1")
nb("08", "milestones", "for steps in ((6, 9), (2, 3))}", "for steps in ((5, 8), (2, 3))}",
   "off-by-one", "MultiStepLR milestones × batches per epoch, minus one")
nb("08", "clip-eps", "scale = torch.clamp(max_norm / (norm + 1e-8), max=1.0)",
   "scale = torch.clamp(max_norm / (norm + 1e-6), max=1.0)", "default-changed",
   "clip_global_norm's 1e-8 written as clip_grad_norm_'s 1e-6")
nb("08", "load-states", '\n        trainer.load_states(os.path.join(tmp, "trainer.states"))', "",
   "missing-call", "resuming a Gluon run without trainer.load_states (momentum lost)",
   cell="def mx_resume")
nb("08", "load-optimizer", '\n    optimizer.load_state_dict(checkpoint["optimizer"])', "",
   "missing-call", "resuming a PyTorch run without optimizer.load_state_dict",
   cell="def pt_resume")
nb("08", "zero-grad", "        optimizer.zero_grad()\n        (0.5 * ((model(x) - y) ** 2).sum()).backward()\n        optimizer.step()\n        path",
   "        (0.5 * ((model(x) - y) ** 2).sum()).backward()\n        optimizer.step()\n        path",
   "missing-call", "the Gluon loop ported to PyTorch without zero_grad (Gluon overwrites "
   "gradients, grad_req='write')", cell="def torch_steps")
nb("08", "update-n", "mx_one_trainer.update(16)", "mx_one_trainer.update(1)", "scale",
   "allreduce_grads() + update(n) written with update(1)")

# ================================================================== notebook 10: losses
nb("10", "from-logits-twice", 'gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)(\n        mx.nd.log_softmax(n(logits)), n(labels))',
   "gluon.loss.SoftmaxCrossEntropyLoss()(\n        mx.nd.log_softmax(n(logits)), n(labels))",
   "default-dropped", "nll_loss(log_softmax(x)) ported without from_logits=True: a second "
   "log_softmax", equivalent="log_softmax is idempotent (its output's logsumexp is 0, so "
   "log_softmax(log_softmax(x)) = log_softmax(x)); §1 itself asserts `twice` equals the "
   "single one within 1e-12, and this cell displays only shapes")
nb("10", "sparse-label", "sparse_label=False)(n(logits), n(probs))", ")(n(logits), n(probs))",
   "default-dropped", "CrossEntropyLoss with probability targets ported without "
   "sparse_label=False (default True reads the targets as class indices)")
nb("10", "sample-weight-shape", "ignored = ce(n(logits), n(masked) * keep, keep.reshape((-1, 1)))",
   "ignored = ce(n(logits), n(masked) * keep, keep)", "axis",
   "ignore_index's 0/1 sample_weight given shape (N,) instead of (N, 1)")
nb("10", "smoothing", "* (1 - 0.1) + 0.1 / C", "* (1 - 0.1) + 0.1 / (C - 1)", "off-by-one",
   "label smoothing spread over C - 1 classes (PyTorch spreads over all C)")
nb("10", "from-sigmoid", '"BCELoss": gluon.loss.SigmoidBCELoss(from_sigmoid=True)(mx.nd.sigmoid(n(bin_logits)),',
   '"BCELoss": gluon.loss.SigmoidBCELoss()(mx.nd.sigmoid(n(bin_logits)),', "default-dropped",
   "BCELoss (on probabilities) ported as SigmoidBCELoss() without from_sigmoid=True: a "
   "second sigmoid")
nb("10", "pos-weight", "n(bin_targets), None,\n                                              n(pos_weight))",
   "n(bin_targets))", "missing-call", "BCEWithLogitsLoss(pos_weight=...) ported without "
   "pos_weight")
nb("10", "l2-factor", '"MSELoss": 1 / 2,', '"MSELoss": 1,', "scale",
   "MSELoss mapped to L2Loss without its factor ½")
nb("10", "huber-factor", '"HuberLoss(delta=rho)": 1 / RHO}', '"HuberLoss(delta=rho)": RHO}',
   "scale", "HuberLoss(delta) mapped to Gluon's HuberLoss(rho) times rho instead of ÷ rho")
nb("10", "huber-rho", '"SmoothL1Loss(beta=rho)": gluon.loss.HuberLoss(rho=RHO)(n(pred), n(true)),',
   '"SmoothL1Loss(beta=rho)": gluon.loss.HuberLoss()(n(pred), n(true)),', "default-dropped",
   "SmoothL1Loss(beta) ported as HuberLoss() without rho (default 1)")
nb("10", "kl-softmax", '"from_logits=True": gluon.loss.KLDivLoss()(mx.nd.log_softmax(n(logits)), n(probs))',
   '"from_logits=True": gluon.loss.KLDivLoss()(mx.nd.softmax(n(logits)), n(probs))',
   "call-swap", "KLDivLoss's log-probability input written with softmax instead of "
   "log_softmax")
nb("10", "train-step-1", "        trainer.step(BATCH)", "        trainer.step(1)", "scale",
   "F.cross_entropy (mean) ported with a per-sample loss and step(1)", cell="def mx_run")
nb("10", "cast-dropped", "    net.cast(dtype)\n", "    net.cast(\"float64\")\n", "dtype",
   "the Gluon network left in float64 while the data is float32", cell="def mx_run")
nb("10", "zero-grad", "        opt.zero_grad()\n", "", "missing-call",
   "the PyTorch loop without zero_grad", cell="def pt_run")
nb("10", "grad-sum-mean", 'F.cross_entropy(x, t(y_batch), reduction="sum").backward()',
   'F.cross_entropy(x, t(y_batch), reduction="mean").backward()', "scale",
   "Gluon's per-sample loss + backward (a sum's gradient) compared with a mean's")
nb("10", "lse-keepdims", "F.log(F.sum(F.exp(z), axis=self._axis, keepdims=True)) - F.pick(\n            z, label, axis=self._axis, keepdims=True)",
   "F.log(F.sum(F.exp(z), axis=self._axis, keepdims=True)) - F.pick(\n            z, label, axis=self._axis)",
   "axis", "F.pick without keepdims=True: (N, 1) minus (N,) broadcasts to (N, N)")
nb("10", "permute-transpose", "x_pt.permute(0, 2, 1)", "x_pt.transpose(1, 2)", "axis",
   "(N, T, C) logits moved to (N, C, T) with transpose(1, 2) instead of permute",
   equivalent="for a 3-d tensor permute(0, 2, 1) and transpose(1, 2) are the same view "
   "(the same strides, the same values)")

# ================================================================== notebook 12: tensorboard
nb("12", "mean-dropped", "            loss = loss_fn(net(x), y).mean()",
   "            loss = loss_fn(net(x), y)", "scale",
   "the mxboard run's loss left per sample with trainer.step(1): the gradient of a sum, "
   "not PyTorch's mean")
nb("12", "hybridize-dropped", "    net.hybridize()\n    trainer", "    trainer", "missing-call",
   "sw.add_graph(net) needs a hybridized network: hybridize() left out",
   cell="MXBOARD_SCRIPT")
nb("12", "step-128", "        trainer.step(1)\n        losses.append(float(loss.asscalar()))",
   "        trainer.step(128)\n        losses.append(float(loss.asscalar()))", "scale",
   "a mean loss stepped with step(batch_size)", cell="MXBOARD_SCRIPT")
nb("12", "zero-grad", "    opt.zero_grad()\n    loss = torch.nn.functional.cross_entropy(pt_mlp(X[step]), Y[step])",
   "    loss = torch.nn.functional.cross_entropy(pt_mlp(X[step]), Y[step])", "missing-call",
   "the PyTorch logging loop without zero_grad")
nb("12", "detach-grad", "grad = param.grad.detach().cpu().numpy()", "grad = param.grad.cpu().numpy()",
   "missing-call", "a gradient histogram written from param.grad without detach()",
   equivalent="param.grad of a leaf is not tracked by autograd (backward ran without "
   "create_graph=True), so .numpy() works on it without detach() and gives the same values")
nb("12", "adam-relu", 'mx_adam_net.add(gluon.nn.Dense(256, activation="relu", in_units=784),',
   "mx_adam_net.add(gluon.nn.Dense(256, in_units=784),", "activation-dropped",
   "the Gluon twin of Linear, ReLU, Linear without the ReLU")
nb("12", "adam-step", "        mx_adam.step(1)", "        mx_adam.step(128)", "scale",
   "Adam stepped with step(batch_size) on a mean loss (Adam is nearly scale-invariant: "
   "only epsilon sees it)",
   equivalent="Adam's step is lr·m/(√v + ε): a gradient scaled by 1/128 scales m and √v by "
   "1/128 alike, so the step changes only for a parameter whose √v/128 comes near ε = 1e-8. "
   "Run on 2026-12-03, the mutant's losses stayed within the bound the two frameworks' Adams "
   "are held to (it survived): a wrong step() scale does not show in Adam's training, unlike "
   "SGD's (mutants nb03 step-1 and nb08 step-16 are killed)")
nb("12", "adam-lr", 'mx_adam = gluon.Trainer(mx_adam_net.collect_params(), "adam", {"learning_rate": 1e-3})',
   'mx_adam = gluon.Trainer(mx_adam_net.collect_params(), "adam", {"learning_rate": 1e-2})',
   "default-changed", "Adam's learning rate ported with another value")
nb("12", "adam-zero-grad", "        pt_adam.zero_grad()\n", "", "missing-call",
   "the PyTorch Adam loop without zero_grad", cell="adam_losses = {")

# ================================================================== notebook 13: serialization
nb("13", "load-states", 'mx_resumed_trainer.load_states(str(WORK / "ckpt" / "trainer.states"))',
   "pass  # trainer state not restored", "missing-call",
   "a Gluon checkpoint resumed without trainer.load_states")
nb("13", "load-optimizer", 'resumed_opt.load_state_dict(state["optimizer"])',
   "pass  # optimizer state not restored", "missing-call",
   "a PyTorch checkpoint resumed without optimizer.load_state_dict")
nb("13", "epoch-off-by-one", 'pt_train(resumed, resumed_opt, 6 - state["epoch"])',
   'pt_train(resumed, resumed_opt, 6 - state["epoch"] + 1)', "off-by-one",
   "the resumed run repeats the checkpoint's epoch")
nb("13", "export-eval", "nn.Linear(4 * 6 * 6, 3)).eval()", "nn.Linear(4 * 6 * 6, 3))", "mode",
   "a network exported without eval(): BatchNorm traced on batch statistics")
nb("13", "export-hybridize", "mx_cnn.hybridize()\nmx_cnn(mx.nd.array(x_img.numpy()))",
   "mx_cnn(mx.nd.array(x_img.numpy()))", "missing-call",
   "HybridBlock.export without hybridize() and a forward pass")
nb("13", "mean-sum", "            loss = ((model(x) - y) ** 2).mean()",
   "            loss = ((model(x) - y) ** 2).sum()", "scale",
   "mse_loss (a mean) ported as a sum with trainer.step(1)")
nb("13", "step-64", "        trainer.step(1)\n\n\ntorch.manual_seed(0)",
   "        trainer.step(64)\n\n\ntorch.manual_seed(0)",
   "scale", "a mean loss stepped with step(batch_size)", cell="def mx_train")
nb("13", "save-params", 'mx_model.save_parameters(str(WORK / "ckpt" / "model.params"))',
   'mx_model.save_params(str(WORK / "ckpt" / "model.params"))', "call-swap",
   "save_parameters swapped for the deprecated save_params (keys with the network's prefix)")
nb("13", "relu-dropped", 'self.hidden = gluon.nn.Dense(hidden, in_units=4, activation="relu")',
   "self.hidden = gluon.nn.Dense(hidden, in_units=4)", "activation-dropped",
   "the Gluon twin of TorchNet (relu in forward) without activation='relu'")

# ================================================================== notebook 14: converting
nb("14", "lstm-layout", 'self.lstm = rnn.LSTM(hidden, num_layers=2, layout="NTC", input_size=dim)',
   "self.lstm = rnn.LSTM(hidden, num_layers=2, input_size=dim)", "default-dropped",
   "LSTM(batch_first=True) ported without layout='NTC' (Gluon's default is TNC)")
nb("14", "head-flatten", "self.head = gluon.nn.Dense(tags, flatten=False, in_units=hidden)",
   "self.head = gluon.nn.Dense(tags, in_units=hidden)", "default-dropped",
   "a per-step Linear head ported as Dense without flatten=False", occurrence=1,
   cell="class GluonTagger")
nb("14", "gru-output", "return self.head(self.gru(self.embed(tokens))[0])",
   "return self.head(self.gru(self.embed(tokens))[1])", "axis",
   "nn.GRU's (output, h_n) indexed for the state instead of the output")
nb("14", "cast-resnet64", 'mx_resnet64.cast("float64")\n', "", "missing-call",
   "the float64 comparison without casting the Gluon network")
nb("14", "grad-per-sample", "mx_g = mx_param.grad().asnumpy() / len(y_train)",
   "mx_g = mx_param.grad().asnumpy()", "scale",
   "Gluon's gradient of a summed loss compared with PyTorch's mean without ÷ n")
nb("14", "lenet-hybridize", "mx_lenet.hybridize()\n", "", "missing-call",
   "export() without hybridize()")
nb("14", "deferred-forward", "mx_resnet(mx.nd.zeros((1, 3, 64, 64)))          # deferred shapes\n",
   "", "missing-call", "save_parameters before the forward pass that finishes deferred "
   "initialisation")
nb("14", "tagger64-cast", 'mx_tagger64.cast("float64")\n', "", "missing-call",
   "a float64 PyTorch network copied into a float32 Gluon one")
nb("14", "mlp-relu", 'mx_mlp.add(gluon.nn.Dense(256, activation="relu"), gluon.nn.Dense(10))',
   "mx_mlp.add(gluon.nn.Dense(256), gluon.nn.Dense(10))", "activation-dropped",
   "the legacy MLP built without its ReLU")

# ================================================================== notebook 15: capstone 1
nb("15", "eval-dropped", "pt_net = main_torch.Net().double().eval()",
   "pt_net = main_torch.Net().double()", "mode",
   "the PyTorch net compared without eval(): its Dropout is active")
nb("15", "cast-dropped", 'mx_net.cast("float64")\npairs', "pairs", "missing-call",
   "the float64 comparison without casting the Gluon net", cell="pt_net = main_torch.Net()")
nb("15", "normalize-dropped", "[gluon.data.vision.transforms.ToTensor(),\n     gluon.data.vision.transforms.Normalize(spec.mean, spec.std)])",
   "[gluon.data.vision.transforms.ToTensor()])", "missing-call",
   "the test transform ported without Normalize")
nb("15", "transform", ".take(2000).transform_first(mx_transform)", ".take(2000).transform(mx_transform)",
   "call-swap", "transform= ported as Dataset.transform instead of transform_first")
nb("15", "lockstep-float32", 'one_step = lockstep.run(lockstep.batches(1, 16), dtype="float64")',
   'one_step = lockstep.run(lockstep.batches(1, 16), dtype="float32")', "dtype",
   "the one-step proof run in float32, where rounding hides nothing and shows everything")
nb("15", "nll-mean", 'pt_mean = F.nll_loss(torch.from_numpy(pt_logp), torch.from_numpy(labels)).item()',
   'pt_mean = F.nll_loss(torch.from_numpy(pt_logp), torch.from_numpy(labels), reduction="sum").item()',
   "scale", "nll_loss's default mean read as a sum")
nb("15", "same-stream", 'replaced = {"PyTorch": samerandom.use_same_dropout(pt_same, draws.stream("PyTorch")),',
   'replaced = {"PyTorch": samerandom.use_same_dropout(pt_same, draws.stream("Gluon")),',
   "call-swap", "both frameworks given the Gluon stream's masks (the names swapped)")
nb("15", "test-loader", "mx.cpu(), gluon.data.DataLoader(mx_test_set,\n                                                                      batch_size=1000))",
   "mx.cpu(), gluon.data.DataLoader(mx_test_set,\n                                                                      batch_size=1000, shuffle=True))",
   "default-changed", "the test loader shuffled (shuffle=True) where PyTorch's is in order",
   equivalent="test() sums the per-sample losses and counts the correct predictions over "
   "the whole set: the order of the batches changes neither, up to float rounding of the "
   "sum that the cell's printed :.4f average hides")
src("examples/mnist/main_gluon.py", "mnist-xavier-magnitude", "magnitude=1),", "magnitude=3),",
    "default-changed", "PyTorch's U(±1/√fan_in) draw ported as Xavier('uniform', 'in') with "
    "MXNet's default magnitude 3")
src("examples/mnist/main_gluon.py", "mnist-factor-type", "factor_type='in',", "factor_type='avg',",
    "default-changed", "Xavier's factor_type left at its default 'avg' instead of 'in'")
src("examples/mnist/main_gluon.py", "mnist-bias-zero",
    "bias_initializer=mx.init.Uniform(1 / math.sqrt(fan_in)))",
    "bias_initializer=mx.init.Zero())", "default-changed",
    "PyTorch's uniform bias ported as Gluon's zero bias")
src("examples/mnist/main_gluon.py", "mnist-log-softmax", "return F.log_softmax(x, axis=1)",
    "return F.softmax(x, axis=1)", "call-swap", "F.log_softmax ported as F.softmax")
src("examples/mnist/main_gluon.py", "mnist-from-logits",
    "nll_loss = gluon.loss.SoftmaxCrossEntropyLoss(from_logits=True)",
    "nll_loss = gluon.loss.SoftmaxCrossEntropyLoss()", "default-dropped",
    "F.nll_loss of log-probabilities ported without from_logits=True",
    equivalent="the network ends in log_softmax, and log_softmax is idempotent: the loss "
    "is the same, and so is its gradient (d/dz of -z_y + logsumexp(z) with z = "
    "log_softmax(x) is softmax(x) - onehot(y), as without the second log_softmax); the "
    "lockstep tests' float64 tolerance covers the rounding")
src("examples/mnist/main_gluon.py", "mnist-step-1", "trainer.step(images.shape[0])",
    "trainer.step(1)", "scale", "a per-sample loss stepped with step(1): F.nll_loss's mean "
    "becomes a sum")
src("examples/mnist/main_gluon.py", "mnist-avg-pool", "stride=(2, 2), pool_type='max')",
    "stride=(2, 2), pool_type='avg')", "call-swap", "F.max_pool2d ported as average pooling")
src("examples/mnist/main_gluon.py", "mnist-dropout-keep", "self.dropout1 = nn.Dropout(0.25)",
    "self.dropout1 = nn.Dropout(0.75)", "default-changed",
    "Dropout's drop probability written as a keep probability (1 - p)")
src("examples/mnist/main_gluon.py", "mnist-adadelta", "'torchadadelta',", "'adadelta',",
    "call-swap", "optim.Adadelta ported as MXNet's adadelta, which ignores learning_rate and "
    "uses epsilon=1e-5 (MXNet docs)")
src("examples/mnist/main_gluon.py", "mnist-epochs", "for epoch in range(1, args.epochs + 1):",
    "for epoch in range(1, args.epochs):", "off-by-one", "an epoch loop one short")

# ================================================================== notebook 16: capstone 2
nb("16", "train-as-eval", "pt_net.train()\npt_logits", "pt_net.eval()\npt_logits", "mode",
   "the batch-statistics comparison run with the port in eval()")
nb("16", "record-predict", "with autograd.record():                      # BatchNorm on batch statistics",
   "with autograd.pause():                       # BatchNorm on batch statistics", "mode",
   "MXNet's training-mode forward run outside record(): running statistics used")
nb("16", "eval-as-train", "pt_model = main_torch.get_model(name, 10, thumbnail=thumb, in_channels=1).eval()",
   "pt_model = main_torch.get_model(name, 10, thumbnail=thumb, in_channels=1).train()", "mode",
   "an inference comparison run with the port in train()")
nb("16", "bn-backward", "y_bn.backward()\n", "", "missing-call",
   "a training step without backward: MXNet moves BatchNorm's running variance in backward")
nb("16", "bn-eval", "pt_bn = torch.nn.BatchNorm2d(3).double().train()",
   "pt_bn = torch.nn.BatchNorm2d(3).double().eval()", "mode",
   "PyTorch's BatchNorm run in eval(): its running statistics stay put")
nb("16", "macro-accuracy", 'pt_acc = MulticlassAccuracy(num_classes=10, average="micro")',
   "pt_acc = MulticlassAccuracy(num_classes=10)", "default-dropped",
   "mx.metric.Accuracy ported as torchmetrics' MulticlassAccuracy without average='micro' "
   "(its default is macro)")
nb("16", "conv-bias", "plain50.conv1 = torch.nn.Conv2d(1, 64, 7, 2, 3, bias=False)",
   "plain50.conv1 = torch.nn.Conv2d(1, 64, 7, 2, 3)", "default-dropped",
   "Conv2D(use_bias=False) ported as Conv2d with its default bias=True",
   equivalent="the cell shows the converter refusing the v1/v1.5 stride: transfer checks every "
   "layer pair's hyper-parameters before it compares any parameter, so the stride error on "
   "'layer2.0.conv1' comes first with or without a bias on conv1 (run 2026-12-03: the "
   "mutant passed). A bias on one side only is refused by the parameter check "
   "(\"'bias' exists on the PyTorch side only\"), which tests/test_transfer.py covers")
nb("16", "float32-net", 'mx_net = lockstep.gluon_net("resnet18_v1", dtype="float64")',
   'mx_net = lockstep.gluon_net("resnet18_v1", dtype="float32")', "dtype",
   "a float32 Gluon network copied into a float64 PyTorch one")
src("examples/image_classification/main_torch.py", "ic-pixel-scale",
    "astype(np.float32) / 256)", "astype(np.float32) / 255)", "scale",
    "MNISTIter's pixels / 256 ported as torchvision's / 255")
src("examples/image_classification/main_torch.py", "ic-fit-defaults",
    "lr, wd = (0.01, 0.0) if symbolic else (opt.lr, opt.wd)", "lr, wd = (opt.lr, opt.wd)",
    "default-changed", "Module.fit's own learning rate 0.01 and no weight decay (it ignores "
    "the script's --lr/--wd) ported as the flags")
src("examples/image_classification/main_torch.py", "ic-zero-grad",
    "            optimizer.zero_grad()\n", "", "missing-call",
    "the training loop without zero_grad (Gluon overwrites gradients)")
src("examples/image_classification/main_torch.py", "ic-eval-dropped", "    net.eval()\n", "",
    "missing-call", "validation without eval(): BatchNorm on batch statistics")
src("examples/image_classification/main_torch.py", "ic-init",
    "init_like_mxnet(net, uniform_001 if symbolic else xavier_224)",
    "init_like_mxnet(net, xavier_224)", "default-changed",
    "the symbolic mode's Uniform(0.01) initialiser ported as the Gluon mode's Xavier")
src("examples/image_classification/main_torch.py", "ic-last-batch",
    "for i in range(0, n - batch_size + 1, batch_size)]", "for i in range(0, n, batch_size)]",
    "off-by-one", "MNISTIter's dropped last partial batch kept (last_batch 'keep' vs "
    "'discard')", equivalent="the training DataLoader has drop_last=True: the partial chunk "
    "the mutant keeps is always the last of its replica's order (chunks[rank::world] keeps "
    "the chunks' order) and is dropped there, so every replica sees the same full batches; "
    "nothing else reads the sampler's length (run 2026-12-03: the mutant passed)")
src("examples/image_classification/main_torch.py", "ic-metric-detach",
    "metric.update(out.detach(), y)", "metric.update(out, y)", "missing-call",
    "the accuracy metric fed the tracked output without detach()",
    equivalent="MulticlassAccuracy.update only takes the argmax of the output and counts "
    "matches; a tracked output keeps its graph alive a little longer, the counts are the same")

# ================================================================== notebook 17: Module API
nb("17", "relu-dropped", "return self.fc2(torch.relu(self.fc1(x)))", "return self.fc2(self.fc1(x))",
   "activation-dropped", "the symbol's Activation(act_type='relu') lost in the port")
nb("17", "log-softmax", 'drift = {"float64": compare.max_abs_diff(torch.softmax(pt_logits, 1), mx_out),',
   'drift = {"float64": compare.max_abs_diff(torch.log_softmax(pt_logits, 1), mx_out),',
   "call-swap", "SoftmaxOutput's forward (probabilities) read as log-probabilities")
nb("17", "lr-f32", "pt_sgd = torch.optim.SGD(pt_step.parameters(), lr=f32(0.1))",
   "pt_sgd = torch.optim.SGD(pt_step.parameters(), lr=0.1)", "dtype",
   "the learning rate not rounded to float32 as MXNet's sgd_update kernel takes it")
nb("17", "reduction-sum", "pt_loss = nn.CrossEntropyLoss()(pt_step(torch.from_numpy(X_train[:BATCH])),",
   'pt_loss = nn.CrossEntropyLoss(reduction="sum")(pt_step(torch.from_numpy(X_train[:BATCH])),',
   "scale", "SoftmaxOutput's summed gradient with rescale_grad 1/batch ported as a sum")
nb("17", "zero-grad-fresh", "pt_sgd.zero_grad()\npt_loss.backward()", "pt_loss.backward()",
   "missing-call", "a PyTorch step without zero_grad",
   equivalent="pt_step was built by torch_from in this cell and no backward has run on it "
   "yet, so every .grad is None and zero_grad() (set_to_none=True) changes nothing")
nb("17", "weight-transpose", "net.load_state_dict({\".\".join(name.rsplit(\"_\", 1)): torch.from_numpy(a.asnumpy())",
   "net.load_state_dict({\".\".join(name.rsplit(\"_\", 1)): torch.from_numpy(a.asnumpy().T.copy())",
   "axis", "FullyConnected's (out, in) weight transposed on the way to nn.Linear (a "
   "TensorFlow habit)")
nb("17", "is-train", "mx_mod.forward(batch_of(X_test[:BATCH], y_test[:BATCH]), is_train=False)",
   "mx_mod.forward(batch_of(X_test[:BATCH], y_test[:BATCH]), is_train=True)", "mode",
   "an inference forward run with is_train=True",
   equivalent="the symbol has no Dropout or BatchNorm and SoftmaxOutput's forward is the "
   "softmax in both modes, so the outputs are the same")
nb("17", "label-dtype", '[mx.io.DataDesc("softmax_label", (batch,), dtype="float64")])',
   '[mx.io.DataDesc("softmax_label", (batch,))])', "dtype",
   "the label's DataDesc left float32 next to float64 data")
nb("17", "pad-dropped", "order = np.arange(n * batch) % len(X) if pad_like_mxnet else np.arange(len(X))",
   "order = np.arange(len(X))", "off-by-one",
   "NDArrayIter's last_batch_handle='pad' (the last batch filled from the start) dropped")
nb("17", "fit-lr", "pt_fit = torch_epoch(torch_from(initial), X_train, y_train, lr=f32(0.01))",
   "pt_fit = torch_epoch(torch_from(initial), X_train, y_train, lr=f32(0.1))",
   "default-changed", "Module.fit's default learning rate 0.01 ported as 0.1")
nb("17", "predict-eval", "    net.eval()\n    with torch.no_grad():\n        return torch.cat(",
   "    with torch.no_grad():\n        return torch.cat(", "missing-call",
   "predict ported without eval()", cell="def torch_predict",
   equivalent="MLP is two Linear layers and a ReLU: no Dropout or BatchNorm, so train() and "
   "eval() compute the same outputs")
nb("17", "period", "        if (epoch + 1) % period == 0:", "        if epoch % period == 0:",
   "off-by-one", "do_checkpoint(period) counted from epoch 0 instead of 1")

# ================================================================== sidebyside.transfer
T = "src/sidebyside/transfer.py"
src(T, "transfer-gamma-beta", '[("weight", "gamma"), ("bias", "beta"),\n                   ("running_mean"',
    '[("weight", "beta"), ("bias", "gamma"),\n                   ("running_mean"', "axis",
    "BatchNorm's weight/bias mapped to beta/gamma the wrong way round")
src(T, "transfer-running-swap", '("running_mean", "running_mean"), ("running_var", "running_var")',
    '("running_mean", "running_var"), ("running_var", "running_mean")', "axis",
    "running mean and variance swapped")
src(T, "transfer-momentum", 'if not _close(kw["momentum"], 1 - t.momentum):',
    'if not _close(kw["momentum"], t.momentum):', "momentum-complement",
    "BatchNorm momentum compared literally instead of Gluon m = 1 - PyTorch m")
src(T, "transfer-i2h-h2h", '(f"weight_ih_l{k}{suffix}", f"{d}{k}_i2h_weight"),\n'
    '                      (f"weight_hh_l{k}{suffix}", f"{d}{k}_h2h_weight"),',
    '(f"weight_ih_l{k}{suffix}", f"{d}{k}_h2h_weight"),\n'
    '                      (f"weight_hh_l{k}{suffix}", f"{d}{k}_i2h_weight"),', "axis",
    "weight_ih/weight_hh mapped to h2h/i2h")
src(T, "transfer-gate-order", "            value = slot.t.detach().cpu().numpy()\n",
    "            value = slot.t.detach().cpu().numpy()\n"
    "            if pair.kind == \"lstm\" and value.shape[0] % 4 == 0:\n"
    "                i, f, g_, o = np.split(value, 4)\n"
    "                value = np.concatenate([i, f, o, g_])\n", "axis",
    "LSTM gates reordered i,f,g,o -> i,f,o,g on the way (as for a framework with another "
    "gate order)")
src(T, "transfer-batch-first", 'layout = "NTC" if t.batch_first else "TNC"',
    'layout = "TNC" if t.batch_first else "NTC"', "axis", "batch_first mapped to the wrong "
    "layout")
src(T, "transfer-dtype", "g.set_data(mx.nd.array(value, ctx=g_ctx, dtype=value.dtype))",
    "g.set_data(mx.nd.array(value, ctx=g_ctx))", "dtype",
    "values copied through mx.nd.array without dtype=: float64 rounded to float32")
src(T, "transfer-eps-check", '        if not _close(t.eps, kw["eps"]):\n            _refuse(pair, "eps differs"',
    '        if False:\n            _refuse(pair, "eps differs"', "check-weakened",
    "BatchNorm eps never compared")
src(T, "transfer-tie-dedupe", "        if id(g) in done:   # a tied weight: one Gluon Parameter, one copy\n"
    "            continue\n", "", "check-weakened",
    "a tied Gluon Parameter written once per layer that uses it. (Once argued equivalent: "
    "_check_ties makes the second write store the same values; but the module promises "
    "one copy of a tie, and tests/test_transfer.py::test_a_tied_lm_copies_both_ways_and_"
    "keeps_its_tie counts the set_data calls, so the run killed it, rightly.)")
src(T, "transfer-back-transpose", "slot.t.copy_(torch.from_numpy(slot.g.data().asnumpy()).to(",
    "slot.t.copy_(torch.from_numpy(slot.g.data().asnumpy().T.copy()).to(", "axis",
    "Gluon weights transposed on the way back to PyTorch")

# ================================================================== sidebyside.initmap
I = "src/sidebyside/initmap.py"
src(I, "initmap-xavier-magnitude-default", 'magnitude = float(kw.get("magnitude", 3))',
    'magnitude = float(kw.get("magnitude", 2.24))', "default-changed",
    "Xavier's magnitude defaulted to the legacy scripts' 2.24 instead of MXNet's 3",
    equivalent="mx.init.Xavier.__init__ passes rnd_type, factor_type and magnitude to "
    "Initializer.__init__ always, so dumps() always carries 'magnitude' and this default is "
    "never read (mxnet/initializer.py; Xavier().dumps() == '[\"xavier\", {\"rnd_type\": "
    "\"uniform\", \"factor_type\": \"avg\", \"magnitude\": 3}]')")
src(I, "initmap-fans-swapped", "return shape[1] * kernel, shape[0] * kernel",
    "return shape[0] * kernel, shape[1] * kernel", "axis",
    "fan_in and fan_out read from the wrong axes of an (out, in, *kernel) weight")
src(I, "initmap-avg", 'factors = {"avg": (fan_in + fan_out) / 2.0,', 'factors = {"avg": fan_in + fan_out,',
    "scale", "Xavier's 'avg' factor without the ½ (Glorot's fan_in + fan_out)")
src(I, "initmap-kernel", "kernel = math.prod(shape[2:])", "kernel = 1", "axis",
    "convolution fans computed without the receptive field")
src(I, "initmap-uniform-range", "nn.init.uniform_(p, -value, value)", "nn.init.uniform_(p, 0.0, value)",
    "default-changed", "U(−s, s) drawn as U(0, s), torch.nn.init.uniform_'s default a=0")
src(I, "initmap-normal-std", "nn.init.normal_(p, 0.0, value)", "nn.init.normal_(p, 0.0, value ** 2)",
    "scale", "Normal(sigma) drawn with sigma² as the standard deviation")
src(I, "initmap-gamma-beta", 'return ("constant", 1.0) if leaf == "weight" else ("constant", 0.0)',
    'return ("constant", 0.0) if leaf == "weight" else ("constant", 1.0)', "axis",
    "BatchNorm's gamma 1 and beta 0 swapped")
src(I, "initmap-prelu", "_PRELU_SLOPE = 0.25", "_PRELU_SLOPE = 0.01", "default-changed",
    "PReLU's slope taken from LeakyReLU's 0.01 instead of Gluon's 0.25")
src(I, "initmap-msra", 'magnitude = 2.0 / (1 + kw.get("slope", 0.25) ** 2)',
    'magnitude = 2.0 / (1 + kw.get("slope", 0.25))', "scale",
    "MSRAPrelu's magnitude without the square of the slope")
src(I, "initmap-padding", "            mod.weight[mod.padding_idx].fill_(0.0)\n", "", "missing-call",
    "Embedding's padding_idx row left as drawn")
src(I, "initmap-running-stats", "            mod.reset_running_stats()\n", "", "missing-call",
    "the running statistics not reset")

# ================================================================== sidebyside.optim
O = "src/sidebyside/optim.py"
src(O, "optim-adam-eps", "denom = mx.nd.sqrt(second) / bias_correction2_sqrt + self.epsilon",
    "denom = (mx.nd.sqrt(second) + self.epsilon) / bias_correction2_sqrt", "default-changed",
    "Adam's epsilon inside the bias correction (MXNet's place) instead of outside (PyTorch's)")
src(O, "optim-adam-t", "step_size = lr / (1.0 - beta1 ** t)", "step_size = lr / (1.0 - beta1 ** (t + 1))",
    "off-by-one", "Adam's bias correction counted from step 0 instead of 1")
src(O, "optim-adamw-lr", "weight *= 1.0 - lr * wd", "weight *= 1.0 - wd", "scale",
    "AdamW's decoupled decay without the learning rate")
src(O, "optim-adamw-wd", "epsilon=1e-8, wd=0.01,\n                 amsgrad=False", "epsilon=1e-8, wd=0.0,\n                 amsgrad=False",
    "default-changed", "TorchAdamW's weight decay default 0 instead of torch.optim.AdamW's 0.01")
src(O, "optim-adadelta-eps", "def __init__(self, learning_rate=None, rho=0.9, epsilon=1e-6, wd=0.0",
    "def __init__(self, learning_rate=None, rho=0.9, epsilon=1e-5, wd=0.0", "default-changed",
    "Adadelta's eps taken from MXNet's adadelta (1e-5) instead of PyTorch's 1e-6")
src(O, "optim-adadelta-lr", "weight -= lr * delta", "weight -= delta", "scale",
    "Adadelta's step without the learning rate, as MXNet's own adadelta")
src(O, "optim-rescale", "g = grad * opt.rescale_grad if opt.rescale_grad != 1.0 else grad",
    "g = grad", "scale", "rescale_grad (trainer.step(n)'s 1/n) ignored")
src(O, "optim-beta1", "exp_avg += (1.0 - beta1) * (g - exp_avg)", "exp_avg += beta1 * (g - exp_avg)",
    "momentum-complement", "Adam's beta1 used as 1 - beta1")
src(O, "optim-settings-eps", "eps=mxnet_float(epsilon) / math.sqrt(bc2),",
    "eps=mxnet_float(epsilon),",
    "default-changed", "mxnet_adam_settings without epsilon / √(1 − β₂ᵗ)")
src(O, "optim-settings-f32", "kernel_lr = mxnet_float(learning_rate * math.sqrt(c2) / c1)",
    "kernel_lr = learning_rate * math.sqrt(c2) / c1", "dtype",
    "the kernel's float32 learning rate not rounded")
src(O, "optim-settings-parse", "kernel_lr = mxnet_float(learning_rate * math.sqrt(c2) / c1)",
    "kernel_lr = f32(learning_rate * math.sqrt(c2) / c1)", "dtype",
    "the kernel's learning rate rounded straight to float32, not parsed from its text as "
    "dmlc-core does (1.6e-11 apart after 3 steps at lr 2e-4, beta1 0.5: issue 43's dc_gan)")

# ================================================================== sidebyside.recordio
R = "src/sidebyside/recordio.py"
src(R, "recordio-padding", "return (n + 3) & ~3", "return (n + 4) & ~3", "off-by-one",
    "records padded to the next multiple of 4 even when already aligned")
src(R, "recordio-label-f64", '_IR = struct.Struct("<IfQQ")', '_IR = struct.Struct("<IdQQ")', "dtype",
    "IRHeader's float32 label read as a float64")
src(R, "recordio-endian", '_HEAD = struct.Struct("<II")', '_HEAD = struct.Struct(">II")', "axis",
    "the frame header read big-endian")
src(R, "recordio-align", "        if pos % 4 == 0:", "        if pos % 8 == 0:", "off-by-one",
    "the magic looked for at 8-aligned offsets only when splitting a record")
src(R, "recordio-join", "return (MAGIC_BYTES.join(parts) if payload else None), pos, frames",
    "return (b\"\".join(parts) if payload else None), pos, frames", "missing-call",
    "a split record joined without putting the magic back")
src(R, "recordio-labels-f64", 'header = header._replace(label=np.frombuffer(rest, "<f4", header.flag).copy())',
    'header = header._replace(label=np.frombuffer(rest, "<f8", header.flag // 2).copy())',
    "dtype", "multi-label records' float32 labels read as float64")

# ================================================================== sidebyside.convert
C = "src/sidebyside/convert/api.py"
src(C, "convert-eval", "        torch_net.train(train)\n", "        torch_net.train(True)\n", "mode",
    "the PyTorch network compared in train() mode where eval() is meant")
src(C, "convert-tolerance", 'DEFAULT_ATOL = {"float64": 1e-10, "float32": 1e-4}',
    'DEFAULT_ATOL = {"float64": 1e-4, "float32": 1e-4}', "check-weakened",
    "float64 outputs judged with float32's tolerance")
src(C, "convert-input-dtype", "g_args = [mx.nd.array(x, ctx=ctx, dtype=x.dtype)]",
    "g_args = [mx.nd.array(x, ctx=ctx)]", "dtype",
    "the input handed to Gluon through mx.nd.array without dtype= (float32)")
src(C, "convert-record-mode", "with mx.autograd.record(train_mode=True):",
    "with mx.autograd.record(train_mode=False):", "mode",
    "Gluon's training-mode forward recorded in predict mode")
src(C, "convert-diff-f32", "diff = max(float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max(initial=0))",
    "diff = max(float(np.abs(a.astype(np.float32) - b.astype(np.float32)).max(initial=0))",
    "dtype", "the outputs' difference taken in float32")
src(C, "convert-restore", "            torch_net.load_state_dict(t_saved)\n", "", "missing-call",
    "train-mode comparison leaves PyTorch's moved running statistics behind")

# ================================================================== sidebyside.mx2torch
M = "src/sidebyside/mx2torch/ops.py"
src(M, "mx2torch-concat-dim", '@op("Concat", "concat", "_rnn_param_concat", attrs={"dim": 1,',
    '@op("Concat", "concat", "_rnn_param_concat", attrs={"dim": 0,', "default-changed",
    "Concat's default dim=1 read as torch.cat's 0")
src(M, "mx2torch-log-softmax", 'fn = "torch.softmax" if node.op == "softmax" else "torch.log_softmax"',
    'fn = "torch.log_softmax" if node.op == "softmax" else "torch.softmax"', "call-swap",
    "softmax and log_softmax swapped")
src(M, "mx2torch-ceil", '        args.append("ceil_mode=True")\n', "", "default-dropped",
    "pooling_convention='full' translated without ceil_mode=True")
src(M, "mx2torch-count-include-pad", "    elif cip is False:\n        args.append(\"count_include_pad=False\")",
    "    elif cip is not False:\n        args.append(\"count_include_pad=False\")", "default-changed",
    "avg pooling's count_include_pad inverted")
src(M, "mx2torch-bn-momentum", "f\"momentum={_r(round(1 - float(a['momentum']), 12))}\"",
    "f\"momentum={_r(round(float(a['momentum']), 12))}\"", "momentum-complement",
    "BatchNorm momentum m written as PyTorch's momentum instead of 1 - m")
src(M, "mx2torch-bn-eps", 'attrs={"eps": 1e-3, "momentum": 0.9, "fix_gamma": True',
    'attrs={"eps": 1e-5, "momentum": 0.9, "fix_gamma": True', "default-changed",
    "the symbol BatchNorm's default eps 1e-3 (MXNet docs) read as Gluon's/PyTorch's 1e-5")
src(M, "mx2torch-fix-gamma", 'params = {"weight": b.ones(node, c) if a["fix_gamma"] else 1,',
    'params = {"weight": 1,', "default-dropped",
    "fix_gamma=True (the symbol API's default) ignored: the stored gamma loaded")
src(M, "mx2torch-leaky-slope", '@op("LeakyReLU", attrs={"act_type": "leaky", "slope": 0.25,',
    '@op("LeakyReLU", attrs={"act_type": "leaky", "slope": 0.01,', "default-changed",
    "LeakyReLU's default slope 0.25 (MXNet) read as PyTorch's 0.01")
src(M, "mx2torch-softmax-instance", 'return f"torch.softmax({b.x(0)}, dim=-1)"',
    'return f"torch.softmax({b.x(0)}, dim=1)"', "axis",
    "SoftmaxActivation(mode='instance') over axis 1 instead of the last")
src(M, "mx2torch-flatten", 'x = f"torch.flatten({x}, 1)"', 'x = f"torch.flatten({x}, 0)"', "axis",
    "FullyConnected(flatten=True) flattening the batch axis too", occurrence=2)
src(M, "mx2torch-mod-zero", "    return torch.where(b == 0, torch.zeros_like(r), r)\n",
    "    return r\n", "default-dropped",
    "MXNet's mod by 0 (0) left as torch's nan")
src(M, "mx2torch-int-true-div", 'if sym == "/" and b.is_int(0) and b.is_int(1):',
    'if False:', "dtype",
    "integer division (CenterNet's top-k indices) as torch's true division")
src(M, "mx2torch-int-scalar", "    s = int(s)\n", "", "dtype",
    "a scalar applied to integers without MXNet's cast of the scalar (x * 2.5 is x * 2)")
src(M, "mx2torch-nms-unstable",
    "order = torch.sort(score, dim=1, descending=True, stable=True).indices",
    "order = torch.sort(score, dim=1, descending=True).indices", "call-swap",
    "box_nms's score order not stable (MXNet's std::stable_sort keeps ties in input order)",
    occurrence=1)
src(M, "mx2torch-nms-class-float", "cls = s[..., id_index].to(torch.int64)",
    "cls = s[..., id_index]", "dtype",
    "box_nms's class ids compared as floats (MXNet casts them to int)")
src(M, "mx2torch-nms-topk", "    k = n if topk < 0 else min(topk, n)\n", "    k = n\n",
    "missing-call", "box_nms's topk not applied before the suppression")
src(M, "mx2torch-nms-one-round",
    "    while changed(keep, before):\n        keep, before = body(keep, before)\n",
    "    keep, before = body(keep, before)\n", "missing-call",
    "box_nms's greedy pass cut to one round (a box suppressed by a suppressed box is dropped)")
src(M, "mx2torch-nms-iou-ge", "hit = torch.gt(inter.div_(w), overlap_thresh)",
    "hit = torch.ge(inter.div_(w), overlap_thresh)", "off-by-one",
    "box_nms suppressing at IoU == overlap_thresh (MXNet's is a strict >)")
src(M, "mx2torch-multibox-iou-gt", "hit = (iou >= nms_threshold).triu(1)",
    "hit = (iou > nms_threshold).triu(1)", "off-by-one",
    "MultiBoxDetection suppressing only above nms_threshold (MXNet's CPU kernel: >=)")
src(M, "mx2torch-multibox-topk-rest",
    "    rest = torch.cat([torch.full_like(rest[..., :1], -1), rest[..., 1:]], dim=-1)\n",
    "    rest = torch.full_like(rest, -1)\n", "default-changed",
    "MultiBoxDetection's rows after nms_topk all -1 (MXNet keeps their values, id -1)")
src(M, "mx2torch-multibox-prior-ratio",
    "ratio = torch.sqrt(torch.tensor([ratios[0]] * len(sizes) + list(ratios[1:]), **f32))",
    "ratio = torch.tensor([ratios[0]] * len(sizes) + list(ratios[1:]), **f32)", "scale",
    "MultiBoxPrior's aspect ratio used as the width factor (MXNet takes its square root)")
src(M, "mx2torch-proposal-cyclic",
    "pick = kept.gather(1, torch.arange(post_n, device=dev)[None] % n_out)",
    "pick = kept.gather(1, torch.arange(post_n, device=dev)[None] % post)", "off-by-one",
    "Proposal padding with suppressed boxes instead of repeating the kept ones cyclically")
src(M, "mx2torch-proposal-area", "    area = (x2 - x1 + 1) * (y2 - y1 + 1)\n",
    "    area = (x2 - x1) * (y2 - y1)\n", "off-by-one",
    "Proposal's NMS areas without the +1 of its pixel convention")
src(M, "mx2torch-proposal-outside",
    "    score = torch.where(outside, torch.full_like(score, -1), score)\n", "",
    "missing-call", "Proposal scoring anchors outside im_info's image like the others")
src(M, "mx2torch-take-wrap-as-clip",
    '    i = i.clamp(0, n - 1) if mode == "clip" else torch.remainder(i, n)\n',
    "    i = i.clamp(0, n - 1)\n", "default-dropped",
    "take(mode='wrap') clipping its indices as the default mode does", occurrence=2)
src(M, "mx2torch-one-hot-round", "hot = (f\"({b.x(0)}.to(torch.int64)[..., None]",
    "hot = (f\"({b.x(0)}.round().to(torch.int64)[..., None]", "dtype",
    "one_hot rounding fractional indices (MXNet truncates them to ints)")
src(M, "mx2torch-box-decode-format", '    if fmt == "corner":\n        aw, ah',
    '    if fmt == "center":\n        aw, ah', "axis",
    "box_decode's anchor formats swapped (corner read as center)")
src(M, "mx2torch-repeat-as-tile",
    "torch.repeat_interleave({b.x(0)}, {int(a['repeats'])}, dim={int(a['axis'])})",
    "torch.cat([{b.x(0)}] * {int(a['repeats'])}, dim={int(a['axis'])})", "call-swap",
    "MXNet's repeat (each element repeated) ported as a tile of the whole axis")
src(M, "mx2torch-topk-ascend", 'largest = "False" if a["is_ascend"] else "True"',
    'largest = "True" if a["is_ascend"] else "False"', "default-changed",
    "topk's is_ascend inverted")
src(M, "mx2torch-attention-scale",
    "return torch.bmm(q / torch.sqrt(torch.tensor(q.shape[-1], dtype=q.dtype)), k.transpose(1, 2))",
    "return torch.bmm(q, k.transpose(1, 2))", "scale",
    "interleaved self-attention scores without the 1/sqrt(head dim)", occurrence=1)
src(M, "mx2torch-softmax-length-mask", "    return out.masked_fill(~keep, 0.0).movedim(-1, axis)",
    "    return out.movedim(-1, axis)", "missing-call",
    "softmax(use_length) leaving the masked positions' values (a row of length 0 is nan)")
src(M, "mx2torch-sequence-mask-axis", "    if axis == 1:\n        keep = keep.t()\n", "",
    "axis", "SequenceMask(axis=1) masking as if time were axis 0")
R = "src/sidebyside/mx2torch/report.py"
src(R, "mx2torch-float32-region-node-only",
    "            up = next((region[src] for src, _ in n.inputs if src in region), None)",
    "            up = None", "missing-call",
    "the float64 check's float32 region: only the float32 kernel's own node, not what follows",
    targets=("tests/nomxnet/test_translate_detectors.py",))
G = "src/sidebyside/mx2torch/codegen.py"
src(G, "mx2torch-refuse-first", "            self._failed(i, e, static)\n            return\n",
    "            raise\n", "missing-call",
    "a refusal that names only the first unsupported operator (one fix-and-rerun round each)",
    targets=("tests/nomxnet/test_translate_detectors.py",))
src(G, "mx2torch-in-place-shared",
    "v not in args and uses.get(v) == 1 and made.get(v) in _FRESH",
    "v not in args and made.get(v) in _FRESH", "missing-call",
    "a ReLU done in place on a tensor another node still reads (its sum sees the ReLU'd values)",
    targets=("tests/test_mx2torch_ops.py",))
# the readers of untrusted files (issue 46): each check removed; the seeded fuzz test
# (tests/nomxnet/test_fuzz_readers.py) or its named cases must notice
FZ = ("tests/nomxnet/test_fuzz_readers.py",)
GR = "src/sidebyside/mx2torch/graph.py"
src(GR, "untrusted-entry-types", "            or not all(_is_int(x) for x in entry)):",
    "            ):", "validation-dropped",
    "a graph's input or head entry not checked for integers (a string or list reaches indexing)",
    targets=FZ)
src(GR, "untrusted-entry-node", "    if not 0 <= entry[0] < below:",
    "    if False:", "validation-dropped",
    "an input or head entry pointing at a missing or later node, unchecked", targets=FZ)
src(GR, "untrusted-entry-output", "    if not 0 <= entry[1] < MAX_OUTPUT_INDEX:",
    "    if False:", "validation-dropped",
    "an input entry's output index unchecked (2**63 reaches the translators)", targets=FZ)
src(GR, "untrusted-op-name-type", '    if not isinstance(rn["op"], str) or not isinstance(rn["name"], str):',
    "    if False:", "validation-dropped",
    "a node's op or name that is not a string, unchecked", targets=FZ)
src(GR, "untrusted-attr-not-text", "            if not isinstance(v, str):",
    "            if False:", "validation-dropped",
    "an attribute value that is not text (a JSON number or list), unchecked", targets=FZ)
src(GR, "untrusted-inputs-list", "    if not isinstance(raw_inputs, list):",
    "    if False:", "validation-dropped", "a node's inputs that are not a list, unchecked",
    targets=FZ)
src(GR, "untrusted-heads-list", "    if not isinstance(raw_heads, list):",
    "    if False:", "validation-dropped", "heads that are not a list, unchecked", targets=FZ)
src(M, "untrusted-attr-refusal", "            if problem:\n", "            if False:\n",
    "validation-dropped",
    "attribute values parsed but not checked against what the attribute holds", targets=FZ)
src(M, "untrusted-attr-int", 'return None if small(v) else "an integer (32-bit) was expected"',
    "return None", "validation-dropped",
    "an integer attribute not checked ('abc', 1e309 reach int())", targets=FZ)
src(M, "untrusted-attr-ints", 'if kind in ("ints", "axis"):', 'if kind in ():',
    "validation-dropped", "a tuple-of-integers attribute (kernel, pad) not checked",
    targets=FZ)
src(M, "untrusted-nonfinite-code", 'return repr(float(v)) if np.isfinite(v) else f"float({repr(float(v))!r})"',
    "return repr(float(v))", "validation-dropped",
    "an infinite float attribute written into the generated code as the bare name inf",
    targets=FZ)
src(G, "untrusted-value-errors", "        except _VALUE_ERRORS as e:",
    "        except () as e:", "validation-dropped",
    "attribute values of the right types that do not fit together escape as Python's errors",
    targets=FZ)
src(G, "untrusted-size-before-allocation",
    "    _check_shapes(module, state)       # before any memory is given: sizes come from the file\n",
    "", "validation-dropped",
    "a layer's size from the file's attributes allocated before it is compared with its weights",
    targets=FZ)
src(G, "untrusted-docstring-escape",
    """    return _printable(str(text).replace("\\\\", "\\\\\\\\").replace('"', '\\\\"'))""",
    "    return _printable(str(text))", "validation-dropped",
    "a node name holding \"\"\" ends the generated docstring and becomes code", targets=FZ)
src(G, "untrusted-comment-escape", 'line += f"  # {_printable(comment)}"',
    'line += f"  # {comment}"', "validation-dropped",
    "a line break in a value ends the generated comment", targets=FZ,
    equivalent="the layers' comments hold attribute values parse_attrs already checked "
               "(integers, tuples of them, booleans), never a name: escaping them is a "
               "second guard")
src(G, "untrusted-ident-unicode", 're.sub(r"[^0-9A-Za-z_]", "_", name)',
    're.sub(r"\\W", "_", name)', "validation-dropped",
    "a node name's non-ASCII letters kept in a Python name (¾ is not an identifier)",
    targets=FZ)
src(G, "untrusted-build-errors", "        return instantiate(compile_source(source, class_name), state)\n    except (TypeError, ValueError, RuntimeError, OverflowError) as e:",
    "        return instantiate(compile_source(source, class_name), state)\n    except () as e:",
    "validation-dropped",
    "a layer that cannot be built from the file's values escapes as torch's error", targets=FZ)
src("src/sidebyside/mx2torch/ndfile.py", "untrusted-params-huge-shape",
    "        if math.prod(d for d in dims if d) * 16 >= 1 << 63:",
    "        if False:", "validation-dropped",
    "an NDArray shape whose dims overflow (with a 0 among them) reaches numpy unchecked",
    targets=FZ)
src("src/sidebyside/mx2torch/optstate.py", "untrusted-states-memo-bound",
    "    _check_memo(data, source)\n", "", "validation-dropped",
    "a Trainer-states pickle's memo index unchecked: LONG_BINPUT 779706738 makes the "
    "unpickler allocate 6 GB", targets=FZ)
src("src/sidebyside/mx2torch/optstate.py", "untrusted-states-counts-type",
    "    if not isinstance(counts, dict):\n        raise OptStateError(f\"{source}: the optimizer's update counts",
    "    if False:\n        raise OptStateError(f\"{source}: the optimizer's update counts",
    "validation-dropped",
    "a Trainer-states optimizer's update counts read as a dict whatever they are", targets=FZ)
S = "src/sidebyside/mx2torch/optstate.py"
src(S, "optstate-momentum-sign", '{"momentum_buffer": tens[0].neg().div_(lr_i)}',
    '{"momentum_buffer": tens[0].div_(lr_i)}', "scale",
    "MXNet's momentum (−lr·buffer) converted without the sign")
src(S, "optstate-momentum-lr", '{"momentum_buffer": tens[0].neg().div_(lr_i)}',
    '{"momentum_buffer": tens[0].neg()}', "scale",
    "MXNet's momentum converted without dividing by the learning rate")
src(S, "optstate-bias-correction", 'lr_t = r(group["lr"] * math.sqrt(1.0 - beta2 ** t) / (1.0 - beta1 ** t))',
    'lr_t = r(group["lr"] / (1.0 - beta1 ** t))', "scale",
    "MXNet's Adam rate without √(1 − β₂ᵗ)")
src(S, "optstate-rescale", "g = p.grad * rescale + p * wd", "g = p.grad + p * wd", "scale",
    "rescale_grad ignored in the converted optimizer")
src(S, "optstate-beta1", "m.mul_(b1).add_(g * (1.0 - b1))", "m.mul_(1.0 - b1).add_(g * b1)",
    "momentum-complement", "beta1 and 1 − beta1 swapped")

# ================================================= the catalogue keyed by MXNet's API
# Each mutant gives one entry another entry's counterpart, as a wrong answer borrowed from a
# neighbour row would: either the call a reader is shown (`torch=`; killed by
# test_counterpart_is_what_the_check_runs) or the code its check runs (killed by
# test_entry_check_passes). Drawn at random (fixed seed) from pairs of checked entries of two
# data modules (within one, a sibling's counterpart — FashionMNIST's for MNIST, Sequential's
# for hybridize — can be right for both), whose counterparts differ; the entries are read from
# the modules' source.
CATALOGUE_SWAPS, CATALOGUE_SEED = 24, 43
CATALOGUE_TEST = "tests/test_catalogue.py"


def _entry_calls(path):
    """{(mx, form): (the `torch=` node, the check's PyTorch-side node)} of a data module."""
    import ast

    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    out = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "entry"
                and node.args and isinstance(node.args[0], ast.Constant)):
            continue
        kw = {k.arg: k.value for k in node.keywords}
        form = kw.get("form")
        form = form.value if isinstance(form, ast.Constant) else ""
        chk = kw.get("check")
        torch = kw.get("torch")
        if isinstance(chk, ast.Call) and len(chk.args) >= 2 and torch is not None:
            out[(node.args[0].value, form)] = (torch, chk.args[1])
    return out


def _segment(text, node):
    import ast

    return ast.get_source_segment(text, node)


def _occurrence(text, segment, node):
    """The 1-based occurrence of ``segment`` that starts at ``node``."""
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[:node.lineno - 1]) + len(
        lines[node.lineno - 1].encode("utf-8")[:node.col_offset].decode("utf-8"))
    return text[:start].count(segment) + 1


def catalogue_swaps(n=CATALOGUE_SWAPS, seed=CATALOGUE_SEED):
    """The counterpart-swap mutants (see above)."""
    import random as _random
    import sys as _sys

    _sys.path.insert(0, str(ROOT / "src"))
    from sidebyside.catalogue.entries import all_entries
    from sidebyside.catalogue.render_names import slug

    rng = _random.Random(seed)
    by_group = {}
    for e in all_entries():
        if e.check is not None:
            by_group.setdefault(e.group, []).append(e)
    groups = sorted(by_group)
    calls = {g: _entry_calls(f"src/sidebyside/catalogue/entries/{g}.py") for g in groups}
    out, seen, tries = [], set(), 0
    while len(out) < n and len(groups) > 1 and tries < 50 * n:
        tries += 1
        group_a, group_b = rng.sample(groups, 2)
        a, b = rng.choice(by_group[group_a]), rng.choice(by_group[group_b])
        which = "shown" if len(out) % 2 == 0 else "run"
        if (a.key, which) in seen:
            continue
        path = f"src/sidebyside/catalogue/entries/{group_a}.py"
        text = (ROOT / path).read_text(encoding="utf-8")
        text_b = (ROOT / f"src/sidebyside/catalogue/entries/{group_b}.py").read_text("utf-8")
        if (a.mx, a.form) not in calls[group_a] or (b.mx, b.form) not in calls[group_b]:
            continue
        pick = 0 if which == "shown" else 1
        node_a, node_b = calls[group_a][(a.mx, a.form)][pick], calls[group_b][(b.mx, b.form)][pick]
        if not all(getattr(x, "value", None).__class__ is str for x in (node_a, node_b)):
            continue  # literal text only: a name of B's module would not resolve in A's
        original, replacement = _segment(text, node_a), _segment(text_b, node_b)
        if not original or not replacement or original.strip() == replacement.strip():
            continue
        if which == "shown" and (not b.counterpart_call or b.counterpart_call in a.check.torch):
            continue  # a swap that shows a call A's check makes too would be equivalent
        seen.add((a.key, which))
        test = ("test_counterpart_is_what_the_check_runs" if which == "shown"
                else "test_entry_check_passes")
        count = text.count(original)
        out.append(Mutant(
            f"catalogue-{which}-{slug(a)}", path, original, replacement, "counterpart-swap",
            f"{a.key} answered with {b.key}'s counterpart "
            f"({'the call shown' if which == 'shown' else 'the code its check runs'})",
            (f"{CATALOGUE_TEST}::{test}[{slug(a)}]",), None,
            _occurrence(text, original, node_a) if count > 1 else None, None))
    return out


# ======================================================= sidebyside.migrate: the draft's helpers
# each a port the draft could plausibly write instead; its test runs the draft against MXNet
HELPERS = "src/sidebyside/migrate/draft_helpers.py"
RULES_PY = "src/sidebyside/migrate/rewrite.py"
PORT = "tests/test_migrate_port.py"
src(HELPERS, "draft-adam-epsilon-corrected",
    'p.sub_(lr_t * state["mean"] / (state["var"].sqrt() + f32(group["epsilon"])))',
    'p.sub_(lr_t * state["mean"] / (state["var"].sqrt()\n'
    '                                      + f32(group["epsilon"]) * math.sqrt(1 - b2 ** t)))',
    "default-changed", "Trainer('adam') drafted with torch.optim.Adam's epsilon (added to the "
    "bias-corrected second moment): another update",
    targets=(f"{PORT}::test_trainer_adam_steps_as_mxnet_in_float64",))
src(HELPERS, "draft-split-remainder-last",
    "zip(torch.tensor_split(data, n, dim=batch_axis), ctx_list)",
    "zip(torch.split(data, data.shape[batch_axis] // n, dim=batch_axis), ctx_list)",
    "off-by-one", "split_and_load drafted with equal slices and the remainder dropped (Gluon "
    "gives the first size % n slices one more)",
    targets=(f"{PORT}::test_split_and_load_cuts_as_mxnet",))
src(HELPERS, "draft-topk-one-short", "pred.topk(min(self.top_k, pred.shape[1]), dim=1)",
    "pred.topk(min(self.top_k - 1, pred.shape[1]), dim=1)", "off-by-one",
    "TopKAccuracy(k) drafted counting the top k - 1",
    targets=(f"{PORT}::test_loss_and_topk_metrics_count_as_mxnet",))
src(HELPERS, "draft-batchnorm-momentum-kept", "momentum=1 - momentum, affine=affine",
    "momentum=momentum, affine=affine", "momentum-complement",
    "Gluon's BatchNorm momentum 0.9 written as torch's momentum=0.9",
    targets=(f"{PORT}::test_scopes_train_and_predict_as_gluon",))
src(HELPERS, "draft-l2-loss-no-half", "pred).square(), weight / 2,", "pred).square(), weight,",
    "scale", "L2Loss drafted as the squared error without Gluon's 1/2",
    targets=(f"{PORT}::test_l2_and_l1_losses_give_gluons_per_sample_values",))
src(HELPERS, "draft-mse-per-sample", "            self.num_inst += 1\n",
    "            self.num_inst += label.shape[0]\n", "scale",
    "mx.metric.MSE drafted as a mean over samples (Gluon averages the per-batch means)",
    targets=(f"{PORT}::test_regression_metrics_average_batches_as_mxnet",), occurrence=2)
src(HELPERS, "draft-loss-metric-per-batch", "            self.num_inst += pred.numel()\n",
    "            self.num_inst += 1\n", "scale",
    "mx.metric.Loss drafted as the mean of per-batch sums (Gluon divides by every value seen)",
    targets=(f"{PORT}::test_loss_and_topk_metrics_count_as_mxnet",))
src(HELPERS, "draft-array-always-float32",
    "        out = source_array.detach().clone()\n",
    "        out = source_array.detach().clone().to(torch.float32)\n", "dtype",
    "nd.array(NDArray) drafted as float32 whatever the source's dtype (Gluon keeps it)",
    targets=(f"{PORT}::test_array_copies_keep_or_set_the_dtype_as_mxnet",))
src(HELPERS, "draft-scoped-layers-always-train", "        layer.training = GluonMode.is_training()\n",
    "        layer.training = True\n", "mode",
    "Dropout and BatchNorm drafted in torch's default train mode: they drop and use batch "
    "statistics outside record() too",
    targets=(f"{PORT}::test_scopes_train_and_predict_as_gluon",))
src(RULES_PY, "draft-record-scope-predicts",
    "return f\"gluon_scope({text_of(args['train_mode']) if args else 'True'})\"",
    "return f\"gluon_scope({text_of(args['train_mode']) if args else 'False'})\"", "mode",
    "autograd.record() drafted as a predicting scope (Gluon trains inside record())",
    targets=(f"{PORT}::test_scopes_train_and_predict_as_gluon",))

RW = "tests/test_migrate_rewrite.py"
src(RULES_PY, "draft-split-axis-zero", 'dim = text_of(args["axis"]) if "axis" in args else "1"',
    'dim = text_of(args["axis"]) if "axis" in args else "0"', "axis",
    "nd.split drafted with torch's default dim 0 (MXNet splits axis 1 by default)",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(RULES_PY, "draft-conv-transpose-output-padding-dropped",
    '(("output_padding", "output_padding"),) if transpose else ()',
    '() if transpose else ()', "default-dropped",
    "Conv1DTranspose(output_padding=1) drafted without it: one step shorter",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(RULES_PY, "draft-argmax-int64",
    'return f"{found}.to({data}.dtype)" if keep else \\\n        f"torch.atleast_1d({found}).to({data}.dtype)"',
    'return found if keep else \\\n        f"torch.atleast_1d({found})"', "dtype",
    "nd.argmax drafted as torch.argmax's int64 indices (MXNet gives the input's dtype)",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-maximum-number-not-cast", "        rhs = torch.tensor(rhs).to(lhs.dtype)\n",
    "        rhs = torch.tensor(rhs)\n", "dtype",
    "nd.maximum(int_array, 2.5) drafted without casting the number: torch promotes to float",
    targets=(f"{RW}::test_rule_matches_mxnet",))

src(RULES_PY, "draft-np-array-list-inferred",
    'return f"torch.tensor({text_of(src)}, dtype={dt}{dev})" if dt and dev is not None \\',
    'return f"torch.tensor({text_of(src)}{dev})" if dt and dev is not None \\', "dtype",
    "np.array([1, 2]) drafted as torch.tensor's int64 (MXNet's NumPy interface gives float32)",
    targets=(f"{RW}::test_numpy_interface_rule_matches_mxnet",))
src(RULES_PY, "draft-np-sum-shape-one",
    """        return None if keep else f"torch.{torch_op}({text_of(args['a'])})\"""",
    """        return None if keep else f"torch.{torch_op}({text_of(args['a'])}).reshape(1)\"""",
    "axis", "np.sum(x) drafted with mx.nd's (1,) result (MXNet's NumPy interface gives 0-d)",
    targets=(f"{RW}::test_numpy_interface_rule_matches_mxnet",))
src(HELPERS, "draft-np-array-numpy-float32", "        out = torch.from_numpy(obj.copy())\n",
    "        out = torch.from_numpy(obj.astype(numpy.float32))\n", "dtype",
    "np.array(numpy_array) drafted as float32 whatever the array's dtype (MXNet keeps it)",
    targets=(f"{RW}::test_numpy_interface_rule_matches_mxnet",))
src(HELPERS, "draft-download-overwrite-replaces",
    "            if not os.path.exists(fname) or (sha1_hash and not sha1_matches(fname)):\n",
    "            if True:\n", "default-changed",
    "gluon.utils.download(overwrite=True) drafted as replacing a file already there (Gluon "
    "1.9.1 keeps it unless its sha1 is stale)",
    targets=(f"{PORT}::test_downloads_land_where_mxnet_puts_them",))
src(HELPERS, "draft-sce-from-logits-ignored",
    "        logp = pred if from_logits else torch.log_softmax(pred, dim=axis)\n",
    "        logp = torch.log_softmax(pred, dim=axis)\n", "default-dropped",
    "SoftmaxCrossEntropyLoss(from_logits=True) drafted with a log_softmax on top of the "
    "log-probabilities", targets=(
        f"{PORT}::test_softmax_ce_and_sigmoid_bce_losses_give_gluons_per_sample_values",))
src(HELPERS, "draft-parameter-without-init-zeroed", "        (p.gluon_init or default)(p)\n",
    "        (p.gluon_init or (lambda q: q.zero_()))(p)\n", "default-changed",
    "a block's own parameter without an initializer drafted as zeros (Gluon draws it with "
    "initialize()'s initializer, whatever its name)",
    targets=(f"{PORT}::test_a_blocks_own_parameters_are_filled_and_used_as_gluon_does",))
src(HELPERS, "draft-rnn-layout-ignored", 'batch_first=layout == "NTC",', "batch_first=False,",
    "axis", "gluon.rnn.LSTM(layout='NTC') drafted with torch's default time-major layout",
    targets=(f"{PORT}::test_recurrent_layers_keep_gluons_call_and_outputs",))
src(HELPERS, "draft-nag-momentum-old-weight",
    '        st["mom"] = mom - lr * (g + wd * p)   # MXNet\'s kernel writes the weight in place\n',
    '        st["mom"] = mom - lr * (g + wd * (p - (-mom + (f32(o["momentum"]) + 1) * (mom - lr * '
    '(g + wd * p)))))\n', "default-changed",
    "Trainer('nag') with weight decay drafted as the kernel's source reads: the momentum "
    "decays the weight before the step (MXNet's in-place kernel decays the new one)",
    targets=(f"{PORT}::test_trainer_of_any_optimizer_steps_as_mxnet",))
src(HELPERS, "draft-ndarrayiter-short-last-batch",
    '        if self.last_batch_handle == "pad" and self.cursor + self.batch_size > self.num_data:\n'
    '            pad = self.batch_size - self.num_data + self.cursor\n',
    '        if False:\n            pad = 0\n', "off-by-one",
    "mx.io.NDArrayIter's default last batch drafted short, as a DataLoader gives it (MXNet "
    "fills it from the first samples)",
    targets=(f"{PORT}::test_ndarray_iter_gives_mxnets_batches_over_epochs",))
src(HELPERS, "draft-ndarrayiter-shuffle-keeps-dtype",
    "            [(k, v[pick.to(v.device)].to(torch.float32)) for k, v in sources]\n",
    "            [(k, v[pick.to(v.device)]) for k, v in sources]\n", "dtype",
    "mx.io.NDArrayIter(shuffle=True) drafted keeping int64 labels (MXNet's shuffle leaves "
    "every source float32)",
    targets=(f"{PORT}::test_ndarray_iter_gives_mxnets_batches_over_epochs",))
src(HELPERS, "draft-reshape-zero-literal",
    "        if d == 0:\n            out.append(dims[src])\n",
    "        if d == 0:\n            out.append(0)\n", "default-changed",
    "x.reshape((0, 0, -1)) drafted with torch's meaning of 0 (an empty axis; MXNet copies the "
    "input's dimension)", targets=(f"{RW}::test_rule_matches_mxnet",))
src("src/sidebyside/migrate/report.py", "draft-scope-group-ignores-importers",
    "            if len(closure) > 1 and closure <= own \\\n"
    "                    and all(importers[q] <= own for q in closure):\n",
    "            if len(closure) > 1 and closure <= own:\n", "default-dropped",
    "a model file drafted to follow Gluon's flag although a file of another API also "
    "imports it (a .train() written there would not reach its layers)",
    targets=(f"{PORT}::test_a_model_file_another_api_also_imports_keeps_torchs_layers",))
src(HELPERS, "draft-center-crop-rounded",
    "    x0, y0 = int((w - new_w) / 2), int((h - new_h) / 2)\n",
    "    x0, y0 = round((w - new_w) / 2), round((h - new_h) / 2)\n", "off-by-one",
    "CenterCrop drafted with torchvision's corner (rounded half to even; MXNet rounds down)",
    targets=(f"{PORT}::test_resizes_and_crops_give_gluons_pixels",))
src(HELPERS, "draft-flip-channels-last",
    "        return x.flip(self.axis) if torch.rand(()) < 0.5 else x\n",
    "        return x.flip(-1) if torch.rand(()) < 0.5 else x\n", "axis",
    "RandomFlipLeftRight drafted as torchvision's flip of the last axis: on Gluon's (H, W, C) "
    "images, the channels", targets=(f"{PORT}::test_random_flips_flip_gluons_axis_half_the_time",))
src(HELPERS, "draft-resize-keep-ratio-longer-side",
    "            elif h > w:\n                new_w, new_h = size, h * size // w\n",
    "            elif h < w:\n                new_w, new_h = size, h * size // w\n", "default-changed",
    "Resize(keep_ratio=True) drafted setting the longer side (Gluon sets the shorter)",
    targets=(f"{PORT}::test_resizes_and_crops_give_gluons_pixels",))
src(HELPERS, "draft-imread-bgr-ignored",
    "    return image.flip(-1) if flag and not to_rgb else image\n",
    "    return image\n", "default-dropped",
    "mx.image.imread(path, to_rgb=False) drafted as RGB (MXNet gives OpenCV's BGR)",
    targets=(f"{PORT}::test_an_image_folder_reads_as_gluons",))
src(RULES_PY, "draft-norm-full-0d", 'return f"{head}, keepdim=True)" if keep else f"{head}).reshape(1)"',
    'return f"{head}, keepdim=True)" if keep else f"{head})"', "axis",
    "nd.norm(x) drafted as torch's 0-d norm (MXNet's has shape (1,))",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-instance-norm-gamma-trained",
    "                self.weight = torch.nn.UninitializedParameter(requires_grad=scale)\n",
    "                self.weight = torch.nn.UninitializedParameter(requires_grad=True)\n",
    "default-changed", "nn.InstanceNorm() drafted as torch's affine InstanceNorm: its gamma "
    "trained (Gluon's is fixed at ones unless scale=True)",
    targets=(f"{PORT}::test_instance_norm_scales_and_shifts_as_gluon",))
src(HELPERS, "draft-custom-metric-tuple-one",
    "                self.num_inst += value[1]\n", "                self.num_inst += 1\n",
    "scale", "CustomMetric drafted counting one instance per update where feval gives "
    "(sum, count)", targets=(f"{PORT}::test_custom_metrics_count_as_mxnet",))
src(RULES_PY, "draft-self-attribute-file-wide",
    '    if dotted.startswith("self."):\n        return _self_values(analysis, recv, dotted)\n',
    '    if dotted.startswith("self.") and False:\n        return _self_values(analysis, recv, dotted)\n',
    "default-dropped", "self.body looked up in the whole file: another class's self.body "
    "(a parameter) keeps this class's Sequential from its drafted add",
    targets=(f"{RW}::test_self_attributes_are_looked_up_in_their_own_class",))
src(HELPERS, "draft-huber-torch-scale",
    "        value = torch.where(d > rho, d - 0.5 * rho, (0.5 / rho) * d.square())\n",
    "        value = torch.where(d > rho, d - 0.5 * rho, 0.5 * d.square())\n", "scale",
    "HuberLoss(rho=2) drafted with torch's squared part d²/2 (Gluon's is d²/(2·rho))",
    targets=(f"{PORT}::test_huber_hinge_and_kldiv_losses_give_gluons_per_sample_values",))
src(HELPERS, "draft-clip-torch-clamp",
    "    return torch.where(x > a_max, torch.as_tensor(a_max, dtype=x.dtype, device=x.device),\n"
    "                       x.clamp(min=a_min))\n",
    "    return torch.clamp(x, a_min, a_max)\n", "default-changed",
    "nd.clip with computed bounds drafted as torch.clamp (a_max everywhere where a_min > "
    "a_max; MXNet gives a_min below a_min)", targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-pause-records",
    "        with torch.no_grad(), gluon_scope(train_mode):\n",
    "        with gluon_scope(train_mode):\n", "mode",
    "autograd.pause() drafted as a predicting scope that still records: gradients flow "
    "through what Gluon leaves out", targets=(f"{PORT}::test_pause_stops_recording_and_predicts_as_gluon",))
src(HELPERS, "draft-random-crop-y-first",
    "    x0 = random.randint(0, w - new_w)\n    y0 = random.randint(0, h - new_h)\n",
    "    y0 = random.randint(0, h - new_h)\n    x0 = random.randint(0, w - new_w)\n", "axis",
    "mx.image.random_crop drafted drawing the row before the column: after the same seed, "
    "other crops than MXNet's", targets=(f"{PORT}::test_random_and_fixed_crops_give_gluons_pixels",))
src(RULES_PY, "draft-np-std-torch-ddof",
    '        return None if out is None else f"{out[:-1]}, correction={ddof})"\n',
    '        return out\n', "default-dropped",
    "np.std / np.var drafted with torch's default correction (n - 1; numpy's ddof is 0)",
    targets=(f"{RW}::test_numpy_interface_rule_matches_mxnet",))
src(HELPERS, "draft-np-dtype-torch-default",
    "    if dtype is None:\n        return torch.float32\n",
    "    if dtype is None:\n        return None\n", "dtype",
    "np.arange named as a function drafted with torch's default dtype (int64 for whole "
    "numbers; MXNet's numpy gives float32)", targets=(f"{RW}::test_numpy_interface_rule_matches_mxnet",))
src(RULES_PY, "draft-np-reference-rand-normal",
    '"mx.np.random.rand": "torch.rand"', '"mx.np.random.rand": "torch.randn"', "call-swap",
    "np.random.rand named as a function drafted as torch.randn (normal, not uniform on [0, 1))",
    targets=(f"{PORT}::test_random_arrays_are_drawn_from_mxnets_distribution",))
src("src/sidebyside/migrate/report.py", "draft-sys-path-ignored",
    '            if not base.startswith(".."):\n',
    '            if False:\n', "default-dropped",
    "a folder the script puts on sys.path not searched: its model file not found, the pair "
    "does not follow Gluon's scope together",
    targets=(f"{PORT}::test_a_folder_the_script_puts_on_sys_path_is_searched",))
src(HELPERS, "draft-kvstore-dist-accepted",
    "        if name not in self.LOCAL:\n", "        if name is None:\n", "check-weakened",
    "a distributed kvstore drafted as one process: each worker trains alone, the gradients "
    "never summed across machines", targets=(f"{PORT}::test_a_trainer_on_a_kvstore_of_one_process_steps_as_mxnet",))
src(HELPERS, "draft-eval-metric-zero-before",
    '        return (self.name, self.sum_metric / self.num_inst if self.num_inst else float("nan"))\n',
    '        return (self.name, self.sum_metric / max(self.num_inst, 1))\n', "default-changed",
    "a script's own EvalMetric drafted reporting 0 before any instance (MXNet's base gives NaN)",
    targets=(f"{PORT}::test_a_metric_class_of_the_script_counts_as_mxnet",))
src(HELPERS, "draft-ctc-blank-first",
    '            label_lengths.long(), blank=classes - 1, reduction="none")\n',
    '            label_lengths.long(), blank=0, reduction="none")\n', "default-changed",
    "CTCLoss drafted with torch's blank (class 0; Gluon's is the last class)",
    targets=(f"{PORT}::test_ctc_loss_gives_gluons_per_sample_values",))
src(HELPERS, "draft-l2-normalization-eps-outside",
    "    return data / (data.square().sum(dim=axes, keepdim=True) + eps).sqrt()\n",
    "    return data / (data.square().sum(dim=axes, keepdim=True).sqrt() + eps)\n", "default-changed",
    "L2Normalization drafted as torch's normalize (eps added to the norm, not under the root)",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-mnist-iter-modulo-draw",
    "        j = r // scaling\n", "        j = r % (i + 1)\n", "call-swap",
    "MNISTIter's shuffle drafted drawing each index as a modulo (libstdc++'s "
    "uniform_int_distribution scales down): another order than MXNet's",
    targets=(f"{PORT}::test_mnist_iter_gives_mxnets_batches_in_mxnets_order",))
src(HELPERS, "draft-pad-widths-first-axis-first",
    "    for axis in reversed(range(2, data.dim())):\n", "    for axis in range(2, data.dim()):\n",
    "axis", "nd.pad drafted passing MXNet's widths to torch's pad in MXNet's order (torch's "
    "start from the last axis)", targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-pooling-avg-counts-padding",
    "    return pool(data, kernel, stride, pad, count_include_pad=bool(count_include_pad))\n",
    "    return pool(data, kernel, stride, pad)\n", "default-dropped",
    "Pooling(pool_type='avg', count_include_pad=False) drafted counting the padding "
    "(torch's default)", targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-named-init-zeros-as-ones",
    '    makers = {"zero": lambda: gluon_init_constant(0.0), "zeros": lambda: gluon_init_constant(0.0),\n',
    '    makers = {"zero": lambda: gluon_init_constant(0.0), "zeros": lambda: gluon_init_constant(1.0),\n',
    "default-changed", "a Block's init='zeros' argument drafted filling ones",
    targets=(f"{PORT}::test_a_blocks_initializers_given_by_name_or_argument_are_read_as_gluon_reads_them",))
src(RULES_PY, "draft-params-get-grad-req-dropped",
    "        ([f\"grad_req={text_of(args['grad_req'])}\"] if \"grad_req\" in args else [])\n",
    "        ([])\n", "default-dropped",
    "a parameter's grad_req expression dropped: the draft trains what Gluon freezes",
    targets=(f"{PORT}::test_a_blocks_initializers_given_by_name_or_argument_are_read_as_gluon_reads_them",))
src(HELPERS, "draft-set-data-no-shape-check",
    "    if tuple(data.shape) != tuple(parameter.shape):\n",
    "    if data.dim() != parameter.dim():\n", "check-weakened",
    "Parameter.set_data drafted as copy_, which broadcasts a shape Gluon refuses",
    targets=(f"{PORT}::test_a_blocks_initializers_given_by_name_or_argument_are_read_as_gluon_reads_them",))
src(HELPERS, "draft-parameter-initialize-default-first",
    "    draw = init or parameter.gluon_init or default_init or gluon_init_uniform(0.07)\n",
    "    draw = default_init or init or parameter.gluon_init or gluon_init_uniform(0.07)\n",
    "call-swap", "Parameter.initialize drafted preferring default_init to the init given",
    targets=(f"{PORT}::test_a_parameter_built_alone_is_initialised_as_gluons_parameter_initialize",))
src(HELPERS, "draft-parameter-initialize-redraws",
    '    if getattr(parameter, "gluon_filled", False) and not force_reinit:\n',
    '    if False:\n', "check-weakened",
    "a second Parameter.initialize drafted drawing new values (Gluon warns and keeps them)",
    targets=(f"{PORT}::test_a_parameter_built_alone_is_initialised_as_gluons_parameter_initialize",))
src(HELPERS, "draft-optimizer-step-ignores-batch-size",
    "            if batch:\n                self.gluon_batch(closure)\n",
    "            if False:\n                self.gluon_batch(closure)\n", "default-dropped",
    "the draft optimizer's step(batch_size) drafted as torch's step(closure): the gradients "
    "not divided by the batch size Gluon's Trainer.step divides by",
    targets=(f"{PORT}::test_a_trainer_of_own_parameters_with_options_read_when_the_draft_runs",))
src(HELPERS, "draft-optimizer-any-kvstore",
    "    if compression_params is not None:\n",
    "    if False:\n", "check-weakened",
    "a Trainer's gradient compression option drafted as ignored (MXNet compresses)",
    targets=(f"{PORT}::test_a_trainer_of_own_parameters_with_options_read_when_the_draft_runs",))
src(HELPERS, "draft-composite-metric-name-kept",
    "            names.extend([name] if isinstance(name, str) else name)\n",
    "            names.extend([self.name] if isinstance(name, str) else name)\n", "call-swap",
    "CompositeEvalMetric.get drafted naming every child by the composite's name",
    targets=(f"{PORT}::test_a_composite_metric_gives_gluons_names_and_values",))
src(RULES_PY, "draft-rnn-dropout-unscoped",
    "        return f\"gluon_scoped(gluon_rnn({', '.join(parts)}))\" if scoped \\\n",
    "        return f\"(gluon_rnn({', '.join(parts)}))\" if scoped \\\n", "mode",
    "a recurrent layer with dropout drafted in torch's default train mode: it drops outside "
    "record() too",
    targets=(f"{PORT}::test_recurrent_dropout_drops_between_layers_inside_record_only",))
src(HELPERS, "draft-rnn-dropout-dropped",
    "        bidirectional=bidirectional, dropout=dropout, **extra)\n",
    "        bidirectional=bidirectional, **extra)\n", "default-dropped",
    "a recurrent layer's dropout between layers drafted away",
    targets=(f"{PORT}::test_recurrent_dropout_drops_between_layers_inside_record_only",))
src(HELPERS, "draft-dropout-axes-not-shared",
    "            shape = [1 if i in shared else d for i, d in enumerate(x.shape)]\n",
    "            shape = list(x.shape)\n", "axis",
    "Dropout(axes=...) drafted as torch's Dropout: a draw per value, none shared",
    targets=(f"{PORT}::test_dropout_with_axes_shares_one_draw_along_them_as_gluon",))
src(RULES_PY, "draft-f-helper-callers-unchecked",
    "            if all(id(_enclosing_function(analysis, c)) in losing for c in callers):\n",
    "            if True:\n", "check-weakened",
    "a function that takes F drafted without it though a call still passes it something",
    targets=(f"{PORT}::test_a_function_also_given_f_by_a_block_that_stays_or_something_else_keeps_it",))
src("src/sidebyside/migrate/resolve.py", "draft-hybrid-forward-inputs-untyped",
    "                self.types[arg.arg] = names.NDARRAY\n",
    "                pass\n", "default-dropped",
    "hybrid_forward's inputs left untyped: their MXNet methods (x.transpose()) kept as "
    "torch's, which differ",
    targets=(f"{PORT}::test_functions_a_hybrid_forward_passes_f_to_lose_it_with_the_block",))
src(HELPERS, "draft-split-one-part-a-list",
    "    return parts[0] if num_outputs == 1 else parts\n",
    "    return parts\n", "call-swap",
    "nd.split(x, 1) drafted as a list of one part (MXNet gives the array itself)",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-embedding-initializer-ignored",
    '        layer.weight.gluon_name, layer.weight.gluon_init = "weight", weight_initializer\n',
    '        pass\n', "default-dropped",
    "an Embedding's weight_initializer drafted away: initialize()'s initializer draws it",
    targets=(f"{PORT}::test_an_embeddings_own_initializer_wins_over_initializes",))
src(HELPERS, "draft-embedding-indices-not-clipped",
    "            return super().forward(x.clamp(0, self.num_embeddings - 1))\n",
    "            return super().forward(x)\n", "check-weakened",
    "an Embedding's indices passed on unclipped: torch raises on an index MXNet clips",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-embedding-float-indices-rounded",
    "            x = x.long() if x.is_floating_point() else x\n",
    "            x = x.round().long() if x.is_floating_point() else x\n", "call-swap",
    "an Embedding's float indices rounded (MXNet truncates: 1.7 reads row 1)",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src("src/sidebyside/migrate/structure.py", "draft-import-kept-by-a-local-name",
    "            shadow |= binds[up] - globals_[up]\n",
    "            shadow |= set()\n", "missing-call",
    "a function's own name (a helper's local image) read as the module's: the mxnet import "
    "it shadows kept, the draft not MXNet-free",
    targets=(f"{PORT}::test_an_mxnet_import_stays_while_the_module_reads_its_name",))
src("src/sidebyside/migrate/structure.py", "draft-import-dropped-past-global",
    "            shadow |= binds[up] - globals_[up]\n",
    "            shadow |= binds[up]\n", "check-weakened",
    "a name a function declares global taken as its own: the import it reads dropped",
    targets=(f"{PORT}::test_an_mxnet_import_stays_while_the_module_reads_its_name",))
src(RULES_PY, "draft-concat-starred-elements-0d",
    '        items = ", ".join(f"*map(torch.atleast_1d, {text_of(a.value)})"\n',
    '        items = ", ".join(f"*{text_of(a.value)}"\n', "missing-call",
    "nd.concat(*elements) drafted without atleast_1d: an MXNet element has shape (1,), a "
    "torch one none, and torch.cat refuses it",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-scheduler-counts-after",
    "                lr = self.gluon_lr_scheduler(self.gluon_num_update)\n",
    "                lr = self.gluon_lr_scheduler(self.gluon_num_update - 1)\n", "off-by-one",
    "the scheduler asked before the update is counted (MXNet counts first): every change of "
    "rate one update late",
    targets=(f"{PORT}::test_a_trainers_lr_scheduler_steps_as_mxnet",))
src(HELPERS, "draft-scheduler-base-lr-kept",
    "        scheduler.base_lr = settings[\"lr\"]    # MXNet's optimizer sets the scheduler's\n",
    "        pass\n", "default-dropped",
    "the optimizer's learning_rate not passed to the scheduler: its own base_lr (0.01) used",
    targets=(f"{PORT}::test_a_trainers_lr_scheduler_steps_as_mxnet",))
src(HELPERS, "draft-factor-scheduler-at-the-step",
    "            while num_update > self.count + self.step:      # each step passed since\n",
    "            while num_update >= self.count + self.step:      # each step passed since\n",
    "off-by-one", "FactorScheduler's rate changed at update step, not after it",
    targets=(f"{PORT}::test_lr_schedulers_give_mxnets_rates",))
src(HELPERS, "draft-warmup-from-final",
    "            return self.warmup_begin_lr + (self.warmup_final_lr - self.warmup_begin_lr) \\\n",
    "            return self.warmup_begin_lr + (self.base_lr - self.warmup_begin_lr) \\\n",
    "default-changed", "the linear warm-up aimed at the current base_lr (the optimizer's, "
    "set later) instead of the scheduler's own",
    targets=(f"{PORT}::test_lr_schedulers_give_mxnets_rates",))
src(HELPERS, "draft-decay-from-current",
    "                self.base_lr = self.final_lr + (self.start_lr - self.final_lr) \\\n",
    "                self.base_lr = self.final_lr + (self.base_lr - self.final_lr) \\\n",
    "default-changed", "Poly/Cosine decaying from the rate of the last call (compounding) "
    "instead of the base_lr they were built with",
    targets=(f"{PORT}::test_lr_schedulers_give_mxnets_rates",))
src(RULES_PY, "draft-randint-int64",
    '    dt = _dtype(args.get("dtype"), "int32")\n',
    '    dt = _dtype(args.get("dtype"), "int64")\n', "dtype",
    "nd.random.randint drafted with torch's int64 default (MXNet's is int32)",
    targets=(f"{PORT}::test_random_arrays_are_drawn_from_mxnets_distribution",))
src(HELPERS, "draft-get-mnist-unsigned-labels",
    "            label = numpy.frombuffer(f.read(), dtype=numpy.int8)\n",
    "            label = numpy.frombuffer(f.read(), dtype=numpy.uint8)\n", "dtype",
    "get_mnist's labels read as uint8 (MXNet's are int8)",
    targets=(f"{PORT}::test_get_mnist_reads_the_working_directorys_files_as_mxnet",))
src(HELPERS, "draft-random-size-crop-corner-order",
    "            x0 = random.randint(0, w - new_w)\n            y0 = random.randint(0, h - new_h)\n"
    "            return gluon_fixed_crop(src, x0, y0, new_w, new_h, size, interp), \\\n",
    "            y0 = random.randint(0, h - new_h)\n            x0 = random.randint(0, w - new_w)\n"
    "            return gluon_fixed_crop(src, x0, y0, new_w, new_h, size, interp), \\\n",
    "axis", "random_size_crop's corner drawn y first (MXNet draws x, then y): other crops "
    "after the same seed",
    targets=(f"{PORT}::test_random_size_crops_give_gluons_crops",))
src(HELPERS, "draft-random-size-crop-linear-aspect",
    "        aspect = numpy.exp(random.uniform(numpy.log(ratio[0]), numpy.log(ratio[1])))\n",
    "        aspect = random.uniform(ratio[0], ratio[1])\n", "scale",
    "random_size_crop's aspect drawn uniformly (MXNet: log-uniform)",
    targets=(f"{PORT}::test_random_size_crops_give_gluons_crops",))
src(HELPERS, "draft-saturation-luminance-grey",
    "        grey = x[..., 2:3] * torch.tensor(0.114, dtype=torch.float32) * (1 - f)\n",
    "        grey = (x * torch.tensor([0.299, 0.587, 0.114])).sum(-1, keepdim=True) * (1 - f)\n",
    "call-swap", "saturation's grey as the luminance (MXNet 1.9.1's kernel keeps 0.114 B "
    "alone)", targets=(f"{PORT}::test_colour_kernels_give_mxnets_pixels",))
src(HELPERS, "draft-colour-uint8-rounded",
    "        return out.clamp(0, 255).to(torch.uint8)\n",
    "        return out.clamp(0, 255).round().to(torch.uint8)\n", "call-swap",
    "colour kernels round to uint8 (MXNet's saturate_cast truncates)",
    targets=(f"{PORT}::test_colour_kernels_give_mxnets_pixels",))
src(HELPERS, "draft-jitter-factor-not-around-one",
    "            out = gluon_image_color(out, kind, draw if kind == \"hue\" else 1.0 + draw)\n",
    "            out = gluon_image_color(out, kind, draw)\n", "off-by-one",
    "RandomColorJitter's factors drawn around 0, not 1 + U(-amount, amount)",
    targets=(f"{PORT}::test_random_colour_transforms_draw_mxnets_factors",))
src(HELPERS, "draft-compare-gives-bool",
    "    return fn(lhs, rhs).to(like.dtype)\n",
    "    return fn(lhs, rhs)\n", "dtype",
    "an NDArray comparison drafted as torch's bool (MXNet's is 0/1 in the arrays' dtype)",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-compare-dtype-of-rhs",
    "    like = lhs if isinstance(lhs, torch.Tensor) else rhs\n",
    "    like = rhs\n", "dtype", "a comparison's dtype taken from its right side (a number "
    "there: MXNet's is the array's)", targets=(f"{RW}::test_rule_matches_mxnet",))
src("src/sidebyside/migrate/resolve.py", "draft-loop-batches-untyped",
    "                    self._bind(elt, item[5:-1], None)\n",
    "                    pass\n", "missing-call",
    "a DataLoader's (data, label) left untyped: their methods (astype) kept as MXNet's",
    targets=(f"{PORT}::test_accuracy_of_a_loaders_batches_as_gluons",
             f"{RW}::test_a_loaders_batches_are_arrays_unless_it_batches_its_own_way"))
src("src/sidebyside/migrate/resolve.py", "draft-loop-batchify-trusted",
    "            own = self._own_batching(node.iter) or \".\".join(\n",
    "            own = False and \".\".join(\n", "check-weakened",
    "a DataLoader with the script's batchify_fn taken to give arrays",
    targets=(f"{RW}::test_a_loaders_batches_are_arrays_unless_it_batches_its_own_way",))
src("src/sidebyside/migrate/resolve.py", "draft-compare-trusts-guesses",
    "                return None if got[1] == \"guessed\" else names.class_of_call(got[0])\n",
    "                return names.class_of_call(got[0])\n", "check-weakened",
    "a comparison typed from a guessed method (numpy's astype): numpy compared as NDArrays",
    targets=(f"{RW}::test_comparisons_of_no_known_ndarray_stay_python",))
src("src/sidebyside/migrate/resolve.py", "draft-own-batches-passed-typed",
    "        if self._own_batching(value) or \".\".join(_dotted(value) or [\"<expression>\"]) \\\n",
    "        if False and \".\".join(_dotted(value) or [\"<expression>\"]) \\\n",
    "check-weakened", "a DataLoader with the script's batchify_fn typing the parameter it is "
    "passed to: the loop inside takes its batches for arrays",
    targets=(f"{RW}::test_a_loader_with_its_own_batches_passed_on_types_nothing",))
src(RULES_PY, "draft-built-by-stops-at-names",
    "        if isinstance(value, ast.Name) and depth < 3:   # a name another function returns\n",
    "        if isinstance(value, ast.Name) and depth < 0:   # a name another function returns\n",
    "check-weakened",
    "a trainer that a function returns (loss, trainer = configure(net)) left unported: its "
    "step not the draft's",
    targets=(f"{PORT}::test_a_trainer_a_function_returns_in_a_tuple_is_the_drafts",))
src("src/sidebyside/migrate/resolve.py", "draft-returned-tuple-untyped",
    "                self.tuple_functions[node.name] = returned[0]\n",
    "                pass\n", "default-dropped",
    "the loss a function returns beside its trainer left untyped: its vector backward() kept "
    "as torch's, which needs a scalar",
    targets=(f"{PORT}::test_a_trainer_a_function_returns_in_a_tuple_is_the_drafts",))

WLM = f"{PORT}::test_a_word_language_model_ties_clips_and_starts_as_gluon"
src(HELPERS, "draft-shared-params-not-shared",
    "        setattr(target, name, param)\n",
    "        setattr(target, name, torch.nn.Parameter(param.detach().clone()))\n", "call-swap",
    "params=encoder.params ported as a copy of the weight (two weights that drift apart, "
    "not one tied weight)", targets=(WLM,))
src(HELPERS, "draft-shared-params-bias-too",
    "        if name not in mine:\n            continue\n",
    "        if name not in mine:\n            setattr(target, name, param)\n            "
    "continue\n", "check-weakened",
    "a Dense tied to an Embedding given every parameter the owner has",
    targets=(f"{PORT}::test_shared_params_share_what_gluon_shares",))
src(HELPERS, "draft-clip-eps-torchs",
    "        scale = torch.clamp(max_norm / (total + 1e-8), max=1.0)\n",
    "        scale = torch.clamp(max_norm / (total + 1e-6), max=1.0)\n", "default-changed",
    "clip_global_norm with torch's clip_grad_norm_ epsilon (1e-6, not 1e-8)", targets=(WLM,),
    equivalent="1e-6 against a norm near 1 moves the scale by ~1e-6 relative, inside the "
    "float32 tolerance: the notes say why the helper keeps MXNet's 1e-8")
src(HELPERS, "draft-clip-always-scales",
    "        scale = torch.clamp(max_norm / (total + 1e-8), max=1.0)\n",
    "        scale = max_norm / (total + 1e-8)\n", "check-weakened",
    "clip_global_norm scaling gradients up when their norm is below max_norm", targets=(WLM,))
src(HELPERS, "draft-clip-squares-not-summed",
    "        total = torch.sqrt(sum(torch.dot(a.reshape(-1), a.reshape(-1)).to(device)\n",
    "        total = torch.sqrt(max(torch.dot(a.reshape(-1), a.reshape(-1)).to(device)\n",
    "call-swap", "the global norm taken as the largest array's norm", targets=(WLM,))
src(HELPERS, "draft-grad-none-kept",
    "    if param.grad is None:\n        param.grad = torch.zeros_like(param)\n",
    "    if param.grad is None:\n        return torch.zeros_like(param)\n", "missing-call",
    "grad() of a parameter before any backward: a detached zero tensor, not its gradient",
    targets=(f"{PORT}::test_grad_of_a_frozen_parameter_raises_in_both",),
    equivalent="the frozen parameter raises before; no test reads a gradient before backward")
src(HELPERS, "draft-begin-state-ignores-func",
    "            return [(func or gluon_nd_zeros)(shape=shape, dtype=dtype or p.dtype, **kwargs)\n",
    "            return [gluon_nd_zeros(shape=shape, dtype=dtype or p.dtype, **kwargs)\n",
    "default-dropped",
    "begin_state's func ignored (nd.ones gives zeros)",
    targets=(f"{PORT}::test_begin_state_on_a_layer_takes_gluons_func_and_dtype",))
src(HELPERS, "draft-begin-state-ignores-dtype",
    "            dtype = kwargs.pop(\"dtype\", None)\n",
    "            dtype = kwargs.pop(\"dtype\", None) and None\n", "dtype",
    "begin_state's dtype ignored (float64 asked, float32 given)",
    targets=(f"{PORT}::test_begin_state_on_a_layer_takes_gluons_func_and_dtype",))
src(HELPERS, "draft-vocab-ties-unsorted",
    "        ranked = sorted(sorted(counter.items(), key=lambda kv: kv[0]), key=lambda kv: kv[1],\n",
    "        ranked = sorted(counter.items(), key=lambda kv: kv[1],\n", "off-by-one",
    "the vocabulary's ties in count in the file's order, not by string",
    targets=(f"{PORT}::test_wikitext_gives_gluons_rows_and_vocabulary",))
src(HELPERS, "draft-wikitext-eos-dropped",
    "        words = [w for line in content.splitlines() for w in (line.split() + [\"<eos>\"]\n",
    "        words = [w for line in content.splitlines() for w in (line.split() + []\n",
    "missing-call", "WikiText's lines joined without '<eos>'",
    targets=(f"{PORT}::test_wikitext_gives_gluons_rows_and_vocabulary",))
src(HELPERS, "draft-wikitext-labels-not-shifted",
    "        self._label = torch.from_numpy(ids[1:][:rows].reshape(-1, seq_len).copy())\n",
    "        self._label = torch.from_numpy(ids[:-1][:rows].reshape(-1, seq_len).copy())\n",
    "off-by-one", "a language model's labels the inputs themselves, not the next tokens",
    targets=(f"{PORT}::test_wikitext_gives_gluons_rows_and_vocabulary",))
src(RULES_PY, "draft-values-grads-with-condition",
    "    if not (isinstance(gen, ast.comprehension) and gen.iter is values and not gen.ifs\n",
    "    if not (isinstance(gen, ast.comprehension) and gen.iter is values\n",
    "check-weakened", "any comprehension over collect_params().values() taken for the "
    "parameters with gradients", targets=(f"{RW}::test_non_qualifying_call_is_left_alone",))
src("src/sidebyside/migrate/resolve.py", "draft-comprehension-untyped",
    "            self._bind(gen.target, item if item and not item.startswith(\"list[\") else None,\n",
    "            self._bind(gen.target, None,\n", "missing-call",
    "a comprehension's parameter left untyped: its grad(ctx) kept as MXNet's", targets=(WLM,))
src(RULES_PY, "draft-load-any-device",
    "    return bool(values) and all(v is not None and device(v) for v in values)\n",
    "    return bool(values)\n", "check-weakened",
    "load_parameters(f, ctx) rewritten whatever ctx is (a list of devices: Gluon's copies on "
    "each, torch's one module)", targets=(f"{RW}::test_non_qualifying_call_is_left_alone",))
src("src/sidebyside/migrate/resolve.py", "draft-module-class-untyped",
    "                if full in self.local_classes:   # import model; model.RNNModel(…)\n",
    "                if False:   # import model; model.RNNModel(…)\n", "missing-call",
    "import model; model.RNNModel(…) left untyped: its initialize and load_parameters kept "
    "as Gluon's", targets=(f"{PORT}::test_a_model_module_imported_whole_types_what_it_builds",))
src(RULES_PY, "draft-broadcast-zero-kept",
    "        return _tuple_text(tuple(zero if v == 0 else v for v in value))\n",
    "        return _tuple_text(tuple(-1 if v == 0 else v for v in value))\n", "default-changed",
    "x.broadcast_to's 0 (the method: the input's 1, padded in front) written as the "
    "operator's -1, which torch refuses for a new leading axis",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src(HELPERS, "draft-broadcast-shape-zero-kept",
    "    return tuple(zero if int(d) == 0 else int(d) for d in shape)\n",
    "    return tuple(int(d) for d in shape)\n", "default-changed",
    "a computed broadcast_to shape's 0 passed to torch as a size of 0",
    targets=(f"{RW}::test_rule_matches_mxnet",))
src("src/sidebyside/migrate/resolve.py", "draft-other-files-methods-unknown",
    "    own_methods |= {k.rsplit(\":method:\", 1)[1] for k in (local_classes or {})\n",
    "    own_methods |= {k.rsplit(\":method:\", 1)[1] for k in ()\n", "missing-call",
    "a method of a block class another file of the scan defines taken for Gluon's (no "
    "counterpart)", targets=(f"{PORT}::test_a_model_module_imported_whole_types_what_it_builds",))
src(RULES_PY, "draft-reaching-off",
    "    if len(values) < 2 or any(v is None for v in values) \\\n",
    "    if True or any(v is None for v in values) \\\n", "check-weakened",
    "a name bound twice (a tutorial's net) read as every value it ever has: the Sequential's "
    "add left to MXNet", targets=(f"{PORT}::test_a_name_bound_again_later_is_drafted_as_each_use_sees_it",))
src(RULES_PY, "draft-reaching-ignores-branches",
    "                return values   # bound inside a compound statement before the use, or in it\n",
    "                continue   # bound inside a compound statement before the use, or in it\n",
    "check-weakened", "an assignment inside an if before the use ignored: the name taken for "
    "what the plain assignment gave", targets=(f"{RW}::test_non_qualifying_call_is_left_alone",))
src(HELPERS, "draft-step-drops-gradient-buffers",
    "    optimizer.zero_grad(set_to_none=False)\n",
    "    optimizer.zero_grad()\n", "call-swap",
    "the draft's step clears gradients to None: a list of p.grad(ctx) taken once holds dead "
    "tensors from the second step on (Gluon's buffers stay)",
    targets=(f"{PORT}::test_gradients_taken_once_stay_the_ones_each_step_fills",))
src(RULES_PY, "draft-reaching-ignores-global",
    "            or _rebound_elsewhere(analysis).get(getattr(use, \"id\", None)):\n",
    "            or False:\n", "check-weakened",
    "a name a function rebinds with global read as its last plain module-level value",
    targets=(f"{RW}::test_a_declined_form_goes_to_the_general_rule",))
src(RULES_PY, "draft-reaching-generator-now",
    "            if isinstance(up, (*_SCOPES, ast.ClassDef, ast.GeneratorExp)):\n",
    "            if isinstance(up, (*_SCOPES, ast.ClassDef)):\n", "check-weakened",
    "a generator expression's body read as run where it is written, not when it is consumed",
    targets=(f"{RW}::test_a_declined_form_goes_to_the_general_rule",))
src(RULES_PY, "draft-shared-owner-any-block",
    "                             and analysis.site_at(v).name in _SHARING\n",
    "\n", "check-weakened",
    "params=net.collect_params() of a container shared as if it were its only layer's",
    targets=(f"{RW}::test_non_qualifying_call_is_left_alone",))

MUTANTS.extend(catalogue_swaps())


# targets too slow for make mutate-quick's sample (seconds for the unmutated run, 2 cores)
SLOW = ("tests/test_examples_mnist.py",                       # 172 s
        "tests/test_examples_image_classification.py",
        "notebooks/03_mnist_mlp.ipynb", "notebooks/12_tensorboard.ipynb",
        "notebooks/14_converting_models.ipynb", "notebooks/15_capstone_mnist_to_gluon.ipynb",
        "notebooks/16_capstone_mxnet_to_pytorch.ipynb",
        "tests/test_convert.py")                              # 47 s

# the CI smoke: one mutant known to be killed, one known to be equivalent (fast target)
SMOKE = ("initmap-fans-swapped", "initmap-xavier-magnitude-default")
