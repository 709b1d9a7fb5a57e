"""The batch-norm half of the backprop-by-hand lecture: an embedding, a hidden layer with
a batch norm written out step by step (``bndiff``, ``bnvar`` with Bessel's correction,
``bnvar_inv``, ``bnraw``), parameters initialised in odd ways under ``torch.no_grad()``,
the whole backward derived by hand and compared with autograd in a ``cmp`` table (exact
equality where both libraries compute elementwise, closeness elsewhere), and the batch
statistics through ``.std(0, keepdim=True)`` and ``.var(0, keepdim=True, unbiased=True)``."""

import LIB as torch
import LIB.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
vocab, n_embd, block, n_hidden, n = 11, 3, 3, 16, 12
Xb = torch.randint(0, vocab, (n, block), generator=g)
Yb = torch.randint(0, vocab, (n,), generator=g)
C = torch.randn((vocab, n_embd), generator=g)
W1 = torch.randn((n_embd * block, n_hidden), generator=g) * (5 / 3) / ((n_embd * block) ** 0.5)
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab), generator=g) * 0.1
b2 = torch.randn(vocab, generator=g) * 0.1
bngain = torch.randn((1, n_hidden), generator=g) * 0.1 + 1.0
bnbias = torch.randn((1, n_hidden), generator=g) * 0.1
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
with torch.no_grad():
    W2 *= 0.5
    bngain.mul_(1.0)


def cmp(s, dt, t, exact=False):
    ex = torch.all(dt == t.grad).item()
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    shown = f"{str(ex):5s}" if exact else "  -  "
    print(f"{s:15s} | exact: {shown} | approximate: {str(app):5s} | small: {maxdiff < 1e-6}")


emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff**2
bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5) ** -0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdim=True)
counts_sum_inv = counts_sum**-1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes,
          logits, h, hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani,
          embcat, emb]:  # fmt: skip
    t.retain_grad()
loss.backward()
print(f"loss {loss.item():.6f}")

dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-(counts_sum**-2)) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhpreact = (1.0 - h**2) * dh
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
dbndiff = bnvar_inv * dbnraw
dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
dbnvar = (-0.5 * (bnvar + 1e-5) ** -1.5) * dbnvar_inv
dbndiff2 = (1.0 / (n - 1)) * torch.ones_like(bndiff2) * dbnvar
dbndiff += (2 * bndiff) * dbndiff2
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
dhprebn += 1.0 / n * (torch.ones_like(hprebn) * dbnmeani)
dembcat = dhprebn @ W1.T
dW1 = embcat.T @ dhprebn
db1 = dhprebn.sum(0)
demb = dembcat.view(emb.shape)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        ix = Xb[k, j]
        dC[ix] += demb[k, j]

cmp("logprobs", dlogprobs, logprobs, exact=True)
cmp("probs", dprobs, probs, exact=True)
for name, d, t in [
    ("counts_sum_inv", dcounts_sum_inv, counts_sum_inv), ("counts_sum", dcounts_sum, counts_sum),
    ("counts", dcounts, counts), ("norm_logits", dnorm_logits, norm_logits),
    ("logit_maxes", dlogit_maxes, logit_maxes), ("logits", dlogits, logits), ("h", dh, h),
    ("W2", dW2, W2), ("b2", db2, b2), ("hpreact", dhpreact, hpreact),
    ("bngain", dbngain, bngain), ("bnbias", dbnbias, bnbias), ("bnraw", dbnraw, bnraw),
    ("bnvar_inv", dbnvar_inv, bnvar_inv), ("bnvar", dbnvar, bnvar), ("bndiff2", dbndiff2, bndiff2),
    ("bndiff", dbndiff, bndiff), ("bnmeani", dbnmeani, bnmeani), ("hprebn", dhprebn, hprebn),
    ("embcat", dembcat, embcat), ("W1", dW1, W1), ("b1", db1, b1), ("emb", demb, emb), ("C", dC, C),
]:  # fmt: skip
    cmp(name, d, t)

hpreact_fast = (
    bngain
    * (hprebn - hprebn.mean(0, keepdim=True))
    / torch.sqrt(hprebn.var(0, keepdim=True, unbiased=True) + 1e-5)
    + bnbias
)
print("max diff:", (hpreact_fast - hpreact).abs().max().item() < 1e-6)
dhprebn_fast = (
    bngain
    * bnvar_inv
    / n
    * (n * dhpreact - dhpreact.sum(0) - n / (n - 1) * bnraw * (dhpreact * bnraw).sum(0))
)
cmp("hprebn fast", dhprebn_fast, hprebn)
print(f"{hprebn.std(0, keepdim=True).mean().item():.5f}")
print(f"{hprebn.var(0, keepdim=True, unbiased=True).mean().item():.5f}")
print(f"{hprebn.var(0, keepdim=True, unbiased=False).mean().item():.5f}")
print(f"{hprebn.std(0, keepdim=True, correction=0).mean().item():.5f}")
print(hprebn.std(0, keepdim=True).shape, bnvar.shape, bnmeani.shape)
print(
    torch.allclose(hprebn.var(0, keepdim=True), bnvar), torch.allclose(bnvar_inv**-2 - 1e-5, bnvar)
)
with torch.no_grad():
    bnmean_running = torch.zeros((1, n_hidden))
    bnstd_running = torch.ones((1, n_hidden))
    bnmean_running = 0.999 * bnmean_running + 0.001 * hprebn.mean(0, keepdim=True)
    bnstd_running = 0.999 * bnstd_running + 0.001 * hprebn.std(0, keepdim=True)
print(f"{bnmean_running.abs().sum().item():.6f} {bnstd_running.sum().item():.6f}")
print(bnmean_running.requires_grad, bnstd_running.grad_fn)
