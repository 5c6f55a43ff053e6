"""The legacy Symbol API (``mx.sym``): variables, groups, binding, graph files, custom
operators and checkpoints. PyTorch has no separate graph language: a module's ``forward`` is
the graph. Saved symbol graphs are ported with :mod:`sidebyside.mx2torch` (no MXNet needed);
each check builds a tiny graph in MXNet, saves it, translates it with mx2torch and runs both."""
from textwrap import dedent

from ..model import COMPOSITE, RECIPE, RENAMED, check, entry

_H = "from sidebyside.catalogue.harness_symbol import "
_FC = (f"{_H}mx_graph\n"
       "d = sym.Variable('data')\n"
       "fc = sym.FullyConnected(d, num_hidden=4, name='fc')\n")
_FC_INPUTS = "x=U(2, 3); w=U(4, 3); b=U(4)"
_MX_PARAMS = "{'fc_weight': w, 'fc_bias': b}"

_VARIABLE = '''
class Model(nn.Module):
    def __init__(self, weight):
        super().__init__()
        self.weight = nn.Parameter(torch.as_tensor(weight))   # a parameter Variable

    def forward(self, data):                                  # a data Variable
        return F.linear(data, self.weight)
'''
_RECOMPUTE = '''
class Recompute(torch.autograd.Function):     # what mirror_stage='True' asks for
    @staticmethod
    def forward(ctx, fn, x):
        ctx.fn = fn
        ctx.save_for_backward(x)              # keep the input only
        with torch.no_grad():
            return fn(x)

    @staticmethod
    def backward(ctx, grad_out):              # run fn again, then differentiate it
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_(True)
            out = ctx.fn(x)
        return None, torch.autograd.grad(out, x, grad_out)[0]

y = Recompute.apply(lambda v: torch.relu(v * 2), x)
'''
_GROUP = '''
def forward(self, data):
    fc = self.fc(data)
    return fc, torch.relu(fc)        # mx.sym.Group([fc, relu]): a tuple of outputs
'''
_CUSTOM = '''
class Cube(torch.autograd.Function):          # CustomOp + CustomOpProp + register
    @staticmethod
    def forward(ctx, x):                      # CustomOp.forward; assign → return
        ctx.save_for_backward(x)              # in_data for backward
        return x * x * x

    @staticmethod
    def backward(ctx, grad_out):              # CustomOp.backward; out_grad → grad_out
        (x,) = ctx.saved_tensors
        return 3 * x * x * grad_out           # in_grad[0]

y = Cube.apply(x)                             # mx.nd.Custom(x, op_type='cube')
'''
_CUSTOM_MX = f"""
    {_H}register_mx_cube
    nd.Custom(x, op_type=register_mx_cube())"""
_CUSTOM_TORCH = f"""
    {_H}torch_cube
    torch_cube().apply(x)"""
_CUSTOM_NOTE = ("not converted: sidebyside.mx2torch refuses the Custom operator "
                "(UnsupportedOperator): the op's Python code is not in the -symbol.json, only "
                "its op_type; write it as a torch.autograd.Function")
_CUSTOM_GOTCHAS = [
    "MXNet runs a CustomOp's Python forward/backward on NDArrays through a callback (all "
    "in_data/out_data lists, req strings); torch.autograd.Function gets tensors and returns "
    "the outputs and the input gradients",
    "CustomOpProp's list_arguments/infer_shape/infer_type have no PyTorch counterpart: the "
    "Function's forward makes outputs of whatever shape and dtype it computes",
]

