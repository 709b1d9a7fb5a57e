"""TensorFlow's ``tf.nest`` in miniature: flatten a structure of tensors, and build it again.

A structure is a leaf (a Tensor, or anything that is not a container below), or a list, a
tuple, a namedtuple or a dict of structures. :func:`flatten` lists the leaves in order, a
dict's values by sorted key as ``tf.nest`` does, so that two dicts with the same keys line
up; :func:`pack_sequence_as` puts a flat list back into the shape of a structure (a dict keeps
its own key order). ``GradientTape.gradient`` uses both: the gradients come back in the
structure of the sources.

Example:
    >>> from minigrad.tape import nest
    >>> nest.flatten({"b": [1, 2], "a": 3})
    [3, 1, 2]
    >>> nest.pack_sequence_as({"b": [1, 2], "a": 3}, ["x", "y", "z"])
    {'b': ['y', 'z'], 'a': 'x'}
"""

from __future__ import annotations

from ..errors import tape as errors


def is_nested(x) -> bool:
    """True for the containers a structure is built of: list, tuple (namedtuple) and dict."""
    return isinstance(x, (list, tuple, dict))


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError:
        raise TypeError(errors.NEST_KEYS.format(keys=list(d))) from None


def _children(structure) -> list:
    """``(label, child)`` pairs of a container, in flattening order."""
    if isinstance(structure, dict):
        return [(f"[{k!r}]", structure[k]) for k in _sorted_keys(structure)]
    return [(f"[{i}]", child) for i, child in enumerate(structure)]


def flatten_with_paths(structure, name: str = "") -> list:
    """``(path, leaf)`` pairs, the path naming where the leaf sits (``sources['w'][0]``)."""
    if not is_nested(structure):
        return [(name, structure)]
    out = []
    for label, child in _children(structure):
        out.extend(flatten_with_paths(child, name + label))
    return out


def flatten(structure) -> list:
    """The leaves of ``structure``, in order (a leaf alone gives a one-element list)."""
    return [leaf for _, leaf in flatten_with_paths(structure)]


def pack_sequence_as(structure, flat):
    """``flat`` (as many items as ``structure`` has leaves) in the shape of ``structure``."""
    items = iter(flat)
    return _pack(structure, items)


def _pack(structure, items):
    if not is_nested(structure):
        return next(items)
    if isinstance(structure, dict):
        by_key = {k: _pack(structure[k], items) for k in _sorted_keys(structure)}
        return type(structure)((k, by_key[k]) for k in structure)
    packed = [_pack(child, items) for child in structure]
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):  # a namedtuple
        return type(structure)(*packed)
    return type(structure)(packed)
