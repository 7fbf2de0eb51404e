"use strict";
// The Learn tab: AC-3 (and count, and subset) step by step, as the Mine Shafted assignment
// tells it. POST /api/learn answers the events of `mineshafted trace --json`; this script
// replays them, forward and back: the board with its cell indices, the clue variables'
// domains (values removed struck through, with the arc that removed them), the arc queue,
// the arcs coloured to do / being revised / consistent (AIspace's convention), and the cells
// decided with the variables whose domains decide them. It needs nothing of the other tabs'
// scripts, and asks nothing of any other server. Kept as one file of about 490 lines: it is
// one self-contained classic script (one closure, one request for the tab), which a split
// would turn into modules and more files served.
(function () {
const panel = document.getElementById("learn");
if (!panel) { return; }

// -- small helpers --------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "text") { node.textContent = value; } else { node.setAttribute(key, value); }
  }
  for (const child of children) { node.append(child); }
  return node;
}
const $ = (id) => document.getElementById(id);
const pair = (arc) => "(" + arc[0] + ", " + arc[1] + ")";
const key = (arc) => arc[0] + "," + arc[1];
const list = (cells) => cells.join(", ");
// A value as the assignment writes it: each cell of the variable, negative when safe
// ("-0" for a safe index 0, which has no negative).
function written(mined, cells) {
  const set = new Set(mined);
  return "(" + cells.map((c) => (set.has(c) ? String(c) : "-" + c)).join(", ") + ")";
}

let pending = 0;
async function api(method, url, body) {
  const options = { method: method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  pending++;
  try {
    const response = await fetch(url, options);
    let data;
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) { throw new Error(data.error || response.statusText); }
    return data;
  } finally { pending--; }
}

// -- the panel ------------------------------------------------------------------------------

function build() {
  const technique = el("select", { id: "learn-technique" },
    el("option", { value: "ac3", text: "ac3 (AC-3 over the clue domains)" }),
    el("option", { value: "subset", text: "subset (differences of constraints)" }),
    el("option", { value: "count", text: "count (one clue alone)" }));
  panel.append(
    el("div", { class: "controls" },
      el("button", { id: "learn-sample", text: "The assignment's sample" }),
      el("label", { text: "Puzzle " }, el("select", { id: "learn-puzzle" })),
      el("label", { text: "Start " }, el("input", { id: "learn-start", size: "7",
        placeholder: "its own", title: "The first move: row,column" })),
      el("label", { text: "Technique " }, technique),
      el("button", { id: "learn-trace", text: "Trace" })),
    el("details", { id: "learn-own" },
      el("summary", { text: "Or a position of your own" }),
      el("label", { for: "learn-text", text: "One row a line: digits for clues, . for 0, ? " +
        "unknown, * or F a known mine; or a position, puzzle or game-record file's text " +
        "(as Analyse takes it)." }),
      el("textarea", { id: "learn-text", rows: "6", cols: "30", spellcheck: "false" }),
      el("div", {},
        el("button", { id: "learn-position", text: "Trace this position" }),
        el("button", { id: "learn-analyse", text: "Trace the Analyse board", hidden: "" }))),
    el("div", { class: "controls", id: "learn-steps" },
      el("button", { id: "learn-back", title: "Undo the last step", text: "\u25C0 Back" }),
      el("button", { id: "learn-reset", title: "Back to the board before the first move",
        text: "\u25C0\u25C0 Start" }),
      el("button", { id: "learn-fine", title: "One event", text: "Fine step" }),
      el("button", { id: "learn-step", title: "One arc: taken, revised, arcs put back",
        text: "Step (one arc)" }),
      el("button", { id: "learn-round", title: "To the end of this round", text: "Round" }),
      el("button", { id: "learn-run", title: "To the fixed point: where the rung decides",
        text: "Run to fixed point" }),
      el("span", {}, "Event ", el("b", { id: "learn-at", text: "0 / 0" })),
      el("span", {}, "Round ", el("b", { id: "learn-round-no", text: "0" }))),
    el("p", { id: "learn-say", class: "say", "aria-live": "polite",
      text: "Load the assignment's sample, a puzzle or a position." }),
    el("div", { class: "learn-columns" },
      el("div", {},
        el("div", { class: "learn-wrap" }, el("div", { id: "learn-board", class: "learn-board",
          role: "img", "aria-label": "the board, each cell with its index" })),
        el("p", { class: "learn-legend" },
          el("span", { class: "lc-key safe", text: "safe" }), " ",
          el("span", { class: "lc-key mine", text: "mine" }), " decided; ",
          el("span", { class: "lc-key x", text: "x" }), " and ",
          el("span", { class: "lc-key y", text: "y" }), " of the arc revised, ",
          el("span", { class: "lc-key shared", text: "shared" }), " cells")),
      el("div", { class: "learn-side" },
        el("h3", { id: "learn-table-title", text: "Domains" }),
        el("table", { id: "learn-domains" }),
        el("div", { id: "learn-derived" }),
        el("h3", { text: "Arc queue" }),
        el("ol", { id: "learn-queue" }),
        el("h3", {}, "Arcs: ", el("span", { class: "arc todo", text: "to do" }), " ",
          el("span", { class: "arc revising", text: "being revised" }), " ",
          el("span", { class: "arc consistent", text: "consistent" })),
        el("p", { id: "learn-arcs" }))),
    el("p", { class: "help", text: "A value is written as the assignment writes it: each cell " +
      "of the clue's unknown cells, positive if the value mines it, negative if safe. " +
      "mineshafted trace PUZZLE --json prints the same events." }));
}

