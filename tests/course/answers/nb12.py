"""Answers to notebook 12's exercises (gradients across processes)."""

from tests.course.answers import Exercise

BREAK_EVEN = "def break_even(world, row_bytes):\n    return {}"

# Exercise 2 (build it): ring_all_reduce, written three ways, and its typical mistakes.
RING_REF = """def ring_all_reduce(buffers):
    world = len(buffers)
    results = [np.array(buffer, copy=True) for buffer in buffers]
    chunks = [np.array_split(result, world) for result in results]
    messages = []
    for step in range(2 * (world - 1)):
        reduce_scatter = step < world - 1
        outgoing = []
        for r in range(world):
            if reduce_scatter:
                c = (r - step) % world
            else:
                c = (r + 1 - (step - (world - 1))) % world
            outgoing.append((r, c, chunks[r][c].copy()))
        for r, c, data in outgoing:
            right = (r + 1) % world
            messages.append((r, right, data.nbytes))
            if reduce_scatter:
                chunks[right][c] += data
            else:
                chunks[right][c][...] = data
    return results, messages"""

RING_BOUNDS = """def ring_all_reduce(buffers):
    W, N = len(buffers), len(buffers[0])
    sizes = [N // W + (i < N % W) for i in range(W)]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    span = lambda c: slice(starts[c], starts[c + 1])
    mine = [b.copy() for b in buffers]
    log = []
    # reduce-scatter: at step s rank r forwards chunk (r - s) mod W
    for s in range(W - 1):
        parcels = [(r, (r - s) % W, mine[r][span((r - s) % W)].copy()) for r in range(W)]
        for r, c, parcel in parcels:
            mine[(r + 1) % W][span(c)] += parcel
            log.append((r, (r + 1) % W, parcel.nbytes))
    # rank r now holds the finished chunk (r + 1) mod W; pass finished chunks on
    for s in range(W - 1):
        parcels = [(r, (r + 1 - s) % W, mine[r][span((r + 1 - s) % W)].copy()) for r in range(W)]
        for r, c, parcel in parcels:
            mine[(r + 1) % W][span(c)] = parcel
            log.append((r, (r + 1) % W, parcel.nbytes))
    return mine, log"""

RING_HELD = """def ring_all_reduce(buffers):
    world = len(buffers)
    parts = [[p.copy() for p in np.array_split(b, world)] for b in buffers]
    sent = []

    def ring_step(chunk_of, combine):
        # every rank sends chunk_of(r) to r + 1 at once
        parcels = [(r, chunk_of(r), parts[r][chunk_of(r)].copy()) for r in range(world)]
        for r, c, data in parcels:
            dst = (r + 1) % world
            parts[dst][c] = combine(parts[dst][c], data)
            sent.append((r, dst, data.size * data.itemsize))

    for s in range(world - 1):
        ring_step(lambda r: (r - s) % world, np.add)
    for s in range(world - 1):
        ring_step(lambda r: (r + 1 - s) % world, lambda mine, received: received)
    return [np.concatenate(p) for p in parts], sent"""

RING_ALL_TO_ALL = """def ring_all_reduce(buffers):
    world = len(buffers)
    messages = [(r, d, b.nbytes) for r, b in enumerate(buffers) for d in range(world) if d != r]
    results = [sum(b.copy() for b in buffers) for _ in range(world)]
    return results, messages"""

RING_WHOLE = """def ring_all_reduce(buffers):
    world = len(buffers)
    results = [b.copy() for b in buffers]
    passing = [b.copy() for b in buffers]
    messages = []
    for step in range(world - 1):
        passing = [passing[(r - 1) % world] for r in range(world)]
        for r in range(world):
            results[r] += passing[r]
            messages.append(((r - 1) % world, r, passing[r].nbytes))
    return results, messages"""

