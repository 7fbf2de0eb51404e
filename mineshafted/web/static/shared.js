// What the tabs share: the API client, the board (labels, keyboard, touch, marks), the
// colour ramps, the settings kept in the browser and the page's address.
export const $ = (id) => document.getElementById(id);
export const MINE = -1;

export const RAMPS = {  // five stops each, from no mine (0) to a mine (1)
  viridis: [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]],
  conventional: [[26, 152, 80], [145, 207, 96], [254, 224, 139], [252, 141, 89], [215, 48, 39]],
};
export const view = { ramp: RAMPS.viridis };  // the palette in use (app.js sets it)

export function colour(p) {  // [r, g, b] of a probability on the ramp in use
  const ramp = view.ramp;
  const x = Math.min(1, Math.max(0, p)) * (ramp.length - 1);
  const i = Math.min(ramp.length - 2, Math.floor(x));
  const f = x - i, a = ramp[i], b = ramp[i + 1];
  return a.map((v, j) => Math.round(v + f * (b[j] - v)));
}
export function luminance([r, g, b]) {  // WCAG relative luminance
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
export function pct(p) {
  return (100 * p).toFixed(p > 0 && p < 0.01 || p > 0.99 && p < 1 ? 2 : 1) + "%";
}
export function short(p) {  // a probability in a cell: whole percent, "<1" and ">99" near the ends
  if (p === 0) { return "0"; }
  if (p === 1) { return "100"; }
  if (p < 0.01) { return "<1"; }
  if (p > 0.99) { return ">99"; }
  return String(Math.round(100 * p));
}
export function where(r, c) { return "row " + (r + 1) + ", column " + (c + 1); }
export function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement;
}

// -- the API ----------------------------------------------------------------------------------

export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}
export const GONE = "The server is not answering: is mineshafted serve still running? " +
  "Start it again, then reload this page.";

export const traffic = { pending: 0 };  // requests in flight (window.mineshafted.idle reads it)

export async function api(method, url, body) {
  const options = { method: method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  traffic.pending++;
  try {
    let response;
    try { response = await fetch(url, options); } catch (e) { throw new ApiError(0, GONE); }
    if (response.status === 204) { return null; }
    let data;
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) { throw new ApiError(response.status, data.error || response.statusText); }
    return data;
  } finally { traffic.pending--; }
}

export function failed(error) {
  const el = $("error");
  el.textContent = error.message;
  el.hidden = false;
}
export function cleared() { $("error").hidden = true; }

// -- what the browser keeps ---------------------------------------------------------------------

const KEPT = "mineshafted.settings";
export function kept() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "{}") || {}; } catch (e) { return {}; }
}
export function keep(changes) {
  try { localStorage.setItem(KEPT, JSON.stringify(Object.assign(kept(), changes))); } catch (e) {
    // a browser that keeps nothing: the settings last as long as the page
  }
}
export function address() { return new URLSearchParams(location.hash.slice(1)); }
export function setAddress(fields) {  // the page's address: its tab and what it shows
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    if (v !== undefined && v !== null && v !== "") { params.set(k, String(v)); }
  }
  history.replaceState(null, "", "#" + params.toString());
}

// -- the board ----------------------------------------------------------------------------------

const STATE = { null: "hidden", F: "flagged" };

