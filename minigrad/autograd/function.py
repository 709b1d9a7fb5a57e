"""The two ways to define a differentiable operation.

* :class:`Op` is how minigrad's own operations are written: ``forward`` computes
  on numpy arrays (the kernel), ``backward`` receives and returns Tensors, built
  from differentiable ops, so every built-in gradient can itself be
  differentiated (``create_graph=True``).
* :class:`Function` is the public extension point, named and shaped like
  ``torch.autograd.Function``: ``forward(ctx, ...)`` and ``backward(ctx, ...)``
  both receive and return Tensors, and ``Function.apply`` records the graph.

In both cases the ``ctx`` object *is* the backward node (as in PyTorch), so what
``forward`` stores on ``ctx`` is what ``backward`` reads.
"""

from __future__ import annotations

from numpy import asarray as _asarray
from numpy import ndarray as _ndarray

from .. import errors
from . import anomaly, grad_mode, modes
from .node import Node, _sequence

_next_seq = _sequence.__next__

_grad = grad_mode.state
_anomaly = anomaly.state
_modes = modes.state
_modes_run = modes.run


class _Scratch:
    """A throwaway ctx for ops run without recording (attributes are ignored)."""

    def save_for_backward(self, *tensors):
        pass


_SCRATCH = _Scratch()


class Op(Node):
    """Base class of built-in operations: one subclass per op, forward beside backward.

    Subclasses define ``forward(ctx, *arrays, **params) -> ndarray`` and
    ``backward(ctx, grad) -> Tensor | tuple``, returning one gradient per
    Tensor input (None where there is none). ``save_inputs`` / ``save_output``
    declare which tensors backward reads from ``ctx.saved_tensors`` (inputs
    first, then the output). ``view = True`` marks ops whose output shares the
    input's memory, and so its version counter.
    """

    __slots__ = ()  # subclasses without __slots__ get a __dict__ for their ctx attributes
    save_inputs = False
    save_output = False
    view = False
    differentiable = True
    elementwise = False  # out[i] depends on in[i] only: the local derivative is an array

    @classmethod
    def apply(cls, *inputs, **params):
        """Run the op on Tensors, recording a node when any input requires grad.

        Longer than our functions usually are, on purpose: this runs once per op, forward
        and backward, and each helper call it avoids is time per op in
        ``benchmarks/bench_engine.py``.
        """
        if _modes.active:  # forward-mode AD or autocast is on (see autograd/modes.py)
            return _modes_run(cls, inputs, params, _apply_plain)
        record = False
        if _grad.enabled and cls.differentiable:
            for t in inputs:
                if t._requires_grad:
                    record = True
                    break
        if record:
            ctx = fn = cls.__new__(cls)
            ctx._seq = _next_seq()  # Node._init_node, inline (once per op): keep in step
            ctx._saved = None
            ctx._saved_versions = ()
            ctx._freed = False
            ctx._pre_hooks = None
            ctx._anomaly_trace = None
            ctx._out_data = None
        else:  # no_grad, or backward without create_graph: forward writes into a throwaway
            ctx, fn = _SCRATCH, None
        if len(inputs) == 1:
            data = cls.forward(ctx, inputs[0].data, **params)
        elif len(inputs) == 2:
            data = cls.forward(ctx, inputs[0].data, inputs[1].data, **params)
        else:
            data = cls.forward(ctx, *[t.data for t in inputs], **params)
        if type(data) is _ndarray:
            out = _Tensor._make(data, record, fn)
        else:  # a numpy scalar (ufuncs on 0-d arrays) or a sparse format
            out = _wrap_other(data, record, fn)
            data = out.data
        if record:
            if len(inputs) == 1:  # one input: the edge is the producer node itself (node.py)
                t = inputs[0]
                edge = t.grad_fn
                if edge is None:
                    edge = t._accumulator()
                elif t._output_nr:
                    edge = (edge, t._output_nr)
                ctx._next = edge
            else:
                ctx._link(inputs)
            ctx._out_shape = data.shape
            ctx._out_dtype = data.dtype
            if out._sparse:
                ctx._out_sparse = (data.layout, data.nnz, data.nbytes)
            if _anomaly.enabled:
                ctx._record_trace()
            if cls.save_inputs:
                ctx._saved = inputs
                ctx._saved_versions = tuple([t._version for t in inputs])
            if cls.save_output:
                ctx._save_output(out)
        if cls.view and data.base is not None:
            out._share_version_with(inputs[0])
            out._is_view = True
        return out

    @staticmethod
    def forward(ctx, *args, **params):  # pragma: no cover - every op overrides it
        raise NotImplementedError

    @staticmethod
    def backward(ctx, *grads):  # pragma: no cover
        raise NotImplementedError


def _apply_plain(cls, inputs, params):
    return cls.apply.__func__(cls, *inputs, **params)


def _wrap_other(data, requires_grad, ctx):
    """Wrap what a forward returned when it is not an ndarray."""
    if hasattr(data, "layout"):  # a sparse format: the output is a SparseTensor
        from ..sparse.tensor import SparseTensor

        return SparseTensor._make(data, requires_grad, ctx)
    return _Tensor._make(_asarray(data), requires_grad, ctx)


