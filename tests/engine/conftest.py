"""Fixtures shared by the engine tests."""

import gc

import pytest


@pytest.fixture
def no_gc():
    """Run with the cyclic collector off: what is freed must be freed by refcounting."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    yield
    if was:
        gc.enable()
