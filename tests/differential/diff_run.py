"""Run a program with both libraries and compare them after every statement.

The two namespaces start as ``{"lib": minigrad}`` and ``{"lib": torch}``; each statement is
``exec``'d in both, then every variable is compared: values (NaN, infinities and the sign of
zero included), shape, dtype, layout, ``requires_grad``, ``is_leaf`` and ``.grad`` (None
against a tensor is a difference of its own). When one library raises, the other must raise
an exception of the same builtin class. The first difference ends the program and is
returned as a :class:`Difference`, with the program printed as a script for either library.
"""

from __future__ import annotations

import builtins
import re
import warnings
from dataclasses import dataclass

import numpy as np
import torch

import minigrad

torch.set_num_threads(1)

# The kinds of difference (the ``kind`` column of docs/differences.md).
VALUE, SHAPE, DTYPE, LAYOUT = "value", "shape", "dtype", "layout"
REQUIRES_GRAD, IS_LEAF = "requires_grad", "is_leaf"
GRAD_VALUE, GRAD_PRESENCE = "grad value", "grad None vs tensor"
ERROR_CLASS = "exception class"
ACCEPTS = "accepts bad input"  # minigrad runs what PyTorch refuses
REFUSES = "refuses good input"  # minigrad raises where PyTorch runs
INTERNAL = "internal error"  # minigrad raises something no PyTorch user catches
TYPE = "python type"

# Exceptions that mean minigrad itself went wrong (PyTorch raises none of them on bad input).
_INTERNAL = (AttributeError, KeyError, AssertionError, NameError, ZeroDivisionError)


@dataclass
class Difference:
    """The first place the two runs disagree."""

    kind: str
    family: str
    where: str  # the variable (or ``x.grad``) that differs, or the statement
    detail: str
    script: str

    def key(self) -> tuple[str, str]:
        return (self.family, self.kind)

    def __str__(self) -> str:
        return (
            f"[{self.family}: {self.kind}] {self.where}: {self.detail}\n"
            "--- the program (runs with `import torch as lib` too) ---\n"
            f"{self.script}"
        )


def builtin_class(exc: BaseException) -> type:
    """The first builtin class in the exception's MRO (torch's errors subclass builtins)."""
    for cls in type(exc).__mro__:
        if getattr(builtins, cls.__name__, None) is cls:
            return cls
    return Exception


def script(statements, upto: int | None = None) -> str:
    """The program as a script that runs with either library."""
    lines = ["import minigrad as lib  # or: import torch as lib", ""]
    for s in statements[: None if upto is None else upto + 1]:
        if s.error is None:
            lines.append(s.code)
        else:
            lines += ["try:", *("    " + ln for ln in s.code.splitlines())]
            lines += [f"except {s.error} as e:  # both refuse", "    print(repr(e))"]
    return "\n".join(lines)