class FunctionMeta(type):
    """Gives each Function subclass its backward-node class ``<Name>Backward``."""

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        if bases and bases != (Node,):
            cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})


class BackwardCFunction(Node):
    """The node (and ctx) of a custom :class:`Function` application."""

    _forward_cls = None
    _kind = 2
    needs_input_grad = ()  # per forward argument (non-tensors included), set by apply
    materialize_grads = True
    _non_differentiable: tuple = ()
    dirty_tensors: tuple = ()

    def name(self) -> str:
        return type(self).__name__

    def backward(self, *grads):
        return self._forward_cls.backward(self, *grads)

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs listed here get ``requires_grad=False`` (e.g. argmax indices)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None for outputs that got no gradient."""
        self.materialize_grads = value

    def mark_dirty(self, *tensors) -> None:
        """Accepted for PyTorch compatibility; minigrad Functions must not modify inputs."""
        self.dirty_tensors = tensors


class Function(Node, metaclass=FunctionMeta):
    """Base class for user-defined differentiable operations (``torch.autograd.Function``).

    Define ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` as
    staticmethods; call ``YourFunction.apply(*args)``. ``forward`` runs with
    recording off and gets the same Tensors you passed; ``backward`` gets one
    gradient per output and returns one per ``forward`` argument (None for
    non-Tensor arguments or where there is no gradient). ``ctx.needs_input_grad``
    says which inputs need one.

    Example:
        >>> import minigrad as mg
        >>> class MyReLU(mg.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, input):
        ...         ctx.save_for_backward(input)
        ...         return input.clamp(min=0)
        ...     @staticmethod
        ...     def backward(ctx, grad_output):
        ...         input, = ctx.saved_tensors
        ...         return grad_output * (input > 0).float()
        >>> x = mg.tensor([-1.0, 2.0], requires_grad=True)
        >>> MyReLU.apply(x).sum().backward()
        >>> x.grad
        tensor([0., 1.])
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError(errors.NO_FORWARD.format(name="Function"))

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(errors.NO_BACKWARD.format(name="Function"))

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` and, when any Tensor argument requires grad, record a node."""
        if cls.forward is Function.forward:
            raise NotImplementedError(errors.NO_FORWARD.format(name=cls.__name__))
        if _modes.active and "forward_ad" in _modes.hooks:
            from ..func.forward import refuse_custom_function

            refuse_custom_function(cls, args)
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, _Tensor)]
        record = _grad.enabled and any(args[i]._requires_grad for i in tensor_pos)
        ctx = cls._backward_cls()
        ctx._init_node()
        ctx.needs_input_grad = tuple(
            isinstance(a, _Tensor) and a._requires_grad and record for a in args
        )
        with grad_mode.no_grad():
            result = cls.forward(ctx, *args, **kwargs)
        outputs = result if isinstance(result, tuple) else (result,)
        for o in outputs:
            if not isinstance(o, _Tensor):
                raise TypeError(
                    errors.FORWARD_NOT_TENSOR.format(name=cls.__name__, got=type(o).__name__)
                )
        if not record:
            return result
        if cls.backward is Function.backward:
            raise NotImplementedError(errors.NO_BACKWARD.format(name=cls.__name__))
        return _wrap_outputs(ctx, args, outputs, isinstance(result, tuple))


def _wrap_outputs(ctx, args, outputs, is_tuple):
    """Attach the node to fresh output tensors and remember the input metadata."""
    ctx._arg_is_tensor = tuple(isinstance(a, _Tensor) for a in args)
    tensors = [a for a in args if isinstance(a, _Tensor)]
    ctx._input_meta = tuple((a.shape, a.dtype) for a in tensors)
    ctx._output_meta = tuple((o.shape, o.dtype) for o in outputs)
    ctx._out_shape, ctx._out_dtype = outputs[0].shape, outputs[0].data.dtype
    ctx._link(tensors)
    if _anomaly.enabled:
        ctx._record_trace()
    ctx.n_outputs = len(outputs)
    non_diff = {id(t) for t in ctx._non_differentiable}
    wrapped = []
    for nr, o in enumerate(outputs):
        if id(o) in non_diff or not o.dtype.is_floating_point:
            wrapped.append(_Tensor._make(o.data, False, None))
            continue
        t = _Tensor._make(o.data, True, ctx)
        t._output_nr = nr
        if any(o is a for a in args):  # an input returned as-is: share its version counter
            t._share_version_with(o)
        wrapped.append(t)
    if ctx._saved:  # a saved output must be the tensor that carries the node
        swap = {id(o): w for o, w in zip(outputs, wrapped)}
        ctx._saved = tuple(swap.get(id(t), t) if t is not None else None for t in ctx._saved)
        ctx._saved_versions = tuple(None if t is None else t._version for t in ctx._saved)
    return tuple(wrapped) if is_tuple else wrapped[0]


_Tensor = None  # set by minigrad.tensor once Tensor exists (avoids an import cycle)


def _bind_tensor(cls) -> None:
    global _Tensor
    _Tensor = cls
    from . import node

    node._Tensor = cls
