"""What the browser tests read of a stepper on a page, and the drill that works its controls.

The stepper is one anywidget view (``.mg-stepper-view``) whose ES module (viz/_stepper.js)
draws its controls: four step buttons and Play (each with an aria-label), a range slider, the
readout "step k / N", and the keys Left / Right / Home / End while the view has focus.
:func:`drill` uses every one of them and checks, after each, the readout, the node painted
active in the graph and the panel's title.
"""

from __future__ import annotations

import re

STEPPER = ".mg-stepper-view"
BUTTON_LABELS = ("first step", "previous step", "next step", "last step", "play")
ACTIVE_FILL = "rgb(253, 224, 71)"  # #fde047 (viz/_stepper.css): the node running at this step

# Titles (n1, n2, ...) of the visible graph nodes painted in the active colour, in a stepper.
HIGHLIGHTED_JS = """(root, fill) => {
  const out = [];
  for (const g of root.querySelectorAll("g.node")) {
    const shape = g.querySelector("ellipse, polygon, path");
    if (!shape || getComputedStyle(shape).fill !== fill) continue;
    const r = shape.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    out.push(g.querySelector("title").textContent);
  }
  return out;
}"""

# Each control button: its label, and the box of the icon drawn in it.
ICONS_JS = """(root) => [...root.querySelectorAll(".mg-controls button")].map((b) => {
  const r = b.querySelector("svg path").getBoundingClientRect();
  return { label: b.getAttribute("aria-label"), title: b.title, width: r.width,
           height: r.height, fill: getComputedStyle(b.querySelector("svg path")).fill };
})"""

# Boxes of the legend and of every other node of the drawing, and which of them meet.
LEGEND_OVERLAP_JS = """(root) => {
  const box = (g) => g.getBoundingClientRect();
  const nodes = [...root.querySelectorAll("g.node")];
  const legend = nodes.find((g) => g.querySelector("title").textContent === "legend");
  if (!legend) return { legend: false, overlaps: [] };
  const L = box(legend);
  const overlaps = nodes.filter((g) => g !== legend).filter((g) => {
    const r = box(g);
    return r.left < L.right && L.left < r.right && r.top < L.bottom && L.top < r.bottom;
  }).map((g) => g.querySelector("title").textContent);
  return { legend: L.width > 0 && L.height > 0, overlaps, count: nodes.length - 1 };
}"""


def highlighted(stepper) -> list[str]:
    return stepper.evaluate(HIGHLIGHTED_JS, ACTIVE_FILL)


def shown_step(stepper) -> tuple[int, int]:
    """``(k, N)`` from the readout "step k / N"."""
    text = stepper.locator(".mg-readout").text_content().strip()
    m = re.fullmatch(r"step (\d+) / (\d+)", text)
    assert m, text
    return int(m.group(1)), int(m.group(2))


def button(stepper, label: str):
    return stepper.locator(f'.mg-controls button[aria-label="{label}"]')


def wait_step(page, stepper, k: int, node: str | None = None, timeout_ms: int = 10_000) -> None:
    """Until the readout says step ``k``, the slider is at ``k``, the panel's title is step
    ``k`` and the graph's one active node is ``node`` (default ``n<k>``)."""
    node = f"n{k}" if node is None else node
    page.wait_for_function(
        """([el, k, node, js, fill]) => {
             const readout = el.querySelector(".mg-readout").textContent;
             const title = el.querySelector(".mg-panel h4").textContent;
             const active = eval(js)(el, fill);
             return readout.startsWith(`step ${k} /`) && title.startsWith(`step ${k}/`)
               && el.querySelector(".mg-slider").value === String(k)
               && active.length === 1 && active[0] === node;
           }""",
        arg=[stepper.element_handle(), k, node, HIGHLIGHTED_JS, ACTIVE_FILL],
        timeout=timeout_ms,
    )


def drill(page, stepper, nodes: list[str], shots=None) -> None:
    """Every control of ``stepper`` once, each followed by the step it must show.

    ``nodes[k - 1]`` is the box marked at step k (``frames[k - 1]["node"]``); the pass needs 4
    steps or more. ``shots``, a folder, gets a screenshot after the buttons and after Play.
    """
    n = len(nodes)
    assert n >= 4 and shown_step(stepper)[1] == n

    def expect(k):
        wait_step(page, stepper, k, nodes[k - 1])

    stepper.scroll_into_view_if_needed()
    if shown_step(stepper)[0] != 1:
        button(stepper, "first step").click()
    expect(1)
    for label in ("first step", "previous step"):  # at step 1: marked disabled
        assert button(stepper, label).get_attribute("aria-disabled") == "true"
    button(stepper, "next step").click()
    expect(2)
    button(stepper, "next step").click()
    expect(3)
    button(stepper, "previous step").click()
    expect(2)
    button(stepper, "last step").click()
    expect(n)
    assert button(stepper, "next step").get_attribute("aria-disabled") == "true"
    button(stepper, "next step").click(force=True)  # pressed anyway at the end: stays
    expect(n)
    button(stepper, "first step").click()
    expect(1)
    button(stepper, "previous step").click(force=True)
    expect(1)
    if shots is not None:
        button(stepper, "next step").click()
        expect(2)
        stepper.screenshot(path=str(shots / "after-buttons.png"))

    # The keys, with the focus on the view itself (a click on its panel puts it there).
    stepper.locator(".mg-panel").click()
    page.keyboard.press("Home")
    expect(1)
    page.keyboard.press("ArrowRight")
    expect(2)
    page.keyboard.press("End")
    expect(n)
    page.keyboard.press("ArrowLeft")
    expect(n - 1)
    # ... and with the focus on the slider: one step a key, not two.
    stepper.locator(".mg-slider").focus()
    page.keyboard.press("ArrowLeft")
    expect(n - 2)
    page.keyboard.press("Home")
    expect(1)

    # The slider, with the mouse: a click at its right end is the last step.
    slider = stepper.locator(".mg-slider")
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    expect(n)

    # Play from the last step starts again at 1 and steps on its own; pause stops it.
    play = button(stepper, "play")
    play.click()
    expect(1)
    wait_step(page, stepper, 2, nodes[1], timeout_ms=5_000)  # one step per 1.2 s
    pause = button(stepper, "pause")
    assert pause.get_attribute("aria-pressed") == "true"
    pause.click()
    k = shown_step(stepper)[0]
    page.wait_for_timeout(1_500)  # longer than a step: nothing moves while paused
    assert shown_step(stepper)[0] == k and button(stepper, "play").count() == 1
    if shots is not None:
        stepper.screenshot(path=str(shots / "after-play.png"))


def assert_icons_and_legend(stepper) -> None:
    """Every control shows its icon (an inline SVG, no icon font) in a non-empty box, with its
    aria-label; the legend covers no node of the graph."""
    icons = stepper.evaluate(ICONS_JS)
    assert [i["label"] for i in icons] in (list(BUTTON_LABELS), [*BUTTON_LABELS[:4], "pause"])
    for icon in icons:
        assert icon["width"] >= 8 and icon["height"] >= 8, icon
        assert icon["title"] == icon["label"], icon
    legend = stepper.evaluate(LEGEND_OVERLAP_JS)
    assert legend["legend"] and legend["count"] >= 2, legend
    assert legend["overlaps"] == [], legend