def run_statement(code: str, ns: dict):
    """Run one statement; the exception it raised, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                exec(code, ns)  # noqa: S102  (the program is ours, made by diff_programs)
    except Exception as e:  # noqa: BLE001  (every exception is a result to compare)
        return e
    return None


def variables(ns: dict) -> dict:
    return {k: v for k, v in ns.items() if k != "lib" and not k.startswith("_")}


def _brief(exc) -> str:
    """An exception as one short line (PyTorch's dispatcher errors run to pages)."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:200]}"


def compare_outcomes(mg_exc, pt_exc) -> tuple[str, str] | None:
    """(kind, detail) when the two statements ended differently."""
    if mg_exc is None and pt_exc is None:
        return None
    if pt_exc is None:
        kind = INTERNAL if isinstance(mg_exc, _INTERNAL) else REFUSES
        return kind, f"minigrad raised {_brief(mg_exc)}"
    if mg_exc is None:
        return ACCEPTS, f"PyTorch raised {_brief(pt_exc)}"
    b = builtin_class(pt_exc)
    if isinstance(mg_exc, _INTERNAL) and not isinstance(pt_exc, _INTERNAL):
        return INTERNAL, f"minigrad raised {_brief(mg_exc)}; PyTorch {b.__name__}"
    if not isinstance(mg_exc, b):  # the `except` clause a PyTorch user wrote must catch it
        return ERROR_CLASS, (f"minigrad raised {_brief(mg_exc)}; PyTorch raised {_brief(pt_exc)}")
    return None


def _layout(t) -> str:
    return str(t.layout).rsplit(".", 1)[-1]


def _dtype(t) -> str:
    return str(t.dtype).rsplit(".", 1)[-1]


def _array(t) -> np.ndarray:
    if isinstance(t, torch.Tensor):
        t = t.detach()
        return t.numpy() if t.layout == torch.strided else _torch_dense(t)
    t = t.detach()
    return np.asarray(t.to_dense() if t.layout != "strided" else t)


def _torch_dense(t) -> np.ndarray:
    """A PyTorch COO tensor's dense values, scattered here: its own ``to_dense()`` gives zeros
    for a hybrid gradient made with ``create_graph=True`` (torch 2.13)."""
    if t.layout != torch.sparse_coo:
        return t.to_dense().numpy()
    c = t.coalesce()
    values = c.values().numpy()
    out = np.zeros(tuple(c.shape), values.dtype)
    out[tuple(c.indices().numpy())] = values
    return out


def values_differ(a: np.ndarray, b: np.ndarray, via_float32: bool = False) -> str | None:
    """Why two arrays of one shape differ (NaN, infinities and signed zeros compared too).

    float32 values, and float64 ones when the program has float32 tensors (``via_float32``:
    a float64 gradient may have flowed through a float32 op), are compared at float32's
    precision: the two libraries round float32 formulas in their own order."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    tight = a.dtype == np.float64 and b.dtype == np.float64 and not via_float32
    rtol, atol = (1e-6, 1e-10) if tight else (2e-4, 1e-5)
    close = np.isclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True)
    if not close.all():
        i = np.argwhere(~close)[0]
        return (
            f"at {tuple(int(k) for k in i)}: minigrad {a64[tuple(i)]!r}, PyTorch {b64[tuple(i)]!r}"
        )
    zeros = (a64 == 0) & (b64 == 0) & (np.signbit(a64) != np.signbit(b64))
    if zeros.any():
        i = tuple(int(k) for k in np.argwhere(zeros)[0])
        return f"signed zero at {i}: minigrad {a64[i]!r}, PyTorch {b64[i]!r}"
    return None


def compare_tensor(mg, pt, via_float32: bool = False) -> tuple[str, str] | None:
    """(kind, detail) of the first difference between a minigrad and a PyTorch tensor."""
    if tuple(mg.shape) != tuple(pt.shape):
        return SHAPE, f"minigrad {tuple(mg.shape)}, PyTorch {tuple(pt.shape)}"
    if _dtype(mg) != _dtype(pt):
        return DTYPE, f"minigrad {_dtype(mg)}, PyTorch {_dtype(pt)}"
    if _layout(mg) != _layout(pt):
        return LAYOUT, f"minigrad {_layout(mg)}, PyTorch {_layout(pt)}"
    if mg.requires_grad != pt.requires_grad:
        return REQUIRES_GRAD, f"minigrad {mg.requires_grad}, PyTorch {pt.requires_grad}"
    if mg.is_leaf != pt.is_leaf:
        return IS_LEAF, f"minigrad {mg.is_leaf}, PyTorch {pt.is_leaf}"
    why = values_differ(_array(mg), _array(pt), via_float32)
    return (VALUE, why) if why else None


def compare_value(mg, pt, via_float32: bool = False) -> tuple[str, str] | None:
    """Compare two variables of any type (tensors, numbers, tuples, handles)."""
    if isinstance(pt, torch.Tensor):
        if not _describable(pt):
            return None
        if not isinstance(mg, minigrad.Tensor):
            return TYPE, f"minigrad {type(mg).__name__}, PyTorch Tensor"
        return compare_tensor(mg, pt, via_float32)
    if isinstance(pt, (float, int, bool)):
        if type(mg) is not type(pt):
            return TYPE, f"minigrad {type(mg).__name__}, PyTorch {type(pt).__name__}"
        why = values_differ(np.asarray(mg, dtype=float), np.asarray(pt, dtype=float), via_float32)
        return (VALUE, why) if why else None
    return None  # hook handles and the like: nothing comparable


def _describable(pt) -> bool:
    """False for a PyTorch view whose grad_fn PyTorch refuses to rebuild (a split piece or a
    no_grad view whose base was modified in place): it raises on ``is_leaf``, lazily, where
    minigrad, which rebuilds eagerly, has an answer."""
    try:
        pt.is_leaf  # noqa: B018
    except RuntimeError:
        return False
    return True


def compare_grads(mg, pt, via_float32: bool = False) -> tuple[str, str] | None:
    if not isinstance(pt, torch.Tensor) or not isinstance(mg, minigrad.Tensor):
        return None
    if not _describable(pt):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ga, gb = mg.grad, pt.grad
    if (ga is None) != (gb is None):
        return GRAD_PRESENCE, f"minigrad {_grad_text(ga)}, PyTorch {_grad_text(gb)}"
    if ga is None:
        return None
    found = compare_tensor(ga, gb, via_float32)
    if found is None:
        return None
    kind, detail = found
    return (GRAD_VALUE if kind == VALUE else f"grad {kind}"), detail


def _grad_text(g) -> str:
    return "None" if g is None else f"a tensor {tuple(g.shape)}"


def compare_namespaces(mg_ns: dict, pt_ns: dict):
    """(kind, where, detail) of the first variable that differs, or None."""
    mg_vars, pt_vars = variables(mg_ns), variables(pt_ns)
    via_float32 = any(
        isinstance(v, torch.Tensor) and v.dtype == torch.float32 for v in pt_vars.values()
    )
    for name, pt in pt_vars.items():
        if name not in mg_vars:
            return TYPE, name, "only PyTorch defines it"
        found = compare_value(mg_vars[name], pt, via_float32)
        if found:
            return found[0], name, found[1]
        found = compare_grads(mg_vars[name], pt, via_float32)
        if found:
            return found[0], f"{name}.grad", found[1]
    return None


_INPLACE_CALL = re.compile(r"^(\w+)\.\w+_\((\w+)[,)]")
OVERLAP_NOTE = "(the in-place op's operand shares the memory it writes)"


def overlap_note(code: str, pt_ns: dict) -> str:
    """``OVERLAP_NOTE`` when ``code`` is ``a.op_(b, ...)`` and ``b`` shares ``a``'s memory in
    PyTorch (a view of it that PyTorch's overlap check cannot rule out): its kernel then reads
    ``b`` while it writes ``a``, in its own loop and vector order (docs/differences.md)."""
    m = _INPLACE_CALL.match(code)
    a, b = (pt_ns.get(name) for name in m.groups()) if m else (None, None)
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a is b:
        return ""
    if a.layout != torch.strided or b.layout != torch.strided:
        return ""
    same = a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    return f" {OVERLAP_NOTE}" if same else ""


SHARED_GRAD_NOTE = "(PyTorch's .grad of this leaf shares memory with another leaf's)"


def shared_grad_note(where: str, pt_ns: dict) -> str:
    """``SHARED_GRAD_NOTE`` when ``where`` is ``name.grad`` and PyTorch's ``.grad`` of that
    leaf shares memory with another leaf's: its AccumulateGrad kept two views of one
    gradient (0-d pieces of sum's expanded 1, unbound by stack's backward) as they came, so an
    accumulation into one changes both (docs/differences.md)."""
    name = where.removesuffix(".grad")
    g = getattr(pt_ns.get(name), "grad", None) if where.endswith(".grad") else None
    if not isinstance(g, torch.Tensor) or g.layout != torch.strided:
        return ""
    ptr = g.untyped_storage().data_ptr()
    for other, t in variables(pt_ns).items():
        h = getattr(t, "grad", None) if isinstance(t, torch.Tensor) else None
        if other != name and isinstance(h, torch.Tensor) and h.layout == torch.strided:
            if h.untyped_storage().data_ptr() == ptr:
                return f" {SHARED_GRAD_NOTE}"
    return ""


def sync_values(mg_ns: dict, pt_ns: dict) -> None:
    """Give minigrad's dense tensors PyTorch's exact values once they compared equal, so the
    next statement starts from the same inputs: a last-bit difference is not amplified into a
    failure later (``cos`` of a large number, ``x == 0`` of a computed ~1e-17)."""
    for name, pt in variables(pt_ns).items():
        mg = mg_ns.get(name)
        if not (isinstance(pt, torch.Tensor) and isinstance(mg, minigrad.Tensor)):
            continue
        if pt.layout != torch.strided or mg.layout != "strided" or not _describable(pt):
            continue
        data = mg._data
        if data.flags.writeable and data.shape == tuple(pt.shape):
            np.copyto(data, pt.detach().numpy(), casting="same_kind")
