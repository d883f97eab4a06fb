// A room: what the server's frames do to the store (welcome, update, ack, seats, hint, rematch, error),
// taking a seat, the dice contribution, the move log and the end-of-game summary from the HTTP API.
import { app, firstToken, mySeats, render, saveTokens } from "./store.js";
import { connect, reconcile, send, settle, stop } from "./net.js";
import { placeDice } from "./place.js";
import { showError } from "./view/status.js";
import { setRuleSet } from "./lang.js";
import { addChat, setVote } from "./view/table.js";

export function openRoom() {
  connect({ open: joinSeats, message: onMessage });
}

// Bind the connection to the first seat held here; the others (local seats) are shown online too.
export function joinSeats() {
  const tok = firstToken();
  if (!tok) return;
  const rest = Object.values(app.tokens).filter((x) => x !== tok);
  const msg = rest.length ? { type: "join", token: tok, tokens: rest } : { type: "join", token: tok };
  // After a reconnect (maybe to another server process) the last position seen: the server catches the
  // room up to it from the log before it answers, so the page never steps back.
  if (app.state) msg.seq = app.state.seq;
  send(msg);
}

function onMessage(m) {
  if (m.type === "welcome" || m.type === "state") {
    // A state behind the page's: an entry was taken back (an undo seen by another server process).
    if (m.type === "state" && app.state && m.state.seq < app.state.seq) takeBack(m.state.seq, null);
    app.room = m.room;
    if (m.room && typeof m.room.undo_floor === "number") app.undoFloor = m.room.undo_floor;
    setRuleSet(m.room && m.room.rules && m.room.rules.id);
    let bound = false;
    if (m.type === "welcome" && m.seat !== undefined && m.seat !== null) {
      app.seat = m.seat;
      bound = true;
      // The older single-token key did not know its seat: file it under the seat the server named.
      if (app.tokens["?"]) { app.tokens[m.seat] = app.tokens["?"]; delete app.tokens["?"]; saveTokens(app.code, app.tokens); }
    } else if (m.type === "welcome" && !firstToken()) app.seat = null;
    if (m.type === "welcome") {
      app.presence = m.presence || null;
      app.clock = m.clock ? { ...m.clock, receivedAt: performance.now() } : null;
      app.chat = m.chat || [];
    }
    setState(m.state, null);
    // The action in flight when the connection broke: resent or dropped, once the seat is bound again.
    if (m.type === "welcome") reconcile(m.state.seq, bound || !firstToken());
    if (m.type === "welcome") { loadMoves(); contribute(); }
    render();
  } else if (m.type === "update") {
    addMoves(m.state.seq - m.events.length + 1, m.by, m.events);
    setState(m.state, m.events);
  } else if (m.type === "undo") {
    takeBack(m.seq, m.state);
    app.undoFloor = m.seq;
    // Everyone is told whose entry went back (the sheet and the move log show it too).
    showError({ key: "undone", vars: { name: app.room ? app.room.seats[m.seat].name : "" } });
    render();
  } else if (m.type === "ack") {
    settle(m.id);
  } else if (m.type === "table") {
    if (app.room) { app.room.table = m.table; render(); }
  } else if (m.type === "clock") {
    app.clock = { ...m, receivedAt: performance.now() };
    render();
  } else if (m.type === "presence") {
    app.presence = m;
    render();
  } else if (m.type === "vote") {
    setVote(m);
    render();
  } else if (m.type === "chat") {
    addChat(m);
    render();
  } else if (m.type === "seats") {
    if (app.room) { app.room.seats = m.seats; render(); }
  } else if (m.type === "contributed" || m.type === "fair") {
    if (app.room) { app.room.contributions = m.contributions; render(); }
  } else if (m.type === "hint") {
    if (app.state && m.seq === app.state.seq) { app.hint = m; render(); }
  } else if (m.type === "rematch") {
    if (m.token) localStorage.setItem("pasch:token:" + m.code, m.token);  // tokens rotate on a rematch
    if (app.room) app.room.rematch_code = m.code;
    if (m.token && m.seat !== undefined) return;  // our own request's answer: followRematch() goes on
    if (mySeats().length) followRematch(); else render();
  } else if (m.type === "error") {
    onError(m);
  }
}

function onError(m) {
  const done = settle(m.id);
  if (done || m.code === "stale" || m.code === "illegal" || m.code === "not_your_turn") {
    app.sentAt = null;
    document.body.dataset.sent = "";
  }
  if (m.code === "no_room") { stop("no_room"); return; }
  // A resent action the game had meanwhile passed by is no news to the player.
  if (!(done && done.resent && m.code === "stale")) showError({ code: m.code, message: m.message });
  if (m.code === "hints_off" || m.code === "not_your_turn") app.hint = null;
  render();
}

