"""mx.gluon.nn convolution, transposed convolution, pooling and padding layers."""
from ..model import ARGS, COMPOSITE, check, entry

_TCONV = "06_blocks §Convolution and pooling: the same layers, other argument names"
_CONV_ARGS = ("channels → out_channels (second in PyTorch); in_channels → in_channels (first; "
              "required in PyTorch, Gluon infers it when 0: torch.nn.{lazy}); kernel_size → "
              "kernel_size; strides → stride; padding → padding; dilation → dilation; "
              "groups → groups; use_bias → bias; activation → a module after it (form "
              "`activation` of Conv2D)")
_CONV_DEFAULTS = "none that differ: stride 1, padding 0, dilation 1, groups 1, bias on both sides"
_CONV_W = ("the weight is (channels, in_channels/groups, *kernel) on both sides: it copies as "
           "it is (the check uses groups=2 and a non-square kernel)")
_TCONV_ARGS = ("channels → out_channels (second); in_channels → in_channels (first; required "
               "in PyTorch: torch.nn.{lazy} infers it); kernel_size → kernel_size; strides → "
               "stride; padding → padding; output_padding → output_padding (the operator's "
               "`adj`); dilation → dilation; groups → groups; use_bias → bias")
_TCONV_W = ("the weight is (in_channels, channels/groups, *kernel) on both sides — input "
            "channels first, unlike a convolution: it copies as it is (the check uses "
            "groups=2 so that in ≠ out/groups)")
_DECONV_BUG = ("MXNet 1.9.1's own (non-oneDNN) Deconvolution, which runs float64 on the CPU, "
               "gives wrong values where one axis has both stride > 1 and dilation > 1 (it is "
               "not the adjoint of MXNet's own Convolution); float32 (oneDNN) and PyTorch are "
               "right. Port such float64 layers by their float32 behaviour")
_TCONV_GROUPS = ("with groups > 1, Gluon's transposed convolution needs in_channels: the "
                 "deferred shape inference fails ('input num_filter must divide group size')")
_LAYOUT = ("layout: only the default channels-first layout is covered here; Gluon's "
           "channels-last convolution (layout='NHWC'/'NDHWC') has weights (out, *kernel, in) "
           "and is refused by MXNet 1.9.1's CPU operator")
_POOL_ARGS = ("pool_size → kernel_size (Gluon's default {size}, PyTorch's required); strides "
              "→ stride (None = the pool size on both sides); padding → padding; ceil_mode → "
              "ceil_mode (form `ceil_mode=True` of MaxPool2D: with padding they part)")
_MAXPOOL2D_SIG = ("pool_size", "strides", "padding", "layout", "ceil_mode")
_AVGPOOL2D_SIG = ("pool_size", "strides", "padding", "ceil_mode", "layout", "count_include_pad")

