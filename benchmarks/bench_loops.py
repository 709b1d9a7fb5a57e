"""Lecture loops: minigrad and PyTorch (CPU, one thread), each in its own fresh process.

The loops a course runs, written once for both libraries (``lib`` is ``minigrad`` or
``torch``), on data made here with numpy (nothing is downloaded):

1. **counting**: the bigram counting loop of a character-level language-model lecture,
   ``N[i, j] += 1`` on an int32 27x27 tensor over every character pair of 32,033 made-up
   names (about 224,000 pairs); us per pair.
2. **single-element writes**: ``x[i] = v`` and ``x[i, j] -= 0.5`` on a float32 tensor, and
   ``y[i, j] -= 0.5`` on ``y = w * 2`` with ``w.requires_grad`` (each write recorded in the
   graph, then one backward); us per write.
3. **moons step**: micrograd's demo, ``MLP(2, [16, 16, 1])`` with ReLU as ``nn.Sequential``
   on 100 two-moons points, max-margin loss ``(1 - y * scores).relu().mean()`` plus L2
   ``alpha * sum(p * p)``, ``zero_grad``, backward, SGD step; ms per step.
4. **MLP loop**: the lecture's next model: embedding lookup ``C[X[ix]]``, a tanh hidden
   layer, ``F.cross_entropy``, minibatches of 32 drawn with a ``Generator``, hand-written
   SGD (``p.data += -lr * p.grad``); ms per step.
5. **numpy floor**: the moons step hand-written in numpy (forward and backward), the time
   left when no library records anything.

As a user runs it (benchmarks/_processes.py): each library in a fresh process that imports
only that library; processes alternate for ``--rounds`` rounds; each process reports the
median of its repeats; the table shows the median over the rounds and the range of the
per-round ratios. Times are the process's CPU time (see ``clock``). Run:
``python benchmarks/bench_loops.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _processes import Job, alternate, import_library, ratio_cell, versions

# CPU time of the process, not wall time: every library here runs on one thread, so the two
# agree on an idle machine, and on a shared one (this project's runs share 2 cores between
# sessions) wall time also counts the waits for a core, which swung the ratios 5-fold.
clock = time.process_time
LETTERS = ".abcdefghijklmnopqrstuvwxyz"  # "." starts and ends every name


def make_names(n: int = 32_033, seed: int = 0) -> list[str]:
    """``n`` made-up names of 2-10 letters, the same on every run (letter frequencies
    skewed as in real names, so some pairs are far more common than others)."""
    rng = np.random.default_rng(seed)
    weights = rng.random(26) ** 3 + 0.01
    letters = rng.choice(26, size=n * 10, p=weights / weights.sum())
    lengths = rng.integers(2, 11, size=n)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    return ["".join(LETTERS[1 + c] for c in letters[s : s + k]) for s, k in zip(starts, lengths)]


def make_moons(n: int = 100, noise: float = 0.1, seed: int = 0):
    """Two interleaving half circles (scikit-learn's ``make_moons`` recipe), labels +-1."""
    rng = np.random.default_rng(seed)
    a, b = n // 2, n - n // 2
    t1, t2 = np.linspace(0, np.pi, a), np.linspace(0, np.pi, b)
    upper = np.stack([np.cos(t1), np.sin(t1)], 1)
    lower = np.stack([1 - np.cos(t2), 0.5 - np.sin(t2)], 1)
    x = np.concatenate([upper, lower]) + rng.normal(scale=noise, size=(n, 2))
    y = np.concatenate([np.ones(a), -np.ones(b)])
    return x.astype(np.float32), y.astype(np.float32)


def counting(lib, names: list[str]) -> float:
    """us per ``N[i, j] += 1`` over every character pair of ``names``."""
    stoi = {ch: i for i, ch in enumerate(LETTERS)}
    pairs = [(stoi[a], stoi[b]) for w in names for a, b in zip("." + w, w + ".")]
    N = lib.zeros((27, 27), dtype=lib.int32)
    t0 = clock()
    for i, j in pairs:
        N[i, j] += 1
    elapsed = clock() - t0
    assert int(N.sum()) == len(pairs)
    return elapsed / len(pairs) * 1e6


def writes(lib, n: int = 20_000) -> dict:
    """us per single-element write, without and with a recorded history."""
    idx = np.random.default_rng(1).integers(0, 27, size=(n, 2)).tolist()
    out = {}
    x = lib.zeros(27)
    t0 = clock()
    for i, _ in idx:
        x[i] = 0.5
    out["x[i] = v"] = (clock() - t0) / n * 1e6
    x = lib.zeros((27, 27))
    t0 = clock()
    for i, j in idx:
        x[i, j] -= 0.5
    out["x[i, j] -= 0.5"] = (clock() - t0) / n * 1e6
    w = lib.ones((27, 27), requires_grad=True)
    y = w * 2
    m = n // 4  # each write adds nodes that backward then walks
    t0 = clock()
    for i, j in idx[:m]:
        y[i, j] -= 0.5
    y.sum().backward()
    out["y[i, j] -= 0.5, recorded, + backward"] = (clock() - t0) / m * 1e6
    assert float(w.grad.sum()) == 2 * 27 * 27
    return out


def moons_step(lib) -> float:
    """ms per training step of micrograd's demo (median of 7 repeats of 200 steps)."""
    nn = lib.nn
    xs, ys = make_moons()
    lib.manual_seed(1337)
    model = nn.Sequential(
        nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1)
    )
    X, y = lib.tensor(xs), lib.tensor(ys)
    opt = lib.optim.SGD(model.parameters(), lr=0.05)
    alpha = 1e-4

    def step():
        scores = model(X).squeeze(1)
        data_loss = (1 - y * scores).relu().mean()
        reg_loss = alpha * sum((p * p).sum() for p in model.parameters())
        loss = data_loss + reg_loss
        opt.zero_grad()
        loss.backward()
        opt.step()

    return _per_call(step, 200)


