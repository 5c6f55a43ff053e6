"""``mx.image``: reading, decoding and resizing images with MXNet's bundled OpenCV (HWC
uint8, RGB) and their counterparts in ``torchvision.io`` / ``torch.nn.functional``
(CHW tensors). Resizing is OpenCV's arithmetic: the entries give the measured difference."""
from ..model import ARGS, COMPOSITE, RECIPE, check, entry  # noqa: F401

_H = "              from sidebyside.catalogue.harness_params import write_png, png_bytes\n"
_LEVEL = dict(rtol=0.0, atol=1.0, dtypes=("float64",),
              note="uint8 results compared as floats within 1 grey level: OpenCV rounds its "
                   "fixed-point (11-bit) bilinear weights, PyTorch rounds the float result; "
                   "measured max difference 1 level")

ENTRIES = [
    entry("mx.image.imread",
          torch="torchvision.io.read_image(filename).permute(1, 2, 0)",
          status=COMPOSITE,
          args="filename → path; flag=1 (colour) → mode=ImageReadMode.RGB; flag=0 → "
               "ImageReadMode.GRAY; to_rgb=True → RGB order (False: BGR, reverse the "
               "channels); the result is CHW in torchvision: permute(1, 2, 0) for MXNet's HWC",
          gotchas=["a PNG decodes to identical pixels on both sides; a JPEG (Pillow, quality "
                   "90) did too here (libjpeg's integer IDCT on both), other JPEG decoders "
                   "may differ by a few levels",
                   "flag=0 gives (H, W, 1) in MXNet and (1, H, W) in torchvision; the grey "
                   "values were identical here"],
          check=check(_H + """
              path = write_png(img)
              (mx.image.imread(path), mx.image.imread(path, flag=0))""", _H + """
              import torchvision
              from torchvision.io import ImageReadMode
              path = write_png(img)
              (torchvision.io.read_image(path).permute(1, 2, 0),
               torchvision.io.read_image(path, ImageReadMode.GRAY).permute(1, 2, 0))""",
              inputs="img=IMG(6, 8)", kind="exact", dtypes=("float64",))),
    entry("mx.image.imdecode",
          torch="torchvision.io.decode_image(torch.frombuffer(buf, dtype=torch.uint8))"
                ".permute(1, 2, 0)",
          status=COMPOSITE,
          args="buf (bytes) → a uint8 tensor over the bytes (torch.frombuffer); flag, "
               "to_rgb → mode, as imread",
          check=check(_H + """
              mx.image.imdecode(png_bytes(img))""", _H + """
              import torchvision
              buf = bytearray(png_bytes(img))
              torchvision.io.decode_image(torch.frombuffer(buf, dtype=torch.uint8)).permute(1, 2, 0)""",
              inputs="img=IMG(5, 7)", kind="exact", dtypes=("float64",))),
    entry("mx.image.imresize",
          torch="F.interpolate(src.permute(2, 0, 1)[None].float(), size=(h, w), "
                "mode='bilinear', align_corners=False)[0].round().clamp(0, 255)"
                ".to(torch.uint8).permute(1, 2, 0)",
          status=COMPOSITE,
          args="w, h → size=(h, w) (MXNet takes width first); interp=1 (the default, "
               "bilinear) → mode='bilinear', align_corners=False, no antialias "
               "(torchvision.transforms.functional.resize(antialias=False) gives the same); "
               "HWC uint8 → CHW float and back",
          gotchas=["measured on random uint8 images (12×16 → 7×10, 6×8, 18×24): at most 1 "
                   "grey level from F.interpolate(bilinear, align_corners=False) rounded; "
                   "on float32 images at most 2.6e-4",
                   "interp=2 (area) and 3 (bicubic) have no close PyTorch match: "
                   "F.interpolate(mode='area') differed by 46–141 levels, bicubic by 46–98 "
                   "(noise images, the worst case); interp=0: the form below"],
          check=check("""
              mx.image.imresize(img, 10, 7).astype('float64')""", """
              out = F.interpolate(img.permute(2, 0, 1)[None].float(), size=(7, 10),
                                  mode='bilinear', align_corners=False)
              out[0].round().clamp(0, 255).to(torch.uint8).permute(1, 2, 0).double()""",
              inputs="img=IMG(12, 16)", **_LEVEL)),
    entry("mx.image.imresize", form="interp=0", when=["interp=0"],
          torch="F.interpolate(src.permute(2, 0, 1)[None], size=(h, w), "
                "mode='nearest')[0].permute(1, 2, 0)",
          status=COMPOSITE,
          args="interp=0 → mode='nearest' (floor of the scaled index, as OpenCV's "
               "INTER_NEAREST), not 'nearest-exact'",
          gotchas=["mode='nearest-exact' picks other pixels (differences up to 250 levels "
                   "here); 'nearest' matched exactly, uint8 kept"],
          check=check("""
              (mx.image.imresize(img, 10, 7, interp=0), mx.image.imresize(img, 24, 18, interp=0))""",
              """
              t = img.permute(2, 0, 1)[None]
              (F.interpolate(t, size=(7, 10), mode='nearest')[0].permute(1, 2, 0),
               F.interpolate(t, size=(18, 24), mode='nearest')[0].permute(1, 2, 0))""",
              inputs="img=IMG(12, 16)", kind="exact", dtypes=("float64",))),
    entry("mx.image.resize_short", form="interp=1", when=["interp=1"],
          torch="torchvision.transforms.functional.resize(src.permute(2, 0, 1), size, "
                "antialias=False).permute(1, 2, 0)",
          status=COMPOSITE,
          args="size → size (an int: the shorter side, the longer scaled and truncated, as "
               "MXNet does); interp=1 → bilinear without antialias",
          gotchas=["measured: at most 1 grey level (OpenCV's fixed-point rounding); the "
                   "shapes agreed for 12×16, 10×14, 9×7 images and sizes 5, 6, 8, 20"],
          check=check("""
              mx.image.resize_short(img, 8, interp=1).astype('float64')""", """
              from torchvision.transforms import functional as TF
              TF.resize(img.permute(2, 0, 1), 8, antialias=False).permute(1, 2, 0).double()""",
              inputs="img=IMG(10, 14)", **_LEVEL)),
    entry("mx.image.fixed_crop",
          torch="torchvision.transforms.functional.crop(src.permute(2, 0, 1), y0, x0, h, w)"
                ".permute(1, 2, 0)",
          status=ARGS,
          args="x0, y0, w, h → top=y0, left=x0, height=h, width=w (x first in MXNet, top "
               "first in torchvision); size=(w, h) → a resize afterwards (imresize's entry)",
          check=check("""
              mx.image.fixed_crop(img, 2, 1, 5, 3)""", """
              from torchvision.transforms import functional as TF
              TF.crop(img.permute(2, 0, 1), 1, 2, 3, 5).permute(1, 2, 0)""",
              inputs="img=IMG(6, 9)", kind="exact", dtypes=("float64",))),
    entry("mx.image.center_crop",
          torch="torchvision.transforms.functional.crop(src.permute(2, 0, 1), (H - h) // 2, "
                "(W - w) // 2, h, w).permute(1, 2, 0)",
          status=COMPOSITE,
          args="size=(w, h) → crop at top=(H − h) // 2, left=(W − w) // 2; MXNet also "
               "returns the box (x0, y0, w, h); interp → only used when the image is "
               "smaller than size",
          gotchas=["torchvision's center_crop(img, [h, w]) places an odd margin "
                   "differently: it rounds (H − h) / 2 (to even: 1.5 → 2) where MXNet "
                   "floors (1): a 6×9 image cropped to 3×4 starts one row lower; crop() "
                   "with floored offsets matches"],
          check=check("""
              out, box = mx.image.center_crop(img, (4, 3))
              (out, list(box))""", """
              from torchvision.transforms import functional as TF
              H, W, h, w = 6, 9, 3, 4
              out = TF.crop(img.permute(2, 0, 1), (H - h) // 2, (W - w) // 2, h, w).permute(1, 2, 0)
              (out, [(W - w) // 2, (H - h) // 2, w, h])""",
              inputs="img=IMG(6, 9)", kind="exact", dtypes=("float64",))),
    entry("mx.image.color_normalize",
          torch="torchvision.transforms.functional.normalize(src.permute(2, 0, 1), mean, "
                "std).permute(1, 2, 0)",
          status=ARGS,
          args="src (HWC float) → CHW; mean, std → per-channel lists; std=None → std 1",
          gotchas=["MXNet subtracts and divides in place: the source array changes, and "
                   "inside autograd.record it raises; TF.normalize returns a new tensor"],
          check=check("""
              net = None  # in place (src -= mean): run outside autograd.record
              mx.image.color_normalize(x, nd.array([0.5, 0.25, -0.125], dtype=dtype),
                                       nd.array([2.0, 0.5, 4.0], dtype=dtype))""", """
              from torchvision.transforms import functional as TF
              TF.normalize(x.permute(2, 0, 1), [0.5, 0.25, -0.125],
                           [2.0, 0.5, 4.0]).permute(1, 2, 0)""",
              inputs="x=U(4, 5, 3)")),
    entry("mx.image.scale_down",
          torch="scale_down(src_size, size)",
          status=RECIPE,
          recipe="""
              def scale_down(src_size, size):          # (w, h) pairs, as MXNet's
                  w, h = size
                  sw, sh = src_size
                  if sh < h:
                      w, h = float(w * sh) / h, sh
                  if sw < w:
                      w, h = sw, float(h * sw) / w
                  return int(w), int(h)""",
          args="src_size=(w, h), size=(w, h) → the crop size shrunk to fit, keeping its "
               "aspect ratio",
          check=check("""
              [mx.image.scale_down(s, z) for s, z in [((640, 480), (720, 120)),
                                                      ((360, 1000), (480, 500)),
                                                      ((100, 100), (50, 40))]]""", """
              def scale_down(src_size, size):
                  w, h = size
                  sw, sh = src_size
                  if sh < h:
                      w, h = float(w * sh) / h, sh
                  if sw < w:
                      w, h = sw, float(h * sw) / w
                  return int(w), int(h)
              [scale_down(s, z) for s, z in [((640, 480), (720, 120)), ((360, 1000), (480, 500)),
                                             ((100, 100), (50, 40))]]""",
              kind="exact", dtypes=("float64",))),
    entry("mx.image.copyMakeBorder",
          torch="F.pad(src.permute(2, 0, 1), (left, right, top, bot), value=value)"
                ".permute(1, 2, 0)",
          status=ARGS,
          args="top, bot, left, right → pad=(left, right, top, bot) on the last two dims "
               "of a CHW tensor; type=0 (constant) → mode='constant', value → value; "
               "type=1 (replicate) → mode='replicate'; type=4 (OpenCV's REFLECT_101) → mode='reflect'; type=2 (REFLECT: the edge repeated, 2 1|1 2 3 4|4 3) has no F.pad mode "
               "(concatenate flipped slices)",
          check=check("""
              mx.image.copyMakeBorder(img, 1, 2, 3, 0, type=0, value=7)""", """
              F.pad(img.permute(2, 0, 1), (3, 0, 1, 2), value=7).permute(1, 2, 0)""",
              inputs="img=IMG(4, 5)", kind="exact", dtypes=("float64",))),
    entry("mx.image.HorizontalFlipAug",
          torch="torchvision.transforms.RandomHorizontalFlip(p)",
          status=ARGS,
          args="p → p; MXNet flips an HWC image (axis 1), torchvision a CHW tensor's "
               "last axis",
          check=check("""
              mx.image.HorizontalFlipAug(1.0)(img)""", """
              import torchvision
              torchvision.transforms.RandomHorizontalFlip(1.0)(img.permute(2, 0, 1)).permute(1, 2, 0)""",
              inputs="img=IMG(3, 4)", kind="exact", dtypes=("float64",))),
    entry("mx.image.CastAug",
          torch="src.to(getattr(torch, typ))",
          status=COMPOSITE,
          args="typ='float32' → tensor.float() / .to(torch.float32); in a transform "
               "pipeline torchvision.transforms.v2.ToDtype(torch.float32) (scale=False)",
          check=check("""
              mx.image.CastAug()(img)""", """
              img.to(getattr(torch, 'float32'))""", inputs="img=IMG(3, 4)", kind="exact",
              dtypes=("float64",))),
    entry("mx.image.CenterCropAug",
          torch="lambda img: TF.crop(img, (img.shape[-2] - h) // 2, (img.shape[-1] - w) // 2, "
                "h, w)",
          status=COMPOSITE,
          args="size=(w, h) → a crop at floored offsets on a CHW tensor (torchvision's "
               "CenterCrop rounds an odd margin the other way: mx.image.center_crop); "
               "interp → used only for images smaller than size",
          check=check("""
              mx.image.CenterCropAug((4, 3))(img)""", """
              from torchvision.transforms import functional as TF
              h, w = 3, 4
              crop = lambda im: TF.crop(im, (im.shape[-2] - h) // 2, (im.shape[-1] - w) // 2, h, w)
              crop(img.permute(2, 0, 1)).permute(1, 2, 0)""",
              inputs="img=IMG(6, 9)", kind="exact", dtypes=("float64",))),
    entry("mx.image.ColorNormalizeAug",
          torch="torchvision.transforms.Normalize(mean, std)",
          status=ARGS,
          args="mean, std → the same per-channel values, on a CHW tensor (MXNet's "
               "augmenter works on HWC)",
          check=check("""
              net = None  # in place (src -= mean): run outside autograd.record
              aug = mx.image.ColorNormalizeAug(nd.array([0.5, 0.25, -0.125], dtype=dtype),
                                               nd.array([2.0, 0.5, 4.0], dtype=dtype))
              aug(x)""", """
              import torchvision
              t = torchvision.transforms.Normalize([0.5, 0.25, -0.125], [2.0, 0.5, 4.0])
              t(x.permute(2, 0, 1)).permute(1, 2, 0)""", inputs="x=U(4, 5, 3)")),
    entry("mx.image.ResizeAug", form="interp=1", when=["interp=1"],
          torch="torchvision.transforms.Resize(size, antialias=False)",
          status=ARGS,
          args="size (shorter side) → size (an int: the shorter side too); interp=1 → "
               "bilinear without antialias; the default interp=2 (OpenCV area) has no "
               "PyTorch match (mx.image.imresize)",
          gotchas=["measured: at most 1 grey level (OpenCV's fixed-point rounding)"],
          check=check("""
              mx.image.ResizeAug(8, interp=1)(img).astype('float64')""", """
              import torchvision
              t = torchvision.transforms.Resize(8, antialias=False)
              t(img.permute(2, 0, 1)).permute(1, 2, 0).double()""",
              inputs="img=IMG(10, 14)", **_LEVEL)),
    entry("mx.image.ForceResizeAug", form="interp=1", when=["interp=1"],
          torch="torchvision.transforms.Resize((h, w), antialias=False)",
          status=ARGS,
          args="size=(w, h) → size=(h, w); interp=1 → bilinear without antialias",
          gotchas=["measured: at most 1 grey level; the default interp=2 (OpenCV area) "
                   "has no PyTorch match"],
          check=check("""
              mx.image.ForceResizeAug((10, 7), interp=1)(img).astype('float64')""", """
              import torchvision
              t = torchvision.transforms.Resize((7, 10), antialias=False)
              t(img.permute(2, 0, 1)).permute(1, 2, 0).double()""",
              inputs="img=IMG(12, 16)", **_LEVEL)),
    entry("mx.image.ImageIter",
          torch="torch.utils.data.DataLoader(ImageListDataset(imglist, path_root), "
                "batch_size=batch_size, shuffle=shuffle)",
          status=RECIPE,
          recipe="""
              import os
              import torch
              import torchvision
              from torchvision.transforms import functional as TF

              class ImageListDataset(torch.utils.data.Dataset):   # [[label, path], ...]
                  def __init__(self, imglist, root, size):          # size = (h, w)
                      self.items, self.root, self.size = imglist, root, size
                  def __len__(self):
                      return len(self.items)
                  def __getitem__(self, i):
                      label, name = self.items[i]
                      img = torchvision.io.read_image(os.path.join(self.root, name))
                      h, w = self.size                              # CenterCropAug, floored
                      img = TF.crop(img, (img.shape[1] - h) // 2, (img.shape[2] - w) // 2, h, w)
                      return img.float(), torch.tensor(label, dtype=torch.float32)

              loader = torch.utils.data.DataLoader(ImageListDataset(imglist, root, (h, w)),
                                                   batch_size=batch_size, shuffle=False)""",
          args="batch_size → batch_size; data_shape=(3, h, w) → the crop size; imglist / "
               "path_imglist + path_root → the dataset's list and folder (a folder per "
               "class: torchvision.datasets.ImageFolder); path_imgrec (RecordIO) → no "
               "reader in PyTorch (unpack the .rec first); shuffle → shuffle; aug_list → "
               "the dataset's transforms (default: CreateAugmenter(data_shape): a centre "
               "crop and a cast to float32); batches are DataBatch(data=[NCHW], "
               "label=[N]) vs (images, labels)",
          gotchas=["ImageIter yields float32 pixels 0–255 (no /255), NCHW; labels float32",
                   "the last partial batch is padded (last_batch_handle='pad', batch.pad "
                   "says how many) where DataLoader yields a short batch"],
          check=check("""
              import os
              from sidebyside.catalogue.harness_params import folder, png_bytes
              root = folder('imageiter')
              for i, im in enumerate((a, b, c, d)):
                  with open(os.path.join(root, f'{i}.png'), 'wb') as f:
                      f.write(png_bytes(im))
              it = mx.image.ImageIter(2, (3, 4, 5), imglist=[[float(i), f'{i}.png'] for i in range(4)],
                                      path_root=root)
              [(batch.data[0], batch.label[0]) for batch in it]""", """
              import os
              import torchvision
              from torchvision.transforms import functional as TF
              from sidebyside.catalogue.harness_params import folder, png_bytes
              root = folder('imageiter')
              for i, im in enumerate((a, b, c, d)):
                  with open(os.path.join(root, f'{i}.png'), 'wb') as f:
                      f.write(png_bytes(im))

              class ImageListDataset(torch.utils.data.Dataset):
                  def __init__(self, imglist, root, size):
                      self.items, self.root, self.size = imglist, root, size
                  def __len__(self):
                      return len(self.items)
                  def __getitem__(self, i):
                      label, name = self.items[i]
                      img = torchvision.io.read_image(os.path.join(self.root, name))
                      h, w = self.size
                      img = TF.crop(img, (img.shape[1] - h) // 2, (img.shape[2] - w) // 2, h, w)
                      return img.float(), torch.tensor(label, dtype=torch.float32)

              loader = torch.utils.data.DataLoader(
                  ImageListDataset([[float(i), f'{i}.png'] for i in range(4)], root, (4, 5)),
                  batch_size=2, shuffle=False)
              [(x, y) for x, y in loader]""",
              inputs="a=IMG(6, 7); b=IMG(6, 7); c=IMG(5, 5); d=IMG(4, 6)", kind="exact",
              dtypes=("float64",))),
]
