"""``draw_graph(show_saved=True)`` after backward: a "freed" note per tensor a node had saved."""

import minigrad as mg
import viz


def test_the_drawing_notes_every_freed_tensor():
    x = mg.tensor(2.0, requires_grad=True)
    x.name = "x"
    y = x * x.sin()
    y.backward()
    text = viz.draw_graph(y, show_saved=True).to_text()
    assert text.count("freed") == 3  # MulBackward0: 2, SinBackward0: 1
