"""Nodes of the backward graph (PyTorch: ``torch.autograd.graph.Node``).

A tensor's ``grad_fn`` is a :class:`Node`. Each node knows:

* its edges, ``next_functions``: one ``(node, input_nr)`` pair per differentiable input,
  pointing at the node that produced that input (``None`` for an input that needs no
  gradient), exactly as in PyTorch;
* the tensors it saved for backward, with their versions, so an in-place change since is
  caught when backward reads them (or, for those that went through saved-tensor hooks, what
  the pack hook returned: see ``saved.py``);
* the hooks registered on its outputs.

Leaves that require grad get an :class:`AccumulateGrad` node, whose job is to add the
arriving gradient into ``leaf.grad``.

This layer records; it never runs a backward pass (that is ``engine.py``). The one thing a
node does at backward time is :meth:`Node.run_backward`: call its own formula and check that
it returned one gradient per edge. Calling a node, ``node(grad_output)``, does the same from
outside a pass, as in PyTorch: one step of backward by hand.
"""

from __future__ import annotations

import itertools
import math
import traceback
import weakref

import numpy as np

from .. import errors
from ..tensor import Tensor
from . import grad_mode
from . import saved as saved_hooks
from .node_hooks import NodeHooks

_sequence = itertools.count()  # creation order; the engine runs later nodes first


