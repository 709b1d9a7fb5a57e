"""The score-function estimator (REINFORCE), as policy-gradient lectures write it with
torch.distributions: a Categorical policy over a bandit's arms, then over a small corridor,
sampled without gradient, trained through log_prob with a baseline."""

import LIB as torch
import LIB.nn as nn
from LIB.distributions import Bernoulli, Categorical, Normal

torch.manual_seed(0)

# 1. Two estimators of d/dmu E[x**2], x ~ N(mu, 1): the answer is 2 * mu
mu = torch.tensor(1.5, requires_grad=True)
d = Normal(mu, 1.0)
print(d, d.batch_shape, d.event_shape, d.has_rsample)
x = d.rsample((2000,))
(reparam,) = torch.autograd.grad((x**2).mean(), mu)
x = d.sample((2000,))
print(x.requires_grad, list(x.shape))
(score,) = torch.autograd.grad((x**2 * d.log_prob(x)).mean(), mu)
print(f"reparameterised {reparam.item():.4f} score function {score.item():.4f} exact 3.0")

# 2. A four-armed Bernoulli bandit and a softmax policy over its arms
arm_probs = torch.tensor([0.2, 0.5, 0.8, 0.3])
logits = torch.zeros(4, requires_grad=True)
opt = torch.optim.SGD([logits], lr=0.5)
for step in range(40):
    policy = Categorical(logits=logits)
    actions = policy.sample((32,))
    rewards = Bernoulli(probs=arm_probs[actions]).sample()
    advantage = rewards - rewards.mean()
    loss = -(policy.log_prob(actions) * advantage).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"{step:3d} reward {rewards.mean().item():.4f} entropy {policy.entropy().item():.4f}")
print("bandit policy", [f"{p:.3f}" for p in Categorical(logits=logits).probs.tolist()])
print(policy)

# 3. A corridor of 5 cells: move left or right, reward 1 at the right end, episodes of 8 steps
policy_net = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy_net.parameters(), lr=0.05)
eye = torch.eye(5)
for episode in range(30):
    pos, log_probs, rewards = 0, [], []
    for _ in range(8):
        dist = Categorical(logits=policy_net(eye[pos]))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        pos = min(max(pos + (1 if action.item() == 1 else -1), 0), 4)
        rewards.append(1.0 if pos == 4 else 0.0)
    returns, running = [], 0.0
    for r in reversed(rewards):
        running = r + 0.9 * running
        returns.insert(0, running)
    returns = torch.tensor(returns)
    loss = -(torch.stack(log_probs) * (returns - returns.mean())).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if episode % 5 == 0:
        print(f"episode {episode:2d} return {returns[0].item():.4f} loss {loss.item():.4f}")
with torch.no_grad():
    right = Categorical(logits=policy_net(eye)).probs[:, 1]
print("P(right) by cell", [f"{p:.3f}" for p in right.tolist()])
