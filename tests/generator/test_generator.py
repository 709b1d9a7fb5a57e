"""minigrad.Generator without PyTorch: the stream, seeding, state, errors, and who uses it."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import random as mg_random


def test_the_stream_is_the_standard_mt19937():
    # C++'s [rand.predef]: the 10000th draw of a default-seeded (5489) mt19937 is 4123659995
    g = mg.Generator().manual_seed(5489)
    assert int(g._words(10000)[-1]) == 4123659995


def test_only_the_low_32_bits_seed_the_stream_but_initial_seed_keeps_all():
    a, b = mg.Generator().manual_seed(5), mg.Generator().manual_seed(2**40 + 5)
    assert mg.rand(4, generator=a).tolist() == mg.rand(4, generator=b).tolist()
    assert b.initial_seed() == 2**40 + 5
    assert mg.Generator().manual_seed(-1).initial_seed() == 2**64 - 1


def test_manual_seed_returns_the_generator_and_restarts_it():
    g = mg.Generator()
    assert g.manual_seed(3) is g
    first = mg.randn(5, generator=g).tolist()
    assert mg.randn(5, generator=g.manual_seed(3)).tolist() == first


def test_a_generator_does_not_touch_the_global_stream():
    mg.manual_seed(0)
    expected = mg.rand(3).tolist()
    mg.manual_seed(0)
    mg.rand(100, generator=mg.Generator().manual_seed(1))
    assert mg.rand(3).tolist() == expected


def test_global_functions():
    mg.manual_seed(77)
    assert mg.initial_seed() == 77 and mg.random.initial_seed() == 77
    state = mg.get_rng_state()
    drawn = mg.randn(7).tolist()
    mg.set_rng_state(state)
    assert mg.randn(7).tolist() == drawn
    new = mg.seed()
    assert mg.initial_seed() == new and 0 <= new < 2**64


def test_state_is_a_uint8_tensor_and_restores_the_cached_normal():
    g = mg.Generator().manual_seed(9)
    mg.randn(1, dtype=mg.float64, generator=g)  # the second Box-Muller sample is now cached
    state = g.get_state()
    assert state.dtype == mg.uint8 and state.dim() == 1
    after = mg.randn(1, dtype=mg.float64, generator=g).item()
    other = mg.Generator().set_state(state)
    assert mg.randn(1, dtype=mg.float64, generator=other).item() == after


def test_box_muller_pairs_in_blocks_of_16():
    # randn(16) is not randn(8) followed by 8 more: elements j and j+8 share a pair of uniforms
    g = mg.Generator()
    a = mg.randn(16, dtype=mg.float64, generator=g.manual_seed(0)).numpy()
    u = mg.rand(16, dtype=mg.float64, generator=g.manual_seed(0)).numpy()
    radius = np.sqrt(-2 * np.log(1 - u[:8]))
    np.testing.assert_allclose(a[:8] ** 2 + a[8:] ** 2, radius**2, rtol=1e-12)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: mg.Generator().manual_seed(1.5), TypeError, "int"),
        (lambda: mg.Generator().manual_seed(2**64), RuntimeError, "2**64"),
        (lambda: mg.Generator(device="cuda"), RuntimeError, "CPU only"),
        (lambda: mg.rand(3, generator=np.random.default_rng(0)), TypeError, "minigrad.Generator"),
        (lambda: mg.Generator().set_state(mg.zeros(3)), RuntimeError, "get_state"),
        (lambda: mg.multinomial(mg.tensor([0.5, 0.5]), 3), RuntimeError, "without replacement"),
        (lambda: mg.multinomial(mg.tensor([0.5, -0.5]), 1), RuntimeError, "element < 0"),
        (
            lambda: mg.multinomial(mg.tensor([0.0, 0.0]), 1, True),
            RuntimeError,
            "sum of probabilities",
        ),
        (lambda: mg.multinomial(mg.tensor([1.0, 0.0, 0.0]), 2), RuntimeError, "not enough"),
        (lambda: mg.multinomial(mg.tensor([1, 2]), 1), RuntimeError, "floating"),
        (lambda: mg.multinomial(mg.ones(2, 2, 2), 1), RuntimeError, "1 or 2 dim"),
        (lambda: mg.multinomial(mg.ones(3), 0), RuntimeError, "n_sample <= 0"),
        (lambda: mg.empty(3).bernoulli_(1.5), RuntimeError, "p to be in [0, 1]"),
        (lambda: mg.empty(3).normal_(0, -1), RuntimeError, "std >= 0.0"),
        (lambda: mg.empty(3).uniform_(2, 1), RuntimeError, "from=2 > to=1"),
        (lambda: mg.empty(3).exponential_(0), RuntimeError, "lambda > 0.0"),
        (lambda: mg.empty(3, dtype=mg.int64).normal_(), TypeError, "floating-point"),
    ],
)
def test_bad_input_names_the_problem(call, error, words):
    with pytest.raises(error, match=None) as info:
        call()
    assert words in str(info.value)


def test_in_place_samplers_respect_autograd_rules():
    w = mg.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        w.uniform_()
    with mg.no_grad():
        w.uniform_(generator=mg.Generator().manual_seed(0))
    assert w.requires_grad and w.is_leaf and bool((w != 0).all())
    v = w._version
    with mg.no_grad():
        w.normal_()
    assert w._version > v


def test_multinomial_draws_in_proportion():
    g = mg.Generator().manual_seed(0)
    draws = mg.multinomial(mg.tensor([1.0, 3.0, 6.0]), 20000, replacement=True, generator=g)
    freq = np.bincount(draws.numpy(), minlength=3) / 20000
    np.testing.assert_allclose(freq, [0.1, 0.3, 0.6], atol=0.015)
    one_each = [
        mg.multinomial(mg.tensor([1.0, 3.0, 6.0]), 1, generator=g).item() for _ in range(3000)
    ]
    np.testing.assert_allclose(
        np.bincount(one_each, minlength=3) / 3000, [0.1, 0.3, 0.6], atol=0.03
    )
    no_repeat = mg.multinomial(mg.ones(2, 10), 10, generator=g).numpy()
    assert all(sorted(row) == list(range(10)) for row in no_repeat)


def test_jit_tracing_still_refuses_random_numbers():
    def f(x):
        return x + mg.rand(3)

    with pytest.raises(RuntimeError, match="random numbers inside a traced function"):
        mg.func.make_jaxpr(f)(mg.zeros(3))
    mg.rand(2)  # and the global generator is back afterwards


def test_the_module_documents_the_algorithm():
    doc = mg_random.__doc__
    for words in ("Mersenne Twister", "Box-Muller", "24 bits", "53 bits", "16 elements"):
        assert words in doc


def test_factories_take_size_by_keyword_as_pytorch():
    """d2l.ai writes ``torch.randn(size=(), requires_grad=True)``; torch.randint(high=, size=)."""
    assert mg.zeros(size=[2, 3]).shape == (2, 3) and mg.ones(size=(2,)).shape == (2,)
    assert mg.empty(size=(1,)).shape == (1,) and mg.rand(size=(4,)).shape == (4,)
    x = mg.randn(size=(), requires_grad=True)
    assert x.shape == () and x.requires_grad
    mg.manual_seed(3)
    a = mg.randn(size=(2, 2))
    mg.manual_seed(3)
    assert mg.equal(a, mg.randn(2, 2))  # the same draws as the positional form
    assert mg.randint(high=3, size=(5,)).shape == (5,)
    with pytest.raises(TypeError, match="got multiple values for argument 'size'"):
        mg.zeros(2, size=(2,))


def test_normal_of_numbers_is_a_factory_with_requires_grad_and_device():
    # a textbook's linear regression: w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
    w = mg.normal(0, 0.01, size=(2, 1), requires_grad=True, device="cpu")
    same = mg.normal(0, 0.01, size=(2, 1), generator=mg.Generator().manual_seed(0))
    assert w.requires_grad and w.is_leaf and w.grad_fn is None and w.dtype is mg.float32
    assert not same.requires_grad
    (w * 2).sum().backward()
    assert w.grad.tolist() == [[2.0], [2.0]]
    d = mg.normal(1.0, 2.0, (3,), dtype=mg.float64, requires_grad=True)
    assert d.dtype is mg.float64 and d.requires_grad
    with pytest.raises(TypeError, match="requires_grad= and device= belong to the form"):
        mg.normal(mg.zeros(2), 1.0, requires_grad=True)
