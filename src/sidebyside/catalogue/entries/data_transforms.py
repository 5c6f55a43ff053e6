"""``mx.gluon.data.vision.transforms`` (all 19 classes of MXNet 1.9.1) → ``torchvision.transforms``
(``v2``): deterministic ones on real pixel arrays, random ones by their distributions."""
import ast
import textwrap

from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, check, entry

_T = "mx.gluon.data.vision.transforms."
_HWC = ("Gluon's image transforms take (H, W, C) NDArrays (uint8 before ToTensor); "
        "torchvision's take PIL images or (…, C, H, W) tensors: img.permute(2, 0, 1)")
_SIZE = "size (W, H) → (H, W): the order is reversed"
_RND = ("Random: 300 draws a side (different generators: Gluon's op RNG or Python's/NumPy's, "
        "torch's), compared by their quartiles, mean and standard deviation (and min, max "
        "when bounded) within the stated atol, about 3 σ of the sampling noise.")
_LERP_NOTE = ("uint8 bilinear: OpenCV (MXNet) weights in 11-bit fixed point, torchvision in "
              "float: 1 grey level on about 11 % of pixels (compared as float32 with atol 1; "
              "antialias=True would differ by up to 111 when shrinking).")
_V2 = "import torchvision.transforms.v2 as v2\n    "
_IM = "from torchvision.transforms import InterpolationMode as IM\n    "

_LIGHTING = '''class Lighting(torch.nn.Module):
    """MXNet's RandomLighting(alpha_std): AlexNet's PCA colour noise, in 0-255 units."""

    eigval = torch.tensor([55.46, 4.794, 1.148])
    eigvec = torch.tensor([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140],
                           [-0.5836, -0.6948, 0.4203]])

    def __init__(self, alpha_std):
        super().__init__()
        self.alpha_std = alpha_std

    def forward(self, img):                              # (C, H, W), C = 3
        alpha = torch.randn(3) * self.alpha_std
        rgb = self.eigvec @ (alpha * self.eigval)
        out = img.float() + rgb.view(3, 1, 1)
        return out.clamp(0, 255).to(torch.uint8) if img.dtype == torch.uint8 else out
'''

_SATURATION = '''class MXSaturation(torch.nn.Module):
    """MXNet 1.9.1's saturation jitter: its kernel blends with 0.114·B, not the luma."""

    def __init__(self, saturation):
        super().__init__()
        self.lo, self.hi = max(0.0, 1.0 - saturation), 1.0 + saturation

    def forward(self, img):                              # (3, H, W), uint8 or 0-255 float
        f = float(torch.empty(()).uniform_(self.lo, self.hi))
        out = img.float() * f + (1 - f) * 0.114 * img[2:3].float()
        return out.clamp(0, 255).to(torch.uint8) if img.dtype == torch.uint8 else out
'''


def _summarised(code: str, tails: bool) -> str:
    """The snippet with its last expression (the draws) replaced by their summary."""
    code = textwrap.dedent(code).strip()
    lines = code.split("\n")
    start = ast.parse(code).body[-1].lineno - 1
    return "\n".join(["from sidebyside.catalogue.harness_data import summary", *lines[:start],
                      f"summary({chr(10).join(lines[start:])}, tails={tails})"])


def _stat(mx_body, torch_body, atol, tails=True, inputs="", note=""):
    """300 draws a side, compared by their summary statistics within ``atol``."""
    return check(_summarised(mx_body, tails), _summarised(torch_body, tails), inputs=inputs,
                 dtypes=("float64",), atol=atol, rtol=0.0,
                 note=(note + " " if note else "") + _RND)


