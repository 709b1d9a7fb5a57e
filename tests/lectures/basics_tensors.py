"""The tensor and autograd chapters of PyTorch's "Learn the Basics", retold on small
synthetic data: creation from lists and numpy, the ``*_like`` factories, attributes,
indexing, ``cat``, arithmetic with ``out=``, ``item()``, in-place ops, the numpy bridge
(memory shared both ways), then ``requires_grad``, ``grad_fn``, ``no_grad``, ``detach`` and
a Jacobian-vector product with ``backward(gradient, retain_graph=True)``."""

import LIB as torch
import LIB.nn.functional as F
import numpy as np

torch.manual_seed(0)
data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
x_np = torch.from_numpy(np.array(data))
print(x_data, x_np, x_data.dtype, x_np.dtype, sep="\n")
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_rand = torch.rand_like(x_data, dtype=torch.float)
print(f"Random Tensor: \n {x_rand} \n")

shape = (2, 3)
for make in (torch.rand, torch.ones, torch.zeros):
    print(make(shape))
tensor = torch.rand(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")
print(tensor.shape, tensor.size(), tensor.size(1), tensor.ndim, tensor.numel())

tensor = torch.ones(4, 4)
print(f"First row: {tensor[0]}")
print(f"First column: {tensor[:, 0]}")
print(f"Last column: {tensor[..., -1]}")
tensor[:, 1] = 0
print(tensor)
t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1, t1.shape)
print(torch.stack([tensor[0], tensor[1]]))

y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)
y3 = torch.rand_like(y1)
torch.matmul(tensor, tensor.T, out=y3)
z1 = tensor * tensor
z2 = tensor.mul(tensor)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(y1, torch.equal(y1, y2), torch.equal(y1, y3), torch.equal(z1, z3), z2.sum())

agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item).__name__)
print(f"{tensor} \n")
tensor.add_(5)
print(tensor)
tensor.copy_(torch.arange(16.0).view(4, 4))
print(tensor, tensor.is_contiguous())

t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")
t.add_(1)
print(f"t: {t}")
print(f"n: {n}")
n = np.ones(5)
t = torch.from_numpy(n)
np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
print(torch.as_tensor(n).dtype, torch.tensor(n).dtype, torch.tensor([1.5, 2]).dtype)

x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = F.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn.name()}")
# (the tutorial prints loss.grad_fn too: BinaryCrossEntropyWithLogitsBackward0, where minigrad
# records MeanBackward0 above it until the reduction moves inside the node)
loss.backward()
print(w.grad)
print(b.grad)
print(f"loss {loss:.4f} {loss.item():.6f}")

z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad, z_det.is_leaf, z.is_leaf, w.is_leaf)

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")

a = torch.randn(2, 2)
a = (a * 3) / (a - 1)
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn.name(), b.grad_fn.next_functions[0][0].name())
