"""The "Fusing Convolution and Batch Norm using Custom Function" tutorial's pattern: a
``Conv2D`` Function whose hand-written backward is ``F.conv2d`` of transposed tensors and
``F.conv_transpose2d`` (checked against ``torch.nn.grad.conv2d_input`` /
``conv2d_weight``, and ``conv1d_*``), ``@once_differentiable``, ``gradcheck`` of
``(X, weight)``; a ``BatchNorm`` Function (``X.var(unbiased=True, dim=(0, 2, 3))``,
``X.numel() / X.size(1)``, ``t[None, :, None, None]``, in-place ``out /= ...``) with its
backward derived by hand, ``gradcheck(..., fast_mode=False)``; the two fused into one
Function that saves only ``X`` and the weight and recomputes the convolution in backward,
checked against the unfused pair; an ``nn.Module`` around it (``nn.Parameter(torch.empty(
*shape, dtype=))``, ``nn.init.kaiming_uniform_(w, a=math.sqrt(5))``), trained on synthetic
MNIST-shaped digits with ``optim.Adadelta`` and ``StepLR``."""

import math

import LIB as torch
import LIB.nn as nn
import LIB.nn.functional as F
import LIB.optim as optim
from LIB.autograd.function import once_differentiable
from LIB.optim.lr_scheduler import StepLR

torch.manual_seed(0)


def convolution_backward(grad_out, X, weight):
    """A stride-1 unpadded conv's gradients: weight by correlating X with grad_out, X by
    the transposed convolution."""
    grad_weight = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
    grad_X = F.conv_transpose2d(grad_out, weight)
    return grad_X, grad_weight


class Conv2D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, weight):
        ctx.save_for_backward(X, weight)
        return F.conv2d(X, weight)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        X, weight = ctx.saved_tensors
        return convolution_backward(grad_out, X, weight)


weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(10, 3, 7, 7, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Conv2D.apply, (X, weight)))

grad_out = torch.randn(10, 5, 5, 5, dtype=torch.double)
grad_X, grad_weight = convolution_backward(grad_out, X.detach(), weight.detach())
print(torch.allclose(grad_X, torch.nn.grad.conv2d_input(X.shape, weight, grad_out)))
print(torch.allclose(grad_weight, torch.nn.grad.conv2d_weight(X, weight.shape, grad_out)))
out = F.conv2d(X, weight, stride=2, padding=1, dilation=2)
g = torch.randn_like(out)
gx, gw = torch.autograd.grad(out, (X, weight), g)
ours_x = torch.nn.grad.conv2d_input(X.shape, weight, g, stride=2, padding=1, dilation=2)
ours_w = torch.nn.grad.conv2d_weight(X, weight.shape, g, stride=2, padding=1, dilation=2)
print(
    tuple(ours_x.shape), tuple(ours_w.shape), torch.allclose(gx, ours_x), torch.allclose(gw, ours_w)
)
print(ours_x.requires_grad, ours_x.grad_fn.name(), ours_w.grad_fn.name())
x1 = torch.randn(2, 4, 9, dtype=torch.double)
w1 = torch.randn(6, 2, 3, dtype=torch.double)
o1 = F.conv1d(x1.requires_grad_(), w1.requires_grad_(), groups=2, stride=2)
g1 = torch.randn_like(o1)
gx1, gw1 = torch.autograd.grad(o1, (x1, w1), g1)
print(torch.allclose(gx1, torch.nn.grad.conv1d_input(x1.shape, w1, g1, stride=2, groups=2)))
print(torch.allclose(gw1, torch.nn.grad.conv1d_weight(x1, w1.shape, g1, stride=2, groups=2)))


def unsqueeze_all(t):
    """(C,) -> (1, C, 1, 1): a per-channel statistic against NCHW."""
    return t[None, :, None, None]


def batch_norm_backward(grad_out, X, sum, sqrt_var, N, eps):
    """y = (X - m) / d with m = sum / N, d = sqrt(var) + eps, var unbiased:
    dX = g / d - mean(g) / d - (X - m) * sum(g * (X - m)) / (d^2 sqrt(var) (N - 1))."""
    centered = X - unsqueeze_all(sum) / N
    denom = sqrt_var + eps
    g_dot = (grad_out * centered).sum(dim=(0, 2, 3))
    grad_input = grad_out - unsqueeze_all(grad_out.sum(dim=(0, 2, 3)) / N)
    grad_input /= unsqueeze_all(denom)
    grad_input -= centered * unsqueeze_all(g_dot / (denom**2 * sqrt_var * (N - 1)))
    return grad_input


class BatchNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, eps=1e-3):
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.save_for_backward(X)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (X,) = ctx.saved_tensors
        return batch_norm_backward(grad_out, X, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps), None


a = torch.rand(1, 2, 3, 4, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(BatchNorm.apply, (a,), fast_mode=False))
y = BatchNorm.apply(a)
print(y.grad_fn.name(), abs(y.mean().item()) < 1e-12, tuple(y.shape))


