"""Differentiable operations, one class per op with forward beside backward.

* :mod:`.arith`   + - * / ** and their scalar forms
* :mod:`.unary`   exp log sqrt sin cos tanh sigmoid relu abs sign clamp
* :mod:`.activation` leaky_relu silu gelu elu softplus logsigmoid hardtanh (and relu6)
* :mod:`.reduce`  sum mean max min var logsumexp softmax log_softmax
* :mod:`.shape`   reshape view flatten transpose permute unsqueeze squeeze expand
* :mod:`.select`  indexing, where, cat, stack, comparisons
* :mod:`.linalg`  matmul, mm
* :mod:`.convert` dtype casts, clone
* :mod:`.inplace` writes into part of a tensor (``y[k] = v``, in-place ops on views)
"""
