"""Nested tuples, lists and dicts of tensors ("pytrees", as torch.func and JAX call them).

The transforms accept them where PyTorch does: ``grad`` of a function of a dict of
parameters returns a dict of gradients, ``vmap`` maps over every tensor of a dict and
stacks dict outputs key by key. Everything that is not a tuple, list or dict is a leaf.
Leaves are visited in order: tuple and list positions, dict keys as the dict lists them.

NB: ``torch.utils._pytree`` is the same idea with a registry of container types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator


def is_container(tree) -> bool:
    return isinstance(tree, (tuple, list, dict))


def leaves(tree) -> list:
    """The leaves of ``tree``, in order (``tree`` itself when it is a leaf)."""
    if isinstance(tree, dict):
        return [leaf for value in tree.values() for leaf in leaves(value)]
    if isinstance(tree, (tuple, list)):
        return [leaf for value in tree for leaf in leaves(value)]
    return [tree]


def tree_map(fn: Callable, tree):
    """The same structure with ``fn(leaf)`` at every leaf."""
    if isinstance(tree, dict):
        return {key: tree_map(fn, value) for key, value in tree.items()}
    if isinstance(tree, (tuple, list)):
        children = [tree_map(fn, value) for value in tree]
        if hasattr(tree, "_fields"):  # a namedtuple takes its fields one by one
            return type(tree)(*children)
        return type(tree)(children)
    return fn(tree)


def unflatten(structure, values: Iterator):
    """``structure`` with its leaves replaced, in order, by the next items of ``values``."""
    return tree_map(lambda _: next(values), structure)


def same_structure(a, b) -> bool:
    """True when ``a`` and ``b`` nest the same containers (same types, lengths and keys)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            type(a) is type(b) and list(a) == list(b) and all(same_structure(a[k], b[k]) for k in a)
        )
    if is_container(a) or is_container(b):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(same_structure(x, y) for x, y in zip(a, b))
        )
    return True