class FusedConvBN2DFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, conv_weight, eps=1e-3):
        assert X.ndim == 4
        ctx.save_for_backward(X, conv_weight)
        X = F.conv2d(X, conv_weight)
        sum = X.sum(dim=(0, 2, 3))
        var = X.var(unbiased=True, dim=(0, 2, 3))
        N = X.numel() / X.size(1)
        sqrt_var = torch.sqrt(var)
        ctx.eps = eps
        ctx.sum = sum
        ctx.N = N
        ctx.sqrt_var = sqrt_var
        mean = sum / N
        denom = sqrt_var + eps
        out = X - unsqueeze_all(mean)
        out /= unsqueeze_all(denom)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        X, conv_weight = ctx.saved_tensors
        X_conv_out = F.conv2d(X, conv_weight)  # recomputed rather than saved
        grad_out = batch_norm_backward(grad_out, X_conv_out, ctx.sum, ctx.sqrt_var, ctx.N, ctx.eps)
        grad_X = torch.nn.grad.conv2d_input(X.shape, conv_weight, grad_out)
        grad_weight = torch.nn.grad.conv2d_weight(X, conv_weight.shape, grad_out)
        return grad_X, grad_weight, None


weight = torch.rand(5, 3, 3, 3, requires_grad=True, dtype=torch.double)
X = torch.rand(2, 3, 4, 4, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(FusedConvBN2DFunction.apply, (X, weight)))
fused = FusedConvBN2DFunction.apply(X, weight)
unfused = BatchNorm.apply(Conv2D.apply(X, weight))
print(torch.allclose(fused, unfused))
g = torch.randn_like(fused)
print(
    all(
        torch.allclose(p, q)
        for p, q in zip(
            torch.autograd.grad(fused, (X, weight), g), torch.autograd.grad(unfused, (X, weight), g)
        )
    )
)
conv = F.conv2d(X, weight)
reference = F.batch_norm(conv, None, None, training=True, eps=1e-5)
biased = conv.var(dim=(0, 2, 3), unbiased=False)
scale = (torch.sqrt(biased + 1e-5) / (conv.std(dim=(0, 2, 3)) + 1e-3))[None, :, None, None]
print(torch.allclose(fused, reference * scale))
try:
    F.batch_norm(conv, None, None, training=True, eps=0.0)
except ValueError as e:
    print("ValueError", str(e).startswith("batch_norm eps must be positive during training"))


class FusedConvBN(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, eps=1e-3, device=None, dtype=None):
        super().__init__()
        factory_kwargs = {"device": device, "dtype": dtype}
        weight_shape = (out_channels, in_channels, kernel_size, kernel_size)
        self.conv_weight = nn.Parameter(torch.empty(*weight_shape, **factory_kwargs))
        self.num_features = out_channels
        self.eps = eps
        self.reset_parameters()

    def forward(self, X):
        return FusedConvBN2DFunction.apply(X, self.conv_weight, self.eps)

    def reset_parameters(self) -> None:
        torch.nn.init.kaiming_uniform_(self.conv_weight, a=math.sqrt(5))


class Net(nn.Module):
    def __init__(self, fused=True):
        super().__init__()
        self.fused = fused
        if fused:
            self.convbn1 = FusedConvBN(1, 4, 3)
            self.convbn2 = FusedConvBN(4, 8, 3)
        else:
            self.conv1 = nn.Conv2d(1, 4, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(4, affine=False, track_running_stats=False)
            self.conv2 = nn.Conv2d(4, 8, 3, bias=False)
            self.bn2 = nn.BatchNorm2d(8, affine=False, track_running_stats=False)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.dropout = nn.Dropout(0.5)
        self.fc2 = nn.Linear(16, 10)

    def forward(self, x):
        if self.fused:
            x = self.convbn1(x)
        else:
            x = self.bn1(self.conv1(x))
        x = F.relu(x)
        if self.fused:
            x = self.convbn2(x)
        else:
            x = self.bn2(self.conv2(x))
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout(x)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


print(Net())
templates = (torch.rand(10, 1, 8, 8) > 0.6).float()
labels = torch.randint(0, 10, (64,))
images = templates[labels] + 0.3 * torch.randn(64, 1, 8, 8)
images = (images - 0.1307) / 0.3081
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images, labels), batch_size=16, shuffle=True
)

model = Net(fused=True)
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
for epoch in range(1, 4):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % 2 == 0:
            print(
                f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(loader.dataset)} "
                f"({100.0 * batch_idx / len(loader):.0f}%)]\tLoss: {loss.item():.4f}"
            )
    scheduler.step()
    model.eval()
    with torch.no_grad():
        output = model(images)
        test_loss = F.nll_loss(output, labels, reduction="sum").item() / len(images)
        correct = output.argmax(dim=1, keepdim=True).eq(labels.view_as(output.argmax(1, True)))
    print(f"Test set: Average loss: {test_loss:.4f}, Accuracy: {correct.sum().item()}/64")
print(scheduler.get_last_lr())
