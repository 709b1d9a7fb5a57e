"""``DistributedDataParallel``: one model replica per process, gradients averaged in backward.

Each rank runs the same script on its share of the global batch. The wrapper makes the
replicas start equal (rank 0's parameters and buffers are broadcast, after checking that
every rank built the same parameters), then averages the gradients over the ranks while
backward runs (see :mod:`.reducer`), so ``optimizer.step()`` on every rank applies the
same update, the one a single process would apply to the whole global batch.
"""

from __future__ import annotations

import contextlib
import pickle

import numpy as np

from ... import distributed as dist
from ...distributed.collectives import gather_blocks
from ...distributed.process_group import default_group
from ...distributed.work import Work
from ...errors import distributed as errors
from ...recording import grad_mode
from ..modules.embedding import Embedding, EmbeddingBag
from ..modules.module import Module
from .reducer import Reducer


class DistributedDataParallel(Module):
    """Data-parallel training (``torch.nn.parallel.DistributedDataParallel``).

    Args:
        module: the model; every rank must build the same one (same parameter names,
            shapes and dtypes: checked at start-up).
        bucket_cap_mb: the size of a gradient bucket (MB, 2**20 bytes); smaller buckets
            start communicating earlier in backward, larger ones send fewer messages.
        broadcast_buffers: also copy rank 0's buffers at start-up.
        process_group: the default group (None) is the only one.

    ``forward`` calls the module. After ``loss.backward()`` every parameter's ``.grad`` is
    the average over the ranks; inside :meth:`no_sync` gradients only accumulate locally.
    Every parameter that requires grad must receive a gradient in each backward (PyTorch's
    ``find_unused_parameters`` is not offered). Parameters of ``Embedding`` /
    ``EmbeddingBag`` with ``sparse=True`` are all-gathered as sparse rows.

    Example (under ``mpirun``)::

        dist.init_process_group(backend="mpi")
        model = DistributedDataParallel(nn.Linear(4, 1))
        loss = model(x_local).pow(2).mean()
        loss.backward()            # gradients averaged over the ranks here
        opt.step()
    """

    def __init__(
        self,
        module: Module,
        bucket_cap_mb: float | None = 25,
        broadcast_buffers: bool = True,
        process_group=None,
    ):
        super().__init__()
        if not isinstance(module, Module):
            raise TypeError(errors.DDP_NOT_MODULE.format(got=type(module).__name__))
        if bucket_cap_mb is None:
            bucket_cap_mb = 25
        if (
            isinstance(bucket_cap_mb, bool)
            or not isinstance(bucket_cap_mb, (int, float))
            or bucket_cap_mb <= 0
        ):
            raise ValueError(errors.DDP_BUCKET.format(got=bucket_cap_mb))
        group = default_group(process_group)
        self.module = module
        named = [(n, p) for n, p in module.named_parameters() if p.requires_grad]
        if not named:
            raise RuntimeError(errors.DDP_NO_PARAMS)
        _check_same_model(group, named)
        _broadcast_state(module, broadcast_buffers)
        cap = int(bucket_cap_mb * 2**20)
        self.reducer = Reducer(named, _sparse_parameter_names(module), cap, group)
        self.require_backward_grad_sync = True

    def forward(self, *args, **kwargs):
        """The wrapped module's forward (this is where an unfinished reduction is caught)."""
        if grad_mode.state.enabled:
            self.reducer.prepare(self.require_backward_grad_sync)
        return self.module(*args, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Inside, backward only accumulates local gradients (gradient accumulation); the
        first backward of a forward run outside averages everything accumulated."""
        old = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old


def _sparse_parameter_names(module: Module) -> set:
    """Names of the weights whose gradient is sparse (PyTorch looks at the same modules)."""
    names = set()
    for prefix, m in module.named_modules():
        if isinstance(m, (Embedding, EmbeddingBag)) and m.sparse:
            names.add(f"{prefix}.weight" if prefix else "weight")
    return names


def _check_same_model(group, named: list) -> None:
    """All-gather every rank's (name, shape, dtype) list; every rank raises on a mismatch."""
    mine = [(n, list(p.shape), p.dtype.name) for n, p in named]
    block = np.frombuffer(pickle.dumps(mine), dtype=np.uint8)
    work = Work(gather_blocks(group, block, "all_gather"), "all_gather", group)
    work.wait()
    ranks = [pickle.loads(b.tobytes()) for b in work.result]
    reference = ranks[0]
    for rank, theirs in enumerate(ranks[1:], start=1):
        if len(theirs) != len(reference):
            raise RuntimeError(
                errors.DDP_COUNT.format(rank=rank, got=len(theirs), want=len(reference))
            )
        for (name, shape, dtype), (_, want_shape, want_dtype) in zip(theirs, reference):
            if (shape, dtype) != (want_shape, want_dtype):
                got, want = f"{shape} {dtype}", f"{want_shape} {want_dtype}"
                raise RuntimeError(
                    errors.DDP_MISMATCH.format(name=name, got=got, rank=rank, want=want)
                )


def _broadcast_state(module: Module, buffers: bool) -> None:
    """Copy rank 0's parameters (and buffers) into every rank's."""
    tensors = list(module.parameters())
    if buffers:
        tensors += [b for b in module.buffers() if b.layout == "strided"]
    for t in tensors:
        dist.broadcast(t, src=0)
