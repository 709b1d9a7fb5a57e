"""``einsum``: products and sums named by subscripts, ``"ij,jk->ik"`` for a matmul.

The forward is numpy's ``einsum``. The gradient of one operand is again an einsum: the
output's gradient times every other operand, summed over every letter the operand does not
have, ``"ik,jk->ij"`` for the first factor of a matmul (g @ B.T). A letter only that operand
has (summed away in the forward, like ``j`` in ``"ij->i"``) is missing from that product,
and the gradient is the same along it: it is broadcast back.
"""

from __future__ import annotations

import string

import numpy as np

from ..recording.function import Op
from ..tensor import Tensor


def _parse(equation: str, shapes: list) -> tuple[list, str]:
    """Explicit subscripts per operand and the output's, ``...`` replaced by spare letters."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise RuntimeError(f"einsum(): {len(terms)} operands in the equation, {len(shapes)} given")
    used = set(c for c in eq if c.isalpha())
    spare = [c for c in string.ascii_letters if c not in used]
    ell = max(
        (len(s) - (len(t) - 3) for t, s in zip(terms, shapes, strict=True) if "..." in t), default=0
    )
    fill = "".join(spare[:ell])
    terms = [
        t.replace("...", fill[ell - (len(s) - (len(t) - 3)) :]) if "..." in t else t
        for t, s in zip(terms, shapes, strict=True)
    ]
    for t, s in zip(terms, shapes, strict=True):
        if len(t) != len(s):
            raise RuntimeError(
                f"einsum(): the subscript '{t}' has {len(t)} letters for an operand of {len(s)} dims"
            )
    if arrow:
        out = rhs.replace("...", fill)
    else:  # implicit output: the ellipsis dims, then the letters used once, in order
        counts = {c: sum(t.count(c) for t in terms) for c in set("".join(terms))}
        out = fill + "".join(sorted(c for c in counts if counts[c] == 1 and c not in fill))
    return terms, out


class Einsum(Op):
    """Products and sums by subscripts; each operand's grad is the einsum of g and the others."""

    save_inputs = True
    saved_values = {"equation": lambda ctx: ctx.equation}

    @staticmethod
    def forward(ctx, *operands, equation):
        ctx.equation = equation
        return np.einsum(equation, *operands)

    @staticmethod
    def backward(ctx, g):
        terms, out = _split(ctx.equation)
        operands = ctx.saved_tensors
        grads = []
        for i, (term, a) in enumerate(zip(terms, operands, strict=True)):
            if len(set(term)) != len(term):
                raise NotImplementedError(
                    f"einsum backward: the operand '{term}' repeats a letter (a diagonal); "
                    "take the diagonal with torch.diagonal first"
                )
            others = [t for j, t in enumerate(terms) if j != i]
            present = set(out).union(*others)
            kept = "".join(c for c in term if c in present)
            grad = Einsum.apply(
                g,
                *[o for j, o in enumerate(operands) if j != i],
                equation=",".join([out, *others]) + "->" + kept,
            )
            if kept != term:  # letters only this operand had: the gradient is constant along them
                ones = [a.shape[k] if c in kept else 1 for k, c in enumerate(term)]
                grad = grad.reshape(*ones).expand(*a.shape)
            grads.append(grad)
        return tuple(grads)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (the product rule): the sum over operands of the einsum with that
        operand replaced by its tangent."""
        total = None
        for i, t in enumerate(tangents):
            if t is None:
                continue
            operands = [t if j == i else x for j, x in enumerate(inputs)]
            term = Einsum.apply(*operands, equation=params["equation"])
            total = term if total is None else total + term
        return total


def _split(equation: str) -> tuple[list, str]:
    lhs, _, out = equation.partition("->")
    return lhs.split(","), out


def einsum(equation: str, *operands) -> Tensor:
    """Sum of products over the subscripts of ``equation`` (``torch.einsum``).

    ``"ij,jk->ik"`` is a matmul, ``"bij,bjk->bik"`` a batched one, ``"ii->i"`` a diagonal,
    ``"i,i->"`` a dot product; ``...`` stands for the remaining dims. The operands may also
    be given as one list.

    Example:
        >>> import minigrad as mg
        >>> mg.einsum("ij,j->i", mg.tensor([[1.0, 2.0], [3.0, 4.0]]), mg.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' must be str, not {type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    for i, t in enumerate(operands):
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): operand {i} must be a Tensor, not {type(t).__name__}")
    terms, out = _parse(equation, [t.shape for t in operands])
    return Einsum.apply(*operands, equation=",".join(terms) + "->" + out)
