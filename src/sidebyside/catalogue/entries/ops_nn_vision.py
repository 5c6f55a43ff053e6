"""MXNet's vision operators (``contrib.BilinearResize2D``, ROI pooling and alignment, box
operators, anchors, sampling grids, correlation, deformable convolution), as PyTorch /
torchvision calls or recipes."""
from ..model import ARGS, COMPOSITE, RECIPE, RENAMED, check, entry


def _code(*parts):
    import textwrap

    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


_NMS = """
def mx_box_nms(data, overlap_thresh=0.5, valid_thresh=0.0, topk=-1, coord_start=2,
               score_index=1, id_index=-1, background_id=-1, force_suppress=False):
    # contrib.box_nms on (B, N, K) (or (N, K)): kept rows by descending score, then rows of -1
    flat = data.reshape(-1, *data.shape[-2:])
    out = torch.full_like(flat, -1.0)
    for b, rows in enumerate(flat):
        scores = rows[:, score_index]
        ok = scores > valid_thresh
        if id_index >= 0 and background_id >= 0:
            ok &= rows[:, id_index] != background_id
        cand = ok.nonzero().flatten()
        cand = cand[scores[cand].argsort(descending=True, stable=True)]
        if topk > 0:
            cand = cand[:topk]
        boxes = rows[cand, coord_start:coord_start + 4].detach()
        if id_index >= 0 and not force_suppress:
            keep = torchvision.ops.batched_nms(boxes, scores[cand].detach(),
                                               rows[cand, id_index].detach(), overlap_thresh)
        else:
            keep = torchvision.ops.nms(boxes, scores[cand].detach(), overlap_thresh)
        out[b, :len(keep)] = rows[cand[keep]]
    return out.reshape(data.shape)
"""

_CORR = """
def mx_correlation(data1, data2, kernel_size=1, max_displacement=1, stride1=1, stride2=1,
                   pad_size=0, is_multiply=True):
    # Correlation (FlowNet): one channel per displacement (dy, dx), row-major from (-d, -d)
    r = (kernel_size - 1) // 2
    p1 = F.pad(data1, [pad_size] * 4)
    p2 = F.pad(data2, [pad_size] * 4)
    height, width = p1.shape[2:]
    border = max_displacement + r
    out_h = math.ceil((height - 2 * border) / stride1)
    out_w = math.ceil((width - 2 * border) / stride1)
    ys = border + stride1 * torch.arange(out_h)
    xs = border + stride1 * torch.arange(out_w)
    n = max_displacement // stride2
    outs = []
    for dy in range(-n, n + 1):
        for dx in range(-n, n + 1):
            oy, ox = dy * stride2, dx * stride2
            parts = []
            for ky in range(-r, r + 1):
                for kx in range(-r, r + 1):
                    f1 = p1[:, :, (ys + ky)[:, None], (xs + kx)[None, :]]
                    f2 = p2[:, :, (ys + ky + oy)[:, None], (xs + kx + ox)[None, :]]
                    parts.append(f1 * f2 if is_multiply else (f1 - f2).abs())
            outs.append(torch.stack(parts).sum(0).sum(1))
    return torch.stack(outs, 1) / (kernel_size ** 2 * data1.shape[1])
"""

_DCN = """
def mx_deformable_conv(data, offset, weight, bias=None, stride=(1, 1), pad=(0, 0),
                       dilate=(1, 1), num_deformable_group=1):
    # contrib.DeformableConvolution (v1) on CPU: a sample outside [0, H) x [0, W) is 0; one
    # in the last row's (column's) cell takes that row (column), not a blend with zero
    n, _, out_h, out_w = offset.shape
    kh, kw = weight.shape[2:]
    height, width = data.shape[2:]
    shape = (n, num_deformable_group, kh, kw, out_h, out_w)
    dy, dx = offset[:, 0::2].reshape(shape), offset[:, 1::2].reshape(shape)
    base_y = (torch.arange(out_h) * stride[0] - pad[0]).view(1, 1, 1, 1, -1, 1) \
        + (torch.arange(kh) * dilate[0]).view(1, 1, -1, 1, 1, 1)
    base_x = (torch.arange(out_w) * stride[1] - pad[1]).view(1, 1, 1, 1, 1, -1) \
        + (torch.arange(kw) * dilate[1]).view(1, 1, 1, -1, 1, 1)
    ys, xs = base_y + dy, base_x + dx
    inside = (ys >= 0) & (ys < height) & (xs >= 0) & (xs < width)
    dy = torch.where(ys >= height - 1, (height - 1 - base_y).to(dy.dtype), dy)
    dx = torch.where(xs >= width - 1, (width - 1 - base_x).to(dx.dtype), dx)
    offset = torch.stack([dy, dx], 4).reshape(offset.shape)
    mask = inside.to(data.dtype).reshape(n, -1, out_h, out_w)
    return torchvision.ops.deform_conv2d(data, offset, weight, bias, stride=stride,
                                         padding=pad, dilation=dilate, mask=mask)
"""

_PRIOR = """
def mx_multibox_prior(data, sizes=(1.0,), ratios=(1.0,), clip=False, steps=(-1.0, -1.0),
                      offsets=(0.5, 0.5)):
    # contrib.MultiBoxPrior: (1, H·W·(len(sizes) + len(ratios) − 1), 4) corner anchors in [0, 1]
    height, width = data.shape[2:]
    step_y = steps[0] if steps[0] > 0 else 1.0 / height
    step_x = steps[1] if steps[1] > 0 else 1.0 / width
    cy = (torch.arange(height, dtype=data.dtype) + offsets[0]) * step_y
    cx = (torch.arange(width, dtype=data.dtype) + offsets[1]) * step_x
    shapes = [(s, ratios[0]) for s in sizes] + [(sizes[0], r) for r in ratios[1:]]
    half = []
    for s, r in shapes:
        half.append((s * height / width * r ** 0.5 / 2, s / r ** 0.5 / 2))
    half = torch.tensor(half, dtype=data.dtype)  # (A, 2): half width, half height
    cy, cx = torch.meshgrid(cy, cx, indexing="ij")
    centers = torch.stack([cx, cy], -1).reshape(-1, 1, 2)
    boxes = torch.cat([centers - half, centers + half], -1).reshape(1, -1, 4)
    return boxes.clamp(0, 1) if clip else boxes
"""