export class Board {
  // Cells are divs in a CSS grid (role gridcell), one row element (display: contents) per row,
  // with row and column labels; data-s holds what the cell is ("?" hidden, "F" flag, "*"
  // mine, "." zero, digits), data-t the text drawn in it, data-p a probability when the heat
  // map shows one, aria-label all of it in words. One cell
  // at a time is in the tab order (a roving tabindex): arrows move, Enter or Space reveals,
  // F flags, C chords. A touch held for half a second flags.
  constructor(el, handlers) {
    this.el = el;
    this.rows = 0; this.cols = 0;
    this.handlers = handlers;
    this.cells = [];
    this.focus = 0;
    this.held = null;
    this.longPressed = false;
    el.addEventListener("click", (e) => {
      if (this.longPressed) { this.longPressed = false; return; }
      this.dispatch(e, "press");
    });
    el.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      if (this.longPressed || e.pointerType === "touch") { return; }
      this.dispatch(e, "flag");
    });
    el.addEventListener("auxclick", (e) => { if (e.button === 1) { this.dispatch(e, "middle"); } });
    el.addEventListener("pointerdown", (e) => {
      if (e.pointerType !== "touch") { return; }
      this.longPressed = false;
      const target = e.target.closest(".c");
      if (!target) { return; }
      const x = e.clientX, y = e.clientY;
      this.held = { x: x, y: y, timer: setTimeout(() => {
        this.held = null;
        this.longPressed = true;
        this.dispatch({ target: target }, "flag");
      }, 450) };
    });
    const release = () => { if (this.held) { clearTimeout(this.held.timer); this.held = null; } };
    el.addEventListener("pointerup", release);
    el.addEventListener("pointercancel", release);
    el.addEventListener("pointermove", (e) => {
      if (this.held && Math.hypot(e.clientX - this.held.x, e.clientY - this.held.y) > 10) { release(); }
    });
    el.addEventListener("keydown", (e) => this.key(e));
    el.addEventListener("focusin", (e) => {
      const target = e.target.closest(".c");
      if (target && this.handlers.focus) { this.handlers.focus(target.i); }
    });
    el.addEventListener("mouseover", (e) => {
      const target = e.target.closest(".c");
      if (target && this.handlers.focus) { this.handlers.focus(target.i); }
    });
  }

  dispatch(event, kind) {
    const target = event.target.closest(".c");
    if (!target || !this.el.contains(target) || !this.handlers[kind]) { return; }
    const i = target.i;
    this.moveFocus(i, false);
    this.handlers[kind](Math.floor(i / this.cols), i % this.cols, i);
  }

  key(e) {
    const target = e.target.closest && e.target.closest(".c");
    if (!target || e.ctrlKey || e.metaKey || e.altKey) { return; }
    const i = target.i, r = Math.floor(i / this.cols), c = i % this.cols;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[e.key]) {
      const [dr, dc] = moves[e.key];
      const rr = Math.min(this.rows - 1, Math.max(0, r + dr));
      const cc = Math.min(this.cols - 1, Math.max(0, c + dc));
      this.moveFocus(rr * this.cols + cc, true);
    } else if (e.key === "Enter" || e.key === " ") {
      if (this.handlers.press) { this.handlers.press(r, c, i); }
    } else if (e.key === "f" || e.key === "F") {
      if (this.handlers.flag) { this.handlers.flag(r, c, i); }
    } else if (e.key === "c" || e.key === "C") {
      if (this.handlers.middle) { this.handlers.middle(r, c, i); }
    } else { return; }
    e.preventDefault();
    e.stopPropagation();
  }

  moveFocus(i, focus) {
    if (this.cells[this.focus]) { this.cells[this.focus].tabIndex = -1; }
    this.focus = i;
    this.cells[i].tabIndex = 0;
    if (focus) { this.cells[i].focus(); }
  }

  build(rows, cols) {
    this.rows = rows; this.cols = cols;
    const n = rows * cols;
    this.values = new Array(n).fill(null);
    this.flags = new Uint8Array(n);
    this.probs = null;
    this.marks = new Map();
    this.pending = new Set();
    const room = Math.max(300, Math.min(1100, window.innerWidth - 80));
    const size = Math.max(24, Math.min(30, Math.floor(room / cols)));
    this.el.style.setProperty("--cols", String(cols));
    this.el.style.setProperty("--size", size + "px");
    this.el.style.setProperty("--lab", (String(rows).length > 2 ? 30 : 22) + "px");
    this.el.classList.remove("void");
    const fragment = document.createDocumentFragment();
    const head = document.createElement("div");
    head.className = "r"; head.setAttribute("role", "row");
    const corner = document.createElement("span");
    corner.className = "lab"; corner.setAttribute("role", "columnheader");
    const hint = document.createElement("span");
    hint.className = "unseen"; hint.textContent = "rows \u2193, columns \u2192";
    corner.appendChild(hint);
    head.appendChild(corner);
    for (let c = 0; c < cols; c++) {
      const lab = document.createElement("span");
      lab.className = "lab"; lab.setAttribute("role", "columnheader");
      lab.textContent = String(c + 1);
      head.appendChild(lab);
    }
    fragment.appendChild(head);
    this.cells = new Array(n);
    for (let r = 0; r < rows; r++) {
      const row = document.createElement("div");
      row.className = "r"; row.setAttribute("role", "row");
      const lab = document.createElement("span");
      lab.className = "lab"; lab.setAttribute("role", "rowheader");
      lab.textContent = String(r + 1);
      row.appendChild(lab);
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("div");
        const i = r * cols + c;
        cell.i = i;
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = i === 0 ? 0 : -1;
        this.cells[i] = cell;
        row.appendChild(cell);
      }
      fragment.appendChild(row);
    }
    this.focus = 0;
    this.el.replaceChildren(fragment);
    for (let i = 0; i < n; i++) { this.paint(i); }
  }

  set(i, value) { this.values[i] = value; this.pending.delete(i); this.paint(i); }
  setFlag(i, on) { this.flags[i] = on ? 1 : 0; this.paint(i); }
  press(i) { this.pending.add(i); this.paint(i); }  // shown at once, before the server answers
  unpress() { for (const i of this.pending) { this.pending.delete(i); this.paint(i); } }
  flagsAre(list) {
    const now = new Uint8Array(this.values.length);
    for (const [r, c] of list) { now[r * this.cols + c] = 1; }
    for (let i = 0; i < now.length; i++) {
      if (now[i] !== this.flags[i]) { this.setFlag(i, now[i] === 1); }
    }
  }
  load(grid, flagged) {  // a whole grid at once (a restored game, a loaded position)
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) { this.values[r * this.cols + c] = grid[r][c]; }
    }
    this.flags.fill(0);
    for (const [r, c] of flagged || []) { this.flags[r * this.cols + c] = 1; }
    for (let i = 0; i < this.values.length; i++) { this.paint(i); }
  }

  position(mines) {  // what the player knows: clues, known mines; flags are opinions
    const board = [];
    for (let r = 0; r < this.rows; r++) {
      board.push(this.values.slice(r * this.cols, (r + 1) * this.cols));
    }
    return { board: board, mines: mines };
  }

  showProbabilities(grid) {  // a grid like the API's probabilities, or null to hide them
    if (grid === null && this.probs === null) { return; }
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
  marked(cls) { return [...this.marks].filter(([, set]) => set.has(cls)).map(([i]) => i); }
  unexplain() {  // an explanation's marks gone: the cell, the clues and the cells it names
    for (const mark of WHY) { this.unmark(mark); }
  }

  paint(i) {
    const el = this.cells[i], v = this.values[i];
    let cls = "c", glyph, text = "", state;
    if (v === null) {
      if (this.flags[i]) {
        cls += " f"; glyph = "F"; text = "\u2691"; state = "flagged";
      } else {
        cls += this.pending.has(i) ? " h pending" : " h"; glyph = "?"; state = "hidden";
      }
    } else if (v === MINE) {
      cls += " m"; glyph = "*"; text = "\u2739"; state = "mine";
    } else {
      cls += " v" + v; glyph = v ? String(v) : "."; text = v ? String(v) : "";
      state = v ? "clue " + v : "empty";
    }
    const p = v === null ? this.probability(i) : undefined;
    if (p !== undefined) {
      const rgb = colour(p), fill = "rgb(" + rgb.join(",") + ")";
      if (el.dataset.p !== String(p) || el.fill !== fill) {
        el.dataset.p = String(p);
        el.fill = fill;
        el.style.setProperty("--p", fill);
        el.title = "mine probability " + pct(p);
      }
      if (luminance(rgb) > 0.2) { cls += " light"; }
      if (!this.flags[i]) { text = short(p); }
      state += ", " + pct(p) + " mine";
    } else if (el.dataset.p !== undefined) {
      delete el.dataset.p;
      el.fill = undefined;
      el.removeAttribute("title");
    }
    const marks = this.marks.get(i);
    if (marks) {
      for (const m of marks) { cls += " " + m; }
      if (marks.has("dead")) { state += ", dead"; }
      if (marks.has("fifty")) { state += ", a fifty-fifty"; }
    }
    // Only what changed is written: a repaint of a whole board touches few cells.
    if (el.className !== cls) { el.className = cls; }
    if (el.dataset.s !== glyph) { el.dataset.s = glyph; }
    // What the cell shows is drawn by its style from data-t, for the eye; its label says it
    // in words, and more exactly (a heat map's "13" is "12.5% mine").
    if (el.dataset.t !== text) { el.dataset.t = text; }
    if (el.said !== state) {
      el.said = state;
      el.setAttribute("aria-label", where(Math.floor(i / this.cols), i % this.cols) + ", " + state);
    }
  }
}

