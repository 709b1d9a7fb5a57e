// The stepper's view in the browser (an anywidget ES module): viz/stepper.py sends the graph
// and the memory chart once, and per step only {node, travel, panel}. Changing the `step` trait
// (from the slider, Play, the buttons or Python) restyles the one SVG with CSS classes:
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

// The buttons' icons are FontAwesome 5 glyphs (ipywidgets' icon font). JupyterLab serves the
// font itself, and so does a site built by `make html`, which carries the ipywidgets HTML manager
// and its fonts. A page that loads the manager from a CDN (a plain `jupyter nbconvert` export)
// gets the manager's font at a path relative to the page, where it is not, and the icons come out
// as empty boxes. Only then (the face failed to load, and the manager came from another origin)
// the same font is added from the npm CDN; a page that carries its own manager never reaches out.
const ICON_FAMILY = "Font Awesome 5 Free";
const ICON_FONT_CDN = "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@5.15.4/webfonts/";

function managerIsRemote() {
  const script = [...document.scripts].find((s) => /html-manager/.test(s.src));
  return script !== undefined && new URL(script.src).origin !== window.location.origin;
}

async function mendIconFont() {
  const spec = `900 14px "${ICON_FAMILY}"`;
  try { await document.fonts.load(spec); } catch (e) { /* a failed face is handled below */ }
  const faces = [...document.fonts].filter(
    (f) => f.family.replace(/"/g, "") === ICON_FAMILY && f.weight === "900");
  if (faces.length === 0 || faces.some((f) => f.status === "loaded")) return;
  if (!managerIsRemote()) return;
  const src = `url(${ICON_FONT_CDN}fa-solid-900.woff2) format("woff2"), ` +
    `url(${ICON_FONT_CDN}fa-solid-900.woff) format("woff")`;
  const face = new FontFace(ICON_FAMILY, src, { weight: "900", style: "normal" });
  document.fonts.add(face);
  await face.load();
}

function render({ model, el }) {
  mendIconFont().catch((e) => console.warn("[minigrad stepper] icon font:", e));
  el.classList.add("mg-stepper-view");
  el.innerHTML = model.get("markup");
  const graphBox = el.querySelector(".mg-graph");
  const panel = el.querySelector(".mg-panel");
  const chart = el.querySelector(".mg-chart");
  const { nodes, edges } = indexGraph(graphBox);
  const marked = [];

  function update() {
    const frames = model.get("frames");
    const k = Math.min(Math.max(model.get("step"), 1), frames.length);
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
  return () => model.off("change:step", update);
}

export default { render };