_BOXCODE = """
def _center(boxes):
    wh = boxes[..., 2:] - boxes[..., :2]
    return boxes[..., :2] + wh / 2, wh

def mx_box_encode(samples, matches, anchors, refs, means, stds):
    # contrib.box_encode: (targets, masks), both (B, N, 4); non-positive samples give 0
    g = torch.gather(refs, 1, matches.long().unsqueeze(-1).expand(-1, -1, 4))
    gc, gwh = _center(g)
    ac, awh = _center(anchors)
    t = torch.cat([(gc - ac) / awh, torch.log(gwh / awh)], -1)
    t = (t - means) / stds
    pos = (samples > 0.5).unsqueeze(-1).to(t.dtype).expand_as(t)
    return t * pos, pos

def mx_box_decode(data, anchors, std0=1.0, std1=1.0, std2=1.0, std3=1.0, clip=-1.0,
                  format="center"):
    # contrib.box_decode: corner boxes (B, N, 4) from offsets and anchors (1, N, 4)
    if format == "corner":
        ac, awh = _center(anchors)
    else:
        ac, awh = anchors[..., :2], anchors[..., 2:]
    std = torch.tensor([std0, std1, std2, std3], dtype=data.dtype)
    d = data * std
    dwh = d[..., 2:].clamp(max=clip) if clip > 0 else d[..., 2:]
    c = d[..., :2] * awh + ac
    half = torch.exp(dwh) * awh / 2
    return torch.cat([c - half, c + half], -1)
"""

_BM = """
def mx_bipartite_matching(data, threshold, is_ascend=False, topk=-1):
    # contrib.bipartite_matching on (B, N, M) scores: greedy, best score first; returns
    # (row → column, -1 unmatched) (B, N) and (column → row) (B, M), in data's dtype
    b, n, m = data.shape
    rows = torch.full((b, n), -1, dtype=data.dtype)
    cols = torch.full((b, m), -1, dtype=data.dtype)
    for i in range(b):
        order = data[i].flatten().argsort(descending=not is_ascend, stable=True)
        count = 0
        for k in order.tolist():
            r, c = divmod(k, m)
            if rows[i, r] != -1 or cols[i, c] != -1:
                continue
            score = float(data[i, r, c])
            if not (score < threshold if is_ascend else score > threshold):
                break
            rows[i, r], cols[i, c] = c, r
            count += 1
            if 0 < topk < count:  # MXNet stops after topk + 1 matches
                break
    return rows, cols
"""

_MBD = """
def mx_multibox_detection(cls_prob, loc_pred, anchor, clip=True, threshold=0.01,
                          nms_threshold=0.5, force_suppress=False,
                          variances=(0.1, 0.1, 0.2, 0.2), nms_topk=-1):
    # contrib.MultiBoxDetection (CPU, background class 0): (B, N, 6) rows [class − 1, score,
    # x1, y1, x2, y2]; the valid rows first, sorted by score; a suppressed row keeps its
    # values with class -1; the rest -1
    batch, _, n = cls_prob.shape
    out = torch.full((batch, n, 6), -1.0, dtype=cls_prob.dtype)
    a = anchor.reshape(-1, 4)
    aw, ah = a[:, 2] - a[:, 0], a[:, 3] - a[:, 1]
    ax, ay = (a[:, 0] + a[:, 2]) / 2, (a[:, 1] + a[:, 3]) / 2
    v = [float(torch.tensor(x, dtype=torch.float32)) for x in variances]
    for b in range(batch):
        score, cid = cls_prob[b, 1:].max(0)
        p = loc_pred[b].reshape(-1, 4)
        ox, oy = p[:, 0] * v[0] * aw + ax, p[:, 1] * v[1] * ah + ay
        ow, oh = torch.exp(p[:, 2] * v[2]) * aw / 2, torch.exp(p[:, 3] * v[3]) * ah / 2
        boxes = torch.stack([ox - ow, oy - oh, ox + ow, oy + oh], 1)
        if clip:
            boxes = boxes.clamp(0, 1)
        rows = torch.cat([cid[:, None].to(out.dtype), score[:, None], boxes], 1)
        rows = rows[score >= threshold]
        count = rows.shape[0]
        if count and 0 < nms_threshold <= 1:
            order = rows[:, 1].argsort(descending=True, stable=True)
            keep = min(count, nms_topk) if nms_topk > 0 else count
            best = rows[order[:keep]]
            rows = rows.clone()
            rows[keep:, 0] = -1  # past nms_topk: left unsorted, class -1
            rows[:keep] = best
            box = rows[:keep, 2:]
            lt = torch.maximum(box[:, None, :2], box[None, :, :2])
            rb = torch.minimum(box[:, None, 2:], box[None, :, 2:])
            inter = (rb - lt).clamp(min=0).prod(-1)
            area = (box[:, 2:] - box[:, :2]).prod(-1)
            union = area[:, None] + area[None, :] - inter
            iou = torch.where(union <= 0, torch.zeros_like(inter), inter / union)
            for i in range(keep):
                if rows[i, 0] < 0:
                    continue
                for j in range(i + 1, keep):
                    if rows[j, 0] >= 0 and (force_suppress or rows[i, 0] == rows[j, 0]) \
                            and iou[i, j] >= nms_threshold:
                        rows[j, 0] = -1
        out[b, :count] = rows
    return out
"""

_MBT = """
def mx_multibox_target(anchor, label, cls_pred, overlap_threshold=0.5, ignore_label=-1.0,
                       negative_mining_ratio=-1.0, negative_mining_thresh=0.5,
                       variances=(0.1, 0.1, 0.2, 0.2)):
    # contrib.MultiBoxTarget (CPU): (loc_target (B, N·4), loc_mask (B, N·4), cls_target (B, N))
    a = anchor.reshape(-1, 4)
    n, batch = a.shape[0], label.shape[0]
    loc_t = torch.zeros(batch, n, 4, dtype=anchor.dtype)
    mask = torch.zeros(batch, n, 4, dtype=anchor.dtype)
    cls_t = torch.full((batch, n), float(ignore_label), dtype=anchor.dtype)
    for b in range(batch):
        ends = (label[b, :, 0] == -1).nonzero()
        n_gt = int(ends[0]) if len(ends) else label.shape[1]  # rows up to the first -1
        if n_gt == 0:
            continue
        gt = label[b, :n_gt, 1:5]
        lt = torch.maximum(a[:, None, :2], gt[None, :, :2])
        rb = torch.minimum(a[:, None, 2:], gt[None, :, 2:])
        inter = (rb - lt).clamp(min=0).prod(-1)
        union = (a[:, 2:] - a[:, :2]).prod(-1)[:, None] + (gt[:, 2:] - gt[:, :2]).prod(-1) \
            - inter
        iou = torch.where(union == 0, torch.zeros_like(inter), inter / union).float()
        flag = torch.full((n,), -1)          # 1 positive, 0 negative, -1 ignored
        best_iou = torch.full((n,), -1.0)
        best_gt = torch.full((n,), -1)
        gt_done = torch.zeros(n_gt, dtype=torch.bool)
        num_pos = 0
        while not gt_done.all():             # greedy: each gt gets its best free anchor
            free = iou.masked_fill((flag == 1)[:, None] | gt_done[None, :], -1.0)
            k = int(free.argmax())
            if float(free.flatten()[k]) <= 1e-6:
                break
            j, g = divmod(k, n_gt)
            best_iou[j], best_gt[j], flag[j] = free[j, g], g, 1
            gt_done[g] = True
            num_pos += 1
        if overlap_threshold > 0:            # then every other anchor above the threshold
            for j in range(n):
                if flag[j] != 1:
                    best_iou[j], best_gt[j] = iou[j].max(0)
                    if best_iou[j] > overlap_threshold:
                        flag[j] = 1
                        num_pos += 1
        if negative_mining_ratio > 0:        # hardest negatives: lowest background prob.
            num_neg = min(int(num_pos * negative_mining_ratio), n - num_pos)
            prob = torch.softmax(cls_pred[b], 0)[0]
            cand = [j for j in range(n) if flag[j] == -1 and best_iou[j] < negative_mining_thresh]
            cand.sort(key=lambda j: float(prob[j]))
            for j in cand[:num_neg]:
                flag[j] = 0
        else:
            flag[flag != 1] = 0
        for j in range(n):
            if flag[j] == 1:
                g = label[b, int(best_gt[j]), 1:5].float()
                aa = a[j].float()
                aw, ah = aa[2] - aa[0], aa[3] - aa[1]
                gw, gh = g[2] - g[0], g[3] - g[1]
                v = torch.tensor(variances, dtype=torch.float32)
                t = torch.stack([((g[0] + g[2]) / 2 - (aa[0] + aa[2]) / 2) / aw / v[0],
                                 ((g[1] + g[3]) / 2 - (aa[1] + aa[3]) / 2) / ah / v[1],
                                 torch.log(gw / aw) / v[2], torch.log(gh / ah) / v[3]])
                loc_t[b, j], mask[b, j] = t.to(anchor.dtype), 1
                cls_t[b, j] = label[b, int(best_gt[j]), 0] + 1
            elif flag[j] == 0:
                cls_t[b, j] = 0
    return loc_t.reshape(batch, -1), mask.reshape(batch, -1), cls_t
"""

