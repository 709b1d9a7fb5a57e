"""viz: draws minigrad graphs.

Graphviz drawings of the autograd graph, the backward stepper widget and matplotlib plots; they
read what minigrad records through its public API and ``minigrad.trace`` (filled by a later issue).
Heavy imports (graphviz, ipywidgets, matplotlib) happen inside the functions, so ``import viz``
stays light and works without a display.
"""

__all__: list[str] = []
