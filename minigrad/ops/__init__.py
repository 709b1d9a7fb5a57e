"""Differentiable operations, one class per op with forward beside backward.

* :mod:`.arith`         + - * / ** and their scalar forms
* :mod:`.binary_math`   maximum minimum logaddexp squared_difference remainder fmod lerp
* :mod:`.unary`         exp log sqrt sin cos tanh sigmoid relu abs sign clamp
* :mod:`.trig_and_logs` log1p log2 log10 expm1 reciprocal rsqrt sinh cosh asin acos atan atan2
  hypot
* :mod:`.special`       erf erfc erfinv logit, and nan_to_num
* :mod:`.rounding`      floor ceil trunc round frac
* :mod:`.activation`    leaky_relu silu gelu elu softplus logsigmoid hardtanh (and relu6)
* :mod:`.reduce`        sum mean max min var std logsumexp softmax log_softmax
* :mod:`.prod_and_scans` prod, and the scans cumsum cumprod cummax cummin
* :mod:`.shape`         reshape view flatten transpose permute unsqueeze squeeze expand
* :mod:`.flip_split`    flip roll tril triu, and the views chunk split narrow
* :mod:`.diagonal`      diagonal (a view) and diag
* :mod:`.select`        indexing, where, cat, stack, comparisons
* :mod:`.masked`        masked_fill, nonzero argwhere count_nonzero
* :mod:`.linalg`        matmul, mm, addmm; linalg.inv det slogdet solve
* :mod:`.conv`          conv1d, conv2d (Convolution and its two gradient ops)
* :mod:`.pool`          max_pool2d, avg_pool2d
* :mod:`.convert`       dtype casts, clone
* :mod:`.inplace`       writes into part of a tensor (``y[k] = v``, in-place ops on views)
"""