_PROPOSAL = """
def mx_rpn_anchors(feature_stride, scales, ratios):
    # Faster R-CNN's base anchors, as MXNet's Proposal makes them (ratios outer, scales inner)
    base = feature_stride
    center = 0.5 * (base - 1)
    out = []
    for ratio in ratios:
        for scale in scales:
            w = math.floor(math.sqrt(math.floor(base * base / ratio)) + 0.5) * scale
            h = math.floor(w / scale * ratio + 0.5) * scale
            out.append([center - 0.5 * (w - 1), center - 0.5 * (h - 1),
                        center + 0.5 * (w - 1), center + 0.5 * (h - 1)])
    return torch.tensor(out, dtype=torch.float32)


def mx_multi_proposal(cls_prob, bbox_pred, im_info, rpn_pre_nms_top_n=6000,
                      rpn_post_nms_top_n=300, threshold=0.7, rpn_min_size=16,
                      scales=(4, 8, 16, 32), ratios=(0.5, 1, 2), feature_stride=16):
    # contrib.MultiProposal (float32): rois (B·post, 5) [b, x1, y1, x2, y2], scores (B·post, 1)
    batch, two_a, height, width = cls_prob.shape
    num_a = two_a // 2
    base = mx_rpn_anchors(feature_stride, scales, ratios)              # (A, 4)
    ys, xs = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
    shift = torch.stack([xs, ys, xs, ys], -1).float() * feature_stride  # (H, W, 4)
    anchors = (shift[:, :, None] + base).reshape(-1, 4)                 # (H·W·A, 4)
    count = anchors.shape[0]
    pre = min(rpn_pre_nms_top_n if rpn_pre_nms_top_n > 0 else count, count)
    post = min(rpn_post_nms_top_n, pre)
    rois, scores = [], []
    for b in range(batch):
        score = cls_prob[b, num_a:].permute(1, 2, 0).reshape(-1).clone()
        d = bbox_pred[b].reshape(num_a, 4, height, width).permute(2, 3, 0, 1).reshape(-1, 4)
        w = anchors[:, 2] - anchors[:, 0] + 1
        h = anchors[:, 3] - anchors[:, 1] + 1
        cx, cy = anchors[:, 0] + 0.5 * (w - 1), anchors[:, 1] + 0.5 * (h - 1)
        px, py = d[:, 0] * w + cx, d[:, 1] * h + cy
        pw, ph = torch.exp(d[:, 2]) * w, torch.exp(d[:, 3]) * h
        im_h, im_w, im_scale = (float(v) for v in im_info[b])
        box = torch.stack([(px - 0.5 * (pw - 1)).clamp(0, im_w - 1),
                           (py - 0.5 * (ph - 1)).clamp(0, im_h - 1),
                           (px + 0.5 * (pw - 1)).clamp(0, im_w - 1),
                           (py + 0.5 * (ph - 1)).clamp(0, im_h - 1)], 1)
        row = torch.arange(count) // (width * num_a)
        col = (torch.arange(count) // num_a) % width
        score[(row >= int(im_h / feature_stride)) | (col >= int(im_w / feature_stride))] = -1
        min_size = rpn_min_size * im_scale                             # small boxes: score
        small = ((box[:, 2] - box[:, 0] + 1) < min_size) | ((box[:, 3] - box[:, 1] + 1) < min_size)
        box = box + small[:, None] * torch.tensor([-1.0, -1.0, 1.0, 1.0]) * (min_size / 2)
        score[small] = -1                                               # -1, box widened
        order = score.argsort(descending=True, stable=True)[:pre]
        box, score = box[order], score[order]
        area = (box[:, 2] - box[:, 0] + 1) * (box[:, 3] - box[:, 1] + 1)
        gone = torch.zeros(pre, dtype=torch.bool)
        keep = []
        for i in range(pre):                                            # NMS, IoU > threshold
            if len(keep) >= post:
                break
            if gone[i]:
                continue
            keep.append(i)
            lt = torch.maximum(box[i, :2], box[i + 1:, :2])
            rb = torch.minimum(box[i, 2:], box[i + 1:, 2:])
            inter = (rb - lt + 1).clamp(min=0).prod(1)
            gone[i + 1:] |= inter / (area[i] + area[i + 1:] - inter) > threshold
        pick = torch.tensor([keep[i % len(keep)] for i in range(rpn_post_nms_top_n)])
        rois.append(torch.cat([torch.full((rpn_post_nms_top_n, 1), float(b)), box[pick]], 1))
        scores.append(score[pick][:, None])
    return torch.cat(rois), torch.cat(scores)
"""

_RESIZE_NOTE = ("MXNet's float64 BilinearResize2D computes in float32 inside (measured: up to "
                "{} on values of order 1)")
_ROIS = "A([[0, 1.3, 2.2, 14.5, 18.1], [1, 0, 0, 19, 23], [0, 5.5, 3.1, 9.2, 11.7]])"

