// pasch web client, the entry module: wires the pieces (see docs/web-client.md) and opens the home page or
// a room. The page draws what the server sends; every rule is decided by the server's engine.
import { $, once } from "./js/dom.js";
import { app, loadTokens, render, setRenderer } from "./js/store.js";
import { getLang, setLang, t, translateStatic } from "./js/lang.js";
import { applyHint, askHint, enterDice, pressedAt, throwDice, undoEntry } from "./js/actions.js";
import { retryNow } from "./js/net.js";
import { followRematch, openRoom, takeSeat } from "./js/room.js";
import { wireKeys } from "./js/keys.js";
import { renderRoom } from "./js/view/room.js";
import { showHome, translateHome, wireHome } from "./js/view/home.js";
import { toggleReview } from "./js/view/over.js";
import { shareLink, wireSignals } from "./js/view/status.js";
import { wireTable } from "./js/view/table.js";

setRenderer(renderRoom);

function translatePage() {
  translateStatic();
  $("lang").value = getLang();
  $("dice").setAttribute("aria-label", t("dice_now", { d: "" }).replace(/[: ]+$/, ""));
  translateHome();
  render();
}

$("lang").onchange = () => { setLang($("lang").value); translatePage(); };
$("throw").onclick = once((ev) => throwDice(ev.detail === 0, pressedAt(ev)));
$("hint").onclick = askHint;
$("apply-hint").onclick = once(applyHint);
$("retry").onclick = retryNow;
$("share-button").onclick = shareLink;
wireSignals();
$("review-toggle").onclick = toggleReview;
$("take-seat").onclick = async () => { if (await takeSeat($("join-name").value.trim())) $("join-name").value = ""; };
$("rematch").onclick = () => {
  if (!Object.keys(app.tokens).length) { if (app.room.rematch_code) location.assign("/r/" + app.room.rematch_code); return; }
  followRematch();
};
$("enter-dice").oninput = render;
$("undo").onclick = once(() => { if (undoEntry()) $("enter-dice").focus(); });
$("enter-form").onsubmit = (ev) => {
  ev.preventDefault();
  if (enterDice($("enter-dice").value, $("enter-sharp").checked)) $("enter-dice").value = "";
  $("enter-sharp").checked = false;
};
wireKeys();
wireTable();
wireHome();

const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
if (m) {
  app.code = m[1].toUpperCase();
  app.tokens = loadTokens(app.code);
  $("join-name").value = localStorage.getItem("pasch:name") || "";
  $("home").hidden = true;
  $("game").hidden = false;
  document.body.dataset.page = "room";
  translatePage();
  openRoom();
} else {
  document.body.dataset.page = "home";
  translatePage();
  showHome();
}