ENTRIES = [
    entry(_T + "Compose", torch="torchvision.transforms.v2.Compose(transforms)", status=RENAMED,
          args="transforms → transforms (a list of the counterparts); Gluon hybridizes runs "
               "of HybridBlocks inside",
          gotchas=["the same pipeline on both sides: crop, ToTensor, Normalize — on a PIL "
                   "image (torchvision) or an (H, W, C) NDArray (Gluon)"],
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              t = mt.Compose([mt.CenterCrop((6, 4)), mt.ToTensor(),
                              mt.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])
              t(img)""", """
              import torchvision.transforms as T
              from PIL import Image
              t = T.Compose([T.CenterCrop((4, 6)), T.ToTensor(),
                             T.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])
              t(Image.fromarray(img.numpy()))""", inputs="img=IMG(8, 10)",
              dtypes=("float32",))),
    entry(_T + "Cast", torch="torchvision.transforms.v2.ToDtype(getattr(torch, dtype))",
          status=ARGS, args="dtype → a torch.dtype (default 'float32'); no scaling (scale=False)",
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.Cast()(img), mt.Cast('float64')(img))""", """
              import torchvision.transforms.v2 as v2
              (v2.ToDtype(getattr(torch, 'float32'))(img),
               v2.ToDtype(getattr(torch, 'float64'))(img))""", inputs="img=IMG(3, 4)",
              dtypes=("float32",))),
    entry(_T + "ToTensor", torch="torchvision.transforms.ToTensor()", status=ARGS,
          args="no arguments; input: an (H, W, C) uint8 array or PIL image on both",
          gotchas=["uint8 (H, W, C) → float32 (C, H, W) / 255: equal bit for bit",
                   "a float32 input is divided by 255 too in Gluon; torchvision's ToTensor "
                   "leaves float arrays unscaled (divide explicitly)",
                   "a batch (N, H, W, C) → (N, C, H, W) in Gluon; torchvision's ToTensor "
                   "refuses 4-D input: x.permute(0, 3, 1, 2).float() / 255"],
          teach="18_legacy_data_recordio §4. The `transform=` trap",
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              t = mt.ToTensor()
              (t(img), t(img.astype('float32')), t(nd.stack(img, img[::-1])))""", """
              import torchvision.transforms as T
              t = T.ToTensor()
              batch = torch.stack([img, img.flip(0)])
              (t(img.numpy()), t(img.numpy().astype('float32')) / 255,
               batch.permute(0, 3, 1, 2).float() / 255)""", inputs="img=IMG(5, 7)",
              dtypes=("float32",))),
    entry(_T + "Normalize", torch="torchvision.transforms.Normalize(mean, std)", status=ARGS,
          args="mean → mean; std → std (scalars or one per channel on both); input "
               "(C, H, W) or (N, C, H, W) float",
          defaults="mean=0.0, std=1.0 vs required",
          gotchas=["float64 input: MXNet stores mean and std as float32 (the results differ "
                   "from float64 arithmetic by ~1e-7; Normalize with the values rounded "
                   "through float32 matches exactly)"],
          teach="03_mnist_mlp §`Normalize` arguments",
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              m, s = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
              (mt.Normalize(m, s)(x), mt.Normalize(0.5, 0.25)(x), mt.Normalize(m, s)(xb))""", """
              import torchvision.transforms as T
              m, s = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
              m32, s32 = ([float(onp.float32(v)) for v in p] for p in (m, s))   # MXNet's values
              (T.Normalize(m32, s32)(x), T.Normalize(0.5, 0.25)(x), T.Normalize(m32, s32)(xb))""",
              inputs="x=U(3, 4, 5, lo=0, hi=1); xb=U(2, 3, 2, 3, lo=0, hi=1)",
              note="float64 runs compare against Normalize with mean/std rounded through "
                   "float32 (MXNet's parameters are float32): equal to 0.")),
    entry(_T + "Resize",
          torch="torchvision.transforms.v2.Resize((h, w), antialias=False)", status=ARGS,
          args=_SIZE + "; an int size without keep_ratio → (size, size); interpolation=1 → "
               "InterpolationMode.BILINEAR with antialias=False (OpenCV does not antialias)",
          defaults="an int size: Gluon makes a square, torchvision resizes the short side; "
                   "antialias: none vs True",
          gotchas=["uint8 bilinear: 1 grey level apart on about 11 % of pixels (OpenCV's "
                   "fixed-point weights); float32 images: equal to 4e-4 of 255",
                   "a PIL image is always antialiased by torchvision: pass a tensor"],
          note=_HWC,
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.Resize((13, 7))(img).astype('float32'), mt.Resize(8)(img).astype('float32'),
               mt.Resize((24, 16))(img).astype('float32'))""", """
              import torchvision.transforms.v2 as v2
              chw = img.permute(2, 0, 1)
              (v2.Resize((7, 13), antialias=False)(chw).permute(1, 2, 0).float(),
               v2.Resize((8, 8), antialias=False)(chw).permute(1, 2, 0).float(),
               v2.Resize((16, 24), antialias=False)(chw).permute(1, 2, 0).float())""",
              inputs="img=IMG(12, 18)", dtypes=("float32",), atol32=1.0, rtol32=0.0,
              note=_LERP_NOTE)),
    entry(_T + "Resize", form="keep_ratio=True", when=["keep_ratio=True"],
          signature=("size", "keep_ratio", "interpolation"),
          torch="torchvision.transforms.v2.Resize(size, antialias=False)", status=ARGS,
          args="size (int) → size: the short side on both, the long side truncated alike "
               "(int(size · long / short))",
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.Resize(8, keep_ratio=True)(img).astype('float32'),
               mt.Resize(8, keep_ratio=True)(img.transpose((1, 0, 2))).astype('float32'))""", """
              import torchvision.transforms.v2 as v2
              chw = img.permute(2, 0, 1)
              (v2.Resize(8, antialias=False)(chw).permute(1, 2, 0).float(),
               v2.Resize(8, antialias=False)(chw.transpose(1, 2)).permute(1, 2, 0).float())""",
              inputs="img=IMG(13, 18)", dtypes=("float32",), atol32=1.0, rtol32=0.0,
              note=_LERP_NOTE)),
    entry(_T + "Resize", form="interpolation=0", when=["interpolation=0"],
          signature=("size", "keep_ratio", "interpolation"),
          torch="torchvision.transforms.v2.Resize((h, w), interpolation=InterpolationMode."
                "NEAREST)", status=ARGS,
          args=_SIZE + "; interpolation=0 → InterpolationMode.NEAREST (not NEAREST_EXACT)",
          gotchas=["nearest: equal pixel for pixel, shrinking and enlarging"],
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.Resize((13, 7), interpolation=0)(img), mt.Resize((24, 16), interpolation=0)(img))
              """, """
              import torchvision.transforms.v2 as v2
              from torchvision.transforms import InterpolationMode
              chw = img.permute(2, 0, 1)
              (v2.Resize((7, 13), interpolation=InterpolationMode.NEAREST)(chw).permute(1, 2, 0),
               v2.Resize((16, 24), interpolation=InterpolationMode.NEAREST)(chw).permute(1, 2, 0))
              """, inputs="img=IMG(12, 18)", kind="exact", dtypes=("float32",))),
    entry(_T + "Resize", form="interpolation=2", when=["interpolation=2"],
          signature=("size", "keep_ratio", "interpolation"),
          torch="torchvision.transforms.v2.Resize((h, w), interpolation=InterpolationMode."
                "BICUBIC, antialias=False)", status=ARGS,
          args=_SIZE + "; interpolation=2 → InterpolationMode.BICUBIC, antialias=False",
          gotchas=["float32 images agree to 2e-6 of the range (both cubic a = -0.75); uint8 images differ "
                   "by up to 19 grey levels (OpenCV's fixed-point bicubic): resize floats"],
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.Resize((13, 7), interpolation=2)(x), mt.Resize((24, 16), interpolation=2)(x))
              """, """
              import torchvision.transforms.v2 as v2
              from torchvision.transforms import InterpolationMode
              chw = x.permute(2, 0, 1)
              r = lambda h, w: v2.Resize((h, w), interpolation=InterpolationMode.BICUBIC,
                                         antialias=False)(chw).permute(1, 2, 0)
              (r(7, 13), r(16, 24))""", inputs="x=U(12, 18, 3, lo=0, hi=255)",
              dtypes=("float32",), rtol32=5e-6,
              note="4.5e-4 on values up to 255 (1.7e-6 of the range): OpenCV's float32 cubic "
                   "weights. float32 only: MXNet's image resize has no float64 kernel (its float "
                   "path is OpenCV's float32).")),
    entry(_T + "CenterCrop",
          torch="torchvision.transforms.v2.functional.crop(img, (h - ch) // 2, (w - cw) // 2, "
                "ch, cw)", status=COMPOSITE,
          args=_SIZE + " (size=(cw, ch)); v2.CenterCrop((ch, cw)) gives the same crop when "
               "h - ch and w - cw are even",
          gotchas=["an odd margin: Gluon's offset rounds down ((h - ch) // 2), torchvision's "
                   "CenterCrop rounds it (int(round(…)), 1.5 → 2): one pixel apart"],
          note=_HWC,
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.CenterCrop((5, 6))(img), mt.CenterCrop((4, 5))(img), mt.CenterCrop(4)(img))""", """
              import torchvision.transforms.v2 as v2
              import torchvision.transforms.v2.functional as TF
              chw, (h, w) = img.permute(2, 0, 1), img.shape[:2]
              crop = lambda cw, ch: TF.crop(chw, (h - ch) // 2, (w - cw) // 2, ch, cw)
              (crop(5, 6).permute(1, 2, 0), v2.CenterCrop((5, 4))(chw).permute(1, 2, 0),
               v2.CenterCrop((4, 4))(chw).permute(1, 2, 0))""",
              inputs="img=IMG(9, 12)", kind="exact", dtypes=("float32",))),
    entry(_T + "CropResize",
          torch="torchvision.transforms.v2.functional.crop(img, y, x, height, width)",
          status=ARGS, args="x → left; y → top; width → width; height → height (the order "
                            "changes: top, left first)",
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.CropResize(2, 1, 5, 4)(img), mt.CropResize(0, 3, 3, 2)(nd.stack(img, img)))""",
              """
              import torchvision.transforms.v2.functional as TF
              chw = img.permute(2, 0, 1)
              (TF.crop(chw, 1, 2, 4, 5).permute(1, 2, 0),
               TF.crop(torch.stack([chw, chw]), 3, 0, 2, 3).permute(0, 2, 3, 1))""",
              inputs="img=IMG(7, 9)", kind="exact", dtypes=("float32",))),
    entry(_T + "CropResize", form="size", when=["size"],
          signature=("x", "y", "width", "height", "size", "interpolation"),
          torch="torchvision.transforms.v2.functional.resized_crop(img, y, x, height, width, "
                "(size_h, size_w), antialias=False)", status=ARGS,
          args="x, y, width, height as the default form; size (W, H) → (H, W); "
               "interpolation=1 → BILINEAR (antialias=False)",
          gotchas=["give interpolation= explicitly: with size and the default "
                   "interpolation=None MXNet 1.9.1 raises (\"Invalid Parameter format for "
                   "interp expect int but value='None'\")"],
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              try:
                  mt.CropResize(2, 1, 5, 4, size=(10, 8))(img)
                  raised = False
              except mx.base.MXNetError:
                  raised = True
              assert raised, "CropResize(size=…) without interpolation= no longer raises"
              mt.CropResize(2, 1, 5, 4, size=(10, 8), interpolation=1)(img).astype('float32')""", """
              import torchvision.transforms.v2.functional as TF
              out = TF.resized_crop(img.permute(2, 0, 1), 1, 2, 4, 5, (8, 10), antialias=False)
              out.permute(1, 2, 0).float()""", inputs="img=IMG(7, 9)",
              dtypes=("float32",), atol32=1.0, rtol32=0.0, note=_LERP_NOTE)),
    entry(_T + "RandomResizedCrop",
          torch="torchvision.transforms.v2.RandomResizedCrop((h, w), scale=scale, ratio=ratio, "
                "interpolation=InterpolationMode.BILINEAR, antialias=False)", status=ARGS,
          args=_SIZE + " (an int: square on both); scale → scale; ratio → ratio; "
               "interpolation=1 → BILINEAR (0 → NEAREST, as in the check)",
          defaults="the same: scale (0.08, 1.0), ratio (3/4, 4/3), 10 tries then a central "
                   "crop",
          gotchas=["Gluon draws the crop with Python's random module (random.seed repeats "
                   "it), torchvision with torch's generator"],
          note="The check crops an image whose pixels hold their own column and row "
               "(nearest interpolation, enlarged: every source pixel survives), reads each "
               "crop's box back and compares the boxes' statistics and the output height.",
          check=check("""
              import random
              from mxnet.gluon.data.vision import transforms as mt
              random.seed(0)
              ramp = onp.zeros((10, 16, 3), 'uint8')
              ramp[..., 0], ramp[..., 1] = onp.arange(16)[None], onp.arange(10)[:, None]
              t, src, boxes, heights = mt.RandomResizedCrop((32, 24), interpolation=0), \\
                  nd.array(ramp, dtype='uint8'), [], []
              for _ in range(300):
                  o = t(src).asnumpy()
                  c, r = o[..., 0], o[..., 1]
                  boxes.append((c.max() - c.min() + 1, r.max() - r.min() + 1, c.min(), r.min()))
                  heights.append(o.shape[0])
              b = onp.array(boxes, dtype='float64')
              onp.concatenate([b.mean(0), b.std(0), [min(heights), max(heights)]])""", """
              import torchvision.transforms.v2 as v2
              from torchvision.transforms import InterpolationMode
              ramp = torch.zeros((3, 10, 16), dtype=torch.uint8)
              ramp[0], ramp[1] = torch.arange(16)[None], torch.arange(10)[:, None]
              t = v2.RandomResizedCrop((24, 32), scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3),
                                       interpolation=InterpolationMode.NEAREST)
              boxes, heights = [], []
              for _ in range(300):
                  o = t(ramp).numpy().astype('int64')
                  c, r = o[0], o[1]
                  boxes.append((c.max() - c.min() + 1, r.max() - r.min() + 1, c.min(), r.min()))
                  heights.append(o.shape[1])
              b = onp.array(boxes, dtype='float64')
              onp.concatenate([b.mean(0), b.std(0), [min(heights), max(heights)]])""",
              dtypes=("float64",), atol=0.8, rtol=0.0,
              note="300 crops a side: the boxes' mean and standard deviation of width, "
                   "height, left, top (atol 0.8 px, about 3 σ), and the output heights.")),
    entry(_T + "RandomFlipLeftRight",
          torch="torchvision.transforms.v2.RandomHorizontalFlip(p=0.5)", status=ARGS,
          args="no arguments; p=0.5 on both",
          gotchas=["MXNet 1.9.1's flip kernel never writes the middle column of an "
                   "odd-width image (see mx.nd.image.flip_left_right): half the time this "
                   "transform returns that column as zeros (or stale memory)"],
          teach="deep_dives/data_fast_pipelines §7. Random augmentation, on the batch",
          note="Compared: the fraction of flipped outputs over 300 calls (atol 0.12, 3 σ) "
               "and that every output is the image or its mirror (even width). " + _HWC,
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              t, ref = mt.RandomFlipLeftRight(), img.asnumpy()
              outs = [t(img).asnumpy() for _ in range(300)]
              flipped = [onp.array_equal(o, ref[:, ::-1]) for o in outs]
              valid = all(f or onp.array_equal(o, ref) for f, o in zip(flipped, outs))
              (onp.array([onp.mean(flipped)]), onp.array([valid]))""", """
              import torchvision.transforms.v2 as v2
              t, ref = v2.RandomHorizontalFlip(p=0.5), img.numpy()
              outs = [t(img.permute(2, 0, 1)).permute(1, 2, 0).numpy() for _ in range(300)]
              flipped = [onp.array_equal(o, ref[:, ::-1]) for o in outs]
              valid = all(f or onp.array_equal(o, ref) for f, o in zip(flipped, outs))
              (onp.array([onp.mean(flipped)]), onp.array([valid]))""", inputs="img=IMG(3, 4)",
              dtypes=("float64",), atol=0.12, rtol=0.0)),
    entry(_T + "RandomFlipTopBottom",
          torch="torchvision.transforms.v2.RandomVerticalFlip(p=0.5)", status=ARGS,
          args="no arguments; p=0.5 on both",
          gotchas=["MXNet 1.9.1 leaves the middle row of an odd-height image unwritten when "
                   "it flips (see mx.nd.image.flip_top_bottom)"],
          note="Compared as for RandomFlipLeftRight (even height). " + _HWC,
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              t, ref = mt.RandomFlipTopBottom(), img.asnumpy()
              outs = [t(img).asnumpy() for _ in range(300)]
              flipped = [onp.array_equal(o, ref[::-1]) for o in outs]
              valid = all(f or onp.array_equal(o, ref) for f, o in zip(flipped, outs))
              (onp.array([onp.mean(flipped)]), onp.array([valid]))""", """
              import torchvision.transforms.v2 as v2
              t, ref = v2.RandomVerticalFlip(p=0.5), img.numpy()
              outs = [t(img.permute(2, 0, 1)).permute(1, 2, 0).numpy() for _ in range(300)]
              flipped = [onp.array_equal(o, ref[::-1]) for o in outs]
              valid = all(f or onp.array_equal(o, ref) for f, o in zip(flipped, outs))
              (onp.array([onp.mean(flipped)]), onp.array([valid]))""", inputs="img=IMG(4, 3)",
              dtypes=("float64",), atol=0.12, rtol=0.0)),
    entry(_T + "RandomBrightness",
          torch="torchvision.transforms.v2.ColorJitter(brightness=brightness)", status=ARGS,
          args="brightness → brightness: the factor is uniform in [max(0, 1 − b), 1 + b] on "
               "both",
          gotchas=["uint8: the same factor gives the same pixels (see "
                   "mx.nd.image.random_brightness)", "float images: MXNet does not clip, "
                   "torchvision clips to [0, 1]"],
          note="Compared: the factor (output / input of a constant 0.25 image), 300 draws. "
              ,
          check=_stat("""
              from mxnet.gluon.data.vision import transforms as mt
              t, x = mt.RandomBrightness(0.4), nd.full((1, 1, 3), 0.25)
              onp.array([t(x).asnumpy()[0, 0, 0] / 0.25 for _ in range(300)])""", """
              import torchvision.transforms.v2 as v2
              t, x = v2.ColorJitter(brightness=0.4), torch.full((3, 1, 1), 0.25)
              onp.array([float(t(x)[0, 0, 0]) / 0.25 for _ in range(300)])""", atol=0.1)),
    entry(_T + "RandomContrast",
          torch="torchvision.transforms.v2.ColorJitter(contrast=contrast)", status=ARGS,
          args="contrast → contrast: the factor is uniform in [max(0, 1 − c), 1 + c] on both",
          gotchas=["MXNet's gray mean uses 0.299 R (torchvision 0.2989 R): uint8 results "
                   "1 grey level apart on some pixels (see mx.nd.image.random_contrast)"],
          note="Compared: the factor read off a two-pixel gray image (300 draws). ",
          check=_stat("""
              from mxnet.gluon.data.vision import transforms as mt
              t = mt.RandomContrast(0.5)
              x = nd.array([[[0.2] * 3, [0.4] * 3]])
              onp.array([(0.3 - t(x).asnumpy()[0, 0, 0]) / 0.1 for _ in range(300)])""", """
              import torchvision.transforms.v2 as v2
              t = v2.ColorJitter(contrast=0.5)
              x = torch.tensor([[[0.2, 0.4]]] * 3)
              onp.array([(0.3 - float(t(x)[0, 0, 0])) / 0.1 for _ in range(300)])""", atol=0.12)),
    entry(_T + "RandomSaturation", torch="MXSaturation(saturation)", status=RECIPE,
          recipe=_SATURATION,
          args="saturation → saturation: the factor is uniform in [max(0, 1 − s), 1 + s]",
          gotchas=["MXNet 1.9.1's saturation kernel computes its gray as 0.114·B only (a "
                   "loop that assigns instead of adding): it blends each pixel with 0.114·B, "
                   "so even a gray image changes; torchvision's ColorJitter(saturation=s) "
                   "blends with the luma and is not this"],
          note="Compared: v(0.114 + 0.886 f) on a gray image (300 draws). A port that "
               "wants real saturation jitter uses v2.ColorJitter(saturation=s) and accepts "
               "the difference. ",
          check=_stat("""
              from mxnet.gluon.data.vision import transforms as mt
              t, x = mt.RandomSaturation(0.5), nd.full((1, 1, 3), 100.0)
              onp.array([t(x).asnumpy()[0, 0, 1] for _ in range(300)])""", _SATURATION + """
t, x = MXSaturation(0.5), torch.full((3, 1, 1), 100.0)
onp.array([float(t(x)[1, 0, 0]) for _ in range(300)])""", atol=11.0)),
    entry(_T + "RandomHue", torch="torchvision.transforms.v2.ColorJitter(hue=hue)",
          status=ARGS,
          args="hue → hue (≤ 0.5): Gluon draws a factor a in [max(0, 1 − h), 1 + h] and "
               "turns the hue by a·360°, i.e. by (a − 1)·360°: torchvision's uniform "
               "[−h, h] turn",
          gotchas=["MXNet converts through HLS, torchvision through HSV: the same hue turn, "
                   "uint8 results 1 grey level apart at most (see mx.nd.image.random_hue)"],
          note="Compared: R + 10 G + 100 B of one turned colour pixel, 300 draws. ",
          check=_stat("""
              from mxnet.gluon.data.vision import transforms as mt
              t, x = mt.RandomHue(0.1), nd.array([[[200.0, 60.0, 20.0]]])
              w = onp.array([1.0, 10.0, 100.0])
              onp.array([t(x).asnumpy()[0, 0] @ w for _ in range(300)])""", """
              import torchvision.transforms.v2 as v2
              t, x = v2.ColorJitter(hue=0.1), torch.tensor([200.0, 60.0, 20.0]).view(3, 1, 1)
              w = onp.array([1.0, 10.0, 100.0])
              onp.array([(t(x / 255) * 255).numpy()[:, 0, 0] @ w for _ in range(300)])""", atol=600.0, tails=False)),
    entry(_T + "RandomColorJitter",
          torch="torchvision.transforms.v2.ColorJitter(brightness=brightness, "
                "contrast=contrast, hue=hue)", status=ARGS,
          args="brightness, contrast, hue → the same (random order of the adjustments on "
               "both); saturation > 0: its own form",
          gotchas=["Gluon's factors are 1 + U(−x, x) (not clipped at 0 as RandomBrightness "
                   "is): the same for x ≤ 1"],
          note="Compared: a weighted sum of a two-pixel uint8 image's jittered values, 1000 "
               "draws. ",
          check=_stat("""
              from mxnet.gluon.data.vision import transforms as mt
              t = mt.RandomColorJitter(brightness=0.3, contrast=0.3, hue=0.1)
              x = nd.array([[[200, 60, 20], [30, 90, 160]]], dtype='uint8')
              w = onp.arange(1, 7) ** 2
              onp.array([t(x).asnumpy().astype('float64').ravel() @ w for _ in range(300)])""",
              """
              import torchvision.transforms.v2 as v2
              t = v2.ColorJitter(brightness=0.3, contrast=0.3, hue=0.1)
              x = torch.tensor([[[200, 60, 20], [30, 90, 160]]], dtype=torch.uint8)
              w = onp.arange(1, 7) ** 2
              onp.array([t(x.permute(2, 0, 1)).permute(1, 2, 0).numpy().astype('float64')
                         .ravel() @ w for _ in range(300)])""", atol=800.0, tails=False)),
    entry(_T + "RandomColorJitter", form="saturation", when=["saturation"],
          signature=("brightness", "contrast", "saturation", "hue"),
          torch="torchvision.transforms.v2.RandomOrder([v2.ColorJitter(brightness=brightness),"
                " v2.ColorJitter(contrast=contrast), MXSaturation(saturation), "
                "v2.ColorJitter(hue=hue)])", status=RECIPE, recipe=_SATURATION,
          args="each adjustment its own transform, in a random order (as MXNet shuffles "
               "them); saturation → the recipe's MXSaturation (MXNet's kernel blends with "
               "0.114·B)",
          note="Compared as the default form, with saturation=0.4. ",
          check=_stat("""
              from mxnet.gluon.data.vision import transforms as mt
              t = mt.RandomColorJitter(brightness=0.3, contrast=0.3, saturation=0.4, hue=0.1)
              x = nd.array([[[200, 60, 20], [30, 90, 160]]], dtype='uint8')
              w = onp.arange(1, 7) ** 2
              onp.array([t(x).asnumpy().astype('float64').ravel() @ w for _ in range(300)])""",
              _SATURATION + """
import torchvision.transforms.v2 as v2
t = v2.RandomOrder([v2.ColorJitter(brightness=0.3), v2.ColorJitter(contrast=0.3),
                    MXSaturation(0.4), v2.ColorJitter(hue=0.1)])
x = torch.tensor([[[200, 60, 20], [30, 90, 160]]], dtype=torch.uint8)
w = onp.arange(1, 7) ** 2
onp.array([t(x.permute(2, 0, 1)).permute(1, 2, 0).numpy().astype('float64').ravel() @ w
           for _ in range(300)])""", atol=1000.0, tails=False)),
    entry(_T + "RandomLighting", torch="Lighting(alpha)", status=RECIPE, recipe=_LIGHTING,
          args="alpha → alpha_std: three N(0, alpha) weights of AlexNet's ImageNet "
               "eigenvectors (eigenvalues 55.46, 4.794, 1.148)",
          gotchas=["the noise is in 0-255 units: apply it before ToTensor (after ToTensor "
                   "it is 255 times too strong)", "uint8 images are clipped to 0-255 and "
                   "truncated"],
          note="Compared: the shift of each channel of a constant image (σ ≈ 3.2 for "
               "alpha 0.1; atol 1.2).",
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              from sidebyside.catalogue.harness_data import summary
              t, x = mt.RandomLighting(0.1), nd.full((1, 1, 3), 100.0)
              s = onp.array([t(x).asnumpy()[0, 0] - 100 for _ in range(300)])
              onp.concatenate([summary(s[:, k], tails=False) for k in range(3)])""",
              "from sidebyside.catalogue.harness_data import summary\n" + _LIGHTING + """
t, x = Lighting(0.1), torch.full((3, 1, 1), 100.0)
s = onp.array([t(x).numpy()[:, 0, 0] - 100 for _ in range(300)])
onp.concatenate([summary(s[:, k], tails=False) for k in range(3)])""",
              dtypes=("float64",), atol=1.2, rtol=0.0, note=_RND)),
    entry(_T + "Rotate",
          torch="torchvision.transforms.v2.functional.rotate(img, rotation_degrees, "
                "interpolation=InterpolationMode.BILINEAR)", status=ARGS,
          args="rotation_degrees → angle (counter-clockwise on both); zoom_in/zoom_out → no "
               "counterpart (not covered)",
          defaults="interpolation: bilinear vs NEAREST",
          gotchas=["Gluon takes float32 (C, H, W) only (after ToTensor; TypeError otherwise), "
                   "torchvision any dtype", "the same pixel centres and zero fill: equal to "
                   "4e-7"],
          check=check("""
              from mxnet.gluon.data.vision import transforms as mt
              (mt.Rotate(30)(x), mt.Rotate(-70)(x))""", """
              import torchvision.transforms.v2.functional as TF
              from torchvision.transforms import InterpolationMode
              (TF.rotate(x, 30, interpolation=InterpolationMode.BILINEAR),
               TF.rotate(x, -70, interpolation=InterpolationMode.BILINEAR))""",
              inputs="x=U(3, 6, 8, lo=0, hi=1)", dtypes=("float32",), rtol32=2e-6,
              note="9e-7 at most (1e-6 of the values). float32 only: MXNet's rotation refuses other dtypes.")),
    entry(_T + "RandomRotation",
          torch="torchvision.transforms.v2.RandomRotation(angle_limits, "
                "interpolation=InterpolationMode.BILINEAR)", status=ARGS,
          args="angle_limits → degrees (lower, upper); rotate_with_proba=p → "
               "v2.RandomApply([…], p=p); zoom_in/zoom_out → no counterpart",
          gotchas=["Gluon draws the angle from NumPy's global state, one per image of a "
                   "batch; torchvision's v2 turns a whole batch by one angle"],
          note="Compared: sin(angle) read off a rotated ramp image (bilinear sampling of a "
               "linear ramp is exact): Gluon rotates a batch of 300 at once, torchvision "
               "one image 300 times. ",
          check=_stat("""
              from mxnet.gluon.data.vision import transforms as mt
              from sidebyside.catalogue.harness_data import ramp
              onp.random.seed(0)
              batch = nd.array(onp.repeat(ramp(3, 3)[None], 300, axis=0))
              mt.RandomRotation((-20, 30))(batch).asnumpy()[:, 0, 0, 1]""", """
              import torchvision.transforms.v2 as v2
              from torchvision.transforms import InterpolationMode
              from sidebyside.catalogue.harness_data import ramp
              t = v2.RandomRotation((-20, 30), interpolation=InterpolationMode.BILINEAR)
              x = torch.from_numpy(ramp(3, 3))
              onp.array([float(t(x)[0, 0, 1]) for _ in range(300)])""", atol=0.1)),
    entry(_T + "RandomApply", torch="torchvision.transforms.v2.RandomApply([transforms], p=p)",
          status=ARGS,
          args="transforms → [transforms]: Gluon calls transforms(x), so it must be one block "
               "(a Compose), where torchvision takes a list; p → p",
          defaults="p=0.5 on both",
          gotchas=["a list given to Gluon's RandomApply fails when applied (TypeError: "
                   "'list' object is not callable)", "Gluon draws with Python's random "
                   "module"],
          note="Compared: the fraction of applied calls (300 each, atol 0.12 = 3 σ) and "
               "the list failure (asserted on the MXNet side).",
          check=check("""
              import random
              from mxnet.gluon.data.vision import transforms as mt
              random.seed(0)
              t = mt.RandomApply(mt.Cast('float64'), p=0.3)
              applied = onp.mean([t(img).dtype == onp.float64 for _ in range(300)])
              try:
                  mt.RandomApply([mt.Cast('float64')], p=1.0)(img)
                  fails = False
              except TypeError:
                  fails = True
              assert fails, "RandomApply([...]) now accepts a list"
              onp.array([applied])""", """
              import torchvision.transforms.v2 as v2
              t = v2.RandomApply([v2.ToDtype(torch.float64)], p=0.3)
              applied = onp.mean([t(img).dtype == torch.float64 for _ in range(300)])
              onp.array([applied])""", inputs="img=IMG(2, 2)",
              dtypes=("float64",), atol=0.12, rtol=0.0)),
]