// A score keeper's undo: the moves after `seq` leave the log, and the page goes back to `s`.
function takeBack(seq, s) {
  for (const k of [...app.moves.keys()]) if (k > seq) app.moves.delete(k);
  app.state = null;
  app.sentAt = null;
  document.body.dataset.sent = "";
  if (s) setState(s, null);
}

function setState(s, events) {
  if (!s || (app.state && s.seq < app.state.seq)) return;
  const prev = app.state;
  const changed = !prev || s.seq !== prev.seq;
  app.state = s;
  if (changed) {
    placeDice(prev, s, events);
    app.hint = null;
    app.hintAll = false;
    reconcile(s.seq, false);
  }
  if (s.terminal && app.room && !app.room.seed) send({ type: "state" });  // fetch the revealed seed
  if (s.terminal) loadSummary();
  render();
}

// Provably fair dice (docs/protocol.md): a seated page adds 32 random bytes of its own before the first
// throw; they are kept here so that `pasch verify --contribution HEX` can check they were mixed in.
function contribute() {
  const room = app.room, seat = app.seat;
  if (!room || seat === null || room.dice !== "pasch-dice-v2" || !room.contributions) return;
  const key = "pasch:contribution:" + room.code;
  let mine = localStorage.getItem(key);
  if (room.contributions[seat] || !app.state || app.state.seq !== 0) return;
  if (!mine) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    mine = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(key, mine);
  }
  send({ type: "contribute", seed: mine });
}

// -- the move log: every event with its player, for players and spectators ----------------------------
async function loadMoves() {
  try {
    const res = await fetch("/api/rooms/" + app.code + "/moves");
    if (!res.ok) return;
    for (const mv of await res.json()) app.moves.set(mv.seq, { player: mv.player, action: mv.action });
    render();
  } catch (e) { /* the live updates still fill the log */ }
}
function addMoves(first, by, events) {
  events.forEach((e, k) => app.moves.set(first + k, { player: by, action: e }));
}

// -- the end of the game ---------------------------------------------------------------------------------
async function loadSummary() {
  if (app.summaryFor === app.code || app.summaryLoading) return;
  app.summaryLoading = true;
  try {
    const res = await fetch("/api/rooms/" + app.code + "/summary");
    if (res.ok) { app.summary = await res.json(); app.summaryFor = app.code; render(); }
    else app.summaryTries += 1;
  } catch (e) { app.summaryTries += 1; }
  app.summaryLoading = false;
  // The totals show meanwhile; a failed request (a server restart, a busy database) is asked again.
  if (app.summaryFor !== app.code && app.summaryTries < 5) setTimeout(loadSummary, 2000);
}

export async function postJSON(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  return { ok: res.ok, status: res.status, data };
}

// An HTTP error's detail as {code, message} (the page translates the code) or {text}.
export function detail(data) {
  const d = data && data.detail;
  if (!d) return { code: "server_error" };
  if (typeof d === "string") return { text: d };
  if (d.code) return { code: d.code, message: d.message };
  if (Array.isArray(d)) return { text: d.map((x) => (x.loc ? x.loc.slice(1).join(".") + ": " : "") + x.msg).join("; ") };
  return { text: JSON.stringify(d) };
}

export async function takeSeat(name) {
  if (name) localStorage.setItem("pasch:name", name);
  const { ok, data } = await postJSON("/api/rooms/" + app.code + "/join", name ? { name } : {});
  if (!ok) { showError(detail(data)); return false; }
  app.tokens[data.seat] = data.token;
  saveTokens(app.code, app.tokens);
  joinSeats();
  return true;
}

// Rematch: every seat this device holds follows to the new room with its own token (each player's page
// does the same when the rematch frame arrives), so nobody lands there as a spectator.
export async function followRematch() {
  if (app.following) return;
  app.following = true;
  const tokens = {};
  let code = app.room.rematch_code;
  for (const [seat, tok] of Object.entries(app.tokens)) {
    const { ok, data } = await postJSON("/api/rooms/" + app.code + "/rematch", { token: tok });
    if (!ok) { app.following = false; showError(detail(data)); return; }
    code = data.code;
    tokens[data.seat !== null && data.seat !== undefined ? data.seat : seat] = data.token || tok;
  }
  if (!code) { app.following = false; return; }
  saveTokens(code, tokens);
  location.assign("/r/" + code);
}
