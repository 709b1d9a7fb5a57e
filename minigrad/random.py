"""Random numbers drawn exactly as PyTorch's CPU generator draws them (``torch.Generator``).

A lecture written for PyTorch seeds a generator and prints what it draws; with the same seed
and the same calls, minigrad draws the same numbers, so the printed numbers match. This module
is also a small lesson in how a pseudo-random stream becomes samples of a distribution.

1. **The stream.** A Mersenne Twister (MT19937) holds 624 32-bit words of state. Seeding fills
   them from the low 32 bits of the seed (``state[0] = seed``, then
   ``state[i] = 1812433253 * (state[i-1] ^ (state[i-1] >> 30)) + i``, modulo 2**32); each draw
   then yields one 32-bit word, and every 624 draws the state is "twisted" into the next 624.
   numpy's ``MT19937`` does the twisting; :class:`Generator` seeds it the way PyTorch does.
   A *64-bit draw* joins two words, the first one as the high half.
2. **Uniform floats in [0, 1).** A float32 takes the low 24 bits of one word and divides by
   2**24; a float64 takes the low 53 bits of a 64-bit draw and divides by 2**53. So a float32
   uniform costs one word and a float64 uniform two. ``uniform_(a, b)`` scales: ``x * (b - a) + a``.
3. **Integers in [low, high).** ``word % (high - low) + low``: one word when the range is below
   2**28, a 64-bit draw otherwise (PyTorch accepts the tiny bias of the modulo).
4. **Normal samples: Box-Muller.** Two uniforms u1, u2 give two independent normals:
   ``r = sqrt(-2 log(1 - u2))``, ``theta = 2 pi u1``, then ``r cos(theta)`` and ``r sin(theta)``.
   PyTorch uses it two ways. For fewer than 16 elements it draws a pair of float64 uniforms per
   two samples and keeps the second sample for the next call. For 16 elements or more it first
   fills the whole output with uniforms, then transforms each block of 16: element ``j`` and
   ``j + 8`` of a block are one pair; a tail shorter than 16 is redone from 16 fresh uniforms
   laid over the last 16 elements. That is why ``randn(16)`` does not start with the numbers
   of ``randn(8)``.
5. **Exponential samples** are ``-log(1 - u)`` (inverse of the distribution function).
   ``multinomial`` without replacement, or for one sample, divides each probability by an
   exponential sample and takes the largest (the "exponential race", equivalent to the
   Gumbel-max trick); with replacement and several samples it searches a uniform in the
   cumulative distribution.

Exactness. Every sampler here reproduces PyTorch 2.13's CPU numbers bit for bit, with one
documented exception where PyTorch's result depends on the CPU's vector instructions:
float32 normals of 16 or more contiguous elements (PyTorch evaluates log, sin and cos there
with vectorised approximations that can differ in the last bit, about one sample in seven;
minigrad rounds the exact values, so such a sample differs by one unit in the last place and
the stream stays in step). PyTorch scales float64 samples (``uniform_(a, b)``,
``normal_(mean, std)``) with a fused multiply-add, rounded once; :func:`fma` does the same
here, so ``nn.init`` in float64 gives PyTorch's parameters exactly. float64 logarithms go through Python's ``math`` module (the C
library's, as in PyTorch) because numpy's vectorised ``log`` can differ in the last bit.
"""

from __future__ import annotations

import math
import numbers
import struct

import numpy as np

from ._ranges import fma
from .errors import random as errors
from .tensor import Tensor

#: The seed of a new ``Generator()`` and of the default generator at start-up (PyTorch's).
DEFAULT_SEED = 67280421310721

_MASK32 = 0xFFFFFFFF
_STATE_FORMAT = "<624IiQ?d?d"  # key, position, seed, cached normals (flag, value) x2
_STATE_BYTES = struct.calcsize(_STATE_FORMAT)


def _mt19937_key(seed: int) -> np.ndarray:
    """The 624 words MT19937 starts from for ``seed`` (Matsumoto and Nishimura's init_genrand)."""
    key = np.empty(624, dtype=np.uint32)
    word = seed & _MASK32
    key[0] = word
    for i in range(1, 624):
        word = (1812433253 * (word ^ (word >> 30)) + i) & _MASK32
        key[i] = word
    return key


