// The room page, drawn from the store: the frame, then the game kind's board, the hints, the log and the
// end card. render() is the only entry; it keeps the keyboard focus across the redraw.
import { $ } from "../dom.js";
import { keepFocus } from "../dom.js";
import { app, mySeats, myTurn } from "../store.js";
import { renderConn, renderStatus } from "./status.js";
import { renderControls, renderDice } from "./dice.js";
import { renderSheet } from "./sheet.js";
import { renderKnaster } from "./knaster.js";
import { markAdvice, renderHints } from "./hints.js";
import { renderMoves } from "./log.js";
import { renderOver } from "./over.js";
import { renderTable } from "./table.js";

export function renderRoom() {
  if (!app.code) { renderStatus(); return; }
  renderStatus();
  const s = app.state, room = app.room;
  const gone = app.conn === "no_room";
  for (const id of ["dice-area", "hint-panel", "sheet-wrap", "moves-box", "game-foot", "share", "seat-panel", "over", "chat-box", "table-panel", "hand", "vote"]) {
    if (gone || !s || !room) $(id).hidden = true;
  }
  if (gone || !s || !room) return;
  const body = document.body.dataset;
  body.myturn = myTurn() ? "1" : "0";
  body.terminal = s.terminal ? "1" : "0";
  body.seq = String(s.seq);
  body.kind = s.kind;
  body.seats = mySeats().sort((a, b) => a - b).join(",");
  body.pending = app.outbox ? "1" : "0";
  if (app.sentAt === null) body.sent = "";
  for (const id of ["sheet-wrap", "moves-box", "game-foot"]) $(id).hidden = false;
  $("share").hidden = Boolean(s.terminal);
  $("hint-panel").hidden = !room.hints || !mySeats().length || s.terminal;
  // A finished game stays finished: no dice, no controls, only the result.
  $("dice-area").hidden = Boolean(s.terminal);
  renderDice(s);
  renderControls(s);
  if (s.kind === "sheet") renderSheet(s, room); else renderKnaster(s, room);
  renderHints();
  markAdvice();
  renderMoves();
  $("over").hidden = !s.terminal;
  if (s.terminal) renderOver(s, room);
  if (room.table) renderTable(); else for (const id of ["table-panel", "hand", "vote"]) $(id).hidden = true;
  // A server with the table's manners has the chat too; not needed when every seat plays on this device.
  const elsewhere = room.seats.some((x, i) => x.kind === "human" && app.tokens[i] === undefined);
  $("chat-box").hidden = !room.table || !elsewhere;
  renderConn();
  keepFocus();
}
