"""TensorFlow's tape on minigrad's engine: ``GradientTape``, ``custom_gradient``.

Named and shaped as TensorFlow 2's ``tf.GradientTape``, ``tf.custom_gradient`` and
``tf.UnconnectedGradients``, so that the same computation can be differentiated three ways
in one notebook: PyTorch's ``.backward()``, TensorFlow's tape, ``minigrad.func``'s transforms.
There is no second engine: a tape records nothing of its own; it remembers when it was
recording, runs minigrad's backward pass through the ops recorded then, and returns the
gradients without writing ``.grad`` (:mod:`.gradient_tape` says how; :mod:`.recording`
how ``watch`` makes a tensor that does not require grad differentiable for the tape).

Example (TensorFlow's classic first tape):
    >>> import minigrad as mg
    >>> from minigrad.tape import GradientTape
    >>> x = mg.tensor(3.0)
    >>> with GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x**2
    >>> tape.gradient(y, x)
    tensor(6.)
    >>> x.requires_grad, x.grad                      # x itself is unchanged
    (False, None)

Nested tapes give higher derivatives:
    >>> with GradientTape() as outer:
    ...     outer.watch(x)
    ...     with GradientTape() as inner:
    ...         inner.watch(x)
    ...         y = x**3
    ...     dy_dx = inner.gradient(y, x)             # 3x^2, recorded by the outer tape
    >>> dy_dx, outer.gradient(dy_dx, x)               # 27 and 6x = 18
    (tensor(27., grad_fn=<MulBackward0>), tensor(18.))
"""

from __future__ import annotations

from .custom_gradient import custom_gradient
from .gradient_tape import GradientTape, UnconnectedGradients

__all__ = ["GradientTape", "UnconnectedGradients", "custom_gradient"]
