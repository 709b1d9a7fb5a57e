"""A scalar autograd engine built live (a ``Value`` class with +, *, **, tanh, relu and a
topological backward), checked against the library's float64 tensors the way the lecture
does it: ``torch.Tensor([...]).double()``, ``requires_grad = True``, ``.data.item()`` and
``.grad.item()``; then a tiny MLP of Values against the same MLP in tensors."""

import math
import random

import LIB as torch


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, k):
        out = Value(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Value(max(0.0, self.data), (self,), "ReLU")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build(child)
                topo.append(v)

        build(self)
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1


def expression(x):
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    return h + q + q * x


x = Value(-4.0)
y = expression(x)
y.backward()
xmg, ymg = x, y

x = torch.Tensor([-4.0]).double()
x.requires_grad = True
y = expression(x)
y.backward()
xpt, ypt = x, y
print(ymg.data, ypt.data.item(), abs(ymg.data - ypt.data.item()) < 1e-6)
print(xmg.grad, xpt.grad.item(), abs(xmg.grad - xpt.grad.item()) < 1e-6)
print(x.dtype, y.dtype, y.grad_fn.name(), x.grad)


def second(a, b):
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    return g


a, b = Value(-4.0), Value(2.0)
g = second(a, b)
g.backward()
ta = torch.Tensor([-4.0]).double()
tb = torch.Tensor([2.0]).double()
ta.requires_grad = True
tb.requires_grad = True
tg = second(ta, tb)
tg.backward()
print(f"{g.data:.6f} {tg.data.item():.6f}")
print(f"{a.grad:.6f} {ta.grad.item():.6f} {b.grad:.6f} {tb.grad.item():.6f}")

x1 = torch.Tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double()
w1.requires_grad = True
w2 = torch.Tensor([1.0]).double()
w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double()
b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print("---")
print("x2", x2.grad.item())
print("w2", w2.grad.item())
print("x1", x1.grad.item())
print("w1", w1.grad.item())
print(torch.Tensor([[1, 2, 3], [4, 5, 6]]).shape, torch.Tensor([2.0]).dtype)

random.seed(42)
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
W1 = [[random.uniform(-1, 1) for _ in range(3)] for _ in range(4)]
W2 = [random.uniform(-1, 1) for _ in range(4)]
vW1 = [[Value(w) for w in row] for row in W1]
vW2 = [Value(w) for w in W2]
tW1 = torch.tensor(W1, dtype=torch.float64, requires_grad=True)
tW2 = torch.tensor(W2, dtype=torch.float64, requires_grad=True)
for step in range(5):
    loss = Value(0.0)
    for xrow, ygt in zip(xs, ys):
        hidden = [sum((w * xi for w, xi in zip(row, xrow)), Value(0.0)).tanh() for row in vW1]
        out = sum((w * h for w, h in zip(vW2, hidden)), Value(0.0)).tanh()
        loss = loss + (out - ygt) ** 2
    for p in [w for row in vW1 for w in row] + vW2:
        p.grad = 0.0
    loss.backward()
    for p in [w for row in vW1 for w in row] + vW2:
        p.data += -0.05 * p.grad

    X = torch.tensor(xs, dtype=torch.float64)
    pred = torch.tanh(torch.tanh(X @ tW1.T) @ tW2)
    tloss = ((pred - torch.tensor(ys, dtype=torch.float64)) ** 2).sum()
    tW1.grad = None
    tW2.grad = None
    tloss.backward()
    with torch.no_grad():
        tW1 -= 0.05 * tW1.grad
        tW2 -= 0.05 * tW2.grad
    print(f"{step} {loss.data:.10f} {tloss.item():.10f} {abs(loss.data - tloss.item()) < 1e-12}")
