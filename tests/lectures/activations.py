"""The activations-and-gradients lecture's diagnostics, on a deeper MLP of hand-written
layers: kaiming-style init (``randn / fan_in**0.5 * 5/3`` and ``nn.init.kaiming_normal_``),
``torch.no_grad()`` rescaling of the last layer, ``retain_grad()`` on every layer's output,
forward statistics (mean, std, saturation), backward statistics of ``layer.out.grad``,
grad-to-data ratios and update-to-data ratios logged with ``log10().item()``, and the
``plt.hist(t.view(-1).tolist(), 50)`` data through ``torch.histc``."""

import LIB as torch
import LIB.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
vocab, n_embd, block, n_hidden, n = 27, 5, 3, 32, 200
X = torch.randint(0, vocab, (n, block), generator=g)
Y = (X.sum(1) * 7) % vocab


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in**0.5
        self.bias = torch.zeros(fan_out) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


C = torch.randn((vocab, n_embd), generator=g)
layers = [
    Linear(n_embd * block, n_hidden), Tanh(),
    Linear(n_hidden, n_hidden), Tanh(),
    Linear(n_hidden, n_hidden), Tanh(),
    Linear(n_hidden, vocab),
]  # fmt: skip
with torch.no_grad():
    layers[-1].weight *= 0.1
    for layer in layers[:-1]:
        if isinstance(layer, Linear):
            layer.weight *= 5 / 3
parameters = [C] + [p for layer in layers for p in layer.parameters()]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

w = torch.empty(4, n_hidden)
torch.manual_seed(0)
torch.nn.init.kaiming_normal_(w, mode="fan_in", nonlinearity="tanh")
print(f"{w.std().item():.4f} {torch.nn.init.calculate_gain('tanh'):.4f}")

lossi, ud = [], []
for i in range(30):
    ix = torch.randint(0, X.shape[0], (32,), generator=g)
    Xb, Yb = X[ix], Y[ix]
    emb = C[Xb]
    x = emb.view(emb.shape[0], -1)
    for layer in layers:
        x = layer(x)
    loss = F.cross_entropy(x, Yb)
    for layer in layers:
        layer.out.retain_grad()
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1
    for p in parameters:
        p.data += -lr * p.grad
    if i % 10 == 0:
        print(f"{i:7d}/{30:7d}: {loss.item():.4f}")
    lossi.append(loss.log10().item())
    with torch.no_grad():
        ud.append([((lr * p.grad).std() / p.data.std()).log10().item() for p in parameters])

for i, layer in enumerate(layers[:-1]):
    if isinstance(layer, Tanh):
        t = layer.out
        print(
            "layer %d (%10s): mean %+.2f, std %.2f, saturated: %.2f%%"  # noqa: UP031
            % (
                i,
                layer.__class__.__name__,
                t.mean(),
                t.std(),
                (t.abs() > 0.97).float().mean() * 100,
            )
        )
        counts = torch.histc(t.detach().view(-1), bins=10, min=-1, max=1)
        print(counts.tolist())
for i, layer in enumerate(layers[:-1]):
    if isinstance(layer, Tanh):
        t = layer.out.grad
        print(
            "layer %d (%10s): mean %+f, std %e"  # noqa: UP031
            % (i, layer.__class__.__name__, t.mean(), t.std())
        )
for p in parameters:
    t = p.grad
    if p.ndim == 2:
        print(
            "weight %10s | mean %+f | std %e | grad:data ratio %e"  # noqa: UP031
            % (tuple(p.shape), t.mean(), t.std(), t.std() / p.std())
        )
print(" ".join(f"{u:.2f}" for u in ud[-1]))
print(f"{torch.tensor(lossi).mean().item():.4f}")
