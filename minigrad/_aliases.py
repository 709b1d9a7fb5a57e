"""numpy's argument names where PyTorch accepts them: ``axis`` for ``dim``, ``keepdims`` for
``keepdim``.

PyTorch's argument parser takes ``P.sum(1, keepdims=True)`` as ``P.sum(1, keepdim=True)``
and ``x.mean(axis=0)`` as ``x.mean(dim=0)``, for people who come from numpy; lectures use
both. :func:`accept_numpy_names` gives a function with a ``dim``/``keepdim`` parameter the
same leniency. Passing both spellings is a TypeError, as in PyTorch.
"""

from __future__ import annotations

import functools
import inspect

ALIASES = {"axis": "dim", "keepdims": "keepdim"}


def accept_numpy_names(fn):
    """``fn``, accepting ``axis=``/``keepdims=`` for its ``dim``/``keepdim`` parameters."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # not a plain Python function
        return fn
    renames = {
        alias: name for alias, name in ALIASES.items() if name in params and alias not in params
    }
    if not renames:
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        for alias, name in renames.items():
            if alias in kwargs:
                if name in kwargs:
                    raise TypeError(
                        f"{fn.__name__}() got the argument '{name}' twice (also as '{alias}')"
                    )
                kwargs[name] = kwargs.pop(alias)
        return fn(*args, **kwargs)

    return wrapper