class Node(saved_hooks.SavedSlots, NodeHooks):
    """Base of every backward node. Subclasses define ``backward(ctx, *grads)``.

    Attributes:
        next_functions: one ``(node_or_None, input_nr)`` pair per differentiable input.
        sequence_nr: creation order (PyTorch: ``Node._sequence_nr()``).
        run_order: among nodes ready to run in backward, the lowest goes first: the most
            recently created op (``-sequence_nr``), and every leaf's AccumulateGrad before
            any op (``-inf``), as in PyTorch.
    """

    n_outputs = 1
    node_name: str | None = None  # set where PyTorch's name is not the class name + Backward0

    # What a new node starts with; a node sets its own only when it has one.
    next_functions: tuple = ()  # set by Op._record / _link when the op runs
    _saved = None  # tensors from save_for_backward, and their versions
    _versions_at_save: tuple = ()
    _out_data = _out_ref = None  # a saved output, as its array (see _save_output)
    _out_counter = None  # the tensor holding the saved output's version counter, if not itself
    _freed = False  # backward ran and released what was saved
    _out_version = None  # the saved output's version when it was saved; None: none saved
    _pre_hooks = None  # {output_nr: [hook, ...]} from register_hook / retain_grad
    _anomaly_trace = None
    _out_shape = _out_dtype = None  # of output 0, for introspection
    _out_sparse = None  # (layout, nnz, nbytes, density) of a sparse output 0

    # PyTorch's grad_fn._saved_<name> attributes, installed from these tables (saved.py):
    saved_names: tuple = ()  # saved_names[i] names saved_tensors[i] (also _raw_saved_<name>)
    saved_values: dict = {}  # name -> fn(ctx), for what is saved but is not a tensor

    def __init__(self):
        self.sequence_nr = next(_sequence)
        self.run_order = -self.sequence_nr  # among ready nodes, lower runs first (engine.py)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        saved_hooks.install_saved_attributes(cls)

    def name(self) -> str:
        """PyTorch's name of the node, e.g. ``"MulBackward0"`` (the digit numbers overloads)."""
        return self.node_name or type(self).__name__ + "Backward0"

    def __repr__(self) -> str:
        return f"<{self.name()}>"

    @property
    def needs_input_grad(self) -> tuple:
        """One bool per differentiable input: does a gradient for it lead anywhere?"""
        return tuple(node is not None for node, _ in self.next_functions)

    @property
    def _out_meta(self) -> tuple | None:
        """``(shape, numpy dtype)`` of output 0, plus ``(layout, nnz, nbytes, density)`` if sparse."""
        if self._out_shape is None:
            return None
        return (self._out_shape, self._out_dtype) + (self._out_sparse or ())

    # --- graph construction -----------------------------------------------------
    def _link(self, inputs) -> None:
        """Record the edges to the inputs' producers (called once, when the op runs)."""
        self.next_functions = tuple([gradient_edge(t) for t in inputs])

    def _record_output(self, out) -> None:
        """Remember the output's shape and dtype (and sparse layout) for ``trace``."""
        data = out._data
        self._out_shape, self._out_dtype = data.shape, data.dtype
        if type(out) is not Tensor:  # a sparse output: its layout, nnz and bytes too
            self._out_sparse = (data.layout, data.nnz, data.nbytes, data.density)

    def _record_trace(self) -> None:
        """Anomaly mode: remember where the forward op was called."""
        self._anomaly_trace = "".join(traceback.format_stack()[:-3])

    # --- backward -----------------------------------------------------------------
    def run_backward(self, grads) -> tuple:
        """This node's gradients for its inputs: one per edge (None where there is none).

        A node run again after backward freed it raises only if it kept arrays for backward
        (saved tensors, or index arrays on ctx), as PyTorch's nodes raise only when they saved
        tensors: ``y = x + x; y.sum().backward()`` then a second backward through ``y`` works,
        since addition saves nothing."""
        if self._freed and (self._saved_count() or _keeps_arrays(self)):
            raise RuntimeError(errors.BACKWARD_TWICE.format(node=self.name()))
        sent = self.backward(self, *grads)
        sent = sent if isinstance(sent, tuple) else (sent,)
        if len(sent) != len(self.next_functions):
            raise RuntimeError(
                errors.WRONG_GRAD_COUNT.format(
                    node=self.name(), want=len(self.next_functions), got=len(sent)
                )
            )
        return sent

    def __call__(self, *grad_outputs):
        """This node's backward on ``grad_outputs``, as PyTorch's ``grad_fn(*grad_outputs)``.

        Pass one gradient per output of the node (``None`` for one that received none). The
        result has one gradient per edge in ``next_functions`` (``None`` where there is none),
        a single one unpacked from its tuple, as in PyTorch. Unlike a backward pass, it runs
        no hooks and frees nothing, so a node can be called again; its formula's ops are
        recorded or not by grad mode, as any op is (``mg.no_grad()`` for plain gradients).

        Raises:
            TypeError: not one gradient per output, or a gradient that is not a tensor.
        """
        grads = _checked_grad_outputs(self, grad_outputs)
        if any(g is not None and g.layout != "strided" for g in grads):
            from ..accumulation.accumulate import densify_for_formula  # it imports this module

            grads = densify_for_formula(self, grads)  # as the engine does (sparse/formulas.py)
        sent = self.run_backward(grads)
        return sent[0] if len(sent) == 1 else sent

    def release(self) -> None:
        """Free saved tensors after backward (unless ``retain_graph``)."""
        self._saved = None
        self._out_data = None
        self._out_ref = None
        self._out_counter = None
        self._packed = None
        self._freed = True

    # --- saved tensors ------------------------------------------------------
    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward; their versions are checked when read."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(errors.SAVE_NOT_TENSOR.format(i=i, got=type(t).__name__))
        self._saved = tensors
        self._versions_at_save = tuple(None if t is None else t._version for t in tensors)

    def _save_output(self, out) -> None:
        """Save this node's own output without a reference cycle (out -> node -> out).

        Like PyTorch's SavedVariable for outputs: the node keeps the array and the
        version, and backward gets a tensor rebuilt from them (same data, ``grad_fn`` =
        this node). An in-place write to ``out``, or to a view of it, bumps its version
        counter and tells ``out.grad_fn`` (this node), see :meth:`_note_version`.

        An output that shares another tensor's counter (``out._base``: a detached tensor
        that an in-place op gave this node, ``x.detach().sqrt_()``) is not told of writes
        through the tensors it shares memory with, so the node keeps that counter's holder
        (no cycle: it is another tensor) and reads the version from it.
        """
        self._out_data = out._data
        self._out_counter = out._base
        self._out_version = self._out_now = out._version
        self._out_ref = None

    def _note_version(self, version: int) -> None:
        """The output this node saved was modified in place (called by ``_bump_version``)."""
        if self._out_data is not None:
            self._out_now = version

    def _keep_output_identity(self, out) -> None:
        """Make ``saved_tensors`` hand back ``out`` itself while it lives (not a rebuilt twin).

        Forward mode needs this: it keys tangents by tensor identity.
        """
        if self._out_data is not None and self._out_data is out._data:
            self._out_ref = weakref.ref(out)

    def _rebuilt_output(self):
        ref = self._out_ref
        if ref is not None and ref() is not None:
            return ref()
        out = Tensor._make(self._out_data, True, self)
        if self._out_counter is not None:
            out._share_version_with(self._out_counter)
        else:
            out._ver = self._out_now
        return out

    @property
    def saved_tensors(self) -> tuple:
        """The saved tensors; raises if freed by backward or modified in place since."""
        if self._freed:
            raise RuntimeError(errors.BACKWARD_TWICE.format(node=self.name()))
        if self._packed is not None:  # some went through saved-tensor hooks
            return tuple([self._read_slot(i) for i in range(self._slot_count())])
        saved = self._saved
        if saved is not None:
            for i, (t, v) in enumerate(zip(saved, self._versions_at_save)):
                if t is not None and t._version != v:
                    raise RuntimeError(self._version_error(t, i, v))
        if self._out_data is None:
            return () if saved is None else saved
        out = self._rebuilt_output()
        if out._version != self._out_version:
            raise RuntimeError(self._version_error(out, 0, self._out_version))
        return (out,) if saved is None else saved + (out,)

    # --- saved tensors one at a time (saved-tensor hooks, grad_fn._saved_<name>): saved.py ---
    def _saved_count(self) -> int:
        """How many tensors this node saved; still known after backward freed them (the
        versions recorded at save time stay), so ``trace`` lists each one as freed."""
        return len(self._versions_at_save) + (self._out_version is not None)

    def _version_error(self, t, idx, saved_version) -> str:
        return errors.VERSION_MISMATCH.format(
            desc=f"{t.dtype.name} {list(t.shape)}",
            idx=idx,
            node=self.name(),
            now=t._version,
            saved=saved_version,
        )

    # --- in-place writes ------------------------------------------------------------
    def _rebase_saved(self, old, new) -> None:
        """An in-place op made ``new`` the tensor the user holds instead of ``old``: what this
        node saved of ``old`` (as its output, or through ``save_for_backward``) is ``new`` now."""
        if self._out_data is not None and self._out_data is old._data:
            self._save_output(new)
        if self._saved and any(s is old for s in self._saved):
            pairs = [
                (new, new._version) if s is old else (s, v)
                for s, v in zip(self._saved, self._versions_at_save)
            ]
            self._saved = tuple(s for s, _ in pairs)
            self._versions_at_save = tuple(v for _, v in pairs)

    # --- hooks ----------------------------------------------------------------
    def _add_pre_hook(self, output_nr: int, hook) -> None:
        if self._pre_hooks is None:
            self._pre_hooks = {}
        self._pre_hooks.setdefault(output_nr, []).append(hook)


