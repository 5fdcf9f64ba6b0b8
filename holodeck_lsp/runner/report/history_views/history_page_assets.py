"""The history page's own styles and its one script, inline beside the HTML report's styles
(nothing is fetched). The script draws the case x run matrix on a canvas (a thousand cases
by two hundred runs is one image, not 200,000 cells), fills a run's panel when it is opened
(its failed cases and turns, its file), and diffs the configurations of any two runs. Every
text it shows is set as text, never parsed as HTML."""

from __future__ import annotations

HISTORY_STYLE = """
.trend{width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#fff}
.trend .band{fill:#ddf4ff}.trend .line{fill:none;stroke:#0969da;stroke-width:2}
.trend .pt{fill:#0969da}.trend .pt.bad{fill:var(--bad)}
.trend .boundary{stroke:#9a6700;stroke-dasharray:4 3}.trend text{font-size:11px;fill:var(--dim)}
.trend .version{fill:#9a6700}
table.runs td,table.runs th{border:0;border-bottom:1px solid var(--line)}
table.runs tr.run{cursor:pointer}table.runs tr.run:hover{background:var(--soft)}
table.runs tr.run.open{background:#ddf4ff}
tr.panel td{background:var(--soft);padding:.4em .8em}
.cells{font-family:ui-monospace,monospace;letter-spacing:.1em}
.cells .p{color:var(--ok)}.cells .f{color:var(--bad)}.cells .n{color:var(--dim)}
.matrix-box{position:relative;overflow:auto;max-height:70vh;border:1px solid var(--line);
  border-radius:6px}
#matrix{display:block;image-rendering:pixelated}
#tip{position:absolute;pointer-events:none;background:#1f2328;color:#fff;padding:.2em .4em;
  border-radius:4px;font-size:12px;display:none;white-space:nowrap}
.legend span{margin-right:1em}.legend i{display:inline-block;width:.8em;height:.8em;
  margin-right:.3em;vertical-align:middle;border-radius:2px}
.diff-pick{display:flex;gap:1em;align-items:center;flex-wrap:wrap;margin:.3em 0}
table.config td.path{font-family:ui-monospace,monospace}
table.config td.a{background:#ffebe9}table.config td.b{background:#dafbe1}
"""

