"""What ``GradientTape.gradient`` and the jacobians take, checked; the implicit ones gradient."""

from __future__ import annotations

import enum
import reprlib

import numpy as np

from ..errors import tape as errors
from ..tensor import Tensor
from . import nest

ACCEPTED = " or a list, tuple or dict of Tensors"


class UnconnectedGradients(enum.Enum):
    """What a source the target does not depend on gets (``tf.UnconnectedGradients``):
    None, or zeros of its shape. ``gradient`` also takes the strings ``"none"``, ``"zero"``."""

    NONE = "none"
    ZERO = "zero"


def unconnected(value) -> UnconnectedGradients:
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(errors.UNCONNECTED.format(got=value)) from None


def describe(x) -> str:
    """``3.0 (a float)``, for messages."""
    return "None" if x is None else f"{reprlib.repr(x)} (a {type(x).__name__})"


def targets_of(target, fn: str) -> list:
    """The target's tensors, flattened (TypeError for anything else)."""
    flat = nest.flatten_with_paths(target, "target")
    for path, t in flat:
        if not isinstance(t, Tensor):
            raise TypeError(
                errors.TARGET_NOT_TENSOR.format(fn=fn, path=path, got=describe(t), more=ACCEPTED)
            )
    return [t for _, t in flat]


def one_tensor(x, what: str, fn: str) -> Tensor:
    """``x`` itself, which must be one Tensor (a jacobian's target, batch_jacobian's source)."""
    if not isinstance(x, Tensor):
        raise TypeError(errors.TARGET_NOT_TENSOR.format(fn=fn, path=what, got=describe(x), more=""))
    return x


def sources_of(sources, fn: str) -> list:
    """The sources' tensors, flattened (TypeError naming the first that is not one)."""
    flat = nest.flatten_with_paths(sources, "sources")
    for path, s in flat:
        if not isinstance(s, Tensor):
            raise TypeError(errors.SOURCE_NOT_TENSOR.format(fn=fn, path=path, got=describe(s)))
    return [s for _, s in flat]


def output_gradients_for(output_gradients, targets) -> list:
    """One output gradient per target (None: ones), each of its target's shape and dtype."""
    if output_gradients is None:
        return [None] * len(targets)
    flat = nest.flatten(output_gradients)
    if len(flat) != len(targets):
        raise ValueError(errors.OUTPUT_GRADIENTS_LEN.format(got=len(flat), want=len(targets)))
    for i, (g, t) in enumerate(zip(flat, targets)):
        if g is None:
            continue
        if not isinstance(g, Tensor):
            raise TypeError(errors.OUTPUT_GRADIENT_TYPE.format(i=i, got=describe(g)))
        if g.shape != t.shape:
            raise ValueError(
                errors.OUTPUT_GRADIENT_SHAPE.format(i=i, got=list(g.shape), want=list(t.shape))
            )
        if g.dtype is not t.dtype:
            raise TypeError(errors.OUTPUT_GRADIENT_DTYPE.format(i=i, got=g.dtype, want=t.dtype))
    return flat


# --- small tensors the tape makes ------------------------------------------------------------
def ones_like(t: Tensor) -> Tensor:
    """The implicit output gradient: ones (a target with several elements counts as their sum)."""
    return Tensor._make(np.ones(t.shape, t._data.dtype), False, None)
