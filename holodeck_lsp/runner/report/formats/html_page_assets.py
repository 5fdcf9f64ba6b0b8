"""The HTML report's styles and its one script, inline in every page (nothing is fetched).

No part of the page is left for the browser to skip drawing (no `content-visibility`):
printing or capturing the whole page shows the last case too. What keeps a page of a
thousand failures quick to open is that only the first failed cases are open. The script
counts what the "Failed only" filter shows, goes from one failure to the next with the
keys, and opens every failed case before printing; print styles drop the controls and
keep a turn, a metric row and a table row on one page.
"""

from __future__ import annotations

import json

# The keys the script answers, as the page documents them.
NEXT_KEYS = ("j", "n")
PREVIOUS_KEYS = ("k", "p")

STYLE = """
:root{--ok:#1a7f37;--bad:#cf222e;--skip:#9a6700;--line:#d0d7de;--soft:#f6f8fa;--dim:#59636e}
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1em;color:#1f2328}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.1em;margin:.8em 0 .3em}
h3{font-size:1em;margin:.4em 0}
.meta{color:var(--dim)}
.ok{color:var(--ok)}.bad{color:var(--bad)}.skip{color:var(--skip)}
.banner{background:#fff8c5;border:1px solid #d4a72c;padding:.5em;border-radius:6px}
.glance{display:grid;gap:.6em;margin:.6em 0;
  grid-template-columns:minmax(11em,1fr) minmax(18em,2fr) minmax(18em,2fr);
  grid-template-areas:"rate metrics slow" "tokens metrics slow"}
.rate-tile{grid-area:rate}.metrics-tile{grid-area:metrics}.slow-tile{grid-area:slow}
.tokens-tile{grid-area:tokens}
@media (max-width:800px){.glance{display:block}.glance .tile{margin:.4em 0}}
.tile{border:1px solid var(--line);border-radius:6px;padding:.5em .7em}
.dim{color:var(--dim)}
.tile h2{margin:0 0 .3em;font-size:.95em;color:var(--dim);font-weight:600}
.rate{font-size:2em;font-weight:700;line-height:1.1}.tokens-tile .rate{font-size:1.5em}
.rate.bad{color:var(--bad)}.rate.ok{color:var(--ok)}
table.plain{border-collapse:collapse}.glance table.plain{width:100%}
table.plain td,table.plain th{border:0;border-bottom:1px solid var(--line);padding:.15em .3em}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
details.case{border:1px solid var(--line);border-radius:6px;margin:.4em 0}
details.case>summary{padding:.4em .6em;cursor:pointer;background:var(--soft)}
details.case.fail>summary{background:#ffebe9}
.v{font-weight:700;margin-right:.5em}.t{color:var(--dim);margin-left:.5em}
.flaky{background:#fff8c5;border:1px solid #d4a72c;border-radius:4px;padding:0 .3em;
  margin-left:.5em;font-size:.9em}
.delta{margin-left:.6em;padding:0 .35em;border-radius:4px;background:#eaeef2;font-size:.9em}
.hist{margin-left:.6em;color:var(--dim);font-weight:400;font-size:.9em}
.hist.flaky{color:var(--skip)}
.delta.reg{background:#ffebe9;color:var(--bad);font-weight:700}
.turn{border-top:1px solid var(--line);padding:.4em .8em}
.turn.current,details.case.current{outline:3px solid #0969da;outline-offset:-3px}
pre{white-space:pre-wrap;word-break:break-word;background:var(--soft);padding:.3em .5em;
  margin:.2em 0;border-radius:4px}
table{border-collapse:collapse;margin:.3em 0}
td,th{border:1px solid var(--line);padding:.15em .4em;text-align:left;vertical-align:top}
td pre{margin:0}
code{font-size:.95em}
.m{display:grid;grid-template-columns:minmax(8em,16em) minmax(6em,12em) max-content 1fr;
  gap:.5em;align-items:center;margin:.15em 0}
.m>span{min-width:0;overflow-wrap:anywhere}
.bar{background:#eaeef2;height:.7em;border-radius:4px;overflow:hidden;display:block}
.bar i{display:block;height:100%;background:var(--ok)}.m.fail .bar i{background:var(--bad)}
.why{color:var(--dim);font-size:.95em}
.score{font-variant-numeric:tabular-nums;white-space:nowrap}
ul.a{margin:.2em 0;padding-left:1.2em}
del{background:#ffebe9;text-decoration:line-through}ins{background:#dafbe1;text-decoration:none}
.diff{display:grid;grid-template-columns:6em 1fr;gap:.2em .5em}
.errs{color:var(--bad)}
.rates span{margin-right:.8em;white-space:nowrap}
.controls{display:flex;flex-wrap:wrap;gap:1em;align-items:center;margin:.5em 0}
kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 .3em;
  font-size:.9em;background:#fff}
body:has(#only-failed:checked) .case.pass{display:none}
@media print{
  body{max-width:none;padding:0;font-size:11px}
  .controls{display:none}
  details.case>summary,details.case.fail>summary,pre,.tile{background:none}
  .bar,.bar i,del,ins{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  .turn,.m,tr,.tile,details.case>summary{break-inside:avoid}
  h2,h3{break-after:avoid}
  a{color:inherit;text-decoration:none}
}
"""

_SCRIPT = """
(function () {
  var box = document.getElementById("only-failed");
  var count = document.getElementById("shown");
  var where = document.getElementById("where");
  var cases = document.querySelectorAll("details.case");
  function update() {
    var shown = 0;
    for (var i = 0; i < cases.length; i++) {
      if (!box.checked || cases[i].classList.contains("fail")) shown++;
    }
    count.textContent = shown + " of " + cases.length + " test case(s) shown";
  }
  box.addEventListener("change", update);
  update();
  // The failures, in page order: each failed turn, or a failed case without one.
  var failures = [];
  var failed = document.querySelectorAll("details.case.fail");
  for (var c = 0; c < failed.length; c++) {
    var turns = failed[c].querySelectorAll("section.turn.fail");
    if (!turns.length) failures.push(failed[c]);
    for (var t = 0; t < turns.length; t++) failures.push(turns[t]);
  }
  var at = -1;
  function go(step) {
    if (!failures.length) return;
    var next = Math.min(Math.max(at + step, 0), failures.length - 1);
    if (at >= 0) failures[at].classList.remove("current");
    at = next;
    var target = failures[at];
    var holder = target.closest("details");
    if (holder) holder.open = true;
    target.classList.add("current");
    target.scrollIntoView({block: "start"});
    target.focus({preventScroll: true});
    where.textContent = "failure " + (at + 1) + " of " + failures.length;
  }
  // A printout holds every failure whole (the page opens only the first ones).
  window.addEventListener("beforeprint", function () {
    for (var c = 0; c < failed.length; c++) failed[c].open = true;
  });
  var NEXT = %(next)s, PREVIOUS = %(previous)s;
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var tag = event.target.tagName;
    if (tag === "TEXTAREA" || (tag === "INPUT" && event.target.type === "text")) return;
    if (NEXT.indexOf(event.key) >= 0) go(1);
    else if (PREVIOUS.indexOf(event.key) >= 0) go(-1);
    else return;
    event.preventDefault();
  });
})();
"""
SCRIPT = _SCRIPT % {"next": json.dumps(NEXT_KEYS), "previous": json.dumps(PREVIOUS_KEYS)}
