"""The textbook's convolution chapters in the d2l.ai style: cross-correlation by hand
(``corr2d`` writing ``Y[i, j] = (X[i:i + h, j:j + w] * K).sum()``), learning an edge kernel
with ``nn.LazyConv2d(1, kernel_size=(1, 2), bias=False)`` and ``weight.data[:] -= lr *
weight.grad``, padding and stride (``comp_conv2d``'s output shapes), multiple channels
(``torch.stack``, a 1x1 convolution as ``torch.matmul``), pooling by hand and with
``nn.MaxPool2d`` (padding, stride, ``torch.cat`` of channels), LeNet written with
``LazyConv2d``/``LazyLinear`` (layer-by-layer output shapes, ``init_cnn`` with
``xavier_uniform_``) trained on a synthetic MNIST-shaped set, and batch normalization
with ``nn.LazyBatchNorm2d``/``LazyBatchNorm1d``."""

import LIB as torch
from LIB import nn

torch.manual_seed(0)


def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i : i + h, j : j + w] * K).sum()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))
X = torch.ones((6, 8))
X[:, 2:6] = 0
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y, corr2d(X.t(), K))

conv2d = nn.LazyConv2d(1, kernel_size=(1, 2), bias=False)
print(conv2d, conv2d.weight)
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2
for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f"epoch {i + 1}, loss {l.sum():.3f}")
print(conv2d.weight.data.reshape((1, 2)), conv2d)


def comp_conv2d(conv2d, X):
    X = X.reshape((1, 1) + X.shape)
    Y = conv2d(X)
    return Y.reshape(Y.shape[2:])


X = torch.rand(size=(8, 8))
print(comp_conv2d(nn.LazyConv2d(1, kernel_size=3, padding=1), X).shape)
print(comp_conv2d(nn.LazyConv2d(1, kernel_size=(5, 3), padding=(2, 1)), X).shape)
print(comp_conv2d(nn.LazyConv2d(1, kernel_size=3, padding=1, stride=2), X).shape)
conv2d = nn.LazyConv2d(1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))
print(comp_conv2d(conv2d, X).shape, conv2d)


def corr2d_multi_in(X, K):
    return sum(corr2d(x, k) for x, k in zip(X, K))


def corr2d_multi_in_out(X, K):
    return torch.stack([corr2d_multi_in(X, k) for k in K], 0)


def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = X.reshape((c_i, h * w))
    K = K.reshape((c_o, c_i))
    Y = torch.matmul(K, X)
    return Y.reshape((c_o, h, w))


X = torch.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
                  [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])  # fmt: skip
K = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])
print(corr2d_multi_in(X, K))
K = torch.stack((K, K + 1, K + 2), 0)
print(K.shape, corr2d_multi_in_out(X, K))
X = torch.normal(0, 1, (3, 3, 3))
K = torch.normal(0, 1, (2, 3, 1, 1))
Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = corr2d_multi_in_out(X, K)
print(float(torch.abs(Y1 - Y2).sum()) < 1e-6)


def pool2d(X, pool_size, mode="max"):
    p_h, p_w = pool_size
    Y = torch.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == "max":
                Y[i, j] = X[i : i + p_h, j : j + p_w].max()
            elif mode == "avg":
                Y[i, j] = X[i : i + p_h, j : j + p_w].mean()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
print(pool2d(X, (2, 2)), pool2d(X, (2, 2), "avg"))
X = torch.arange(16, dtype=torch.float32).reshape((1, 1, 4, 4))
print(nn.MaxPool2d(3)(X))
print(nn.MaxPool2d(3, padding=1, stride=2)(X))
print(nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))(X))
X = torch.cat((X, X + 1), 1)
print(nn.MaxPool2d(3, padding=1, stride=2)(X))


def init_cnn(module):
    if type(module) == nn.Linear or type(module) == nn.Conv2d:  # noqa: E721  (as the book)
        nn.init.xavier_uniform_(module.weight)


net = nn.Sequential(
    nn.LazyConv2d(6, kernel_size=5, padding=2),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.LazyConv2d(16, kernel_size=5),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.LazyLinear(120),
    nn.Sigmoid(),
    nn.LazyLinear(84),
    nn.Sigmoid(),
    nn.LazyLinear(10),
)
print(net)
X = torch.randn(1, 1, 28, 28)
for layer in net:
    X = layer(X)
    print(layer.__class__.__name__, "output shape:\t", X.shape)
net.apply(init_cnn)
print(net)
print(sum(p.numel() for p in net.parameters()))

templates = (torch.rand(10, 1, 7, 7) > 0.5).float().repeat_interleave(4, 2).repeat_interleave(4, 3)
labels = torch.randint(0, 10, (96,))
images = templates[labels] + 0.3 * torch.randn(96, 1, 28, 28)
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images, labels), batch_size=32, shuffle=True
)


def train(net, lr, num_epochs=3):
    optimizer = torch.optim.SGD(net.parameters(), lr=lr)
    loss = nn.CrossEntropyLoss()
    for epoch in range(num_epochs):
        net.train()
        total, correct = 0.0, 0
        for X, y in loader:
            optimizer.zero_grad()
            y_hat = net(X)
            l = loss(y_hat, y)
            l.backward()
            optimizer.step()
            total += l.item() * len(y)
            correct += (y_hat.argmax(1) == y).sum().item()
        net.eval()
        with torch.no_grad():
            acc = (net(images).argmax(1) == labels).float().mean().item()
        print(
            f"epoch {epoch + 1}: loss {total / 96:.4f}, train acc {correct / 96:.3f}, eval acc {acc:.3f}"
        )


train(net, lr=0.9)

bn_net = nn.Sequential(
    nn.LazyConv2d(6, kernel_size=5),
    nn.LazyBatchNorm2d(),
    nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.LazyLinear(32),
    nn.LazyBatchNorm1d(),
    nn.Sigmoid(),
    nn.LazyLinear(10),
)
print(bn_net[1], bn_net[1].running_mean, bn_net[1].num_batches_tracked, bn_net[1].weight)
print(bn_net(images[:4]).shape)
print(bn_net)
train(bn_net, lr=0.1)
print(bn_net[1].num_batches_tracked, bn_net[1].running_mean.shape, bn_net[6].running_var.shape)
print([k for k in bn_net.state_dict() if k.startswith("1.")])