// -- the trace and where we are in it ------------------------------------------------------

const L = { events: [], at: 0, history: [], name: null, cells: [], cols: 0 };

async function load(body, label) {
  $("learn-say").textContent = "Tracing " + label + "\u2026";
  panel.dataset.ready = "0";
  try {
    body.technique = $("learn-technique").value;
    const answer = await api("POST", "/api/learn", body);
    L.events = answer.events;
    L.name = answer.name || label;
    L.at = 0;
    L.history = [];
    board(answer.events[0]);
    render();
  } catch (error) {
    $("learn-say").textContent = error.message;
  }
  panel.dataset.ready = "1";
}

function go(to) {
  to = Math.max(0, Math.min(L.events.length - 1, to));
  if (to === L.at) { return; }
  L.history.push(L.at);
  L.at = to;
  render();
}

function next(test) {  // the first event after the current one that passes test (else the last)
  for (let i = L.at + 1; i < L.events.length; i++) { if (test(L.events[i], i)) { return i; } }
  return L.events.length - 1;
}

const moves = {
  fine: () => go(L.at + 1),
  step: () => {  // an arc with its revision and the arcs put back; explored cells together
    let i = L.at + 1;
    const first = L.events[i];
    if (!first) { return; }
    if (first.event === "arc") {
      i++;
      if (L.events[i + 1] && L.events[i + 1].event === "requeue") { i++; }
    } else if (first.event === "explore") {
      while (L.events[i + 1] && L.events[i + 1].event === "explore" &&
        L.events[i + 1].round === first.round) { i++; }
    }
    go(i);
  },
  round: () => {
    const nextEvent = L.events[L.at + 1];
    if (!nextEvent) { return; }
    const r = nextEvent.round;
    go(next((e, i) => !L.events[i + 1] || L.events[i + 1].round > r));
  },
  run: () => go(next((e) => e.event === "decided" || e.event === "end")),
  back: () => {
    if (!L.history.length) { return; }
    L.at = L.history.pop();
    render();
  },
  reset: () => go(0),
};

