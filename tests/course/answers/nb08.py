"""Typical answers to notebook 08 (debugging and training tricks): right ones in other forms,
and typical mistakes with the phrase the check's hint must say."""

from tests.course.answers import Exercise


def _backward(body: str) -> str:
    return f"def fixed_backward(x, grad_output):\n    return {body}\n"


SKELETON = """def backprop_by_hand(cache):
    # cache: the forward's arrays by name (numpy, float64), with X and Y.
    # Return d, where d[name] is the gradient of the loss with respect to cache[name].
    c = cache
    n = len(c["Y"])
    d = {}
    d["logprobs"] = ...  # your code: from loss = -logprobs[range(n), Y].mean()
    d["probs"] = ...  # logprobs = probs.log()
    d["counts_sum_inv"] = ...  # probs = counts * counts_sum_inv
    d["counts_sum"] = ...  # counts_sum_inv = counts_sum**-1
    d["counts"] = ...  # counts_sum = counts.sum(1, keepdim=True); probs = counts * counts_sum_inv
    d["norm_logits"] = ...  # counts = norm_logits.exp()
    d["logit_maxes"] = ...  # norm_logits = logits - logit_maxes
    d["logits"] = ...  # logit_maxes = logits.max(1, keepdim=True); norm_logits = logits - ...
    d["h"] = ...  # logits = h @ W2 + b2
    d["W2"] = ...
    d["b2"] = ...
    d["hpre"] = ...  # h = hpre.tanh()
    d["W1"] = ...  # hpre = embcat @ W1 + b1
    d["b1"] = ...
    d["embcat"] = ...
    d["emb"] = ...  # embcat = emb.reshape(n, -1)
    d["C"] = ...  # emb = C[X]
    return d
"""

BY_HAND = """def backprop_by_hand(cache):
    c = cache
    n = len(c["Y"])
    rows = np.arange(n)
    d = {}
    d["logprobs"] = np.zeros_like(c["logprobs"])
    d["logprobs"][rows, c["Y"]] = -1.0 / n
    d["probs"] = d["logprobs"] / c["probs"]
    d["counts_sum_inv"] = (c["counts"] * d["probs"]).sum(axis=1, keepdims=True)
    d["counts_sum"] = -(c["counts_sum"] ** -2) * d["counts_sum_inv"]
    d["counts"] = c["counts_sum_inv"] * d["probs"] + d["counts_sum"]
    d["norm_logits"] = c["counts"] * d["counts"]
    d["logit_maxes"] = -d["norm_logits"].sum(axis=1, keepdims=True)
    d["logits"] = d["norm_logits"].copy()
    d["logits"][rows, c["logits"].argmax(axis=1)] += d["logit_maxes"][:, 0]
    d["h"] = d["logits"] @ c["W2"].T
    d["W2"] = c["h"].T @ d["logits"]
    d["b2"] = d["logits"].sum(axis=0)
    d["hpre"] = (1 - c["h"] ** 2) * d["h"]
    d["W1"] = c["embcat"].T @ d["hpre"]
    d["b1"] = d["hpre"].sum(axis=0)
    d["embcat"] = d["hpre"] @ c["W1"].T
    d["emb"] = d["embcat"].reshape(c["emb"].shape)
    d["C"] = np.zeros_like(c["C"])
    np.add.at(d["C"], c["X"], d["emb"])
    return d
"""

# Written differently: separate variables, the max treated as a constant (its path to logits
# left out), the embedding's gradient by a loop, the weights' by einsum.
BY_HAND_LOOPS = """def backprop_by_hand(cache):
    X, Y = cache["X"], cache["Y"]
    n, V = cache["logits"].shape
    dlogprobs = np.zeros((n, V))
    for i in range(n):
        dlogprobs[i, Y[i]] = -1 / n
    dprobs = dlogprobs * cache["probs"] ** -1
    dcounts_sum_inv = np.sum(dprobs * cache["counts"], axis=1)[:, None]
    dcounts_sum = dcounts_sum_inv * -1 / cache["counts_sum"] ** 2
    dcounts = dprobs * cache["counts_sum_inv"]
    dcounts = dcounts + np.broadcast_to(dcounts_sum, dcounts.shape)
    dnorm_logits = dcounts * np.exp(cache["norm_logits"])
    dlogit_maxes = -dnorm_logits.sum(1)[:, None]
    dlogits = dnorm_logits  # the max only shifts each row: softmax does not see it
    dh = np.einsum("nv,hv->nh", dlogits, cache["W2"])
    dW2 = np.einsum("nh,nv->hv", cache["h"], dlogits)
    db2 = dlogits.sum(0)
    dhpre = dh * (1 - cache["h"] * cache["h"])
    dW1 = np.einsum("nk,nh->kh", cache["embcat"], dhpre)
    db1 = dhpre.sum(0)
    dembcat = dhpre @ cache["W1"].T
    demb = dembcat.reshape(n, X.shape[1], -1)
    dC = np.zeros_like(cache["C"])
    for i in range(n):
        for j in range(X.shape[1]):
            dC[X[i, j]] += demb[i, j]
    return {
        "logprobs": dlogprobs, "probs": dprobs, "counts_sum_inv": dcounts_sum_inv,
        "counts_sum": dcounts_sum, "counts": dcounts, "norm_logits": dnorm_logits,
        "logit_maxes": dlogit_maxes, "logits": dlogits, "h": dh, "W2": dW2, "b2": db2,
        "hpre": dhpre, "W1": dW1, "b1": db1, "embcat": dembcat, "emb": demb, "C": dC,
    }
"""

