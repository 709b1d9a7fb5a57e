"""viz never imports torch for a minigrad graph, and works where torch cannot be imported."""

import subprocess
import sys
import textwrap

CODE = textwrap.dedent(
    """
    import sys

    class NoTorch:  # as if torch were not installed: any import of it fails, and is counted
        tried = []

        def find_spec(self, name, path=None, target=None):
            if name == "torch" or name.startswith("torch."):
                self.tried.append(name)
                raise ModuleNotFoundError(f"No module named {name!r} (hidden by the test)")
            return None

    sys.meta_path.insert(0, NoTorch())
    import minigrad as mg
    import viz

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([0.5, -1.0], requires_grad=True)
    a = mg.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse()
    loss = (mg.sparse.mm(a, (x * w).reshape(2, 1)) ** 2).sum()
    text = viz.draw_graph(loss, params={"x": x, "w": w}, rankdir="TB").to_text()
    s = viz.BackwardStepper(loss, params={"x": x, "w": w}, rankdir="TB")
    print(s.num_steps, "x |" in text, "w |" in text, NoTorch.tried, "torch" in sys.modules)
    """
)


def test_viz_draws_and_steps_minigrad_graphs_with_torch_hidden():
    done = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["7", "True", "True", "[]", "False"]
