// The home page: a new room (rules, seats, options), joining by code, and the lobby of open rooms.
import { $, el } from "../dom.js";
import { app, saveTokens } from "../store.js";
import { ago, kindLabel, ruleSetName, t } from "../lang.js";
import { detail, postJSON } from "../room.js";
import { showError } from "./status.js";

function seatRow(name, kind) {
  const n = document.querySelectorAll("#seats .seat").length + 1;
  const nameInput = el("input", { className: "seat-name", maxLength: 40, value: name, ariaLabel: t("name") + " " + n });
  const kindSelect = el("select", { className: "seat-kind", ariaLabel: t("player") + " " + n });
  fillKinds(kindSelect, kind);
  const here = el("input", { type: "checkbox", className: "seat-here", checked: n === 1, ariaLabel: t("here") + " " + n });
  const rm = el("button", { type: "button", className: "seat-remove", ariaLabel: t("remove") }, "×");
  const row = el("div", { className: "seat" }, nameInput, " ", kindSelect, " ",
    el("label", { className: "here" }, here, " ", el("span", {}, t("here"))), " ", rm);
  rm.onclick = () => { if (document.querySelectorAll("#seats .seat").length > 1) row.remove(); };
  $("seats").appendChild(row);
}

function fillKinds(select, kind) {
  const chosen = app.rules.find((r) => r.id === $("rules").value) || app.rules[0];
  const kinds = chosen ? chosen.seat_kinds : ["human"];
  select.innerHTML = "";
  for (const k of kinds) select.appendChild(el("option", { value: k }, kindLabel(k)));
  select.value = kinds.includes(kind) ? kind : "human";
}


// The lobby names a room's rule set by its id: the page's words for it, else the server's name, else the id.
function lobbyRules(id) {
  const known = app.rules.find((x) => x.id === id);
  return ruleSetName(id, known ? known.name : id);
}

export async function showHome() {
  $("home").hidden = false;
  $("game").hidden = true;
  $("room-label").textContent = "";
  try {
    app.rules = await (await fetch("/api/rules")).json();
    $("rules").innerHTML = "";
    for (const r of app.rules) $("rules").appendChild(el("option", { value: r.id }, ruleSetName(r.id, r.name)));
    const remembered = localStorage.getItem("pasch:rules") || "kniffel";
    if (app.rules.some((r) => r.id === remembered)) $("rules").value = remembered;
    $("rules").onchange = () => {
      localStorage.setItem("pasch:rules", $("rules").value);
      document.querySelectorAll("#seats .seat-kind").forEach((x) => fillKinds(x, x.value));
    };
    if (!document.querySelector("#seats .seat")) {
      seatRow(localStorage.getItem("pasch:name") || t("player") + " 1", "human");
      seatRow(t("player") + " 2", "human");
    }
    const lobby = await (await fetch("/api/rooms")).json();
    $("lobby").innerHTML = "";
    if (!lobby.length) $("lobby").appendChild(el("li", {}, t("no_rooms")));
    for (const r of lobby) {
      const info = " · " + (r.players && r.players.length ? r.players.join(", ") : "—") + " · " +
        t("free_seats", { n: r.free }) + " · " + ago(r.age || 0);
      $("lobby").appendChild(el("li", {},
        el("a", { href: "/r/" + r.code }, r.code + " — " + lobbyRules(r.rules) + (r.keeper ? " (" + t("keeper") + ")" : "")),
        el("span", { className: "small lobby-info" }, info)));
    }
  } catch (e) { showError({ text: String(e) }); }
}

// Creates a room and claims every seat played here (`here[i]`), then opens it. Errors show on the home page,
// under the buttons just pressed, naming their cause.
async function makeRoom(body, here) {
  showError(null);
  const { ok, status, data } = await postJSON("/api/rooms", body);
  if (!ok) {
    const err = detail(data);
    showError(status === 429 && err.code === "rate_limited" ? { code: "rooms_per_minute" } : err);
    $("home-error").scrollIntoView({ block: "nearest" });
    return;
  }
  const tokens = {};
  if (data.token) tokens[data.seat] = data.token;
  // Every other human seat ticked "here" is claimed for this device too (hot-seat, score keeper).
  for (let i = 0; i < body.seats.length; i++) {
    if (!here[i] || body.seats[i].kind !== "human" || i === data.seat) continue;
    const j = await postJSON("/api/rooms/" + data.code + "/join", { seat: i });
    if (j.ok) tokens[j.data.seat] = j.data.token;
  }
  saveTokens(data.code, tokens);
  location.assign("/r/" + data.code);
}

function create(ev) {
  ev.preventDefault();
  const rows = [...document.querySelectorAll("#seats .seat")];
  const seats = rows.map((row) => ({ name: row.querySelector(".seat-name").value, kind: row.querySelector(".seat-kind").value }));
  localStorage.setItem("pasch:name", seats[0].name);
  const body = { rules: $("rules").value, seats, hints: $("hints").checked, keeper: $("keeper").checked, private: $("private").checked };
  if ($("wait").checked) body.wait = true;
  if (Number($("clock-seconds").value)) body.clock = Number($("clock-seconds").value);
  return makeRoom(body, rows.map((row) => row.querySelector(".seat-here").checked));
}

// The three first choices: one tap makes the room, the next one throws.
function quick(kind) {
  const me = { name: localStorage.getItem("pasch:name") || t("you"), kind: "human" };
  const rules = $("rules").value;
  const chosen = app.rules.find((r) => r.id === rules);
  const bots = chosen ? chosen.seat_kinds.filter((k) => k.startsWith("bot:")) : [];
  const bot = bots[0];  // the server lists its seat kinds best first
  if (kind === "bot") return makeRoom({ rules, seats: [me, { name: kindLabel(bot), kind: bot }], hints: true }, [true, false]);
  if (kind === "friends") return makeRoom({ rules, seats: [me, { name: "", kind: "human" }], wait: true }, [true, false]);
  return makeRoom({ rules, seats: [me, { name: t("player") + " 2", kind: "human" }], keeper: true }, [true, true]);
}

export function wireHome() {
  $("add-seat").onclick = () => seatRow(t("player") + " " + (document.querySelectorAll("#seats .seat").length + 1), "human");
  $("create-form").onsubmit = create;
  $("quick-bot").onclick = () => quick("bot");
  $("quick-friends").onclick = () => quick("friends");
  $("quick-keeper").onclick = () => quick("keeper");
  $("join-form").onsubmit = (ev) => {
    ev.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.assign("/r/" + code);
  };
}

// After a language switch: the seat rows' labels and the kinds' names.
export function translateHome() {
  for (const o of $("rules").options) {
    const r = app.rules.find((x) => x.id === o.value);
    if (r) o.textContent = ruleSetName(r.id, r.name);
  }
  document.querySelectorAll("#seats .seat-kind").forEach((x) => fillKinds(x, x.value));
  document.querySelectorAll("#seats .here span").forEach((x) => { x.textContent = t("here"); });
}
