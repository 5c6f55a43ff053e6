"""Plot helpers: draw with Agg, keep the data they were given, refuse bad input clearly."""
import matplotlib

matplotlib.use("Agg")

import mxnet as mx  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from sidebyside import plotting  # noqa: E402


def _render(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    width, height = canvas.get_width_height()
    assert width > 0 and height > 0
    return np.asarray(canvas.buffer_rgba())


def test_curves_two_frameworks_on_shared_axes():
    pt = torch.linspace(2.0, 0.5, 50)
    mx_loss = mx.nd.array(np.linspace(2.0, 0.5, 50))
    fig = plotting.curves({"loss per step": {"PyTorch": pt, "Gluon": mx_loss},
                           "test accuracy": {"PyTorch": [0.8, 0.85], "Gluon": [0.8, 0.85]}},
                          xlabel={"loss per step": "step", "test accuracy": "epoch"})
    _render(fig)
    loss_ax, acc_ax = fig.axes
    assert [ln.get_label() for ln in loss_ax.get_lines()] == ["PyTorch", "Gluon"]
    np.testing.assert_allclose(loss_ax.get_lines()[1].get_ydata(), np.linspace(2.0, 0.5, 50),
                               rtol=1e-6)
    assert list(acc_ax.get_lines()[0].get_xdata()) == [1, 2]
    assert (loss_ax.get_xlabel(), acc_ax.get_xlabel()) == ("step", "epoch")
    styles = [ln.get_linestyle() for ln in loss_ax.get_lines()]
    assert styles[0] != styles[1], "identical curves must both stay visible"


def test_curves_wrap_into_rows_of_two():
    three = {t: {"PyTorch": [1.0, 0.5]} for t in ("loss", "accuracy", "gap")}
    fig = plotting.curves(three)
    _render(fig)
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in shown] == ["loss", "accuracy", "gap"]
    assert [ax.get_subplotspec().rowspan.start for ax in shown] == [0, 0, 1]
    width, height = fig.get_size_inches()
    assert width == pytest.approx(2 * 4.6) and height == pytest.approx(2 * 3.2)
    one_row = plotting.curves(three, columns=3)
    assert one_row.get_size_inches()[0] == pytest.approx(3 * 4.6)
    assert plotting.curves({"loss": {"PyTorch": [1.0]}}).get_size_inches()[0] == \
        pytest.approx(4.6)
    with pytest.raises(ValueError, match="columns must be a positive int"):
        plotting.curves(three, columns=0)


def test_figures_display_as_png_without_pyplot():
    fig = plotting.curves({"loss": {"PyTorch": [2.0, 1.0]}})
    png = fig._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    grid = plotting.sample_grid({"a": (np.zeros((2, 4, 4)), [0, 1])})
    assert grid._repr_png_().startswith(b"\x89PNG")
    assert repr(fig).startswith("<Picture size")


def test_curves_log_scale_explicit_x_and_gaps_for_nonfinite():
    fig = plotting.curves({"|Δ loss|": {"a": [1e-6, 1e-3, np.inf], "b": [1e-5, np.nan, 1.0]}},
                          logy=["|Δ loss|"], x={"|Δ loss|": [10, 20, 30]}, xlabel="step")
    _render(fig)
    (ax,) = fig.axes
    assert ax.get_yscale() == "log"
    assert list(ax.get_lines()[0].get_xdata()) == [10, 20, 30]
    assert np.isnan(ax.get_lines()[0].get_ydata()[2])


@pytest.mark.parametrize("panels, exc, match", [
    ({}, ValueError, "empty"),
    ([1, 2], TypeError, "mapping"),
    ({"loss": {}}, ValueError, "'loss'"),
    ({"loss": [1, 2]}, ValueError, "'loss'"),
    ({"loss": {"PyTorch": [1, 2, 3], "Gluon": [1, 2]}}, ValueError, "different lengths"),
    ({"loss": {"PyTorch": [[1, 2], [3, 4]]}}, ValueError, "1-D"),
    ({"loss": {"PyTorch": []}}, ValueError, "empty"),
    ({"loss": {"PyTorch": ["a", "b"]}}, TypeError, "numbers"),
    ({"loss": {"PyTorch": object()}}, TypeError, "series 'PyTorch'"),
])
def test_curves_bad_input(panels, exc, match):
    with pytest.raises(exc, match=match):
        plotting.curves(panels)


def test_curves_smooth_is_a_trailing_running_mean():
    fig = plotting.curves({"acc": {"PyTorch": [0.0, 1.0, 0.0, 1.0]}, "loss": {"g": [3, 2, 1]}},
                          smooth={"acc": 2})
    acc_ax, loss_ax = fig.axes
    assert list(acc_ax.get_lines()[0].get_ydata()) == [0.5, 0.5, 0.5]
    assert list(acc_ax.get_lines()[0].get_xdata()) == [2, 3, 4]
    assert list(loss_ax.get_lines()[0].get_ydata()) == [3, 2, 1]


