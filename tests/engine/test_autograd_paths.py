"""``minigrad.autograd`` keeps PyTorch's public paths (and every path it had before issue 29
moved its code into ``recording/`` and ``replaying/``): each is a short module that names the
module where the code now lives, so both paths give the same module."""

import ast
import importlib

import pytest

import minigrad
from tests.test_layering import ROOT

# today's path -> where the code lives (PyTorch's own paths first)
PATHS = {
    "function": "recording.function",
    "variable": "recording.variable",
    "graph": "recording.graph",
    "grad_mode": "recording.grad_mode",
    "anomaly_mode": "recording.anomaly",
    "forward_ad": "replaying.forward_ad",
    "functional": "replaying.functional",
    "gradcheck": "replaying.gradcheck",
    "anomaly": "recording.anomaly",
    "modes": "recording.modes",
    "steps": "recording.steps",
    "saved": "recording.saved",
    "node": "recording.node",
    "node_checks": "recording.node_checks",
    "tangents": "recording.tangents",
    "leaf_grad": "replaying.leaf_grad",
    "engine": "replaying.engine",
    "api": "replaying.api",
    "jacobians": "replaying.jacobians",
    "derivative_checks": "replaying.derivative_checks",
}


def _defined_public_names(module) -> list[str]:
    """The public names a module defines itself (classes, functions, assignments), or its
    ``__all__``: what ``from minigrad.autograd.<path> import name`` must keep finding."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    tree = ast.parse(open(module.__file__, encoding="utf-8").read())
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return [n for n in names if not n.startswith("_")]


def test_every_module_of_the_autograd_folder_is_listed():
    files = {p.stem for p in (ROOT / "minigrad" / "autograd").glob("*.py")} - {"__init__"}
    assert files == set(PATHS)


@pytest.mark.parametrize("path, home", PATHS.items(), ids=list(PATHS))
def test_the_public_path_gives_the_objects_of_the_module_that_holds_them(path, home):
    public = importlib.import_module(f"minigrad.autograd.{path}")
    real = importlib.import_module(f"minigrad.{home}")
    assert public is real  # inspect.getsource(mg.autograd.engine) reads the engine
    names = _defined_public_names(real)
    assert names, f"minigrad.{home} defines no public name"
    for name in names:
        assert getattr(public, name) is getattr(real, name), f"minigrad.autograd.{path}.{name}"


def test_every_path_is_also_an_attribute_of_the_package():
    for path in PATHS:
        if path != "gradcheck":  # the function gradcheck, as in PyTorch
            assert getattr(minigrad.autograd, path) is importlib.import_module(
                f"minigrad.autograd.{path}"
            )


def test_pytorchs_names_import_from_the_package():
    from minigrad.autograd import (  # noqa: F401  (the import is the test)
        Function,
        backward,
        detect_anomaly,
        enable_grad,
        forward_ad,
        functional,
        grad,
        gradcheck,
        gradgradcheck,
        graph,
        inference_mode,
        no_grad,
        set_detect_anomaly,
        set_grad_enabled,
    )

    assert Function is minigrad.autograd.function.Function
    assert grad is minigrad.autograd.api.grad and backward is minigrad.autograd.api.backward
    module = importlib.import_module("minigrad.autograd.gradcheck")
    assert gradcheck is module.gradcheck is minigrad.autograd.gradcheck  # still the function
    assert functional.jacobian is minigrad.autograd.functional.jacobian
    assert forward_ad.make_dual is minigrad.autograd.forward_ad.make_dual
    assert graph.saved_tensors_hooks is minigrad.autograd.graph.saved_tensors_hooks
    assert no_grad is minigrad.no_grad is minigrad.autograd.grad_mode.no_grad
    assert detect_anomaly is minigrad.autograd.anomaly_mode.detect_anomaly
    assert all(hasattr(minigrad.autograd, name) for name in minigrad.autograd.__all__)
