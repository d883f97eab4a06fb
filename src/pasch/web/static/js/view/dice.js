// The dice on the table (pips drawn in CSS, held dice raised), the Throw button, the score keeper's entry
// of the table's dice, and kniffel-4's announcement control.
import { $, el, once } from "../dom.js";
import { app, myTurn } from "../store.js";
import { act, toggleHold } from "../actions.js";
import { throwAction } from "../place.js";
import { boxName, t } from "../lang.js";

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
  const dice = app.arr.length ? app.arr : (s.dice || []);
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
  th.disabled = !(mine && app.sentAt !== s.seq && !app.outbox && (knaster ? s.can_roll : throwAction() !== null));
  th.textContent = t("throw");
  if (knaster) {
    $("throws-left").textContent = s.number ? t("number", { n: s.number }) + (s.last_number ? " · " + t("last_number") : "") : "";
  } else {
    $("throws-left").textContent = s.keeper ? "" : t("throws_left", { n: s.throws_left });
  }
  // Score keeper: the dice that fell at the table (sheet games: five dice; Knaster after "roll": two).
  const entering = knaster ? s.keeper && s.pending > 0 && !s.terminal && holdsCurrent(s)
    : s.keeper && mine && s.can_enter;
  $("enter-form").hidden = !entering;
  $("enter-sharp").parentElement.hidden = knaster;
  renderAnnounce(s, mine);
}

function holdsCurrent(s) { return app.tokens[s.current] !== undefined; }

// kniffel-4: the announceable boxes as one compact choice in sheet order (a select and a button), not a
// wall of buttons on a phone.
function renderAnnounce(s, mine) {
  const box = $("announce");
  const list = mine && s.kind === "sheet" ? s.announce || [] : [];
  const sig = list.join("|") + "@" + s.seq;
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
