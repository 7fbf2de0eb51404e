"use strict";
// The live environment's page: Play, Analyse and Watch over the server's JSON API (/api).
// It asks nothing of any other server: the content security policy would refuse it anyway.
(function () {
const $ = (id) => document.getElementById(id);
const MINE = -1;
const RAMP = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
const LEVELS = { beginner: [9, 9, 10], intermediate: [16, 16, 40], expert: [16, 30, 99] };
const PLAYERS = {
  "policy:best": "best policy (the sweep with the total; best guess at each stall)",
  rules: "an S4 rule file",
};

function viridis(p) {
  const x = Math.min(1, Math.max(0, p)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i, a = RAMP[i], b = RAMP[i + 1];
  return "rgb(" + a.map((v, j) => Math.round(v + f * (b[j] - v))).join(",") + ")";
}
function pct(p) { return (100 * p).toFixed(p > 0 && p < 0.01 || p > 0.99 && p < 1 ? 2 : 1) + "%"; }
function short(p) {  // a probability in a cell: whole percent, "<1" and ">99" near the ends
  if (p === 0) { return "0"; }
  if (p === 1) { return "100"; }
  if (p < 0.01) { return "<1"; }
  if (p > 0.99) { return ">99"; }
  return String(Math.round(100 * p));
}
function where(r, c) { return "(" + r + ", " + c + ")"; }
function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement;
}

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

let pending = 0;  // requests in flight (window.mineshafted.idle() reads it)

async function api(method, url, body) {
  const options = { method: method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  pending++;
  try {
    const response = await fetch(url, options);
    if (response.status === 204) { return null; }
    let data;
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) { throw new ApiError(response.status, data.error || response.statusText); }
    return data;
  } finally { pending--; }
}

function failed(error) {
  const el = $("error");
  el.textContent = error.message;
  el.hidden = false;
}
function cleared() { $("error").hidden = true; }

// -- the board ------------------------------------------------------------------------------

class Board {
  // Cells are divs in a CSS grid; data-s holds what the cell shows ("?" hidden, "F" flag,
  // "*" mine, "." zero, digits), data-p a probability when the heat map shows one.
  constructor(el, handlers) {
    this.el = el;
    this.rows = 0; this.cols = 0;
    this.handlers = handlers;
    el.addEventListener("click", (e) => this.dispatch(e, "click"));
    el.addEventListener("contextmenu", (e) => { e.preventDefault(); this.dispatch(e, "flag"); });
    el.addEventListener("auxclick", (e) => { if (e.button === 1) { this.dispatch(e, "middle"); } });
  }

  dispatch(event, kind) {
    const target = event.target.closest(".c");
    if (!target || target.parentNode !== this.el || !this.handlers[kind]) { return; }
    const i = target.i;
    this.handlers[kind](Math.floor(i / this.cols), i % this.cols, i);
  }

  build(rows, cols) {
    this.rows = rows; this.cols = cols;
    const n = rows * cols;
    this.values = new Array(n).fill(null);
    this.flags = new Uint8Array(n);
    this.probs = null;
    this.marks = new Map();
    const room = Math.max(300, Math.min(1100, window.innerWidth - 80));
    const size = Math.max(14, Math.min(30, Math.floor(room / cols)));
    this.el.style.setProperty("--cols", String(cols));
    this.el.style.setProperty("--size", size + "px");
    this.small = size < 20;
    const fragment = document.createDocumentFragment();
    for (let i = 0; i < n; i++) {
      const cell = document.createElement("div");
      cell.i = i;
      fragment.appendChild(cell);
    }
    this.el.replaceChildren(fragment);
    for (let i = 0; i < n; i++) { this.paint(i); }
  }

  set(i, value) { this.values[i] = value; this.paint(i); }
  setFlag(i, on) { this.flags[i] = on ? 1 : 0; this.paint(i); }
  flagsAre(list) {
    const now = new Uint8Array(this.values.length);
    for (const [r, c] of list) { now[r * this.cols + c] = 1; }
    for (let i = 0; i < now.length; i++) {
      if (now[i] !== this.flags[i]) { this.setFlag(i, now[i] === 1); }
    }
  }

  position(mines) {  // what the player knows: clues, known mines; flags are opinions
    const board = [];
    for (let r = 0; r < this.rows; r++) {
      board.push(this.values.slice(r * this.cols, (r + 1) * this.cols));
    }
    return { board: board, mines: mines };
  }

  showProbabilities(grid) {  // a grid like the API's probabilities, or null to hide them
    this.probs = grid;
    for (let i = 0; i < this.values.length; i++) { this.paint(i); }
  }
  probability(i) {
    if (!this.probs) { return undefined; }
    const p = this.probs[Math.floor(i / this.cols)][i % this.cols];
    return p === null ? undefined : p;
  }

  mark(i, cls) {
    const set = this.marks.get(i) || new Set();
    set.add(cls);
    this.marks.set(i, set);
    this.paint(i);
  }
  unmark(cls) {
    for (const [i, set] of this.marks) {
      if (cls === undefined || set.has(cls)) {
        if (cls === undefined) { set.clear(); } else { set.delete(cls); }
        this.paint(i);
      }
    }
  }

  paint(i) {
    const el = this.el.children[i], v = this.values[i];
    let cls = "c", glyph, text = "";
    if (v === null) {
      if (this.flags[i]) { cls += " f"; glyph = "F"; text = "\u2691"; } else { cls += " h"; glyph = "?"; }
    } else if (v === MINE) {
      cls += " m"; glyph = "*"; text = "\u2739";
    } else {
      cls += " v" + v; glyph = v ? String(v) : "."; text = v ? String(v) : "";
    }
    const p = v === null ? this.probability(i) : undefined;
    if (p !== undefined) {
      el.dataset.p = String(p);
      el.style.setProperty("--p", viridis(p));
      el.title = "mine probability " + pct(p);
      if (p > 0.55) { cls += " light"; }
      if (!this.flags[i] && !this.small) { text = short(p); }
    } else if (el.dataset.p !== undefined) {
      delete el.dataset.p;
      el.removeAttribute("title");
    }
    const marks = this.marks.get(i);
    if (marks) { for (const m of marks) { cls += " " + m; } }
    el.className = cls;
    el.dataset.s = glyph;
    el.textContent = text;
  }
}

// -- tabs -----------------------------------------------------------------------------------

function show(tab) {
  for (const button of document.querySelectorAll("#tabs button")) {
    const on = button.dataset.tab === tab;
    button.setAttribute("aria-selected", on ? "true" : "false");
    $(button.dataset.tab).hidden = !on;
  }
  cleared();
}

function levelOf(prefix) {  // [rows, cols, mines] from a level select and its custom fields
  const level = $(prefix + "-level").value;
  if (LEVELS[level]) { return LEVELS[level]; }
  return [prefix + "-rows", prefix + "-cols", prefix + "-mines-total"].map((id) => Number($(id).value));
}

function seedOf(id) {
  const text = $(id).value.trim();
  if (!text) { return undefined; }
  if (!/^\d+$/.test(text)) { throw new ApiError(422, "seed: " + text + " is not a whole number"); }
  return Number(text);
}

for (const select of document.querySelectorAll("select.level")) {
  select.addEventListener("change", () => {
    select.closest(".controls").querySelector(".custom").hidden = select.value !== "custom";
  });
}

// -- Play -----------------------------------------------------------------------------------

const play = {
  id: null, mines: 0, status: "playing", started: false, ticking: null, began: 0,
  analysis: null, why: false, busy: false,
};
const playBoard = new Board($("play-board"), {
  click: (r, c, i) => playClick(r, c, i),
  flag: (r, c, i) => playFlag(r, c, i),
  middle: (r, c, i) => { if (playBoard.values[i] > 0) { act("chord", r, c); } },
});

function say(text) { $("play-say").textContent = text; }

async function newGame() {
  cleared();
  try {
    const [rows, cols, mines] = levelOf("play");
    const body = { rows: rows, cols: cols, mines: mines, first: $("play-first").value,
      board: $("play-kind").value, seed: seedOf("play-seed") };
    if (body.board === "no-guess" && $("play-technique").value) {
      body.technique = $("play-technique").value;
    }
    const game = await api("POST", "/api/games", body);
    if (play.id) { api("DELETE", "/api/games/" + play.id).catch(() => null); }
    play.id = game.id; play.mines = mines; play.status = "playing"; play.started = false;
    play.analysis = null;
    stopClock(); $("play-time").textContent = "0";
    playBoard.build(rows, cols);
    // The server shows a game's seed only once it is over (it draws the board); a seed typed
    // here is known already.
    $("play-shown-seed").textContent = body.seed === undefined ? "shown at the end" : String(body.seed);
    $("play-watch").disabled = true;
    counters(game);
    say(body.board === "no-guess" ?
      "Click any cell to start: the board is made around your first click, and logic alone " +
      "finishes it from there." : "Click any cell to start: the first click is safe.");
  } catch (error) { failed(error); }
}

function counters(state) {
  $("play-counter").textContent = String(state.mines_left);
  $("play-rating-box").hidden = !state.rating;
  $("play-rating").textContent = state.rating || "";
  $("play-status").textContent = state.status;
  $("play-status").dataset.status = state.status;
  play.status = state.status;
}

function startClock(seconds) {
  play.began = performance.now() - 1000 * seconds;
  play.ticking = setInterval(() => {
    $("play-time").textContent = String(Math.floor((performance.now() - play.began) / 1000));
  }, 250);
}
function stopClock() {
  if (play.ticking !== null) { clearInterval(play.ticking); play.ticking = null; }
}

async function playClick(r, c, i) {
  if (play.why) { await why(playBoard, play, r, c, i, "play"); return; }
  const v = playBoard.values[i];
  if (v === null && !playBoard.flags[i]) { await act("reveal", r, c); } else if (v > 0) {
    await act("chord", r, c);
  }
}

async function playFlag(r, c, i) {
  if (playBoard.values[i] === null) { await act("flag", r, c); }
}

async function act(action, r, c) {
  if (!play.id || play.status !== "playing" || play.busy) { return; }
  play.busy = true;
  cleared();
  playBoard.unmark();
  try {
    const move = await api("POST", "/api/games/" + play.id + "/" + action, { cell: [r, c] });
    applyMove(move);
    if (move.note) { say("Nothing to chord: " + move.note + "."); }
    else if (action !== "flag") { say(""); }
  } catch (error) { say(error.message); } finally { play.busy = false; }
  if (play.status === "playing" && $("play-heat").checked) { await heat(); }
}

function applyMove(move) {
  const cols = playBoard.cols;
  for (const [r, c, v] of move.revealed) { playBoard.set(r * cols + c, v); }
  playBoard.flagsAre(move.flagged);
  play.analysis = null;
  if (!play.started && move.revealed.length) {
    play.started = true;
    startClock(move.seconds);
  }
  counters(move);
  if (move.status !== "playing") { ended(move); }
}

function ended(move) {
  stopClock();
  if (move.seed !== undefined && move.seed !== null) { $("play-shown-seed").textContent = String(move.seed); }
  $("play-time").textContent = String(Math.round(move.seconds));
  const cols = playBoard.cols;
  playBoard.showProbabilities(null);
  $("play-heat").checked = false;
  for (const [r, c] of move.mines) {
    const i = r * cols + c;
    if (!playBoard.flags[i]) { playBoard.set(i, MINE); }
  }
  for (const [r, c] of move.hit || []) { playBoard.mark(r * cols + c, "hit"); }
  for (const [r, c] of move.wrong_flags || []) { playBoard.mark(r * cols + c, "wrong"); }
  $("play-watch").disabled = false;
  say(move.status === "won" ?
    "Won in " + Math.round(move.seconds) + " s. \u201cWatch this board\u201d shows how a player of " +
    "your choice plays it." :
    "Lost: the mine is marked. \u201cWatch this board\u201d shows how a player of your choice plays it.");
}

async function analysisOf(board, state, mines) {
  if (!state.analysis) {
    state.analysis = await api("POST", "/api/analyze", board.position(mines));
  }
  return state.analysis;
}

async function heat() {
  if (!$("play-heat").checked || !play.id) { playBoard.showProbabilities(null); return; }
  try {
    const analysis = await analysisOf(playBoard, play, play.mines);
    if ($("play-heat").checked) { playBoard.showProbabilities(analysis.probabilities); }
  } catch (error) { say(error.message); }
}

function setWhy(state, button, board, on) {
  state.why = on;
  $(button).setAttribute("aria-pressed", on ? "true" : "false");
  board.el.classList.toggle("asking", on);
}

async function why(board, state, r, c, i, mode) {
  const sayTo = mode === "play" ? say : (text) => { $("an-say").textContent = text; };
  board.unmark("why-clue"); board.unmark("why-cell"); board.unmark("hint");
  if (board.values[i] !== null) {
    sayTo(where(r, c) + " is revealed: Why? explains the unknown cells the position decides.");
    return;
  }
  try {
    const mines = mode === "play" ? play.mines : Number($("an-mines").value);
    const analysis = await analysisOf(board, state, mines);
    const p = analysis.probabilities[r][c];
    if (p !== 0 && p !== 1) {
      sayTo(where(r, c) + " is not decided by what is revealed: its chance of a mine is " + pct(p) +
        ". Why? explains the cells that are certainly safe or certainly mines.");
      return;
    }
    const body = board.position(mines);
    body.cell = [r, c];
    const answer = await api("POST", "/api/explain", body);
    explained(board, answer, sayTo);
  } catch (error) { sayTo(error.message); }
}

function explained(board, answer, sayTo) {
  const cols = board.cols;
  board.mark(answer.cell[0] * cols + answer.cell[1], "why-cell");
  for (const [r, c] of answer.clues) { board.mark(r * cols + c, "why-clue"); }
  sayTo(where(answer.cell[0], answer.cell[1]) + " is " +
    (answer.value === "mine" ? "a mine" : "safe") + ". " + answer.text);
}

async function hint() {
  if (!play.id || play.status !== "playing" || play.busy) { return; }
  play.busy = true;
  cleared();
  playBoard.unmark();
  try {
    const answer = await api("POST", "/api/games/" + play.id + "/hint");
    const cols = playBoard.cols;
    playBoard.mark(answer.cell[0] * cols + answer.cell[1], "hint");
    if (answer.explanation) {
      for (const [r, c] of answer.explanation.clues) { playBoard.mark(r * cols + c, "why-clue"); }
    }
    say(answer.text);
  } catch (error) { say(error.message); } finally { play.busy = false; }
}

$("play-new").addEventListener("click", newGame);
$("play-hint").addEventListener("click", hint);
$("play-heat").addEventListener("change", heat);
$("play-why").addEventListener("click", () => setWhy(play, "play-why", playBoard, !play.why));
$("play-watch").addEventListener("click", () => {
  show("watch");
  startWatch({ game: play.id });
});
for (const prefix of ["play", "w"]) {
  $(prefix + "-kind").addEventListener("change", () => {
    $(prefix + "-technique").closest("label").hidden =
      $(prefix + "-kind").value !== "no-guess" || $(prefix + "-technique").options.length < 2;
  });
}

// -- Analyse --------------------------------------------------------------------------------

const an = { analysis: null, why: false, paint: 1, seq: 0, timer: null };
const anBoard = new Board($("an-board"), {
  click: (r, c, i) => {
    if (an.why) { why(anBoard, an, r, c, i, "analyse"); return; }
    edit(i, an.paint);
  },
  flag: (r, c, i) => edit(i, null),
});

function edit(i, value) {
  anBoard.set(i, value);
  anChanged();
}

function anChanged() {
  an.analysis = null;
  anBoard.unmark();
  if (an.timer !== null) { clearTimeout(an.timer); }
  an.timer = setTimeout(analyse, 120);
}

function anEmpty(rows, cols) {
  anBoard.build(rows, cols);
  $("an-rows").value = String(rows); $("an-cols").value = String(cols);
  anChanged();
}

function anLoad(position) {
  const rows = position.board.length, cols = position.board[0].length;
  $("an-mines").value = String(position.mines);
  $("an-rows").value = String(rows); $("an-cols").value = String(cols);
  anBoard.build(rows, cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) { anBoard.values[r * cols + c] = position.board[r][c]; }
  }
  for (let i = 0; i < rows * cols; i++) { anBoard.paint(i); }
  anChanged();
}

async function analyse() {
  an.timer = null;
  const seq = ++an.seq;
  const position = anBoard.position(Number($("an-mines").value));
  $("an-json").value = "";
  $("an-download").hidden = true;
  try {
    const answer = await api("POST", "/api/analyze", position);
    if (seq !== an.seq) { return; }
    an.analysis = answer;
    anBoard.unmark();
    anBoard.showProbabilities(answer.probabilities);
    const cols = anBoard.cols;
    for (const [r, c] of answer.safe) { anBoard.mark(r * cols + c, "safe-cell"); }
    for (const [r, c] of answer.mines) { anBoard.mark(r * cols + c, "mine-cell"); }
    if (answer.best) { anBoard.mark(answer.best[0] * cols + answer.best[1], "best"); }
    const list = (cells) => cells.slice(0, 6).map(([r, c]) => where(r, c)).join(", ") +
      (cells.length > 6 ? " and " + (cells.length - 6) + " more" : "");
    $("an-summary").textContent = "Mines left " + answer.mines_left + " \u00b7 placements " +
      answer.placements + " \u00b7 safe: " + (answer.safe.length ? list(answer.safe) : "none") +
      " \u00b7 mines: " + (answer.mines.length ? list(answer.mines) : "none") +
      " \u00b7 best move: " + (answer.best ? where(answer.best[0], answer.best[1]) + " at " +
      pct(answer.best_probability) + " mine" : "none");
    $("an-say").textContent = "";
  } catch (error) {
    if (seq !== an.seq) { return; }
    anBoard.showProbabilities(null);
    $("an-summary").textContent = "";
    $("an-say").textContent = error.message;
  }
}

async function loadText(text) {
  cleared();
  try {
    const loaded = await api("POST", "/api/load", { text: text, mines: Number($("an-mines").value) });
    anLoad(loaded);
    $("an-say").textContent = "Loaded " + (loaded.kind === "text" ? "a text grid" :
      loaded.kind === "position" ? "a position" : loaded.kind === "puzzle" ?
      "a puzzle, after its first move" : "a game record, at its end") +
      (loaded.name ? " (" + loaded.name + ")" : "") + ".";
  } catch (error) { $("an-say").textContent = error.message; }
}

function exportJson() {
  const position = anBoard.position(Number($("an-mines").value));
  const text = JSON.stringify(position);
  $("an-json").value = text;
  const link = $("an-download");
  if (link.href) { URL.revokeObjectURL(link.href); }
  link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
  link.hidden = false;
}

for (const button of document.querySelectorAll("#an-palette button[data-v]")) {
  button.addEventListener("click", () => {
    an.paint = JSON.parse(button.dataset.v);
    for (const other of document.querySelectorAll("#an-palette button[data-v]")) {
      other.setAttribute("aria-checked", other === button ? "true" : "false");
    }
    setWhy(an, "an-why", anBoard, false);
  });
}
$("an-why").addEventListener("click", () => setWhy(an, "an-why", anBoard, !an.why));
$("an-empty").addEventListener("click", () => {
  anEmpty(Number($("an-rows").value), Number($("an-cols").value));
});
$("an-mines").addEventListener("input", anChanged);
$("an-load").addEventListener("click", () => loadText($("an-text").value));
$("an-file").addEventListener("change", async () => {
  const file = $("an-file").files[0];
  if (!file) { return; }
  if (file.size > 8 * 1024 * 1024) {
    $("an-say").textContent = file.name + ": larger than 8 MiB, the server's limit";
    return;
  }
  await loadText(await file.text());
});
$("an-export").addEventListener("click", exportJson);

// -- Watch ----------------------------------------------------------------------------------

const w = { id: null, total: 0, step: 0, timer: null, busy: false, done: true };
const wBoard = new Board($("w-board"), {});

async function startWatch(from) {
  cleared();
  stopWatch();
  const player = $("w-player").value;
  const body = { player: player };
  if (player === "rules") { body.rules = $("w-rules").value; }
  try {
    if (from && from.game) {
      body.game = from.game;
    } else {
      const [rows, cols, mines] = levelOf("w");
      Object.assign(body, { rows: rows, cols: cols, mines: mines, first: $("w-first").value,
        board: $("w-kind").value, seed: seedOf("w-seed") });
      if (body.board === "no-guess" && $("w-technique").value) {
        body.technique = $("w-technique").value;
      }
      body.start = $("w-start").value === "centre" ?
        [Math.floor(rows / 2), Math.floor(cols / 2)] : [0, 0];
    }
    $("w-say").textContent = "Playing the board on the server\u2026";
    const made = await api("POST", "/api/watch", body);
    w.id = made.id; w.total = made.total; w.step = 0; w.done = made.total === 0;
    wBoard.build(made.rows, made.cols);
    $("w-note").textContent = made.rows + "\u00d7" + made.cols + ", " + made.mines + " mines: " +
      made.note + ".";
    $("w-play").disabled = $("w-step").disabled = w.done;
    $("w-status").textContent = "playing"; $("w-status").dataset.status = "playing";
    counted();
    $("w-say").textContent = "Ready: " + made.total + " steps. Press \u25b6 Play or Step.";
  } catch (error) { $("w-say").textContent = error.message; }
}

function counted() { $("w-count").textContent = w.step + " / " + w.total; }

async function stepWatch(count) {
  if (!w.id || w.done || w.busy) { return; }
  w.busy = true;
  try {
    const answer = await api("POST", "/api/watch/" + w.id + "/step", { count: count });
    for (const step of answer.steps) { applyStep(step); }
    w.step = answer.step; w.done = answer.done;
    counted();
    if (w.done) {
      stopWatch();
      $("w-play").disabled = $("w-step").disabled = true;
      $("w-status").textContent = answer.status; $("w-status").dataset.status = answer.status;
    }
  } catch (error) {
    stopWatch();
    $("w-say").textContent = error.message;
  } finally { w.busy = false; }
}

function applyStep(step) {
  const cols = wBoard.cols;
  wBoard.unmark("now");
  const i = step.cell[0] * cols + step.cell[1];
  if (step.kind === "reveal") {
    for (const [r, c, v] of step.revealed) {
      wBoard.set(r * cols + c, v);
      wBoard.mark(r * cols + c, "now");
    }
    if (step.hit) { wBoard.mark(i, "hit"); }
  } else {
    wBoard.setFlag(i, step.kind === "flag");
    wBoard.mark(i, "now");
  }
  if (step.odds && $("w-heat").checked) {
    const grid = [];
    for (let r = 0; r < wBoard.rows; r++) { grid.push(new Array(cols).fill(null)); }
    for (const [r, c, p] of step.odds) { grid[r][c] = p; }
    wBoard.el.classList.add("heat");
    wBoard.showProbabilities(grid);
  } else if (wBoard.probs) {
    wBoard.showProbabilities(null);
  }
  if (step.mines) {
    for (const [r, c] of step.mines) {
      const j = r * cols + c;
      if (wBoard.values[j] === null && !wBoard.flags[j]) { wBoard.set(j, MINE); }
    }
  }
  $("w-say").textContent = step.text;
  $("w-status").textContent = step.status; $("w-status").dataset.status = step.status;
}

function playWatch() {
  if (w.timer !== null) { stopWatch(); return; }
  if (w.done) { return; }
  $("w-play").textContent = "\u23f8 Pause";
  w.timer = setInterval(() => stepWatch(1), 1000 / Number($("w-speed").value));
}
function stopWatch() {
  if (w.timer !== null) { clearInterval(w.timer); w.timer = null; }
  $("w-play").textContent = "\u25b6 Play";
}

$("w-new").addEventListener("click", () => startWatch(null));
$("w-play").addEventListener("click", playWatch);
$("w-step").addEventListener("click", () => { stopWatch(); stepWatch(1); });
$("w-speed").addEventListener("change", () => { if (w.timer !== null) { stopWatch(); playWatch(); } });
$("w-player").addEventListener("change", () => {
  $("w-rules-box").hidden = $("w-player").value !== "rules";
});
$("w-file").addEventListener("change", async () => {
  const file = $("w-file").files[0];
  if (file) { $("w-rules").value = await file.text(); }
});

// -- keys and start -------------------------------------------------------------------------

for (const button of document.querySelectorAll("#tabs button")) {
  button.addEventListener("click", () => show(button.dataset.tab));
}
document.addEventListener("keydown", (e) => {
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey || $("play").hidden) { return; }
  const keys = {
    h: hint,
    m: () => { $("play-heat").click(); },
    w: () => { $("play-why").click(); },
    n: newGame,
    Escape: () => setWhy(play, "play-why", playBoard, false),
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});

async function start() {
  try {
    const config = await api("GET", "/api/config");
    const players = $("w-player");
    for (const name of config.players) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = PLAYERS[name] || "agent: " + name;
      players.appendChild(option);
    }
    for (const select of document.querySelectorAll("select.rating")) {
      for (const name of ["", ...config.techniques]) {
        const option = document.createElement("option");
        option.value = name;
        option.textContent = name || "any";
        select.appendChild(option);
      }
    }
    anEmpty(9, 9);
    await newGame();
  } catch (error) { failed(error); }
  document.body.dataset.ready = "1";
}

window.mineshafted = {
  play: play, playBoard: playBoard, an: an, anBoard: anBoard, w: w, wBoard: wBoard,
  idle: () => pending === 0 && an.timer === null,  // nothing asked of the server, nor about to be
};
start();
})();
