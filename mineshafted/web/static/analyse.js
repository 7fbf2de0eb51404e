// Analyse: an editor of positions, their exact odds, decided cells and best move on every edit,
// what the best policy knows at a stall, Why?, and the position in the page's address.
import {
  $, Board, api, bridge, cleared, endgameLine, explained, gridText, knownLine, pct, sayer,
  setAddress, showSurvey, where,
} from "./shared.js";

export const an = {
  analysis: null, why: false, paint: 1, seq: 0, timer: null, known: null,
  painted: null,  // ms from an analysis's request to the frame that shows it (for the benchmark)
};
export const anBoard = new Board($("an-board"), {
  press: (r, c, i) => {
    if (an.why) { why(r, c, i); return; }
    edit(i, an.paint);
  },
  flag: (r, c, i) => edit(i, null),
  focus: (i) => { $("an-info").textContent = knownLine(anBoard, i); },
});
const say = sayer("an-say");  // notes: they stay until the next thing the user does

function edit(i, value) {
  say(""); anBoard.unexplain();  // the words and the marks that go with them
  anBoard.set(i, value);
  changed();
}

function changed() {
  an.seq++;  // an answer about the position before this change is not shown
  an.analysis = null;
  anBoard.unmark();
  if (an.timer !== null) { clearTimeout(an.timer); }
  an.timer = setTimeout(analyse, 120);
}

export function empty(rows, cols) {
  anBoard.build(rows, cols);
  $("an-rows").value = String(rows); $("an-cols").value = String(cols);
  changed();
}

export function load(position, note) {  // a position onto the editor (from a file, a link, a tab)
  const rows = position.board.length, cols = position.board[0].length;
  $("an-mines").value = String(position.mines);
  $("an-rows").value = String(rows); $("an-cols").value = String(cols);
  anBoard.build(rows, cols);
  anBoard.load(position.board, []);
  say(note || "");
  changed();
}

async function analyse() {
  an.timer = null;
  const seq = ++an.seq;
  const position = anBoard.position(Number($("an-mines").value));
  $("an-json").value = "";
  $("an-download").hidden = true;
  if (anBoard.values.length <= 40000) {
    setAddress({ tab: "analyse", mines: position.mines, board: gridText(position.board) });
  }
  const began = performance.now();
  try {
    const answer = await api("POST", "/api/analyze", position);
    if (seq !== an.seq) { return; }
    an.analysis = answer;
    afterPaint(() => { if (seq === an.seq) { an.painted = performance.now() - began; } });
    anBoard.unmark();
    anBoard.showProbabilities(answer.probabilities);
    const cols = anBoard.cols;
    for (const [r, c] of answer.safe) { anBoard.mark(r * cols + c, "safe-cell"); }
    for (const [r, c] of answer.mines) { anBoard.mark(r * cols + c, "mine-cell"); }
    if (answer.best) { anBoard.mark(answer.best[0] * cols + answer.best[1], "best"); }
    const list = (cells) => cells.slice(0, 6).map(([r, c]) => where(r, c)).join("; ") +
      (cells.length > 6 ? " and " + (cells.length - 6) + " more" : "");
    $("an-summary").textContent = "Mines left " + answer.mines_left + " \u00b7 placements " +
      answer.placements + " \u00b7 safe: " + (answer.safe.length ? list(answer.safe) : "none") +
      " \u00b7 mines: " + (answer.mines.length ? list(answer.mines) : "none") +
      " \u00b7 best move: " + (answer.best ? where(answer.best[0], answer.best[1]) + " at " +
      pct(answer.best_probability) + " mine" : "none");
    an.known = null; anBoard.known = null;
    $("an-info").textContent = "";
    if (!answer.safe.length && answer.best && anBoard.values.length <= 40000) {
      const known = await api("POST", "/api/survey", position);
      if (seq !== an.seq) { return; }
      an.known = known;
      showSurvey(anBoard, known);
      $("an-info").textContent = endgameLine(known) ||
        "A stall: point at a cell for what the best policy knows of it.";
    }
  } catch (error) {
    if (seq !== an.seq) { return; }
    anBoard.showProbabilities(null);
    $("an-summary").textContent = error.message;
  }
}

function afterPaint(then) {  // once the frame now being made has been painted
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = then;
    channel.port2.postMessage(null);
  });
}

async function loadText(text) {
  cleared();
  const asked = Number($("an-mines").value);
  try {
    const loaded = await api("POST", "/api/load", { text: text, mines: asked });
    let note = "Loaded " + (loaded.kind === "text" ? "a text grid" :
      loaded.kind === "position" ? "a position" : loaded.kind === "puzzle" ?
      "a puzzle, after its first move" : "a game record, at its end") +
      (loaded.name ? " (" + loaded.name + ")" : "") + ".";
    if (loaded.kind === "text" && loaded.mines !== asked) {
      note += " The mine total " + asked + " does not fit these clues: it is now " +
        loaded.mines + ", the nearest they allow.";
    }
    load(loaded, note);
  } catch (error) { say(error.message); }
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

export function setWhy(on) {
  an.why = on;
  $("an-why").setAttribute("aria-pressed", on ? "true" : "false");
  anBoard.el.classList.toggle("asking", on);
}

async function why(r, c, i) {
  anBoard.unexplain();
  if (anBoard.values[i] !== null) {
    say(where(r, c) + " is revealed: Why? explains the unknown cells the position decides.");
    return;
  }
  try {
    const mines = Number($("an-mines").value);
    if (!an.analysis) { an.analysis = await api("POST", "/api/analyze", anBoard.position(mines)); }
    const p = an.analysis.probabilities[r][c];
    if (p !== 0 && p !== 1) {
      say(where(r, c) + " is not decided by the position: its chance of a mine is " + pct(p) +
        ". " + (knownLine(anBoard, i) ? knownLine(anBoard, i) + ". " : "") +
        "Why? explains the cells that are certainly safe or certainly mines.");
      return;
    }
    const body = anBoard.position(mines);
    body.cell = [r, c];
    explained(anBoard, await api("POST", "/api/explain", body), say);
  } catch (error) { say(error.message); }
}

for (const button of document.querySelectorAll("#an-palette button[data-v]")) {
  button.addEventListener("click", () => {
    an.paint = JSON.parse(button.dataset.v);
    for (const other of document.querySelectorAll("#an-palette button[data-v]")) {
      other.setAttribute("aria-checked", other === button ? "true" : "false");
    }
    setWhy(false);
  });
}
$("an-why").addEventListener("click", () => setWhy(!an.why));
$("an-empty").addEventListener("click", () => {
  say("");
  empty(Number($("an-rows").value), Number($("an-cols").value));
});
$("an-mines").addEventListener("input", () => { say(""); changed(); });
$("an-load").addEventListener("click", () => loadText($("an-text").value));
$("an-file").addEventListener("change", async () => {
  const file = $("an-file").files[0];
  if (!file) { return; }
  if (file.size > 8 * 1024 * 1024) {
    say(file.name + ": larger than 8 MiB, the server's limit");
    return;
  }
  await loadText(await file.text());
});
$("an-export").addEventListener("click", exportJson);
bridge.analyse = (position, note) => load(position, note);
