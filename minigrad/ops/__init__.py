"""Differentiable operations, one class per op with forward beside backward.

* :mod:`.arith`   + - * / ** and their scalar forms
* :mod:`.arith_more` maximum minimum logaddexp remainder fmod lerp
* :mod:`.unary`   exp log sqrt sin cos tanh sigmoid relu abs sign clamp
* :mod:`.unary_more` log1p expm1 reciprocal rsqrt sinh cosh asin acos atan erf erfc erfinv
  logit nan_to_num atan2 hypot
* :mod:`.rounding` floor ceil trunc round frac
* :mod:`.activation` leaky_relu silu gelu elu softplus logsigmoid hardtanh (and relu6)
* :mod:`.reduce`  sum mean max min var logsumexp softmax log_softmax
* :mod:`.reduce_more` std prod cumsum cumprod median
* :mod:`.shape`   reshape view flatten transpose permute unsqueeze squeeze expand
* :mod:`.shape_more` flip roll tril triu diag, and the views chunk split narrow diagonal
* :mod:`.select`  indexing, where, cat, stack, comparisons
* :mod:`.select_more` masked_fill
* :mod:`.linalg`  matmul, mm; linalg.inv det slogdet solve
* :mod:`.conv`    conv1d, conv2d (Convolution and its two gradient ops)
* :mod:`.pool`    max_pool2d, avg_pool2d
* :mod:`.convert` dtype casts, clone
* :mod:`.inplace` writes into part of a tensor (``y[k] = v``, in-place ops on views)
"""
