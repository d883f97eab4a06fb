// Keyboard shortcuts, as in the terminal game, under the web's own rules: Enter and Space on a focused
// control do what that control says (the browser clicks it; nothing here acts as well), and the game's
// keys act only where they cannot mean something else: on the page itself, on the sheet, or on one of the
// game's buttons (a die, Throw, the hint buttons), never in a text field, a list, a link or a form.
import { $ } from "./dom.js";
import { app, myTurn, render } from "./store.js";
import { applyHint, askHint, throwDice, toggleHold } from "./actions.js";

// Where the focus is: "page" (nothing focused), "sheet" (the sheet itself, not one of its buttons),
// "button" (a button of the board: dice, Throw, a sheet box, a hint), or null (keys are not ours).
function zone(target) {
  if (!target || target === document.body || target === document.documentElement) return "page";
  if (target === $("sheet-wrap")) return "sheet";
  if (target.tagName === "BUTTON" && target.closest("#dice-area, #sheet-wrap, #hint-panel")) return "button";
  return null;
}

function moveCursor(d) {
  const btns = app.optionButtons || [];
  if (!btns.length) return;
  app.cursor = (app.cursor + d + btns.length) % btns.length;
  btns.forEach((b, i) => b.classList.toggle("sel", i === app.cursor));
  btns[app.cursor].focus();  // Enter now clicks it: the control under focus is the one that acts
}

export function onKey(ev) {
  if (!app.state || $("game").hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const where = zone(ev.target);
  if (where === null) return;
  const key = ev.key;
  // Enter and Space on a button are that button's own (the browser turns them into its click).
  if (where === "button" && (key === "Enter" || key === " ")) return;
  const mine = ["r", " ", "h", "a", "Enter", "ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "j", "k"];
  if (!/^[1-9]$/.test(key) && !mine.includes(key)) return;
  ev.preventDefault();
  if (ev.repeat && !/^(Arrow|[jk]$)/.test(key)) return;  // a held key acts once
  if (/^[1-9]$/.test(key)) toggleHold(Number(key) - 1);
  else if (key === "r" || (key === " " && where === "page")) throwDice(true, ev.timeStamp);
  else if (key === "ArrowDown" || key === "ArrowRight" || key === "j") moveCursor(1);
  else if (key === "ArrowUp" || key === "ArrowLeft" || key === "k") moveCursor(-1);
  else if (key === "Enter" && where === "sheet" && myTurn()) {
    const b = (app.optionButtons || [])[app.cursor];
    if (b && !b.disabled) b.click();
  } else if (key === "h" && app.room && app.room.hints) askHint();
  else if (key === "a" && app.hint) applyHint();
  render();
}

// The sheet cursor is drawn for keyboard users only (a mouse user would take it for a choice made).
export function wireKeys() {
  // When the last key went down: Enter or Space on the Throw button arrives as a click made when the key was
  // handled, which on a busy page may be long after it was pressed.
  document.addEventListener("keydown", (ev) => { app.keyAt = ev.timeStamp; }, true);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Tab" || ev.key.startsWith("Arrow") || ev.key === "j" || ev.key === "k") document.body.classList.add("keyboard");
    onKey(ev);
  });
  document.addEventListener("pointerdown", () => document.body.classList.remove("keyboard"));
}
