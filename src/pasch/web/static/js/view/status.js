// The frame around the game: the room label, the connection state, whose turn it is, the seat panel, the
// invite link, the dice commitment, and the error line.
import { $ } from "../dom.js";
import { app, mySeats, myTurn } from "../store.js";
import { boxName, errorText, ruleSetName, t } from "../lang.js";

// err: {code, message} (translated at every draw, so a language switch re-renders it), {text}, or null.
export function showError(err) {
  app.error = err || null;
  drawError();
}
function drawError() {
  const e = app.error;
  // Stored as a code or a key with its values, never as words: a language switch draws it again.
  const text = !e ? "" : e.text !== undefined ? e.text : e.key ? t(e.key, e.vars) : errorText(e.code, e.message);
  $("error").textContent = text;
  $("home-error").textContent = text;
}

export function renderConn() {
  const c = app.conn;
  const box = $("conn");
  box.hidden = !app.code || c === "no_room";  // the page's heading says that one
  box.className = "conn conn-" + c;
  const secs = Math.max(1, Math.round((app.retryAt - Date.now()) / 1000));
  $("conn-text").textContent = c === "offline" ? t("conn_offline", { n: secs })
    : c === "no_room" ? t("no_room_code", { code: app.code }) : t("conn_" + c);
  $("retry").hidden = !(c === "offline" || c === "reconnecting");
  $("queued").hidden = !(app.outbox && c !== "connected");
}
// The "next try in N s" countdown.
setInterval(() => { if (app.conn === "offline") renderConn(); }, 1000);

export function renderStatus() {
  drawError();
  renderConn();
  const s = app.state, room = app.room;
  if (app.conn === "no_room") {
    $("status").textContent = t("no_room_code", { code: app.code });
    $("gone").hidden = false;
    return;
  }
  $("gone").hidden = true;
  if (!s || !room) { $("status").textContent = t("conn_connecting"); return; }
  $("room-label").textContent = room.code + " · " + ruleSetName(room.rules.id, room.rules.name) + (room.private ? " · " + t("private") : "");
  const mine = mySeats();
  const free = room.seats.some((x) => !x.claimed);
  $("seat-panel").hidden = s.terminal || (mine.length > 0 && !free);
  $("take-seat-form").hidden = !free;
  $("seat-panel-text").textContent = mine.length ? t("add_local") : t("watching");
  $("take-seat").textContent = mine.length ? t("take_another") : t("take_seat");
  $("share-link").textContent = location.origin + "/r/" + room.code;
  $("share-button").textContent = navigator.share ? t("share_button") : t("copy_link");
  $("commitment").textContent = room.commitment || "—";
  $("commitment").parentElement.hidden = !room.commitment;  // a score keeper's room has no server dice
  const contributed = localStorage.getItem("pasch:contribution:" + room.code);
  const included = contributed && room.contributions && room.contributions.includes(contributed);
  $("contribution-line").hidden = !included;
  $("contribution").textContent = included ? contributed : "";
  const st = $("status");
  if (room.status === "abandoned") st.textContent = t("abandoned");
  else if (s.terminal) st.textContent = t("game_over") + " " + overLine(s);
  else {
    const name = s.players[s.current];
    const who = myTurn() ? (mine.length > 1 ? t("your_turn_name", { name }) : t("your_turn")) : t("turn_of", { name });
    const ann = s.kind === "sheet" && s.announced !== null && s.announced !== undefined;
    st.textContent = who + " · " + t("round", { n: s.round }) +
      (ann ? " · " + t("announced_box", { box: boxName(room.rules.boxes[s.announced].id) }) : "");
  }
  st.classList.toggle("mine", myTurn());
  signalTurn(myTurn() && !s.terminal, room);
}

// Your turn while the tab is in the background: the title says so and the icon gets a badge, a phone
// vibrates, a short tone sounds, each as the player chose (remembered on this device).
const SIGNALS = { title: true, vibrate: true, sound: false };
function signals() {
  try { return { ...SIGNALS, ...JSON.parse(localStorage.getItem("pasch:signals") || "{}") }; } catch (e) { return SIGNALS; }
}
export function wireSignals() {
  const now = signals();
  for (const k of Object.keys(SIGNALS)) {
    const box = $("signal-" + k);
    box.checked = now[k];
    box.onchange = () => { localStorage.setItem("pasch:signals", JSON.stringify({ ...signals(), [k]: box.checked })); };
  }
}
function tone() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.4);
  } catch (e) { /* no audio here */ }
}
let signalled = false;
function signalTurn(mine, room) {
  const on = signals();
  const away = mine && document.hidden;
  document.title = (away && on.title ? "● " + t("your_turn") + " · " : "") + "pasch · " + room.code;
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = away && on.title ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (away && !signalled) {
    if (on.vibrate && navigator.vibrate) navigator.vibrate(200);
    if (on.sound) tone();
  }
  signalled = away;
}
document.addEventListener("visibilitychange", () => { if (app.state && app.room) renderStatus(); });

export function overLine(s) {
  const sum = app.summaryFor === app.code ? app.summary : null;
  if (s.players.length === 1) return t("final_score", { n: s.totals[0] });
  const names = s.outcome.winners.join(", ");
  if (sum) return sum.tie ? t("tie", { names }) : t("winner", { names });
  return s.outcome.winners.length > 1 ? t("tie", { names }) : t("winner", { names });
}

// The invite: the phone's share sheet where there is one (Web Share API), else a copy to the clipboard.
export async function shareLink() {
  const url = location.origin + "/r/" + app.code;
  try {
    if (navigator.share) { await navigator.share({ title: "pasch", text: t("share"), url }); return; }
    await navigator.clipboard.writeText(url);
    $("share-done").textContent = t("copied");
  } catch (e) {
    // No clipboard (an insecure origin, a refused permission): select the link so that it can be copied.
    const range = document.createRange();
    range.selectNodeContents($("share-link"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  }
}
