"""viz: draws minigrad graphs, and PyTorch's.

Graphviz drawings of the autograd graph, the backward stepper widget and matplotlib plots; they
read what minigrad records through its public API and ``minigrad.trace``. Given a
``torch.Tensor``, they read PyTorch's own graph instead (``viz._torch_graph`` turns it into the
same records) and step through torch's own backward pass; torch is never imported by viz.
Heavy imports (graphviz, ipywidgets, matplotlib) happen inside the functions, so ``import viz``
stays light and works without a display.
"""

from .graph import GraphTooWideWarning, GraphView, draw_graph
from .plots import bytes_comparison, memory_timeline, spy
from .stepper import BackwardStepper

__all__: list[str] = [
    "draw_graph",
    "GraphView",
    "GraphTooWideWarning",
    "spy",
    "memory_timeline",
    "bytes_comparison",
    "BackwardStepper",
]