RING_NO_GATHER = RING_REF.replace("range(2 * (world - 1))", "range(world - 1)")
RING_OFF_BY_ONE = RING_REF.replace("c = (r - step) % world", "c = (r - step + 1) % world")
RING_ELEMENTS = RING_REF.replace("data.nbytes", "data.size")
RING_VIEWS = RING_REF.replace(
    "results = [np.array(buffer, copy=True) for buffer in buffers]", "results = list(buffers)"
)
RING_FLOAT = RING_REF.replace("np.array(buffer, copy=True)", "buffer.astype(float)")
RING_TODO_MESSAGES = RING_REF.replace("return results, messages", "return results, ...")

RIGHT_2 = (RING_REF, RING_BOUNDS, RING_HELD)
WRONG_2 = (
    (RING_ALL_TO_ALL, "all to all"),
    (RING_WHOLE, "not a whole buffer"),
    (RING_NO_GATHER, "the all-gather phase"),
    (RING_OFF_BY_ONE, "off by one"),
    (RING_ELEMENTS, "counts elements, not bytes"),
    (RING_VIEWS, "changed the input buffers"),
    (RING_FLOAT, "keep the inputs' dtype"),
)

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = 25_600_000",
            "answer_1 = 25.6e6",
            "answer_1 = 2 * (2 - 1) / 2 * 100_000 * 64 * 4",
            "answer_1 = dist.ring_all_reduce_bytes(100_000 * 64 * 4, world_size=2)",
            "answer_1 = np.int64(25_600_000)",
        ),
        wrong=(
            ("answer_1 = 2 * 100_000 * 64 * 4", "2n"),
            ("answer_1 = 100_000 * 64 * 4 // 2", "n / W"),
            ("answer_1 = 100_000 * 64", "4 bytes per float32"),
            ("answer_1 = 25.6", "not megabytes"),
            ("answer_1 = 100_000 * 64 * 4 / 2**20", "not MiB"),
            ("answer_1 = 135_176", "sparse gradient"),
        ),
    ),
    2: Exercise(right=RIGHT_2, wrong=WRONG_2),
    3: Exercise(
        right=(
            BREAK_EVEN.format("2 * row_bytes / (world * (8 + row_bytes))"),
            BREAK_EVEN.format("2 * row_bytes / world / (8 + row_bytes)"),
            BREAK_EVEN.format("np.float32(2 * row_bytes / (world * (8 + row_bytes)))"),
            "from scipy.optimize import brentq\n\n\n"
            "def break_even(world, row_bytes):\n"
            "    dense = 2 * (world - 1) / world * row_bytes\n"
            "    return brentq(lambda d: (world - 1) * d * (8 + row_bytes) - dense, 0, 1)",
        ),
        wrong=(
            (BREAK_EVEN.format("2 / world"), "8-byte int64 index"),
            (
                BREAK_EVEN.format("2 * (world - 1) / world * row_bytes / (8 + row_bytes)"),
                "W - 1 other ranks",
            ),
            (BREAK_EVEN.format("row_bytes / (world * (8 + row_bytes))"), "reduce-scatter"),
            (BREAK_EVEN.format("200 * row_bytes / (world * (8 + row_bytes))"), "not a percentage"),
            (BREAK_EVEN.format("2 * row_bytes / (world * 8 + row_bytes)"), "solve for d"),
            (BREAK_EVEN.format("row_bytes / (world - world)"), "ZeroDivisionError"),
            (
                "def break_even(world, row_bytes):\n"
                "    density = 2 * row_bytes / (world * (8 + row_bytes))",
                "TypeError",
            ),
        ),
    ),
    4: Exercise(
        right=(
            "answer_4 = 1",
            "answer_4 = 1.0",
            "answer_4 = np.int64(1)",
            "answer_4 = mg.tensor(1)",
        ),
        wrong=(
            ("answer_4 = 4", "which backward runs outside"),
            ("answer_4 = 3", "count the ones outside"),
            ("answer_4 = 0", "fourth backward"),
            ("answer_4 = 2", "weight and bias fit one bucket"),
            ("answer_4 = 8", "not a parameter"),
        ),
    ),
}