ENTRIES = [
    # --------------------------------------------------------------------- graph building
    entry("mx.sym.Variable", aliases=["mx.sym.var"],
          torch="nn.Parameter(torch.as_tensor(value))  # a data Variable: a forward() argument",
          status=RECIPE, recipe=_VARIABLE,
          args="a data Variable (data, label) → an argument of forward(); a weight Variable "
               "(fc_weight, arg_params) → nn.Parameter in __init__; an auxiliary state "
               "(moving_mean) → register_buffer; shape=/dtype=/init=/lr_mult= → the tensor "
               "you create and the optimizer's parameter groups",
          gotchas=["A symbol graph names its inputs; a module's forward takes them by position "
                   "(mx2torch keeps MXNet's order in Translation.inputs)",
                   "Operators create their own weight Variables named <node>_weight / "
                   "<node>_bias (list_arguments: ['data', 'fc_weight', 'fc_bias'])"],
          mx2torch="converted: a Variable found in the .params file becomes a parameter (or a "
                   "buffer for aux: entries) of the translated module; any other Variable an "
                   "argument of its forward(), in Translation.inputs",
          check=check(_FC + dedent(f"""
              o = mx_graph(fc, {{'data': x}}, {_MX_PARAMS}, 'variable')[0]
              (o, o)"""), f"""
              {_H}torch_graph
              weight = nn.Parameter(torch.as_tensor(w))
              (F.linear(x, weight, b), torch_graph('variable', x)[0])""",
              inputs=_FC_INPUTS)),
    entry("mx.sym.Group", torch="tuple(outputs)  # forward returns a tuple", status=RECIPE,
          recipe=_GROUP,
          args="symbols=[a, b] → return a, b from forward; list_outputs() order → tuple order",
          gotchas=["Group outputs are named <node>_output (fc_output, relu_output); a tuple's "
                   "items have positions only"],
          mx2torch="converted: each head of the Group becomes one item of the forward's "
                   "returned tuple, in order (Translation.outputs lists them)",
          check=check(_FC + dedent(f"""
              g = sym.Group([fc, sym.relu(fc, name='relu')])
              o = mx_graph(g, {{'data': x}}, {_MX_PARAMS}, 'group')
              (o[0], o[1], o[0], o[1])"""), f"""
              {_H}torch_graph
              fc = F.linear(x, w, b)
              outs = tuple([fc, torch.relu(fc)])
              (*outs, *torch_graph('group', x))""", inputs=_FC_INPUTS)),
    entry("mx.sym.Symbol", torch="torch.fx.symbolic_trace(fn)", status=COMPOSITE,
          args="a Symbol (a graph of operators on named Variables) → a torch.fx.GraphModule "
               "traced from a Python function or module; sym.eval(x=...) → gm(x)",
          gotchas=["PyTorch runs code eagerly: a graph object is only needed for export or "
                   "transformation (torch.fx, torch.export); arithmetic on Symbols builds "
                   "a graph, arithmetic on tensors computes"],
          mx2torch="converted: a saved Symbol (-symbol.json) becomes an nn.Module with a "
                   "generated forward (Translation.source shows it)",
          check=check("""
              s = 2 * sym.var('x') + 1
              assert isinstance(s, mx.sym.Symbol)
              s.eval(ctx=mx.cpu(), x=x)[0]""", """
              gm = torch.fx.symbolic_trace(lambda v: 2 * v + 1)
              gm(x)""", inputs="x=U(2, 3)")),
    # ------------------------------------------------------------------------- operators
    entry("mx.nd.BlockGrad", torch="data.detach()", status=RENAMED,
          args="data → the tensor itself (a method)",
          gotchas=["stop_gradient is the same operator; the result shares memory with its "
                   "input in PyTorch (detach) — in-place edits show on both"],
          mx2torch="converted: BlockGrad and stop_gradient become .detach()",
          check=check("nd.BlockGrad(x) * x + y", "x.detach() * x + y",
                      inputs="x=U(2, 3); y=U(2, 3)", grad="x, y")),
    entry("mx.nd.Crop", torch="data[:, :, y0:y0 + h, x0:x0 + w]", status=COMPOSITE,
          args="h_w=(h, w) → the slice lengths; offset=(y0, x0) → the slice starts",
          gotchas=["Crop is deprecated in MXNet (use slice); it works on NCHW's last two "
                   "axes only",
                   "Crop rejects float64 ('Unsupported data type 1'): float32 only"],
          note="float32 only: MXNet's Crop refuses float64",
          mx2torch="not converted: Crop is not in sidebyside.mx2torch's operator table "
                   "(UnsupportedOperator); slice/crop are",
          check=check("nd.Crop(x, h_w=(2, 3), offset=(1, 2))", "x[:, :, 1:1 + 2, 2:2 + 3]",
                      inputs="x=U(1, 2, 5, 7)", grad="x", dtypes=("float32",))),
    entry("mx.nd.Crop", form="crop_like", when=["num_args=2"],
          torch="data[:, :, y0:y0 + like.shape[2], x0:x0 + like.shape[3]]",
          status=COMPOSITE,
          args="the second input (crop_like) → its height and width as slice lengths; "
               "offset=(y0, x0) → the slice starts",
          gotchas=["Crop rejects float64 ('Unsupported data type 1'): float32 only",
                   "mx.nd.Crop(a, b) counts its inputs itself; mx.sym.Crop needs num_args=2"],
          note="float32 only: MXNet's Crop refuses float64",
          check=check("nd.Crop(x, like, num_args=2, offset=(1, 1))",
                      "x[:, :, 1:1 + like.shape[2], 1:1 + like.shape[3]]",
                      inputs="x=U(1, 2, 5, 7); like=U(1, 1, 2, 3)", grad="x",
                      dtypes=("float32",))),
    entry("mx.nd.Crop", form="center_crop", when=["center_crop=True"],
          torch="data[:, :, (H - h) // 2:(H - h) // 2 + h, (W - w) // 2:(W - w) // 2 + w]",
          status=COMPOSITE,
          args="h_w=(h, w) → slice lengths; the offset is ((H - h) // 2, (W - w) // 2), "
               "rounded down (torchvision.transforms.functional.center_crop rounds the "
               "other way: round((H - h) / 2))",
          gotchas=["Crop rejects float64: float32 only",
                   "measured: 5×7 cropped to 2×2 starts at (1, 2) = floor((5-2)/2), "
                   "floor((7-2)/2)"],
          note="float32 only: MXNet's Crop refuses float64",
          check=check("nd.Crop(x, h_w=(2, 2), center_crop=True)", """
              H, W, h, w = 5, 7, 2, 2
              x[:, :, (H - h) // 2:(H - h) // 2 + h, (W - w) // 2:(W - w) // 2 + w]""",
                      inputs="x=U(1, 2, 5, 7)", grad="x", dtypes=("float32",))),
    # -------------------------------------------------------------------- custom operators
    entry("mx.nd.Custom", torch="Function.apply(*inputs)  # a torch.autograd.Function",
          status=RECIPE, recipe=_CUSTOM,
          args="op_type='name' (registered with mx.operator.register) → the Function "
               "subclass itself; other keyword arguments → arguments of apply",
          gotchas=_CUSTOM_GOTCHAS, mx2torch=_CUSTOM_NOTE,
          check=check(_CUSTOM_MX, _CUSTOM_TORCH, inputs="x=U(2, 3)", grad="x")),
    entry("mx.operator.CustomOp", torch="torch.autograd.Function", status=RECIPE,
          recipe=_CUSTOM,
          args="forward(is_train, req, in_data, out_data, aux) → @staticmethod forward(ctx, "
               "*inputs) returning outputs; backward(req, out_grad, in_data, out_data, "
               "in_grad, aux) → @staticmethod backward(ctx, *grad_outputs) returning input "
               "gradients; in_data needed in backward → ctx.save_for_backward",
          gotchas=_CUSTOM_GOTCHAS, mx2torch=_CUSTOM_NOTE,
          check=check(_CUSTOM_MX, f"""
              {_H}torch_cube
              assert issubclass(torch_cube(), torch.autograd.Function)
              torch_cube().apply(x)""", inputs="x=U(2, 3)", grad="x")),
    entry("mx.operator.CustomOpProp", torch="torch.autograd.Function", status=RECIPE,
          recipe=_CUSTOM,
          args="list_arguments/list_outputs → forward's parameters and returned values; "
               "infer_shape/infer_type → nothing (computed); need_top_grad=False → backward "
               "ignores grad_out; create_operator → nothing (the Function is the operator)",
          gotchas=_CUSTOM_GOTCHAS, mx2torch=_CUSTOM_NOTE,
          check=check(_CUSTOM_MX, f"""
              {_H}torch_cube
              assert issubclass(torch_cube(), torch.autograd.Function)
              torch_cube().apply(x)""", inputs="x=U(2, 3)", grad="x")),
    entry("mx.operator.register", torch="Function.apply  # a Python name, no registry",
          status=RECIPE, recipe=_CUSTOM,
          args="@mx.operator.register('cube') on the Prop → nothing; call Cube.apply(x) "
               "where MXNet calls mx.nd.Custom(x, op_type='cube') (torch.library.custom_op "
               "registers an op for torch.compile/export)",
          gotchas=["register is global per process: registering a second Prop under the same "
                   "op_type replaces the first"],
          mx2torch=_CUSTOM_NOTE,
          check=check(_CUSTOM_MX, _CUSTOM_TORCH, inputs="x=U(2, 3)", grad="x")),
    entry("mx.operator.CustomOp.assign", torch="return value  # from forward / backward",
          status=RECIPE, recipe=_CUSTOM,
          args="self.assign(out_data[0], req[0], v) → return v from forward; "
               "self.assign(in_grad[0], req[0], g) → return g from backward; req 'add' "
               "(gradient accumulation) → done by autograd; req 'null' → return None",
          gotchas=["assign honours req ('write', 'inplace', 'add', 'null'); a Function never "
                   "writes into buffers it was given, autograd accumulates .grad itself"],
          mx2torch=_CUSTOM_NOTE,
          check=check(_CUSTOM_MX, _CUSTOM_TORCH, inputs="x=U(2, 3)", grad="x")),
    entry("mx.operator.NumpyOp", torch="torch.autograd.Function", status=RECIPE,
          recipe=_CUSTOM,
          args="forward(in_data, out_data) writing out_data[0][:] → forward(ctx, x) "
               "returning the output; backward(out_grad, in_data, out_data, in_grad) "
               "writing in_grad[0][:] → backward(ctx, grad_out) returning it; "
               "op(data=sym) → Cube.apply(x)",
          gotchas=["NumpyOp is deprecated (it warns; CustomOp replaced it): it computes on "
                   "numpy copies of the arrays, float32 only (float64: MXNetError "
                   "'Unsupported data type 1', measured)"],
          note="float32 only: NumpyOp's numpy buffers are float32",
          mx2torch=_CUSTOM_NOTE,
          check=check(f"""
              {_H}mx_numpy_cube
              s = mx_numpy_cube()(data=sym.var('data'), name='cube')
              ex = s.bind(mx.cpu(), {{'data': x}}, args_grad={{'data': nd.zeros_like(x)}})
              out = ex.forward(is_train=True)[0]
              ex.backward(nd.ones_like(out))
              (out, ex.grad_dict['data'])""", f"""
              {_H}torch_cube
              assert issubclass(torch_cube(), torch.autograd.Function)
              data = x.clone().requires_grad_(True)
              out = torch_cube().apply(data)
              out.backward(torch.ones_like(out))
              (out.detach(), data.grad)""", inputs="x=U(2, 3)", dtypes=("float32",))),
    # ------------------------------------------------------------- running a graph
    entry("mx.sym.Symbol.bind", torch="module(data)  # calling the module is the executor",
          status=COMPOSITE,
          args="args={'data': x, 'fc_weight': w, ...} → forward's arguments + the module's "
               "state_dict; args_grad/grad_req='write' → requires_grad; ex.forward(is_train) "
               "→ module.train()/eval() then module(x); ex.backward(g) → out.backward(g); "
               "ex.grad_dict['data'] → x.grad",
          gotchas=["bind allocates nothing for the gradients unless args_grad is given; "
                   "PyTorch's autograd records whatever requires_grad"],
          mx2torch="converted: sidebyside.mx2torch.translate(symbol_file, params_file) gives "
                   "the bound graph as an nn.Module (eval mode) whose forward takes the data "
                   "Variables in Translation.inputs order",
          check=check(_FC + dedent(f"""
              {_H}save_pair
              save_pair(fc, {_MX_PARAMS}, 'bind')
              gx = nd.zeros_like(x)
              ex = fc.bind(mx.cpu(), {{'data': x, 'fc_weight': w, 'fc_bias': b}},
                           args_grad={{'data': gx}})
              out = ex.forward(is_train=True)[0]
              ex.backward(nd.ones_like(out))
              (out, ex.grad_dict['data'])"""), f"""
              {_H}translation
              module = translation('bind').module
              data = x.clone().requires_grad_(True)
              out = module(data)
              out.backward(torch.ones_like(out))
              (out.detach(), data.grad)""", inputs=_FC_INPUTS)),
    entry("mx.sym.Symbol.simple_bind",
          torch="module(data)  # shapes come from the tensors", status=COMPOSITE,
          args="ctx → .to(device); data=(2, 3) (shapes) → nothing (a module takes any batch "
               "size); type_dict → .to(dtype); grad_req → requires_grad; ex.arg_dict[name][:] "
               "= value → module.state_dict()[key].copy_(value) (mx2torch fills them from "
               ".params)",
          gotchas=["simple_bind allocates float32 arrays unless type_dict says otherwise",
                   "an executor is fixed to its shapes (reshape() for new ones); a module is "
                   "not"],
          mx2torch="converted: translate() needs no shapes (input_shapes= only when an "
                   "operator needs an input's rank)",
          check=check(_FC + dedent(f"""
              {_H}save_pair
              save_pair(fc, {_MX_PARAMS}, 'simple_bind')
              ex = fc.simple_bind(mx.cpu(), grad_req='null', type_dict={{'data': dtype}},
                                  data=(2, 3))
              ex.arg_dict['fc_weight'][:] = w
              ex.arg_dict['fc_bias'][:] = b
              ex.forward(is_train=False, data=x)[0]"""), f"""
              {_H}translation
              module = translation('simple_bind').module
              module(x).detach()""", inputs=_FC_INPUTS)),
    # ------------------------------------------------------------- inspecting a graph
    entry("mx.sym.Symbol.list_arguments",
          torch="[name for name, _ in module.named_parameters()]  # + forward's arguments",
          status=COMPOSITE,
          args="data Variables → inspect.signature(module.forward).parameters (mx2torch: "
               "Translation.inputs); weights → module.named_parameters() names (mx2torch: "
               "Translation.mx_names maps them back to MXNet's)",
          gotchas=["list_arguments mixes data inputs and weights in graph order "
                   "(['data', 'fc_weight', 'fc_bias']); PyTorch keeps them apart and names "
                   "weights by attribute path ('fc.weight')"],
          mx2torch="converted: Translation.inputs lists the data Variables, Translation."
                   "mx_names maps each state_dict key to its MXNet argument",
          check=check(_FC + dedent(f"""
              mx_graph(fc, {{'data': x}}, {_MX_PARAMS}, 'list_arguments')
              fc.list_arguments()"""), f"""
              {_H}translation
              t = translation('list_arguments')
              t.inputs + [t.mx_names[name] for name, _ in t.module.named_parameters()]""",
              inputs=_FC_INPUTS, kind="exact")),
    entry("mx.sym.Symbol.list_outputs",
          torch="mx2torch.translation(symbol_file, params_file).outputs",
          status=COMPOSITE,
          args="a module's outputs are unnamed (a tuple); Translation.outputs gives the "
               "MXNet node of each item, without the '_output' suffix",
          gotchas=["MXNet names an output <node>_output (<node>_output0, 1, ... for several)"],
          mx2torch="converted: Translation.outputs lists the graph's heads ('node' or "
                   "'node[i]') in the order forward returns them",
          check=check(_FC + dedent(f"""
              g = sym.Group([fc, sym.relu(fc, name='relu')])
              mx_graph(g, {{'data': x}}, {_MX_PARAMS}, 'list_outputs')
              g.list_outputs()"""), f"""
              {_H}prefix
              from sidebyside import mx2torch
              p = prefix('list_outputs')
              arrays = mx2torch.load_params(p + '-0000.params')
              [o + '_output' for o in mx2torch.translation(p + '-symbol.json', arrays).outputs]""",
              inputs=_FC_INPUTS, kind="exact")),
    entry("mx.sym.Symbol.infer_shape",
          torch="tuple(module(torch.zeros(shape)).shape)  # or on the 'meta' device",
          status=COMPOSITE,
          args="infer_shape(data=(2, 3)) → (argument shapes, output shapes, aux shapes); "
               "PyTorch: run the module on zeros of that shape (or meta tensors) and read "
               ".shape; parameter shapes from module.parameters()",
          gotchas=["infer_shape returns three lists of tuples; a dimension it cannot infer "
                   "is 0 (None in np_shape mode)"],
          mx2torch="converted: the translated module's parameters have the .params shapes; "
                   "output shapes come from running it",
          check=check(_FC + dedent(f"""
              mx_graph(fc, {{'data': x}}, {_MX_PARAMS}, 'infer_shape')
              args, outs, aux = fc.infer_shape(data=(2, 3))
              (args, outs)"""), f"""
              {_H}translation
              module = translation('infer_shape').module
              args = [(2, 3)] + [tuple(p.shape) for p in module.parameters()]
              (args, [tuple(module(torch.zeros((2, 3), dtype=dtype)).shape)])""",
              inputs=_FC_INPUTS, kind="exact")),
    entry("mx.sym.Symbol.get_internals",
          torch="module.fc.register_forward_hook(hook)  # or torchvision's "
                "create_feature_extractor", status=COMPOSITE,
          args="internals['fc_output'] → the output of submodule fc: a forward hook, or "
               "torchvision.models.feature_extraction.create_feature_extractor(module, "
               "return_nodes=[...]); mx2torch.tapped(t, symbol, params) returns every "
               "node's output by MXNet name",
          gotchas=["get_internals lists every node's outputs, Variables included "
                   "(['data', 'fc_weight', 'fc_bias', 'fc_output', 'relu_output'])",
                   "a translated forward does a ReLU in place on a layer output nothing else "
                   "reads, as torchvision's models do: a hook that keeps the output must "
                   "clone it (o.detach() alone shows the ReLU's result)"],
          mx2torch="converted: sidebyside.mx2torch.tapped(translation, symbol, params) "
                   "builds a module whose forward returns (outputs, {MXNet node: output})",
          check=check(_FC + dedent(f"""
              r = sym.relu(fc, name='relu')
              mx_graph(r, {{'data': x}}, {_MX_PARAMS}, 'internals')
              inner = r.get_internals()['fc_output']
              inner.bind(mx.cpu(), {{'data': x, 'fc_weight': w, 'fc_bias': b}}).forward()[0]"""),
              f"""
              {_H}translation
              module = translation('internals').module
              seen = []
              h = module.fc.register_forward_hook(lambda m, i, o: seen.append(o.clone()))
              module(x)
              h.remove()
              seen[0]""", inputs=_FC_INPUTS)),
    # ------------------------------------------------------------- graph files
    entry("mx.sym.Symbol.tojson", torch="mx2torch.read_symbol(json_text)", status=COMPOSITE,
          args="tojson() text → read by sidebyside.mx2torch.read_symbol (nodes, heads, "
               "attributes) without MXNet; a PyTorch graph is saved with torch.export.save "
               "(or torch.jit.save)",
          gotchas=["1.x graph files keep operator parameters as strings under 'attrs' "
                   "(\"num_hidden\": \"4\")"],
          mx2torch="converted: read_symbol parses the JSON (text, dict or path) into nodes "
                   "and heads; translate() accepts the text directly",
          check=check("""
              import json
              s = sym.relu(sym.FullyConnected(sym.var('data'), num_hidden=4, name='fc'))
              text = s.tojson()
              from sidebyside.catalogue.harness_symbol import prefix
              open(prefix('tojson') + '.json', 'w').write(text)
              [n['op'] for n in json.loads(text)['nodes']]""", f"""
              {_H}prefix
              from sidebyside import mx2torch
              json_text = open(prefix('tojson') + '.json').read()
              [n.op for n in mx2torch.read_symbol(json_text).nodes]""", kind="exact")),
    entry("mx.sym.load", torch="mx2torch.translate(symbol_file, params_file)",
          status=COMPOSITE,
          args="fname (-symbol.json) → symbol_file; the weights come from the .params file "
               "(they are not in the graph)",
          mx2torch="converted: translate(symbol_file, params_file) reads the graph and its "
                   "weights without MXNet and returns an nn.Module in eval mode",
          check=check(_FC + dedent(f"""
              mx_graph(fc, {{'data': x}}, {_MX_PARAMS}, 'load')
              {_H}prefix
              s = sym.load(prefix('load') + '-symbol.json')
              s.bind(mx.cpu(), {{'data': x, 'fc_weight': w, 'fc_bias': b}}).forward()[0]"""),
              f"""
              {_H}prefix
              from sidebyside import mx2torch
              p = prefix('load')
              mx2torch.translate(p + '-symbol.json', p + '-0000.params')(x).detach()""",
              inputs=_FC_INPUTS)),
    entry("mx.sym.load_json", torch="mx2torch.translate(json_text, params)",
          status=COMPOSITE,
          args="json_str → the same text (translate takes text, a dict or a path); params: "
               "a .params path or a dict of arrays",
          mx2torch="converted: translate() accepts the JSON text itself",
          check=check(_FC + dedent(f"""
              mx_graph(fc, {{'data': x}}, {_MX_PARAMS}, 'load_json')
              s = sym.load_json(fc.tojson())
              s.bind(mx.cpu(), {{'data': x, 'fc_weight': w, 'fc_bias': b}}).forward()[0]"""),
              f"""
              {_H}prefix
              from sidebyside import mx2torch
              p = prefix('load_json')
              json_text = open(p + '-symbol.json').read()
              mx2torch.translate(json_text, p + '-0000.params')(x).detach()""",
              inputs=_FC_INPUTS)),
    entry("mx.model.load_checkpoint",
          torch="mx2torch.translate(prefix + '-symbol.json', prefix + '-%04d.params' % epoch)",
          status=COMPOSITE,
          args="(prefix, epoch) → the two file names; the returned (symbol, arg_params, "
               "aux_params) → one nn.Module; the arrays alone: "
               "sidebyside.mx2torch.load_params(path) ({'arg:fc_weight': numpy array, ...})",
          gotchas=["the .params file of a checkpoint prefixes names with 'arg:' / 'aux:'; "
                   "load_checkpoint strips them into two dicts"],
          mx2torch="converted: translate() reads the checkpoint pair (arg: entries become "
                   "parameters, aux: entries buffers) without MXNet",
          check=check(_FC + dedent(f"""
              {_H}prefix
              mx.model.save_checkpoint(prefix('ckpt'), 0, fc, {_MX_PARAMS}, {{}})
              s, arg_params, aux_params = mx.model.load_checkpoint(prefix('ckpt'), 0)
              out = s.bind(mx.cpu(), {{'data': x, **arg_params}}).forward()[0]
              (out, arg_params['fc_weight'])"""), f"""
              {_H}prefix
              from sidebyside import mx2torch
              p, epoch = prefix('ckpt'), 0
              m = mx2torch.translate(p + '-symbol.json', p + '-%04d.params' % epoch)
              arrays = mx2torch.load_params(p + '-%04d.params' % epoch)
              (m(x).detach(), arrays['arg:fc_weight'])""", inputs=_FC_INPUTS)),
    entry("mx.model.save_checkpoint", torch="torch.save(module.state_dict(), path)",
          status=COMPOSITE,
          args="(prefix, epoch, symbol, arg_params, aux_params) → torch.save(state_dict, "
               "path); the graph has no file of its own: keep the module's code (or "
               "torch.export.save); remove_amp_cast → nothing",
          gotchas=["save_checkpoint writes two files: <prefix>-symbol.json and "
                   "<prefix>-<epoch:04d>.params (names prefixed 'arg:'/'aux:')"],
          mx2torch="converted: the pair it writes is what translate() reads; "
                   "Translation.save(state_path, code_path) writes torch.save's state dict "
                   "and the generated model.py",
          check=check(_FC + dedent(f"""
              {_H}prefix
              mx.model.save_checkpoint(prefix('save_ckpt'), 3, fc, {_MX_PARAMS}, {{}})
              saved = nd.load(prefix('save_ckpt') + '-0003.params')
              (saved['arg:fc_weight'], saved['arg:fc_bias'])"""), f"""
              {_H}prefix
              module = nn.Linear(3, 4).to(dtype)
              with torch.no_grad():
                  module.weight.copy_(w)
                  module.bias.copy_(b)
              path = prefix('save_ckpt') + '.pt'
              torch.save(module.state_dict(), path)
              state = torch.load(path)
              (state['weight'], state['bias'])""", inputs=_FC_INPUTS)),
    # ------------------------------------------------------------- attributes, backends
    entry("mx.sym.Symbol._set_attr",
          torch="Recompute.apply(fn, x)  # for mirror_stage; torch.utils.checkpoint.checkpoint",
          status=RECIPE, recipe=_RECOMPUTE,
          args="_set_attr(mirror_stage='True') (recompute this node in backward to save "
               "memory) → run that part of forward through a recompute Function (or "
               "torch.utils.checkpoint.checkpoint(fn, x, use_reentrant=False)); other "
               "attributes (ctx_group, lr_mult) → device placement, optimizer parameter "
               "groups",
          gotchas=["_set_attr is private and stores strings: mirror_stage='True' appears "
                   "as both 'mirror_stage' and '__mirror_stage__' in list_attr(); values "
                   "do not change (checked: same outputs and gradients)",
                   "torch.utils.checkpoint's first call imports torch._dynamo: 2–5 s "
                   "measured here, then about 1 ms"],
          mx2torch="ignored: __dunder__ user attributes are read (Node.user_attrs) but do "
                   "not change the translation",
          check=check("""
              s = sym.relu(sym.var('x') * 2)
              s._set_attr(mirror_stage='True')
              ex = s.bind(mx.cpu(), {'x': x}, args_grad={'x': nd.zeros_like(x)})
              out = ex.forward(is_train=True)[0]
              ex.backward(nd.ones_like(out))
              (out, ex.grad_dict['x'])""", f"""
              {_H}recompute
              Recompute = recompute()
              data = x.clone().requires_grad_(True)
              out = Recompute.apply(lambda v: torch.relu(v * 2), data)
              out.backward(torch.ones_like(out))
              (out.detach(), data.grad)""", inputs="x=U(2, 3)")),
    entry("mx.sym.Symbol.optimize_for",
          torch="torch.jit.optimize_for_inference(torch.jit.script(module))",
          status=COMPOSITE,
          args="backend='MKLDNN' (oneDNN subgraph fusion) → torch.jit.optimize_for_inference "
               "(also oneDNN) or torch.compile(module); args/aux (weights) → the module's "
               "own; the result computes the same values",
          gotchas=["optimize_for('MKLDNN') replaces FullyConnected by a "
                   "_sg_mkldnn_fully_connected subgraph node (measured on a fc+relu graph)",
                   "the fused MKLDNN FullyConnected refuses float64 (MXNetError at "
                   "forward): float32 only",
                   "torch.jit.script needs the module's Python source: it fails on a "
                   "module whose class was built by exec (OSError), as mx2torch's is; "
                   "write Translation.source to a file and import it first",
                   "torch 2.14 warns that torch.jit.script / optimize_for_inference are "
                   "deprecated (FutureWarning); torch.compile(module) is the successor but "
                   "compiles for seconds"],
          mx2torch="not converted: the fused _sg_mkldnn_* subgraph operators are not in "
                   "sidebyside.mx2torch's table (UnsupportedOperator); translate the graph "
                   "saved before optimize_for",
          check=check(_FC + dedent(f"""
              r = sym.relu(fc, name='relu')
              mx_graph(r, {{'data': x}}, {_MX_PARAMS}, 'optimize_for')
              o = r.optimize_for('MKLDNN')
              o.bind(mx.cpu(), {{'data': x, 'fc_weight': w, 'fc_bias': b}}).forward()[0]"""),
              """
              module = nn.Sequential(nn.Linear(3, 4), nn.ReLU()).to(dtype).eval()
              with torch.no_grad():
                  module[0].weight.copy_(w)
                  module[0].bias.copy_(b)
              fast = torch.jit.optimize_for_inference(torch.jit.script(module))
              fast(x).detach()""", inputs=_FC_INPUTS, mode="predict", dtypes=("float32",),
              note="float32 only: the fused MKLDNN FullyConnected refuses float64")),
    entry("mx.sym.Symbol.get_backend_symbol",
          torch="torch.jit.optimize_for_inference(torch.jit.script(module))",
          status=COMPOSITE,
          args="backend='MKLDNN' / 'MKLDNN_QUANTIZE' → torch.jit.optimize_for_inference "
               "(float) or torch.ao.quantization (quantized); the graph's weights stay "
               "the module's",
          gotchas=["get_backend_symbol('MKLDNN') gives the same fused graph as "
                   "optimize_for('MKLDNN') here (_sg_mkldnn_fully_connected)",
                   "torch 2.14 warns that torch.jit.script / optimize_for_inference are "
                   "deprecated (FutureWarning); torch.compile(module) is the successor but "
                   "compiles for seconds"],
          mx2torch="not converted: the _sg_mkldnn_* operators it creates are refused "
                   "(UnsupportedOperator); translate the graph before it",
          check=check(_FC + dedent(f"""
              r = sym.relu(fc, name='relu')
              mx_graph(r, {{'data': x}}, {_MX_PARAMS}, 'backend_symbol')
              o = r.get_backend_symbol('MKLDNN')
              o.bind(mx.cpu(), {{'data': x, 'fc_weight': w, 'fc_bias': b}}).forward()[0]"""),
              """
              module = nn.Sequential(nn.Linear(3, 4), nn.ReLU()).to(dtype).eval()
              with torch.no_grad():
                  module[0].weight.copy_(w)
                  module[0].bias.copy_(b)
              fast = torch.jit.optimize_for_inference(torch.jit.script(module))
              fast(x).detach()""", inputs=_FC_INPUTS, mode="predict", dtypes=("float32",),
              note="float32 only: the fused MKLDNN FullyConnected refuses float64")),
    # ------------------------------------------------------------- the old model API
    entry("mx.model.load_params", torch="mx2torch.load_params(path)", status=COMPOSITE,
          args="(prefix, epoch) → path = prefix + '-%04d.params' % epoch; the two dicts "
               "(arg_params, aux_params) → one dict whose keys keep the 'arg:'/'aux:' "
               "prefixes, numpy arrays (torch.from_numpy for tensors)",
          gotchas=["load_params returns NDArrays with the prefixes stripped; "
                   "mx2torch.load_params returns numpy arrays keyed as stored ('arg:fc_weight')"],
          mx2torch="converted: load_params reads the .params format in pure Python + numpy",
          check=check(_FC + dedent(f"""
              {_H}prefix
              mx.model.save_checkpoint(prefix('load_params'), 2, fc, {_MX_PARAMS}, {{}})
              arg_params, aux_params = mx.model.load_params(prefix('load_params'), 2)
              (arg_params['fc_weight'], arg_params['fc_bias'])"""), f"""
              {_H}prefix
              from sidebyside import mx2torch
              arrays = mx2torch.load_params(prefix('load_params') + '-%04d.params' % 2)
              (arrays['arg:fc_weight'], arrays['arg:fc_bias'])""", inputs=_FC_INPUTS)),
    entry("mx.model.FeedForward.load",
          torch="mx2torch.translate(prefix + '-symbol.json', prefix + '-%04d.params' % epoch)",
          status=COMPOSITE,
          args="(prefix, epoch) → the checkpoint's two files; ctx → .to(device); "
               "model.predict(X) → module(torch.as_tensor(X)) under torch.no_grad()",
          gotchas=["FeedForward.predict feeds float32: float64 X with float32 weights gives "
                   "float32 output; a float64 checkpoint fails in simple_bind (RuntimeError, "
                   "measured)",
                   "predict runs in batches of numpy_batch_size=128"],
          note="float32 only: FeedForward.predict casts its input to float32",
          mx2torch="converted: translate() reads the same checkpoint pair",
          check=check(_FC + dedent(f"""
              {_H}prefix
              mx.model.save_checkpoint(prefix('ff_load'), 0, fc, {_MX_PARAMS}, {{}})
              model = mx.model.FeedForward.load(prefix('ff_load'), 0)
              model.predict(x.asnumpy())"""), f"""
              {_H}prefix
              from sidebyside import mx2torch
              p, epoch = prefix('ff_load'), 0
              module = mx2torch.translate(p + '-symbol.json', p + '-%04d.params' % epoch)
              with torch.no_grad():
                  out = module(x)
              out""", inputs=_FC_INPUTS, dtypes=("float32",), mode="predict")),
    entry("mx.model.FeedForward", torch="module(x)  # an nn.Module + a training loop",
          status=COMPOSITE,
          args="symbol → the module (mx2torch.translate for a saved one); arg_params/"
               "aux_params → its state_dict; num_epoch/optimizer/initializer + fit(X, y) → "
               "a loop over a DataLoader with a torch.optim optimizer; predict(X) → "
               "module(X) under torch.no_grad()",
          gotchas=["FeedForward is MXNet's oldest training API (before Module and Gluon); "
                   "predict feeds float32 (a float64 checkpoint fails, measured)"],
          note="float32 only: FeedForward.predict casts its input to float32",
          mx2torch="converted: the symbol + arg_params it holds, once saved with "
                   "save_checkpoint, translate to an nn.Module",
          check=check(_FC + dedent(f"""
              {_H}save_pair
              save_pair(fc, {_MX_PARAMS}, 'feedforward')
              model = mx.model.FeedForward(fc, arg_params={_MX_PARAMS}, aux_params={{}})
              model.predict(x.asnumpy())"""), f"""
              {_H}translation
              module = translation('feedforward').module
              with torch.no_grad():
                  out = module(x)
              out""", inputs=_FC_INPUTS, dtypes=("float32",), mode="predict")),
    entry("mx.model.BatchEndParam",
          torch="BatchEndParam(epoch, nbatch, eval_metric, locals)  # a namedtuple of yours",
          status=RECIPE,
          recipe="""
              from collections import namedtuple
              BatchEndParam = namedtuple('BatchEndParam', ['epoch', 'nbatch', 'eval_metric',
                                                           'locals'])
              # or pass epoch / batch index / metric straight to your logging function""",
          args="the fields epoch, nbatch, eval_metric, locals → the same names; a batch-end "
               "callback (Speedometer) → a function your loop calls",
          gotchas=["BatchEndParam is a collections.namedtuple with fields "
                   "('epoch', 'nbatch', 'eval_metric', 'locals')"],
          check=check("""
              p = mx.model.BatchEndParam(epoch=1, nbatch=5, eval_metric=None, locals=None)
              (p._fields, p.epoch, p.nbatch)""", """
              from collections import namedtuple
              BatchEndParam = namedtuple('BatchEndParam', ['epoch', 'nbatch', 'eval_metric',
                                                           'locals'])
              p = BatchEndParam(1, 5, None, None)
              (p._fields, p.epoch, p.nbatch)""", kind="exact")),
]

