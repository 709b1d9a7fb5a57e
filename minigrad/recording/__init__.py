"""Recording: what a forward pass leaves behind for backward (layer 4 of tests/test_layering.py).

* :mod:`.grad_mode` — ``no_grad``, ``enable_grad``, ``inference_mode``: whether ops record.
* :mod:`.node` — :class:`~.node.Node`, the graph's vertex: ``next_functions``, saved
  tensors, ``AccumulateGrad`` for a leaf; :mod:`.node_checks` runs around its backward.
* :mod:`.function` — ``Op.apply`` records an op; ``Function`` is the user's custom op.
* :mod:`.steps` — the ``Step`` records a backward pass hands out.
* :mod:`.saved`, :mod:`.graph` — saved tensors and their hooks (``torch.autograd.graph``).
* :mod:`.modes`, :mod:`.tangents`, :mod:`.anomaly` — the hooks forward-mode AD, autocast,
  tracing and anomaly detection put around an op.

Nothing here runs a backward pass: that is :mod:`minigrad.replaying`, above the ops. The
public paths are PyTorch's, ``minigrad.autograd.*`` (:mod:`minigrad.autograd`).
"""