ENTRIES = [
    entry("mx.nd.contrib.BilinearResize2D", aliases=["mx.sym.contrib.BilinearResize2D"],
          torch="F.interpolate(data, size=(height, width), mode='bilinear', "
                "align_corners=align_corners)",
          status=ARGS,
          args="height, width → size; scale_height, scale_width → scale_factor=(sh, sw); "
               "mode='like' with a second input → size=like.shape[2:]; align_corners → "
               "align_corners (MXNet's default True); the odd_scale / to_even_* / to_odd_* "
               "modes: compute the size yourself",
          defaults="align_corners=True in MXNet; F.interpolate's default is False",
          gotchas=[_RESIZE_NOTE.format("5e-7 on outputs, 1.1e-6 on gradients"),
                   "mode='like' with a like-array of another batch size than data (1 vs 2) "
                   "corrupts memory in MXNet 1.9.1's backward (glibc 'malloc assertion "
                   "failure', or a hang; measured): give it data's batch size",
                   "F.interpolate(x, size, mode='bilinear') without align_corners=True is "
                   "another resampling (differences of order 0.1)"],
          check=check("""
              a = nd.contrib.BilinearResize2D(x, height=9, width=4)
              c = nd.contrib.BilinearResize2D(x, height=3, width=11, align_corners=False)
              e = nd.contrib.BilinearResize2D(x, scale_height=2.0, scale_width=1.5)
              g = nd.contrib.BilinearResize2D(x, y, mode='like')
              (a, c, e, g)""", """
              a = F.interpolate(x, size=(9, 4), mode='bilinear', align_corners=True)
              c = F.interpolate(x, size=(3, 11), mode='bilinear', align_corners=False)
              e = F.interpolate(x, scale_factor=(2.0, 1.5), mode='bilinear', align_corners=True)
              g = F.interpolate(x, size=y.shape[2:], mode='bilinear', align_corners=True)
              (a, c, e, g)""", inputs="x=U(2, 3, 5, 7); y=U(2, 1, 8, 3)", grad="x",
              rtol=2e-6, atol=2e-6,
              note=_RESIZE_NOTE.format("5e-7 on outputs, 1.1e-6 on gradients"))),
    entry("mx.nd.contrib.AdaptiveAvgPooling2D",
          aliases=["mx.sym.contrib.AdaptiveAvgPooling2D"],
          torch="F.adaptive_avg_pool2d(data, output_size)", status=RENAMED,
          args="output_size → output_size (an int or (h, w); MXNet's default () is 1)",
          check=check("""
              a = nd.contrib.AdaptiveAvgPooling2D(x, output_size=(3, 4))
              c = nd.contrib.AdaptiveAvgPooling2D(x, output_size=2)
              e = nd.contrib.AdaptiveAvgPooling2D(x)
              (a, c, e)""", """
              (F.adaptive_avg_pool2d(x, (3, 4)), F.adaptive_avg_pool2d(x, 2),
               F.adaptive_avg_pool2d(x, 1))""", inputs="x=U(2, 3, 5, 7)", grad="x")),
    entry("mx.nd.ROIPooling", aliases=["mx.sym.ROIPooling"],
          torch="torchvision.ops.roi_pool(data, rois, output_size=pooled_size, "
                "spatial_scale=spatial_scale)",
          status=RENAMED,
          args="rois (K, 5) [batch index, x1, y1, x2, y2] → rois in the same layout; "
               "pooled_size → output_size; spatial_scale → spatial_scale",
          check=check("nd.ROIPooling(x, r, pooled_size=(3, 2), spatial_scale=0.5)", """
              import torchvision
              torchvision.ops.roi_pool(x, r, output_size=(3, 2), spatial_scale=0.5)""",
              inputs="x=U(2, 3, 12, 10); r=" + _ROIS, grad="x")),
    entry("mx.nd.contrib.ROIAlign", aliases=["mx.sym.contrib.ROIAlign"],
          torch="torchvision.ops.roi_align(data, rois, output_size=pooled_size, "
                "spatial_scale=spatial_scale, sampling_ratio=sample_ratio, aligned=aligned)",
          status=RENAMED,
          args="rois (K, 5) [batch index, x1, y1, x2, y2] → rois; pooled_size → "
               "output_size; sample_ratio → sampling_ratio (-1: adaptive on both sides); "
               "aligned → aligned (False on both sides)",
          check=check("""
              a = nd.contrib.ROIAlign(x, r, pooled_size=(3, 2), spatial_scale=0.5)
              c = nd.contrib.ROIAlign(x, r, pooled_size=(2, 3), spatial_scale=0.5,
                                      sample_ratio=2, aligned=True)
              (a, c)""", """
              import torchvision
              a = torchvision.ops.roi_align(x, r, output_size=(3, 2), spatial_scale=0.5,
                                            sampling_ratio=-1, aligned=False)
              c = torchvision.ops.roi_align(x, r, output_size=(2, 3), spatial_scale=0.5,
                                            sampling_ratio=2, aligned=True)
              (a, c)""", inputs="x=U(2, 3, 12, 10); r=" + _ROIS, grad="x")),
    entry("mx.nd.contrib.ROIAlign", form="position_sensitive=True",
          when=["position_sensitive=True"],
          signature=("data", "rois", "pooled_size", "spatial_scale", "sample_ratio",
                     "position_sensitive", "aligned"),
          torch="torchvision.ops.ps_roi_align(data, shifted_rois, output_size=pooled_size, "
                "spatial_scale=spatial_scale, sampling_ratio=sample_ratio)",
          status=ARGS,
          args="the same channel layout (c·PH·PW + ph·PW + pw); torchvision's ps_roi_align "
               "always subtracts half a pixel (MXNet's aligned=True): with aligned=True pass "
               "rois as they are; with aligned=False (the default) shifted_rois = rois with "
               "the four coordinates + 0.5 / spatial_scale",
          gotchas=["ps_roi_align(data, rois) equals MXNet's position_sensitive ROIAlign only "
                   "with aligned=True (0.29 off with the default aligned=False)"],
          check=check("""
              a = nd.contrib.ROIAlign(x, r, pooled_size=(2, 2), spatial_scale=0.5,
                                      sample_ratio=2, position_sensitive=True)
              c = nd.contrib.ROIAlign(x, r, pooled_size=(2, 2), spatial_scale=0.5,
                                      sample_ratio=2, position_sensitive=True, aligned=True)
              (a, c)""", """
              import torchvision
              shifted = torch.cat([r[:, :1], r[:, 1:] + 0.5 / 0.5], 1)
              a = torchvision.ops.ps_roi_align(x, shifted, output_size=(2, 2),
                                               spatial_scale=0.5, sampling_ratio=2)
              c = torchvision.ops.ps_roi_align(x, r, output_size=(2, 2), spatial_scale=0.5,
                                               sampling_ratio=2)
              (a, c)""", inputs="x=U(2, 12, 8, 9); r=" + _ROIS, grad="x")),
]

# ------------------------------------------------------------------------ box operators
_BOXES = ("b=U(2, 12, 2, lo=0, hi=8); wh=U(2, 12, 2, lo=1, hi=5); "
          "cls=I(0, 3, (2, 12, 1)); sc=U(2, 12, 1, lo=0, hi=1)")
_NMS_DATA_MX = "d = nd.concat(cls.astype(dtype), sc, b, b + wh, sc * 2, dim=-1)"
_NMS_DATA_T = "d = torch.cat([cls.to(sc.dtype), sc, b, b + wh, sc * 2], -1)"
_NMS_SIG = ("data", "overlap_thresh", "valid_thresh", "topk", "coord_start", "score_index",
            "id_index", "background_id", "force_suppress")

