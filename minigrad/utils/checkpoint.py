"""Activation checkpointing (``torch.utils.checkpoint``): trade compute for memory.

A normal forward pass keeps, on every node, the tensors its backward needs (a
matmul keeps both operands, a tanh its output ...). ``checkpoint(fn, *args)``
runs ``fn`` without recording, so none of that is kept: the graph holds one
node that saves only ``args``. During backward that node re-runs ``fn`` with
recording on, and backpropagates through the fresh graph. Gradients are
identical; the saved-tensor bytes of the block disappear from the graph
(:func:`saved_tensor_bytes` measures them, from ``mg.trace.graph``; the memory
report, ``mg.sparse.memory_report(loss).saved_bytes``, shows the same figure).

Random ops inside ``fn`` (dropout, ``mg.rand``) draw the same numbers in the
recomputation: the state of minigrad's generator is saved at the forward pass
and restored around the recomputation (``preserve_rng_state=True``). Likewise
the autocast state of the forward pass (``mg.autocast``) is restored, so the
recomputation runs in the same dtypes.

NB: PyTorch has two implementations. ``use_reentrant=True`` is a custom
``autograd.Function`` like the one here. ``use_reentrant=False`` (the one
PyTorch recommends) uses saved-tensor hooks (``autograd.graph``); minigrad
runs the same Function for both, plus a dummy input that requires grad so the node is
recorded even when no input requires grad (parameters used inside ``fn`` still
get their gradients, as in PyTorch's non-reentrant version).
"""

from __future__ import annotations

import functools
import warnings

from .. import factory, random, trace
from ..amp.autocast import autocast, get_autocast_dtype, is_autocast_enabled
from ..autograd import backward as _backward
from ..errors import utils as errors
from ..recording.function import Function
from ..recording.grad_mode import enable_grad
from ..tensor import Tensor


class CheckpointFunction(Function):
    """Run ``fn`` unrecorded, save only its inputs; backward recomputes and backpropagates."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, _dummy, *args):
        ctx.run_function = run_function
        ctx.rng_state = _rng_state() if preserve_rng_state else None
        ctx.autocast = autocast(dtype=get_autocast_dtype(), enabled=is_autocast_enabled())
        ctx.arg_is_tensor = [isinstance(a, Tensor) for a in args]
        ctx.other_args = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        return run_function(*args)  # Function.apply runs forward under no_grad

    @staticmethod
    def backward(ctx, *grad_outputs):
        tensors = iter(ctx.saved_tensors)
        args = [
            _detached(next(tensors)) if is_t else other
            for is_t, other in zip(ctx.arg_is_tensor, ctx.other_args)
        ]
        with _rng_restored(ctx.rng_state), ctx.autocast, enable_grad():
            outputs = ctx.run_function(*args)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [
            (o, g)
            for o, g in zip(outputs, grad_outputs)
            if isinstance(o, Tensor) and o.requires_grad and g is not None
        ]
        if not pairs:
            raise RuntimeError(errors.NO_OUTPUT_REQUIRES_GRAD)
        _backward([o for o, _ in pairs], [g for _, g in pairs])
        grads = tuple(a.grad if isinstance(a, Tensor) else None for a in args)
        return (None, None, None) + grads


def checkpoint(
    function,
    *args,
    use_reentrant: bool = False,
    preserve_rng_state: bool = True,
    **kwargs,
):
    """Run ``function(*args)`` keeping only ``args`` for backward, recomputing the rest.

    Gradients are the same as without checkpointing (bit for bit: the recomputation
    runs the same ops on the same inputs, with the RNG state restored), and the
    saved-tensor bytes of ``function``'s graph are gone: compare
    :func:`saved_tensor_bytes` of a loss with and without it.

    Args:
        function: the block to run, e.g. a module or a lambda; returns a Tensor or a
            tuple of Tensors.
        *args: its arguments (Tensors and anything else).
        **kwargs: keyword arguments for ``function`` (not with ``use_reentrant=True``;
            Tensors passed this way are not saved, they are used as they are).
        use_reentrant: False (the default, as PyTorch recommends) records the node even
            when no input requires grad, so parameters used inside ``function`` still get
            gradients; True is PyTorch's reentrant variant, which warns and gives no
            gradients in that case.
        preserve_rng_state: restore minigrad's generator state around the recomputation,
            so random ops draw the same numbers as in the forward pass.

    Example:
        >>> import minigrad as mg
        >>> from minigrad.utils.checkpoint import checkpoint
        >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> y = checkpoint(lambda t: (t * t).tanh(), x)
        >>> y.grad_fn.name()
        'CheckpointFunctionBackward'
        >>> y.sum().backward()
        >>> x.grad
        tensor([0.8399, 0.0054])
    """
    if not callable(function):
        raise TypeError(errors.NOT_CALLABLE.format(got=type(function).__name__))
    if kwargs:
        if use_reentrant:
            raise ValueError(errors.BAD_KWARGS.format(names=",".join(sorted(kwargs))))
        function = functools.partial(function, **kwargs)
    any_grad = any(isinstance(a, Tensor) and a.requires_grad for a in args)
    dummy = None
    if not any_grad:
        if use_reentrant:
            warnings.warn(errors.NO_INPUT_REQUIRES_GRAD, UserWarning, stacklevel=2)
        else:
            dummy = factory.zeros(0, requires_grad=True)
    return CheckpointFunction.apply(function, preserve_rng_state, dummy, *args)


def saved_tensor_bytes(*tensors) -> int:
    """Bytes of the tensors the graph behind ``tensors`` keeps for backward.

    Read from ``mg.trace.graph``: each node's ``saved`` entries (their bytes as stored, so a
    sparse tensor counts its indices and values), summed over the nodes (a tensor saved by
    two nodes counts twice; freed ones count 0).

    Example:
        >>> import minigrad as mg
        >>> x = mg.ones(10, requires_grad=True)
        >>> saved_tensor_bytes((x * x).sum())  # Mul saves both operands: 2 x 40 bytes
        80
    """
    total = 0
    for node in trace.graph(*tensors).nodes:
        for s in node.saved:
            if not s.freed:
                total += s.nbytes
    return total


def _detached(t: Tensor) -> Tensor:
    d = t.detach()
    if t.requires_grad:
        d.requires_grad_(True)
    return d


def _rng_state():
    return random.default_generator.get_state()


class _rng_restored:  # noqa: N801  (used like a function)
    """Within the block, minigrad's generator is in ``state``; afterwards as before."""

    def __init__(self, state):
        self.state = state

    def __enter__(self):
        if self.state is not None:
            self.outer = _rng_state()
            random.default_generator.set_state(self.state)

    def __exit__(self, *exc):
        if self.state is not None:
            random.default_generator.set_state(self.outer)
        return False
