// The one state the page renders from: the room, the game state, this device's seats, the dice as drawn,
// the hint, the move log, the connection, the action in flight. Modules change it and call render().
export const app = {
  code: null,          // the room code (null on the home page)
  room: null,          // the server's room info
  state: null,         // the server's game state
  seat: null,          // the seat this connection is bound to
  tokens: {},          // seat -> token: every seat this device plays (local seats, hot-seat, score keeper)
  arr: [],             // the dice as drawn, position by position (held dice stay where they are)
  held: new Set(),     // positions held
  rolling: new Set(),  // positions thrown by the last throw (animated once)
  cursor: 0,           // the sheet cursor (index into optionButtons)
  optionButtons: [],
  sheetPick: null,     // the player whose columns a phone shows (null: the player to move)
  outbox: null,        // the action sent and not yet acknowledged: {msg, resent}
  sentAt: null,        // the position (seq) an action was sent on: no second action on it
  keyAt: 0,            // the timeStamp of the last keydown (a click made by Enter/Space counts from it)
  lastThrow: -1e9,     // when the last throw was pressed (a timeStamp; two presses within 150 ms are one)
  hint: null, hintAll: false,
  moves: new Map(),
  undoFloor: -1,       // the seq an undo went back to: the entry before it stays (docs/protocol.md, Undo)
  summary: null, summaryFor: null, summaryTries: 0, summaryLoading: false,
  following: false,
  conn: "connecting",  // connecting | connected | reconnecting | offline | no_room
  retryAt: 0,
  error: null,         // {code, message} or {text}: drawn again after a language switch
  presence: null,      // who is connected, who is away and which bot plays for them
  clock: null,         // the turn clock frame, with receivedAt (performance.now())
  chat: [],            // the chat lines, by their number
  vote: null,          // the vote on handing an absent seat to the stand-in, while open (and its result)
};

let drawer = () => {};
export function setRenderer(fn) { drawer = fn; }
export function render() { drawer(); }

export function holds(seat) { return seat !== null && seat !== undefined && app.tokens[seat] !== undefined; }
export function mySeats() { return Object.keys(app.tokens).filter((k) => k !== "?").map(Number); }
export function firstToken() { const k = Object.keys(app.tokens); return k.length ? app.tokens[k[0]] : null; }

export function myTurn() {
  const s = app.state;
  return Boolean(s && !s.terminal && !s.pending && holds(s.current) && app.room && app.room.status !== "abandoned");
}

// Tokens of a room: {seat: token} in localStorage (the older single-token key is read too).
export function loadTokens(code) {
  let out = {};
  try { out = JSON.parse(localStorage.getItem("pasch:seats:" + code) || "{}") || {}; } catch (e) { out = {}; }
  const old = localStorage.getItem("pasch:token:" + code);
  if (old && !Object.values(out).includes(old)) out["?"] = old;
  return out;
}
export function saveTokens(code, tokens) {
  localStorage.setItem("pasch:seats:" + code, JSON.stringify(tokens));
  const first = Object.keys(tokens).filter((k) => k !== "?").sort((a, b) => a - b)[0];
  if (first !== undefined) localStorage.setItem("pasch:token:" + code, tokens[first]);
}
