// pasch web client: draws what the server sends; every rule is decided by the server's engine.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const I18N = window.PASCH_I18N;
  let lang = localStorage.getItem("pasch:lang") || (navigator.language || "en").slice(0, 2);
  if (!I18N[lang]) lang = "en";
  const t = (key, vars) => {
    let s = (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key.replace(/_/g, " ");
    for (const k in vars || {}) s = s.replace("{" + k + "}", vars[k]);
    return s;
  };
  const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

  const app = { code: null, room: null, state: null, seat: null, ws: null, held: new Set(), cursor: 0, rules: [] };

  function translatePage() {
    document.documentElement.lang = lang;
    $("lang").value = lang;
    document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
    $("dice").setAttribute("aria-label", t("dice_now", { d: "" }).replace(/[: ]+$/, ""));
    if (app.state) render();
  }

  // -- home: create, join, lobby -------------------------------------------------------------------------
  function seatRow(name, kind) {
    const row = document.createElement("div");
    row.className = "seat";
    const n = document.querySelectorAll("#seats .seat").length + 1;
    row.innerHTML =
      '<label><span class="sr-only"></span><input class="seat-name" maxlength="40"></label> ' +
      '<select class="seat-kind"><option value="human"></option><option value="bot:greedy"></option>' +
      '<option value="bot:optimal"></option><option value="bot:random"></option></select> ' +
      '<button type="button" class="seat-remove"></button>';
    row.querySelector(".sr-only").textContent = t("name") + " " + n;
    row.querySelector(".seat-name").value = name;
    row.querySelector(".seat-name").setAttribute("aria-label", t("name") + " " + n);
    const opts = row.querySelectorAll("option");
    opts[0].textContent = t("human");
    opts[1].textContent = t("bot_greedy");
    opts[2].textContent = t("bot_optimal");
    opts[3].textContent = t("bot_random");
    row.querySelector(".seat-kind").value = kind;
    row.querySelector(".seat-kind").setAttribute("aria-label", t("player") + " " + n);
    const rm = row.querySelector(".seat-remove");
    rm.textContent = "×";
    rm.setAttribute("aria-label", t("remove"));
    rm.onclick = () => { if (document.querySelectorAll("#seats .seat").length > 1) row.remove(); };
    $("seats").appendChild(row);
  }

  async function showHome() {
    $("home").hidden = false;
    $("game").hidden = true;
    $("room-label").textContent = "";
    if (!document.querySelector("#seats .seat")) {
      seatRow(localStorage.getItem("pasch:name") || t("player") + " 1", "human");
      seatRow(t("player") + " 2", "human");
    }
    try {
      const rules = await (await fetch("/api/rules")).json();
      $("rules").innerHTML = "";
      for (const r of rules) {
        const o = document.createElement("option");
        o.value = r.id;
        o.textContent = r.name + " (" + r.id + ")";
        $("rules").appendChild(o);
      }
      const lobby = await (await fetch("/api/rooms")).json();
      $("lobby").innerHTML = "";
      if (!lobby.length) $("lobby").textContent = t("no_rooms");
      for (const r of lobby) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = "/r/" + r.code;
        a.textContent = r.code + " — " + r.rules + (r.keeper ? " (" + t("keeper") + ")" : "");
        li.appendChild(a);
        $("lobby").appendChild(li);
      }
    } catch (e) { showError(String(e)); }
  }

  $("add-seat").onclick = () => seatRow(t("player") + " " + (document.querySelectorAll("#seats .seat").length + 1), "human");
  $("create-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const seats = [...document.querySelectorAll("#seats .seat")].map((row) => ({
      name: row.querySelector(".seat-name").value, kind: row.querySelector(".seat-kind").value }));
    localStorage.setItem("pasch:name", seats[0].name);
    const body = { rules: $("rules").value, seats, hints: $("hints").checked, keeper: $("keeper").checked };
    const res = await fetch("/api/rooms", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) return showError(data.detail && data.detail.message ? data.detail.message : JSON.stringify(data.detail));
    if (data.token) localStorage.setItem("pasch:token:" + data.code, data.token);
    location.assign("/r/" + data.code);
  };
  $("join-form").onsubmit = (ev) => {
    ev.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.assign("/r/" + code);
  };

  // -- the room ------------------------------------------------------------------------------------------
  function token() { return localStorage.getItem("pasch:token:" + app.code); }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + "/ws/" + app.code);
    app.ws = ws;
    ws.onopen = () => { const tok = token(); if (tok) send({ type: "join", token: tok }); };
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = () => { if (app.ws === ws) setTimeout(connect, 1000); };
  }

  function send(msg) { if (app.ws && app.ws.readyState === 1) app.ws.send(JSON.stringify(msg)); }
  function act(action) { showError(""); send({ type: "act", action, id: Date.now() }); }

  function onMessage(m) {
    if (m.type === "welcome" || m.type === "state") {
      app.room = m.room;
      if (m.type === "welcome" && m.seat !== undefined && (m.seat !== null || !token())) app.seat = m.seat;
      setState(m.state);
      if (m.type === "welcome") contribute();
    } else if (m.type === "update") {
      setState(m.state);
    } else if (m.type === "seats") {
      if (app.room) { app.room.seats = m.seats; render(); }
    } else if (m.type === "contributed" || m.type === "fair") {
      if (app.room) { app.room.contributions = m.contributions; render(); }
    } else if (m.type === "hint") {
      renderHint(m);
    } else if (m.type === "rematch") {
      if (m.token) localStorage.setItem("pasch:token:" + m.code, m.token);  // tokens rotate on a rematch
      if (app.room) app.room.rematch_code = m.code;
      render();
    } else if (m.type === "error") {
      const key = "err_" + m.code;
      showError(I18N[lang][key] || I18N.en[key] ? t(key) : m.message);
      if (m.code === "hints_off" || m.code === "not_your_turn") $("hint-out").textContent = "";
    }
  }

  // Provably fair dice (docs/protocol.md): a seated page adds 32 random bytes of its own before the first
  // throw; they are kept here so that `pasch verify --contribution HEX` can check they were mixed in.
  function contribute() {
    const room = app.room, seat = app.seat;
    if (!room || seat === null || room.dice !== "pasch-dice-v2" || !room.contributions) return;
    const key = "pasch:contribution:" + room.code;
    let mine = localStorage.getItem(key);
    if (room.contributions[seat] || !app.state || app.state.seq !== 0) return;
    if (!mine) {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      mine = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem(key, mine);
    }
    send({ type: "contribute", seed: mine });
  }

  function setState(s) {
    if (!s || (app.state && s.seq < app.state.seq)) return;
    const changed = !app.state || s.seq !== app.state.seq;
    app.state = s;
    if (changed) { app.held.clear(); $("hint-out").textContent = ""; }
    if (s.terminal && app.room && !app.room.seed) send({ type: "state" });  // fetch the revealed seed
    render();
  }

  // An action text in words: "score 2:full_house" -> "Full house (col. 2)", "keep 3 3" -> "keep 3 3".
  function actionLabel(text) {
    const w = text.split(" ");
    if (w[0] === "roll") return t("throw");
    if (w[0] === "enter") return t("enter_dice");
    if (w[0] === "keep") return w.length > 1 ? t("keep_dice", { d: w.slice(1).join(" ") }) : t("reroll_all");
    if (w[0] === "score" || w[0] === "announce") {
      const parts = w[1].split(":");
      const box = boxName(parts[parts.length - 1]);
      const col = parts.length > 1 ? " (" + t("column", { n: parts[0] }) + ")" : "";
      return (w[0] === "announce" ? t("announce") + ": " : "") + box + col;
    }
    if (w[0] === "write") return t("write_at", { n: w[1], cell: w[3] });
    if (w[0] === "circle") return t("circle_at", { cell: w[1] });
    if (w[0] === "pass") return t("pass");
    return text;
  }

  // The hint panel: every option with its exact value (best marked), or the bot's suggestion.
  function renderHint(m) {
    const out = $("hint-out");
    out.innerHTML = "";
    if (!app.state || m.seq !== app.state.seq) return;  // a hint for an older state
    if (m.status === "preparing") {  // the server builds this rule set's table (one at a time): ask again
      out.textContent = t("hint_preparing");
      setTimeout(() => { if (app.state && app.state.seq === m.seq) send({ type: "hint" }); }, 2000);
      return;
    }
    const p = document.createElement("p");
    p.className = "suggest";
    p.textContent = t("suggest", { a: actionLabel(m.suggest) });
    out.appendChild(p);
    if (m.options && m.options.length) {
      const table = document.createElement("table");
      table.className = "hints";
      const hr = table.createTHead().insertRow();
      for (const key of ["option", m.exact ? "expected" : "points_now"]) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = t(key);
        hr.appendChild(th);
      }
      const tb = table.createTBody();
      for (const o of m.options) {
        const tr = tb.insertRow();
        tr.dataset.action = o.action;
        if (o.best) tr.className = "best";
        const td = tr.insertCell();
        const b = document.createElement("button");
        b.type = "button";
        b.className = "hint-act";
        b.textContent = actionLabel(o.action) + (o.best ? " ★" : "");
        b.disabled = !myTurn();
        b.onclick = () => act(o.action);
        td.appendChild(b);
        const v = tr.insertCell();
        v.className = "num";
        v.textContent = m.exact ? o.value.toFixed(2) : String(o.points);
      }
      out.appendChild(table);
    }
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = m.exact ? t("hint_exact") : t("hint_inexact");
    out.appendChild(note);
  }

  function showError(msg) { $("error").textContent = msg || ""; }

  function myTurn() {
    const s = app.state;
    return s && app.seat !== null && !s.terminal && !s.pending && s.current === app.seat;
  }

  function render() {
    const s = app.state, room = app.room;
    if (!s || !room) return;
    $("room-label").textContent = room.code + " · " + room.rules.name;
    document.body.dataset.myturn = myTurn() ? "1" : "0";
    document.body.dataset.terminal = s.terminal ? "1" : "0";
    document.body.dataset.seq = String(s.seq);
    const free = room.seats.some((x) => !x.claimed);
    $("seat-panel").hidden = app.seat !== null || s.terminal;
    $("take-seat").hidden = !free;
    const link = location.origin + "/r/" + room.code;
    $("share").textContent = t("share") + ": " + link;
    $("commitment").textContent = room.commitment || "—";
    const mine = localStorage.getItem("pasch:contribution:" + room.code);
    const included = mine && room.contributions && room.contributions.includes(mine);
    $("contribution-line").hidden = !included;
    $("contribution").textContent = included ? mine : "";
    // Status line: whose turn.
    const st = $("status");
    if (room.status === "abandoned") {
      st.textContent = t("abandoned");
    } else if (s.terminal) {
      const names = s.outcome.winners.join(", ");
      st.textContent = t("game_over") + " " + (s.outcome.winners.length > 1 ? t("tie", { names }) : t("winner", { names }));
    } else {
      const who = myTurn() ? t("your_turn") : t("turn_of", { name: s.players[s.current] });
      st.textContent = who + " · " + t("round", { n: s.round }) +
        (s.kind === "sheet" && s.announced !== null && s.announced !== undefined
          ? " · " + t("announced_box", { box: boxName(room.rules.boxes[s.announced].id) }) : "");
    }
    st.classList.toggle("mine", myTurn());
    $("hint-panel").hidden = !room.hints || app.seat === null || s.terminal;
    $("hint").disabled = !myTurn();
    if (s.kind === "sheet") renderSheetGame(s, room); else renderKnaster(s);
    $("over").hidden = !s.terminal;
    if (s.terminal) {
      $("over-text").textContent = s.players.map((p, i) => p + ": " + s.totals[i]).join(" · ");
      $("seed").textContent = room.seed || "…";
      $("log-link").href = "/api/rooms/" + room.code + "/log";
      $("rematch").hidden = app.seat === null;
      if (room.rematch_code) {
        $("rematch").textContent = t("rematch") + " → " + room.rematch_code;
      }
    }
  }

  function renderDice(s) {
    const box = $("dice");
    box.innerHTML = "";
    const dice = s.dice || [];
    const n = room().rules.dice;
    for (let i = 0; i < n; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "die";
      const v = dice[i];
      if (v === undefined) { b.textContent = "·"; b.classList.add("blank"); b.disabled = true; }
      else {
        b.textContent = v <= 6 ? FACES[v] : String(v);
        b.setAttribute("aria-pressed", app.held.has(i) ? "true" : "false");
        b.setAttribute("aria-label", t("die", { i: i + 1, v }) + (app.held.has(i) ? ", " + t("held") : ""));
        b.disabled = !(myTurn() && s.can_keep);
        b.onclick = () => toggleHold(i);
      }
      b.dataset.index = String(i);
      box.appendChild(b);
    }
    $("dice-live").textContent = dice.length ? t("dice_now", { d: dice.join(" ") }) : "";
  }

  function room() { return app.room; }

  function toggleHold(i) {
    const s = app.state;
    if (!myTurn() || !s.can_keep || !s.dice || i >= s.dice.length) return;
    if (app.held.has(i)) app.held.delete(i); else app.held.add(i);
    render();
  }

  function throwDice() {
    const s = app.state;
    if (!myTurn()) return;
    if (s.can_roll) return act("roll");
    if (s.can_keep && app.held.size < s.dice.length) {
      const kept = [...app.held].map((i) => s.dice[i]).sort((a, b) => a - b);
      act(("keep " + kept.join(" ")).trim());
    }
  }

  function boxName(id) {
    if (id === "yahtzee" && room().rules.id.startsWith("yatzy")) return "Yatzy";
    return t(id);
  }

  function renderSheetGame(s, room) {
    $("dice-area").hidden = false;
    $("throw").hidden = false;
    $("knaster-actions").innerHTML = "";
    renderDice(s);
    const mine = myTurn();
    $("throw").hidden = s.keeper;
    $("throw").disabled = !(mine && (s.can_roll || (s.can_keep && app.held.size < (s.dice || []).length)));
    $("throws-left").textContent = s.keeper ? "" : t("throws_left", { n: s.throws_left });
    $("enter-form").hidden = !(s.keeper && mine && s.can_enter);
    $("enter-sharp").parentElement.hidden = false;
    const ann = $("announce");
    ann.innerHTML = "";
    if (mine) for (const a of s.announce) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = t("announce") + ": " + boxName(a.split(" ")[1]);
      b.onclick = () => act(a);
      ann.appendChild(b);
    }
    // The sheet: one row per box, one column per player and sheet column.
    const rules = room.rules, ncol = rules.columns.length;
    const opts = {};
    for (const o of s.options) opts[o.column + ":" + o.box] = o;
    const table = document.createElement("table");
    table.className = "sheet";
    const cap = document.createElement("caption");
    cap.className = "sr-only";
    cap.textContent = rules.name;
    table.appendChild(cap);
    const thead = table.createTHead(), hr = thead.insertRow();
    const h0 = document.createElement("th");
    h0.textContent = t("box");
    h0.scope = "col";
    hr.appendChild(h0);
    s.players.forEach((p, i) => {
      const th = document.createElement("th");
      th.scope = "colgroup";
      th.colSpan = ncol;
      const seat = room.seats[i];
      th.textContent = p + (i === app.seat ? " ★" : "") + (seat && !seat.online ? " (" + t("offline") + ")" : "");
      if (i === s.current && !s.terminal) th.className = "current";
      hr.appendChild(th);
    });
    if (ncol > 1) {
      const r2 = thead.insertRow();
      r2.appendChild(document.createElement("th"));
      s.players.forEach(() => rules.columns.forEach((c, k) => {
        const th = document.createElement("th");
        th.textContent = t("column", { n: k + 1 }) + " " + t("order_" + c);
        r2.appendChild(th);
      }));
    }
    const tb = table.createTBody();
    const optionButtons = [];
    const upperCount = rules.boxes.filter((b) => b.upper).length;
    const addSumRow = (label, cell) => {
      const tr = tb.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = label;
      tr.appendChild(th);
      s.players.forEach((_, p) => s.sheets[p].forEach((col, c) => {
        const td = tr.insertCell();
        td.className = "sum";
        cell(td, col, p, c);
      }));
    };
    rules.boxes.forEach((box, bi) => {
      if (bi === upperCount && upperCount > 0) {
        addSumRow(t("upper"), (td, col) => { td.textContent = col.upper; });
        if (rules.bonus_threshold) addSumRow(t("bonus"), (td, col) => {
          const pct = Math.min(100, Math.round(100 * col.upper / rules.bonus_threshold));
          td.innerHTML = "";
          td.append(col.bonus ? String(col.bonus) : col.upper + "/" + rules.bonus_threshold);
          const bar = document.createElement("div");
          bar.className = "bonus-bar";
          bar.setAttribute("role", "progressbar");
          bar.setAttribute("aria-valuemin", "0");
          bar.setAttribute("aria-valuemax", String(rules.bonus_threshold));
          bar.setAttribute("aria-valuenow", String(col.upper));
          bar.setAttribute("aria-label", t("bonus"));
          const fill = document.createElement("span");
          fill.style.width = pct + "%";
          bar.appendChild(fill);
          td.appendChild(bar);
        });
      }
      const tr = tb.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = boxName(box.id);
      tr.appendChild(th);
      s.players.forEach((_, p) => s.sheets[p].forEach((col, c) => {
        const td = tr.insertCell();
        const v = col.scores[bi];
        const o = p === s.current && !s.terminal ? opts[c + ":" + bi] : undefined;
        if (p === s.current && s.announced === bi && rules.columns[c] === "announced" && v === null) {
          td.classList.add("announced");
          td.title = t("announced_box", { box: boxName(box.id) });
        }
        if (v !== null) {
          td.textContent = String(v);
          if (col.doubled.includes(bi)) td.classList.add("doubled");
        } else if (o && mine) {
          const b = document.createElement("button");
          b.type = "button";
          b.className = "opt" + (o.points === 0 ? " zero" : "");
          b.textContent = String(o.points);
          b.dataset.action = o.action;
          b.setAttribute("aria-label", boxName(box.id) + (ncol > 1 ? " " + t("column", { n: c + 1 }) : "") + ": " + o.points);
          b.onclick = () => act(o.action);
          optionButtons.push(b);
          td.appendChild(b);
        } else if (o) {
          td.textContent = "(" + o.points + ")";
          td.className = "small";
        }
      }));
    });
    if (rules.boxes.some((b) => !b.upper)) addSumRow(t("extra"), (td, col) => { td.textContent = col.extra || ""; });
    addSumRow(t("total"), (td, col) => { td.textContent = col.total; });
    if (ncol > 1) {
      const tr = tb.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = t("total");
      tr.appendChild(th);
      s.players.forEach((_, p) => { const td = tr.insertCell(); td.colSpan = ncol; td.className = "sum"; td.textContent = s.totals[p]; });
    }
    const wrap = $("sheet-wrap");
    const focused = document.activeElement && document.activeElement.classList.contains("opt");
    wrap.innerHTML = "";
    wrap.appendChild(table);
    app.optionButtons = optionButtons;
    if (app.cursor >= optionButtons.length) app.cursor = 0;
    optionButtons.forEach((b, i) => b.classList.toggle("sel", i === app.cursor));
    if (focused && optionButtons[app.cursor]) optionButtons[app.cursor].focus();
  }

  function lineName(k) {
    if (k < 5) return t("line_row", { n: k + 1 });
    if (k < 10) return t("line_column", { c: "abcde"[k - 5] });
    return t("line_diagonal", { d: k === 10 ? "a1-e5" : "e1-a5" });
  }

  // Knaster: every player's 5x5 grid with numbers, circles, line values (complete and scored lines marked);
  // the player to act writes or circles by clicking a cell of their own grid.
  function renderKnaster(s) {
    $("throw").hidden = false;
    $("throw").disabled = !(myTurn() && s.can_roll);
    // Score keeper: after "roll" the thrower enters the two dice that fell at the table ("throw A B").
    const tableDice = s.keeper && s.pending > 0 && !s.terminal && app.seat !== null && s.current === app.seat;
    $("enter-form").hidden = !tableDice;
    $("enter-sharp").parentElement.hidden = true;
    $("announce").innerHTML = "";
    renderDice(s);
    $("throws-left").textContent = s.number ? t("number", { n: s.number }) + (s.last_number ? " · " + t("last_number") : "") : "";
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
      const d = document.createElement("p");
      d.className = "duties";
      d.textContent = s.duty_lines.map((x) => t("duty", { n: x.owed, line: lineName(x.line) })).join(" · ");
      acts.appendChild(d);
    }
    if (canPass) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = "pass";
      b.textContent = t("pass");
      b.dataset.action = "pass";
      b.className = "opt";
      b.onclick = () => act("pass");
      acts.appendChild(b);
    }
    const info = room().rules.knaster;
    const lines = info ? info.lines : [];
    const dutySet = new Set(mine && s.duty_lines ? s.duty_lines.map((x) => x.line) : []);
    const cellButtons = [];
    const wrap = $("sheet-wrap");
    wrap.innerHTML = "";
    const grids = document.createElement("div");
    grids.className = "grids";
    s.grids.forEach((g, p) => {
      const fig = document.createElement("figure");
      fig.className = "kfig" + (p === s.current && !s.terminal ? " current" : "");
      fig.dataset.player = String(p);
      const cap = document.createElement("figcaption");
      const seat = room().seats[p];
      cap.textContent = s.players[p] + (p === app.seat ? " ★" : "") + ": " + s.totals[p] +
        " (" + t("lines_circles", { l: g.line_points, c: g.circles }) + ")" +
        (seat && !seat.online ? " (" + t("offline") + ")" : "") + (p === s.current && !s.terminal ? " ◀" : "");
      fig.appendChild(cap);
      const complete = new Set(g.complete), scored = new Set(g.scored);
      const valueCell = (tr, k) => {
        const td = tr.insertCell();
        td.className = "lv" + (scored.has(k) ? " scored" : complete.has(k) ? " complete" : "") +
          (p === s.current && dutySet.has(k) ? " duty" : "");
        td.textContent = lines[k] ? String(lines[k].value) : "";
        td.title = lineName(k) + (scored.has(k) ? " ✓" : "");
        return td;
      };
      const table = document.createElement("table");
      table.className = "kgrid";
      const head = table.createTHead().insertRow();
      head.appendChild(document.createElement("th"));
      for (let c = 0; c < 5; c++) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = "abcde"[c];
        head.appendChild(th);
      }
      head.appendChild(document.createElement("th"));
      const body = table.createTBody();
      for (let r = 0; r < 5; r++) {
        const tr = body.insertRow();
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = String(r + 1);
        tr.appendChild(th);
        for (let c = 0; c < 5; c++) {
          const i = r * 5 + c, td = tr.insertCell(), name = s.cells[i];
          td.dataset.cell = name;
          const num = g.numbers[i] ? String(g.numbers[i]) : "";
          if (g.circled[i]) td.classList.add("ring");
          const action = p === app.seat ? byCell[name] : undefined;
          if (action) {
            const b = document.createElement("button");
            b.type = "button";
            b.className = "kcell opt" + (action.startsWith("circle") ? " circle" : " write");
            b.dataset.action = action;
            b.textContent = num || "·";
            b.setAttribute("aria-label", actionLabel(action));
            b.onclick = () => act(action);
            cellButtons.push(b);
            td.appendChild(b);
          } else {
            const span = document.createElement("span");
            span.textContent = num;
            td.appendChild(span);
            td.setAttribute("aria-label", name + (num ? " " + num : "") + (g.circled[i] ? " ◯" : ""));
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
    wrap.appendChild(grids);
    app.optionButtons = [...cellButtons, ...acts.querySelectorAll("button")];
    if (app.cursor >= app.optionButtons.length) app.cursor = 0;
    app.optionButtons.forEach((b, i) => b.classList.toggle("sel", i === app.cursor));
  }

  $("throw").onclick = throwDice;
  $("hint").onclick = () => send({ type: "hint" });
  $("take-seat").onclick = async () => {
    const res = await fetch("/api/rooms/" + app.code + "/join", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const data = await res.json();
    if (!res.ok) return showError(data.detail && data.detail.message);
    localStorage.setItem("pasch:token:" + app.code, data.token);
    send({ type: "join", token: data.token });
  };
  $("rematch").onclick = async () => {
    if (app.room.rematch_code) return location.assign("/r/" + app.room.rematch_code);
    const res = await fetch("/api/rooms/" + app.code + "/rematch", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: token() }) });
    const data = await res.json();
    if (!res.ok) return showError(data.detail && data.detail.message);
    localStorage.setItem("pasch:token:" + data.code, data.token || token());
    location.assign("/r/" + data.code);
  };
  $("enter-form").onsubmit = (ev) => {
    ev.preventDefault();
    const dice = $("enter-dice").value.replace(/[^0-9]/g, "").split("").join(" ");
    if (app.state && app.state.kind === "knaster") act("throw " + dice);
    else act("enter " + dice + ($("enter-sharp").checked ? " sharp" : ""));
    $("enter-dice").value = "";
  };
  $("lang").onchange = () => { lang = $("lang").value; localStorage.setItem("pasch:lang", lang); translatePage(); };

  // Keyboard shortcuts, as in the terminal game.
  document.addEventListener("keydown", (ev) => {
    if (!app.state || $("game").hidden) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const btns = app.optionButtons || [];
    const move = (d) => {
      if (!btns.length) return;
      app.cursor = (app.cursor + d + btns.length) % btns.length;
      btns.forEach((b, i) => b.classList.toggle("sel", i === app.cursor));
      btns[app.cursor].focus();
    };
    if (/^[1-9]$/.test(ev.key)) { toggleHold(Number(ev.key) - 1); ev.preventDefault(); }
    else if (ev.key === " " || ev.key === "r") { throwDice(); ev.preventDefault(); }
    else if (ev.key === "ArrowDown" || ev.key === "j" || ev.key === "ArrowRight") { move(1); ev.preventDefault(); }
    else if (ev.key === "ArrowUp" || ev.key === "k" || ev.key === "ArrowLeft") { move(-1); ev.preventDefault(); }
    else if (ev.key === "Enter" && btns[app.cursor] && myTurn()) { btns[app.cursor].click(); ev.preventDefault(); }
    else if (ev.key === "h" && app.room && app.room.hints) { send({ type: "hint" }); ev.preventDefault(); }
  });

  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  translatePage();
  if (m) {
    app.code = m[1].toUpperCase();
    $("home").hidden = true;
    $("game").hidden = false;
    connect();
  } else {
    showHome();
  }
})();
