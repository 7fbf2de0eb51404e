// Watch: a player plays a board on the server; the page steps through it, back and forth, rings
// the clues that prove each deduction, and can take over or analyse from any step.
import { $, MINE, Board, api, bridge, cleared, explained, sayer } from "./shared.js";
import { levelOf, seedOf } from "./play.js";

export const w = {
  id: null, total: 0, at: 0, steps: [], timer: null, busy: false, mines: 0, seq: 0,
};
export const wBoard = new Board($("w-board"), {});
const say = sayer("w-say");
const DEDUCED = new Set(["count", "subset", "ac3", "complete", "total"]);

export async function startWatch(from) {
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
    say("Playing the board on the server\u2026");
    const made = await api("POST", "/api/watch", body);
    w.id = made.id; w.total = made.total; w.at = 0; w.steps = []; w.mines = made.mines;
    wBoard.build(made.rows, made.cols);
    $("w-note").textContent = made.rows + "\u00d7" + made.cols + ", " + made.mines + " mines: " +
      made.note + ".";
    $("w-scrub").max = String(made.total);
    status("playing");
    shown();
    say("Ready: " + made.total + " steps. Press \u25b6 Play or Step.");
  } catch (error) { say(error.message); }
}

function status(value) { $("w-status").textContent = value; $("w-status").dataset.status = value; }

function shown() {  // the counters and the buttons for the step the board shows
  $("w-count").textContent = w.at + " / " + w.total;
  $("w-scrub").value = String(w.at);
  const none = !w.id;
  $("w-scrub").disabled = none;
  $("w-back").disabled = none || w.at === 0;
  $("w-play").disabled = $("w-step").disabled = none || w.at >= w.total;
  $("w-analyse").disabled = none;
  const last = w.at > 0 ? w.steps[w.at - 1] : null;
  $("w-takeover").disabled = none || w.at >= w.total || (last !== null && last.status !== "playing");
}

async function fetchTo(count) {  // have the first `count` steps (the server sends them in order)
  while (w.steps.length < Math.min(count, w.total)) {
    const want = Math.min(1000, count - w.steps.length);
    const answer = await api("POST", "/api/watch/" + w.id + "/step", { count: want });
    w.steps.push(...answer.steps);
    if (!answer.steps.length) { break; }
  }
}

async function goTo(k, explain) {  // show the board after the first k steps
  if (!w.id || w.busy) { return; }
  w.busy = true;
  const seq = ++w.seq;
  try {
    k = Math.max(0, Math.min(w.total, k));
    await fetchTo(k);
    if (k === w.at + 1) { applyStep(w.steps[k - 1]); } else { rebuild(k); }
    w.at = k;
    shown();
    if (k === 0) { say("The start: nothing revealed."); status("playing"); }
    if (explain && k > 0) { await ring(k - 1, seq); }
  } catch (error) {
    stopWatch();
    say(error.message);
  } finally { w.busy = false; }
}

function rebuild(k) {  // the board after the first k steps, drawn anew
  wBoard.values.fill(null); wBoard.flags.fill(0);
  wBoard.marks.clear();
  wBoard.probs = null;
  for (const step of w.steps.slice(0, k - 1)) { place(step); }
  for (let i = 0; i < wBoard.values.length; i++) { wBoard.paint(i); }
  if (k > 0) { applyStep(w.steps[k - 1]); }
}

function place(step) {  // a step's cells, without drawing
  const cols = wBoard.cols;
  if (step.kind === "reveal") {
    for (const [r, c, v] of step.revealed) { wBoard.values[r * cols + c] = v; }
  } else {
    wBoard.flags[step.cell[0] * cols + step.cell[1]] = step.kind === "flag" ? 1 : 0;
  }
}

function applyStep(step) {
  const cols = wBoard.cols;
  wBoard.unmark("now"); wBoard.unexplain();
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
  say(step.text);
  status(step.status);
}

async function ring(k, seq) {  // the clues that prove step k's cell, from the board before it
  const step = w.steps[k];
  if (!DEDUCED.has(step.reason)) { return; }
  const cols = wBoard.cols, board = [];
  const before = wBoard.values.slice();
  for (const [r, c] of step.kind === "reveal" ? step.revealed : []) { before[r * cols + c] = null; }
  for (let r = 0; r < wBoard.rows; r++) { board.push(before.slice(r * cols, (r + 1) * cols)); }
  try {
    const answer = await api("POST", "/api/explain", { board: board, mines: w.mines, cell: step.cell });
    if (seq !== w.seq) { return; }
    explained(wBoard, answer, (text, technique) => say(step.text + " " + text, technique));
  } catch (error) { /* the step's own words stand */ }
}

function playWatch() {
  if (w.timer !== null) { stopWatch(); return; }
  if (w.at >= w.total) { return; }
  $("w-play").textContent = "\u23f8 Pause";
  w.timer = setInterval(() => {
    if (w.at >= w.total) { stopWatch(); return; }
    goTo(w.at + 1, false);
  }, 1000 / Number($("w-speed").value));
}
function stopWatch() {
  if (w.timer !== null) { clearInterval(w.timer); w.timer = null; }
  $("w-play").textContent = "\u25b6 Play";
}

$("w-new").addEventListener("click", () => startWatch(null));
$("w-play").addEventListener("click", playWatch);
$("w-step").addEventListener("click", () => { stopWatch(); goTo(w.at + 1, true); });
$("w-back").addEventListener("click", () => { stopWatch(); goTo(w.at - 1, true); });
$("w-scrub").addEventListener("input", () => { stopWatch(); goTo(Number($("w-scrub").value), true); });
$("w-speed").addEventListener("change", () => { if (w.timer !== null) { stopWatch(); playWatch(); } });
$("w-player").addEventListener("change", () => {
  $("w-rules-box").hidden = $("w-player").value !== "rules";
});
$("w-file").addEventListener("change", async () => {
  const file = $("w-file").files[0];
  if (file) { $("w-rules").value = await file.text(); }
});
$("w-analyse").addEventListener("click", () => {
  bridge.show("analyse");
  bridge.analyse(wBoard.position(w.mines), "From Watch, step " + w.at + " of " + w.total + ".");
});
$("w-takeover").addEventListener("click", async () => {
  stopWatch();
  try {
    const game = await api("POST", "/api/watch/" + w.id + "/takeover", { step: w.at });
    await bridge.playGame(game.id);
  } catch (error) { say(error.message); }
});
bridge.watchGame = (key) => startWatch({ game: key });
