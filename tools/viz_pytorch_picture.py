"""Render docs/viz_pytorch.png: viz.BackwardStepper on PyTorch's own backward of a tied
embedding, at the step where torch sums a sparse and a dense gradient into a dense one.

Needs PyTorch (``make torch``); run ``.venv/bin/python tools/viz_pytorch_picture.py``.
"""

import pathlib

import torch

import viz

OUT = pathlib.Path(__file__).resolve().parents[1] / "docs" / "viz_pytorch.png"


def main() -> None:
    torch.manual_seed(0)
    emb = torch.nn.Embedding(1000, 16, sparse=True)
    out = torch.nn.Linear(16, 1000, bias=False)
    out.weight = emb.weight  # tied: the table is the lookup and the output layer
    loss = out(emb(torch.tensor([3, 4, 5, 3]))).logsumexp(1).sum()
    stepper = viz.BackwardStepper(loss, params={"table": emb.weight}, rankdir="TB")
    step = next(f.step for f in stepper.steps if f.events)
    OUT.write_bytes(stepper.frame_png(step))
    print(f"{OUT}: step {step}/{stepper.num_steps}, {stepper.steps[step - 1]!r}")


if __name__ == "__main__":
    main()