// -- explanations -------------------------------------------------------------------------------

// An explanation with its technique as a tag: the verdict, then the argument one step a line
// (lines parted by "\n"); every cell its words name marked on the board (the cell decided, as
// "cell", a hint's own mark; the clues; the other unknown cells) until the next action clears
// them.
const WHY = ["why-cell", "why-clue", "why-named"];
export function explained(board, answer, sayTo, cell = "why-cell") {
  const cols = board.cols;
  board.unexplain();
  board.mark(answer.cell[0] * cols + answer.cell[1], cell);
  for (const [r, c] of answer.clues) { board.mark(r * cols + c, "why-clue"); }
  for (const [r, c] of answer.cells || []) { board.mark(r * cols + c, "why-named"); }
  const verdict = where(answer.cell[0], answer.cell[1]) + " is " +
    (answer.value === "mine" ? "a mine" : "safe") + ".";
  const steps = answer.steps || [];
  sayTo(steps.length ? [verdict, ...steps].join("\n") : answer.text, answer.technique);
}

export function sayer(id) {  // a function writing a sentence, with a technique's tag, to #id
  return (text, technique) => {
    const el = $(id);
    el.textContent = text ? text[0].toUpperCase() + text.slice(1) : "";
    if (technique) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = technique;
      tag.title = "the technique that decides it";
      el.appendChild(tag);
    }
  };
}

