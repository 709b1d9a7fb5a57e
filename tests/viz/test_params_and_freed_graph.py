"""``params=`` names leaves (issue 28, point 2) and a stepper built after ``backward()`` says
what to do (point 3), for minigrad graphs (tests/viz/test_torch_graph.py: PyTorch's)."""

import pytest

import minigrad as mg
import viz
from minigrad import nn


def mlp_loss():
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    return model, model(mg.ones(4, 2)).pow(2).mean()


def test_params_module_names_every_parameter_in_drawing_text_and_stepper():
    model, loss = mlp_loss()
    unnamed = viz.draw_graph(loss, rankdir="TB").to_text()
    assert unnamed.count(" leaf | ") == 4
    text = viz.draw_graph(loss, params=model, rankdir="TB").to_text()
    assert " leaf | " not in text
    for name in ("0.weight", "0.bias", "2.weight", "2.bias"):
        assert f" {name} | " in text
    s = viz.BackwardStepper(loss, params=model, rankdir="TB")
    names = {f.leaf_name for f in s.steps if f.leaf_name}
    assert names == {"0.weight", "0.bias", "2.weight", "2.bias"}
    assert "0.weight" in s.frame_html(s.num_steps) or "0.weight" in s.frame_html(s.num_steps - 1)


def test_params_pairs_as_named_parameters_gives_them():
    model, loss = mlp_loss()
    text = viz.draw_graph(loss, params=model.named_parameters(), rankdir="TB").to_text()
    assert " 0.weight | " in text and " leaf | " not in text


def test_params_dict_overrides_a_leafs_own_name():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.name = "old"
    text = viz.draw_graph((x * x).sum(), params={"new": x}, rankdir="TB").to_text()
    assert " new | " in text and "old" not in text


@pytest.mark.parametrize("bad", [[1, 2], {"w": 3.0}, {1: mg.ones(2)}, "w", 3, mg.ones(2)])
def test_bad_params_say_what_is_accepted(bad):
    x = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(TypeError, match=r"params=.*dict of name -> tensor or a module"):
        viz.draw_graph(x * 2, params=bad)


def test_stepper_after_backward_says_to_build_it_first_or_retain_the_graph():
    _, loss = mlp_loss()
    loss.backward()
    with pytest.raises(RuntimeError) as err:
        viz.BackwardStepper(loss)
    msg = str(err.value)
    assert "Build the stepper before calling loss.backward()" in msg
    assert "retain_graph=True" in msg and "viz.draw_graph(loss) still draws" in msg
    assert "freed" in viz.draw_graph(loss, show_saved=True, rankdir="TB").to_text()


def test_a_graph_that_saved_nothing_is_refused_with_the_same_words():
    # the engine frees every node's record after backward, saved tensors or not
    x = mg.tensor([1.0], requires_grad=True)
    loss = (x * 2 + 1).sum()
    loss.backward()
    with pytest.raises(RuntimeError, match="Build the stepper before calling loss.backward"):
        viz.BackwardStepper(loss)


def test_stepper_after_backward_with_retain_graph_steps_and_keeps_grad():
    model, loss = mlp_loss()
    loss.backward(retain_graph=True)
    grads = [p.grad.numpy().copy() for p in model.parameters()]
    s = viz.BackwardStepper(loss, params=model, rankdir="TB")
    assert s.num_steps == len(mg.trace.graph(loss))
    assert all((p.grad.numpy() == g).all() for p, g in zip(model.parameters(), grads))
