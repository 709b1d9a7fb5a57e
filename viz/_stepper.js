// The backward stepper in the browser (an anywidget ES module), controls included: viz/stepper.py
// sends the graph and the memory chart once, per step only {node, travel, panel}, and the
// current step as the synced trait `step` (1-based). Everything that moves the view lives here,
// so it works wherever anywidget runs (JupyterLab, VS Code, Colab, marimo) and in a page
// exported with its widget state and no kernel:
//   buttons  first / previous / next / last step, play / pause
//   slider   an <input type="range">, with the readout "step k / N"
//   keys     Left / Right (one step), Home / End (first / last) while the widget has focus
// Each of them sets `step` and saves it (model.save_changes), which reaches Python when a
// kernel is there; a change of `step` from Python arrives as "change:step". Either way
// update() restyles the one SVG with CSS classes:
//   mg-active  the node running at this step (yellow, red border)
//   mg-done    nodes that ran before it, and the edges they sent along (greyed out)
//   mg-travel  the edges this node sends its gradients along (red)
// Nothing here computes a gradient; every number comes from Python.

function indexGraph(root) {
  // node name ("n3", "more") -> element; "n3->n5" -> edge element.
  const nodes = new Map();
  const edges = new Map();
  for (const g of root.querySelectorAll("g.node")) {
    nodes.set(g.querySelector("title").textContent, g);
  }
  for (const g of root.querySelectorAll("g.edge")) {
    edges.set(g.querySelector("title").textContent, g);
  }
  for (const span of root.querySelectorAll("[data-node]")) {  // the plain-text drawing
    nodes.set(span.dataset.node, span);
  }
  return { nodes, edges };
}

function keepInView(box, el) {
  // Scroll the graph box (not the page) so the active node is visible.
  const b = box.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 3;
  if (r.left < b.left || r.right > b.right) box.scrollLeft += r.left - b.left - b.width / 3;
}

// The buttons' icons: small inline SVG paths (16 x 16, drawn in the text colour), so they need
// no icon font and look the same in every host and in a page that loads nothing else.
const ICONS = {
  first: "M2 2h2v12H2z M9 8l5-6v12z M4 8l5-6v12z",
  prev: "M3 2h2v12H3z M13 2v12L5 8z",
  next: "M11 2h2v12h-2z M3 2v12l8-6z",
  last: "M12 2h2v12h-2z M7 8L2 2v12z M12 8L7 2v12z",
  play: "M4 2v12l10-6z",
  pause: "M3 2h4v12H3z M9 2h4v12H9z",
};
// [name, label (aria-label and tooltip), the step it goes to from k of n]
const STEP_BUTTONS = [
  ["first", "first step", (k, n) => 1],
  ["prev", "previous step", (k, n) => k - 1],
  ["next", "next step", (k, n) => k + 1],
  ["last", "last step", (k, n) => n],
];
const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

function icon(name) {
  return `<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">` +
    `<path d="${ICONS[name]}" fill="currentColor"/></svg>`;
}

function button(name, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `mg-btn mg-${name}`;
  b.title = label;
  b.setAttribute("aria-label", label);
  b.innerHTML = icon(name);
  return b;
}

function controlsBar(n) {
  // The toolbar above the picture; returns its elements by name.
  const bar = document.createElement("div");
  bar.className = "mg-controls";
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", "backward pass steps");
  const parts = { bar };
  for (const [name, label] of STEP_BUTTONS) bar.append((parts[name] = button(name, label)));
  parts.play = button("play", "play");
  parts.play.insertAdjacentHTML("beforeend", "<span>play</span>");
  parts.play.setAttribute("aria-pressed", "false");
  const slider = (parts.slider = document.createElement("input"));
  Object.assign(slider, { type: "range", min: "1", max: String(n), step: "1" });
  slider.className = "mg-slider";
  slider.setAttribute("aria-label", "step");
  const readout = (parts.readout = document.createElement("output"));
  readout.className = "mg-readout";
  bar.append(parts.play, slider, readout);
  return parts;
}