ENTRIES = [
    # ------------------------------------------------------------------ convolutions
    entry("mx.gluon.nn.Conv1D",
          torch="torch.nn.Conv1d(in_channels, channels, kernel_size, stride=strides, "
                "padding=padding, dilation=dilation, groups=groups, bias=use_bias)",
          status=ARGS, args=_CONV_ARGS.format(lazy="LazyConv1d(channels, kernel_size, …)"),
          defaults=_CONV_DEFAULTS, gotchas=[_CONV_W], teach=_TCONV,
          check=check("""
              net = nn.Conv1D(6, 3, strides=2, padding=1, dilation=2, groups=2)
              net(x)""", """
              mod = nn.Conv1d(4, 6, 3, stride=2, padding=1, dilation=2, groups=2)
              mod(x)""", inputs="x=U(2, 4, 9)", grad="x")),
    entry("mx.gluon.nn.Conv2D",
          torch="torch.nn.Conv2d(in_channels, channels, kernel_size, stride=strides, "
                "padding=padding, dilation=dilation, groups=groups, bias=use_bias)",
          status=ARGS, args=_CONV_ARGS.format(lazy="LazyConv2d(channels, kernel_size, …)"),
          defaults=_CONV_DEFAULTS, gotchas=[_CONV_W], note=_LAYOUT, teach=_TCONV,
          check=check("""
              net = nn.Conv2D(6, (3, 2), strides=(2, 1), padding=(1, 0), dilation=(1, 2),
                              groups=2)
              net(x)""", """
              mod = nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2),
                              groups=2)
              mod(x)""", inputs="x=U(2, 4, 7, 6)", grad="x")),
    entry("mx.gluon.nn.Conv2D", form="activation", when=["activation"],
          signature=("channels", "kernel_size", "strides", "padding", "dilation", "groups",
                     "layout", "activation"),
          torch="torch.nn.Sequential(torch.nn.Conv2d(in_channels, channels, kernel_size, "
                "stride=strides, padding=padding, bias=use_bias), torch.nn.ReLU())",
          status=COMPOSITE,
          args="activation='relu' → torch.nn.ReLU() after the convolution (other "
               "activations: the Activation forms); the rest as Conv2D",
          gotchas=["Conv2d has no activation argument: the activation is a layer of its own"],
          teach=_TCONV,
          check=check("""
              net = nn.Conv2D(4, 3, padding=1, activation='relu', in_channels=3)
              net(x)""", """
              mod = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU())
              mod(x)""", inputs="x=U(2, 3, 5, 4)", grad="x")),
    entry("mx.gluon.nn.Conv3D",
          torch="torch.nn.Conv3d(in_channels, channels, kernel_size, stride=strides, "
                "padding=padding, dilation=dilation, groups=groups, bias=use_bias)",
          status=ARGS, args=_CONV_ARGS.format(lazy="LazyConv3d(channels, kernel_size, …)"),
          defaults=_CONV_DEFAULTS, gotchas=[_CONV_W], teach=_TCONV,
          check=check("""
              net = nn.Conv3D(4, (2, 3, 2), strides=(1, 2, 1), padding=(1, 0, 1), groups=2)
              net(x)""", """
              mod = nn.Conv3d(2, 4, (2, 3, 2), stride=(1, 2, 1), padding=(1, 0, 1), groups=2)
              mod(x)""", inputs="x=U(2, 2, 3, 5, 4)", grad="x")),
    entry("mx.gluon.nn.Conv1DTranspose",
          torch="torch.nn.ConvTranspose1d(in_channels, channels, kernel_size, stride=strides, "
                "padding=padding, output_padding=output_padding, groups=groups, "
                "bias=use_bias, dilation=dilation)",
          status=ARGS, args=_TCONV_ARGS.format(lazy="LazyConvTranspose1d"),
          defaults=_CONV_DEFAULTS, gotchas=[_TCONV_W, _TCONV_GROUPS], teach=_TCONV,
          check=check("""
              net = nn.Conv1DTranspose(6, 3, strides=2, padding=1, output_padding=1, groups=2,
                                       in_channels=4)
              net(x)""", """
              mod = nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1,
                                       groups=2)
              mod(x)""", inputs="x=U(2, 4, 5)", grad="x")),
    entry("mx.gluon.nn.Conv2DTranspose",
          torch="torch.nn.ConvTranspose2d(in_channels, channels, kernel_size, stride=strides, "
                "padding=padding, output_padding=output_padding, groups=groups, "
                "bias=use_bias, dilation=dilation)",
          status=ARGS, args=_TCONV_ARGS.format(lazy="LazyConvTranspose2d"),
          defaults=_CONV_DEFAULTS,
          gotchas=[_TCONV_W, _TCONV_GROUPS, "output_padding (Gluon's name; `adj` in the operator) adds rows "
                   "and columns at the end of the output, as PyTorch's does: (2, 4, 5, 4) → "
                   "(2, 6, 10, 9) with strides (2, 2), padding (1, 0), output_padding (1, 0)"],
          note=_LAYOUT, teach=_TCONV,
          check=check("""
              net = nn.Conv2DTranspose(6, (3, 2), strides=2, padding=(1, 0),
                                       output_padding=(1, 0), groups=2, in_channels=4)
              net(x)""", """
              mod = nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=(1, 0),
                                       output_padding=(1, 0), groups=2)
              mod(x)""", inputs="x=U(2, 4, 5, 4)", grad="x")),
    entry("mx.gluon.nn.Conv2DTranspose", form="dilation", when=["dilation"],
          signature=("channels", "kernel_size", "strides", "padding", "output_padding",
                     "dilation"),
          torch="torch.nn.ConvTranspose2d(in_channels, channels, kernel_size, stride=strides, "
                "padding=padding, output_padding=output_padding, groups=groups, "
                "bias=use_bias, dilation=dilation)",
          status=ARGS, args="dilation → dilation; the rest as Conv2DTranspose",
          gotchas=[_DECONV_BUG],
          note="PyTorch's result is the right one: it is the adjoint (input gradient) of "
               "the convolution with the same stride and dilation, MXNet's float64 result "
               "is not (measured 0.88 max difference on a 3×3 input, kernel 2, stride 2, "
               "dilation 2); the check runs float32, where MXNet uses oneDNN",
          check=check("""
              net = nn.Conv2DTranspose(4, (3, 2), strides=2, padding=(1, 0),
                                       output_padding=(1, 0), dilation=(1, 2), in_channels=2)
              net(x)""", """
              mod = nn.ConvTranspose2d(2, 4, (3, 2), stride=2, padding=(1, 0),
                                       output_padding=(1, 0), dilation=(1, 2))
              mod(x)""", inputs="x=U(2, 2, 5, 4)", grad="x", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's float64 (non-oneDNN) Deconvolution is wrong "
                   "where an axis has stride > 1 and dilation > 1 (measured 1.43 max "
                   "difference for this layer)")),
    entry("mx.gluon.nn.Conv3DTranspose",
          torch="torch.nn.ConvTranspose3d(in_channels, channels, kernel_size, stride=strides, "
                "padding=padding, output_padding=output_padding, groups=groups, "
                "bias=use_bias, dilation=dilation)",
          status=ARGS, args=_TCONV_ARGS.format(lazy="LazyConvTranspose3d"),
          defaults=_CONV_DEFAULTS,
          gotchas=[_TCONV_W, _TCONV_GROUPS, "MXNet 1.9.1 computes a 3-D transposed "
                   "convolution only through oneDNN, in float32: float64 raises 'Only 1D or "
                   "2D Deconvolution is natively supported'"],
          teach=_TCONV,
          check=check("""
              net = nn.Conv3DTranspose(4, (2, 3, 2), strides=(2, 1, 2), padding=(0, 1, 0),
                                       output_padding=(1, 0, 0), groups=2, use_bias=False,
                                       in_channels=4)
              net(x)""", """
              mod = nn.ConvTranspose3d(4, 4, (2, 3, 2), stride=(2, 1, 2), padding=(0, 1, 0),
                                       output_padding=(1, 0, 0), groups=2, bias=False)
              mod(x)""", inputs="x=U(2, 4, 2, 3, 2)", grad="x", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1 has no float64 3-D Deconvolution on the CPU "
                   "('Only 1D or 2D Deconvolution is natively supported')")),
    # ---------------------------------------------------------------------- pooling
    entry("mx.gluon.nn.MaxPool1D",
          torch="torch.nn.MaxPool1d(pool_size, stride=strides, padding=padding, "
                "ceil_mode=ceil_mode)",
          status=ARGS, args=_POOL_ARGS.format(size="2") + "; layout='NCW' only here",
          defaults="pool_size: Gluon 2, PyTorch none (required)",
          teach=_TCONV,
          check=check("""
              net = nn.MaxPool1D()
              net(x)""", """
              mod = nn.MaxPool1d(2)
              mod(x)""", inputs="x=U(2, 3, 7)", grad="x")),
    entry("mx.gluon.nn.MaxPool2D",
          torch="torch.nn.MaxPool2d(pool_size, stride=strides, padding=padding, "
                "ceil_mode=ceil_mode)",
          status=ARGS, args=_POOL_ARGS.format(size="(2, 2)"),
          defaults="pool_size: Gluon (2, 2), PyTorch none (required)",
          gotchas=["PyTorch's spelling stride= is an error in Gluon (strides=), and Gluon's "
                   "strides= one in PyTorch"],
          teach=_TCONV,
          check=check("""
              net = nn.MaxPool2D(pool_size=3, strides=2, padding=1)
              net(x)""", """
              mod = nn.MaxPool2d(3, stride=2, padding=1)
              mod(x)""", inputs="x=U(2, 3, 7, 6)", grad="x")),
    entry("mx.gluon.nn.MaxPool2D", form="ceil_mode=True", when=["ceil_mode=True"],
          signature=_MAXPOOL2D_SIG,
          torch="torch.nn.MaxPool2d(pool_size, stride=strides, padding=padding, ceil_mode=True)",
          status=ARGS,
          args="ceil_mode=True → ceil_mode=True (MXNet's pooling_convention='full')",
          gotchas=["without padding both give the same windows (6×6, pool 3, stride 2: 3×3 "
                   "where floor gives 2×2)",
                   "with padding they part: PyTorch drops a last window that would start in "
                   "the right/bottom padding, MXNet keeps it, and its value is the lowest "
                   "number of the dtype (finfo.min). 5×5, pool 2, stride 2, padding 1: "
                   "MXNet 4×4, PyTorch 3×3 (the first 3×3 equal); crop MXNet's result "
                   "[:, :, :3, :3] to port code that relied on the extra window"],
          teach="07_hybridize_export §2. Functional code: `torch.nn.functional` and Gluon's `F`",
          check=check("""
              p_a = nn.MaxPool2D(3, 2, ceil_mode=True)
              p_b = nn.MaxPool2D(2, padding=1, ceil_mode=True)
              y_b = p_b(x[:, :, :5, :5])
              (p_a(x), y_b[:, :, :3, :3], y_b[:, :, 3, :], y_b[:, :, :, 3])""", """
              m_a = nn.MaxPool2d(3, stride=2, ceil_mode=True)
              m_b = nn.MaxPool2d(2, padding=1, ceil_mode=True)
              lowest = torch.full((2, 3, 4), torch.finfo(dtype).min, dtype=dtype)
              (m_a(x), m_b(x[:, :, :5, :5]), lowest, lowest)""",
              inputs="x=U(2, 3, 6, 6)", grad="x")),
    entry("mx.gluon.nn.MaxPool2D", form="layout='NHWC'", when=["layout='NHWC'"],
          signature=_MAXPOOL2D_SIG,
          torch="torch.nn.MaxPool2d(pool_size, stride=strides, padding=padding)"
                "(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)",
          status=COMPOSITE,
          args="layout='NHWC' → permute to (N, C, H, W) and back (PyTorch's channels_last "
               "is a memory format: it keeps the NCHW shape)",
          gotchas=["Gluon's NHWC pooling runs on the CPU (its NHWC convolution does not) and "
                   "gives the NCHW result transposed"],
          teach="deep_dives/blocks_channel_layout §2. `layout=\"NHWC\"` is a shape, and "
                "MXNet's CPU convolution refuses it",
          check=check("""
              net = nn.MaxPool2D(3, strides=2, padding=1, layout='NHWC')
              net(x)""", """
              mod = nn.MaxPool2d(3, stride=2, padding=1)
              mod(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)""",
              inputs="x=U(2, 6, 5, 3)", grad="x")),
    entry("mx.gluon.nn.MaxPool3D",
          torch="torch.nn.MaxPool3d(pool_size, stride=strides, padding=padding, "
                "ceil_mode=ceil_mode)",
          status=ARGS, args=_POOL_ARGS.format(size="(2, 2, 2)") + "; layout='NCDHW' only here",
          defaults="pool_size: Gluon (2, 2, 2), PyTorch none (required)",
          teach=_TCONV,
          check=check("""
              net = nn.MaxPool3D(pool_size=(1, 3, 3), strides=(1, 2, 2), padding=(0, 1, 1))
              net(x)""", """
              mod = nn.MaxPool3d((1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1))
              mod(x)""", inputs="x=U(2, 2, 3, 5, 4)", grad="x")),
    entry("mx.gluon.nn.AvgPool1D",
          torch="torch.nn.AvgPool1d(pool_size, stride=strides, padding=padding, "
                "ceil_mode=ceil_mode, count_include_pad=count_include_pad)",
          status=ARGS, args=_POOL_ARGS.format(size="2") + "; count_include_pad → "
               "count_include_pad (True on both sides)",
          defaults="pool_size: Gluon 2, PyTorch none (required)",
          teach=_TCONV,
          check=check("""
              net = nn.AvgPool1D(3, strides=2, padding=1)
              net(x)""", """
              mod = nn.AvgPool1d(3, stride=2, padding=1)
              mod(x)""", inputs="x=U(2, 3, 7)", grad="x")),
    entry("mx.gluon.nn.AvgPool2D",
          torch="torch.nn.AvgPool2d(pool_size, stride=strides, padding=padding, "
                "ceil_mode=ceil_mode, count_include_pad=count_include_pad)",
          status=ARGS, args=_POOL_ARGS.format(size="(2, 2)") + "; count_include_pad → "
               "count_include_pad",
          defaults="pool_size: Gluon (2, 2), PyTorch none; count_include_pad=True on both "
                   "sides (the padding's zeros count in the mean)",
          teach=_TCONV,
          check=check("""
              net = nn.AvgPool2D(3, strides=2, padding=1)
              net(x)""", """
              mod = nn.AvgPool2d(3, stride=2, padding=1)
              mod(x)""", inputs="x=U(2, 3, 5, 6)", grad="x")),
    entry("mx.gluon.nn.AvgPool2D", form="count_include_pad=False",
          when=["count_include_pad=False"], signature=_AVGPOOL2D_SIG,
          torch="torch.nn.AvgPool2d(pool_size, stride=strides, padding=padding, "
                "count_include_pad=False)",
          status=ARGS, args="count_include_pad=False → count_include_pad=False",
          gotchas=["count_include_pad=False divides each border window by the number of "
                   "input values it covers, on both sides"],
          teach=_TCONV,
          check=check("""
              net = nn.AvgPool2D(3, strides=1, padding=1, count_include_pad=False)
              net(x)""", """
              mod = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)
              mod(x)""", inputs="x=U(2, 3, 4, 5)", grad="x")),
    entry("mx.gluon.nn.AvgPool2D", form="layout='NHWC'", when=["layout='NHWC'"],
          signature=_AVGPOOL2D_SIG,
          torch="torch.nn.AvgPool2d(pool_size, stride=strides, padding=padding)"
                "(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)",
          status=COMPOSITE,
          args="layout='NHWC' → permute to (N, C, H, W) and back",
          teach="deep_dives/blocks_channel_layout §2. `layout=\"NHWC\"` is a shape, and "
                "MXNet's CPU convolution refuses it",
          check=check("""
              net = nn.AvgPool2D(3, strides=2, padding=1, layout='NHWC')
              net(x)""", """
              mod = nn.AvgPool2d(3, stride=2, padding=1)
              mod(x.permute(0, 3, 1, 2)).permute(0, 2, 3, 1)""",
              inputs="x=U(2, 6, 5, 3)", grad="x")),
    entry("mx.gluon.nn.AvgPool3D",
          torch="torch.nn.AvgPool3d(pool_size, stride=strides, padding=padding, "
                "ceil_mode=ceil_mode, count_include_pad=count_include_pad)",
          status=ARGS, args=_POOL_ARGS.format(size="(2, 2, 2)") + "; count_include_pad → "
               "count_include_pad",
          defaults="pool_size: Gluon (2, 2, 2), PyTorch none (required)",
          teach=_TCONV,
          check=check("""
              net = nn.AvgPool3D((2, 3, 2), strides=(1, 2, 2), padding=(0, 1, 1))
              net(x)""", """
              mod = nn.AvgPool3d((2, 3, 2), stride=(1, 2, 2), padding=(0, 1, 1))
              mod(x)""", inputs="x=U(2, 2, 3, 5, 4)", grad="x")),
    # ---------------------------------------------------------------- global pooling
    entry("mx.gluon.nn.GlobalAvgPool1D", torch="torch.nn.AdaptiveAvgPool1d(1)",
          status=ARGS, args="layout='NCW' only here; the output keeps the pooled axis "
                            "(N, C, 1) on both sides",
          check=check("""
              net = nn.GlobalAvgPool1D()
              net(x)""", """
              mod = nn.AdaptiveAvgPool1d(1)
              mod(x)""", inputs="x=U(2, 3, 5)", grad="x")),
    entry("mx.gluon.nn.GlobalAvgPool2D", torch="torch.nn.AdaptiveAvgPool2d(1)",
          status=ARGS, args="layout='NCHW' only here; the output is (N, C, 1, 1) on both "
                            "sides (flatten it before a Linear, as Dense(flatten=True) does)",
          check=check("""
              net = nn.GlobalAvgPool2D()
              net(x)""", """
              mod = nn.AdaptiveAvgPool2d(1)
              mod(x)""", inputs="x=U(2, 3, 4, 5)", grad="x")),
    entry("mx.gluon.nn.GlobalAvgPool3D", torch="torch.nn.AdaptiveAvgPool3d(1)",
          status=ARGS, args="layout='NCDHW' only here; output (N, C, 1, 1, 1)",
          check=check("""
              net = nn.GlobalAvgPool3D()
              net(x)""", """
              mod = nn.AdaptiveAvgPool3d(1)
              mod(x)""", inputs="x=U(2, 3, 2, 3, 4)", grad="x")),
    entry("mx.gluon.nn.GlobalMaxPool1D", torch="torch.nn.AdaptiveMaxPool1d(1)",
          status=ARGS, args="layout='NCW' only here; output (N, C, 1)",
          check=check("""
              net = nn.GlobalMaxPool1D()
              net(x)""", """
              mod = nn.AdaptiveMaxPool1d(1)
              mod(x)""", inputs="x=U(2, 3, 5)", grad="x")),
    entry("mx.gluon.nn.GlobalMaxPool2D", torch="torch.nn.AdaptiveMaxPool2d(1)",
          status=ARGS, args="layout='NCHW' only here; output (N, C, 1, 1)",
          check=check("""
              net = nn.GlobalMaxPool2D()
              net(x)""", """
              mod = nn.AdaptiveMaxPool2d(1)
              mod(x)""", inputs="x=U(2, 3, 4, 5)", grad="x")),
    entry("mx.gluon.nn.GlobalMaxPool3D", torch="torch.nn.AdaptiveMaxPool3d(1)",
          status=ARGS, args="layout='NCDHW' only here; output (N, C, 1, 1, 1)",
          check=check("""
              net = nn.GlobalMaxPool3D()
              net(x)""", """
              mod = nn.AdaptiveMaxPool3d(1)
              mod(x)""", inputs="x=U(2, 3, 2, 3, 4)", grad="x")),
    # ---------------------------------------------------------------------- padding
    entry("mx.gluon.nn.ReflectionPad2D", torch="torch.nn.ReflectionPad2d(padding)",
          status=ARGS,
          args="padding=p (an int) → padding=p; an 8-tuple (0, 0, 0, 0, top, bottom, left, "
               "right) (MXNet's pad_width: before/after for N, C, H, W) → "
               "(left, right, top, bottom)",
          gotchas=["a tuple is ordered the other way round: MXNet pairs (before, after) per "
                   "axis from the first axis, PyTorch starts from the last axis"],
          check=check("""
              p1 = nn.ReflectionPad2D(2)
              p2 = nn.ReflectionPad2D((0, 0, 0, 0, 1, 2, 3, 0))
              (p1(x), p2(x))""", """
              m1 = nn.ReflectionPad2d(2)
              m2 = nn.ReflectionPad2d((3, 0, 1, 2))
              (m1(x), m2(x))""", inputs="x=U(2, 3, 4, 5)", grad="x")),
]
