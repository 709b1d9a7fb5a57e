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

import inspect
import weakref

import numpy as np

from .. import errors
from ..tensor import Tensor
from . import anomaly, grad_mode, modes, saved
from .node import Node
from .node_checks import check_custom_grads, materialize_grads

_grad = grad_mode.state
_anomaly = anomaly.state
_modes = modes.state
_saved_hooks = saved.state


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
    input's memory, and so its version counter. ``saved_names`` names the saved
    tensors and ``saved_values`` the other things backward keeps, under PyTorch's
    names: ``Mul``'s ``("self", "other")`` makes ``grad_fn._saved_self`` (see
    ``recording/saved.py``).
    """

    save_inputs = False
    save_output = False
    view = False
    differentiable = True
    elementwise = False  # out[i] depends on in[i] only: the local derivative is an array

    @classmethod
    def apply(cls, *inputs, **params):
        """Run the op on Tensors; record a node when grad mode is on and an input requires grad.

        ``forward`` gets the inputs' arrays; when the graph is recorded, the ``ctx`` it
        gets is the new node itself (PyTorch's design), so what it stores there is what
        ``backward`` reads.
        """
        if _modes.active:  # forward-mode AD, autocast or a GradientTape (see recording/modes.py)
            return modes.run(cls, inputs, params)
        record = _grad.enabled and cls.differentiable and _any_requires_grad(inputs)
        ctx = cls() if record else _SCRATCH
        if len(inputs) == 1:  # most ops: skips building a list (0.15 us per op, bench_engine)
            data = cls.forward(ctx, inputs[0]._data, **params)
        else:
            data = cls.forward(ctx, *[t._data for t in inputs], **params)
        if type(data) is np.ndarray:  # the common case; sparse ops and 0-d ufuncs: _wrap
            out = Tensor._make(data, record, ctx if record else None)
        else:
            out = cls._wrap(data, record, ctx if record else None)
        if record:
            ctx._record(inputs, out)
        if cls.view and out._data.base is not None:
            _mark_view(out, inputs[0], record)
        return out

    def _record(self, inputs, out) -> None:
        """Tie the new node into the graph: its edges, what it saves, its output's metadata."""
        self._link(inputs)
        self._record_output(out)
        if _anomaly.enabled:
            self._record_trace()
        if self.save_inputs:  # True, or the positions of the inputs kept (Addmm: not input)
            saved = inputs if self.save_inputs is True else [inputs[i] for i in self.save_inputs]
            self._saved, self._versions_at_save = saved, tuple(t._version for t in saved)
        if self.save_output:
            self._save_output(out)
        if _saved_hooks.stack:  # saved_tensors_hooks is on: its pack hook keeps what is saved
            self._keep_output_identity(out)  # the hook gets the output itself, as in PyTorch
            self._pack_saved(_saved_hooks.stack[-1])

    @staticmethod
    def _wrap(data, requires_grad: bool, node):
        """The output tensor of a ``forward`` that returned something other than an array:
        here a numpy scalar (ufuncs on 0-d arrays); sparse ops wrap their formats."""
        return Tensor._make(np.asarray(data), requires_grad, node)

    @staticmethod
    def forward(ctx, *args, **params):  # pragma: no cover - every op overrides it
        raise NotImplementedError

    @staticmethod
    def backward(ctx, *grads):  # pragma: no cover
        raise NotImplementedError


def _mark_view(out: Tensor, base: Tensor, recorded: bool) -> None:
    """``out`` shares ``base``'s memory: it shares its version counter, writes through it go
    to ``base``'s root (``_view_of``), and it keeps how it was made for the in-place checks.

    As in PyTorch, a view made under ``no_grad`` of a tensor that requires grad still
    requires grad (a leaf that backward never fills); modifying any view made under
    ``no_grad`` in place with grad mode on, in an op that requires grad, is refused
    (``Tensor._creation``; a view of a view inherits that mark), and once the memory of one
    that requires grad is modified in place (through any view), a recorded op refuses it as
    input (``autograd.node.gradient_edge``).
    """
    out._share_version_with(base)
    out._is_view = True
    out._view_of = base._view_of if base._is_view else base
    out._creation = base._creation if base._is_view else None
    if not recorded and not _grad.enabled:
        out._creation = NO_GRAD_VIEW
        out._requires_grad = out._requires_grad or base._requires_grad
    if out._creation is not None:  # once its memory changes, autograd refuses it
        out._made_at = out._version
    elif _grad.enabled:  # its grad_fn must follow in-place changes of its root
        _remember_view(out._view_of, out)


def _remember_view(root: Tensor, view: Tensor) -> None:
    """Keep a weak reference to ``view`` on ``root`` (``_tensor_inplace_methods._rebase_views``
    reads them), dropping dead ones as the list grows."""
    views = root._views
    if views is None:
        root._views = views = []
    elif len(views) >= 16 and len(views) & (len(views) - 1) == 0:  # at 16, 32, 64, ...
        views[:] = [r for r in views if r() is not None]
    views.append(weakref.ref(view))


NO_GRAD_VIEW = "no_grad"  # Tensor._creation of a view made under no_grad


def _any_requires_grad(inputs) -> bool:
    for t in inputs:
        if t._requires_grad:
            return True
    return False


class FunctionMeta(type):
    """Gives each Function subclass its node class ``<Name>Backward`` (no digit, as PyTorch)."""

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        if bases and bases != (Node,):
            cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})


