"""Gradient accumulation: the sum of two gradients of one tensor, dense or sparse.

:mod:`.accumulate` holds the sum rules (:func:`~.accumulate.add_gradients`), the
densifications they cause and the policy's decision on each (:mod:`minigrad.sparse.config`
holds the settings). The engine (:mod:`minigrad.replaying`) calls it, downward; it uses the
sparse ops below it (``SparseAdd``, ``ToDense``) so that under ``create_graph=True`` each sum
is itself recorded.
"""
