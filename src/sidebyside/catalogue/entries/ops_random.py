"""`mx.nd` random sampling: random_normal / random_uniform (the operators), nd.random.normal /
uniform / randn / randint / multinomial / shuffle / uniform_like / normal_like (the Python
functions), sample_normal, sample_multinomial, shuffle. Checks: two-sample tests on 20000 draws."""
from ..model import ARGS, COMPOSITE, check, entry

_N = 20000
_DT = ("the result is float32 unless dtype= is given, on both sides (torch's default dtype); "
       "the seed streams differ: mx.random.seed(s) and torch.manual_seed(s) give different "
       "numbers")
_NOSHAPE = ("without shape, nd.random.normal/uniform return shape (1,), not a 0-d tensor; "
            "the operator spellings (nd.random_normal) raise 'inferring shapes failed'")


def _multinomial(name, call, sig, aliases=()):
    """The three forms of a multinomial sampler (`call` is how the mx snippet spells it)."""
    int32 = ("samples are int32 (dtype='int32'); torch.multinomial gives int64")
    rows = ("each row of `data` is one distribution over the last axis (K classes); "
            "torch.multinomial draws without replacement unless replacement=True")
    return [
        entry(name, aliases=aliases,
              torch="torch.multinomial(data, 1, replacement=True).squeeze(-1)",
              status=COMPOSITE,
              args="data → input (probabilities, (N, K) or (K,)); one draw per row → "
                   "num_samples=1 then .squeeze(-1)",
              defaults="dtype int32 vs int64; replacement is implied in MXNet, False in torch",
              gotchas=[int32, rows,
                       "a 1-D data of K probabilities gives shape (1,), not a 0-d tensor"],
              check=check(f"""
                  {call}(p)""", """
                  torch.multinomial(p, 1, replacement=True).squeeze(-1)""",
                  inputs=f"p=PROBS({_N}, 4)", kind="random")),
        entry(name, aliases=aliases, form="shape", when=["shape", "!get_prob"], signature=sig,
              torch="torch.multinomial(data, shape, replacement=True)",
              status=ARGS,
              args="shape=n → num_samples=n, replacement=True (a tuple shape: "
                   "num_samples=prod(shape), then .reshape(*data.shape[:-1], *shape))",
              defaults="dtype int32 vs int64",
              gotchas=[int32, "(N, K) probabilities with shape=n give (N, n) on both sides"],
              check=check(f"""
                  {call}(p, shape={_N // 2})""", f"""
                  torch.multinomial(p, {_N // 2}, replacement=True)""",
                  inputs="p=PROBS(2, 4)", kind="random")),
        entry(name, aliases=aliases, form="get_prob", when=["get_prob=True"], signature=sig,
              torch="(s := torch.multinomial(data, shape, replacement=True), "
                    "torch.log(torch.gather(data, -1, s)))",
              status=COMPOSITE,
              args="get_prob=True → the log-probability of each draw, "
                   "torch.log(torch.gather(data, -1, samples))",
              gotchas=["the second output is log p of the drawn class, in data's dtype but "
                       "computed in float32: for p = 0.3 in float64 MXNet gives "
                       "-1.2039728164672852, the float64 log -1.2039728043259361",
                       "the log-probability's gradient reaches data (REINFORCE): "
                       "4 draws of class 1 from [0.1, 0.9] give the gradient "
                       "[0, 4/0.9 = 4.444] on both sides",
                       int32],
              check=check(f"""
                  s, logp = {call}(p, shape={_N // 2}, get_prob=True)
                  (s, nd.round(logp * 1e4))""", f"""
                  s = torch.multinomial(p, {_N // 2}, replacement=True)
                  (s, torch.round(torch.log(torch.gather(p, -1, s)) * 1e4))""",
                  inputs="p=PROBS(2, 4)", kind="random",
                  note="the log-probabilities are compared rounded to 1e-4: MXNet takes the "
                       "log in float32 also for float64 data, so the values are not "
                       "bitwise those of a float64 log")),
    ]


