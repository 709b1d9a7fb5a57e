"""A sparse embedding table trained with SparseAdam, a dense head with Adam."""

import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(3)
emb = nn.Embedding(50, 4, sparse=True)
head = nn.Linear(4, 1)
with torch.no_grad():
    emb.weight.copy_(torch.tensor(rng.standard_normal((50, 4)), dtype=torch.float32))
    head.weight.copy_(torch.tensor(rng.standard_normal((1, 4)), dtype=torch.float32))
    head.bias.zero_()
ids = torch.tensor(rng.integers(0, 50, (8, 3)))
target = torch.tensor(rng.standard_normal((8, 1)), dtype=torch.float32)
sparse_opt = torch.optim.SparseAdam(list(emb.parameters()), lr=0.05)
dense_opt = torch.optim.Adam(head.parameters(), lr=0.05)
for step in range(20):
    sparse_opt.zero_grad()
    dense_opt.zero_grad()
    loss = ((head(emb(ids).mean(1)) - target) ** 2).mean()
    loss.backward()
    if step == 0:
        print("layout", emb.weight.grad.is_sparse, emb.weight.grad.coalesce()._nnz())
    sparse_opt.step()
    dense_opt.step()
print("loss", round(loss.item(), 5))
untouched = sorted(set(range(50)) - set(ids.flatten().tolist()))
print("untouched rows", len(untouched))
