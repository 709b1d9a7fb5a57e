"""The torch.func tutorials' programs, small: per-sample gradients (a loop of
``autograd.grad`` against ``vmap(grad(...))`` over ``functional_call``), model ensembling
(``stack_module_state`` + ``vmap``) and the empirical neural tangent kernel (``jacrev``
contractions with ``einsum`` against ``vjp``/``jvp`` products over dicts of parameters)."""

import LIB as torch
import LIB.nn as nn
import LIB.nn.functional as F
from LIB.func import functional_call, grad, jacrev, jvp, stack_module_state, vjp, vmap

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.conv2 = nn.Conv2d(4, 6, 3)
        self.fc = nn.Linear(6 * 2 * 2, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)


# per-sample gradients
model = SmallCNN()
data, targets = torch.randn(6, 1, 8, 8), torch.randint(10, (6,))


def per_sample_loop():
    grads = []
    for i in range(len(data)):
        loss = F.nll_loss(model(data[i].unsqueeze(0)), targets[i].unsqueeze(0))
        grads.append(torch.autograd.grad(loss, list(model.parameters())))
    return [torch.stack(shards) for shards in zip(*grads)]


params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    prediction = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.nll_loss(prediction, target.unsqueeze(0))


looped = per_sample_loop()
vmapped = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
for name, a, b in zip(vmapped, looped, vmapped.values()):
    print(name, list(b.shape), torch.allclose(a, b, atol=1e-5), f"{b.abs().sum().item():.3f}")


# model ensembling
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(16, 12), nn.Linear(12, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


models = [MLP() for _ in range(4)]
batches = torch.randn(4, 5, 4, 4)
ens_params, ens_buffers = stack_module_state(models)
print({k: list(v.shape) for k, v in ens_params.items()}, ens_buffers)
print(all(p.is_leaf and p.requires_grad for p in ens_params.values()))
base = models[0]  # PyTorch's tutorial moves a copy to the 'meta' device: minigrad has none


def fmodel(params, buffers, x):
    return functional_call(base, (params, buffers), (x,))


each = torch.stack([m(x) for m, x in zip(models, batches)])
together = vmap(fmodel)(ens_params, ens_buffers, batches)
same_batch = vmap(fmodel, in_dims=(0, 0, None))(ens_params, ens_buffers, batches[0])
print(list(together.shape), torch.allclose(each, together, atol=1e-5))
print(list(same_batch.shape), torch.allclose(same_batch[2], models[2](batches[0]), atol=1e-5))


# the empirical neural tangent kernel, two ways
net = MLP()
net_params = {k: v.detach() for k, v in net.named_parameters()}
x1, x2 = torch.randn(3, 16), torch.randn(2, 16)


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def ntk_by_jacobians(x1, x2):
    jac1 = [j.flatten(2) for j in vmap(jacrev(fnet_single), (None, 0))(net_params, x1).values()]
    jac2 = [j.flatten(2) for j in vmap(jacrev(fnet_single), (None, 0))(net_params, x2).values()]
    return torch.stack([torch.einsum("Naf,Mbf->NMab", a, b) for a, b in zip(jac1, jac2)]).sum(0)


def ntk_by_products(x1, x2):
    def get_ntk(x1, x2):
        output, vjp_fn = vjp(lambda p: fnet_single(p, x1), net_params)

        def column(vec):
            return jvp(lambda p: fnet_single(p, x2), (net_params,), vjp_fn(vec))[1]

        return vmap(column)(torch.eye(output.numel()))

    return vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)


kernel = ntk_by_jacobians(x1, x2)
print(list(kernel.shape), torch.allclose(kernel, ntk_by_products(x1, x2), atol=1e-4))
print(f"{torch.einsum('NMKK->NM', kernel).sum().item():.2f}")
