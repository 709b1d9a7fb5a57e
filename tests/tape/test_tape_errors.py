"""Bad input to a GradientTape gets a clear error: TensorFlow's sentence and exception type
where TensorFlow has the case, else one that names what was passed and what is accepted.
A refused call does not use the tape up."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.tape import GradientTape


@pytest.fixture
def tape_and_y():
    x = mg.tensor([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
    yield tape, x, y
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0])  # still usable


def test_a_source_that_is_not_a_tensor(tape_and_y):
    tape, x, y = tape_and_y
    with pytest.raises(TypeError, match=r"GradientTape.gradient: sources is 3.0 \(a float\)"):
        tape.gradient(y, 3.0)
    with pytest.raises(TypeError, match=r"sources\['b'\]\[0\] is None, not a Tensor; sources take"):
        tape.gradient(y, {"a": x, "b": [None]})
    with pytest.raises(TypeError, match=r"sources\[0\] is array\(.*\(a ndarray\)"):
        tape.gradient(y, [np.ones(2)])


def test_a_target_that_is_not_a_tensor(tape_and_y):
    tape, x, y = tape_and_y
    with pytest.raises(TypeError, match="Argument `target` should be a Tensor .* received None"):
        tape.gradient(None, x)
    with pytest.raises(TypeError, match=r"target\[1\] is 2.0 \(a float\), not a Tensor"):
        tape.gradient([y, 2.0], x)


def test_output_gradients_of_the_wrong_kind(tape_and_y):
    tape, x, y = tape_and_y
    with pytest.raises(ValueError, match=r"output_gradients\[0\] has shape \[3\] but its target"):
        tape.gradient(y, x, output_gradients=mg.ones(3))
    with pytest.raises(TypeError, match=r"has dtype minigrad.float64 but its target has dtype"):
        tape.gradient(y, x, output_gradients=mg.ones(2, dtype=mg.float64))
    with pytest.raises(TypeError, match=r"output_gradients\[0\] is array\(.*\(a ndarray\), not"):
        tape.gradient([y], x, output_gradients=[np.ones(2)])
    with pytest.raises(ValueError, match="got 2 output_gradients for 1 targets"):
        tape.gradient(y, x, output_gradients=[mg.ones(2), mg.ones(2)])


def test_an_unknown_unconnected_gradients_value(tape_and_y):
    tape, x, y = tape_and_y
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'nonsense'"):
        tape.gradient(y, x, unconnected_gradients="nonsense")


def test_watching_something_that_is_not_a_tensor():
    with GradientTape() as tape:
        with pytest.raises(ValueError, match="Passed in object 'x' of type 'str', not a minigrad"):
            tape.watch("x")
        with pytest.raises(ValueError, match="of type 'NoneType'"):
            tape.watch([mg.tensor(1.0), None])


def test_entering_and_leaving_at_the_wrong_time():
    tape = GradientTape()
    with tape:
        with pytest.raises(ValueError, match="Tape is still recording, This can happen if you try"):
            tape.__enter__()
    with pytest.raises(
        RuntimeError, match="Trying to stop recording a tape which is not recording"
    ):
        with tape.stop_recording():
            pass
    with pytest.raises(ValueError, match="Tape is not recording."):
        tape.reset()


def test_a_used_tape():
    x = mg.tensor(1.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    tape.gradient(y, x)
    used = r"A non-persistent GradientTape can only be used to compute one set of gradients"
    for call in (
        lambda: tape.gradient(y, x),
        lambda: tape.jacobian(y, x),
        lambda: tape.batch_jacobian(y.reshape(1, 1), x.reshape(1, 1)),
    ):
        with pytest.raises(RuntimeError, match=used):
            call()
