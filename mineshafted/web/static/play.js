// Play: a live game kept on the server; hints, Why?, the heat map and what the policy knows;
// the end's summary, a review of every move, and links to play the same board again.
import {
  $, MINE, Board, api, bridge, cleared, endgameLine, explained, keep, kept, knownLine, pct,
  sayer, setAddress, showSurvey, where,
} from "./shared.js";

export const LEVELS = {};  // name -> [rows, cols, mines], from the server (/api/config) at start
const KEPT_FIELDS = ["level", "rows", "cols", "mines-total", "first", "kind", "technique"];

export const play = {
  id: null, mines: 0, status: "playing", started: false, ticking: null, began: 0,
  analysis: null, known: null, why: false, busy: false, flagMode: false, seq: 0,
  body: null, first: null, seed: null, review: null, final: null,
};
export const playBoard = new Board($("play-board"), {
  press: (r, c, i) => playPress(r, c, i),
  flag: (r, c, i) => playFlag(r, c, i),
  middle: (r, c, i) => { if (playBoard.values[i] > 0) { act("chord", r, c); } },
  focus: (i) => { $("play-info").textContent = knownLine(playBoard, i) || endgameLine(play.known || {}); },
});
export const say = sayer("play-say");

export function levelOf(prefix) {  // [rows, cols, mines] from a level select and its custom fields
  const level = $(prefix + "-level").value;
  if (LEVELS[level]) { return LEVELS[level]; }
  return [prefix + "-rows", prefix + "-cols", prefix + "-mines-total"].map((id) => Number($(id).value));
}

export function seedOf(id) {
  const text = $(id).value.trim();
  if (!text) { return undefined; }
  if (!/^\d+$/.test(text)) { throw new Error("Seed: " + text + " is not a whole number"); }
  return Number(text);
}

// -- a game -------------------------------------------------------------------------------------

export async function newGame(options) {
  options = options || {};
  cleared();
  try {
    const [rows, cols, mines] = levelOf("play");
    const typed = $("play-use-seed").checked ? seedOf("play-seed") : undefined;
    const seed = options.seed !== undefined ? options.seed : typed;
    const body = { rows: rows, cols: cols, mines: mines, first: $("play-first").value,
      board: $("play-kind").value, seed: seed };
    if (body.board === "no-guess" && $("play-technique").value) {
      body.technique = $("play-technique").value;
    }
    const game = await api("POST", "/api/games", body);
    if (play.id) { api("DELETE", "/api/games/" + play.id).catch(() => null); }
    begin(game, body);
    $("play-shown-seed").textContent = seed === undefined ? "shown at the end" : String(seed);
    say(body.board === "no-guess" ?
      "Press any cell to start: the board is made around your first reveal, and logic alone " +
      "finishes it from there." : "Press any cell to start: the first reveal is safe.");
    remember();
    if (options.start) { await act("reveal", options.start[0], options.start[1]); }
  } catch (error) { say(error.message); }
}

function begin(game, body) {  // show a game the server has just made or still keeps
  const s = game.settings;
  play.id = game.id; play.mines = s.mines; play.status = game.status; play.started = false;
  play.analysis = null; play.known = null; play.first = null; play.review = null;
  play.final = null; play.body = body; play.seed = body.seed;
  try { sessionStorage.setItem("mineshafted.game", game.id); } catch (e) { /* kept nowhere */ }
  stopClock(); $("play-time").textContent = "0";
  playBoard.build(s.rows, s.cols);
  $("play-end").hidden = true; $("play-moves").hidden = true; $("play-info").textContent = "";
  counters(game);
}

export async function resume(key) {  // a game the server still has (a reload, a take-over)
  const game = await api("GET", "/api/games/" + key);
  const s = game.settings;
  begin(game, { rows: s.rows, cols: s.cols, mines: s.mines, first: s.first, board: s.board,
    technique: s.technique || undefined, seed: s.seed === null ? undefined : s.seed });
  playBoard.load(game.board, game.flagged);
  play.started = game.board.some((row) => row.some((v) => v !== null));
  $("play-shown-seed").textContent = game.origin === "watch" ? "a watched board" :
    s.seed === null ? "shown at the end" : String(s.seed);
  if (game.status !== "playing") { ended(game); } else if (play.started) { startClock(game.seconds); }
  say(game.origin === "watch" ? "Taken over from Watch: the board is yours to finish." :
    "Your game, as you left it.");
  await refresh();
}

