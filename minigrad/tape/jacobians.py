"""``GradientTape.jacobian`` and ``batch_jacobian``: one tape gradient per row.

TensorFlow vectorizes the loop over the target's elements with ``pfor``; here it stays a
loop, each step one backward pass (``GradientTape._gradients``) weighted by a one-hot output
gradient, so a row is d target[i] / d sources. The ``pfor`` keywords are accepted.
"""

from __future__ import annotations

import numpy as np

from ..errors import tape as errors
from ..factory import zeros, zeros_like
from ..ops.select import stack
from ..ops.shape import reshape
from ..tensor import Tensor
from . import nest
from .arguments import UnconnectedGradients, one_tensor, sources_of, unconnected

NONE = UnconnectedGradients.NONE


class Jacobians:
    """The jacobian methods of :class:`~minigrad.tape.GradientTape`."""

    def jacobian(
        self,
        target,
        sources,
        unconnected_gradients=NONE,
        parallel_iterations=None,
        experimental_use_pfor=True,
    ):
        """d target / d source for each source: shape ``target.shape + source.shape``.

        One backward pass per element of ``target`` (TensorFlow vectorizes with pfor; the
        keywords are accepted, and the loop is the same either way).

        Example:
            >>> import minigrad as mg
            >>> from minigrad.tape import GradientTape
            >>> x = mg.tensor([1.0, 2.0])
            >>> with GradientTape() as g:
            ...     g.watch(x)
            ...     y = x * x
            >>> g.jacobian(y, x)
            tensor([[2., 0.],
                    [0., 4.]])
        """
        self._check_usable()
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(errors.JACOBIAN_LOOP.format(what="jacobian"))
        self._leave_context("jacobian")
        target = one_tensor(target, "target", "jacobian")
        flat_sources = sources_of(sources, "jacobian")
        none = unconnected(unconnected_gradients) is NONE
        rows = [
            self._gradients([target], [_one_hot(target, i)], flat_sources, NONE)
            for i in range(target.numel())
        ]
        flat = [
            _jacobian_block(target, s, [row[k] for row in rows], none)
            for k, s in enumerate(flat_sources)
        ]
        self._done()
        return nest.pack_sequence_as(sources, flat)

    def batch_jacobian(
        self,
        target,
        source,
        unconnected_gradients=NONE,
        parallel_iterations=None,
        experimental_use_pfor=True,
    ):
        """Per-example jacobians: ``result[i]`` is d target[i] / d source[i], for a target of
        shape ``[b, y...]`` whose row i depends on row i of a source of shape ``[b, x...]``;
        the result has shape ``[b, y..., x...]``. One backward pass per element of a row.

        As in TensorFlow, a source the target does not depend on gets zeros (not None).

        Example:
            >>> import minigrad as mg
            >>> from minigrad.tape import GradientTape
            >>> x = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
            >>> with GradientTape() as g:
            ...     g.watch(x)
            ...     y = x * x
            >>> g.batch_jacobian(y, x)
            tensor([[[2., 0.],
                     [0., 4.]],
            <BLANKLINE>
                    [[6., 0.],
                     [0., 8.]]])
        """
        self._check_usable()
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(errors.JACOBIAN_LOOP.format(what="batch_jacobian"))
        self._leave_context("batch_jacobian")
        target = one_tensor(target, "target", "batch_jacobian")
        source = one_tensor(source, "source", "batch_jacobian")
        unconnected(unconnected_gradients)
        if target.ndim < 2 or source.ndim < 2 or target.shape[0] != source.shape[0]:
            raise ValueError(
                errors.BATCH_SHAPES.format(target=tuple(target.shape), source=tuple(source.shape))
            )
        row = int(np.prod(target.shape[1:]))
        columns = [
            self._gradients([target], [_column(target, j, row)], [source], NONE) for j in range(row)
        ]
        self._done()
        shape = tuple(target.shape) + tuple(source.shape[1:])
        if all(c[0] is None for c in columns):  # zeros, not None, as in TensorFlow
            return zeros(*shape, dtype=source.dtype)
        filled = [zeros_like(source) if c[0] is None else c[0] for c in columns]
        return reshape(stack(filled, dim=1), *shape)


def _one_hot(t: Tensor, i: int) -> Tensor:
    """Ones at flat position ``i`` of ``t``'s shape, zeros elsewhere (picks a jacobian row)."""
    data = np.zeros(t.numel(), t._data.dtype)
    data[i] = 1
    return Tensor._make(data.reshape(t.shape), False, None)


def _column(t: Tensor, j: int, row: int) -> Tensor:
    """Ones at position ``j`` of every row of ``t`` (rows of ``row`` elements): picks a
    batch_jacobian column."""
    data = np.zeros((t.shape[0], row), t._data.dtype)
    data[:, j] = 1
    return Tensor._make(data.reshape(t.shape), False, None)


def _jacobian_block(target: Tensor, source: Tensor, rows: list, none: bool):
    """The rows d target[i] / d source stacked into ``target.shape + source.shape``; None (if
    ``none``) or zeros when no row reached the source."""
    shape = tuple(target.shape) + tuple(source.shape)
    if all(r is None for r in rows):
        return None if rows and none else zeros(*shape, dtype=source.dtype)
    filled = [zeros_like(source) if r is None else r for r in rows]
    return reshape(stack(filled), *shape)
