// The dice on the table (pips drawn in CSS, held dice raised), the Throw button, the score keeper's entry
// of the table's dice, and kniffel-4's announcement control.
import { $, el, once } from "../dom.js";
import { app, myTurn, render } from "../store.js";
import { act, toggleHold, undoSeat } from "../actions.js";
import { throwAction } from "../place.js";
import { boxName, t } from "../lang.js";
import { waiting } from "./table.js";

const motion = !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
document.body.dataset.motion = motion ? "1" : "0";

function face(v) {
  const pips = [];
  for (let k = 0; k < 9; k++) pips.push(el("span", { className: "pip" }));
  return v >= 1 && v <= 6 ? pips : [String(v)];
}

export function renderDice(s) {
  const box = $("dice");
  box.innerHTML = "";
  // While the keeper types (or taps) the table's dice, they show on the table as they are entered.
  const typed = enteringDice(s) ? $("enter-dice").value.replace(/[^1-6]/g, "").split("").map(Number) : [];
  const dice = typed.length ? typed : app.arr.length ? app.arr : (s.dice || []);
  const n = app.room.rules.dice;
  const animate = motion && app.rolling.size > 0;
  const canHold = myTurn() && s.can_keep && !app.outbox;
  // Dice that are information only (another player's turn, the keeper, Knaster) are drawn as plainly
  // readable as the others; only held/playable states differ.
  box.classList.toggle("info", !canHold);
  // The places the last throw filled (kept for tests and assistive checks; the animation is only visual).
  if (app.rolling.size) box.dataset.rolled = [...app.rolling].sort((a, b) => a - b).join(",");
  for (let i = 0; i < n; i++) {
    const v = dice[i];
    const b = el("button", { type: "button", className: "die", dataset: { index: String(i), key: "die:" + i } });
    if (v === undefined) {
      b.classList.add("blank");
      b.disabled = true;
      b.setAttribute("aria-label", t("die", { i: i + 1, v: "—" }));
    } else {
      b.append(...face(v));
      b.classList.add("face-" + v);
      b.dataset.value = String(v);
      b.setAttribute("aria-pressed", app.held.has(i) ? "true" : "false");
      b.setAttribute("aria-label", t("die", { i: i + 1, v }) + (app.held.has(i) ? ", " + t("held") : ""));
      b.disabled = !canHold;
      b.onclick = () => toggleHold(i);
      if (animate && app.rolling.has(i)) b.classList.add("rolling");
    }
    box.appendChild(b);
  }
  app.rolling = new Set();  // once: a later render (a seats frame, a hint) does not roll them again
  if (animate) setTimeout(() => box.querySelectorAll(".rolling").forEach((d) => d.classList.remove("rolling")), 700);
  $("dice-live").textContent = dice.length ? t("dice_now", { d: dice.join(" ") }) : "";
}

export function renderControls(s) {
  const mine = myTurn();
  const knaster = s.kind === "knaster";
  const th = $("throw");
  th.hidden = !knaster && s.keeper;
  // A waiting room holds the first throw until everyone is there (or the host starts it).
  th.disabled = !(mine && app.sentAt !== s.seq && !app.outbox && !waiting() && (knaster ? s.can_roll : throwAction() !== null));
  th.textContent = t("throw");
  if (knaster) {
    $("throws-left").textContent = s.number ? t("number", { n: s.number }) + (s.last_number ? " · " + t("last_number") : "") : "";
  } else {
    $("throws-left").textContent = s.keeper ? "" : t("throws_left", { n: s.throws_left });
  }
  const entering = enteringDice(s);
  // The dice field gets the focus back each time it shows again (the next player's entry), where a keyboard
  // is at hand; on a touch screen the pad below it is used instead of popping the keyboard up each turn.
  if (entering && $("enter-form").hidden && matchMedia("(hover: hover)").matches) setTimeout(() => $("enter-dice").focus(), 0);
  $("enter-form").hidden = !entering;
  $("enter-sharp").parentElement.hidden = knaster;
  if (entering) fillPad(knaster ? 2 : app.room.rules.dice);
  $("undo").hidden = undoSeat() === null;
  $("undo").textContent = t("undo_entry");
  renderAnnounce(s, mine);
}

// Score keeper: the dice that fell at the table are to be entered here (sheet games: five dice; Knaster
// after "roll": two).
function enteringDice(s) {
  if (!s.keeper || s.terminal || app.tokens[s.current] === undefined) return false;
  return s.kind === "knaster" ? s.pending > 0 : myTurn() && s.can_enter;
}

// kniffel-4: the announceable boxes as one compact choice in sheet order (a select and a button), not a
// wall of buttons on a phone.
function renderAnnounce(s, mine) {
  const box = $("announce");
  const list = mine && s.kind === "sheet" ? s.announce || [] : [];
  const sig = list.join("|") + "@" + s.seq + ":" + document.documentElement.lang;
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.innerHTML = "";
  if (!list.length) return;
  const order = app.room.rules.boxes.map((b) => b.id);
  const sorted = list.slice().sort((a, b) => order.indexOf(a.split(" ")[1]) - order.indexOf(b.split(" ")[1]));
  const sel = el("select", { id: "announce-box", ariaLabel: t("announce") });
  for (const a of sorted) sel.appendChild(el("option", { value: a, dataset: { action: a } }, boxName(a.split(" ")[1])));
  const go = el("button", { type: "button", id: "announce-go", className: "announce-go", dataset: { key: "#announce-go" } }, t("announce"));
  go.onclick = once(() => act(sel.value));
  box.append(el("label", { className: "announce-label" }, t("announce") + " ", sel), go);
}

// The keeper's dice pad: tap the faces that fell instead of typing them (a phone's keyboard hides half the
// table). Each tap adds a die to the field; ⌫ takes the last one back.
function fillPad(most) {
  const pad = $("enter-pad");
  pad.dataset.most = String(most);
  if (pad.childElementCount) return;
  const field = $("enter-dice");
  const digits = () => field.value.replace(/[^0-9]/g, "");
  for (let v = 1; v <= 6; v++) {
    const b = el("button", { type: "button", className: "die face-" + v, ariaLabel: String(v), dataset: { key: "pad:" + v } }, ...face(v));
    b.onclick = () => {
      const d = digits();
      if (d.length < Number(pad.dataset.most)) field.value = (d + v).split("").join(" ");
      render();
    };
    pad.appendChild(b);
  }
  const back = el("button", { type: "button", className: "pad-back", ariaLabel: t("remove"), dataset: { key: "pad:back" } }, "⌫");
  back.onclick = () => { field.value = digits().slice(0, -1).split("").join(" "); render(); };
  pad.appendChild(back);
}