# Written differently again: in minigrad tensors (no autograd), logits' gradient by the softmax
# shortcut (probs - one_hot) / n, the embedding's gradient as a one-hot matmul.
BY_HAND_TENSORS = """def backprop_by_hand(cache):
    t = {k: mg.tensor(v) for k, v in cache.items() if k != "loss"}
    n, V = t["logits"].shape
    one_hot = mg.tensor(np.eye(V)[cache["Y"]])
    g = {"logprobs": -one_hot / n}
    g["probs"] = g["logprobs"] / t["probs"]
    g["counts_sum_inv"] = (t["counts"] * g["probs"]).sum(dim=1, keepdim=True)
    g["counts_sum"] = -g["counts_sum_inv"] / (t["counts_sum"] * t["counts_sum"])
    g["counts"] = t["counts_sum_inv"] * g["probs"] + g["counts_sum"]
    g["norm_logits"] = t["counts"] * g["counts"]
    g["logit_maxes"] = -g["norm_logits"].sum(dim=1, keepdim=True)
    g["logits"] = (t["probs"] - one_hot) / n
    g["h"] = g["logits"] @ t["W2"].T
    g["W2"] = t["h"].T @ g["logits"]
    g["b2"] = g["logits"].sum(dim=0)
    g["hpre"] = g["h"] * (1 - t["h"] ** 2)
    g["W1"] = t["embcat"].T @ g["hpre"]
    g["b1"] = g["hpre"].sum(dim=0)
    g["embcat"] = g["hpre"] @ t["W1"].T
    g["emb"] = g["embcat"].reshape(*t["emb"].shape)
    tokens = mg.tensor(np.eye(len(cache["C"]))[cache["X"].reshape(-1)])
    g["C"] = tokens.T @ g["emb"].reshape(-1, t["C"].shape[1])
    return g
"""


# The max treated as a constant (its path back into logits left out): d["logits"] changes by
# d["logit_maxes"], about 1e-17, so it and the rows after it are close but no longer exact.
BY_HAND_MAX_CONSTANT = BY_HAND.replace(
    '    d["logits"][rows, c["logits"].argmax(axis=1)] += d["logit_maxes"][:, 0]\n', ""
)
assert BY_HAND_MAX_CONSTANT != BY_HAND


def _one_bug(right_line: str, wrong_line: str) -> str:
    assert BY_HAND.count(right_line) == 1, right_line
    return BY_HAND.replace(right_line, wrong_line)


BY_HAND_WRONG = (
    (  # the mean's 1/n forgotten
        _one_bug("= -1.0 / n\n", "= -1.0\n"),
        "n = 32 times too large",
    ),
    (  # the sign of the loss dropped
        _one_bug("= -1.0 / n\n", "= 1.0 / n\n"),
        "wrong sign",
    ),
    (  # log's derivative taken as p, not 1/p
        _one_bug('d["logprobs"] / c["probs"]', 'd["logprobs"] * c["probs"]'),
        'd["probs"] is the first wrong gradient',
    ),
    (  # 1/sum's gradient not summed over the V columns it was broadcast to
        _one_bug(
            '(c["counts"] * d["probs"]).sum(axis=1, keepdims=True)', 'c["counts"] * d["probs"]'
        ),
        "summed over the broadcast dims",
    ),
    (  # the fan-out of counts into counts_sum dropped
        _one_bug(
            'c["counts_sum_inv"] * d["probs"] + d["counts_sum"]', 'c["counts_sum_inv"] * d["probs"]'
        ),
        "sum over both paths",
    ),
    (  # tanh's derivative as 1 - h
        _one_bug('(1 - c["h"] ** 2) * d["h"]', '(1 - c["h"]) * d["h"]'),
        "not 1 - h",
    ),
    (  # a transposed weight gradient
        _one_bug('c["h"].T @ d["logits"]', 'd["logits"].T @ c["h"]'),
        "transposed",
    ),
    (  # the bias gradient not summed over the batch
        _one_bug('d["logits"].sum(axis=0)', 'd["logits"]'),
        "summed over the broadcast dims",
    ),
    (  # the bias gradient averaged instead of summed
        _one_bug('d["hpre"].sum(axis=0)', 'd["hpre"].mean(axis=0)'),
        "n = 32 times too small",
    ),
    (  # repeated tokens: an assignment keeps one of their gradients
        _one_bug('np.add.at(d["C"], c["X"], d["emb"])', 'd["C"][c["X"]] = d["emb"]'),
        "more than once in X",
    ),
    (  # a gradient left out of the dict
        _one_bug('    d["b1"] = d["hpre"].sum(axis=0)\n', ""),
        'd["b1"] is the first wrong gradient (those before it in the table are right): missing',
    ),
    (  # autograd asked after all
        BY_HAND.replace(
            "    return d\n",
            '    x = mg.tensor(c["C"], requires_grad=True)\n    (x * x).sum().backward()\n'
            '    d["C"] = x.grad.numpy()\n    return d\n',
        ),
        "without autograd",
    ),
    (  # work in progress: the first gradient written, the others still the placeholder
        SKELETON.replace(
            'd["logprobs"] = ...  # your code: from loss = -logprobs[range(n), Y].mean()\n',
            'd["logprobs"] = np.zeros_like(c["logprobs"])\n'
            '    d["logprobs"][np.arange(n), c["Y"]] = -1 / n\n',
        ),
        'd["probs"] is the first wrong gradient (those before it in the table are right): not '
        "written yet",
    ),
    (  # the return forgotten
        BY_HAND.replace("    return d\n", ""),
        "yours returns a NoneType",
    ),
)