ENTRIES += [
    entry("mx.mod.Module.load",
          torch="mx2torch.translate(prefix + '-symbol.json', prefix + '-%04d.params' % epoch)",
          status=COMPOSITE,
          args="(prefix, epoch) → the checkpoint's two files, translated to one nn.Module "
               "with its weights; load_optimizer_states → the optimizer's state_dict "
               "(sidebyside.mx2torch reads a .states file of Trainer.save_states, not "
               "Module's); data_names/label_names → the module's forward arguments",
          gotchas=["Module.load returns an unbound Module: bind() and init_params() follow in "
                   "MXNet, nothing in PyTorch (the module holds its weights)"],
          mx2torch="converted: the checkpoint pair Module.save_checkpoint wrote is what "
                   "translate() reads, without MXNet",
          check=check(_FC + dedent(f"""
              {_H}prefix
              mx.model.save_checkpoint(prefix('mod_load'), 2, fc, {_MX_PARAMS}, {{}})
              m = mx.mod.Module.load(prefix('mod_load'), 2, label_names=None)
              m.bind(data_shapes=[mx.io.DataDesc('data', x.shape, dtype=x.dtype)], for_training=False)
              m.forward(mx.io.DataBatch([x]), is_train=False)
              m.get_outputs()[0]"""), f"""
              {_H}prefix
              from sidebyside import mx2torch
              p, epoch = prefix('mod_load'), 2
              m = mx2torch.translate(p + '-symbol.json', p + '-%04d.params' % epoch)
              m(x).detach()""", inputs=_FC_INPUTS)),
]
