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
  if (!sum) {
    $("over-text").textContent = s.players.map((p, i) => p + ": " + s.totals[i]).join(" · ");
    $("review-toggle").hidden = true;
    rs.textContent = single ? (mySeats().length ? t("reviewing") : t("reviewing_players")) : "";
    return;
  }
  $("over-text").textContent = "";
  wrap.appendChild(standings(sum, room));
  const rev = sum.review;
  $("review-toggle").hidden = !rev;
  if (!rev) {
    if (!single) rs.textContent = t("no_review");
    return;
  }
  // "Your play vs optimal": expected points lost, luck, best decisions. In a score keeper's room only the
  // final dice of each turn are known, so luck (which compares every throw) means nothing there: left out.
  const mine = rev.players.filter((p) => holds(p.seat));
  for (const p of (mine.length ? mine : rev.players)) {
    const vars = {
      name: p.name, lost: num(p.lost), luck: signed(p.luck === null ? 0 : p.luck),
      acc: p.accuracy === null ? "—" : Math.round(100 * p.accuracy) + "%",
    };
    rs.appendChild(el("p", { className: "vs-optimal", dataset: { seat: String(p.seat) } },
      room.keeper ? t("vs_optimal_keeper", vars) : t("vs_optimal", vars)));
  }
  rs.appendChild(el("p", { className: "note" },
    room.keeper ? t("vs_optimal_keeper_note") : t("vs_optimal_note", { e: num(rev.expected_start) })));
  renderReview(rev, s);
}

// The ranking: each player's sections (sheet games) and total, best first.
function standings(sum, room) {
  const sheet = sum.players.length && sum.players[0].upper !== null;
  const table = el("table", { className: "sheet standings" });
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
  $("review-toggle").textContent = open ? t("review_close") : t("review_open");
  $("review-toggle").setAttribute("aria-expanded", open ? "true" : "false");
}
