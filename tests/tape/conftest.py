"""Fixtures shared by the tape tests."""

import pytest

import minigrad as mg
from minigrad.recording import modes


@pytest.fixture(autouse=True)
def no_tape_left_recording():
    """Every test leaves no tape recording (the mode hook off) and grad mode on."""
    yield
    assert "tape" not in modes.state.hooks and mg.is_grad_enabled()