def mlp_loop(lib) -> float:
    """ms per minibatch step of the lecture's embedding + tanh MLP (block of 3 letters)."""
    F = lib.nn.functional
    stoi = {ch: i for i, ch in enumerate(LETTERS)}
    xs, ys = [], []
    for w in make_names(4000):
        context = [0, 0, 0]
        for ch in w + ".":
            xs.append(context)
            ys.append(stoi[ch])
            context = context[1:] + [stoi[ch]]
    X, Y = lib.tensor(xs), lib.tensor(ys)
    g = lib.Generator().manual_seed(2147483647)
    C = lib.randn((27, 10), generator=g)
    W1, b1 = lib.randn((30, 200), generator=g), lib.randn(200, generator=g)
    W2, b2 = lib.randn((200, 27), generator=g), lib.randn(27, generator=g)
    parameters = [C, W1, b1, W2, b2]
    for p in parameters:
        p.requires_grad = True

    def step():
        ix = lib.randint(0, X.shape[0], (32,), generator=g)
        emb = C[X[ix]]
        h = lib.tanh(emb.view(-1, 30) @ W1 + b1)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Y[ix])
        for p in parameters:
            p.grad = None
        loss.backward()
        for p in parameters:
            p.data += -0.1 * p.grad

    return _per_call(step, 200)


def numpy_moons_step() -> float:
    """The moons step by hand in numpy: the floor under any library (ms per step)."""
    xs, ys = make_moons()
    rng = np.random.default_rng(1337)
    sizes = [2, 16, 16, 1]
    shapes = list(zip(sizes[1:], sizes))
    Ws = [(rng.uniform(-1, 1, (m, n)) / np.sqrt(n)).astype(np.float32) for m, n in shapes]
    bs = [np.zeros(m, np.float32) for m in sizes[1:]]
    lr, alpha = np.float32(0.05), np.float32(1e-4)

    def step():
        acts = [xs]  # forward: keep each layer's input
        for k, (W, b) in enumerate(zip(Ws, bs)):
            z = acts[-1] @ W.T + b
            acts.append(np.maximum(z, 0) if k < 2 else z)
        margins = 1 - ys * acts[-1][:, 0]
        _loss = np.maximum(margins, 0).mean() + alpha * sum((p * p).sum() for p in Ws + bs)
        g = ((margins > 0) * -ys / len(ys)).astype(np.float32)[:, None]  # d loss / d scores
        for k in (2, 1, 0):  # backward and SGD step
            gW, gb = g.T @ acts[k] + 2 * alpha * Ws[k], g.sum(0) + 2 * alpha * bs[k]
            if k:
                g = (g @ Ws[k]) * (acts[k] > 0)
            Ws[k] -= lr * gW
            bs[k] -= lr * gb

    return _per_call(step, 200)


def _per_call(fn, n: int, repeats: int = 7) -> float:
    """ms per call of ``fn``: median over ``repeats`` timings of ``n`` calls (after ``n``
    warm-up calls)."""
    for _ in range(n):
        fn()
    times = []
    for _ in range(repeats):
        t0 = clock()
        for _ in range(n):
            fn()
        times.append((clock() - t0) / n * 1e3)
    return statistics.median(times)


def child(library: str) -> dict:
    """In a fresh process: every loop of one library (``numpy``: the floor only)."""
    if library == "numpy":
        return {"moons step": numpy_moons_step()}
    lib = import_library(library)  # here, not at the top: each child imports one library
    result = {"counting": counting(lib, make_names())}
    result.update(writes(lib))
    result["moons step"] = moons_step(lib)
    result["MLP loop"] = mlp_loop(lib)
    return result


ROWS = [  # (key, label, unit)
    ("counting", "counting loop `N[i, j] += 1` (int32 27x27), per pair", "us"),
    ("x[i] = v", "`x[i] = v` (float32), per write", "us"),
    ("x[i, j] -= 0.5", "`x[i, j] -= 0.5` (float32), per write", "us"),
    ("y[i, j] -= 0.5, recorded, + backward", "`y[i, j] -= 0.5` with history, + backward", "us"),
    ("moons step", "moons step: MLP(2,[16,16,1]), loss, backward, SGD", "ms"),
    ("MLP loop", "MLP loop: C[X], tanh, cross_entropy, SGD, batch 32", "ms"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating processes per library")
    args = parser.parse_args()
    runs = alternate(
        {lib: Job("bench_loops:child", (lib,), library=lib) for lib in ("minigrad", "torch")}
        | {"numpy": Job("bench_loops:child", ("numpy",), library="numpy")},
        args.rounds,
    )
    mg, th, floor = runs["minigrad"], runs["torch"], runs["numpy"]
    print(
        f"{versions()}; each library in its own fresh process, {args.rounds} alternating "
        f"rounds; medians over the rounds (per-round ratio range)"
    )
    print("| loop | minigrad | PyTorch | ratio | numpy floor |")
    print("|---|---|---|---|---|")
    for key, label, unit in ROWS:
        a, b = [r[key] for r in mg], [r[key] for r in th]
        digits = 2 if unit == "us" else 3
        cells = (
            f"{statistics.median(a):.{digits}f} {unit} | {statistics.median(b):.{digits}f} {unit}"
        )
        low = f"{statistics.median(r[key] for r in floor):.3f} ms" if key == "moons step" else ""
        print(f"| {label} | {cells} | {ratio_cell(a, b)} | {low} |")


if __name__ == "__main__":
    main()
