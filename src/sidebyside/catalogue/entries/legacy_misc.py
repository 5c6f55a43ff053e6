"""Legacy MXNet runtime helpers: contexts and the global random seed."""

from ..model import RENAMED, check, entry

ENTRIES = [
    entry("mx.cpu", torch="torch.device('cpu')", status=RENAMED,
          args="device_id → index (ignored for the CPU)",
          gotchas=["`with mx.cpu():` (a default-context scope) → `with torch.device('cpu'):` "
                   "(torch.device is a context manager too), or torch.set_default_device"],
          check=check("mx.cpu().device_type", "torch.device('cpu').type", kind="exact")),
    entry("mx.gpu", torch="torch.device('cuda', device_id)", status=RENAMED,
          args="device_id → index; device type 'gpu' → 'cuda'",
          gotchas=["mx.gpu(i).device_type is 'gpu', torch.device('cuda', i).type is 'cuda'"],
          check=check("mx.gpu(1).device_id", "torch.device('cuda', 1).index", kind="exact")),
    entry("mx.context.num_gpus", torch="torch.cuda.device_count()", status=RENAMED,
          check=check("mx.context.num_gpus()", "torch.cuda.device_count()", kind="exact")),
    entry("mx.current_context", torch="torch.get_default_device()", status=RENAMED,
          gotchas=["MXNet's default context is set by `with mx.gpu(0):`; PyTorch's by "
                   "torch.set_default_device (or `with torch.device(...)`)"],
          check=check("mx.current_context().device_type", "torch.get_default_device().type",
                      kind="exact")),
    entry("mx.Context", torch="torch.device(device_type, device_id)", status=RENAMED,
          args="device_type → type ('gpu' → 'cuda'); device_id → index",
          check=check("mx.Context('cpu', 0).device_type", "torch.device('cpu', 0).type",
                      kind="exact")),
    entry("mx.random.seed", torch="torch.manual_seed(seed_state)", status=RENAMED,
          args="seed_state → seed; ctx='all' (the default) → torch.manual_seed, which seeds every device; ctx=mx.gpu(i) (one device) → torch.cuda.manual_seed on that device",
          gotchas=["The two frameworks' generators differ: the same seed gives different numbers "
                   "on each side, only each side's own sequence repeats"],
          check=check("mx.random.seed(3); a = nd.random.uniform(shape=(5,)); "
                      "mx.random.seed(3); b = nd.random.uniform(shape=(5,))\n"
                      "bool((a == b).asnumpy().all())",
                      "torch.manual_seed(3); a = torch.rand(5); torch.manual_seed(3); "
                      "b = torch.rand(5)\nbool(torch.equal(a, b))", kind="exact")),
]
