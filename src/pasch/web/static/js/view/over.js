// The end card: the ranking with each player's history, "your play vs optimal" and the move-by-move review,
// rematch, the game log and (server dice only) the revealed seed.
import { $, el } from "../dom.js";
import { app, holds, mySeats } from "../store.js";
import { actionLabel, num, signed, t } from "../lang.js";
import { overLine } from "./status.js";

export function renderOver(s, room) {
  const sum = app.summaryFor === app.code ? app.summary : null;
  $("over-title").textContent = overLine(s);
  // A score keeper's room has no server dice: no seed to reveal.
  $("seed-line").hidden = Boolean(room.keeper);
  $("seed").textContent = room.seed || "…";
  $("log-link").href = "/api/rooms/" + room.code + "/log";
  $("log-link").setAttribute("download", "pasch-" + room.code + ".json");
  $("rematch").hidden = !mySeats().length && !room.rematch_code;
  $("rematch").textContent = room.rematch_code ? t("rematch") + " → " + room.rematch_code : t("rematch");
  const wrap = $("over-table");
  wrap.innerHTML = "";
  const rs = $("review-summary");
  rs.innerHTML = "";
  const single = room.rules.kind === "sheet" && room.rules.columns.length === 1;
  $("over-text").textContent = "";
  if (!sum) {
    // The ranking at once, from the final state; the server's summary (history, review) replaces it.
    wrap.appendChild(standings(fromState(s), room, true));
    $("review-toggle").hidden = true;
    rs.textContent = single ? (mySeats().length ? t("reviewing") : t("reviewing_players")) : "";
    return;
  }
  wrap.appendChild(standings(sum, room, false));
  const rev = sum.review;
  $("review-toggle").hidden = !rev;
  reviewToggleText();
  if (!rev) {
    if (!single) rs.textContent = t("no_review");
    return;
  }
  // "Your play vs optimal": expected points lost, luck, best decisions. In a score keeper's room only the
  // final dice of each turn are known, so luck (which compares every throw) means nothing there: left out.
  // Several columns: points lost against the strongest bot's estimate (rev.estimated), said to be not exact.
  const mine = rev.players.filter((p) => holds(p.seat));
  for (const p of (mine.length ? mine : rev.players)) {
    const vars = {
      name: p.name, lost: num(p.lost), luck: signed(p.luck === null ? 0 : p.luck),
      acc: p.accuracy === null ? "—" : Math.round(100 * p.accuracy) + "%",
    };
    const key = rev.estimated ? "vs_bot" : room.keeper ? "vs_optimal_keeper" : "vs_optimal";
    rs.appendChild(el("p", { className: "vs-optimal", dataset: { seat: String(p.seat) } }, t(key, vars)));
  }
  const note = rev.estimated ? t("vs_bot_note")
    : room.keeper ? t("vs_optimal_keeper_note") : t("vs_optimal_note", { e: num(rev.expected_start) });
  rs.appendChild(el("p", { className: "note" }, note));
  renderReview(rev, s);
}

// The summary's shape from the final state alone (no history): each player's sections and total, best
// first, equal totals sharing a rank.
function fromState(s) {
  const part = (p, k) => (s.sheets ? s.sheets[p].reduce((a, c) => a + c[k], 0) : null);
  const players = s.players.map((name, p) => ({
    seat: p, name, total: s.totals[p], upper: part(p, "upper"), bonus: part(p, "bonus"),
    lower: part(p, "lower"), extra: part(p, "extra"), best_before: null, average_before: null,
  }));
  players.sort((a, b) => b.total - a.total || a.seat - b.seat);
  for (const p of players) p.rank = 1 + players.filter((q) => q.total > p.total).length;
  return { solo: players.length === 1, players };
}

// The ranking: each player's sections (sheet games) and total, best first.
function standings(sum, room, provisional) {
  const sheet = sum.players.length && sum.players[0].upper !== null;
  const table = el("table", { className: "sheet standings", dataset: { provisional: provisional ? "1" : "0" } });
  const cols = sheet
    ? ["rank", "player", "upper", ...(room.rules.bonus_threshold ? ["bonus"] : []), "lower", "extra", "total"]
    : ["rank", "player", "total"];
  // A column nobody scored in is marked empty: a phone leaves it out, so that the total stays in view.
  const empty = (c) => (c === "extra" || c === "bonus") && !sum.players.some((p) => p[c]);
  const hr = table.createTHead().insertRow();
  for (const c of cols) hr.appendChild(el("th", { scope: "col", className: "col-" + c + (empty(c) ? " empty" : "") }, t("col_" + c)));
  const tb = table.createTBody();
  for (const p of sum.players) {
    const tr = tb.insertRow();
    tr.dataset.seat = String(p.seat);
    if (holds(p.seat)) tr.className = "me";
    for (const c of cols) {
      const td = tr.insertCell();
      td.className = "col-" + c + (empty(c) ? " empty" : "");
      if (c === "rank") td.textContent = sum.solo ? "—" : p.rank + ".";
      else if (c === "player") {
        td.textContent = p.name;
        const notes = [];
        if (p.personal_best) notes.push(t("personal_best"));
        else if (p.best_before !== null) notes.push(t("best_before", { n: p.best_before }));
        if (p.average_before !== null) notes.push(t("average_before", { n: p.average_before, g: p.games_before }));
        if (notes.length) td.appendChild(el("span", { className: "small history" }, " " + notes.join(" · ")));
      } else {
        td.textContent = String(p[c]);
        if (c === "total") td.classList.add("sum");
      }
    }
  }
  return table;
}

// The move-by-move review: every decision, what was played, what was best and what it cost.
function renderReview(rev, s) {
  const box = $("review");
  box.innerHTML = "";
  const table = el("table", { className: "sheet review" });
  const many = s.players.length > 1;
  const cols = [...(many ? ["player"] : []), "turn", "dice", "played", "best_move", "loss"];
  const hr = table.createTHead().insertRow();
  for (const c of cols) hr.appendChild(el("th", { scope: "col" }, t("col_" + c)));
  const tb = table.createTBody();
  for (const d of rev.decisions) {
    const tr = tb.insertRow();
    tr.className = d.loss >= 0.005 ? (d.loss >= 3 ? "mistake big" : "mistake") : "good";
    const cells = {
      player: s.players[d.player], turn: String(Math.floor(d.turn / s.players.length) + 1),
      dice: d.dice.join(" ") + " (" + d.throws_left + ")",
      played: actionLabel(d.played), best_move: d.loss >= 0.005 ? actionLabel(d.best) : "✓",
      loss: d.loss >= 0.005 ? "−" + num(d.loss) : "",
    };
    for (const c of cols) { const td = tr.insertCell(); td.textContent = cells[c]; if (c === "loss") td.className = "num"; }
  }
  box.appendChild(table);
}

export function toggleReview() {
  const open = $("review").hidden;
  $("review").hidden = !open;
  reviewToggleText();
}
// "Review my moves" for a player, "Review the moves" for a spectator; "Hide the review" once open.
function reviewToggleText() {
  const open = !$("review").hidden;
  $("review-toggle").textContent = t(open ? "review_close" : mySeats().length ? "review_open" : "review_open_players");
  $("review-toggle").setAttribute("aria-expanded", open ? "true" : "false");
}
