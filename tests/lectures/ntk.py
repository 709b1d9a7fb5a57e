"""The "Neural Tangent Kernels" tutorial's program, small: a convolutional net written with
``x.relu()`` and ``x.flatten(1)``, ``.to(device)``, its parameters as a dict of detached
tensors for ``torch.func.functional_call``, ``vmap(jacrev(fnet_single), (None, 0))`` giving a
dict of per-sample Jacobians, ``einsum`` contractions of them for the full kernel
(``'Naf,Mbf->NMab'``), its trace (``'Naf,Maf->NM'``) and its diagonal (``'Naf,Maf->NMa'``),
then the same kernels from ``vjp`` and ``jvp`` products (``vmap`` over the rows of
``torch.eye(n, dtype=, device=).view(n, -1)``, ``vmap(vmap(f, (None, 0)), (0, None))``,
``einsum('NMKK->NM')`` and ``einsum('NMKK->NMK')``), compared with ``torch.allclose``."""

import LIB as torch
import LIB.nn as nn
from LIB.func import functional_call, jacrev, jvp, vjp, vmap

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.conv3 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(4 * 2 * 2, 5)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = self.conv3(x)
        x = x.flatten(1)
        x = self.fc(x)
        return x


x_train = torch.randn(6, 3, 8, 8, device=device)
x_test = torch.randn(3, 3, 8, 8, device=device)
net = CNN().to(device)
print(net)
params = {k: v.detach() for k, v in net.named_parameters()}
print({k: tuple(v.shape) for k, v in params.items()})


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


out = fnet_single(params, x_train[0])
print(out.shape, torch.allclose(out, net(x_train[:1])[0], atol=1e-6))
jac = vmap(jacrev(fnet_single), (None, 0))(params, x_train)
print(type(jac).__name__, [(k, tuple(j.shape)) for k, j in jac.items()])


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    if compute == "full":
        einsum_expr = "Naf,Mbf->NMab"
    elif compute == "trace":
        einsum_expr = "Naf,Maf->NM"
    elif compute == "diagonal":
        einsum_expr = "Naf,Maf->NMa"
    else:
        assert False
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape, result.dtype, result.requires_grad)
print(f"{result[0, 0].trace().item():.3f} {result.abs().max().item():.3f}")
self_kernel = empirical_ntk_jacobian_contraction(fnet_single, params, x_test, x_test)
print(torch.allclose(self_kernel, self_kernel.permute(1, 0, 3, 2), atol=1e-4))


def empirical_ntk_ntk_vps(func, params, x1, x2, compute="full"):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(
            output.numel(), -1
        )
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "full":
        return result
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)
    if compute == "diagonal":
        return torch.einsum("NMKK->NMK", result)


result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(
    fnet_single, params, x_train, x_test
)
print(result_from_ntk_vps.shape)
print(torch.allclose(result_from_ntk_vps, result_from_jacobian_contraction, atol=1e-4))
for compute in ("trace", "diagonal"):
    a = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, compute)
    b = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, compute)
    print(compute, tuple(a.shape), tuple(b.shape), torch.allclose(a, b, atol=1e-4))
    print(
        torch.allclose(a, torch.einsum("NMKK->NM" if compute == "trace" else "NMKK->NMK", result))
    )
