// Knaster: every player's 5x5 grid with numbers, circles and line values (complete and scored lines
// marked), a legend of the line values; the player to act writes or circles by clicking a cell.
import { $, el, once } from "../dom.js";
import { holds, myTurn } from "../store.js";
import { act } from "../actions.js";
import { actionLabel, lineName, t } from "../lang.js";
import { setCursor } from "./sheet.js";

export function renderKnaster(s, room) {
  const mine = myTurn();
  const byCell = {};
  let canPass = false;
  if (mine) for (const a of s.legal) {
    const w = a.split(" ");
    if (w[0] === "write") byCell[w[3]] = a;
    else if (w[0] === "circle") byCell[w[1]] = a;
    else if (w[0] === "pass") canPass = true;
  }
  const acts = $("knaster-actions");
  acts.innerHTML = "";
  if (mine && s.duty_lines && s.duty_lines.length) {
    acts.appendChild(el("p", { className: "duties" },
      s.duty_lines.map((x) => t("duty", { n: x.owed, line: lineName(x.line) })).join(" · ")));
  }
  if (canPass) {
    const b = el("button", { type: "button", id: "pass", className: "opt", dataset: { action: "pass", key: "#pass" } }, t("pass"));
    b.onclick = once(() => act("pass"));
    acts.appendChild(b);
  }
  const info = room.rules.knaster;
  const lines = info ? info.lines : [];
  const dutySet = new Set(mine && s.duty_lines ? s.duty_lines.map((x) => x.line) : []);
  const cellButtons = [];
  const grids = el("div", { className: "grids" });
  s.grids.forEach((g, p) => {
    const fig = el("figure", { className: "kfig" + (p === s.current && !s.terminal ? " current" : ""), dataset: { player: String(p) } });
    const seat = room.seats[p];
    fig.appendChild(el("figcaption", {}, (holds(p) ? "• " : "") + s.players[p] + ": " + s.totals[p] +
      " (" + t("lines_circles", { l: g.line_points, c: g.circles }) + ")" +
      (seat && !seat.online ? " (" + t("offline") + ")" : "") + (p === s.current && !s.terminal ? " ◀" : "")));
    const complete = new Set(g.complete), scored = new Set(g.scored);
    const valueCell = (tr, k) => {
      const td = tr.insertCell();
      td.className = "lv" + (scored.has(k) ? " scored" : complete.has(k) ? " complete" : "") +
        (p === s.current && dutySet.has(k) ? " duty" : "");
      td.textContent = lines[k] ? String(lines[k].value) : "";
      td.title = lineName(k) + (scored.has(k) ? " ✓" : "");
      return td;
    };
    const table = el("table", { className: "kgrid" });
    const head = table.createTHead().insertRow();
    head.appendChild(el("td"));
    for (let c = 0; c < 5; c++) head.appendChild(el("th", { scope: "col" }, "abcde"[c]));
    head.appendChild(el("td"));
    const body = table.createTBody();
    for (let r = 0; r < 5; r++) {
      const tr = body.insertRow();
      tr.appendChild(el("th", { scope: "row" }, String(r + 1)));
      for (let c = 0; c < 5; c++) {
        const i = r * 5 + c, td = tr.insertCell(), name = s.cells[i];
        td.dataset.cell = name;
        const num = g.numbers[i] ? String(g.numbers[i]) : "";
        if (g.circled[i]) td.classList.add("ring");
        const action = p === s.current && holds(p) ? byCell[name] : undefined;
        if (action) {
          const b = el("button", {
            type: "button", className: "kcell opt" + (action.startsWith("circle") ? " circle" : " write"),
            dataset: { action, key: "act:" + action }, ariaLabel: actionLabel(action),
          }, num || "·");
          b.onclick = once(() => act(action));
          cellButtons.push(b);
          td.appendChild(b);
        } else {
          td.appendChild(el("span", {}, num));
          td.title = name + (num ? " " + num : "") + (g.circled[i] ? " ◯" : "");
        }
      }
      valueCell(tr, r);
    }
    const foot = body.insertRow();
    foot.className = "values";
    valueCell(foot, 11);
    for (let c = 0; c < 5; c++) valueCell(foot, 5 + c);
    valueCell(foot, 10);
    fig.appendChild(table);
    grids.appendChild(fig);
  });
  const wrap = $("sheet-wrap");
  wrap.innerHTML = "";
  wrap.appendChild(grids);
  wrap.appendChild(legend());
  setCursor([...cellButtons, ...acts.querySelectorAll("button")]);
}

// What the numbers beside the grids are: one sentence, with the line names the titles use.
function legend() {
  return el("p", { className: "small legend" }, t("knaster_legend"));
}
