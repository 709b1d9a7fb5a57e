"""A character MLP trained with minibatches drawn from a seeded generator, as the second
language-model lecture does (small sizes, so it runs in seconds)."""

import LIB as torch
import LIB.nn.functional as F

words = """emma olivia ava isabella sophia charlotte mia amelia harper evelyn abigail emily
elizabeth mila ella avery sofia camila aria scarlett victoria madison luna grace chloe
penelope layla riley zoey nora lily eleanor hannah lillian addison aubrey ellie stella""".split()
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab = len(stoi)
block_size = 3

X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + ".":
        X.append(context)
        Y.append(stoi[ch])
        context = context[1:] + [stoi[ch]]
X, Y = torch.tensor(X), torch.tensor(Y)
print(list(X.shape), X.dtype, list(Y.shape), Y.dtype)

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab, 4), generator=g)
W1 = torch.randn((block_size * 4, 32), generator=g) * 0.2
b1 = torch.randn(32, generator=g) * 0.01
W2 = torch.randn((32, vocab), generator=g) * 0.01
b2 = torch.randn(vocab, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

for step in range(60):
    ix = torch.randint(0, X.shape[0], (16,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, block_size * 4) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if step < 40 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if step % 10 == 0:
        print(f"{step:4d} {loss.item():.4f} {loss.log10().item():.4f}")

with torch.no_grad():
    emb = C[X]
    h = torch.tanh(emb.view(-1, block_size * 4) @ W1 + b1)
    print(f"full loss {F.cross_entropy(h @ W2 + b2, Y).item():.4f}")

g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(5):
    out, context = [], [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        probs = F.softmax(h @ W2 + b2, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 12:
            break
    print("".join(itos[i] for i in out))
