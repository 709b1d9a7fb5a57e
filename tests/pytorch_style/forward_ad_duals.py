"""Forward-mode AD with dual numbers."""

import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
v = torch.tensor([1.0, 0.0, 0.0], dtype=torch.float64)
with fwAD.dual_level():
    dual = fwAD.make_dual(x, v)
    y = (dual.sin() * dual**2).sum()
    primal, tangent = fwAD.unpack_dual(y)
    print("primal", round(primal.item(), 8))
    print("tangent", round(tangent.item(), 8))
    plain = fwAD.unpack_dual(x * 2)
    print("no tangent", plain.tangent is None)
expected = (x.sin() * 2 * x + x.cos() * x**2)[0].item()
assert abs(tangent.item() - expected) < 1e-12


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_forward(t)
        return t**3

    @staticmethod
    def jvp(ctx, dt):
        (t,) = ctx.saved_tensors
        return 3 * t**2 * dt


with fwAD.dual_level():
    out = Cube.apply(fwAD.make_dual(x, torch.ones_like(x)))
    print("custom jvp", [round(t, 6) for t in fwAD.unpack_dual(out).tangent.tolist()])