EXERCISES = {
    1: Exercise(
        right=(
            _backward("grad_output * (x.sin() + x * x.cos())"),
            _backward("grad_output * x.sin() + grad_output * x * x.cos()"),
            _backward("(mg.sin(x) + x * mg.cos(x)) * grad_output"),
            "def fixed_backward(x, grad_output):\n"
            "    local = x.sin() + x * x.cos()  # product rule\n"
            "    return local * grad_output\n",
        ),
        wrong=(
            (_backward("grad_output * (x.sin() + x.cos())"), "rejected above"),
            (_backward("x.sin() + x * x.cos()"), "grad_output"),
            (_backward("grad_output * x * x.cos()"), "gradcheck still disagrees"),
            (_backward("grad_output * (x.sin() - x * x.cos())"), "gradcheck still disagrees"),
            (_backward("grad_output * x.cos()"), "gradcheck still disagrees"),
            (_backward("grad_output * (x.sin() + x * x.cos()).sum()"), "gradcheck still disagrees"),
            (
                "def fixed_backward(x, grad_output):\n    grad_output * (x.sin() + x * x.cos())\n",
                "is the `return` missing?",
            ),
        ),
    ),
    2: Exercise(
        right=(BY_HAND, BY_HAND_LOOPS, BY_HAND_TENSORS, BY_HAND_MAX_CONSTANT),
        wrong=BY_HAND_WRONG,
    ),
    3: Exercise(
        right=(
            'answer_3 = "MulBackward0"',
            'answer_3 = "mulbackward0"',
            'answer_3 = "MulBackward"',
            "answer_3 = ' MulBackward0 '",
        ),
        wrong=(
            ('answer_3 = "SqrtBackward0"', "an inf is not a NaN"),
            ('answer_3 = "SqrtBackward"', "an inf is not a NaN"),
            ('answer_3 = "SumBackward1"', "makes no NaN of its own"),
            ('answer_3 = "SumBackward"', "makes no NaN of its own"),
            ('answer_3 = "SubBackward0"', "where nan > 0 first"),
            ('answer_3 = "MeanBackward0"', "where nan > 0 first"),
        ),
    ),
    4: Exercise(
        right=(
            "answer_4a = 1.0\nanswer_4b = float(np.sqrt(0.5**2 + 0.5**2 + 0.2**2 + 0.1**2))",
            "answer_4a = 1\nanswer_4b = 0.742",
            "answer_4a = 0.9999998\nanswer_4b = 0.7416",
            "answer_4a = np.float32(1.0)\nanswer_4b = mg.tensor([0.5, -0.5, 0.2, 0.1]).norm()",
        ),
        wrong=(
            ("answer_4a = 5.005\nanswer_4b = 0.742", "norm before clipping"),
            ("answer_4a = 1 / 5.005\nanswer_4b = 0.742", "factor"),
            ("answer_4a = 1.0\nanswer_4b = 0.5", "0.5 caps each entry"),
            ("answer_4a = 1.0\nanswer_4b = 0.7071", "are not clamped"),
            ("answer_4a = 1.0\nanswer_4b = 1.0", "does not rescale"),
            ("answer_4a = 1.0\nanswer_4b = 0.55", "square root"),
            ("answer_4a = 0.5\nanswer_4b = 0.742", "same factor"),
            ("answer_4a = 1.0\nanswer_4b = ...", "answer_4b is not answered yet"),
        ),
    ),
}
