"use strict";
// The graph page: draws the layout rig computed on a canvas (only what is
// in view), hit-tests clicks, and shows a node's details and what it
// waits for. window.rigGraph exposes the state for tests and scripts.
(function () {
  const started = performance.now();
  const data = JSON.parse(document.getElementById("graph-data").textContent);
  const doc = data.document, lay = data.layout;
  const nodes = doc.nodes, edges = doc.edges, groups = lay.groups;
  const N = nodes.length;

  const COLORS = {
    "create": "#2f9e44", "update": "#e0a100", "delete": "#e03131",
    "replace-create": "#7048e8", "replace-delete": "#c2255c",
    "read": "#1c7ed6", "no-op": "#868e96", "junction": "#adb5bd",
    "invoke-action": "#0ca678", "open-ephemeral": "#ae3ec9", "close-ephemeral": "#862e9c",
  };
  const NAMES = {
    "create": "create", "update": "update", "delete": "delete",
    "replace-create": "replace: create half", "replace-delete": "replace: delete half",
    "read": "read", "no-op": doc.kind === "resources" ? "resource" : "no-op",
    "junction": "junction (every operation of one kind of a resource)",
    "invoke-action": "action", "open-ephemeral": "open ephemeral", "close-ephemeral": "close ephemeral",
  };
  const PRED = "#e8590c", SUCC = "#1971c2", REFUSED = "#7a0b0b";
  const COLW = 320, NODEW = 270, ROWH = 26, NODEH = 20, MARGIN = 24, JR = 5;

  // Adjacency, as edge indexes.
  const inE = Array.from({ length: N }, () => []);
  const outE = Array.from({ length: N }, () => []);
  edges.forEach((e, i) => {
    if (e.from === e.to) return;
    outE[e.from].push(i);
    inE[e.to].push(i);
  });
  const isOp = (v) => nodes[v].action !== "junction";
  // The label drawn in a node: without its module, which its band names.
  const short = nodes.map((n) => n.module && n.label.startsWith(n.module + ".") ? n.label.slice(n.module.length + 1) : n.label);
  const opCount = nodes.filter((n) => n.action !== "junction").length;

  // Module bands and collapsing.
  const parent = groups.map((g, i) => {
    let best = -1;
    groups.forEach((h, j) => {
      if (j !== i && (h.module === "" ? g.module !== "" : g.module.startsWith(h.module + ".")) &&
          (best < 0 || h.module.length > groups[best].module.length)) best = j;
    });
    return best;
  });
  const collapsed = groups.map(() => false);
  let owner = [], bandTop = [], bandH = [], span = [], totalH = 0;
  function relayout() {
    // owner[g]: the outermost collapsed band containing g (itself included), or -1.
    owner = groups.map((_, g) => {
      let o = -1;
      for (let h = g; h >= 0; h = parent[h]) if (collapsed[h] && groups[h].module !== "") o = h;
      return o;
    });
    span = groups.map((g) => [g.first, g.last]);
    groups.forEach((g, i) => {
      const o = owner[i];
      if (o >= 0 && o !== i) {
        span[o][0] = Math.min(span[o][0], g.first);
        span[o][1] = Math.max(span[o][1], g.last);
      }
    });
    let y = MARGIN;
    groups.forEach((g, i) => {
      bandTop[i] = y;
      if (owner[i] >= 0 && owner[i] !== i) bandH[i] = 0;
      else if (owner[i] === i) bandH[i] = 2 * ROWH;
      else bandH[i] = (g.rows + 1) * ROWH;
      y += bandH[i] + (bandH[i] ? ROWH / 2 : 0);
    });
    totalH = y + MARGIN;
  }
  relayout();

  const colX = (layer) => MARGIN + layer * COLW;
  const hidden = (v) => owner[lay.group[v]] >= 0;
  // Where a node is drawn: its box, or the summary box of its collapsed band.
  function box(v) {
    const g = lay.group[v];
    const x = colX(lay.layer[v]);
    if (owner[g] >= 0) {
      const o = owner[g];
      return { x: x, y: bandTop[o] + ROWH + (ROWH - NODEH) / 2, w: NODEW, h: NODEH, summary: o };
    }
    const y = bandTop[g] + ROWH + lay.row[v] * ROWH + (ROWH - NODEH) / 2;
    if (!isOp(v)) return { x: x + NODEW / 2 - JR, y: y + NODEH / 2 - JR, w: 2 * JR, h: 2 * JR };
    return { x: x, y: y, w: NODEW, h: NODEH };
  }

  // Selection and what it waits for.
  let sel = -1;
  let rel = new Uint8Array(N); // 1 selected, 2 direct pred, 3 pred, 4 direct succ, 5 succ
  let relEdge = new Uint8Array(edges.length); // 2 direct pred, 3 pred, 4 direct succ, 5 succ
  function walk(start, adj, far, near) {
    // Every node reachable from start over adj, marked far; then the
    // operations reached through junctions only, and the junctions on the
    // way, marked near. Returns the ops reached directly and all of them.
    const all = [], direct = [];
    const seen = new Uint8Array(N);
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const v = stack.pop();
      for (const e of adj[v]) {
        const w = adj === inE ? edges[e].from : edges[e].to;
        relEdge[e] = far;
        if (seen[w]) continue;
        seen[w] = 1;
        rel[w] = far;
        if (isOp(w)) all.push(w);
        stack.push(w);
      }
    }
    const seenD = new Uint8Array(N);
    const dstack = [start];
    while (dstack.length) {
      const v = dstack.pop();
      for (const e of adj[v]) {
        const w = adj === inE ? edges[e].from : edges[e].to;
        relEdge[e] = near;
        if (seenD[w]) continue;
        seenD[w] = 1;
        rel[w] = near;
        if (isOp(w)) direct.push(w);
        else dstack.push(w);
      }
    }
    return { all: all.sort((a, b) => a - b), direct: direct.sort((a, b) => a - b) };
  }
  let related = { preds: [], directPreds: [], succs: [], directSuccs: [] };
  function select(v) {
    rel = new Uint8Array(N);
    relEdge = new Uint8Array(edges.length);
    sel = v;
    related = { preds: [], directPreds: [], succs: [], directSuccs: [] };
    if (v >= 0) {
      const p = walk(v, inE, 3, 2), s = walk(v, outE, 5, 4);
      rel[v] = 1;
      related = { preds: p.all, directPreds: p.direct, succs: s.all, directSuccs: s.direct };
      if (owner[lay.group[v]] >= 0) {
        for (let g = lay.group[v]; g >= 0; g = parent[g]) collapsed[g] = false;
        relayout();
      }
    }
    showPanel();
    draw();
  }

  // Viewport: world = (screen - t) / s.
  const canvas = document.getElementById("view");
  const ctx = canvas.getContext("2d");
  let s = 1, tx = 0, ty = 0, W = 0, H = 0, dpr = 1;
  function resize() {
    const r = canvas.getBoundingClientRect();
    dpr = window.devicePixelRatio || 1;
    W = r.width; H = r.height;
    canvas.width = Math.max(1, Math.round(W * dpr));
    canvas.height = Math.max(1, Math.round(H * dpr));
  }
  function fit() {
    const gw = colX(lay.layers) + MARGIN;
    s = Math.min(1, W / gw, H / totalH);
    s = Math.max(s, 0.3);
    tx = Math.max(0, (W - gw * s) / 2);
    ty = 0;
  }
  function centerOn(v) {
    const b = box(v);
    s = Math.max(s, 0.8);
    tx = W / 2 - (b.x + b.w / 2) * s;
    ty = H / 2 - (b.y + b.h / 2) * s;
  }

  let pending = false;
  function draw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; paint(); });
  }
  let charW = 0; // the width of a character of the labels' monospace font
  function fitText(t, w) {
    const max = Math.floor(w / charW);
    return t.length <= max ? t : "…" + t.slice(t.length - max + 1);
  }
  function paint() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.setTransform(dpr * s, 0, 0, dpr * s, dpr * tx, dpr * ty);
    const x0 = -tx / s, y0 = -ty / s, x1 = (W - tx) / s, y1 = (H - ty) / s;
    const inView = (b) => b.x + b.w >= x0 && b.x <= x1 && b.y + b.h >= y0 && b.y <= y1;
    const text = s >= 0.45;
    // Bands.
    groups.forEach((g, i) => {
      if (!bandH[i] || bandTop[i] > y1 || bandTop[i] + bandH[i] < y0) return;
      if (g.module !== "") {
        ctx.fillStyle = i % 2 ? "#eef1f6" : "#f3f5f9";
        ctx.fillRect(x0, bandTop[i], x1 - x0, bandH[i]);
      }
      if (text) {
        ctx.fillStyle = "#3b4252";
        ctx.font = "bold 12px system-ui, sans-serif";
        const sign = g.module === "" ? "" : (owner[i] === i ? "▸ " : "▾ ");
        const name = g.module === "" ? "root module" : g.module;
        const n = groups.reduce((acc, h, j) => acc + (j === i || owner[j] === i ? h.nodes : 0), 0);
        ctx.fillText(sign + name + "  (" + n + ")", Math.max(x0, 0) + 8, bandTop[i] + 17);
      }
      if (owner[i] === i) {
        const bx = colX(span[i][0]), bw = colX(span[i][1]) + NODEW - bx;
        ctx.fillStyle = "#dfe4ec";
        ctx.strokeStyle = "#98a1b3";
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.roundRect(bx, bandTop[i] + ROWH + (ROWH - NODEH) / 2, bw, NODEH, 4);
        ctx.fill();
        ctx.stroke();
      }
    });
    // Edges.
    const anySel = sel >= 0;
    const edgeColor = (k) => (k === 2 || k === 3 ? PRED : SUCC);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < edges.length; i++) {
        const e = edges[i];
        if (e.from === e.to) continue;
        const k = relEdge[i];
        if ((pass === 0) !== (k === 0)) continue;
        const a = box(e.from), b = box(e.to);
        if (a.summary !== undefined && a.summary === b.summary) continue;
        const ax = a.x + a.w, ay = a.y + a.h / 2, bx = b.x, by = b.y + b.h / 2;
        if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
        if (k === 0) {
          ctx.strokeStyle = anySel ? "rgba(120,130,145,0.12)" : "rgba(90,100,120,0.45)";
          ctx.lineWidth = 1;
          ctx.setLineDash([]);
        } else {
          ctx.strokeStyle = edgeColor(k);
          ctx.lineWidth = k === 2 || k === 4 ? 2.5 : 1.5;
          ctx.setLineDash(k === 2 || k === 4 ? [] : [5, 4]);
        }
        const dx = Math.max(30, (bx - ax) / 2);
        ctx.beginPath();
        ctx.moveTo(ax, ay);
        ctx.bezierCurveTo(ax + dx, ay, bx - dx, by, bx, by);
        ctx.stroke();
      }
    }
    ctx.setLineDash([]);
    // Nodes.
    ctx.font = "10px ui-monospace, monospace";
    if (!charW) charW = ctx.measureText("0123456789").width / 10 || 6;
    for (let v = 0; v < N; v++) {
      if (hidden(v)) continue;
      const b = box(v);
      if (!inView(b)) continue;
      const n = nodes[v], k = rel[v];
      ctx.globalAlpha = anySel && k === 0 ? 0.18 : 1;
      ctx.fillStyle = COLORS[n.action] || COLORS["no-op"];
      ctx.beginPath();
      if (!isOp(v)) {
        ctx.arc(b.x + JR, b.y + JR, JR, 0, 2 * Math.PI);
        ctx.fill();
      } else {
        ctx.roundRect(b.x, b.y, b.w, b.h, 4);
        ctx.fill();
        if (n.deposed) {
          // A deposed object: a hatched band at the left.
          ctx.fillStyle = "rgba(0,0,0,0.35)";
          ctx.fillRect(b.x + 3, b.y + 3, 5, b.h - 6);
        }
        if (n.cbd) {
          // create_before_destroy: a white dot at the right, hollow when inherited.
          ctx.beginPath();
          ctx.arc(b.x + b.w - 8, b.y + b.h / 2, 4, 0, 2 * Math.PI);
          ctx.fillStyle = "#fff";
          ctx.strokeStyle = "#fff";
          ctx.lineWidth = 1.5;
          if (n.cbdInherited) ctx.stroke(); else ctx.fill();
        }
        const locked = n.protected || n.refused;
        if (locked) {
          // A recorded prevent_destroy: a padlock, left of the dot.
          const lx = b.x + b.w - 12 - (n.cbd ? 14 : 0), cy = b.y + b.h / 2;
          ctx.beginPath();
          ctx.moveTo(lx + 1, cy - 1);
          ctx.arc(lx + 3.5, cy - 3.5, 2.5, Math.PI, 0);
          ctx.lineTo(lx + 6, cy - 1);
          ctx.strokeStyle = "#fff";
          ctx.lineWidth = 1.5;
          ctx.stroke();
          ctx.fillStyle = "#fff";
          ctx.fillRect(lx, cy - 1, 7, 5);
        }
        if (n.refused) {
          // A delete the plan refuses: a dashed dark red outline.
          ctx.beginPath();
          ctx.roundRect(b.x - 2, b.y - 2, b.w + 4, b.h + 4, 5);
          ctx.strokeStyle = REFUSED;
          ctx.lineWidth = 2;
          ctx.setLineDash([4, 3]);
          ctx.stroke();
          ctx.setLineDash([]);
        }
        if (text) {
          ctx.fillStyle = "#fff";
          ctx.fillText(fitText(short[v], b.w - (n.deposed ? 14 : 6) - (n.cbd ? 14 : 0) - (locked ? 14 : 0)), b.x + (n.deposed ? 12 : 6), b.y + 14);
        }
      }
      if (k) {
        ctx.beginPath();
        if (isOp(v)) ctx.roundRect(b.x - 3, b.y - 3, b.w + 6, b.h + 6, 6);
        else ctx.arc(b.x + JR, b.y + JR, JR + 3, 0, 2 * Math.PI);
        ctx.strokeStyle = k === 1 ? "#111" : (k <= 3 ? PRED : SUCC);
        ctx.lineWidth = k === 1 || k === 2 || k === 4 ? 3 : 2;
        ctx.setLineDash(k === 3 || k === 5 ? [4, 3] : []);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    ctx.globalAlpha = 1;
  }

  // Hit-testing.
  const byLayer = Array.from({ length: lay.layers }, () => []);
  for (let v = 0; v < N; v++) byLayer[lay.layer[v]].push(v);
  function hit(wx, wy) {
    for (let g = 0; g < groups.length; g++) {
      if (!bandH[g] || groups[g].module === "") continue;
      if (wy >= bandTop[g] && wy < bandTop[g] + ROWH) return { band: g };
      if (owner[g] === g && wy >= bandTop[g] + ROWH && wy < bandTop[g] + bandH[g]) return { band: g };
    }
    const layer = Math.floor((wx - MARGIN) / COLW);
    if (layer < 0 || layer >= lay.layers) return null;
    for (const v of byLayer[layer]) {
      if (hidden(v)) continue;
      const b = box(v);
      const pad = isOp(v) ? 0 : 4;
      if (wx >= b.x - pad && wx <= b.x + b.w + pad && wy >= b.y - pad && wy <= b.y + b.h + pad) return { node: v };
    }
    return null;
  }
  function toggle(g) {
    collapsed[g] = owner[g] === g ? false : true;
    relayout();
    draw();
  }

  let drag = null;
  canvas.addEventListener("mousedown", (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, tx: tx, ty: ty, moved: false };
  });
  window.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; canvas.classList.add("dragging"); }
    if (drag.moved) { tx = drag.tx + dx; ty = drag.ty + dy; draw(); }
  });
  window.addEventListener("mouseup", (ev) => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    canvas.classList.remove("dragging");
    if (moved || ev.target !== canvas) return;
    const r = canvas.getBoundingClientRect();
    const h = hit((ev.clientX - r.left - tx) / s, (ev.clientY - r.top - ty) / s);
    if (!h) select(-1);
    else if (h.band !== undefined) toggle(h.band);
    else select(h.node);
  });
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = canvas.getBoundingClientRect();
    const mx = ev.clientX - r.left, my = ev.clientY - r.top;
    // The wheel zooms about the pointer; with Shift it pans.
    if (!ev.shiftKey) {
      const f = Math.exp(-ev.deltaY * 0.0015);
      const ns = Math.min(3, Math.max(0.05, s * f));
      tx = mx - (mx - tx) * ns / s;
      ty = my - (my - ty) * ns / s;
      s = ns;
    } else {
      tx -= ev.deltaX;
      ty -= ev.deltaY;
    }
    draw();
  }, { passive: false });

  // The side panel.
  const panel = document.getElementById("panel");
  function el(tag, props, ...kids) {
    const e = document.createElement(tag);
    Object.assign(e, props || {});
    for (const k of kids) e.append(k);
    return e;
  }
  function nodeButton(v) {
    const b = el("button", { type: "button", textContent: nodes[v].label });
    b.addEventListener("click", () => { select(v); centerOn(v); draw(); });
    return b;
  }
  // The direct neighbours of v on one side, each with the rules of the
  // edges that lead to it (through junctions, every edge on the way).
  function neighbours(v, adj) {
    const out = [];
    const visit = (u, rules, via) => {
      for (const e of adj[u]) {
        const w = adj === inE ? edges[e].from : edges[e].to;
        const r = rules.concat(edges[e].rule ? [edges[e].rule] : []);
        if (isOp(w)) out.push({ v: w, rules: r, via: via });
        else visit(w, r, via.concat([w]));
      }
    };
    visit(v, [], []);
    const seen = new Set();
    return out.filter((x) => !seen.has(x.v) && seen.add(x.v)).sort((a, b) => a.v - b.v);
  }
  function edgeList(title, list, all) {
    const sec = el("section", {});
    sec.append(el("h3", { textContent: title + " (" + list.length + " direct, " + all + " in all)" }));
    const ul = el("ul", {});
    for (const x of list.slice(0, 200)) {
      const li = el("li", {}, nodeButton(x.v));
      const why = (x.rules.length ? "rule: " + x.rules.join(", ") : "rule: not recorded") +
        (x.via.length ? "; through " + x.via.map((j) => nodes[j].label).join(", ") : "");
      li.append(el("div", { className: "rule", textContent: why }));
      ul.append(li);
    }
    if (list.length > 200) ul.append(el("li", { textContent: "… and " + (list.length - 200) + " more" }));
    sec.append(ul);
    return sec;
  }
  function showPanel() {
    panel.replaceChildren();
    if (sel < 0) { panel.hidden = true; return; }
    const n = nodes[sel];
    panel.hidden = false;
    const close = el("button", { className: "close", type: "button", textContent: "×", title: "Close" });
    close.addEventListener("click", () => select(-1));
    panel.append(close, el("h2", { textContent: n.label }));
    const dl = el("dl", {});
    const row = (k, v) => dl.append(el("dt", { textContent: k }), el("dd", { textContent: v }));
    row("Action", NAMES[n.action] || n.action);
    row("Address", n.address);
    row("Module", n.module || "root module");
    if (doc.kind === "operations") {
      row("Create before destroy", !n.cbd ? "no" : n.cbdInherited ? "yes, inherited from " + (n.cbdInheritedFrom || "a dependent") : "yes");
      if (n.deposed) row("Deposed key", n.deposed);
      if (n.refused) row("Protection", "destroy refused: protected by the prevent_destroy set at " + n.refused + ", recorded in state (rig state unprotect lifts it)");
      else if (n.protected) row("Protection", "prevent_destroy set at " + n.protected + ", recorded in state with the object");
      row("Reasons", n.reasons && n.reasons.length ? n.reasons.join("; ") : "none recorded");
    }
    panel.append(dl);
    const waitsFor = doc.kind === "operations" ? "Waits for" : "Depends on";
    const waitedBy = doc.kind === "operations" ? "Waited for by" : "Depended on by";
    panel.append(edgeList(waitsFor, neighbours(sel, inE), related.preds.length));
    panel.append(edgeList(waitedBy, neighbours(sel, outE), related.succs.length));
  }

  // Search.
  const search = document.getElementById("search");
  const results = document.getElementById("results");
  const lower = nodes.map((n) => (n.label + "\n" + n.address).toLowerCase());
  let matches = [];
  search.addEventListener("input", () => {
    const q = search.value.trim().toLowerCase();
    results.replaceChildren();
    matches = [];
    if (!q) return;
    for (let v = 0; v < N && matches.length < 50; v++) if (isOp(v) && lower[v].includes(q)) matches.push(v);
    for (const v of matches) {
      const li = el("li", { textContent: nodes[v].label, role: "option" });
      li.dataset.id = v;
      li.addEventListener("mousedown", (ev) => { ev.preventDefault(); pick(v); });
      results.append(li);
    }
  });
  search.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && matches.length) pick(matches[0]);
    if (ev.key === "Escape") { results.replaceChildren(); search.blur(); }
  });
  window.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && ev.target !== search) select(-1);
  });
  function pick(v) {
    results.replaceChildren();
    select(v);
    centerOn(v);
    draw();
  }

  // Legend, stats and the list of nodes (one entry per operation).
  const legend = document.getElementById("legend");
  const used = new Set(nodes.map((n) => n.action));
  for (const a of Object.keys(COLORS)) {
    if (!used.has(a)) continue;
    const i = el("i", {});
    i.style.background = COLORS[a];
    legend.append(el("span", {}, i, NAMES[a].replace(/ \(.*\)$/, "")));
  }
  const ring = (c, dashed, label) => {
    const i = el("i", { className: "ring" + (dashed ? " dashed" : "") });
    i.style.borderColor = c;
    legend.append(el("span", {}, i, label));
  };
  if (doc.kind === "operations") {
    legend.append(el("span", { textContent: "▮ deposed · ● create_before_destroy · ○ inherited" }));
    if (nodes.some((n) => n.protected || n.refused)) {
      legend.append(el("span", { textContent: "🔒 prevent_destroy recorded" + (nodes.some((n) => n.refused) ? " · dashed red: destroy refused" : "") }));
    }
  }
  ring(PRED, false, "waits for: directly");
  ring(PRED, true, "transitively");
  ring(SUCC, false, "waited for by: directly");
  ring(SUCC, true, "transitively");
  document.getElementById("stats").textContent =
    opCount + (doc.kind === "operations" ? " operations, " : " resources, ") + edges.length + " edges, " + lay.layers + " layers";
  const list = document.getElementById("ops");
  const frag = document.createDocumentFragment();
  for (let v = 0; v < N; v++) {
    if (!isOp(v)) continue;
    const li = document.createElement("li");
    li.dataset.id = v;
    li.dataset.action = nodes[v].action;
    li.textContent = nodes[v].label;
    frag.append(li);
  }
  list.append(frag);
  list.addEventListener("click", (ev) => {
    const id = ev.target && ev.target.dataset ? ev.target.dataset.id : undefined;
    if (id !== undefined) pick(Number(id));
  });

  // The canvas changes size with the window and when the side panel opens
  // or closes; its backing store follows.
  new ResizeObserver(() => { resize(); draw(); }).observe(canvas);
  resize();
  fit();
  paint();

  window.rigGraph = {
    operations: opCount,
    select: (v) => select(v),
    // The selected node and the operations it waits for and that wait for
    // it, directly (through junctions only) and in all (transitively).
    selection: () => ({ selected: sel, directPreds: related.directPreds, preds: related.preds,
      directSuccs: related.directSuccs, succs: related.succs }),
    // The centre of node v in client coordinates, scrolling it into view.
    screenPoint: (v) => {
      centerOn(v);
      paint();
      const b = box(v), r = canvas.getBoundingClientRect();
      return { x: r.left + tx + (b.x + b.w / 2) * s, y: r.top + ty + (b.y + b.h / 2) * s };
    },
    fit: () => { resize(); fit(); paint(); },
    // The centre of the title of module m's band in client coordinates.
    bandPoint: (m) => {
      const g = groups.findIndex((x) => x.module === m), r = canvas.getBoundingClientRect();
      return { x: r.left + tx + (Math.max(-tx / s, 0) + 40) * s, y: r.top + ty + (bandTop[g] + ROWH / 2) * s };
    },
    toggleModule: (m) => { const g = groups.findIndex((x) => x.module === m); if (g >= 0) toggle(g); },
    collapsed: () => groups.filter((_, g) => owner[g] === g).map((g) => g.module),
  };
  document.body.dataset.renderMs = String(Math.round(performance.now() - started));
  document.body.dataset.ready = "true";
})();
