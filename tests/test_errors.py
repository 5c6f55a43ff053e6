"""errors.catch: the error's type, a clean message, stderr; no silent pass."""
import sys

import pytest

from sidebyside import errors


def test_mxnet_error_loses_its_cpp_banner_and_prefix():
    from mxnet import nd

    failure = errors.catch(nd.ones, 5, 3)          # the 3 is read as a context
    assert failure.type == "MXNetError"
    assert failure.line == "Invalid context string 3"
    assert "Traceback" not in failure.message and "base.h" not in failure.message
    assert str(failure) == "MXNetError: Invalid context string 3"


def test_reason_is_the_gist_after_check_failed():
    from mxnet import nd

    late = nd.take(nd.arange(5), nd.array([7]), mode="raise")
    failure = errors.catch(late.asnumpy)             # raised at the sync point
    assert failure.line == "Check failed: is_valid: take operator contains indices out of bound"
    assert failure.reason == "take operator contains indices out of bound"


def test_python_errors_keep_their_message():
    failure = errors.catch(int, "x")
    assert failure.type == "ValueError"
    assert failure.line == "invalid literal for int() with base 10: 'x'"
    assert failure.reason == "'x'"
    assert failure.brief == ("ValueError", "invalid literal for int() with base 10: 'x'")
    assert isinstance(failure.exception, ValueError)


def test_a_call_that_does_not_raise_fails_loudly():
    with pytest.raises(AssertionError, match=r"expected Exception, but the call returned 3"):
        errors.catch(lambda: 3)
    with pytest.raises(AssertionError, match=r"expected KeyError or IndexError"):
        errors.catch(lambda: None, expect=(KeyError, IndexError))


def test_unexpected_errors_propagate():
    with pytest.raises(ZeroDivisionError):
        errors.catch(lambda: 1 / 0, expect=KeyError)


def test_stderr_is_captured_and_restored():
    def noisy():
        print("something ignored", file=sys.stderr)
        raise RuntimeError("boom. more text")

    before = sys.stderr
    failure = errors.catch(noisy)
    assert failure.stderr == "something ignored\n"
    assert failure.reason == "boom"
    assert sys.stderr is before


def test_not_callable():
    with pytest.raises(TypeError, match="needs a callable"):
        errors.catch(42)


def test_empty_message():
    failure = errors.catch(lambda: (_ for _ in ()).throw(KeyError()))
    assert failure.type == "KeyError" and failure.line == "" and str(failure) == "KeyError"


def test_noise_from_objects_freed_with_the_traceback_is_captured():
    class Noisy:
        def __del__(self):
            print("Exception ignored in Noisy.__del__", file=sys.stderr)

    def build():
        obj = Noisy()  # noqa: F841 - held by this frame until the traceback goes
        raise ValueError("bad argument")

    failure = errors.catch(build)
    assert "Noisy.__del__" in failure.stderr
    assert failure.exception.__traceback__ is None


def test_gluon_dataloader_noise_is_captured(monkeypatch):
    from mxnet import gluon

    # pytest routes "Exception ignored in ..." to a warning; Python's own hook (the one a
    # notebook has) writes it to sys.stderr
    monkeypatch.setattr(sys, "unraisablehook", sys.__unraisablehook__)
    failure = errors.catch(gluon.data.DataLoader, [1, 2, 3])
    assert failure.brief == ("ValueError",
                             "batch_size must be specified unless batch_sampler is specified")
    assert "has no attribute '_worker_pool'" in failure.stderr


def test_where_raised_tells_call_sync_point_and_never():
    from mxnet import nd

    at_call = errors.where_raised(lambda: nd.dot(nd.ones((2, 3)), nd.ones((2, 3))))
    assert at_call.where == "at the call" and at_call.failure.type == "MXNetError"
    late = errors.where_raised(lambda: nd.take(nd.arange(5), nd.array([7]), mode="raise"))
    assert (late.where, late.second_read) == ("at the sync point", "silent")
    assert late.failure.reason == "take operator contains indices out of bound"
    assert str(late) == "at the sync point: MXNetError; 2nd read silent"
    fine = errors.where_raised(lambda: nd.ones((2,)) * 2)
    assert fine.where == "never" and fine.failure is None and str(fine) == "never: no error"


def test_short_hides_the_folder_in_both_spellings(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    message = f"no file {link}/a.params; also {real}/b.params; not {tmp_path}/c"
    shown = errors.short(message, link)
    assert shown == f"no file <dir>/a.params; also <dir>/b.params; not {tmp_path}/c"
    assert errors.short(ValueError(f"{real}/x"), real, placeholder="…") == "…/x"
    with pytest.raises(ValueError, match="needs a folder"):
        errors.short("text", "")
