"""Shared helpers of the submanifold-convolution tests: random active sites, hybrid COO
inputs, and a dense numpy reference (forward and gradients) written from the definition."""

import itertools

import numpy as np

import minigrad as mg


def random_sites(rng, sizes, density):
    """Sorted unique active sites on a grid: an (ndim, nnz) int64 array."""
    mask = rng.random(sizes) < density
    return np.stack(np.nonzero(mask)).astype(np.int64).reshape(len(sizes), -1)


def hybrid(sites, values, sizes, **kw):
    """A hybrid COO (sparse ``sizes``, one dense channel dim) holding ``values`` at ``sites``."""
    values = values if isinstance(values, mg.Tensor) else np.asarray(values)
    return mg.sparse_coo_tensor(sites, values, (*sizes, values.shape[1]), **kw)


def zero_filled(sites, values, sizes):
    """The dense (*sizes, C) array: values summed at their sites (duplicates too), zeros elsewhere."""
    values = np.asarray(values, dtype=np.float64)
    out = np.zeros((*sizes, values.shape[1]))
    np.add.at(out, tuple(sites), values)
    return out


def _windows(window):
    """Every kernel position with its slice offset into the zero-padded grid."""
    return list(itertools.product(*(range(k) for k in window)))


def dense_conv(dense, w, b=None):
    """Cross-correlation of a dense (*sizes, C) array with w (O, C, *window), zero padding
    window // 2: what torch's conv2d / conv3d with padding=k // 2 gives, channels last."""
    window = w.shape[2:]
    pad = [(k // 2, k // 2) for k in window] + [(0, 0)]
    padded = np.pad(dense, pad)
    sizes = dense.shape[:-1]
    out = np.zeros((*sizes, w.shape[0]))
    for pos in _windows(window):
        part = padded[tuple(slice(p, p + n) for p, n in zip(pos, sizes))]
        out += part @ w[(slice(None), slice(None), *pos)].T
    return out if b is None else out + b


def dense_conv_grads(dense, w, g):
    """Gradients of sum(dense_conv(dense, w, b) * g): (grad of dense, of w, of b)."""
    window = w.shape[2:]
    pad = [(k // 2, k // 2) for k in window] + [(0, 0)]
    padded = np.pad(dense, pad)
    sizes = dense.shape[:-1]
    gx = np.zeros_like(padded)
    gw = np.zeros_like(w)
    for pos in _windows(window):
        where = tuple(slice(p, p + n) for p, n in zip(pos, sizes))
        tap = (slice(None), slice(None), *pos)
        gx[where] += g @ w[tap]
        gw[tap] = g.reshape(-1, g.shape[-1]).T @ padded[where].reshape(-1, dense.shape[-1])
    inner = tuple(slice(k // 2, k // 2 + n) for k, n in zip(window, sizes))
    return gx[inner], gw, g.reshape(-1, g.shape[-1]).sum(0)


def subm_reference(sites, values, sizes, w, b=None):
    """The submanifold convolution by its definition: the dense conv read at the active sites
    (sorted unique sites, duplicates summed). Returns (unique sites, (nnz, O) values)."""
    dense = zero_filled(sites, values, sizes)
    unique = np.unique(sites, axis=1) if sites.shape[1] else sites
    batched = len(sizes) == w.ndim - 1  # a leading batch dim: one image at a time
    if batched:
        out = np.stack([dense_conv(img, w, b) for img in dense])
    else:
        out = dense_conv(dense, w, b)
    return unique, out[tuple(unique)]