// The state after event `upTo`: every event replayed from the board's.
function stateAt(upTo) {
  const s = {
    values: [], decided: new Map(), explored: new Set(), vars: null, arcs: [], queue: [],
    revised: new Set(), current: null, shared: [], derived: [], counts: [], round: 0,
    varsRound: 0, end: null, position: false,
  };
  for (let i = 0; i <= upTo; i++) {
    const e = L.events[i];
    if (e.round !== s.round) { s.derived = []; s.counts = []; }
    s.round = e.round;
    if (e.event !== "arc" && e.event !== "revise" && e.event !== "requeue") { s.current = null; }
    if (e.event === "board") {
      s.values = e.grid.flat();
      s.position = e.start === null;
    } else if (e.event === "explore") {
      s.values[e.cell] = e.clue;
      s.explored.add(e.cell);
    } else if (e.event === "count") {
      for (const c of e.cells) {
        s.decided.set(c, { mine: e.mine, by: [e.variable], technique: "count" });
        if (e.mine) { s.values[c] = -1; }
      }
      s.counts.push(e);
    } else if (e.event === "variables") {
      s.vars = new Map();
      for (const v of e.variables) {
        s.vars.set(v.variable, { clue: v.clue, cells: v.cells,
          values: v.domain.map((mined) => ({ mined: mined, removed: null })) });
      }
      s.arcs = e.arcs;
      s.queue = e.arcs.slice();
      s.revised = new Set();
      s.varsRound = e.round;
    } else if (e.event === "arc") {
      s.queue.shift();
      s.current = e.arc;
      s.shared = e.shared;
    } else if (e.event === "revise") {
      const x = s.vars.get(e.arc[0]);
      for (const mined of e.removed) {
        const value = x.values.find((v) => v.removed === null &&
          JSON.stringify(v.mined) === JSON.stringify(mined));
        if (value) { value.removed = e.arc; }
      }
      s.revised.add(key(e.arc));
      s.current = e.arc;
    } else if (e.event === "requeue") {
      s.queue.push(...e.arcs);
      s.current = e.arc;
    } else if (e.event === "subset") {
      s.derived.push(e);
    } else if (e.event === "decided") {
      for (const d of e.cells) {
        s.decided.set(d.cell, { mine: d.mine, by: d.by, technique: e.technique });
        if (d.mine) { s.values[d.cell] = -1; }
      }
    } else if (e.event === "end") {
      s.end = e;
    }
  }
  return s;
}

// -- drawing --------------------------------------------------------------------------------

function board(first) {
  const cells = first.rows * first.cols;
  const node = $("learn-board");
  node.textContent = "";
  node.style.setProperty("--cols", String(first.cols));
  L.cols = first.cols;
  L.cells = [];
  // Row and column labels from 1, as on the other tabs' boards; each cell keeps its index,
  // the assignment's name for it.
  node.append(el("div", { class: "ll", "aria-hidden": "true" }));
  for (let c = 0; c < first.cols; c++) {
    node.append(el("div", { class: "ll", "aria-hidden": "true", text: String(c + 1) }));
  }
  for (let i = 0; i < cells; i++) {
    if (i % first.cols === 0) {
      node.append(el("div", { class: "ll", "aria-hidden": "true", text: String(i / first.cols + 1) }));
    }
    const cell = el("div", { class: "lc" }, el("i", { text: String(i) }), el("b"));
    node.append(cell);
    L.cells.push(cell);
  }
}

function render() {
  const s = stateAt(L.at);
  const e = L.events[L.at];
  const x = s.current ? s.current[0] : null, y = s.current ? s.current[1] : null;
  const shared = new Set(s.current ? s.shared : []);
  L.cells.forEach((cell, i) => {
    const value = s.values[i];
    const decided = s.decided.get(i);
    const shown = value === null ? "" : value === -1 ? "\u2691" : value === 0 ? "\u00b7" : String(value);
    cell.lastChild.textContent = shown;
    cell.className = "lc" + (value === null ? " hidden" : value === -1 ? " mine" : " v" + value) +
      (decided && decided.mine ? " decided-mine" : "") +
      (decided && !decided.mine && value === null ? " decided-safe" : "") +
      (i === x ? " x" : "") + (i === y ? " y" : "") + (shared.has(i) ? " shared" : "") +
      (s.vars && s.vars.has(i) ? " variable" : "");
    cell.dataset.s = value === null ? "?" : value === -1 ? "*" : String(value);
    const why = decided ? (decided.mine ? "a mine" : "safe") + ", decided by " +
      decided.technique + " from " + list(decided.by) : "";
    const label = "cell " + i + " (row " + (Math.floor(i / L.cols) + 1) + ", column " +
      (i % L.cols + 1) + "): " + (value === null ? "unknown" : value === -1 ? "a mine" :
      "clue " + value) + (why ? "; " + why : "");
    cell.title = label;
    cell.setAttribute("aria-label", label);
  });
  domains(s);
  derived(s);
  queue(s);
  $("learn-at").textContent = L.at + " / " + (L.events.length - 1);
  $("learn-round-no").textContent = String(s.round);
  const before = L.events[L.at - 1];  // a requeue is said with the revision that caused it
  $("learn-say").textContent = (e && e.event === "requeue" ? describe(before, s) + " " : "") +
    describe(e, s);
  const atEnd = L.at >= L.events.length - 1;
  for (const id of ["learn-fine", "learn-step", "learn-round", "learn-run"]) { $(id).disabled = atEnd; }
  $("learn-back").disabled = L.history.length === 0;
  $("learn-reset").disabled = L.at === 0;
}

