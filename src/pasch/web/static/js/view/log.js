// The move log: every event with its player, for players and spectators (the last 200).
import { $, el } from "../dom.js";
import { app } from "../store.js";
import { moveText } from "../lang.js";

let drawn = "";

export function renderMoves() {
  const ol = $("moves");
  if (!ol || !app.state) return;
  const seqs = [...app.moves.keys()].sort((a, b) => a - b).slice(-200);
  const sig = seqs.length + ":" + (seqs[seqs.length - 1] || 0) + ":" + document.documentElement.lang;
  if (sig === drawn) return;  // the log is long: redrawn only when it changed
  drawn = sig;
  ol.innerHTML = "";
  for (const q of seqs) {
    const mv = app.moves.get(q);
    const name = app.state.players[mv.player] !== undefined ? app.state.players[mv.player] : "?";
    const li = el("li", { value: q, dataset: { seq: String(q) } }, name + ": " + moveText(mv.action));
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}
