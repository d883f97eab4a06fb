// Hints: the panel (the suggestion, "play it", the best options with their values and P(win)) and the same
// advice on the board (dice to keep outlined, the best box starred).
import { $, el, once } from "../dom.js";
import { app, myTurn } from "../store.js";
import { act } from "../actions.js";
import { send } from "../net.js";
import { adviseKeep } from "../place.js";
import { actionLabel, num, percent, t } from "../lang.js";

// Exact values (one column) and the bot's estimates (several columns) read alike: the best option's value,
// the others "−x.x vs best"; without either, what a box pays now.
function hintValue(o, m) {
  const v = m.exact ? o.value : m.estimated ? o.estimate : null;
  if (v === null || v === undefined) return o.points === null || o.points === undefined ? "" : t("points_n", { n: o.points });
  if (o.best || !o.delta) return num(v);
  return t("vs_best", { d: "−" + num(Math.abs(o.delta)) });
}
function valueHeader(m) { return m.exact ? "expected" : m.estimated ? "estimated" : "points_now"; }
function hintNote(m) { return m.exact ? "hint_exact" : m.estimated ? "hint_estimated" : "hint_inexact"; }

// Ask again while the server prepares a table (once per answer, however often the panel is drawn).
function askAgain(m, ms) {
  if (m.askedAgain) return;
  m.askedAgain = true;
  setTimeout(() => { if (app.state && app.state.seq === m.seq && app.hint === m) send({ type: "hint" }); }, ms);
}

export function renderHints() {
  const out = $("hint-out");
  out.innerHTML = "";
  const m = app.hint;
  $("hint").disabled = !myTurn();
  $("apply-hint").hidden = !m || !m.suggest || m.suggest === "enter" || !myTurn();
  if (!m || !app.state || m.seq !== app.state.seq) return;
  if (m.status === "preparing") {  // the server builds this rule set's table (one at a time)
    out.textContent = t(m.estimated ? "hint_preparing_bot" : "hint_preparing");
    askAgain(m, 2000);
    return;
  }
  if (m.suggest) out.appendChild(el("p", { className: "suggest" }, t("suggest", { a: actionLabel(m.suggest) })));
  const opts = m.options || [];
  // P(win) beside the expected totals (servers started with --win-hints, games of several players).
  const win = m.win === "ready" || m.win === "preparing" ? m.win : null;
  if (win === "preparing") askAgain(m, 3000);
  if (opts.length) {
    const table = el("table", { className: "hints" });
    const hr = table.createTHead().insertRow();
    for (const key of ["option", valueHeader(m), ...(win ? ["p_win"] : [])]) {
      hr.appendChild(el("th", { scope: "col", className: key === "p_win" ? "p-win" : "" }, t(key)));
    }
    const tb = table.createTBody();
    for (const o of app.hintAll ? opts : opts.slice(0, 5)) {
      const tr = tb.insertRow();
      tr.dataset.action = o.action;
      if (o.best) tr.className = "best";
      const b = el("button", { type: "button", className: "hint-act", dataset: { key: "hint:" + o.action } },
        actionLabel(o.action) + (o.best ? " ★" : ""));
      b.disabled = !myTurn() || o.action === "enter";
      b.onclick = once(() => act(o.action));
      tr.insertCell().appendChild(b);
      const v = tr.insertCell();
      v.className = "num";
      v.dataset.value = m.exact && o.value !== null ? String(o.value) : "";
      v.dataset.estimate = m.estimated && typeof o.estimate === "number" ? String(o.estimate) : "";
      v.textContent = hintValue(o, m);
      if (win) {
        const w = tr.insertCell();
        w.className = "num p-win";
        const pw = typeof o.p_win === "number" ? o.p_win : null;
        w.dataset.pWin = pw === null ? "" : String(pw);
        w.textContent = pw === null ? "…" : percent(pw);
      }
    }
    out.appendChild(table);
    if (opts.length > 5) {
      const more = el("button", { type: "button", id: "hint-more", className: "link" },
        app.hintAll ? t("show_fewer") : t("show_all", { n: opts.length }));
      more.setAttribute("aria-expanded", app.hintAll ? "true" : "false");
      more.onclick = () => { app.hintAll = !app.hintAll; renderHints(); markAdvice(); };
      out.appendChild(more);
    }
  }
  out.appendChild(el("p", { className: "note" }, t(hintNote(m))));
  if (win) out.appendChild(el("p", { className: "note win-note" }, win === "ready" ? t("hint_win") : t("hint_win_preparing")));
}

// The hint on the board: the dice to keep outlined, the best box or cell starred.
export function markAdvice() {
  const m = app.hint;
  document.querySelectorAll(".advised").forEach((x) => x.classList.remove("advised"));
  if (!m || !app.state || m.seq !== app.state.seq || !myTurn()) return;
  const keep = adviseKeep();
  document.querySelectorAll("#dice .die").forEach((b) => {
    if (keep.has(Number(b.dataset.index))) b.classList.add("advised");
  });
  document.querySelectorAll("#sheet-wrap [data-action], #knaster-actions [data-action]").forEach((b) => {
    if (b.dataset.action === m.suggest) {
      b.classList.add("advised");
      if (!b.textContent.includes("★")) b.textContent = "★ " + b.textContent;
    }
  });
  const sel = $("announce-box");
  if (sel && m.suggest && m.suggest.startsWith("announce")) {
    const opt = sel.querySelector('option[value="' + CSS.escape(m.suggest) + '"]');
    if (opt) {
      if (!opt.textContent.includes("★")) opt.textContent = "★ " + opt.textContent;
      sel.value = m.suggest;
      $("announce-go").classList.add("advised");
    }
  }
}
