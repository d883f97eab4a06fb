// What the player does: every action goes through act(), which names the position it was chosen on and
// leaves it in the connection's outbox; throws are debounced.
import { app, myTurn, render } from "./store.js";
import { sendAction, send } from "./net.js";
import { adviseKeep, throwAction } from "./place.js";
import { showError } from "./view/status.js";

// Two presses of Throw within this long are one decision, not two (the first may be answered already).
export const DEBOUNCE_MS = 150;

// The page sends one action per position (the server refuses a stale `at` as well) and acts with the
// token of the seat to move (a device may hold several seats).
export function act(action) {
  const s = app.state;
  if (!s || app.sentAt === s.seq || app.outbox) return false;
  showError(null);
  const tok = app.tokens[s.current];
  if (!sendAction(action, s.seq, tok && s.current !== app.seat ? tok : null)) return false;
  document.body.dataset.sent = String(s.seq);
  if (action !== "roll" && !action.startsWith("keep")) app.lastThrow = -1e9;  // a new decision: no debounce
  render();
  return true;
}

// `keyed`: a key press (r, Space, or Enter/Space on the Throw button, a click with detail 0). Mouse and touch
// need no debounce: their second click of a double click has detail 2 and is dropped by once().
// `at`: when the key was pressed (the event's timeStamp, on performance.now()'s clock). A busy page handles
// two presses 40 ms apart maybe half a second apart, after the first throw's answer: measured when they were
// handled, they would be two throws.
export function throwDice(keyed = false, at = performance.now()) {
  if (!myTurn()) return;
  if (keyed && Math.abs(at - app.lastThrow) < DEBOUNCE_MS) return;
  const action = throwAction();
  if (action && act(action)) app.lastThrow = at;
}

// When a click on Throw was pressed: a click made by Enter or Space (detail 0) counts from its key's keydown
// when that went down just before (within 2 s); a click of a screen reader, which presses no key, from itself.
export function pressedAt(ev) {
  const gap = ev.timeStamp - app.keyAt;
  return ev.detail === 0 && app.keyAt && gap >= 0 && gap < 2000 ? app.keyAt : ev.timeStamp;
}

export function toggleHold(i) {
  const s = app.state;
  if (!myTurn() || !s.can_keep || !app.arr.length || i >= app.arr.length || app.outbox) return;
  if (app.held.has(i)) app.held.delete(i); else app.held.add(i);
  render();
}

export function askHint() {
  const s = app.state;
  if (!myTurn()) return;
  const msg = { type: "hint" };
  if (s.current !== app.seat && app.tokens[s.current]) msg.token = app.tokens[s.current];
  send(msg);
}

export function applyHint() {
  const m = app.hint;
  if (!m || !myTurn() || !m.suggest || m.suggest === "enter") return;
  if (m.suggest.startsWith("keep")) app.held = adviseKeep();
  act(m.suggest);
}

// The score keeper's undo: the last entry goes back, sent with the token of the seat that made it (or the
// host's, the device keeping score). Not through the outbox: an undo is not resent after a reconnect.
export function undoEntry() {
  const s = app.state, seat = undoSeat();
  if (!s || seat === null || app.outbox) return false;
  showError(null);
  send({ type: "undo", at: s.seq, token: app.tokens[seat] });
  app.undoFloor = s.seq;  // until the answer: no second undo on this position
  render();
  return true;
}

// The seat this device takes the last entry back for, or null: none to take back here.
export function undoSeat() {
  const s = app.state, room = app.room;
  if (!s || !room || !room.keeper || s.terminal || s.seq === 0 || s.seq <= app.undoFloor) return null;
  const last = app.moves.get(s.seq);
  if (last && app.tokens[last.player] !== undefined) return last.player;
  const host = room.table ? room.table.host : null;
  return host !== null && app.tokens[host] !== undefined ? host : null;
}

// The score keeper's dice from the table: "1 3 3 5 6" (sheet games) or "3 4" (Knaster).
export function enterDice(text, sharp) {
  const dice = text.replace(/[^0-9]/g, "").split("").join(" ");
  if (!dice) return false;
  if (app.state && app.state.kind === "knaster") return act("throw " + dice);
  return act("enter " + dice + (sharp ? " sharp" : ""));
}
