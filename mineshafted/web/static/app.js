// The live environment's page: Play, Analyse and Watch over the server's JSON API (/api).
// This script starts the page: the tabs (the ARIA tab pattern), the keys, the palette, and what
// the address or the browser kept. Each tab is its own script (Learn, learn.js, starts itself
// when its panel is first shown). It asks nothing of any other server: the
// content security policy would refuse it anyway.
import { $, RAMPS, address, api, bridge, cleared, failed, keep, kept, textGrid, traffic, typing, view } from "./shared.js";
import { LEVELS, hint, newGame, play, playBoard, refresh, restoreSettings, resume, setWhy } from "./play.js";
import { an, anBoard, empty, load } from "./analyse.js";
import { w, wBoard } from "./watch.js";

const PLAYERS = {
  "policy:best": "best policy (the sweep with the total; best guess at each stall)",
  rules: "an S4 rule file",
};

function tabs() { return Array.from(document.querySelectorAll("#tabs [role=tab]")); }

function show(tab) {
  for (const button of tabs()) {
    const on = button.dataset.tab === tab;
    button.setAttribute("aria-selected", on ? "true" : "false");
    button.tabIndex = on ? 0 : -1;
    $(button.dataset.tab).hidden = !on;
  }
  cleared();
}
bridge.show = show;
// The Learn tab is a classic script, not a module: what it may read of the others.
window.mineshafted = { anBoard };

for (const button of tabs()) {
  button.addEventListener("click", () => show(button.dataset.tab));
  button.addEventListener("keydown", (e) => {
    const all = tabs(), k = all.indexOf(button);
    const next = { ArrowRight: k + 1, ArrowLeft: k - 1, Home: 0, End: all.length - 1 }[e.key];
    if (next === undefined) { return; }
    e.preventDefault();
    const to = all[(next + all.length) % all.length];
    show(to.dataset.tab);
    to.focus();
  });
}

function setPalette(name) {
  view.ramp = RAMPS[name] || RAMPS.viridis;
  $("palette").value = RAMPS[name] ? name : "viridis";
  for (const board of [playBoard, anBoard, wBoard]) {
    for (let i = 0; i < board.cells.length; i++) { board.paint(i); }
  }
}
$("palette").addEventListener("change", () => { keep({ palette: $("palette").value }); setPalette($("palette").value); });

document.addEventListener("keydown", (e) => {
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey || $("play").hidden) { return; }
  const keys = {
    h: hint,
    m: () => { $("play-heat").click(); },
    w: () => { $("play-why").click(); },
    n: () => newGame(),
    Escape: () => setWhy(false),
  };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});

async function start() {
  try {
    const config = await api("GET", "/api/config");
    Object.assign(LEVELS, config.levels);  // the library's levels, named once
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
    const saved = kept();
    setPalette(saved.palette || "viridis");
    $("play-heat").checked = Boolean(saved["play-heat"]);
    $("play-show").checked = Boolean(saved["play-show"]);
    const link = address();
    restoreSettings(link.get("tab") === "play" ? link : null);
    const grid = link.get("tab") === "analyse" && link.get("board") ? textGrid(link.get("board")) : null;
    if (grid) {
      load({ board: grid, mines: Number(link.get("mines")) || 0 }, "The position of the link.");
      show("analyse");
    } else { empty(9, 9); }
    await startPlay(link);
  } catch (error) { failed(error); }
  document.body.dataset.ready = "1";
}

async function startPlay(link) {  // a reload resumes; else a link's board; else the kept game
  let key = null;
  try { key = sessionStorage.getItem("mineshafted.game"); } catch (e) { key = null; }
  const navigation = performance.getEntriesByType("navigation")[0];
  const reloaded = navigation !== undefined && navigation.type === "reload";
  const linked = link.get("tab") === "play" && link.has("seed");
  if (key && (reloaded || !linked)) {
    try { await resume(key); return; } catch (error) { /* gone from the server: anew */ }
  }
  if (linked) {
    const start = (link.get("start") || "").split(",").map(Number);
    await newGame({ seed: Number(link.get("seed")),
      start: start.length === 2 && start.every(Number.isInteger) ? start : undefined });
    return;
  }
  await newGame();
}

window.mineshafted = {
  play: play, playBoard: playBoard, an: an, anBoard: anBoard, w: w, wBoard: wBoard,
  refresh: refresh, loadPosition: load,
  idle: () => traffic.pending === 0 && an.timer === null && !w.busy,  // nothing asked, nor about to be
};
start();
