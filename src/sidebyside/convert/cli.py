"""The command line, ``python -m sidebyside.convert``: flags, the direction from the file
suffixes, networks built from ``module:factory`` specs, exit codes (``--help`` lists them).
"""
from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import json
import sys
import warnings
from pathlib import Path

from .api import (ConversionError, PARAMS_SUFFIXES, STATE_DICT_SUFFIXES, VerificationFailed,
                  _check_dest, _check_source, _short, params_to_state_dict,
                  state_dict_to_params)


def _import_target(spec: str):
    """The module of 'package.module' or of 'path/to/file.py'."""
    if spec.endswith(".py"):
        path = Path(spec)
        if not path.is_file():
            raise ConversionError(f"{spec}: no such file")
        name = f"_sidebyside_convert_{path.stem}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        return module
    return importlib.import_module(spec)


def build_network(spec: str):
    """Call the factory ``spec``: ``package.module:callable``, ``path/file.py:callable``, or
    either with literal arguments, ``torchvision.models:resnet18(num_classes=10)``."""
    if ":" not in spec:
        raise ConversionError(f"{spec!r}: expected package.module:callable (or "
                              "path/file.py:callable)")
    module_name, expr = spec.split(":", 1)
    try:
        node = ast.parse(expr.strip(), mode="eval").body
        args, kwargs = [], {}
        if isinstance(node, ast.Call):
            args = [ast.literal_eval(a) for a in node.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            if any(k.arg is None for k in node.keywords):
                raise ValueError("**kwargs are not supported")
            node = node.func
        path = []
        while isinstance(node, ast.Attribute):
            path.insert(0, node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            raise ValueError("not a name")
        path.insert(0, node.id)
    except (SyntaxError, ValueError) as err:
        raise ConversionError(f"{spec!r}: the part after ':' must be a name, or a call with "
                              f"literal arguments ({err})") from None
    try:
        target = _import_target(module_name)
        for attr in path:
            target = getattr(target, attr)
    except ConversionError:
        raise
    except Exception as err:
        raise ConversionError(f"{spec!r}: {type(err).__name__}: {_short(err)}") from None
    try:
        return target(*args, **kwargs)
    except Exception as err:
        raise ConversionError(f"{spec!r} failed: {type(err).__name__}: {_short(err)}") from None


def _shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(n) for n in text.replace("x", ",").split(","))
    except ValueError:
        shape = ()
    if not shape or any(n <= 0 for n in shape):
        raise argparse.ArgumentTypeError(f"{text!r}: expected positive integers such as "
                                         "1,3,224,224")
    return shape


def _id_range(text: str) -> tuple[int, int]:
    try:
        low, high = (int(n) for n in text.split(","))
    except ValueError:
        low = high = -1
    if not 0 <= low < high:
        raise argparse.ArgumentTypeError(f"{text!r}: expected two integers LOW,HIGH with "
                                         "0 <= LOW < HIGH, such as 0,10000")
    return low, high


def _mapping(text: str) -> dict[str, str]:
    try:
        value = json.loads(text if text.lstrip().startswith("{")
                           else Path(text).read_text())
    except (OSError, ValueError) as err:
        raise argparse.ArgumentTypeError(f"{text!r}: not a JSON object or a readable JSON "
                                         f"file ({err})") from None
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in value.items()):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a JSON object of "
                                         '{"torch layer": "gluon layer", ...}')
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sidebyside.convert",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Convert trained weights between a Gluon .params file (Block.save_parameters) and a
PyTorch state dict file (torch.save(model.state_dict(), path)), for two networks of the
same architecture, then check that both compute the same outputs.

The direction follows the file names: SOURCE .params -> DEST .pt/.pth, or SOURCE .pt/.pth
-> DEST .params. The networks are built by calling factories, given as
package.module:callable, path/to/file.py:callable, or either with literal arguments:
  --torch "torchvision.models:resnet18(num_classes=10)".
Layers are paired as sidebyside.transfer does (by name, else in registration order with a
note; --by, --mapping), and every pair's kind, shapes, dtype and settings are checked.

Verification: both networks are run on one fixed random input of --input-shape
(standard normal, seed 0; PyTorch eval(), Gluon predict mode; with --train-check also in
training mode, on batch statistics) and the largest absolute output difference must not
exceed --atol + --rtol x (largest |output|). Only then is DEST written (an existing DEST
is replaced); on any error nothing is written.

Token ids and recurrent states: --input-range LOW,HIGH makes the input int64 ids drawn
from [LOW, HIGH) (HIGH at most the vocabulary size). --state-shape gives a recurrent
state, standard normal, passed as the forward's second argument (forward(input, hidden)):
once for a GRU's or RNN's h (PyTorch gets the tensor), twice for an LSTM's (h, c)
(PyTorch gets a tuple; Gluon always a list, as begin_state returns). Every output is
compared, the returned states included. A tied embedding (decoder.weight =
encoder.weight; Gluon Dense(..., params=encoder.params)) is converted as one weight,
written under both its names.""",
        epilog="""\