ENTRIES += [
    entry("mx.nd.contrib.box_nms", aliases=["mx.sym.contrib.box_nms"],
          torch="mx_box_nms(data, overlap_thresh, valid_thresh, topk, coord_start, "
                "score_index, id_index, background_id, force_suppress)",
          status=RECIPE, recipe="import torchvision\n" + _NMS,
          args="data (B, N, K) rows [id, score, x1, y1, x2, y2, …] → the same array: the "
               "kept rows in descending score, then rows of -1 (torchvision.ops.nms returns "
               "indices); overlap_thresh → iou_threshold (suppress IoU > it); valid_thresh: "
               "rows with score ≤ it are dropped first; topk: only the topk best-scored "
               "rows take part; id_index ≥ 0 and force_suppress=False → per class "
               "(torchvision.ops.batched_nms); background_id: that class dropped; in_format/"
               "out_format='center': convert with torchvision.ops.box_convert (not in the "
               "recipe)",
          defaults="overlap_thresh=0.5, valid_thresh=0, topk=-1, id_index=-1 (class-agnostic)",
          gotchas=["MXNet keeps the array's shape: (B, N, K) in and out, suppressed rows "
                   "filled with -1 at the end; torchvision.ops.nms returns the kept indices",
                   "the gradient goes to each kept row's original position, 0 for the "
                   "suppressed ones (the recipe's indexing does the same)"],
          check=check(_code(_NMS_DATA_MX, """
              a = nd.contrib.box_nms(d)
              c = nd.contrib.box_nms(d, overlap_thresh=0.3, valid_thresh=0.2, topk=8,
                                     id_index=0)
              e = nd.contrib.box_nms(d, id_index=0, background_id=1, force_suppress=True)
              (a, c, e)"""), _code("import torchvision", _NMS, _NMS_DATA_T, """
              a = mx_box_nms(d)
              c = mx_box_nms(d, overlap_thresh=0.3, valid_thresh=0.2, topk=8, id_index=0)
              e = mx_box_nms(d, id_index=0, background_id=1, force_suppress=True)
              (a, c, e)"""), inputs=_BOXES, grad="b, sc")),
    entry("mx.nd.contrib.box_non_maximum_suppression",
          aliases=["mx.sym.contrib.box_non_maximum_suppression"],
          torch="mx_box_nms(data, overlap_thresh, valid_thresh, topk, coord_start, "
                "score_index, id_index, background_id, force_suppress)",
          status=RECIPE, recipe="import torchvision\n" + _NMS,
          args="another name of contrib.box_nms: the same arguments and recipe",
          check=check(_code(_NMS_DATA_MX, """
              nd.contrib.box_non_maximum_suppression(d, overlap_thresh=0.4, id_index=0)"""),
              _code("import torchvision", _NMS, _NMS_DATA_T, """
              mx_box_nms(d, overlap_thresh=0.4, id_index=0)"""), inputs=_BOXES,
              grad="b, sc")),
    entry("mx.nd.contrib.box_iou", aliases=["mx.sym.contrib.box_iou"],
          torch="torchvision.ops.box_iou(lhs, rhs).detach()", status=ARGS,
          args="lhs (…, 4), rhs (…, 4) corner boxes → 2-D (N, 4), (M, 4) in torchvision: "
               "reshape(-1, 4) and reshape the result to lhs.shape[:-1] + rhs.shape[:-1]; "
               "format='center' → torchvision.ops.box_convert(b, 'cxcywh', 'xyxy') first",
          gotchas=["MXNet's box_iou back-propagates zeros; torchvision's box_iou is "
                   "differentiable: detach() to keep MXNet's behaviour"],
          check=check("""
              a = nd.contrib.box_iou(l, r)
              c = nd.contrib.box_iou(l3, r, format='center')
              (a, c)""", """
              import torchvision
              a = torchvision.ops.box_iou(l, r).detach()
              c = torchvision.ops.box_iou(
                  torchvision.ops.box_convert(l3.reshape(-1, 4), 'cxcywh', 'xyxy'),
                  torchvision.ops.box_convert(r, 'cxcywh', 'xyxy')).reshape(2, 3, 3).detach()
              (a, c)""",
              inputs="p=U(4, 2, lo=0, hi=5); l=A(onp.concatenate([p, p + 2], 1)); "
                     "q=U(3, 2, lo=0, hi=5); r=A(onp.concatenate([q, q + 1.5], 1)); "
                     "l3=A(onp.concatenate([U(2, 3, 2, lo=2, hi=5), U(2, 3, 2, lo=1, hi=3)],"
                     " -1))", grad="l, r")),
    entry("mx.nd.contrib.box_encode", aliases=["mx.sym.contrib.box_encode"],
          torch="mx_box_encode(samples, matches, anchors, refs, means, stds)",
          status=RECIPE, recipe=_BOXCODE,
          args="samples (B, N) (+1 positive), matches (B, N) indices into refs (B, M, 4), "
               "anchors (B, N, 4), all corner → (targets, masks) (B, N, 4): "
               "((Δcenter / anchor size, log(size ratio)) − means) / stds, zero where the "
               "sample is not positive",
          check=check("nd.contrib.box_encode(s, m, an, rf, mu, sd)",
                      _code(_BOXCODE, "mx_box_encode(s, m, an, rf, mu, sd)"),
                      inputs="s=A([[1, -1, 0, 1, 1], [0, 1, 1, -1, 1]]); "
                             "m=A([[0, 2, 1, 1, 2], [2, 0, 1, 1, 0]]); "
                             "a0=U(2, 5, 2, lo=0, hi=5); an=A(onp.concatenate([a0, a0 + "
                             "U(2, 5, 2, lo=0.5, hi=3)], -1)); r0=U(2, 3, 2, lo=0, hi=5); "
                             "rf=A(onp.concatenate([r0, r0 + U(2, 3, 2, lo=0.5, hi=3)], -1)); "
                             "mu=A([0.1, 0, -0.1, 0.2]); sd=A([0.1, 0.1, 0.2, 0.2])")),
    entry("mx.nd.contrib.box_decode", aliases=["mx.sym.contrib.box_decode"],
          torch="mx_box_decode(data, anchors, std0, std1, std2, std3, clip, format)",
          status=RECIPE, recipe=_BOXCODE,
          args="data (B, N, 4) offsets, anchors (1, N, 4) in `format` ('center' by default: "
               "[x, y, w, h]) → corner boxes; std0..std3 multiply the offsets; clip > 0 "
               "caps the scaled log-size offsets before exp",
          gotchas=["std0..std3 and clip are float32 fields (std 0.1 gives 2e-8 relative on "
                   "float64 results if written 0.1 in PyTorch)",
                   "format names the *anchors'* format; the output is always corner",
                   "MXNet back-propagates zeros through box_decode (measured); the recipe is "
                   "differentiable: detach() it to keep MXNet's behaviour"],
          check=check("""
              a = nd.contrib.box_decode(x, an)
              c = nd.contrib.box_decode(x, an, std0=0.5, std1=0.25, std2=0.5, std3=2.0,
                                        clip=0.5)
              e = nd.contrib.box_decode(x, ac, format='corner')
              (a, c, e)""", _code(_BOXCODE, """
              a = mx_box_decode(x, an)
              c = mx_box_decode(x, an, 0.5, 0.25, 0.5, 2.0, clip=0.5)
              e = mx_box_decode(x, ac, format='corner')
              (a.detach(), c.detach(), e.detach())"""),
              inputs="x=U(2, 5, 4); an=A(onp.concatenate([U(1, 5, 2, lo=0, hi=5), "
                     "U(1, 5, 2, lo=0.5, hi=3)], -1)); a0=U(1, 5, 2, lo=0, hi=5); "
                     "ac=A(onp.concatenate([a0, a0 + U(1, 5, 2, lo=0.5, hi=3)], -1))",
              grad="x")),
    entry("mx.nd.contrib.bipartite_matching", aliases=["mx.sym.contrib.bipartite_matching"],
          torch="mx_bipartite_matching(data, threshold, is_ascend, topk)",
          status=RECIPE, recipe=_BM,
          args="data (B, N, M) scores → (row → column, column → row), -1 where unmatched, "
               "in data's float dtype; greedy from the best score; threshold: a score must "
               "be > it (< with is_ascend=True)",
          gotchas=["topk=k stops after k + 1 matches in MXNet 1.9.1 (it tests count > topk "
                   "after matching): the recipe reproduces it",
                   "the indices come back as floats"],
          check=check("""
              a = nd.contrib.bipartite_matching(s, threshold=1e-12)
              c = nd.contrib.bipartite_matching(s, threshold=0.3, topk=2)
              e = nd.contrib.bipartite_matching(s, threshold=0.7, is_ascend=True)
              (a, c, e)""", _code(_BM, """
              a = mx_bipartite_matching(s, 1e-12)
              c = mx_bipartite_matching(s, 0.3, topk=2)
              e = mx_bipartite_matching(s, 0.7, is_ascend=True)
              (a, c, e)"""), inputs="s=U(2, 5, 4, lo=0, hi=1)", kind="exact")),
    entry("mx.nd.contrib.MultiBoxPrior", aliases=["mx.sym.contrib.MultiBoxPrior"],
          torch="mx_multibox_prior(data, sizes, ratios, clip, steps, offsets)",
          status=RECIPE, recipe=_PRIOR,
          args="data: only its (H, W) is read; sizes, ratios → the anchors per position "
               "(every size with ratios[0], then sizes[0] with each other ratio); steps "
               "(-1: 1/H, 1/W), offsets as named; output (1, H·W·A, 4) corner boxes in "
               "[0, 1] units",
          gotchas=["float32 only on CPU: a float64 input raises 'Unsupported data type' "
                   "(measured)",
                   "the width carries a factor H/W: anchors are square in pixels, not in "
                   "normalised units"],
          check=check("""
              a = nd.contrib.MultiBoxPrior(x)
              c = nd.contrib.MultiBoxPrior(x, sizes=(0.3, 0.5), ratios=(1, 2, 0.5),
                                           clip=True, steps=(0.2, 0.1), offsets=(0.3, 0.6))
              (a, c)""", _code(_PRIOR, """
              a = mx_multibox_prior(x)
              c = mx_multibox_prior(x, (0.3, 0.5), (1, 2, 0.5), True, (0.2, 0.1), (0.3, 0.6))
              (a, c)"""), inputs="x=U(2, 3, 4, 6)", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CPU MultiBoxPrior has no float64 kernel")),
]

# -------------------------------------------------------- sampling grids and correlation
ENTRIES += [
    entry("mx.nd.GridGenerator", aliases=["mx.sym.GridGenerator"],
          torch="F.affine_grid(data.reshape(-1, 2, 3), (N, C, *target_shape), "
                "align_corners=True).permute(0, 3, 1, 2)",
          status=COMPOSITE,
          args="transform_type='affine': data (N, 6) → theta (N, 2, 3); target_shape → the "
               "size's last two entries; MXNet's grid is (N, 2, H, W), PyTorch's "
               "(N, H, W, 2): permute",
          defaults="align_corners: MXNet's grid spans the corner pixels' centres "
                   "(align_corners=True); F.affine_grid's default is False",
          gotchas=["float32 only: float64 raises 'Other DTypes are not supported!' "
                   "(measured)"],
          check=check("nd.GridGenerator(th, transform_type='affine', target_shape=(4, 5))",
                      "F.affine_grid(th.reshape(-1, 2, 3), (2, 1, 4, 5), "
                      "align_corners=True).permute(0, 3, 1, 2)",
                      inputs="th=A(U(2, 6) * 0.5 + onp.array([1, 0, 0, 0, 1, 0]))",
                      grad="th", dtypes=("float32",),
                      note="float32 only: MXNet 1.9.1's GridGenerator has no float64 "
                           "kernel")),
    entry("mx.nd.GridGenerator", form="transform_type='warp'",
          when=["transform_type='warp'"], signature=("data", "transform_type"),
          torch="torch.stack([(xs + data[:, 0]) / ((W - 1) / 2) - 1, "
                "(ys + data[:, 1]) / ((H - 1) / 2) - 1], 1)",
          status=COMPOSITE,
          args="data (N, 2, H, W): a flow in pixels (x then y) added to each pixel's "
               "position, normalised to [-1, 1] with the corner pixels at ±1; xs, ys = "
               "torch.meshgrid(arange(W), arange(H)) laid out (H, W)",
          check=check("nd.GridGenerator(f, transform_type='warp')", """
              ys, xs = torch.meshgrid(torch.arange(4, dtype=f.dtype),
                                      torch.arange(5, dtype=f.dtype), indexing='ij')
              torch.stack([(xs + f[:, 0]) / ((5 - 1) / 2) - 1,
                           (ys + f[:, 1]) / ((4 - 1) / 2) - 1], 1)""",
              inputs="f=U(2, 2, 4, 5)", grad="f", dtypes=("float32",),
              note="float32 only: no float64 kernel")),
    entry("mx.nd.BilinearSampler", aliases=["mx.sym.BilinearSampler"],
          torch="F.grid_sample(data, grid.permute(0, 2, 3, 1), mode='bilinear', "
                "padding_mode='zeros', align_corners=True)",
          status=ARGS,
          args="grid (N, 2, H, W) (x then y, in [-1, 1]) → (N, H, W, 2): permute; "
               "align_corners=True; outside the input: zeros",
          defaults="align_corners: True in MXNet's sampler; F.grid_sample's default False "
                   "(0.72 off, measured)",
          check=check("nd.BilinearSampler(x, g)", """
              F.grid_sample(x, g.permute(0, 2, 3, 1), mode='bilinear', padding_mode='zeros',
                            align_corners=True)""",
              inputs="x=U(2, 3, 6, 7); g=U(2, 2, 4, 5, lo=-1.1, hi=1.1)", grad="x, g")),
    entry("mx.nd.SpatialTransformer", aliases=["mx.sym.SpatialTransformer"],
          torch="F.grid_sample(data, F.affine_grid(loc.reshape(-1, 2, 3), (N, C, "
                "*target_shape), align_corners=True), align_corners=True)",
          status=COMPOSITE,
          args="loc (N, 6) → theta; target_shape → the output size; transform_type="
               "'affine', sampler_type='bilinear' (the only values)",
          gotchas=["both PyTorch calls need align_corners=True"],
          check=check("""
              nd.SpatialTransformer(x, th, target_shape=(4, 5), transform_type='affine',
                                    sampler_type='bilinear')""", """
              grid = F.affine_grid(th.reshape(-1, 2, 3), (2, 3, 4, 5), align_corners=True)
              F.grid_sample(x, grid, align_corners=True)""",
              inputs="x=U(2, 3, 6, 7); th=A(U(2, 6) * 0.5 + onp.array([1, 0, 0, 0, 1, 0]))",
              grad="x, th", dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's SpatialTransformer has no float64 kernel")),
    entry("mx.nd.Correlation", aliases=["mx.sym.Correlation"],
          torch="mx_correlation(data1, data2, kernel_size, max_displacement, stride1, "
                "stride2, pad_size, is_multiply)",
          status=RECIPE, recipe="import math\n" + _CORR,
          args="FlowNet's correlation layer: one output channel per displacement, "
               "(2·(max_displacement // stride2) + 1)² of them, the mean over channels and "
               "the k×k patch of data1·shifted data2 (is_multiply=False: |difference|)",
          check=check("""
              a = nd.Correlation(x1, x2, max_displacement=2, stride1=2, pad_size=2)
              c = nd.Correlation(x1, x2, kernel_size=3, max_displacement=4, stride2=2,
                                 pad_size=3)
              e = nd.Correlation(x1, x2, kernel_size=3, max_displacement=1, stride1=2,
                                 is_multiply=False)
              (a, c, e)""", _code("import math", _CORR, """
              a = mx_correlation(x1, x2, max_displacement=2, stride1=2, pad_size=2)
              c = mx_correlation(x1, x2, 3, 4, stride2=2, pad_size=3)
              e = mx_correlation(x1, x2, 3, 1, stride1=2, is_multiply=False)
              (a, c, e)"""), inputs="x1=U(2, 3, 9, 10); x2=U(2, 3, 9, 10)",
              grad="x1, x2")),
    entry("mx.nd.contrib.DeformableConvolution",
          aliases=["mx.sym.contrib.DeformableConvolution"],
          torch="mx_deformable_conv(data, offset, weight, bias, stride, pad, dilate, "
                "num_deformable_group)",
          status=RECIPE, recipe="import torchvision\n" + _DCN,
          args="offset (N, 2·dg·kh·kw, H', W') in the same (y, x) layout as torchvision; "
               "weight, bias, stride, pad, dilate, num_group (groups follow from the weight)"
               " as F.conv2d; no_bias=True → bias=None",
          gotchas=["torchvision.ops.deform_conv2d alone differs at the borders (1.35 "
                   "measured): MXNet's CPU v1 kernel gives 0 for a sample outside [0, H) × "
                   "[0, W) and clamps one in the last row's/column's cell to that row, where "
                   "torchvision blends with zeros over (-1, H); the recipe masks and moves "
                   "those samples"],
          check=check("""
              nd.contrib.DeformableConvolution(x, off, w, b, kernel=(3, 3), stride=(2, 2),
                                               pad=(1, 1), num_filter=6, num_group=2,
                                               num_deformable_group=2)""",
              _code("import torchvision", _DCN, """
              mx_deformable_conv(x, off, w, b, (2, 2), (1, 1), (1, 1), 2)"""),
              inputs="x=U(2, 4, 7, 8); off=U(2, 36, 4, 4, lo=-2, hi=2); w=U(6, 2, 3, 3); "
                     "b=U(6)", grad="x, off, w, b")),
    entry("mx.nd.contrib.ModulatedDeformableConvolution",
          aliases=["mx.sym.contrib.ModulatedDeformableConvolution"],
          torch="torchvision.ops.deform_conv2d(data, offset, weight, bias, stride=stride, "
                "padding=pad, dilation=dilate, mask=mask)",
          status=RENAMED,
          gotchas=["on CPU MXNet 1.9.1 has the forward pass only: backward() raises "
                   "'only implemented in GPU' (measured, float32 and float64); torchvision's "
                   "is differentiable on CPU"],
          args="offset (N, 2·dg·kh·kw, H', W'), mask (N, dg·kh·kw, H', W') → offset, mask "
               "(same layouts); stride, pad, dilate → stride, padding, dilation; "
               "num_group, num_deformable_group follow from the shapes",
          check=check("""
              nd.contrib.ModulatedDeformableConvolution(
                  x, off, m, w, b, kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=6,
                  num_group=2, num_deformable_group=2)""", """
              import torchvision
              torchvision.ops.deform_conv2d(x, off, w, b, stride=(2, 2), padding=(1, 1),
                                            mask=m)""",
              inputs="x=U(2, 4, 7, 8); off=U(2, 36, 4, 4, lo=-2, hi=2); "
                     "m=U(2, 18, 4, 4, lo=0, hi=1); w=U(6, 2, 3, 3); b=U(6)",
              note="forward only: MXNet 1.9.1's CPU backward raises 'only implemented in "
                   "GPU'")),
]

# ------------------------------------------------------------ SSD training and detection
_ANCHORS = ("xy=U(1, 30, 2, lo=0, hi=0.8); "
            "anc=A(onp.concatenate([xy, xy + U(1, 30, 2, lo=0.1, hi=0.4)], -1))")
_GT = ("gt=A([[[0, .1, .1, .3, .4], [2, .5, .2, .8, .5], [1, .3, .5, .6, .9]], "
       "[[1, .2, .2, .5, .5], [0, .6, .6, .9, .8], [-1, -1, -1, -1, -1]]])")

ENTRIES += [
    entry("mx.nd.contrib.MultiBoxDetection", aliases=["mx.sym.contrib.MultiBoxDetection"],
          torch="mx_multibox_detection(cls_prob, loc_pred, anchor, clip, threshold, "
                "nms_threshold, force_suppress, variances, nms_topk)",
          status=RECIPE, recipe="import torch\n" + _MBD,
          args="cls_prob (B, C, N) with class 0 the background, loc_pred (B, N·4), anchor "
               "(1, N, 4) corner → (B, N, 6) rows [class − 1, score, x1, y1, x2, y2]: each "
               "anchor's best non-background class, its offsets decoded with variances, "
               "clipped to [0, 1] (clip=True), kept when score ≥ threshold, per-class NMS "
               "(IoU ≥ nms_threshold suppresses; force_suppress: across classes) over the "
               "nms_topk best; background_id: the CPU kernel always takes class 0",
          gotchas=["float32 only on CPU: float64 raises 'Unsupported data type' (measured)",
                   "a suppressed detection keeps its score and box with class -1 (not a row "
                   "of -1s); past the valid rows everything is -1",
                   "IoU ≥ nms_threshold suppresses (torchvision.ops.nms: > )"],
          check=check("""
              c = p.transpose((0, 2, 1))
              a = nd.contrib.MultiBoxDetection(c, loc, anc)
              e = nd.contrib.MultiBoxDetection(c, loc, anc, clip=False, threshold=0.3,
                                               nms_threshold=0.3, force_suppress=True,
                                               nms_topk=5, variances=(0.2, 0.2, 0.1, 0.1))
              (a, e)""", _code(_MBD, """
              c = p.transpose(1, 2)
              a = mx_multibox_detection(c, loc, anc)
              e = mx_multibox_detection(c, loc, anc, clip=False, threshold=0.3,
                                        nms_threshold=0.3, force_suppress=True, nms_topk=5,
                                        variances=(0.2, 0.2, 0.1, 0.1))
              (a, e)"""), inputs="p=PROBS(2, 30, 4); loc=U(2, 120); " + _ANCHORS,
              dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CPU MultiBoxDetection has no float64 "
                   "kernel")),
    entry("mx.nd.contrib.MultiBoxTarget", aliases=["mx.sym.contrib.MultiBoxTarget"],
          torch="mx_multibox_target(anchor, label, cls_pred, overlap_threshold, "
                "ignore_label, negative_mining_ratio, negative_mining_thresh, variances)",
          status=RECIPE, recipe="import torch\n" + _MBT,
          args="anchor (1, N, 4), label (B, M, 5) rows [class, x1, y1, x2, y2] ending at "
               "the first row of -1, cls_pred (B, C, N) (read only for negative mining) → "
               "(loc_target (B, N·4), loc_mask (B, N·4), cls_target (B, N)): each ground "
               "truth greedily takes its best anchor, then every anchor with IoU > "
               "overlap_threshold; positives get class + 1 and encoded offsets (÷ "
               "variances); the rest 0 (background), or, with negative_mining_ratio > 0, "
               "ratio × positives hardest negatives (lowest background probability, IoU < "
               "negative_mining_thresh) get 0 and the others ignore_label",
          gotchas=["float32 only on CPU: float64 raises 'Unsupported data type' (measured)",
                   "minimum_negative_samples is not used by the CPU kernel",
                   "a batch item without ground truth keeps loc 0, mask 0 and ignore_label"],
          check=check("""
              c = nd.contrib.MultiBoxTarget(anc, gt, cp)
              e = nd.contrib.MultiBoxTarget(anc, gt, cp, overlap_threshold=0.3,
                                            negative_mining_ratio=2, ignore_label=-2,
                                            variances=(0.2, 0.2, 0.1, 0.1))
              (c, e)""", _code(_MBT, """
              c = mx_multibox_target(anc, gt, cp)
              e = mx_multibox_target(anc, gt, cp, overlap_threshold=0.3,
                                     negative_mining_ratio=2, ignore_label=-2,
                                     variances=(0.2, 0.2, 0.1, 0.1))
              (c, e)"""), inputs=_ANCHORS + "; " + _GT + "; cp=U(2, 4, 30)",
              dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's CPU MultiBoxTarget has no float64 kernel")),
]

_PROP_KW = ("rpn_pre_nms_top_n=50, rpn_post_nms_top_n=20, threshold=0.5, rpn_min_size=8, "
            "scales=(2, 4), ratios=(0.5, 1, 2), feature_stride=16")
_PROP_IN = ("cp=U(2, 12, 5, 6, lo=0, hi=1); bp=U(2, 24, 5, 6, lo=-0.3, hi=0.3); "
            "info=A([[70, 90, 1.0], [64, 80, 0.5]])")
_PROP_ARGS = ("cls_prob (B, 2A, H, W) (background then foreground probabilities), bbox_pred "
              "(B, 4A, H, W), im_info (B, 3) [height, width, scale] → rois (B·post, 5) [batch "
              "index, x1, y1, x2, y2] and, with output_score=True, scores (B·post, 1): "
              "Faster R-CNN anchors (ratios × scales of a feature_stride square, Detectron's "
              "+1 pixel convention), decoded, clipped to the image, scored -1 when smaller "
              "than rpn_min_size·scale or outside the valid feature map, the "
              "rpn_pre_nms_top_n best kept, NMS (IoU > threshold), the first "
              "rpn_post_nms_top_n kept")
_PROP_GOTCHAS = ["float32 only: float64 raises 'Unsupported data type' (measured)",
                 "fewer than rpn_post_nms_top_n survivors: MXNet repeats them cyclically to "
                 "fill the rows (not padding with zeros)",
                 "a box below the minimum size is *widened* by min_size/2 on each side and "
                 "scored -1, not removed",
                 "areas and IoU use the +1 pixel convention (x2 − x1 + 1): "
                 "torchvision.ops.nms does not"]

ENTRIES += [
    entry("mx.nd.contrib.MultiProposal", aliases=["mx.sym.contrib.MultiProposal"],
          torch="mx_multi_proposal(cls_prob, bbox_pred, im_info, rpn_pre_nms_top_n, "
                "rpn_post_nms_top_n, threshold, rpn_min_size, scales, ratios, "
                "feature_stride)",
          status=RECIPE, recipe="import math\n\nimport torch\n" + _PROPOSAL,
          args=_PROP_ARGS + "; iou_loss=True (corner deltas) is not in the recipe",
          gotchas=_PROP_GOTCHAS,
          check=check(f"""
              nd.contrib.MultiProposal(cp, bp, info, output_score=True, {_PROP_KW})""",
              _code("import math", _PROPOSAL, f"""
              mx_multi_proposal(cp, bp, info, {_PROP_KW})"""), inputs=_PROP_IN,
              dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's proposal kernels are real_t")),
    entry("mx.nd.contrib.Proposal", aliases=["mx.sym.contrib.Proposal"],
          torch="mx_multi_proposal(cls_prob, bbox_pred, im_info, rpn_pre_nms_top_n, "
                "rpn_post_nms_top_n, threshold, rpn_min_size, scales, ratios, "
                "feature_stride)",
          status=RECIPE, recipe="import math\n\nimport torch\n" + _PROPOSAL,
          args="the one-image MultiProposal (batch of 1): " + _PROP_ARGS,
          gotchas=_PROP_GOTCHAS,
          check=check(f"""
              nd.contrib.Proposal(cp[:1], bp[:1], info[:1], output_score=True, {_PROP_KW})""",
              _code("import math", _PROPOSAL, f"""
              mx_multi_proposal(cp[:1], bp[:1], info[:1], {_PROP_KW})"""), inputs=_PROP_IN,
              dtypes=("float32",),
              note="float32 only: MXNet 1.9.1's proposal kernels are real_t")),
]
