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