_SHUFFLE_MX = f"""
    a = nd.arange({_N}).reshape((-1, 1))
    s = {{call}}(nd.concat(a, a, dim=1))
    ((s[:-1, 0] < s[1:, 0]).astype('int32'), s[:, 0] - s[:, 1])"""
_SHUFFLE_TORCH = f"""
    a = torch.arange({_N}.).reshape(-1, 1)
    d = torch.cat((a, a), 1)
    s = d[torch.randperm(d.shape[0])]
    ((s[:-1, 0] < s[1:, 0]).int(), s[:, 0] - s[:, 1])"""


def _shuffle(name, call, aliases=()):
    return entry(name, aliases=aliases,
                 torch="data[torch.randperm(data.shape[0])]",
                 status=COMPOSITE,
                 args="data → the tensor indexed by a random permutation of its first axis",
                 gotchas=["only the first axis is permuted: rows stay intact (the check "
                          "shuffles rows [i, i] and finds every row still equal)",
                          "MXNet returns a new array and leaves data as it was"],
                 check=check(_SHUFFLE_MX.replace("{call}", call), _SHUFFLE_TORCH,
                             kind="random"))


ENTRIES = [
    # ---------------------------------------------------------------- the operators
    entry("mx.nd.random_normal",
          torch="torch.normal(loc, scale, size=shape)",
          status=ARGS,
          args="loc → mean; scale → std; shape → size; dtype → dtype; ctx → device",
          gotchas=[_DT, "shape is required: nd.random_normal(0, 1) raises 'inferring "
                   "shapes failed' (nd.random.normal(0, 1) gives shape (1,))"],
          check=check(f"""
              (nd.random_normal(1.0, 2.0, shape=({_N // 2},)),
               nd.random_normal(shape=(50, 200), dtype=dtype))""", f"""
              (torch.normal(1.0, 2.0, size=({_N // 2},)),
               torch.normal(0.0, 1.0, size=(50, 200), dtype=dtype))""", kind="random")),
    entry("mx.nd.random_uniform",
          torch="torch.empty(shape, dtype=torch.float32).uniform_(low, high)",
          status=COMPOSITE,
          args="low, high → uniform_(low, high) (defaults 0, 1: torch.rand(shape)); shape → "
               "size; dtype → dtype",
          gotchas=[_DT, "the draws lie in [low, high) on both sides"],
          check=check(f"""
              (nd.random_uniform(-1, 2, shape=({_N // 2},)),
               nd.random_uniform(shape=(50, 200), dtype=dtype))""", f"""
              (torch.empty(({_N // 2},), dtype=torch.float32).uniform_(-1, 2),
               torch.rand((50, 200), dtype=dtype))""", kind="random")),
    # ---------------------------------------------------- the Python functions
    entry("mx.nd.random.normal", aliases=["mx.random.normal"],
          torch="torch.normal(loc, scale, size=shape)",
          status=ARGS,
          args="loc → mean; scale → std; shape → size; dtype → dtype; ctx → device",
          gotchas=[_DT, _NOSHAPE,
                   "NDArray loc and scale sample one normal per element and append shape: "
                   "loc (2,) with shape=(3,) gives (2, 3), torch.normal(mean, std) keeps "
                   "mean's shape (see mx.nd.sample_normal)"],
          check=check(f"""
              (nd.random.normal(1.0, 2.0, shape=({_N // 2},)),
               nd.random.normal(shape=(50, 200), dtype=dtype))""", f"""
              (torch.normal(1.0, 2.0, size=({_N // 2},)),
               torch.normal(0.0, 1.0, size=(50, 200), dtype=dtype))""", kind="random")),
    entry("mx.nd.random.uniform", aliases=["mx.random.uniform"],
          torch="torch.empty(shape, dtype=torch.float32).uniform_(low, high)",
          status=COMPOSITE,
          args="low, high → uniform_(low, high) (defaults 0, 1: torch.rand(shape)); shape → "
               "size; dtype → dtype",
          gotchas=[_DT, _NOSHAPE,
                   "NDArray low and high sample per element and append shape: low (2,) "
                   "with shape=2 gives (2, 2)"],
          check=check(f"""
              (nd.random.uniform(-1, 2, shape=({_N // 2},)),
               nd.random.uniform(shape=(50, 200), dtype=dtype))""", f"""
              (torch.empty(({_N // 2},), dtype=torch.float32).uniform_(-1, 2),
               torch.rand((50, 200), dtype=dtype))""", kind="random")),
    entry("mx.nd.random.randn", aliases=["mx.random.randn"],
          torch="torch.randn(*shape) * scale + loc",
          status=ARGS,
          args="*shape → *size; loc, scale → * scale + loc (defaults 0, 1); dtype → dtype",
          gotchas=[_DT],
          check=check(f"""
              (nd.random.randn({_N // 2}),
               nd.random.randn(50, 200, loc=1, scale=2, dtype=dtype))""",
              f"""
              (torch.randn({_N // 2}), torch.randn(50, 200, dtype=dtype) * 2 + 1)""",
              kind="random")),
    entry("mx.nd.random.randint", aliases=["mx.random.randint"],
          torch="torch.randint(low, high, shape, dtype=torch.int32)",
          status=ARGS,
          args="low → low; high → high (excluded on both sides); shape → size; "
               "dtype → dtype",
          defaults="dtype int32 vs torch.randint's int64",
          gotchas=["nd.random.randint(0, 5, shape=3) is int32; torch.randint int64"],
          check=check(f"""
              nd.random.randint(-3, 7, shape=({_N // 2},))""", f"""
              torch.randint(-3, 7, ({_N // 2},), dtype=torch.int32)""", kind="random")),
    *_multinomial("mx.nd.random.multinomial", "nd.random.multinomial",
                  ("data", "shape", "get_prob", "out", "dtype"), ("mx.random.multinomial",)),
    *_multinomial("mx.nd.sample_multinomial", "nd.sample_multinomial",
                  ("data", "shape", "get_prob", "dtype")),
    _shuffle("mx.nd.random.shuffle", "nd.random.shuffle", ("mx.random.shuffle",)),
    _shuffle("mx.nd.shuffle", "nd.shuffle"),
    entry("mx.nd.random.uniform_like",
          torch="torch.empty_like(data).uniform_(low, high)",
          status=COMPOSITE,
          args="data → input (its shape and dtype); low, high → uniform_(low, high) "
               "(defaults 0, 1: torch.rand_like(data))",
          gotchas=["the result takes data's dtype (float64 stays float64) on both sides"],
          check=check("""
              (nd.random.uniform_like(x, low=-1, high=2), nd.random.uniform_like(x))""", """
              (torch.empty_like(x).uniform_(-1, 2), torch.rand_like(x))""",
              inputs=f"x=U({_N // 2})", kind="random")),
    entry("mx.nd.random.normal_like",
          torch="torch.empty_like(data).normal_(loc, scale)",
          status=COMPOSITE,
          args="data → input (its shape and dtype); loc, scale → normal_(mean, std) "
               "(defaults 0, 1: torch.randn_like(data))",
          gotchas=["the result takes data's dtype (float64 stays float64) on both sides"],
          check=check("""
              (nd.random.normal_like(x, loc=1, scale=2), nd.random.normal_like(x))""", """
              (torch.empty_like(x).normal_(1, 2), torch.randn_like(x))""",
              inputs=f"x=U({_N // 2})", kind="random")),
    entry("mx.nd.sample_normal",
          torch="torch.normal(mu, sigma).float()",
          status=ARGS,
          args="mu → mean; sigma → std (tensors of one shape: one draw per element)",
          defaults="dtype float32 whatever mu's dtype vs torch.normal's mean dtype",
          gotchas=["float64 mu and sigma still give float32 draws unless dtype='float64'"],
          check=check("""
              nd.sample_normal(m, s)""", """
              torch.normal(m, s).float()""",
              inputs=f"m=U({_N}, lo=-3, hi=3); s=P({_N})", kind="random")),
    entry("mx.nd.sample_normal", form="shape", when=["shape"],
          signature=("mu", "sigma", "shape", "dtype"),
          torch="mu[..., None] + sigma[..., None] * torch.randn(*mu.shape, *shape)",
          status=COMPOSITE,
          args="shape → extra trailing axes: each element of mu, sigma gets shape draws",
          gotchas=["mu (2,) with shape=(3,) gives (2, 3): torch.normal(mean, std) would keep "
                   "(2,)", "float64 mu and sigma still give float32 draws unless "
                   "dtype='float64'"],
          check=check(f"""
              nd.sample_normal(m, s, shape=({_N // 2},), dtype=dtype)""", f"""
              m[..., None] + s[..., None] * torch.randn(*m.shape, {_N // 2}, dtype=dtype)""",
              inputs="m=A([-2.0, 3.0]); s=A([0.5, 2.0])", kind="random")),
    entry("mx.nd.random.exponential", aliases=["mx.random.exponential"],
          torch="torch.empty(shape, dtype=torch.float32).exponential_(1 / scale)",
          status=COMPOSITE,
          args="scale (the mean, 1/λ) → exponential_(lambd=1 / scale) (the rate); "
               "shape → size; dtype → dtype",
          gotchas=["MXNet's parameter is the scale (mean), torch's the rate: "
                   "nd.random.exponential(2) has mean 2 (measured 2.008 on 20000 draws), "
                   "exponential_(2) mean 0.5", _DT],
          check=check(f"""
              nd.random.exponential(2.0, shape=({_N},))""", f"""
              torch.empty(({_N},), dtype=torch.float32).exponential_(1 / 2.0)""",
              kind="random")),
    entry("mx.nd.random.gamma", aliases=["mx.random.gamma"],
          torch="torch.distributions.Gamma(alpha, 1 / beta).sample(shape)",
          status=COMPOSITE,
          args="alpha → concentration; beta (a scale) → rate = 1 / beta; shape → "
               "sample_shape",
          gotchas=["beta is a scale in MXNet, torch.distributions.Gamma takes a rate: "
                   "gamma(2, 3) has mean 6 (measured 6.03), Gamma(2, 3) mean 2/3",
                   "the sample's dtype follows the distribution's parameters: pass "
                   "torch.tensor(alpha, dtype=torch.float32) for MXNet's float32"],
          check=check(f"""
              nd.random.gamma(2.0, 3.0, shape=({_N},))""", f"""
              torch.distributions.Gamma(torch.tensor(2.0), torch.tensor(1 / 3.0))\
                  .sample(({_N},))""", kind="random")),
    entry("mx.nd.random.poisson", aliases=["mx.random.poisson"],
          torch="torch.poisson(torch.full(shape, lam, dtype=torch.float32))",
          status=COMPOSITE,
          args="lam → a tensor of rates filled with lam; shape → its shape",
          gotchas=["the counts are float32 on both sides (dtype= for MXNet, the rate "
                   "tensor's dtype for torch.poisson)"],
          check=check(f"""
              nd.random.poisson(3.0, shape=({_N},))""", f"""
              torch.poisson(torch.full(({_N},), 3.0, dtype=torch.float32))""",
              kind="random")),
    # --------------------------------------------- operator spellings of the samplers
    entry("mx.nd.random_exponential",
          torch="torch.empty(shape, dtype=torch.float32).exponential_(lam)",
          status=COMPOSITE,
          args="lam (the rate) → exponential_(lambd=lam); shape → size; dtype → dtype",
          gotchas=["the operator takes the rate (lam=2: mean 0.5, measured 0.4995) while "
                   "the Python function nd.random.exponential takes the scale (the mean)",
                   _DT],
          check=check(f"""
              nd.random_exponential(lam=2.0, shape=({_N},))""", f"""
              torch.empty(({_N},), dtype=torch.float32).exponential_(2.0)""",
              kind="random")),
    entry("mx.nd.random_gamma",
          torch="torch.distributions.Gamma(alpha, 1 / beta).sample(shape)",
          status=COMPOSITE,
          args="alpha → concentration; beta (a scale) → rate = 1 / beta; shape → "
               "sample_shape",
          gotchas=["beta is a scale, as in nd.random.gamma: random_gamma(alpha=2, beta=3) "
                   "has mean 6"],
          check=check(f"""
              nd.random_gamma(alpha=2.0, beta=3.0, shape=({_N},))""", f"""
              torch.distributions.Gamma(torch.tensor(2.0), torch.tensor(1 / 3.0))\
                  .sample(({_N},))""", kind="random")),
    entry("mx.nd.random_poisson",
          torch="torch.poisson(torch.full(shape, lam, dtype=torch.float32))",
          status=COMPOSITE,
          args="lam → a tensor of rates filled with lam; shape → its shape",
          gotchas=["the counts are float32 on both sides"],
          check=check(f"""
              nd.random_poisson(lam=3.0, shape=({_N},))""", f"""
              torch.poisson(torch.full(({_N},), 3.0, dtype=torch.float32))""",
              kind="random")),
    entry("mx.nd.random_randint",
          torch="torch.randint(low, high, shape, dtype=torch.int32)",
          status=ARGS,
          args="low → low; high → high (excluded on both sides); shape → size",
          defaults="dtype int32 vs torch.randint's int64",
          gotchas=["the draws are int32; torch.randint gives int64 unless dtype= is given"],
          check=check(f"""
              nd.random_randint(low=-3, high=7, shape=({_N},))""", f"""
              torch.randint(-3, 7, ({_N},), dtype=torch.int32)""", kind="random")),
    entry("mx.nd.sample_uniform",
          torch="(low + (high - low) * torch.rand(low.shape, dtype=low.dtype)).float()",
          status=COMPOSITE,
          args="low, high → tensors of one shape, one draw per element; shape → extra "
               "trailing axes (low[..., None] + (high - low)[..., None] * "
               "torch.rand(*low.shape, *shape))",
          gotchas=["float64 low and high still give float32 draws unless dtype='float64'"],
          check=check("""
              nd.sample_uniform(lo, hi)""", """
              (lo + (hi - lo) * torch.rand(lo.shape, dtype=lo.dtype)).float()""",
              inputs=f"lo=U({_N}); hi=P({_N}, lo=1.0, hi=3.0)", kind="random")),
    # ------------------------------------------------------------ mx.sym Python faces
    entry("mx.sym.random.normal",
          torch="torch.normal(loc, scale, size=shape)",
          status=ARGS,
          args="loc → mean; scale → std; shape → size; dtype → dtype",
          gotchas=[_DT, "a Symbol draws anew at every forward pass of the bound graph, as "
                   "a torch.normal call inside forward does"],
          check=check(f"""
              sym.random.normal(1.0, 2.0, shape=({_N},)).eval(ctx=mx.cpu())[0]""", f"""
              torch.normal(1.0, 2.0, size=({_N},))""", kind="random")),
    entry("mx.sym.random.uniform",
          torch="torch.empty(shape, dtype=torch.float32).uniform_(low, high)",
          status=COMPOSITE,
          args="low, high → uniform_(low, high) (defaults 0, 1: torch.rand(shape)); shape → "
               "size; dtype → dtype",
          gotchas=[_DT, "a Symbol draws anew at every forward pass of the bound graph"],
          check=check(f"""
              sym.random.uniform(-1, 2, shape=({_N},)).eval(ctx=mx.cpu())[0]""", f"""
              torch.empty(({_N},), dtype=torch.float32).uniform_(-1, 2)""", kind="random")),
]
