"""Activation statistics with forward hooks, a gradient check with a backward hook, a
checkpoint saved and loaded mid-training, and tensors printed with print options, as a
lecture on diagnosing a deep network does (small sizes, so it runs in seconds)."""

import io

import LIB as torch
import LIB.nn as nn

torch.manual_seed(42)
g = torch.Generator().manual_seed(2147483647)
X = torch.randn((64, 10), generator=g)
Y = (X[:, :3].sum(1) > 0).long()

model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 2))
stats = {}


def record(name):
    def hook(module, args, output):
        stats[name] = output.detach()

    return hook


handles = [
    layer.register_forward_hook(record(f"tanh{i}"))
    for i, layer in enumerate(model)
    if isinstance(layer, nn.Tanh)
]
grad_norms = []
handles.append(
    model[4].register_full_backward_hook(
        lambda module, grad_input, grad_output: grad_norms.append(grad_output[0].norm().item())
    )
)
scale = model[0].register_forward_pre_hook(lambda module, args: (args[0] * 0.5,))
optimizer = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)

for step in range(30):
    logits = model(X)
    loss = torch.nn.functional.cross_entropy(logits, Y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        line = [f"{step:3d} loss {loss.item():.4f} dout {grad_norms[-1]:.5f}"]
        for name, h in stats.items():
            saturated = (h.abs() > 0.97).float().mean().item() * 100
            line.append(
                f"{name} mean {h.mean().item():+.4f} std {h.std().item():.4f} sat {saturated:.2f}%"
            )
        print(" | ".join(line))
    if step == 14:
        buffer = io.BytesIO()
        torch.save(
            {"model": model.state_dict(), "opt": optimizer.state_dict(), "step": step}, buffer
        )

scale.remove()
print(f"without the pre-hook: {torch.nn.functional.cross_entropy(model(X), Y).item():.4f}")
for h in handles:
    h.remove()
n_hooked = len(grad_norms)
model(X).sum().backward()
print("hooks removed:", len(grad_norms) == n_hooked)

buffer.seek(0)
checkpoint = torch.load(buffer)
model.load_state_dict(checkpoint["model"])
optimizer.load_state_dict(checkpoint["opt"])
model[0].register_forward_pre_hook(lambda module, args: (args[0] * 0.5,))
for _ in range(checkpoint["step"] + 1, 30):
    loss = torch.nn.functional.cross_entropy(model(X), Y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"resumed from step {checkpoint['step']}: loss {loss.item():.4f}")

predictions = model(X).argmax(1)
wrong = (predictions != Y).nonzero(as_tuple=True)[0]
print("wrong:", wrong.tolist(), "count:", torch.count_nonzero(predictions != Y).item())
print("classes:", torch.unique(predictions, return_counts=True))
torch.set_printoptions(precision=2, linewidth=60)
print(model[4].bias.detach())
print(stats["tanh1"][:2])
torch.set_printoptions(threshold=8, edgeitems=2)
print(torch.arange(20.0) / 7)
torch.set_printoptions(profile="default", sci_mode=True)
print(model[4].bias.detach())
