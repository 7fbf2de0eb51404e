"""Assets: the replay page's style sheet and script, inlined into every page.

The page works offline: no font, image or script is fetched. Colours: clue digits in the
conventional Minesweeper colours (and always written, so colour is never the only cue); the
stages and the heat map in colour-blind-safe palettes (Okabe and Ito's eight colours; a
viridis ramp, which stays ordered in grey and under each common colour-vision deficiency).
"""

from __future__ import annotations

from typing import Final

__all__ = ["SCRIPT", "STYLE"]

STYLE: Final = """
:root { --size: 24px; font-family: system-ui, sans-serif; color: #111; background: #fafafa; }
body { margin: 12px 16px; }
h1 { font-size: 1.2em; margin: 0 0 4px; }
#summary, #what, #counts { margin: 4px 0; }
#bar { position: sticky; top: 0; background: #fafafa; padding: 6px 0; z-index: 2;
  display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
#bar button { min-width: 2.4em; font-size: 1em; }
#slider { flex: 1 1 240px; }
#step, #status { font-variant-numeric: tabular-nums; font-weight: 600; }
#status[data-status=won] { color: #0072B2; }
#status[data-status=lost], #status[data-judged] { color: #D55E00; }
#verdict { margin: 4px 0; padding: 4px 8px; border-left: 4px solid #D55E00; background: #fff; }
#what { min-height: 2.6em; padding: 4px 8px; border-left: 4px solid #999; background: #fff; }
#main { display: flex; gap: 16px; align-items: flex-start; }
#wrap { overflow: auto; flex: 0 1 auto; min-width: 0; }
#board { display: grid; grid-template-columns: repeat(var(--cols), var(--size));
  grid-auto-rows: var(--size); gap: 0; border: 2px solid #555; width: max-content;
  font-weight: 700; font-size: calc(var(--size) * 0.62); line-height: var(--size);
  text-align: center; user-select: none; }
.c { box-sizing: border-box; border: 1px solid #bbb; background: #e8e8e8; }
.h, .f { background: #9aa3ad; border-color: #c8ced4 #6b737c #6b737c #c8ced4; }
.f { color: #000; }
.m { background: #fff; }
.m.hit { background: #D55E00; color: #fff; }
.v1 { color: #0000ff; } .v2 { color: #008000; } .v3 { color: #ff0000; }
.v4 { color: #000080; } .v5 { color: #800000; } .v6 { color: #008080; }
.v7 { color: #000; } .v8 { color: #808080; }
.now { outline: 3px solid #000; outline-offset: -3px; position: relative; z-index: 1; }
.truth { box-shadow: inset 0 0 0 2px #D55E00; }
.loop { box-shadow: inset 0 0 0 3px #CC79A7; }
.tint .c[data-w] { background: color-mix(in srgb, var(--w) 50%, #fff); }
.heat .h[data-p], .heat .f[data-p] { background: var(--p); color: #000; }
.heat .f[data-p].dark { color: #fff; }
#legend { font-size: 0.9em; flex: 0 0 19em; }
#legend .c, #reasons .c { display: inline-block; width: 1.6em; height: 1.6em; line-height: 1.6em;
  text-align: center; font-weight: 700; margin: 1px 4px 1px 0; vertical-align: middle; }
#legend ul { list-style: none; padding: 0; margin: 4px 0 10px; }
#ramp { height: 12px; width: 12em; border: 1px solid #555;
  background: linear-gradient(to right, #440154, #3b528b, #21918c, #5ec962, #fde725); }
kbd { border: 1px solid #999; border-radius: 3px; padding: 0 3px; background: #fff; }
"""
"""The page's style sheet."""

