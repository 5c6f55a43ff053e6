"""``mx.gluon.model_zoo.vision``: the model zoo's networks and their torchvision counterparts,
weights copied by :mod:`sidebyside.transfer` (what ``python -m sidebyside.convert`` does with a
``.params`` file). No pretrained weights: the checks build the networks with random weights
(Xavier) and compare the outputs in inference mode."""

from ..model import ARGS, check, entry

_GOTCHAS = [
    "pretrained=True downloads MXNet's weights; torchvision's pretrained weights are other "
    "numbers: port the weights you trained with python -m sidebyside.convert (a .params "
    "file and both networks) or sidebyside.mx2torch (an exported -symbol.json + .params)",
    "the v1 ResNets are torchvision's resnets layer for layer (resnet18_v1: measured "
    "6e-17 in float64); resnet*_v2 (pre-activation), thumbnail=True (a 3×3 first "
    "convolution, no max-pool) and the other families have no torchvision twin",
    "Gluon's BatchNorm eps is 1e-5 like torchvision's; the zoo's momentum 0.9 is PyTorch's 0.1",
]


def _check(torch_call: str):
    return check("""
        from sidebyside.catalogue.harness_model_zoo import keep
        blk = keep(gluon.model_zoo.vision.get_model('resnet18_v1', classes=10), dtype)
        blk(x)
        blk(x)""", f"""
        import torchvision
        from sidebyside.catalogue.harness_model_zoo import copy_into
        m = copy_into({torch_call}, dtype)
        m(x)""", inputs="x=U(1, 3, 32, 32)", mode="predict",
        note="inference mode; gradients are not compared: MXNet's BatchNorm backward in "
             "predict mode uses the batch's statistics (deep dive autograd_predict_mode)")


ENTRIES = [
    entry("mx.gluon.model_zoo.vision.get_model",
          torch="torchvision.models.get_model(name, num_classes=classes)", status=ARGS,
          args="name → torchvision's name without the version suffix ('resnet18_v1' → "
               "'resnet18'); classes → num_classes; ctx → .to(device); pretrained → convert "
               "your weights (see the gotchas)",
          gotchas=_GOTCHAS,
          check=_check("torchvision.models.get_model('resnet18', num_classes=10)")),
    entry("mx.gluon.model_zoo.vision.get_model", form="name='resnet18_v1'",
          when=["name='resnet18_v1'"], signature=("name",),
          torch="torchvision.models.resnet18(num_classes=classes)", status=ARGS,
          args="classes → num_classes; the same layers in the same order",
          gotchas=_GOTCHAS[:1],
          check=_check("torchvision.models.resnet18(num_classes=10)")),
]