function remember() {  // the settings kept in the browser, and the address of this board
  const changes = {};
  for (const name of KEPT_FIELDS) { changes["play-" + name] = $("play-" + name).value; }
  changes["play-use-seed"] = $("play-use-seed").checked;
  changes["play-seed"] = $("play-seed").value;
  keep(changes);
  const body = play.body || {};
  const custom = $("play-level").value === "custom";
  setAddress({ tab: "play", level: $("play-level").value, rows: custom ? body.rows : "",
    cols: custom ? body.cols : "", mines: custom ? body.mines : "", first: body.first,
    board: body.board, technique: body.technique, seed: play.seed,
    start: play.seed !== undefined && play.first ? play.first.join(",") : "" });
}

export function restoreSettings(fields) {  // kept settings, then a link's, onto the controls
  for (const [id, value] of Object.entries(kept())) {
    const el = $(id);
    if (!el || !id.startsWith("play-")) { continue; }
    if (el.type === "checkbox") { el.checked = Boolean(value); } else { el.value = value; }
  }
  if (fields) {
    const names = { level: "level", rows: "rows", cols: "cols", mines: "mines-total",
      first: "first", board: "kind", technique: "technique" };
    for (const [key, id] of Object.entries(names)) {
      if (fields.has(key)) { $("play-" + id).value = fields.get(key); }
    }
  }
  $("play-seed").disabled = !$("play-use-seed").checked;
  for (const el of [$("play-level"), $("play-kind")]) { el.dispatchEvent(new Event("change")); }
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

// -- moves --------------------------------------------------------------------------------------

async function playPress(r, c, i) {
  if (play.why) { await why(r, c, i); return; }
  const v = playBoard.values[i];
  if (v === null && (play.flagMode || playBoard.flags[i])) {
    if (play.flagMode) { await act("flag", r, c); }
    return;
  }
  if (v === null) { await act("reveal", r, c); } else if (v > 0) { await act("chord", r, c); }
}

async function playFlag(r, c, i) {
  if (playBoard.values[i] === null) { await act("flag", r, c); }
}

export async function act(action, r, c) {
  if (!play.id || play.status !== "playing" || play.busy) { return; }
  play.busy = true;
  cleared();
  const i = r * playBoard.cols + c;
  playBoard.unmark("hint"); playBoard.unexplain();
  // At once, before the server answers: a reveal shows the cell pressed, a flag is drawn.
  if (action === "reveal") { playBoard.press(i); }
  if (action === "flag") { playBoard.setFlag(i, !playBoard.flags[i]); }
  let moved = false;
  try {
    const move = await api("POST", "/api/games/" + play.id + "/" + action, { cell: [r, c] });
    if (action === "reveal" && !play.first) { play.first = [r, c]; remember(); }
    applyMove(move);
    moved = true;
    if (move.note) { say("Nothing to chord: " + move.note + "."); }
    else if (move.status === "playing" && action !== "flag") { say(""); }
  } catch (error) {
    playBoard.unpress();
    if (action === "flag") { playBoard.setFlag(i, !playBoard.flags[i]); }
    if (action === "reveal" && !play.started && error.status === 503 && play.body.board === "no-guess") {
      noBoard();
    } else { say(error.message); }
  } finally { play.busy = false; }
  if (moved && play.status === "playing") { await refresh(); }
}

function noBoard() {  // the generator found no board in time: say what to change
  const b = play.body;
  play.status = "no board";
  $("play-status").textContent = "no board"; $("play-status").dataset.status = "lost";
  playBoard.el.classList.add("void");
  say("No board was made: a no-guess board of " + b.mines + " mines on " + b.rows + "\u00d7" +
    b.cols + " could not be found in the time the server gives it. Choose fewer mines, a " +
    "larger board, or a random board, then New game.");
}

function applyMove(move) {
  const cols = playBoard.cols;
  for (const [r, c, v] of move.revealed) { playBoard.set(r * cols + c, v); }
  playBoard.unpress();
  playBoard.flagsAre(move.flagged);
  play.analysis = null; play.known = null;
  if (!play.started && move.revealed.length) {
    play.started = true;
    startClock(move.seconds);
  }
  counters(move);
  if (move.status !== "playing") { ended(move); }
}

function ended(move) {
  stopClock();
  if (move.seed !== undefined && move.seed !== null) {
    play.seed = move.seed;
    $("play-shown-seed").textContent = String(move.seed);
  }
  $("play-time").textContent = String(Math.round(move.seconds));
  const cols = playBoard.cols;
  playBoard.showProbabilities(null);
  for (const mark of ["safe-cell", "mine-cell", "dead", "fifty"]) { playBoard.unmark(mark); }
  for (const [r, c] of move.mines) {
    const i = r * cols + c;
    if (move.status === "won") { playBoard.setFlag(i, true); }  // a win flags every mine
    else if (!playBoard.flags[i]) { playBoard.set(i, MINE); }
  }
  for (const [r, c] of move.hit || []) { playBoard.mark(r * cols + c, "hit"); }
  for (const [r, c] of move.wrong_flags || []) { playBoard.mark(r * cols + c, "wrong"); }
  play.final = { values: playBoard.values.slice(), flags: playBoard.flags.slice() };
  const won = move.status === "won";
  const parts = [(won ? "Won" : "Lost") + " in " + Math.round(move.seconds) + " s"];
  if (move.bbbv !== null && move.bbbv !== undefined) { parts.push("3BV " + move.bbbv); }
  parts.push(move.actions + " action" + (move.actions === 1 ? "" : "s"));
  if (move.efficiency !== null && move.efficiency !== undefined) {
    parts.push("efficiency " + Math.round(100 * move.efficiency) + "%");
  }
  $("play-end").dataset.status = move.status;
  $("play-end-text").textContent = parts.join(" \u00b7 ") + (won ? "." : ": the mine is marked.");
  $("play-end").hidden = false;
  $("play-link").href = "#" + new URLSearchParams({ tab: "play", rows: playBoard.rows,
    cols: playBoard.cols, mines: play.mines, level: $("play-level").value,
    first: play.body.first, board: play.body.board, seed: play.seed,
    start: play.first ? play.first.join(",") : "0,0" }).toString();
  remember();
  loadReview();
}

async function loadReview() {
  try {
    play.review = await api("POST", "/api/games/" + play.id + "/review");
    const guesses = play.review.guesses;
    const line = guesses.length ? " Guesses: " + guesses.length + ", at " +
      guesses.map(pct).join(", ") + "." : " No guess: every reveal after the first was certain.";
    $("play-end-text").textContent += line;
  } catch (error) { /* the summary stands without the review */ }
}

function showReview() {
  const list = $("play-moves");
  if (!list.hidden) { list.hidden = true; restoreEnd(); return; }
  if (!play.review) { return; }
  list.replaceChildren(...play.review.moves.map((move, k) => {
    const item = document.createElement("li");
    item.textContent = move.text;
    item.className = "v-" + move.verdict.replace(" ", "-");
    item.tabIndex = 0;
    const open = () => reviewAt(k);
    item.addEventListener("click", open);
    item.addEventListener("keydown", (e) => { if (e.key === "Enter") { open(); } });
    return item;
  }));
  list.hidden = false;
}

async function reviewAt(k) {  // the board as it was before move k, the move ringed and explained
  const moves = play.review.moves, cols = playBoard.cols;
  for (const [j, item] of Array.from($("play-moves").children).entries()) {
    item.setAttribute("aria-current", j === k ? "true" : "false");
  }
  playBoard.unmark();
  playBoard.values.fill(null); playBoard.flags.fill(0);
  for (const move of moves.slice(0, k)) {
    for (const [r, c, v] of move.revealed) { playBoard.values[r * cols + c] = v; }
    if (move.kind !== "reveal") { playBoard.flags[move.cell[0] * cols + move.cell[1]] = move.kind === "flag" ? 1 : 0; }
  }
  playBoard.probs = null;
  for (let j = 0; j < playBoard.values.length; j++) { playBoard.paint(j); }
  const move = moves[k];
  const i = move.cell[0] * cols + move.cell[1];
  playBoard.mark(i, "now");
  say(move.text);
  if (move.verdict === "certain") {
    const body = playBoard.position(play.mines);
    body.cell = move.cell;
    try { explained(playBoard, await api("POST", "/api/explain", body), say); } catch (e) { /* said already */ }
    playBoard.mark(i, "now");
  }
}

function restoreEnd() {
  if (!play.final) { return; }
  playBoard.unmark("now"); playBoard.unexplain();
  playBoard.values = play.final.values.slice();
  playBoard.flags = play.final.flags.slice();
  for (let i = 0; i < playBoard.values.length; i++) { playBoard.paint(i); }
}

// -- what the position says -----------------------------------------------------------------

async function analysisOf() {
  if (!play.analysis) {
    play.analysis = await api("POST", "/api/analyze", playBoard.position(play.mines));
  }
  return play.analysis;
}

export async function refresh() {  // the heat map, the decided cells, what the policy knows
  const heat = $("play-heat").checked, show = $("play-show").checked;
  const seq = ++play.seq;
  if (!play.id || play.status !== "playing" || !play.started || !(heat || show)) {
    playBoard.showProbabilities(null);
    for (const mark of ["safe-cell", "mine-cell", "dead", "fifty"]) { playBoard.unmark(mark); }
    $("play-info").textContent = "";
    return;
  }
  try {
    const analysis = await analysisOf();
    if (seq !== play.seq) { return; }
    playBoard.showProbabilities(heat ? analysis.probabilities : null);
    playBoard.unmark("safe-cell"); playBoard.unmark("mine-cell");
    if (show) {
      const cols = playBoard.cols;
      for (const [r, c] of analysis.safe) { playBoard.mark(r * cols + c, "safe-cell"); }
      for (const [r, c] of analysis.mines) { playBoard.mark(r * cols + c, "mine-cell"); }
    }
    playBoard.unmark("dead"); playBoard.unmark("fifty");
    playBoard.known = null;
    $("play-info").textContent = "";
    if (heat && !analysis.safe.length && analysis.best) {
      const known = await api("POST", "/api/survey", playBoard.position(play.mines));
      if (seq !== play.seq) { return; }
      play.known = known;
      showSurvey(playBoard, known);
      $("play-info").textContent = endgameLine(known) ||
        "No cell is certainly safe: point at a cell for what the best policy knows of it.";
    }
  } catch (error) { if (seq === play.seq) { say(error.message); } }
}

export function setWhy(on) {
  play.why = on;
  $("play-why").setAttribute("aria-pressed", on ? "true" : "false");
  playBoard.el.classList.toggle("asking", on);
}

async function why(r, c, i) {
  playBoard.unexplain(); playBoard.unmark("hint");
  if (playBoard.values[i] !== null) {
    say(where(r, c) + " is revealed: Why? explains the unknown cells the position decides.");
    return;
  }
  try {
    const analysis = await analysisOf();
    const p = analysis.probabilities[r][c];
    if (p !== 0 && p !== 1) {
      say(where(r, c) + " is not decided by what is revealed: its chance of a mine is " + pct(p) +
        ". " + (knownLine(playBoard, i) ? knownLine(playBoard, i) + ". " : "") +
        "Why? explains the cells that are certainly safe or certainly mines.");
      return;
    }
    const body = playBoard.position(play.mines);
    body.cell = [r, c];
    explained(playBoard, await api("POST", "/api/explain", body), say);
  } catch (error) { say(error.message); }
}

export async function hint() {
  if (!play.id || play.status !== "playing" || play.busy) { return; }
  play.busy = true;
  cleared();
  playBoard.unmark("hint"); playBoard.unexplain();
  try {
    const answer = await api("POST", "/api/games/" + play.id + "/hint");
    if (answer.safe && answer.explanation) {  // a safe cell's hint is its Why?, one step a line
      explained(playBoard, answer.explanation, say, "hint");
      return;
    }
    playBoard.mark(answer.cell[0] * playBoard.cols + answer.cell[1], "hint");
    say(answer.text);
  } catch (error) { say(error.message); } finally { play.busy = false; }
}

function setFlagMode(on) {
  play.flagMode = on;
  $("play-flag-mode").setAttribute("aria-pressed", on ? "true" : "false");
}

// -- controls -----------------------------------------------------------------------------------

$("play-new").addEventListener("click", () => newGame());
$("play-hint").addEventListener("click", hint);
$("play-heat").addEventListener("change", () => { keep({ "play-heat": $("play-heat").checked }); refresh(); });
$("play-show").addEventListener("change", () => { keep({ "play-show": $("play-show").checked }); refresh(); });
$("play-why").addEventListener("click", () => setWhy(!play.why));
$("play-flag-mode").addEventListener("click", () => setFlagMode(!play.flagMode));
$("play-use-seed").addEventListener("change", () => {
  $("play-seed").disabled = !$("play-use-seed").checked;
  if ($("play-use-seed").checked && !$("play-seed").value && play.seed !== undefined && play.seed !== null) {
    $("play-seed").value = String(play.seed);
  }
});
$("play-again").addEventListener("click", () => newGame({ seed: play.seed, start: play.first }));
$("play-review").addEventListener("click", showReview);
$("play-watch").addEventListener("click", () => { bridge.show("watch"); bridge.watchGame(play.id); });
$("play-analyse").addEventListener("click", () => {
  bridge.show("analyse");
  bridge.analyse(playBoard.position(play.mines), "From Play: the cells you have revealed.");
});
for (const select of document.querySelectorAll("select.level")) {
  select.addEventListener("change", () => {
    select.closest(".controls").querySelector(".custom").hidden = select.value !== "custom";
  });
}
for (const prefix of ["play", "w"]) {
  $(prefix + "-kind").addEventListener("change", () => {
    $(prefix + "-technique").closest("label").hidden =
      $(prefix + "-kind").value !== "no-guess" || $(prefix + "-technique").options.length < 2;
  });
}
bridge.playGame = async (key) => { bridge.show("play"); await resume(key); };
