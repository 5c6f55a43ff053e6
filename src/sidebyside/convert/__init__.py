"""Convert trained weights between a Gluon ``.params`` file and a PyTorch state dict file.

Three modules: :mod:`~sidebyside.convert.api` (the conversion API: files, the copy, the
check), :mod:`~sidebyside.convert.module` (Module API checkpoints) and
:mod:`~sidebyside.convert.cli` (the command line); every public name is importable from
``sidebyside.convert`` itself.

From the command line (``python -m sidebyside.convert --help``)::

    python -m sidebyside.convert resnet18.params resnet18.pt \\
        --gluon mxnet.gluon.model_zoo.vision:resnet18_v1 \\
        --torch torchvision.models:resnet18 --input-shape 1,3,224,224

The direction follows the file names: ``.params`` → ``.pt``/``.pth`` or back. From Python::

    params_to_state_dict("net.params", "net.pt", gluon_net=g, torch_net=pt,
                         input_shape=(1, 3, 224, 224))
    state_dict_to_params("net.pt", "net.params", torch_net=pt, gluon_net=g,
                         input_shape=(1, 3, 224, 224))

**Files.** A ``.params`` file is what ``Block.save_parameters`` writes: one array per
parameter, keyed by its structural name (``features.0.weight``; a fused RNN layer's are
``_unfused.0.i2h_weight``). Two older kinds are read too: ``HybridBlock.export``'s, keyed by
full parameter names (``arg:resnetv10_conv0_weight``), when those names are the Gluon
network's; and the deprecated ``Block.save_params``'s, keyed by full names less the saving
network's own prefix (``conv0_weight``), when the Gluon network's prefix put in front gives its
names (as ``load_parameters`` does; a fresh ``resnet18_v1()`` fits whatever its counter). Both
depend on the prefixes the saving network gave its blocks. A state dict file is what
``torch.save(model.state_dict(), path)`` writes; it is read with ``weights_only=True``, so a
file that pickles a whole model or other objects is refused. PyTorch's BatchNorm counter
``num_batches_tracked`` may be missing from it.

**The networks** are given as objects (in Python) or as factories (on the command line); the
weights are copied between them by :mod:`sidebyside.transfer` (``by=``, ``mapping=``,
``check_hparams=`` are passed on), with all its checks. The networks are changed in place: they
end up holding the converted weights, both cast to the dtype of the file read (one floating
dtype throughout, else the file is refused).

**Verification.** Given ``input_shape``, both networks are run, after the copy, on one fixed
random input of that shape (standard normal, seed 0, in the file's dtype; token ids and states
below): PyTorch in
``eval()``, Gluon outside ``autograd.record()`` (predict mode), and, with
``train_check=True``, also in training mode (batch statistics; PyTorch ``train()``, Gluon
``record(train_mode=True)``; running statistics are restored afterwards, and dropout makes this
check fail). The largest absolute difference of the outputs must not exceed
``atol + rtol · (largest |output|)`` — defaults ``atol`` 1e-4 and ``rtol`` 1e-5 for float32,
1e-10 and 1e-12 for float64 — otherwise :class:`VerificationFailed` is raised. (The ``rtol``
term is there because float32 rounding grows with the outputs: a ResNet-18 whose logits reach
250 differs by ~1e-4 from its exact copy, ~5e-7 relative.) Only
then is the output file written (to a temporary name, then renamed: a failure writes nothing;
an existing file is replaced on success).

**Token ids and recurrent states.** A network that starts with an ``Embedding`` takes token
ids: ``input_range=(low, high)`` (``--input-range LOW,HIGH``) makes the input int64 ids drawn
uniformly from ``[low, high)`` (the tolerances then follow the network's dtype). A word
language model's forward also takes its recurrent states, ``forward(input, hidden)``:
``state_shapes=[shape, ...]`` (``--state-shape``, repeated) adds one standard normal array per
state — random, not zeros, so that swapped ``h`` and ``c`` show. PyTorch gets them as its second
argument, the tensor itself for one state (a GRU's or RNN's ``h``) and a tuple for two (an
LSTM's ``(h, c)``); Gluon gets a list (what ``begin_state`` returns). Every output is compared,
nested ones included (``(out, (h, c))`` with ``(out, [h, c])``), and the report names the input
(``input   token ids in [0, 50) of shape (7, 3) with the states (2, 3, 8), (2, 3, 8)
(standard normal)``)::

    python -m sidebyside.convert lm.pt lm.params --torch model.py:TorchLM \\
        --gluon model.py:GluonLM --input-shape 35,20 --input-range 0,10000 \\
        --state-shape 2,20,200 --state-shape 2,20,200

A forward that needs an argument the verification did not give (``missing 1 required
positional argument: 'hidden'``) fails with a message naming the flag to add. For other inputs,
run :func:`compare_outputs` yourself: it takes any input array and ``states=``.

**Tied weights.** A decoder that reuses the embedding (PyTorch ``decoder.weight =
encoder.weight``; Gluon ``nn.Dense(V, in_units=H, params=encoder.params)``, MXNet 1.x's way
of tying) is one tensor, or one ``Parameter``, under two names. It is copied once and written
under both names, as ``torch.save(model.state_dict())`` and ``save_parameters`` (whose default
is ``deduplicate=False``) do; a ``.params`` file saved with ``deduplicate=True``, which holds it
under one name, is read too. A file whose two names of one tied weight hold different values
is refused, and so is a copy between a tied and an untied network whose two untied tensors
differ (:mod:`sidebyside.transfer`): either would silently drop one of them.

**Module API checkpoints.** ``Module.save_checkpoint`` / ``mx.callback.do_checkpoint`` write
``prefix-symbol.json`` and ``prefix-0003.params``, whose keys carry ``arg:``/``aux:`` prefixes
(``arg:fc1_weight``, ``aux:bn1_moving_mean``). :func:`params_to_state_dict` reads such a file
only into a Gluon network whose full parameter names are those (``Dense(64, prefix='fc1_')``);
:func:`module_checkpoint_to_state_dict` needs no Gluon network: it translates the names
(``fc1_weight`` → ``fc1.weight``, ``bn1_gamma``/``_beta``/``_moving_mean``/``_moving_var`` →
``bn1.weight``/``.bias``/``.running_mean``/``.running_var``; ``mapping`` renames layers) and
verifies against the checkpoint's own symbol, run by MXNet.

Every problem with the files (missing, truncated or corrupt, not a ``.params`` file or a state
dict, keys missing or unexpected, shapes that differ) or with the networks raises
:class:`ConversionError` with one message that names the file.
"""

from __future__ import annotations

# torch, mxnet and sidebyside.transfer are imported when needed, so that --help is quick
from .api import (DEFAULT_ATOL, DEFAULT_RTOL, PARAMS_SUFFIXES, STATE_DICT_SUFFIXES,
                  Conversion, ConversionError, OutputCheck, VerificationFailed,
                  compare_outputs, params_to_state_dict, state_dict_to_params)
from .cli import build_network, main
from .module import LOSS_HEADS, MODULE_SUFFIXES, module_checkpoint_to_state_dict, \
    module_key_to_torch

__all__ = ["ConversionError", "VerificationFailed", "OutputCheck", "Conversion",
           "params_to_state_dict", "state_dict_to_params", "module_checkpoint_to_state_dict",
           "module_key_to_torch", "compare_outputs",
           "build_network", "main",
           "PARAMS_SUFFIXES", "STATE_DICT_SUFFIXES", "DEFAULT_ATOL", "DEFAULT_RTOL",
           "LOSS_HEADS", "MODULE_SUFFIXES"]