SCRIPT: Final = r"""
"use strict";
(function () {
const D = JSON.parse(document.getElementById("data").textContent);
const rows = D.rows, cols = D.cols, cells = rows * cols, steps = D.kinds.length;
const HIDDEN = -2, MINE = -1;
const STAGES = {
  start: ["the start cell, safe by the rules", "#F0E442"],
  count: ["counting: one clue's count decides it", "#56B4E9"],
  ac3: ["AC-3: arc consistency over the clue variables", "#E69F00"],
  complete: ["component search: one value in every consistent placement", "#CC79A7"],
  total: ["the mine total: the same in every placement of the remaining mines", "#009E73"],
  guess: ["a guess", "#D55E00"],
  told: ["a fact told from outside", "#999999"],
};
const EXTRA = ["#0072B2", "#F0E442", "#56B4E9", "#E69F00", "#CC79A7", "#009E73", "#D55E00"];
const reasonColour = D.reasons.map((r, i) => STAGES[r] ? STAGES[r][1] : EXTRA[i % EXTRA.length]);
const $ = (id) => document.getElementById(id);
const board = $("board"), slider = $("slider");
const shown = new Int8Array(cells).fill(HIDDEN), flagged = new Uint8Array(cells);
const why = new Int16Array(cells).fill(-1);
const hits = new Set(D.hits);
const first = new Int32Array(steps + 2);  // index into D.values of each step's first value
for (let k = 0; k < steps; k++) {
  const n = D.kinds[k] === "r" ? 1 + (D.more[k + 1] || []).length : 0;
  first[k + 1] = first[k] + n;
}
let step = 0, timer = null, marked = [];

function where(cell) {  // index first, as the Mine Shafted assignment names a cell
  return "cell " + cell + " (row " + Math.floor(cell / cols) + ", column " + (cell % cols) + ")";
}
function pct(p) { return (100 * p).toFixed(p < 0.01 || p > 0.99 ? 2 : 1) + "%"; }

function paint(cell) {
  const el = board.children[cell], s = shown[cell];
  let glyph, cls, text = "";
  if (s === HIDDEN) {
    if (flagged[cell]) { glyph = "F"; cls = "c f"; text = "\u2691"; }
    else { glyph = "?"; cls = "c h"; }
  } else if (s === MINE) { glyph = "*"; cls = "c m"; text = "\u2739"; }
  else { glyph = s ? String(s) : "."; cls = "c v" + s; text = s ? String(s) : ""; }
  el.className = cls;
  el.dataset.s = glyph;
  el.textContent = text;
  if (s !== HIDDEN && why[cell] >= 0) {
    el.dataset.w = why[cell];
    el.style.setProperty("--w", reasonColour[why[cell]]);
  } else { delete el.dataset.w; }
}

function opened(k) {  // the cells step k (1-based) revealed, with their values
  const out = [], start = first[k - 1], more = D.more[k] || [];
  const list = [D.cells[k - 1]].concat(more);
  for (let i = 0; i < list.length; i++) {
    const ch = D.values[start + i];
    out.push([list[i], ch === "*" ? MINE : Number(ch)]);
  }
  return out;
}

function apply(k, forward) {  // step k (1-based), forward or undone
  const kind = D.kinds[k - 1], cell = D.cells[k - 1], w = D.why[k - 1];
  if (kind === "r") {
    for (const [c, v] of opened(k)) {
      shown[c] = forward ? v : HIDDEN;
      why[c] = forward ? w : -1;
      paint(c);
    }
  } else {
    flagged[cell] = (kind === "f") === forward ? 1 : 0;
    paint(cell);
  }
}

function statusAt(k) {  // a judgement, at the last step, stands in for the game's status
  const o = D.outcome, j = D.judgement;
  if (j) { return k === steps ? j.verdict : "playing"; }
  return o.status && k >= o.step ? o.status : "playing";
}

function describe(k) {
  if (k === 0) {
    return "Start: nothing revealed yet. " + steps + " step(s) follow; press \u25b6 or \u2192.";
  }
  const kind = D.kinds[k - 1], cell = D.cells[k - 1], w = D.why[k - 1];
  const reason = w >= 0 ? D.reasons[w] : null;
  const parts = [];
  if (kind === "r") {
    const got = opened(k), v = got[0][1];
    let text = "Revealed " + where(cell) + ": " + (v === MINE ? "a mine" : "clue " + v);
    if (got.length > 1) { text += ", and " + (got.length - 1) + " more cell(s) around the zero"; }
    parts.push(text + ".");
    const guess = D.guesses[k];
    if (guess) {
      parts.push("A guess" + (guess.p === null || guess.p === undefined ? "" :
        ", mine probability " + pct(guess.p)) + ".");
    }
  } else {
    parts.push((kind === "f" ? "Flagged " : "Took the flag off ") + where(cell) + ".");
  }
  if (reason !== null) {
    parts.push("Why: " + (STAGES[reason] ? reason + ", " + STAGES[reason][0] : reason) + ".");
  }
  if (hits.has(k)) { parts.push("A mine was hit."); }
  if (D.details[k]) { parts.push("Detail: " + JSON.stringify(D.details[k])); }
  if (D.odds[k]) { parts.push("Heat map available (H)."); }
  const o = D.outcome, j = D.judgement;
  if (j && k === steps) {
    parts.push("Verdict: " + j.verdict + ". " + j.text);
    if (j.after) { parts.push(j.after); }
  } else if (!j && o.status && k === o.step) { parts.push("The game is " + o.status + "."); }
  return parts.join(" ");
}

function unmark() {
  for (const c of marked) { board.children[c].classList.remove("now", "truth", "loop"); }
  marked = [];
  for (const el of board.querySelectorAll("[data-p]")) {
    el.removeAttribute("data-p"); el.classList.remove("dark"); el.removeAttribute("title");
  }
}

function mark(k) {
  if (k > 0) {
    const cell = D.cells[k - 1];
    const list = D.kinds[k - 1] === "r" ? opened(k).map((x) => x[0]) : [cell];
    for (const c of list) { board.children[c].classList.add("now"); marked.push(c); }
  }
  const odds = k > 0 ? D.odds[k] : null;
  $("heat").disabled = !odds;
  if (odds) {
    for (const key in odds) {
      const el = board.children[Number(key)], p = odds[key];
      el.dataset.p = String(p);
      el.title = "mine probability " + pct(p);
      el.style.setProperty("--p", viridis(p));
      if (p < 0.55) { el.classList.add("dark"); }
    }
  }
  const o = D.outcome;
  if (o.status && k >= o.step) {
    for (const c of o.mines) {
      if (shown[c] === HIDDEN && !flagged[c]) {
        board.children[c].classList.add("truth");
        marked.push(c);
      }
    }
  }
  const j = D.judgement;
  if (j && k === steps) {
    for (const c of j.cells) { board.children[c].classList.add("loop"); marked.push(c); }
  }
}

const RAMP = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
function viridis(p) {
  const x = Math.min(1, Math.max(0, p)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i, a = RAMP[i], b = RAMP[i + 1];
  return "rgb(" + a.map((v, j) => Math.round(v + f * (b[j] - v))).join(",") + ")";
}

function flagsAt() { let n = 0; for (let c = 0; c < cells; c++) { n += flagged[c]; } return n; }

function go(k) {
  k = Math.max(0, Math.min(steps, k));
  unmark();
  while (step < k) { apply(++step, true); }
  while (step > k) { apply(step--, false); }
  mark(k);
  slider.value = String(k);
  $("step").textContent = "Step " + k + " / " + steps;
  const status = statusAt(k);
  $("status").textContent = status;
  $("status").dataset.status = status;
  if (D.judgement && k === steps && status !== "solved") { $("status").dataset.judged = "1"; }
  else { delete $("status").dataset.judged; }
  $("what").textContent = describe(k);
  const w = k > 0 ? D.why[k - 1] : -1;
  $("what").style.borderLeftColor = w >= 0 ? reasonColour[w] : "#999";
  const flags = flagsAt();
  const left = D.total_known ? " \u00b7 mines left: " + (D.mines - flags) : "";
  $("counts").textContent = "Flags: " + flags + left;
  if (k === steps) { stop(); }
}

function stop() {
  if (timer !== null) { clearInterval(timer); timer = null; }
  $("play").textContent = "\u25b6 Play";
}
function play() {
  if (timer !== null) { stop(); return; }
  if (step === steps) { go(0); }
  $("play").textContent = "\u23f8 Pause";
  timer = setInterval(() => go(step + 1), 1000 / Number($("speed").value));
}

function build() {
  board.style.setProperty("--cols", cols);
  const room = Math.min(900, window.innerWidth - 360);
  const size = Math.max(14, Math.min(28, Math.floor(room / cols)));
  document.documentElement.style.setProperty("--size", size + "px");
  board.innerHTML = '<div class="c h" data-s="?"></div>'.repeat(cells);
  slider.max = String(steps);
  const o = D.outcome, rules = D.rules, j = D.judgement;
  const result = j ? j.verdict + " after step " + steps :
    o.status ? o.status + " at step " + o.step : "no outcome: the record ends in play (a stall)";
  $("summary").textContent = rows + "\u00d7" + cols + ", " + D.mines + " mines" +
    (D.total_known ? " (total shown)" : " (total hidden)") + " \u00b7 rules: first move " +
    rules.first_move + ", zeros " + (rules.auto_expand ? "expand" : "do not expand") +
    ", after a mine " + rules.after_mine + " \u00b7 result: " + result +
    " \u00b7 " + steps + " steps";
  if (j) {
    $("status-name").textContent = "Verdict";
    $("verdict").textContent = "Verdict: " + j.verdict + ". " + j.text +
      (j.after ? " " + j.after : "");
    $("verdict").hidden = false;
    $("loop-key").hidden = !j.cells.length;
  }
  const legend = $("reasons");
  D.reasons.forEach((r, i) => {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "c";
    sw.style.background = "color-mix(in srgb, " + reasonColour[i] + " 50%, #fff)";
    li.appendChild(sw);
    li.appendChild(document.createTextNode(STAGES[r] ? r + ": " + STAGES[r][0] : r));
    legend.appendChild(li);
  });
}

function toggle(id, cls) { board.classList.toggle(cls, $(id).checked); }

build();
$("first").onclick = () => { stop(); go(0); };
$("prev").onclick = () => { stop(); go(step - 1); };
$("next").onclick = () => { stop(); go(step + 1); };
$("last").onclick = () => { stop(); go(steps); };
$("play").onclick = play;
$("speed").onchange = () => { if (timer !== null) { stop(); play(); } };
slider.oninput = () => { stop(); go(Number(slider.value)); };
$("heat").onchange = () => toggle("heat", "heat");
$("tint").onchange = () => toggle("tint", "tint");
toggle("tint", "tint");
document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (t instanceof HTMLInputElement && t.type !== "checkbox" && t.type !== "range") { return; }
  const keys = {
    ArrowRight: () => { stop(); go(step + 1); }, ArrowLeft: () => { stop(); go(step - 1); },
    " ": play, Home: () => { stop(); go(0); }, End: () => { stop(); go(steps); },
    h: () => { if (!$("heat").disabled) { $("heat").click(); } },
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
document.addEventListener("keyup", (e) => { if (e.key === " ") { e.preventDefault(); } });
go(0);
window.replay = { go: go, get step() { return step; }, steps: steps };
document.body.dataset.ready = "1";
})();
"""
"""The page's script: it reads the data block and draws, steps and plays the replay."""
