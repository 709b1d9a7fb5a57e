"""A bigram character model, counted and sampled as the first language-model lecture does."""

import LIB as torch

words = """emma olivia ava isabella sophia charlotte mia amelia harper evelyn abigail emily
elizabeth mila ella avery sofia camila aria scarlett victoria madison luna grace chloe
penelope layla riley zoey nora lily eleanor hannah lillian addison aubrey ellie stella
natalie zoe leah hazel violet aurora savannah audrey brooklyn bella claire skylar lucy""".split()

chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
n = len(stoi)

N = torch.zeros((n, n), dtype=torch.int32)
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(list(N.shape), N.sum().item(), N[0].max().item())

P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(f"{P[0, 1].item():.6f} {P.sum().item():.4f}")

g = torch.Generator().manual_seed(2147483647)
for _ in range(8):
    out, ix = [], 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))

log_likelihood, count = 0.0, 0
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        log_likelihood += torch.log(P[stoi[ch1], stoi[ch2]])
        count += 1
nll = -log_likelihood
print(f"{log_likelihood=:.4f}")
print(f"{nll / count:.4f}")
print(torch.rand(3, generator=g), torch.randint(0, n, (5,), generator=g))
