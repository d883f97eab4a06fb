// The connection: one websocket per room, reconnected with exponential back-off; its state is shown
// (connected / reconnecting… / offline); an action is kept in the outbox until the server answers it, and
// after a reconnect the `welcome` decides: resend it (the game is still where it was chosen) or drop it
// (the game moved on, perhaps by this very action before the server went away). So nothing is lost, nothing
// is applied twice (the server refuses an action whose `at` is not the current position), and the page is
// never left waiting for an answer that cannot come.
import { app, render } from "./store.js";

const FIRST_DELAY = 500;     // ms before the first reconnect, doubled each failed try ...
const MAX_DELAY = 15000;     // ... up to this
const OFFLINE_AFTER = 4;     // failed tries before the page says "offline" instead of "reconnecting"
const ANSWER_WITHIN = 15000; // an action unanswered this long: the socket is presumed dead and reopened

let ws = null, tries = 0, timer = null, handlers = null, stopped = false, watchdog = null;

export function connect(h) {
  if (h) handlers = h;
  clearTimeout(timer);
  if (stopped || !app.code) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(proto + "//" + location.host + "/ws/" + app.code);
  ws = sock;
  sock.onopen = () => {
    if (ws !== sock) return;
    tries = 0;
    setConn("connected");
    handlers.open();
  };
  sock.onmessage = (ev) => { if (ws === sock) handlers.message(JSON.parse(ev.data)); };
  sock.onclose = (ev) => {
    if (ws !== sock) return;
    ws = null;
    if (ev.code === 4404 || app.conn === "no_room") return stop("no_room");
    retryLater();
  };
}

function retryLater() {
  tries += 1;
  const delay = Math.min(MAX_DELAY, FIRST_DELAY * 2 ** (tries - 1)) * (0.75 + 0.5 * Math.random());
  app.retryAt = Date.now() + delay;
  setConn(tries > OFFLINE_AFTER || navigator.onLine === false ? "offline" : "reconnecting");
  timer = setTimeout(connect, delay);
}

// No room by this code: no more tries (each would count as a guess of a room code).
export function stop(reason) {
  stopped = true;
  clearTimeout(timer);
  if (ws) { const s = ws; ws = null; s.close(); }
  setConn(reason);
}

// "Try now", the browser back online, the tab shown again: reconnect at once instead of waiting.
export function retryNow() {
  if (stopped || ws || !app.code) return;
  tries = Math.max(0, tries - 1);
  connect();
}
window.addEventListener("online", retryNow);
document.addEventListener("visibilitychange", () => { if (!document.hidden) retryNow(); });

function setConn(state) {
  if (app.conn === state) return;
  app.conn = state;
  document.body.dataset.conn = state;
  render();
}

export function connected() { return Boolean(ws && ws.readyState === 1); }
export function send(msg) {
  if (!connected()) return false;
  ws.send(JSON.stringify(msg));
  return true;
}

// -- the outbox: one action in flight ----------------------------------------------------------------------
let nextId = 1;

// Sends an action chosen on position `at`; false when one is already in flight.
export function sendAction(action, at, token) {
  if (app.outbox) return false;
  const msg = { type: "act", action, id: nextId++, at };
  if (token) msg.token = token;
  app.outbox = { msg, resent: false };
  app.sentAt = at;
  if (send(msg)) armWatchdog(msg);
  return true;
}

function armWatchdog(msg) {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    // The socket looks open but the answer does not come (a half-open connection): start over; the
    // welcome of the new connection settles the outbox.
    if (app.outbox && app.outbox.msg === msg && ws) { const s = ws; ws = null; s.close(); retryLater(); }
  }, ANSWER_WITHIN);
}

// The server answered the action (ack or error, which repeat its id): it is out of the outbox.
export function settle(id, any = false) {
  if (!app.outbox || (!any && app.outbox.msg.id !== id)) return null;
  const done = app.outbox;
  app.outbox = null;
  clearTimeout(watchdog);
  return done;
}

// A state arrived (welcome, state, update): an action chosen on an earlier position is void; an action
// chosen on this position and never answered is sent again (`bound`: the connection has its seat).
export function reconcile(seq, bound) {
  if (app.sentAt !== null && app.sentAt < seq) app.sentAt = null;
  const box = app.outbox;
  if (!box) {
    if (app.sentAt !== null && app.sentAt >= seq && bound) app.sentAt = null;  // acknowledged, never updated
    return;
  }
  if (box.msg.at < seq) { settle(null, true); return; }
  if (bound && box.msg.at === seq && connected()) {
    box.resent = true;
    send(box.msg);
    armWatchdog(box.msg);
  }
}
