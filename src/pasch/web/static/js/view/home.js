// The home page: a new room (rules, seats, options), joining by code, and the lobby of open rooms.
import { $, el } from "../dom.js";
import { app, saveTokens } from "../store.js";
import { ago, has, kindLabel, t } from "../lang.js";
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

// Rule-set names: the page's own words where it has them ("rules_ID"), else the server's.
function ruleName(r) { const key = "rules_" + r.id.replace(/-/g, "_"); return has(key) ? t(key) : r.name; }

export async function showHome() {
  $("home").hidden = false;
  $("game").hidden = true;
  $("room-label").textContent = "";
  try {
    app.rules = await (await fetch("/api/rules")).json();
    $("rules").innerHTML = "";
    for (const r of app.rules) $("rules").appendChild(el("option", { value: r.id }, ruleName(r) + " (" + r.id + ")"));
    $("rules").onchange = () => document.querySelectorAll("#seats .seat-kind").forEach((x) => fillKinds(x, x.value));
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
        el("a", { href: "/r/" + r.code }, r.code + " — " + r.rules + (r.keeper ? " (" + t("keeper") + ")" : "")),
        el("span", { className: "small lobby-info" }, info)));
    }
  } catch (e) { showError({ text: String(e) }); }
}

async function create(ev) {
  ev.preventDefault();
  const rows = [...document.querySelectorAll("#seats .seat")];
  const seats = rows.map((row) => ({ name: row.querySelector(".seat-name").value, kind: row.querySelector(".seat-kind").value }));
  const here = rows.map((row) => row.querySelector(".seat-here").checked);
  localStorage.setItem("pasch:name", seats[0].name);
  const body = { rules: $("rules").value, seats, hints: $("hints").checked, keeper: $("keeper").checked, private: $("private").checked };
  showError(null);
  const { ok, data } = await postJSON("/api/rooms", body);
  if (!ok) { showError(detail(data)); $("home-error").scrollIntoView({ block: "center" }); return; }
  const tokens = {};
  if (data.token) tokens[data.seat] = data.token;
  // Every other human seat ticked "here" is claimed for this device too (hot-seat, score keeper).
  for (let i = 0; i < seats.length; i++) {
    if (!here[i] || seats[i].kind !== "human" || i === data.seat) continue;
    const j = await postJSON("/api/rooms/" + data.code + "/join", { seat: i });
    if (j.ok) tokens[j.data.seat] = j.data.token;
  }
  saveTokens(data.code, tokens);
  location.assign("/r/" + data.code);
}

export function wireHome() {
  $("add-seat").onclick = () => seatRow(t("player") + " " + (document.querySelectorAll("#seats .seat").length + 1), "human");
  $("create-form").onsubmit = create;
  $("join-form").onsubmit = (ev) => {
    ev.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.assign("/r/" + code);
  };
}

// After a language switch: the seat rows' labels and the kinds' names.
export function translateHome() {
  document.querySelectorAll("#seats .seat-kind").forEach((x) => fillKinds(x, x.value));
  document.querySelectorAll("#seats .here span").forEach((x) => { x.textContent = t("here"); });
}
