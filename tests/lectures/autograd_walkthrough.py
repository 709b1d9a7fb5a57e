"""The autograd chapter of PyTorch's introductory video series, retold: a ``linspace`` with
``requires_grad=True`` through ``sin``, walking ``grad_fn.next_functions`` by hand, a tiny
model's gradients and an optimizer step, turning autograd off (``requires_grad = False``,
``no_grad`` as a context and a decorator, ``detach``), the in-place-on-a-leaf error, and
``autograd.functional.jacobian``/``vjp``/``hvp``."""

import math

import LIB as torch

a = torch.linspace(0.0, 2.0 * math.pi, steps=9, requires_grad=True)
print(a)
b = torch.sin(a)
print(b)
c = 2 * b
print(c)
d = c + 1
print(d)
out = d.sum()
# (the video prints out itself: 9.0000007 in float32 is tensor(9.0000) in PyTorch, whose
# summation order rounds up, and tensor(9.) here, where numpy's rounds down)
print(f"{out.item():.4f}", out.grad_fn.name())


def edges(node):
    return [(None if f is None else f.name().split("::")[-1], i) for f, i in node.next_functions]


print("d:")
print(d.grad_fn.name())
print(edges(d.grad_fn))
print(edges(d.grad_fn.next_functions[0][0]))
print(edges(d.grad_fn.next_functions[0][0].next_functions[0][0]))
print("c:", c.grad_fn.name())
print("b:", b.grad_fn.name())
print("a:", a.grad_fn)
out.backward()
print(a.grad)
print(a.detach()[:3], a.grad.detach()[:3])

BATCH_SIZE = 4
DIM_IN = 20
HIDDEN_SIZE = 8
DIM_OUT = 5


class TinyModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Linear(DIM_IN, HIDDEN_SIZE)
        self.relu = torch.nn.ReLU()
        self.layer2 = torch.nn.Linear(HIDDEN_SIZE, DIM_OUT)

    def forward(self, x):
        x = self.layer1(x)
        x = self.relu(x)
        x = self.layer2(x)
        return x


torch.manual_seed(0)
some_input = torch.randn(BATCH_SIZE, DIM_IN, requires_grad=False)
ideal_output = torch.randn(BATCH_SIZE, DIM_OUT, requires_grad=False)
model = TinyModel()
print(model.layer2.weight[0][0:5])
print(model.layer2.weight.grad)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
prediction = model(some_input)
loss = (ideal_output - prediction).pow(2).sum()
print(loss)
loss.backward()
print(model.layer2.weight[0][0:5])
print(model.layer2.weight.grad[0][0:5])
optimizer.step()
print(model.layer2.weight[0][0:5])
print(model.layer2.weight.grad[0][0:5])
for _i in range(0, 5):
    prediction = model(some_input)
    loss = (ideal_output - prediction).pow(2).sum()
    loss.backward()
print(model.layer2.weight.grad[0][0:5])
optimizer.zero_grad(set_to_none=False)
print(model.layer2.weight.grad[0][0:5])

a = torch.ones(2, 3, requires_grad=True)
print(a)
b1 = 2 * a
print(b1)
a.requires_grad = False
b2 = 2 * a
print(b2)
a = torch.ones(2, 3, requires_grad=True) * 2
b = torch.ones(2, 3, requires_grad=True) * 3
c1 = a + b
print(c1)
with torch.no_grad():
    c2 = a + b
print(c2)
c3 = a * b
print(c3)


def add_tensors1(x, y):
    return x + y


@torch.no_grad()
def add_tensors2(x, y):
    return x + y


a = torch.ones(1, requires_grad=True) * 2
b = torch.ones(1, requires_grad=True) * 3
print(add_tensors1(a, b))
print(add_tensors2(a, b))
x = torch.rand(5, requires_grad=True)
y = x.detach()
print(x.requires_grad, y.requires_grad)

a = torch.linspace(0.0, 2.0 * math.pi, steps=5, requires_grad=True)
try:
    torch.sin_(a)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:73])

x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y.shape)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad / (y / x).detach())


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.rand(3), torch.rand(3))
print(inputs)
print(torch.autograd.functional.jacobian(exp_adder, inputs))
inputs = (torch.rand(1), torch.rand(1))
print(torch.autograd.functional.jacobian(exp_adder, inputs))


def do_some_doubling(x):
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    return y


inputs = torch.randn(3)
my_gradients = torch.tensor([0.1, 1.0, 0.0001])
print(torch.autograd.functional.vjp(do_some_doubling, inputs, v=my_gradients))


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(torch.autograd.functional.hvp(pow_reducer, inputs, v))
print(torch.autograd.functional.hessian(pow_reducer, torch.tensor([1.0, 2.0])))
