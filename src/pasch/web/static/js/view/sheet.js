// The score sheet of the sheet games: one row per box in the server's order (rules.rows), one column per
// player and sheet column; the open boxes of the player to move are buttons with their points.
import { $, el, once } from "../dom.js";
import { app, holds, myTurn, render } from "../store.js";
import { act } from "../actions.js";
import { boxName, ruleSetName, t } from "../lang.js";

export function renderSheet(s, room) {
  const mine = myTurn();
  const rules = room.rules, ncol = rules.columns.length;
  // kniffel-4: after an announcement the turn ends in the announced box or by crossing out (0) a box of
  // another column; say so, since those red zeros are otherwise a puzzle.
  const announcedTurn = s.announced !== null && s.announced !== undefined && !s.terminal;
  const annCol = rules.columns.indexOf("announced");
  $("announce-note").hidden = !(announcedTurn && mine && s.dice);
  if (announcedTurn) $("announce-note").textContent = t("announce_note", { box: boxName(rules.boxes[s.announced].id) });
  const opts = {};
  for (const o of s.options) opts[o.column + ":" + o.box] = o;
  // Several players with several columns each: on a phone one player's columns at a time, chosen by a
  // switcher above the sheet (following the turn until a player is picked).
  const shown = app.sheetPick !== null && app.sheetPick < s.players.length ? app.sheetPick : s.current;
  const pc = (p) => "pc" + (p === shown ? " shown" : "");
  const table = el("table", { className: "sheet" + (ncol > 1 ? " multi" : "") });
  table.appendChild(el("caption", { className: "sr-only" }, ruleSetName(rules.id, rules.name)));
  const thead = table.createTHead(), hr = thead.insertRow();
  hr.appendChild(el("th", { scope: "col" }, t("box")));
  s.players.forEach((p, i) => {
    const seat = room.seats[i];
    const th = el("th", { scope: "colgroup", colSpan: ncol, className: pc(i) },
      (holds(i) ? "• " : "") + p + (seat && !seat.online ? " (" + t("offline") + ")" : ""));
    if (i === s.current && !s.terminal) th.classList.add("current");
    hr.appendChild(th);
  });
  if (ncol > 1) {
    const r2 = thead.insertRow();
    r2.appendChild(el("th", { scope: "col" }, el("span", { className: "sr-only" }, t("columns"))));
    s.players.forEach((_, p) => rules.columns.forEach((c, k) => {
      // Short marks keep many players' columns readable; the full name is the title.
      const mark = c === "down" ? "↓" : c === "up" ? "↑" : t("order_" + c);
      r2.appendChild(el("th", { scope: "col", className: pc(p), title: t("column", { n: k + 1 }) + " " + t("order_" + c) }, (k + 1) + " " + mark));
    }));
  }
  const tb = table.createTBody();
  const optionButtons = [];
  const rowHead = (label) => el("th", { scope: "row" }, label);
  const sumRow = (label, cell) => {
    const tr = tb.insertRow();
    tr.className = "sum-row";
    tr.appendChild(rowHead(label));
    s.players.forEach((_, p) => s.sheets[p].forEach((col, c) => {
      const td = tr.insertCell();
      td.className = "sum " + pc(p);
      cell(td, col, p, c);
    }));
  };
  const boxRow = (box, bi) => {
    const tr = tb.insertRow();
    tr.appendChild(rowHead(boxName(box.id)));
    s.players.forEach((_, p) => s.sheets[p].forEach((col, c) => {
      const td = tr.insertCell();
      td.className = pc(p);
      const v = col.scores[bi];
      const o = p === s.current && !s.terminal ? opts[c + ":" + bi] : undefined;
      if (p === s.current && s.announced === bi && rules.columns[c] === "announced" && v === null) {
        td.classList.add("announced");
        td.title = t("announced_box", { box: boxName(box.id) });
      }
      if (v !== null) {
        td.textContent = String(v);
        if (col.doubled.includes(bi)) td.classList.add("doubled");
        if (v === 0) { td.classList.add("crossed"); td.title = t("crossed_out"); }
      } else if (o && mine) {
        const cross = announcedTurn && annCol >= 0 && c !== annCol;
        const b = el("button", {
          type: "button", className: "opt" + (o.points === 0 ? " zero" : "") + (cross ? " cross" : ""),
          title: cross ? t("cross_out_title") : undefined, dataset: { action: o.action, key: "act:" + o.action },
          ariaLabel: boxName(box.id) + (ncol > 1 ? " " + t("column", { n: c + 1 }) : "") + ": " + o.points,
        }, String(o.points));
        b.onclick = once(() => act(o.action));
        optionButtons.push(b);
        td.appendChild(b);
      } else if (o) {
        td.textContent = "(" + o.points + ")";
        td.classList.add("preview");
      }
    }));
  };
  const sumRows = {
    upper_sum: () => sumRow(t("upper"), (td, col) => { td.textContent = col.upper; }),
    bonus: () => sumRow(t("bonus"), (td, col) => {
      const pct = Math.min(100, Math.round(100 * col.upper / rules.bonus_threshold));
      td.append(col.bonus ? String(col.bonus) : col.upper + "/" + rules.bonus_threshold);
      const fill = el("span");
      fill.style.width = pct + "%";
      const bar = el("div", { className: "bonus-bar", role: "progressbar", ariaLabel: t("bonus") }, fill);
      bar.setAttribute("aria-valuemin", "0");
      bar.setAttribute("aria-valuemax", String(rules.bonus_threshold));
      bar.setAttribute("aria-valuenow", String(col.upper));
      td.appendChild(bar);
    }),
    extra: () => sumRow(t("extra"), (td, col) => { td.textContent = col.extra || ""; }),
    total: () => sumRow(t("total"), (td, col) => { td.textContent = col.total; }),
    grand_total: () => {
      const tr = tb.insertRow();
      tr.className = "sum-row grand";
      tr.appendChild(rowHead(t("total")));
      s.players.forEach((_, p) => { const td = tr.insertCell(); td.colSpan = ncol; td.className = "sum " + pc(p); td.textContent = s.totals[p]; });
    },
  };
  // The rows and their order are the server's (pasch.app.sheet_rows, in rules.rows): the page adds none.
  rules.rows.forEach((row) => (row.kind === "box" ? boxRow(rules.boxes[row.box], row.box) : sumRows[row.kind]()));
  const wrap = $("sheet-wrap");
  wrap.innerHTML = "";
  if (ncol > 1 && s.players.length > 1) {
    table.classList.add("one-player");
    wrap.appendChild(switcher(s, shown));
  }
  wrap.appendChild(table);
  setCursor(optionButtons);
}

function switcher(s, shown) {
  const box = el("div", { className: "sheet-switch", role: "group", ariaLabel: t("sheet") });
  s.players.forEach((name, p) => {
    const b = el("button", { type: "button", dataset: { key: "sheet-of:" + p } }, name + (p === s.current && !s.terminal ? " ◀" : ""));
    b.setAttribute("aria-pressed", p === shown ? "true" : "false");
    b.onclick = () => { app.sheetPick = p === s.current ? null : p; render(); };
    box.appendChild(b);
  });
  return box;
}

// The sheet cursor of the arrow keys: kept by index across redraws.
export function setCursor(buttons) {
  app.optionButtons = buttons;
  if (app.cursor >= buttons.length) app.cursor = 0;
  buttons.forEach((b, i) => b.classList.toggle("sel", i === app.cursor));
}