function domains(s) {
  const table = $("learn-domains");
  table.textContent = "";
  $("learn-table-title").textContent = s.vars ? "Domains (round " + s.varsRound + ")" :
    "Domains (none yet)";
  if (!s.vars) { return; }
  table.append(el("tr", {}, el("th", { text: "variable" }), el("th", { text: "clue" }),
    el("th", { text: "domain" })));
  const x = s.current ? s.current[0] : null, y = s.current ? s.current[1] : null;
  for (const [variable, v] of s.vars) {
    const values = el("td");
    for (const value of v.values) {
      const text = written(value.mined, v.cells);
      if (value.removed) {
        values.append(el("span", { class: "value" }, el("s", { class: "gone",
          title: "removed by the arc " + pair(value.removed), text: text }),
        el("sub", { text: pair(value.removed) })), " ");
      } else {
        values.append(el("span", { class: "value" }, el("span", { class: "kept", text: text })), " ");
      }
    }
    const kept = v.values.filter((value) => !value.removed).map((value) => written(value.mined, v.cells));
    table.append(el("tr", { "data-variable": String(variable), "data-kept": JSON.stringify(kept),
      class: variable === x ? "x" : variable === y ? "y" : "" },
    el("td", { text: String(variable) }), el("td", { text: String(v.clue) }), values));
  }
}

function derived(s) {
  const box = $("learn-derived");
  box.textContent = "";
  const lines = s.vars ? [] : s.derived.map((e) => constraint(e.within) + " lies within " +
    constraint(e.of) + ", so " + constraint(e.difference)).concat(s.counts.map(counted));
  if (!lines.length) { return; }
  box.append(el("ul", {}, ...lines.slice(-40).map((line) => el("li", { text: line }))));
}

function queue(s) {
  const ol = $("learn-queue");
  ol.textContent = "";
  for (const arc of s.queue.slice(0, 200)) { ol.append(el("li", { text: pair(arc) })); }
  if (s.vars && !s.queue.length) { ol.append(el("li", { class: "empty", text: "empty" })); }
  if (s.queue.length > 200) { ol.append(el("li", { text: "\u2026 " + (s.queue.length - 200) + " more" })); }
  const arcs = $("learn-arcs");
  arcs.textContent = "";
  const waiting = new Set(s.queue.map(key));
  const now = s.current ? key(s.current) : null;
  for (const arc of s.arcs) {
    const k = key(arc);
    const status = k === now ? "revising" : waiting.has(k) ? "todo" : s.revised.has(k) ?
      "consistent" : "todo";
    arcs.append(el("span", { class: "arc " + status, "data-arc": k, title: status, text: pair(arc) }), " ");
  }
}

function constraint(c) {
  return "{" + list(c.cells) + "} = " + c.mines + " (from " + list(c.clues) + ")";
}
function counted(e) {
  return e.variable + " (clue " + e.clue + ") has " + e.mines + " mine(s) left among " +
    list(e.cells) + ": all " + (e.mine ? "mines" : "safe");
}