// A survey (what the best policy knows at a stall), marked on a board: dead cells and
// fifty-fifties; and a line for a cell, the numbers the library gives.
export function showSurvey(board, known) {
  board.unmark("dead"); board.unmark("fifty");
  const cols = board.cols;
  board.known = new Map();
  for (const cell of known.cells) {
    const i = cell.cell[0] * cols + cell.cell[1];
    board.known.set(i, cell);
    if (cell.dead) { board.mark(i, "dead"); }
  }
  for (const pair of known.fifties) {
    for (const [r, c] of pair) { board.mark(r * cols + c, "fifty"); }
  }
}
export function knownLine(board, i) {
  const cell = board.known && board.known.get(i);
  if (!cell) { return ""; }
  const [r, c] = cell.cell;
  return "R" + where(r, c).slice(1) + ": mine " + pct(cell.mine) + " \u00b7 safe, and the best next guess " +
    "safe too (secondary safety) " + pct(cell.secondary) + " \u00b7 progress " +
    pct(cell.progress) + (cell.dead ? " \u00b7 dead: it can show only one number" : "") +
    (board.marked("fifty").includes(i) ? " \u00b7 a fifty-fifty" : "");
}
export function endgameLine(known) {
  return known.endgame ? "Best play wins " + pct(known.endgame.chance) + " from here (" +
    known.endgame.wins + " of " + known.endgame.placements + " placements)." : "";
}

// The position as text: one row a line, digits, "." for 0, "?" unknown, "*" a known mine.
export function gridText(board) {
  const rows = [];
  for (let r = 0; r < board.length; r++) {
    rows.push(board[r].map((v) => v === null ? "?" : v === MINE ? "*" : v === 0 ? "." : String(v)).join(""));
  }
  return rows.join("/");
}
export function textGrid(text) {
  const rows = text.split("/").map((row) => Array.from(row, (ch) =>
    ch === "?" ? null : ch === "*" ? MINE : ch === "." ? 0 : Number(ch)));
  const ok = rows.length && rows.every((row) => row.length === rows[0].length &&
    row.every((v) => v === null || (Number.isInteger(v) && v >= MINE && v <= 8)));
  return ok ? rows : null;
}

// The tabs reach one another through here (each registers what it offers), so no two
// scripts import each other: show(tab), analyse(position), watchGame(id), playGame(game).
export const bridge = {};