examples:
  python -m sidebyside.convert resnet18.params resnet18.pt \\
      --gluon mxnet.gluon.model_zoo.vision:resnet18_v1 \\
      --torch torchvision.models:resnet18 --input-shape 1,3,224,224

  # a word language model, forward(input, hidden) -> (output, hidden): 35 steps x 20
  # sentences of ids below 10000 into a 2-layer LSTM of 200 units, embedding tied. Both
  # networks must return the same thing: pytorch/examples' RNNModel returns log_softmax of
  # the logits, MXNet's example returns the logits (add log_softmax to one side)
  python -m sidebyside.convert lm.pt lm.params \\
      --torch "model.py:RNNModel('LSTM', 10000, 200, 200, 2, tie_weights=True)" \\
      --gluon "model_gluon.py:RNNModel('lstm', 10000, 200, 200, 2, tie_weights=True)" \\
      --input-shape 35,20 --input-range 0,10000 \\
      --state-shape 2,20,200 --state-shape 2,20,200

exit status: 0 converted (and verified); 1 a file or the networks could not be converted;
2 bad arguments; 3 the verification failed.""")
    parser.add_argument("source", metavar="SOURCE", help="the .params or .pt/.pth file to read")
    parser.add_argument("dest", metavar="DEST", help="the .pt/.pth or .params file to write")
    parser.add_argument("--torch", required=True, metavar="FACTORY",
                        help="builds the PyTorch network, e.g. torchvision.models:resnet18")
    parser.add_argument("--gluon", required=True, metavar="FACTORY",
                        help="builds the Gluon network, e.g. "
                             "mxnet.gluon.model_zoo.vision:resnet18_v1")
    verify = parser.add_mutually_exclusive_group(required=True)
    verify.add_argument("--input-shape", type=_shape, metavar="N,C,H,W",
                        help="shape of the verification input, e.g. 1,3,224,224")
    verify.add_argument("--no-verify", action="store_true",
                        help="skip the verification")
    parser.add_argument("--input-range", type=_id_range, metavar="LOW,HIGH",
                        help="make the verification input int64 token ids drawn from "
                             "[LOW, HIGH), e.g. 0,10000, for networks that start with an "
                             "Embedding")
    parser.add_argument("--state-shape", type=_shape, action="append", metavar="L,N,H",
                        dest="state_shapes",
                        help="shape of a recurrent state given to forward(input, hidden) "
                             "(standard normal); repeat it: once for a GRU's h, twice for "
                             "an LSTM's (h, c), e.g. --state-shape 2,20,200 "
                             "--state-shape 2,20,200")
    parser.add_argument("--atol", type=float, default=None,
                        help="largest output difference accepted (default 1e-4 for "
                             "float32, 1e-10 for float64)")
    parser.add_argument("--rtol", type=float, default=None,
                        help="plus this times the largest |output| (default 1e-5 for "
                             "float32, 1e-12 for float64)")
    parser.add_argument("--train-check", action="store_true",
                        help="also compare the outputs in training mode (batch statistics); "
                             "fails for networks with dropout")
    parser.add_argument("--by", choices=("auto", "name", "order"), default="auto",
                        help="how to pair the layers (default auto: by name if the names "
                             "agree, else in registration order)")
    parser.add_argument("--mapping", type=_mapping, default=None, metavar="JSON",
                        help='pair the layers explicitly: {"torch layer": "gluon layer", ...}, '
                             "or a file holding that")
    parser.add_argument("--no-check-hparams", dest="check_hparams", action="store_false",
                        help="do not refuse differing hyper-parameters (BatchNorm eps and "
                             "momentum, convolution strides and padding, ...)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every layer pair")
    return parser


def _direction(parser, source: Path, dest: Path) -> str:
    s, d = source.suffix.lower(), dest.suffix.lower()
    if s in PARAMS_SUFFIXES and d in STATE_DICT_SUFFIXES:
        return "gluon->torch"
    if s in STATE_DICT_SUFFIXES and d in PARAMS_SUFFIXES:
        return "torch->gluon"
    parser.error(f"cannot tell the direction from {source.name!r} -> {dest.name!r}: convert "
                 "a .params file to a .pt/.pth file or back")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.mapping is not None and args.by != "auto":
        parser.error("give either --mapping or --by, not both")
    if args.no_verify and (args.input_range is not None or args.state_shapes):
        parser.error(f"{'--input-range' if args.input_range is not None else '--state-shape'}"
                     " describes the verification input: give --input-shape, not "
                     "--no-verify")
    source, dest = Path(args.source), Path(args.dest)
    direction = _direction(parser, source, dest)
    try:
        _check_source(source)
        _check_dest(source, dest)
        torch_net = build_network(args.torch)
        gluon_net = build_network(args.gluon)
        kwargs = dict(input_shape=args.input_shape, input_range=args.input_range,
                      state_shapes=args.state_shapes, atol=args.atol, rtol=args.rtol,
                      train_check=args.train_check, by=args.by, mapping=args.mapping,
                      check_hparams=args.check_hparams)
        run = params_to_state_dict if direction == "gluon->torch" else \
            state_dict_to_params
        with warnings.catch_warnings():   # the report says how the layers were paired
            warnings.filterwarnings("ignore", message="the layer names differ")
            result = run(source, dest, gluon_net=gluon_net, torch_net=torch_net, **kwargs)
    except VerificationFailed as err:
        print(f"  check   {err.check.line()}", file=sys.stderr)
        print(f"error: {err}", file=sys.stderr)
        return 3
    except ConversionError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(result.report(verbose=args.verbose))
    return 0
