// The table around the game (docs/protocol.md, "The table's manners"): the waiting room before the first
// throw, the turn clock, who is away and which bot plays for them, and the chat.
import { $, el } from "../dom.js";
import { app, mySeats } from "../store.js";
import { send } from "../net.js";
import { kindLabel, t } from "../lang.js";

function seatName(i) {
  const seat = app.room && app.room.seats[i];
  return (seat && seat.name) || (app.state && app.state.players[i]) || t("player") + " " + (i + 1);
}

// True while a waiting room holds its first throw.
export function waiting() {
  const table = app.room && app.room.table;
  return Boolean(table && table.wait && table.phase === "waiting" && app.state && app.state.seq === 0);
}

export function renderTable() {
  const table = app.room.table;
  const panel = $("table-panel");
  panel.hidden = !waiting();
  if (!panel.hidden) {
    const lines = $("table-missing");
    lines.innerHTML = "";
    for (const i of table.unclaimed || []) lines.appendChild(el("li", {}, t("waiting_seat", { name: seatName(i) })));
    for (const i of table.missing || []) lines.appendChild(el("li", {}, t("waiting_dice", { name: seatName(i) })));
    $("table-start").hidden = !(table.host !== null && table.host !== undefined && app.tokens[table.host] !== undefined);
  }
  renderPresence();
  renderClock();
  renderChat();
  renderHand();
  renderVote();
}

// The host may hand an absent player's seat to the stand-in bot (at once, or after a vote of the others).
function renderHand() {
  const table = app.room.table;
  const box = $("hand");
  const host = table.host !== null && table.host !== undefined && app.tokens[table.host] !== undefined;
  const seats = app.presence && app.presence.seats ? app.presence.seats : [];
  const absent = host && app.state && !app.state.terminal && !waiting()
    ? seats.filter((x) => !x.online && !x.away && app.tokens[x.seat] === undefined && isHuman(x.seat)) : [];
  const sig = absent.map((x) => x.seat).join(",") + ":" + document.documentElement.lang;
  box.hidden = !absent.length;
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.innerHTML = "";
  for (const x of absent) {
    const b = el("button", { type: "button", className: "hand-seat", dataset: { seat: String(x.seat), key: "hand:" + x.seat } },
      t("hand_seat", { name: seatName(x.seat), bot: table.stand_in ? kindLabel(table.stand_in) : t("bot") }));
    b.onclick = () => send({ type: "hand", seat: x.seat });
    box.appendChild(b);
  }
}
function isHuman(i) { const seat = app.room.seats[i]; return Boolean(seat && seat.kind === "human" && seat.claimed); }

// A vote the host opened: the connected players asked answer yes or no; the result is said once.
function renderVote() {
  const v = app.vote;
  const box = $("vote");
  if (!v) { box.hidden = true; return; }
  const mine = (v.voters || []).filter((s) => s === app.seat);
  const answered = mine.every((s) => (v.yes || []).includes(s) || (v.no || []).includes(s));
  const open = v.result === null || v.result === undefined;
  box.hidden = open ? !mine.length : false;
  $("vote-text").textContent = !open ? t("vote_" + v.result, { name: seatName(v.seat) })
    : t("vote_question", { host: seatName(v.by), name: seatName(v.seat) });
  $("vote-yes").hidden = $("vote-no").hidden = !open || answered;
}

export function setVote(m) {
  app.vote = m;
  if (m.result) setTimeout(() => { if (app.vote === m) { app.vote = null; renderVote(); } }, 6000);
}

// Seats the turn clock marked away, and the bot that plays for each; "I'm back" for one's own.
function renderPresence() {
  const box = $("away");
  const away = (app.presence && app.presence.seats ? app.presence.seats : []).filter((x) => x.away);
  box.hidden = !away.length;
  box.querySelector("span").textContent = away.map((x) => t("stand_in_plays", { name: seatName(x.seat), bot: x.by ? kindLabel(x.by) : t("bot") })).join(" · ");
  $("back").hidden = !away.some((x) => app.tokens[x.seat] !== undefined);
}

export function awaySeats() {
  return new Set((app.presence && app.presence.seats ? app.presence.seats : []).filter((x) => x.away).map((x) => x.seat));
}

// The clock: seconds left of the timed turn, counted from the frame's `left` (not the server's wall clock,
// which may differ from this device's).
export function clockLeft() {
  const c = app.clock;
  if (!c || c.seat === null || c.seat === undefined || !app.state || app.state.seq < c.seq || app.state.terminal) return null;
  return Math.max(0, Math.round(c.left - (performance.now() - c.receivedAt) / 1000));
}
function renderClock() {
  const left = clockLeft();
  const box = $("clock");
  box.hidden = left === null;
  if (left !== null) box.textContent = "⏱ " + t("clock_left", { name: seatName(app.clock.seat), n: left });
  box.classList.toggle("low", left !== null && left <= 10);
}
setInterval(() => { if (app.clock && app.room) renderClock(); }, 1000);

let chatDrawn = -1;
function renderChat() {
  const lines = app.chat || [];
  $("chat-form").hidden = !mySeats().length;
  const last = lines.length ? lines[lines.length - 1].n : 0;
  if (last === chatDrawn) return;
  chatDrawn = last;
  const ol = $("chat-lines");
  ol.innerHTML = "";
  // Plain text, never markup: the server says so, and textContent makes sure.
  for (const line of lines.slice(-50)) ol.appendChild(el("li", {}, el("b", {}, line.name + ": "), line.text));
  ol.scrollTop = ol.scrollHeight;
  $("chat-count").textContent = lines.length ? " (" + lines.length + ")" : "";
}

export function addChat(line) {
  app.chat = (app.chat || []).filter((x) => x.n !== line.n).concat([line]).sort((a, b) => a.n - b.n);
}

export function wireTable() {
  $("table-start").onclick = () => send({ type: "start" });
  // The vote is the connection's seat's (the server counts the seat this page joined with).
  const vote = (yes) => { if (app.vote) send({ type: "vote", seat: app.vote.seat, yes }); };
  $("vote-yes").onclick = () => vote(true);
  $("vote-no").onclick = () => vote(false);
  $("back").onclick = () => {
    const away = awaySeats();
    for (const seat of mySeats()) if (away.has(seat)) send({ type: "back", token: app.tokens[seat] });
  };
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (text && send({ type: "chat", text })) $("chat-text").value = "";
  };
}