function describe(e, s) {
  if (!e) { return ""; }
  const v = s.vars;
  switch (e.event) {
    case "board":
      return (L.name || "The board") + ": " + e.rows + "\u00d7" + e.cols + ", " +
        e.technique + (e.start === null ? ", a position: one round, nothing explored." :
        ", from index " + e.start + ". Each cell shows its index.");
    case "explore":
      return "Explore " + e.cell + ": it shows " + e.clue + ".";
    case "count":
      return "Count: " + counted(e) + ".";
    case "variables":
      return "AC-3 over " + e.variables.length + " clue variable(s), " + e.arcs.length +
        " arc(s) queued: each arc (x, y) joins two clues that share a cell.";
    case "arc":
      return "Arc " + pair(e.arc) + " taken from the queue: revise " + e.arc[0] + " against " +
        e.arc[1] + " on their shared cells " + list(e.shared) + ".";
    case "revise": {
      const [x, y] = e.arc;
      if (!e.removed.length) { return "Revise " + pair(e.arc) + ": consistent, nothing removed."; }
      const cells = v.get(x).cells, shared = s.shared;
      return "Revise " + pair(e.arc) + ": remove " + e.removed.map((m) => written(m, cells)).join(" ") +
        " from " + x + ": " + y + " allows only " + e.others.map((m) => written(m, shared)).join(" ") +
        " on cells " + list(shared) + ".";
    }
    case "requeue":
      return "Requeue " + (e.arcs.map(pair).join(" ") || "nothing new (each arc into " + e.arc[0] + " is queued already)") +
        ": " + e.arc[0] + " shrank, so the arcs into it are checked again.";
    case "subset":
      return "Subset: " + constraint(e.within) + " lies within " + constraint(e.of) + ", so " +
        constraint(e.difference) + ".";
    case "decided": {
      if (!e.cells.length) { return "Fixed point: " + e.technique + " decides nothing more here."; }
      const said = e.cells.map((c) => c.cell + " " + (c.mine ? "mine" : "safe") + " (by " + list(c.by) + ")");
      const safe = e.cells.filter((c) => !c.mine).map((c) => c.cell);
      return "Fixed point: " + said.join("; ") + "." + (safe.length && !s.position ?
        " Explored next: " + list(safe) + "; their clues become variables." : "");
    }
    case "end":
      if (e.contradiction) { return "Contradiction: " + e.contradiction + "."; }
      return e.solved ? "Solved in " + e.round + " round(s)." :
        "Stalled after " + e.round + " round(s): " + e.undetermined.length +
        " cell(s) undetermined" + (e.safe.length ? "; safe, not explored: " + list(e.safe) : "") + ".";
    default:
      return "";
  }
}

// -- starting -------------------------------------------------------------------------------

let started = false;
const catalogue = { sample: null };

async function start() {
  if (started) { return; }
  started = true;
  build();
  $("learn-sample").addEventListener("click", () => {
    $("learn-puzzle").value = catalogue.sample;
    $("learn-start").value = "";
    load({ puzzle: catalogue.sample }, "the assignment's sample");
  });
  $("learn-trace").addEventListener("click", () => {
    const body = { puzzle: $("learn-puzzle").value };
    const text = $("learn-start").value.trim();
    if (text) {
      const parts = text.split(",").map((part) => Number(part.trim()));
      if (parts.length !== 2 || !parts.every(Number.isInteger)) {
        $("learn-say").textContent = "start: " + text + " is not row,column (e.g. 0,0)";
        return;
      }
      body.start = parts;
    }
    load(body, body.puzzle);
  });
  $("learn-position").addEventListener("click", async () => {
    try {
      const loaded = await api("POST", "/api/load", { text: $("learn-text").value });
      load({ board: loaded.board, mines: loaded.mines }, "your position");
    } catch (error) { $("learn-say").textContent = error.message; }
  });
  const analyse = window.mineshafted && window.mineshafted.anBoard;
  if (analyse && typeof analyse.position === "function") {
    $("learn-analyse").hidden = false;
    $("learn-analyse").addEventListener("click", () => {
      const position = analyse.position(0);
      load({ board: position.board }, "the Analyse board");
    });
  }
  for (const [name, move] of Object.entries(moves)) {
    $("learn-" + name).addEventListener("click", move);
  }
  try {
    const answer = await api("GET", "/api/learn/puzzles");
    catalogue.sample = answer.sample;
    const select = $("learn-puzzle");
    for (const p of answer.puzzles) {
      select.append(el("option", { value: p.name, text: p.name + " (" + p.rows + "\u00d7" +
        p.cols + ", " + p.mines + " mines" + (p.title ? ": " + p.title : "") + ")" }));
    }
    await load({ puzzle: answer.sample }, "the assignment's sample");
  } catch (error) {
    $("learn-say").textContent = error.message;
    panel.dataset.ready = "1";
  }
}

// Started when the tab is first shown (by a press, the arrow keys or the address): the other
// tabs pay nothing for it.
new MutationObserver(() => { if (!panel.hidden) { start(); } })
  .observe(panel, { attributes: true, attributeFilter: ["hidden"] });
if (!panel.hidden) { start(); }

window.mineshaftedLearn = {
  trace: L,
  state: () => stateAt(L.at),
  idle: () => pending === 0,
};
})();