def _check_seed(seed) -> int:
    """``seed`` as PyTorch stores it: an int in [0, 2**64), negative seeds wrapped around."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(errors.SEED_TYPE.format(got=type(seed).__name__))
    seed = int(seed)
    if not -(2**63) <= seed < 2**64:
        raise RuntimeError(errors.SEED_RANGE.format(got=seed))
    return seed % 2**64


class Generator:
    """A seeded stream of random numbers, PyTorch's CPU generator (``torch.Generator``).

    Pass it as ``generator=`` to ``rand``, ``randn``, ``randint``, ``randperm``,
    ``multinomial``, ``normal``, ``bernoulli``, the in-place samplers and ``nn.init``, and
    the numbers come from it instead of the global generator (``minigrad.manual_seed``).

    Example:
        >>> import minigrad as mg
        >>> g = mg.Generator().manual_seed(2147483647)
        >>> mg.rand(3, generator=g)
        tensor([0.7081, 0.3542, 0.1054])
        >>> mg.randint(0, 27, (5,), generator=g)
        tensor([12,  5,  9,  8, 19])
    """

    def __init__(self, device="cpu"):
        if str(device) != "cpu":
            raise RuntimeError(errors.GENERATOR_DEVICE.format(got=device))
        self.device = "cpu"
        self._bits = np.random.MT19937()
        self.manual_seed(DEFAULT_SEED)

    # -- seeding and state (PyTorch's names) -------------------------------------------------

    def manual_seed(self, seed) -> Generator:
        """Restart the stream from ``seed`` (its low 32 bits seed MT19937); returns ``self``."""
        self._seed = _check_seed(seed)
        self._set_key(_mt19937_key(self._seed), 624)
        self._next_double_normal = None  # Box-Muller's second sample, kept for the next call
        self._next_float_normal = None
        return self

    def seed(self) -> int:
        """Seed from the operating system's entropy; return that seed (``Generator.seed``)."""
        new = int.from_bytes(
            np.random.SeedSequence().generate_state(2, np.uint32).tobytes(), "little"
        )
        self.manual_seed(new)
        return new

    def initial_seed(self) -> int:
        """The seed given to the last ``manual_seed`` (or ``seed``)."""
        return self._seed

    def get_state(self):
        """The whole state as a uint8 tensor, for ``set_state`` (layout: see ``_STATE_FORMAT``)."""
        state = self._bits.state["state"]
        packed = struct.pack(
            _STATE_FORMAT,
            *(int(w) for w in state["key"]),
            int(state["pos"]),
            self._seed,
            self._next_double_normal is not None,
            self._next_double_normal or 0.0,
            self._next_float_normal is not None,
            self._next_float_normal or 0.0,
        )
        return Tensor._make(np.frombuffer(packed, dtype=np.uint8).copy(), False, None)

    def set_state(self, new_state) -> Generator:
        """Restore a state returned by ``get_state`` (of this or another ``Generator``)."""
        data = new_state.numpy() if isinstance(new_state, Tensor) else None
        if data is None or data.dtype != np.uint8 or data.shape != (_STATE_BYTES,):
            got = f"{type(new_state).__name__} {getattr(data, 'dtype', '')} {getattr(data, 'shape', '')}"
            raise RuntimeError(errors.GENERATOR_STATE.format(size=_STATE_BYTES, got=got.strip()))
        fields = struct.unpack(_STATE_FORMAT, data.tobytes())
        key, pos, seed = fields[:624], fields[624], fields[625]
        has_double, double, has_float, single = fields[626:]
        if not 0 <= pos <= 624:
            raise RuntimeError(
                errors.GENERATOR_STATE.format(size=_STATE_BYTES, got=f"position {pos}")
            )
        self._set_key(np.array(key, dtype=np.uint32), pos)
        self._seed = seed
        self._next_double_normal = double if has_double else None
        self._next_float_normal = single if has_float else None
        return self

    def _set_key(self, key: np.ndarray, pos: int) -> None:
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}

    def __repr__(self) -> str:
        return f"<minigrad.Generator object at {id(self):#x}>"

    # -- the stream: 32-bit words and 64-bit draws --------------------------------------------

    def _words(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit words (as uint64, so arithmetic on them cannot wrap)."""
        return self._bits.random_raw(n).astype(np.uint64)

    def _draws64(self, n: int) -> np.ndarray:
        """The next ``n`` 64-bit draws: two words each, the first one high."""
        words = self._words(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    # -- uniform floats and integers ------------------------------------------------------------

    def _uniform(self, n: int, dtype: np.dtype) -> np.ndarray:
        """``n`` uniforms in [0, 1) of ``dtype`` (float32: 24 bits of a word; float64: 53 of two)."""
        if dtype == np.float64:
            return (self._draws64(n) & np.uint64(2**53 - 1)).astype(np.float64) / 2.0**53
        return (
            (self._words(n) & np.uint64(2**24 - 1)).astype(np.float32) / np.float32(2**24)
        ).astype(dtype)

    def _uniform_between(self, n: int, low: float, high: float, dtype: np.dtype) -> np.ndarray:
        """``x * (high - low) + low`` for uniforms x, as PyTorch rounds it (one fused multiply-add)."""
        if dtype == np.float64:
            return fma(self._uniform(n, dtype), np.float64(high) - np.float64(low), low)
        lo, hi = np.float32(low), np.float32(high)
        x = self._uniform(n, np.float32).astype(np.float64)
        # float32 products are exact in float64, so this rounds once, like the fused multiply-add
        return (x * np.float64(hi - lo) + np.float64(lo)).astype(dtype)

    def _integers(self, n: int, low: int, high: int) -> np.ndarray:
        """``n`` integers in [low, high): a word (or a 64-bit draw for ranges >= 2**28) mod range."""
        span = high - low
        draws = self._words(n) if span < 2**28 else self._draws64(n)
        return (draws % np.uint64(span)).astype(np.int64) + low

    # -- normals: Box-Muller, the two ways PyTorch lays it out ------------------------------------

    def _normal(
        self, n: int, dtype: np.dtype, contiguous: bool = True, mean=0.0, std=1.0
    ) -> np.ndarray:
        """``n`` samples of N(mean, std**2) of ``dtype``, in PyTorch's order and rounding."""
        if n >= 16 and contiguous:
            z = self._normal_blocks(n, dtype)
            if mean == 0.0 and std == 1.0:
                return z
            if dtype == np.float64:
                return fma(z, np.float64(std), np.float64(mean))
            # one rounding, as PyTorch's fused multiply-add (float32 products are exact in float64)
            return (z.astype(np.float64) * np.float32(std) + np.float32(mean)).astype(dtype)
        # fewer than 16 (or a strided output): float64 samples, scaled in float64, then rounded
        z = np.array([self._normal_one() for _ in range(n)], dtype=np.float64)
        return fma(z, np.float64(std), np.float64(mean)).astype(dtype)

    def _normal_one(self) -> float:
        """One float64 sample, Box-Muller on a fresh pair, keeping the sin sample for next time."""
        if self._next_double_normal is not None:
            sample, self._next_double_normal = self._next_double_normal, None
            return sample
        u1, u2 = self._uniform(2, np.float64)
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._next_double_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def _normal_blocks(self, n: int, dtype: np.dtype) -> np.ndarray:
        """``n >= 16`` samples: uniforms first, then Box-Muller on blocks of 16 (j with j + 8)."""
        work = np.float64 if dtype == np.float64 else np.float32
        out = self._uniform(n, work)
        full = n - n % 16
        out[:full] = self._box_muller_16(out[:full])
        if n % 16:  # the tail: 16 fresh uniforms over the last 16 elements
            out[n - 16 :] = self._box_muller_16(self._uniform(16, work))
        return out.astype(dtype)

    @staticmethod
    def _box_muller_16(uniforms: np.ndarray) -> np.ndarray:
        """Blocks of 16 uniforms -> 16 normals: the first 8 give cos samples, the last 8 sin."""
        blocks = uniforms.reshape(-1, 2, 8)
        u1, u2 = 1 - blocks[:, 0], blocks[:, 1]  # 1 - u lies in (0, 1], safe for log
        if uniforms.dtype == np.float64:
            log_u1 = np.fromiter(map(math.log, u1.ravel()), np.float64, u1.size).reshape(u1.shape)
            radius = np.sqrt(-2.0 * log_u1)
            theta = 2.0 * math.pi * u2
        else:  # float32 arithmetic, each step rounded to float32 as PyTorch's float kernel does
            radius = np.sqrt(np.float32(-2) * np.log(u1.astype(np.float64)).astype(np.float32))
            theta = np.float32(2 * math.pi) * u2
        cos = np.cos(theta.astype(np.float64)).astype(uniforms.dtype)
        sin = np.sin(theta.astype(np.float64)).astype(uniforms.dtype)
        return np.stack([radius * cos, radius * sin], axis=1).reshape(uniforms.shape)

    # -- exponential ------------------------------------------------------------------------------

    def _exponential(self, n: int, rate: float, dtype: np.dtype) -> np.ndarray:
        """``n`` samples of Exp(rate): ``-log(1 - u) / rate`` for float64 uniforms u."""
        u = self._uniform(n, np.float64)
        samples = np.fromiter((-math.log1p(-x) / rate for x in u), np.float64, n)
        return samples.astype(dtype)


class _Default:
    """Which generator ``generator=None`` means: the global one (``default_generator``).

    ``minigrad.func`` tracing swaps in a stand-in that refuses to draw while a function is
    traced; everything else reads ``_Default.current``.
    """

    current: Generator | None = None


default_generator = Generator()
_Default.current = default_generator


def resolve(generator) -> Generator:
    """The generator to draw from: ``generator``, or the global one when it is None."""
    if generator is None:
        return _Default.current
    if not isinstance(generator, Generator):
        raise TypeError(errors.GENERATOR_TYPE.format(got=type(generator).__name__))
    return generator


def draw_seed(generator) -> int:
    """A seed drawn from ``generator`` (or the global one): PyTorch's
    ``torch.empty((), dtype=torch.int64).random_()``, a 64-bit draw modulo 2**63."""
    return int(resolve(generator)._draws64(1)[0] % np.uint64(2**63))


def manual_seed(seed) -> Generator:
    """Seed the global generator (``torch.manual_seed``); returns it."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the global generator from the operating system (``torch.seed``); returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The global generator's last seed (``torch.initial_seed``)."""
    return default_generator.initial_seed()


def get_rng_state():
    """The global generator's state (``torch.get_rng_state``)."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the global generator's state (``torch.set_rng_state``)."""
    default_generator.set_state(new_state)