class BackwardCFunction(Node):
    """The node (and ctx) of a custom :class:`Function` application."""

    _forward_cls = None
    needs_input_grad = ()  # per forward argument (non-tensors included), set by apply
    materialize_grads = True
    _non_differentiable: tuple = ()
    dirty_tensors: tuple = ()
    _saved_for_forward: tuple = ()  # save_for_forward, read by jvp
    _in_jvp = False  # jvp is running: saved_tensors means the tensors saved for forward

    def name(self) -> str:
        return type(self).__name__

    def backward(self, *grads):
        """Your Function's ``backward`` (or ``vjp``, PyTorch's other name for it); one without
        either runs forward and is recorded, and refuses here, when a gradient reaches it."""
        fn = self._forward_cls
        if fn.vjp is not Function.vjp:
            if fn.backward is not Function.backward:
                raise RuntimeError(errors.BACKWARD_AND_VJP.format(name=fn.__name__))
            return fn.vjp(self, *grads)
        if fn.backward is Function.backward:
            raise NotImplementedError(errors.NO_BACKWARD.format(name=fn.__name__))
        return fn.backward(self, *grads)

    def run_backward(self, grads) -> tuple:
        """Your ``backward``: zeros for outputs that got no gradient (unless
        ``set_materialize_grads(False)``), then its results checked against the inputs."""
        if self._freed:
            raise RuntimeError(errors.BACKWARD_TWICE.format(node=self.name()))
        sent = self.backward(*materialize_grads(self, grads))
        return check_custom_grads(self, sent if isinstance(sent, tuple) else (sent,))

    def mark_non_differentiable(self, *tensors) -> None:
        """Outputs listed here get ``requires_grad=False`` (e.g. argmax indices)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None for outputs that got no gradient."""
        self.materialize_grads = value

    def save_for_forward(self, *tensors) -> None:
        """Keep tensors for ``jvp`` (forward mode), which reads them from ``saved_tensors``."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(errors.SAVE_FOR_FORWARD.format(i=i, got=type(t).__name__))
        self._saved_for_forward = tensors

    @property
    def saved_tensors(self) -> tuple:
        """In ``backward``: what ``save_for_backward`` kept; in ``jvp``: what
        ``save_for_forward`` kept (PyTorch's two meanings of the one name)."""
        if self._in_jvp:
            return self._saved_for_forward
        return Node.saved_tensors.fget(self)

    def mark_dirty(self, *tensors) -> None:
        """Accepted for PyTorch compatibility; minigrad Functions must not modify inputs."""
        self.dirty_tensors = tensors

    @property
    def _raw_saved_tensors(self) -> tuple:
        """One ``SavedTensor`` per tensor given to ``save_for_backward`` (``register_hooks``)."""
        return tuple(saved.SavedTensor(self, i) for i in range(self._slot_count()))


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

    Forward mode (``autograd.forward_ad``, ``func.jvp``) needs a ``jvp(ctx, *tangents)``
    staticmethod too: one tangent per ``forward`` argument in (zeros for a Tensor that
    carries none, None for a non-Tensor), one per output out. ``forward`` runs with no
    tangent flowing, and ``ctx.saved_tensors`` in ``jvp`` are those given to
    ``ctx.save_for_forward``:

        >>> class Square(mg.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_forward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def jvp(ctx, x_t):
        ...         x, = ctx.saved_tensors
        ...         return 2 * x * x_t
        >>> mg.func.jvp(Square.apply, (mg.tensor([3.0]),), (mg.tensor([1.0]),))[1]
        tensor([6.])
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError(errors.NO_FORWARD.format(name="Function"))

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(errors.NO_BACKWARD.format(name="Function"))

    vjp = backward  # define one of the two: PyTorch's other name of backward

    @staticmethod
    def jvp(ctx, *tangents):
        """Forward mode's rule (optional): one tangent per input in, one per output out."""
        raise NotImplementedError(errors.NO_JVP.format(name="Function"))

    @staticmethod
    def setup_context(ctx, inputs, output):
        """PyTorch 2's second style (optional): define it, and ``forward(*args)`` takes no ctx.

        ``apply`` runs ``forward`` and then ``setup_context(ctx, inputs, output)``, both with
        recording off: ``inputs`` is the tuple of arguments with ``forward``'s defaults filled
        in, ``output`` what ``forward`` returned. Whatever ``forward(ctx, ...)`` would have done
        with ``ctx`` (``save_for_backward``, ``mark_non_differentiable``, attributes) goes
        here, and ``backward`` returns one gradient per entry of ``inputs``:

        >>> import minigrad as mg
        >>> class Scale(mg.autograd.Function):
        ...     @staticmethod
        ...     def forward(x, k=2.0):
        ...         return x * k
        ...     @staticmethod
        ...     def setup_context(ctx, inputs, output):
        ...         ctx.k = inputs[1]
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         return g * ctx.k, None
        >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> Scale.apply(x).sum().backward()
        >>> x.grad
        tensor([2., 2.])
        """
        raise NotImplementedError(errors.NO_SETUP_CONTEXT)

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run ``forward`` and, when any Tensor argument requires grad, record a node."""
        if cls.forward is Function.forward:
            raise NotImplementedError(errors.NO_FORWARD.format(name=cls.__name__))
        if cls.setup_context is not Function.setup_context:  # forward(*args), no ctx
            args, kwargs = _with_defaults(cls.forward, args, kwargs)
        ctx = cls._backward_cls()
        if _modes.active:  # forward-mode AD, autocast or a GradientTape (see recording/modes.py)
            args = modes.function_args(cls, args)
            return modes.run_function(cls, ctx, args, lambda: _apply(cls, ctx, args, kwargs))
        return _apply(cls, ctx, args, kwargs)


def _apply(cls, ctx, args, kwargs):
    """``Function.apply`` itself: ``forward`` without recording, then the node if needed."""
    tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
    record = _grad.enabled and any(args[i]._requires_grad for i in tensor_pos)
    ctx.needs_input_grad = tuple(
        isinstance(a, Tensor) and a._requires_grad and record for a in args
    )
    with grad_mode.no_grad():
        if cls.setup_context is Function.setup_context:
            result = cls.forward(ctx, *args, **kwargs)
        else:
            result = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, result)
    outputs = result if isinstance(result, tuple) else (result,)
    for o in outputs:
        if not isinstance(o, Tensor):
            raise TypeError(
                errors.FORWARD_NOT_TENSOR.format(name=cls.__name__, got=type(o).__name__)
            )
    if not record:
        return result
    return _wrap_outputs(ctx, args, outputs, isinstance(result, tuple))


def _with_defaults(forward, args, kwargs) -> tuple:
    """``(args, kwargs)`` for ``forward``: every argument that can be given by position is, with
    its default filled in where the caller left it out (what ``setup_context`` receives as
    ``inputs``, as in PyTorch); keyword-only ones stay keywords."""
    bound = inspect.signature(forward).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args, bound.kwargs


def _wrap_outputs(ctx, args, outputs, is_tuple):
    """Attach the node to fresh output tensors and remember the input metadata."""
    ctx._arg_is_tensor = tuple(isinstance(a, Tensor) for a in args)
    tensors = [a for a in args if isinstance(a, Tensor)]
    ctx._input_meta = tuple((a.shape, a.dtype) for a in tensors)
    ctx._output_meta = tuple((o.shape, o.dtype) for o in outputs)
    ctx._record_output(outputs[0])
    ctx._link(tensors)
    if _anomaly.enabled:
        ctx._record_trace()
    ctx.n_outputs = len(outputs)
    non_diff = {id(t) for t in ctx._non_differentiable}
    wrapped = []
    for nr, o in enumerate(outputs):
        if id(o) in non_diff or not o.dtype.is_floating_point:
            wrapped.append(Tensor._make(o._data, False, None))
            continue
        t = Tensor._make(o._data, True, ctx)
        t._output_nr = nr
        if any(o is a for a in args):  # an input returned as-is: share its version counter
            t._share_version_with(o)
        wrapped.append(t)
    if ctx._saved:  # a saved output must be the tensor that carries the node
        swap = {id(o): w for o, w in zip(outputs, wrapped)}
        ctx._saved = tuple(swap.get(id(t), t) if t is not None else None for t in ctx._saved)
        ctx._versions_at_save = tuple(None if t is None else t._version for t in ctx._saved)
        if _saved_hooks.stack:  # saved_tensors_hooks is on: its pack hook keeps them
            ctx._pack_saved(_saved_hooks.stack[-1])
    return tuple(wrapped) if is_tuple else wrapped[0]