HISTORY_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById("history-data").textContent);
  var runs = data.runs, cases = data.cases, turns = data.turns;
  var COLORS = {p: "#2da44e", f: "#cf222e", x: "#d4a72c", "-": "#eaeef2"};
  function text(tag, value, cls) {
    var node = document.createElement(tag);
    node.textContent = value;
    if (cls) node.className = cls;
    return node;
  }
  // A run's panel: its failed cases and turns, and its file.
  function fill(panel, index) {
    var cell = panel.firstChild;
    if (cell.childNodes.length) return;
    var run = runs[index];
    var head = text("p", run.made_by + " · " + run.cases_passed + " of " + run.cases +
      " test case(s) passed · ");
    var link = text("a", "the kept run (" + run.name + ")");
    link.href = run.href;
    head.appendChild(link);
    cell.appendChild(head);
    var failed = [];
    for (var c = 0; c < cases.length; c++) {
      var v = cases[c].v.charAt(index);
      if (v === "f" || v === "x") failed.push(c);
    }
    if (!failed.length) { cell.appendChild(text("p", "Every test case passed.")); return; }
    var list = document.createElement("ul");
    for (var i = 0; i < failed.length && i < 200; i++) {
      var item = text("li", cases[failed[i]].label + (cases[failed[i]].v.charAt(index) === "x"
        ? " (some attempts)" : ""));
      var bad = [];
      for (var t = 0; t < turns.length; t++) {
        if (turns[t].c === failed[i] && turns[t].o.charAt(index) === "f") bad.push(turns[t].t);
      }
      if (bad.length && cases[failed[i]].turns > 1) {
        item.appendChild(text("span", " · failed turn(s) " + bad.join(", "), "t"));
      }
      list.appendChild(item);
    }
    cell.appendChild(text("p", failed.length + " test case(s) failed:"));
    cell.appendChild(list);
    if (failed.length > 200) cell.appendChild(text("p", "and " + (failed.length - 200) +
      " more: the kept run holds them all."));
  }
  function toggle(index) {
    var row = document.getElementById("run-" + (index + 1));
    var panel = document.getElementById("panel-" + (index + 1));
    var open = panel.hidden;
    if (open) fill(panel, index);
    panel.hidden = !open;
    row.classList.toggle("open", open);
    return panel;
  }
  var rows = document.querySelectorAll("tr.run");
  for (var r = 0; r < rows.length; r++) {
    rows[r].addEventListener("click", (function (i) {
      return function (event) { if (event.target.tagName !== "A") toggle(i); };
    })(r));
  }
  function show(index) {
    var panel = document.getElementById("panel-" + (index + 1));
    if (panel.hidden) toggle(index);
    document.getElementById("run-" + (index + 1)).scrollIntoView({block: "center"});
  }
  var points = document.querySelectorAll(".trend .pt");
  for (var p = 0; p < points.length; p++) {
    points[p].addEventListener("click", (function (i) { return function () { show(i); }; })(p));
  }
  // The case x run matrix, one cell per case and run.
  var canvas = document.getElementById("matrix");
  var tip = document.getElementById("tip");
  var cw = Math.max(3, Math.min(16, Math.floor(1000 / Math.max(runs.length, 1))));
  var ch = cases.length > 400 ? 3 : cases.length > 120 ? 6 : 14;
  var draw = canvas.getContext("2d");
  // Rows tall enough to read carry their case's name at the left (else: the tooltip).
  var FONT = "11px system-ui, sans-serif", lw = 0;
  if (ch >= 10) {
    draw.font = FONT;
    for (var n = 0; n < cases.length; n++) {
      lw = Math.max(lw, Math.min(260, draw.measureText(cases[n].label).width));
    }
    lw = Math.ceil(lw) + 8;
  }
  canvas.width = Math.max(1, lw + cw * runs.length);
  canvas.height = Math.max(1, ch * cases.length);
  draw.font = FONT;
  draw.textBaseline = "middle";
  for (var c = 0; c < cases.length; c++) {
    var v = cases[c].v;
    if (lw) {
      draw.fillStyle = "#1f2328";
      draw.fillText(cases[c].label, 0, c * ch + ch / 2, lw - 8);
    }
    for (var k = 0; k < runs.length; k++) {
      draw.fillStyle = COLORS[v.charAt(k)] || COLORS["-"];
      draw.fillRect(lw + k * cw, c * ch, cw - (cw > 4 ? 1 : 0), ch - (ch > 4 ? 1 : 0));
    }
  }
  var WORDS = {p: "passed", f: "failed", x: "passed some attempts", "-": "not run"};
  function at(event) {
    var box = canvas.getBoundingClientRect();
    var k = Math.floor((event.clientX - box.left - lw) / cw);
    var c = Math.floor((event.clientY - box.top) / ch);
    return (k >= 0 && k < runs.length && c >= 0 && c < cases.length) ? [c, k] : null;
  }
  canvas.addEventListener("mousemove", function (event) {
    var hit = at(event);
    if (!hit) { tip.style.display = "none"; return; }
    tip.textContent = cases[hit[0]].label + " · run " + (hit[1] + 1) + " (" + runs[hit[1]].time +
      "): " + WORDS[cases[hit[0]].v.charAt(hit[1])];
    tip.style.left = (event.offsetX + 12) + "px";
    tip.style.top = (event.offsetY + 12) + "px";
    tip.style.display = "block";
  });
  canvas.addEventListener("mouseleave", function () { tip.style.display = "none"; });
  canvas.addEventListener("click", function (event) {
    var hit = at(event);
    if (hit) show(hit[1]);
  });
  // The configuration of two runs, line by line: what differs.
  var pickA = document.getElementById("config-a"), pickB = document.getElementById("config-b");
  var body = document.getElementById("config-diff");
  var note = document.getElementById("config-note");
  for (var o = 0; o < runs.length; o++) {
    var label = "run " + (o + 1) + " · " + runs[o].time + " · " + runs[o].prompt;
    pickA.appendChild(text("option", label)).value = String(o);
    pickB.appendChild(text("option", label)).value = String(o);
  }
  pickA.value = String(Math.max(runs.length - 2, 0));
  pickB.value = String(Math.max(runs.length - 1, 0));
  function diff() {
    var a = data.configs[runs[+pickA.value].config] || {};
    var b = data.configs[runs[+pickB.value].config] || {};
    var paths = Object.keys(a).concat(Object.keys(b).filter(function (k) { return !(k in a); }));
    paths.sort();
    body.textContent = "";
    var changed = 0;
    for (var i = 0; i < paths.length; i++) {
      var before = a[paths[i]], after = b[paths[i]];
      if (before === after) continue;
      changed++;
      var row = document.createElement("tr");
      row.appendChild(text("td", paths[i], "path"));
      row.appendChild(text("td", before === undefined ? "(absent)" : before, "a"));
      row.appendChild(text("td", after === undefined ? "(absent)" : after, "b"));
      body.appendChild(row);
    }
    note.textContent = changed ? changed + " field(s) differ" : "The configurations are the same.";
  }
  pickA.addEventListener("change", diff);
  pickB.addEventListener("change", diff);
  diff();
})();
"""
