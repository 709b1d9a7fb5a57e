"""Replaying: running the recorded graph backward (and the tools built on it).

* :mod:`.engine` — ``schedule`` and ``BackwardPass``: backward itself, step by step.
* :mod:`.leaf_grad` — adding a gradient into a tensor's ``.grad``.
* :mod:`.api` — ``backward()`` and ``grad()``, the public doors.
* :mod:`.forward_ad`, :mod:`.jacobians`, :mod:`.functional` — dual tensors and the
  Jacobian / Hessian helpers of ``torch.autograd.functional``.
* :mod:`.gradcheck`, :mod:`.derivative_checks` — finite-difference checks of the formulas.

Sums of two gradients are :mod:`minigrad.accumulation`'s, the layer below. The public
paths are PyTorch's, ``minigrad.autograd.*`` (:mod:`minigrad.autograd`).
"""
