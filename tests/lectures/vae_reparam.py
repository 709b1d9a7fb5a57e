"""The reparameterisation trick as VAE lectures write it with torch.distributions: an
encoder gives q(z|x) = Normal(mu, sigma), z = q.rsample(), a Bernoulli decoder, and the ELBO
with kl_divergence against the prior, per example summed over dims with Independent."""

import LIB as torch
import LIB.nn as nn
from LIB.distributions import Bernoulli, Independent, Normal, kl_divergence

torch.manual_seed(0)
# 64 binary "images" of 12 pixels: two prototypes with flipped pixels
prototypes = torch.tensor([[1.0] * 6 + [0.0] * 6, [0.0, 1.0] * 6])
labels = torch.randint(0, 2, (64,))
flips = torch.bernoulli(torch.full((64, 12), 0.1))
data = (prototypes[labels] + flips) % 2
print(list(data.shape), f"{data.mean().item():.4f}")

encoder = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 2 * 2))
decoder = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 12))
opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=0.01)
prior = Independent(Normal(torch.zeros(2), torch.ones(2)), 1)
print(prior, prior.batch_shape, prior.event_shape)

for step in range(60):
    x = data[torch.randint(0, 64, (16,))]
    mu, log_sigma = encoder(x).chunk(2, dim=-1)
    q = Independent(Normal(mu, log_sigma.exp()), 1)
    z = q.rsample()
    likelihood = Independent(Bernoulli(logits=decoder(z)), 1)
    elbo = likelihood.log_prob(x) - kl_divergence(q, prior)
    loss = -elbo.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(
            f"{step:3d} loss {loss.item():.4f} kl {kl_divergence(q, prior).mean().item():.4f}"
            f" sigma {log_sigma.exp().mean().item():.4f}"
        )
print(q.batch_shape, q.event_shape, list(z.shape), z.requires_grad)
print(likelihood)

# the gradient reaches the encoder through z = mu + eps * sigma
print(f"encoder grad norm {encoder[0].weight.grad.norm().item():.4f}")

# sampling from the model: z from the prior, pixels from the decoder's Bernoullis
with torch.no_grad():
    z = prior.sample((4,))
    images = Bernoulli(logits=decoder(z)).sample()
print(images.int().tolist())
# a closed-form entropy and a Monte Carlo estimate of it
mc = -q.log_prob(q.sample((500,))).mean(0)
print([f"{a:.3f} {b:.3f}" for a, b in zip(q.entropy()[:3].tolist(), mc[:3].tolist())])