function render({ model, el }) {
  const frames = model.get("frames");
  const n = frames.length;
  el.classList.add("mg-stepper-view");
  el.tabIndex = 0;  // focusable, so the arrow keys reach it
  el.setAttribute("aria-label", `backward stepper, ${n} steps: arrow keys step, Home / End`);
  const ui = controlsBar(n);
  const body = document.createElement("div");
  body.innerHTML = model.get("markup");
  el.replaceChildren(ui.bar, body);
  const graphBox = body.querySelector(".mg-graph");
  const panel = body.querySelector(".mg-panel");
  const chart = body.querySelector(".mg-chart");
  const { nodes, edges } = indexGraph(graphBox);
  const marked = [];
  let timer = null;

  const current = () => Math.min(Math.max(model.get("step"), 1), n);
  function go(k) {
    k = Math.min(Math.max(k, 1), n);
    if (k === model.get("step")) return;
    model.set("step", k);
    model.save_changes();  // to Python when a kernel is there; a no-op in an exported page
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    showPlaying(false);
  }
  function play() {
    if (current() >= n) go(1);  // Play at the end starts again
    timer = setInterval(() => (current() >= n ? pause() : go(current() + 1)),
      model.get("interval"));
    showPlaying(true);
  }
  function showPlaying(on) {
    const label = on ? "pause" : "play";
    ui.play.title = label;
    ui.play.setAttribute("aria-label", label);
    ui.play.setAttribute("aria-pressed", String(on));
    ui.play.innerHTML = `${icon(label)}<span>${label}</span>`;
  }

  for (const [name, , target] of STEP_BUTTONS) {
    ui[name].addEventListener("click", () => { pause(); go(target(current(), n)); });
  }
  ui.play.addEventListener("click", () => (timer === null ? play() : pause()));
  ui.slider.addEventListener("input", () => { pause(); go(Number(ui.slider.value)); });
  el.addEventListener("keydown", (event) => {
    const name = KEYS[event.key];
    if (!name || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();  // the slider would move a second time; the page would scroll
    event.stopPropagation();  // the notebook's own shortcuts (JupyterLab) see nothing
    ui[name].click();
  });

  function update() {
    const k = current();
    ui.slider.value = String(k);
    ui.slider.setAttribute("aria-valuetext", `step ${k} of ${n}`);
    ui.readout.textContent = `step ${k} / ${n}`;
    for (const name of ["first", "prev"]) ui[name].setAttribute("aria-disabled", String(k === 1));
    for (const name of ["next", "last"]) ui[name].setAttribute("aria-disabled", String(k === n));
    for (const [e, cls] of marked) e.classList.remove(cls);
    marked.length = 0;
    const mark = (e, cls) => {
      if (e) { e.classList.add(cls); marked.push([e, cls]); }
    };
    const done = new Set();
    for (let j = 0; j < k - 1; j++) done.add(frames[j].node);
    const frame = frames[k - 1];
    done.delete(frame.node);
    for (const key of done) mark(nodes.get(key), "mg-done");
    for (const [title, e] of edges) {
      if (done.has(title.split("->")[0])) mark(e, "mg-done");
    }
    for (const [src, dst] of frame.travel) mark(edges.get(`${src}->${dst}`), "mg-travel");
    const active = nodes.get(frame.node);
    mark(active, "mg-active");
    panel.innerHTML = frame.panel;
    for (const bar of chart.querySelectorAll("rect.mg-bar")) {
      bar.classList.toggle("mg-current", Number(bar.dataset.step) === k);
    }
    if (active && graphBox.clientHeight) keepInView(graphBox, active);
  }

  model.on("change:step", update);
  update();
  return () => {
    pause();
    model.off("change:step", update);
  };
}

export default { render };