def test_curves_bad_options():
    with pytest.raises(ValueError, match="smooth must be an int in \\[1, 2\\]"):
        plotting.curves({"loss": {"PyTorch": [1.0, 0.5]}}, smooth=3)
    with pytest.raises(ValueError, match="smooth"):
        plotting.curves({"loss": {"PyTorch": [1.0, 0.5]}}, smooth=1.5)
    good = {"loss": {"PyTorch": [1.0, 0.5]}}
    with pytest.raises(ValueError, match="no such panel"):
        plotting.curves(good, logy=["accuracy"])
    with pytest.raises(ValueError, match="no such panel"):
        plotting.curves(good, xlabel={"acc": "epoch"})
    with pytest.raises(ValueError, match="x has 3 values"):
        plotting.curves(good, x={"loss": [1, 2, 3]})
    with pytest.raises(ValueError, match="positive"):
        plotting.curves({"loss": {"PyTorch": [1.0, 0.0]}}, logy="loss")


def test_sample_grid_accepts_each_frameworks_layout():
    rng = np.random.default_rng(0)
    pt_batch = torch.from_numpy(rng.random((16, 1, 28, 28), dtype=np.float32))  # N,1,H,W
    mx_batch = mx.nd.array(rng.integers(0, 255, (5, 28, 28, 1)), dtype="uint8")  # N,H,W,1
    classes = [f"c{i}" for i in range(10)]
    fig = plotting.sample_grid({"PyTorch": (pt_batch, torch.arange(16) % 10),
                                "Gluon": (mx_batch, mx.nd.array([1, 2, 3, 4, 9]))},
                               classes=classes, n=8)
    _render(fig)
    axes = np.array(fig.axes).reshape(2, 8)
    assert [ax.get_title() for ax in axes[0, :3]] == ["c0", "c1", "c2"]
    assert axes[1, 4].get_title() == "c9"
    assert not axes[1, 5].axison          # Gluon row has 5 images: the rest are blank
    assert axes[0, 0].get_ylabel() == "PyTorch"
    np.testing.assert_allclose(axes[0, 0].get_images()[0].get_array(), pt_batch[0, 0].numpy())


def test_sample_grid_without_class_names():
    fig = plotting.sample_grid({"raw": (np.zeros((3, 4, 4)), [7, 8, 9])}, n=2)
    _render(fig)
    assert [ax.get_title() for ax in fig.axes] == ["7", "8"]


@pytest.mark.parametrize("rows, kwargs, match", [
    ({}, {}, "non-empty"),
    ({"a": np.zeros((2, 4, 4))}, {}, "expected \\(images, labels\\)"),
    ({"a": (np.zeros((2, 3, 4, 4)), [0, 1])}, {}, "grey images"),
    ({"a": (np.zeros((0, 4, 4)), [])}, {}, "no images"),
    ({"a": (np.zeros((2, 4, 4)), [0])}, {}, "2 images but 1 labels"),
    ({"a": (np.zeros((2, 4, 4)), [0.5, 1])}, {}, "integers"),
    ({"a": (np.zeros((2, 4, 4)), [0, 12])}, {"classes": ["x"] * 10}, "outside the 10"),
    ({"a": (np.zeros((2, 4, 4)), [0, 1])}, {"n": 0}, "positive int"),
])
def test_sample_grid_bad_input(rows, kwargs, match):
    with pytest.raises(ValueError, match=match):
        plotting.sample_grid(rows, **kwargs)


def test_sample_grid_wrong_types_name_the_row():
    with pytest.raises(TypeError, match="row 'a', images"):
        plotting.sample_grid({"a": ("not images", [0])})


def test_a_smoothed_panel_says_so_on_its_y_axis():
    fig = plotting.curves({"loss": {"PyTorch": np.linspace(2, 1, 50)},
                           "acc": {"PyTorch": np.linspace(0, 1, 9)},
                           "raw": {"PyTorch": [1.0, 2.0]}},
                          smooth={"loss": 20, "acc": 3}, xlabel={"acc": "epoch", "loss": "step"})
    loss_ax, acc_ax, raw_ax = fig.axes[:3]
    assert loss_ax.get_ylabel() == "running mean of 20 steps"
    assert acc_ax.get_ylabel() == "running mean of 3 epochs"
    assert raw_ax.get_ylabel() == ""
    fig = plotting.curves({"loss": {"g": [1.0, 2.0, 3.0]}}, smooth=2, xlabel="update (×10)")
    assert fig.axes[0].get_ylabel() == "running mean of 2 values"


def test_a_legend_below_covers_no_curve():
    names = ["Gluon by hand vs PyTorch", "Gluon Trainer vs PyTorch",
             "Gluon Trainer vs PyTorch with MXNet's float32 lr", "seed's step(128) vs the same"]
    # curves in every corner: "best" has nowhere to go but over one
    series = {n: np.tile([1e-16, 1e-1], 50) * (i + 1) for i, n in enumerate(names)}
    fig = plotting.curves({"gap": series}, logy="gap", legend="below")
    _render(fig)
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    box, frame = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    assert box.y1 < frame.y0, "the legend lies under the axes, not on them"
    assert 0 <= box.x0 and box.x1 <= fig.bbox.x1, "and inside the figure"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == names
    inside = plotting.curves({"gap": series}, logy="gap")
    _render(inside)
    ax = inside.axes[0]
    box = ax.get_legend().get_window_extent(inside.canvas.get_renderer())
    assert ax.get_window_extent(inside.canvas.get_renderer()).contains(box.x0 + 1, box.y0 + 1)
    with pytest.raises(ValueError, match="legend must be one of"):
        plotting.curves({"gap": series}, legend="outside")
    with pytest.raises(ValueError, match="no such panel"):
        plotting.curves({"gap": series}, legend={"loss": "below"})