class AccumulateGrad(Node):
    """Adds the arriving gradient into ``variable.grad`` (PyTorch: ``AccumulateGrad``).

    It has no edges: the graph ends here. The engine calls
    ``autograd.leaf_grad.accumulate`` instead of a backward formula.
    """

    def __init__(self, variable):
        super().__init__()
        self.run_order = -math.inf  # a ready leaf accumulates before any op runs
        self.variable = variable
        self.densified = ()  # densification events of this leaf's gradient, in order

    def name(self) -> str:
        return "AccumulateGrad"

    def __call__(self, *grad_outputs) -> tuple:
        """Add the gradient into ``variable.grad`` and return ``()`` (it has no edges), as
        calling PyTorch's ``AccumulateGrad`` node does: with grad mode on, a gradient that has
        a graph keeps it in ``.grad`` (as ``create_graph`` does in a backward pass)."""
        (g,) = _checked_grad_outputs(self, grad_outputs)
        if g is not None:
            from ..replaying.leaf_grad import accumulate  # it imports this module (through sparse/)

            accumulate(self.variable, self, g, create_graph=grad_mode.state.enabled)
        return ()


def accumulator(t) -> AccumulateGrad:
    """The leaf's AccumulateGrad: one per leaf while it is in use (PyTorch keeps a weak one)."""
    acc = t._acc() if t._acc is not None else None
    if acc is None:
        acc = AccumulateGrad(t)
        t._acc = weakref.ref(acc)
    return acc


def _keeps_arrays(node) -> bool:
    """Whether an op keeps arrays on ctx for its backward (e.g. the indices of an embedding
    lookup), which PyTorch's node would have saved as tensors. Read only on the rare second
    run of a freed node."""

    def holds(v) -> bool:
        if isinstance(v, (tuple, list)):
            return any(holds(x) for x in v)
        return isinstance(v, (np.ndarray, Tensor)) and getattr(v, "ndim", 0) > 0

    if any(holds(v) for k, v in vars(node).items() if not k.startswith("_")):
        return True
    # a number PyTorch saves as a tensor (``x / 2.0`` keeps ``other``): saved_values says so
    values = getattr(node, "saved_values", None) or {}
    return any(isinstance(read(node), Tensor) for read in values.values())


def gradient_edge(t) -> tuple:
    """The edge for input ``t``: ``(its grad_fn, output_nr)``, ``(its AccumulateGrad, 0)``
    for a leaf that requires grad, or ``(None, 0)`` when no gradient is needed."""
    if t._creation is not None:
        if t._creation == "grad_fn unread":  # read now: PyTorch builds it (UNREAD_GRAD_FN)
            t._creation = None
        elif t._requires_grad and t._version != t._made_at:
            raise RuntimeError(_stale_view_error(t._creation))  # PyTorch: no grad_fn to rebuild
    if t.grad_fn is not None:
        return t.grad_fn, t._output_nr
    if t._requires_grad and t._creation != "no_grad":  # a no_grad view: no gradient (PyTorch)
        return accumulator(t), 0
    return None, 0


def _stale_view_error(made) -> str:
    """The error for a view made under no_grad, or by a multi-output op, whose memory was
    modified in place since (``Tensor._creation``)."""
    if made == "no_grad":
        return errors.NO_GRAD_VIEW_STALE
    op, n = made
    return errors.MULTI_OUTPUT_VIEW_STALE.format(op=op, n=n)


def sequence_mark() -> int:
    """A number from the nodes' creation counter: every node made later has a larger
    ``sequence_nr`` (``tape.GradientTape`` marks when it starts and stops recording)."""
    return next(_sequence)


def _checked_grad_outputs(node, grad_outputs) -> list:
    """The gradients ``Node.__call__`` got, checked: one per output, each a tensor or None."""
    if len(grad_outputs) != node.n_outputs:
        raise TypeError(
            errors.NODE_CALL_COUNT.format(
                node=node.name(), want=node.n_outputs, got=len(grad_outputs)
            )
        )
    for i, g in enumerate(grad_outputs):
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(
                errors.NODE_CALL_TYPE.format(node=node.name(), i=i, got=type(g).__name__)
            )
    return list(grad_outputs)
