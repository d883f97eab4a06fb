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

  const app = {
    code: null, room: null, state: null, seat: null, ws: null, held: new Set(), cursor: 0, rules: [],
    tokens: {},        // seat -> token: every seat this device plays (local seats, hot-seat, score keeper)
    arr: [],           // the dice as drawn, position by position (held dice stay where they are)
    rolling: new Set(),// positions thrown by the last throw (animated once)
    sentAt: null,      // the position (seq) of the action in flight: a second click on it is not sent
    hint: null, hintAll: false, moves: new Map(), summary: null, summaryFor: null, following: false,
  };
  const motion = !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  document.body.dataset.motion = motion ? "1" : "0";

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
      '<select class="seat-kind"></select> ' +
      '<label class="here"><input type="checkbox" class="seat-here"> <span></span></label> ' +
      '<button type="button" class="seat-remove"></button>';
    row.querySelector(".sr-only").textContent = t("name") + " " + n;
    row.querySelector(".seat-name").value = name;
    row.querySelector(".seat-name").setAttribute("aria-label", t("name") + " " + n);
    fillKinds(row.querySelector(".seat-kind"), kind);
    row.querySelector(".here span").textContent = t("here");
    row.querySelector(".seat-here").checked = n === 1;
    row.querySelector(".seat-here").setAttribute("aria-label", t("here") + " " + n);
    row.querySelector(".seat-kind").setAttribute("aria-label", t("player") + " " + n);
    const rm = row.querySelector(".seat-remove");
    rm.textContent = "×";
    rm.setAttribute("aria-label", t("remove"));
    rm.onclick = () => { if (document.querySelectorAll("#seats .seat").length > 1) row.remove(); };
    $("seats").appendChild(row);
  }

  // The seat kinds and their order are the server's (pasch.app.seat_kinds, per rule set in /api/rules).
  function kindLabel(kind) {
    if (kind === "human") return t("human");
    const bot = kind.slice(4);
    return I18N.en["bot_" + bot] ? t("bot_" + bot) : "Bot (" + bot + ")";
  }

  function fillKinds(select, kind) {
    const chosen = app.rules.find((r) => r.id === $("rules").value) || app.rules[0];
    const kinds = chosen ? chosen.seat_kinds : ["human"];
    select.innerHTML = "";
    for (const k of kinds) {
      const o = document.createElement("option");
      o.value = k;
      o.textContent = kindLabel(k);
      select.appendChild(o);
    }
    select.value = kinds.includes(kind) ? kind : "human";
  }

  async function showHome() {
    $("home").hidden = false;
    $("game").hidden = true;
    $("room-label").textContent = "";
    try {
      const rules = await (await fetch("/api/rules")).json();
      app.rules = rules;
      $("rules").innerHTML = "";
      for (const r of rules) {
        const o = document.createElement("option");
        o.value = r.id;
        o.textContent = r.name + " (" + r.id + ")";
        $("rules").appendChild(o);
      }
      $("rules").onchange = () => document.querySelectorAll("#seats .seat-kind").forEach((el) => fillKinds(el, el.value));
      if (!document.querySelector("#seats .seat")) {
        seatRow(localStorage.getItem("pasch:name") || t("player") + " 1", "human");
        seatRow(t("player") + " 2", "human");
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
        const info = document.createElement("span");
        info.className = "small lobby-info";
        info.textContent = " · " + (r.players && r.players.length ? r.players.join(", ") : "—") + " · " +
          t("free_seats", { n: r.free }) + " · " + ago(r.age || 0);
        li.appendChild(info);
        $("lobby").appendChild(li);
      }
    } catch (e) { showError(String(e)); }
  }

  function ago(sec) {
    if (sec < 60) return t("ago_now");
    if (sec < 3600) return t("ago_min", { n: Math.floor(sec / 60) });
    if (sec < 86400) return t("ago_h", { n: Math.floor(sec / 3600) });
    return t("ago_d", { n: Math.floor(sec / 86400) });
  }

  // Tokens of a room: {seat: token} in localStorage (the older single-token key is read too).
  function loadTokens(code) {
    let out = {};
    try { out = JSON.parse(localStorage.getItem("pasch:seats:" + code) || "{}") || {}; } catch (e) { out = {}; }
    const old = localStorage.getItem("pasch:token:" + code);
    if (old && !Object.values(out).includes(old)) out["?"] = old;
    return out;
  }
  function saveTokens(code, tokens) {
    localStorage.setItem("pasch:seats:" + code, JSON.stringify(tokens));
    const first = Object.keys(tokens).filter((k) => k !== "?").sort((a, b) => a - b)[0];
    if (first !== undefined) localStorage.setItem("pasch:token:" + code, tokens[first]);
  }
  async function postJSON(url, body) {
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    return { ok: res.ok, data };
  }
  function detail(data) {
    const d = data && data.detail;
    if (!d) return t("err_server_error");
    if (typeof d === "string") return d;
    if (d.code && d.message) return errorText(d.code, d.message);
    if (Array.isArray(d)) return d.map((x) => (x.loc ? x.loc.slice(1).join(".") + ": " : "") + x.msg).join("; ");
    return JSON.stringify(d);
  }

  $("add-seat").onclick = () => seatRow(t("player") + " " + (document.querySelectorAll("#seats .seat").length + 1), "human");
  $("create-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const rows = [...document.querySelectorAll("#seats .seat")];
    const seats = rows.map((row) => ({
      name: row.querySelector(".seat-name").value, kind: row.querySelector(".seat-kind").value }));
    const here = rows.map((row) => row.querySelector(".seat-here").checked);
    localStorage.setItem("pasch:name", seats[0].name);
    const body = { rules: $("rules").value, seats, hints: $("hints").checked, keeper: $("keeper").checked,
      private: $("private").checked };
    const { ok, data } = await postJSON("/api/rooms", body);
    if (!ok) return showError(detail(data));
    const tokens = {};
    if (data.token) tokens[data.seat] = data.token;
    // Every other human seat ticked "here" is claimed for this device too (hot-seat, score keeper).
    for (let i = 0; i < seats.length; i++) {
      if (!here[i] || seats[i].kind !== "human" || i === data.seat) continue;
      const j = await postJSON("/api/rooms/" + data.code + "/join", { seat: i });
      if (j.ok) tokens[j.data.seat] = j.data.token;
    }
    saveTokens(data.code, tokens);
    location.assign("/r/" + data.code);
  };
  $("join-form").onsubmit = (ev) => {
    ev.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    if (code) location.assign("/r/" + code);
  };

  // -- the room ------------------------------------------------------------------------------------------
  function token() { const k = Object.keys(app.tokens); return k.length ? app.tokens[k[0]] : null; }
  function mySeats() { return Object.keys(app.tokens).filter((k) => k !== "?").map(Number); }
  function holds(seat) { return seat !== null && seat !== undefined && app.tokens[seat] !== undefined; }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + "/ws/" + app.code);
    app.ws = ws;
    ws.onopen = joinSeats;
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = () => { if (app.ws === ws) setTimeout(connect, 1000); };
  }

  // Bind the connection to the first seat held here; the others (local seats) are shown online too.
  function joinSeats() {
    const tok = token();
    if (!tok) return;
    const rest = Object.values(app.tokens).filter((x) => x !== tok);
    const msg = rest.length ? { type: "join", token: tok, tokens: rest } : { type: "join", token: tok };
    // After a reconnect (maybe to another server process) the last position seen: the server catches the
    // room up to it from the log before it answers, so the page never steps back.
    if (app.state) msg.seq = app.state.seq;
    send(msg);
  }

  function send(msg) { if (app.ws && app.ws.readyState === 1) app.ws.send(JSON.stringify(msg)); }

  // An action names the position it was chosen on ("at"): the server refuses it once the game moved on,
  // so a double click or a key repeat never spends a second throw. The page itself sends one action per
  // position (sentAt), and acts with the token of the seat to move (a device may hold several seats).
  function act(action) {
    const s = app.state;
    if (!s || app.sentAt === s.seq) return;
    showError("");
    const msg = { type: "act", action, id: Date.now(), at: s.seq };
    const tok = app.tokens[s.current];
    if (tok && s.current !== app.seat) msg.token = tok;
    app.sentAt = s.seq;
    document.body.dataset.sent = String(s.seq);
    send(msg);
  }

  function askHint() {
    const s = app.state;
    if (!myTurn()) return;
    const msg = { type: "hint" };
    if (s.current !== app.seat && app.tokens[s.current]) msg.token = app.tokens[s.current];
    send(msg);
  }

  function errorText(code, message) {
    const key = "err_" + code;
    const known = I18N[lang][key] || I18N.en[key];
    if (!known) return message || code;
    // The server's detail ("'enter 7 1 2 3 4': 7 is not a die") is kept after the translated sentence.
    return DETAILED.has(code) && message ? t(key) + " " + message : t(key);
  }
  const DETAILED = new Set(["bad_action", "illegal", "not_your_turn", "bad_request", "bad_message", "broken"]);

  function onMessage(m) {
    if (m.type === "welcome" || m.type === "state") {
      app.room = m.room;
      if (m.type === "welcome" && m.seat !== undefined && m.seat !== null) {
        app.seat = m.seat;
        // The older single-token key did not know its seat: file it under the seat the server named.
        if (app.tokens["?"]) { app.tokens[m.seat] = app.tokens["?"]; delete app.tokens["?"]; saveTokens(app.code, app.tokens); }
      } else if (m.type === "welcome" && m.seat === null && !token()) app.seat = null;
      setState(m.state, null);
      if (m.type === "welcome") loadMoves();
      if (m.type === "welcome") contribute();
    } else if (m.type === "update") {
      addMoves(m.state.seq - m.events.length + 1, m.by, m.events);
      setState(m.state, m.events);
    } else if (m.type === "ack") {
      app.sentAt = null;
    } else if (m.type === "seats") {
      if (app.room) { app.room.seats = m.seats; render(); }
    } else if (m.type === "contributed" || m.type === "fair") {
      if (app.room) { app.room.contributions = m.contributions; render(); }
    } else if (m.type === "hint") {
      if (app.state && m.seq === app.state.seq) { app.hint = m; render(); }
    } else if (m.type === "rematch") {
      if (m.token) localStorage.setItem("pasch:token:" + m.code, m.token);  // tokens rotate on a rematch
      if (app.room) app.room.rematch_code = m.code;
      if (m.token && m.seat !== undefined) return;  // our own request's answer: rematch() follows it
      if (mySeats().length) followRematch(); else render();
    } else if (m.type === "error") {
      app.sentAt = null;
      document.body.dataset.sent = "";
      showError(errorText(m.code, m.message));
      if (m.code === "hints_off" || m.code === "not_your_turn") { app.hint = null; $("hint-out").textContent = ""; }
    }
  }

  // The dice as drawn: after a keep, the kept dice stay where they were (and stay held), the thrown ones
  // fill the other places and only they roll. "events" are the update's events (null: a fresh view).
  function placeDice(prev, s, events) {
    const dice = s.dice || [];
    if (!dice.length) { app.arr = []; app.held.clear(); app.rolling = new Set(); return; }
    const keep = events && events.find((e) => e.startsWith("keep"));
    const threw = events && events.some((e) => e.startsWith("throw") || e.startsWith("enter"));
    const sameTurn = prev && prev.dice && prev.current === s.current && prev.round === s.round &&
      s.throws > prev.throws && app.arr.length === prev.dice.length;
    if (keep !== undefined && sameTurn) {
      const kept = keep.split(" ").slice(1).map(Number);
      const pos = [];
      const free = new Set(app.arr.map((_, i) => i));
      for (const v of kept) {  // the held places first, then any place showing that value
        let i = [...app.held].find((j) => free.has(j) && app.arr[j] === v);
        if (i === undefined) i = [...free].find((j) => app.arr[j] === v);
        if (i !== undefined) { pos.push(i); free.delete(i); }
      }
      const rest = dice.slice();
      for (const i of pos) rest.splice(rest.indexOf(app.arr[i]), 1);
      const arr = app.arr.slice();
      const thrown = [...free].sort((a, b) => a - b);
      thrown.forEach((i, k) => { arr[i] = rest[k]; });
      if (arr.every((v) => v !== undefined) && rest.length === thrown.length) {
        app.arr = arr;
        app.held = new Set(pos);
        app.rolling = new Set(thrown);
        return;
      }
    }
    if (!threw && app.arr.length === dice.length &&
        app.arr.slice().sort((a, b) => a - b).join() === dice.slice().sort((a, b) => a - b).join()) {
      app.rolling = new Set();  // the same dice (a score, a seats frame): nothing moves
      return;
    }
    app.arr = dice.slice();
    app.held.clear();
    app.rolling = threw ? new Set(dice.map((_, i) => i)) : new Set();
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

  function setState(s, events) {
    if (!s || (app.state && s.seq < app.state.seq)) return;
    const prev = app.state;
    const changed = !prev || s.seq !== prev.seq;
    app.state = s;
    if (changed) {
      placeDice(prev, s, events);
      app.hint = null;
      app.hintAll = false;
      if (app.sentAt !== null && app.sentAt < s.seq) app.sentAt = null;
      $("hint-out").textContent = "";
    }
    if (s.terminal && app.room && !app.room.seed) send({ type: "state" });  // fetch the revealed seed
    if (s.terminal) loadSummary();
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

  // One event of the move log in words.
  function moveText(text) {
    const w = text.split(" ");
    if (w[0] === "roll") return t("log_roll");
    if (w[0] === "throw") return t("log_throw", { d: w.slice(1).join(" ") });
    if (w[0] === "enter") return t("log_enter", { d: w.slice(1).filter((x) => x !== "sharp").join(" ") });
    if (w[0] === "keep") return w.length > 1 ? t("log_keep", { d: w.slice(1).join(" ") }) : t("reroll_all");
    if (w[0] === "score") {
      const parts = w[1].split(":");
      const col = parts.length > 1 ? " (" + t("column", { n: parts[0] }) + ")" : "";
      return t("log_score", { box: boxName(parts[parts.length - 1]) + col });
    }
    return actionLabel(text);
  }

  // -- the move log: every event with its player, for players and spectators ----------------------------
  async function loadMoves() {
    try {
      const res = await fetch("/api/rooms/" + app.code + "/moves");
      if (!res.ok) return;
      for (const mv of await res.json()) app.moves.set(mv.seq, { player: mv.player, action: mv.action });
      renderMoves();
    } catch (e) { /* the live updates still fill the log */ }
  }
  function addMoves(first, by, events) {
    events.forEach((e, k) => app.moves.set(first + k, { player: by, action: e }));
    renderMoves();
  }
  function renderMoves() {
    const ol = $("moves");
    if (!ol || !app.state) return;
    ol.innerHTML = "";
    const seqs = [...app.moves.keys()].sort((a, b) => a - b).slice(-200);
    for (const q of seqs) {
      const mv = app.moves.get(q);
      const li = document.createElement("li");
      li.value = q;
      li.dataset.seq = String(q);
      const name = app.state.players[mv.player] !== undefined ? app.state.players[mv.player] : "?";
      li.textContent = name + ": " + moveText(mv.action);
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  // -- hints on the board ------------------------------------------------------------------------------
  function hintValue(o, m) {
    if (!m.exact) return o.points === null || o.points === undefined ? "" : t("points_n", { n: o.points });
    if (o.best || !o.delta) return o.value.toFixed(1);
    return t("vs_best", { d: "−" + Math.abs(o.delta).toFixed(1) });
  }

  // The hint panel: the suggestion, a "play it" button, and the best five options (the rest on request).
  function renderHint() {
    const out = $("hint-out");
    out.innerHTML = "";
    const m = app.hint;
    $("apply-hint").hidden = !m || !m.suggest || m.suggest === "enter" || !myTurn();
    if (!m || !app.state || m.seq !== app.state.seq) return;
    if (m.status === "preparing") {  // the server builds this rule set's table (one at a time): ask again
      out.textContent = t("hint_preparing");
      setTimeout(() => { if (app.state && app.state.seq === m.seq) send({ type: "hint" }); }, 2000);
      return;
    }
    const p = document.createElement("p");
    p.className = "suggest";
    p.textContent = t("suggest", { a: actionLabel(m.suggest) });
    out.appendChild(p);
    const opts = m.options || [];
    // P(win) beside the expected totals (servers started with --win-hints, games of several players).
    const win = m.win === "ready" || m.win === "preparing" ? m.win : null;
    if (win === "preparing" && !m.askedAgain) {  // the server prepares the win tables (once, in its queue)
      m.askedAgain = true;  // one timer per answer, however often the panel is drawn meanwhile
      setTimeout(() => { if (app.state && app.state.seq === m.seq && app.hint === m) send({ type: "hint" }); }, 3000);
    }
    if (opts.length) {
      const table = document.createElement("table");
      table.className = "hints";
      const hr = table.createTHead().insertRow();
      for (const key of ["option", m.exact ? "expected" : "points_now", ...(win ? ["p_win"] : [])]) {
        const th = document.createElement("th");
        th.scope = "col";
        if (key === "p_win") th.className = "p-win";
        th.textContent = t(key);
        hr.appendChild(th);
      }
      const tb = table.createTBody();
      const shown = app.hintAll ? opts : opts.slice(0, 5);
      for (const o of shown) {
        const tr = tb.insertRow();
        tr.dataset.action = o.action;
        if (o.best) tr.className = "best";
        const td = tr.insertCell();
        const b = document.createElement("button");
        b.type = "button";
        b.className = "hint-act";
        b.textContent = actionLabel(o.action) + (o.best ? " ★" : "");
        b.disabled = !myTurn() || o.action === "enter";
        b.onclick = () => act(o.action);
        td.appendChild(b);
        const v = tr.insertCell();
        v.className = "num";
        v.dataset.value = m.exact && o.value !== null ? String(o.value) : "";
        v.textContent = hintValue(o, m);
        if (win) {
          const w = tr.insertCell();
          w.className = "num p-win";
          const pw = typeof o.p_win === "number" ? o.p_win : null;
          w.dataset.pWin = pw === null ? "" : String(pw);
          w.textContent = pw === null ? "…" : t("percent", { p: (100 * pw).toFixed(1) });
        }
      }
      out.appendChild(table);
      if (opts.length > 5) {
        const more = document.createElement("button");
        more.type = "button";
        more.id = "hint-more";
        more.className = "link";
        more.textContent = app.hintAll ? t("show_fewer") : t("show_all", { n: opts.length });
        more.setAttribute("aria-expanded", app.hintAll ? "true" : "false");
        more.onclick = () => { app.hintAll = !app.hintAll; renderHint(); };
        out.appendChild(more);
      }
    }
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = m.exact ? t("hint_exact") : t("hint_inexact");
    out.appendChild(note);
    if (win) {
      const wn = document.createElement("p");
      wn.className = "note win-note";
      wn.textContent = win === "ready" ? t("hint_win") : t("hint_win_preparing");
      out.appendChild(wn);
    }
  }

  // The dice the hint keeps (positions), held ones first.
  function adviseKeep() {
    const m = app.hint;
    if (!m || !m.suggest || !m.suggest.startsWith("keep") || !app.state || m.seq !== app.state.seq) return new Set();
    const want = m.suggest.split(" ").slice(1).map(Number);
    const free = new Set(app.arr.map((_, i) => i));
    const out = new Set();
    for (const v of want) {
      let i = [...app.held].find((j) => free.has(j) && app.arr[j] === v);
      if (i === undefined) i = [...free].find((j) => app.arr[j] === v);
      if (i !== undefined) { out.add(i); free.delete(i); }
    }
    return out;
  }

  function applyHint() {
    const m = app.hint;
    if (!m || !myTurn() || !m.suggest || m.suggest === "enter") return;
    if (m.suggest.startsWith("keep")) app.held = adviseKeep();
    act(m.suggest);
  }

  function showError(msg) { $("error").textContent = msg || ""; }

  function myTurn() {
    const s = app.state;
    return Boolean(s && !s.terminal && !s.pending && holds(s.current) && app.room && app.room.status !== "abandoned");
  }

  function render() {
    const s = app.state, room = app.room;
    if (!s || !room) return;
    $("room-label").textContent = room.code + " · " + room.rules.name + (room.private ? " · " + t("private") : "");
    document.body.dataset.myturn = myTurn() ? "1" : "0";
    document.body.dataset.terminal = s.terminal ? "1" : "0";
    document.body.dataset.seq = String(s.seq);
    document.body.dataset.seats = mySeats().sort((a, b) => a - b).join(",");
    const free = room.seats.some((x) => !x.claimed);
    const mine = mySeats();
    $("seat-panel").hidden = s.terminal || (mine.length > 0 && !free);
    $("take-seat-form").hidden = !free;
    $("seat-panel-text").textContent = mine.length ? t("add_local") : t("watching");
    $("take-seat").textContent = mine.length ? t("take_another") : t("take_seat");
    const link = location.origin + "/r/" + room.code;
    $("share").textContent = t("share") + ": " + link;
    $("commitment").textContent = room.commitment || "—";
    const contributed = localStorage.getItem("pasch:contribution:" + room.code);
    const included = contributed && room.contributions && room.contributions.includes(contributed);
    $("contribution-line").hidden = !included;
    $("contribution").textContent = included ? contributed : "";
    // Status line: whose turn.
    const st = $("status");
    if (room.status === "abandoned") {
      st.textContent = t("abandoned");
    } else if (s.terminal) {
      st.textContent = t("game_over") + " " + overLine(s);
    } else {
      const name = s.players[s.current];
      const who = myTurn() ? (mine.length > 1 ? t("your_turn_name", { name }) : t("your_turn")) : t("turn_of", { name });
      st.textContent = who + " · " + t("round", { n: s.round }) +
        (s.kind === "sheet" && s.announced !== null && s.announced !== undefined
          ? " · " + t("announced_box", { box: boxName(room.rules.boxes[s.announced].id) }) : "");
    }
    st.classList.toggle("mine", myTurn());
    $("hint-panel").hidden = !room.hints || !mine.length || s.terminal;
    $("hint").disabled = !myTurn();
    // A finished game stays finished: no dice, no controls, only the result.
    $("dice-area").hidden = Boolean(s.terminal);
    if (s.kind === "sheet") renderSheetGame(s, room); else renderKnaster(s);
    renderHint();
    markAdvice();
    renderMoves();
    $("over").hidden = !s.terminal;
    if (s.terminal) renderOver(s, room);
  }

  // The hint on the board: the dice to keep outlined, the best box or cell starred.
  function markAdvice() {
    const m = app.hint;
    document.querySelectorAll(".advised").forEach((el) => el.classList.remove("advised"));
    if (!m || !app.state || m.seq !== app.state.seq || !myTurn()) return;
    const keep = adviseKeep();
    document.querySelectorAll("#dice .die").forEach((b) => {
      if (keep.has(Number(b.dataset.index))) b.classList.add("advised");
    });
    document.querySelectorAll("#sheet-wrap [data-action], #announce [data-action], #knaster-actions [data-action]").forEach((b) => {
      if (b.dataset.action === m.suggest) {
        b.classList.add("advised");
        if (!b.textContent.includes("★")) b.textContent = "★ " + b.textContent;
      }
    });
  }

  function overLine(s) {
    const sum = app.summary && app.summaryFor === app.code ? app.summary : null;
    if (s.players.length === 1) return t("final_score", { n: s.totals[0] });
    const names = s.outcome.winners.join(", ");
    if (sum) return sum.tie ? t("tie", { names }) : t("winner", { names });
    return s.outcome.winners.length > 1 ? t("tie", { names }) : t("winner", { names });
  }

  function renderDice(s) {
    const box = $("dice");
    box.innerHTML = "";
    const dice = app.arr.length ? app.arr : (s.dice || []);
    const n = room().rules.dice;
    const animate = motion && app.rolling.size > 0;
    // The places the last throw filled (kept for tests and assistive checks; the animation is only visual).
    if (app.rolling.size) box.dataset.rolled = [...app.rolling].sort((a, b) => a - b).join(",");
    for (let i = 0; i < n; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "die";
      const v = dice[i];
      if (v === undefined) { b.textContent = "·"; b.classList.add("blank"); b.disabled = true; }
      else {
        b.textContent = v <= 6 ? FACES[v] : String(v);
        b.dataset.value = String(v);
        b.setAttribute("aria-pressed", app.held.has(i) ? "true" : "false");
        b.setAttribute("aria-label", t("die", { i: i + 1, v }) + (app.held.has(i) ? ", " + t("held") : ""));
        b.disabled = !(myTurn() && s.can_keep);
        b.onclick = () => toggleHold(i);
        if (animate && app.rolling.has(i)) b.classList.add("rolling");
      }
      b.dataset.index = String(i);
      box.appendChild(b);
    }
    app.rolling = new Set();  // once: a later render (a seats frame, a hint) does not roll them again
    if (animate) {
      setTimeout(() => box.querySelectorAll(".rolling").forEach((d) => d.classList.remove("rolling")), 700);
    }
    $("dice-live").textContent = dice.length ? t("dice_now", { d: dice.join(" ") }) : "";
  }

  function room() { return app.room; }

  function toggleHold(i) {
    const s = app.state;
    if (!myTurn() || !s.can_keep || !app.arr.length || i >= app.arr.length) return;
    if (app.held.has(i)) app.held.delete(i); else app.held.add(i);
    render();
  }

  function throwDice() {
    const s = app.state;
    if (!myTurn()) return;
    if (s.can_roll) return act("roll");
    if (s.can_keep && app.held.size < app.arr.length) {
      const kept = [...app.held].map((i) => app.arr[i]).sort((a, b) => a - b);
      act(("keep " + kept.join(" ")).trim());
    }
  }
  function boxName(id) {
    if (id === "yahtzee" && room().rules.id.startsWith("yatzy")) return "Yatzy";
    return t(id);
  }

  function renderSheetGame(s, room) {
    $("throw").hidden = false;
    $("knaster-actions").innerHTML = "";
    renderDice(s);
    const mine = myTurn();
    $("throw").hidden = s.keeper;
    $("throw").disabled = !(mine && app.sentAt !== s.seq && (s.can_roll || (s.can_keep && app.held.size < app.arr.length)));
    $("throws-left").textContent = s.keeper ? "" : t("throws_left", { n: s.throws_left });
    $("enter-form").hidden = !(s.keeper && mine && s.can_enter);
    $("enter-sharp").parentElement.hidden = false;
    const ann = $("announce");
    ann.innerHTML = "";
    if (mine) for (const a of s.announce) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = t("announce") + ": " + boxName(a.split(" ")[1]);
      b.dataset.action = a;
      b.onclick = () => act(a);
      ann.appendChild(b);
    }
    // kniffel-4: after an announcement the turn ends in the announced box or by crossing out (0) a box of
    // another column; say so, since those red zeros are otherwise a puzzle.
    const announcedTurn = s.announced !== null && s.announced !== undefined && !s.terminal;
    const annCol = room.rules.columns.indexOf("announced");
    $("announce-note").hidden = !(announcedTurn && mine && s.dice);
    if (announcedTurn) $("announce-note").textContent = t("announce_note", { box: boxName(room.rules.boxes[s.announced].id) });
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
      th.textContent = (holds(i) ? "• " : "") + p + (seat && !seat.online ? " (" + t("offline") + ")" : "");
      if (i === s.current && !s.terminal) th.className = "current";
      hr.appendChild(th);
    });
    if (ncol > 1) {
      const r2 = thead.insertRow();
      r2.appendChild(document.createElement("th"));
      s.players.forEach(() => rules.columns.forEach((c, k) => {
        const th = document.createElement("th");
        // Short marks keep many players' columns readable; the full name is the title.
        th.textContent = (k + 1) + " " + (c === "down" ? "↓" : c === "up" ? "↑" : t("order_" + c));
        th.title = t("column", { n: k + 1 }) + " " + t("order_" + c);
        th.scope = "col";
        r2.appendChild(th);
      }));
    }
    const tb = table.createTBody();
    const optionButtons = [];
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
    const boxRow = (box, bi) => {
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
          if (v === 0) { td.classList.add("crossed"); td.title = t("crossed_out"); }
        } else if (o && mine) {
          const b = document.createElement("button");
          b.type = "button";
          const cross = announcedTurn && annCol >= 0 && c !== annCol;
          b.className = "opt" + (o.points === 0 ? " zero" : "") + (cross ? " cross" : "");
          if (cross) b.title = t("cross_out_title");
          b.textContent = String(o.points);
          b.dataset.action = o.action;
          b.setAttribute("aria-label", boxName(box.id) + (ncol > 1 ? " " + t("column", { n: c + 1 }) : "") + ": " + o.points);
          b.onclick = once(() => act(o.action));
          optionButtons.push(b);
          td.appendChild(b);
        } else if (o) {
          td.textContent = "(" + o.points + ")";
          td.className = "small";
        }
      }));
    };
    const sumRows = {
      upper_sum: () => addSumRow(t("upper"), (td, col) => { td.textContent = col.upper; }),
      bonus: () => addSumRow(t("bonus"), (td, col) => {
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
      }),
      extra: () => addSumRow(t("extra"), (td, col) => { td.textContent = col.extra || ""; }),
      total: () => addSumRow(t("total"), (td, col) => { td.textContent = col.total; }),
      grand_total: () => {
        const tr = tb.insertRow();
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = t("total");
        tr.appendChild(th);
        s.players.forEach((_, p) => { const td = tr.insertCell(); td.colSpan = ncol; td.className = "sum"; td.textContent = s.totals[p]; });
      },
    };
    // The rows and their order are the server's (pasch.app.sheet_rows, in rules.rows): the page adds none.
    rules.rows.forEach((row) => (row.kind === "box" ? boxRow(rules.boxes[row.box], row.box) : sumRows[row.kind]()));
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
    $("throw").disabled = !(myTurn() && s.can_roll && app.sentAt !== s.seq);
    // Score keeper: after "roll" the thrower enters the two dice that fell at the table ("throw A B").
    const tableDice = s.keeper && s.pending > 0 && !s.terminal && holds(s.current);
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
      cap.textContent = (holds(p) ? "• " : "") + s.players[p] + ": " + s.totals[p] +
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
          const action = p === s.current && holds(p) ? byCell[name] : undefined;
          if (action) {
            const b = document.createElement("button");
            b.type = "button";
            b.className = "kcell opt" + (action.startsWith("circle") ? " circle" : " write");
            b.dataset.action = action;
            b.textContent = num || "·";
            b.setAttribute("aria-label", actionLabel(action));
            b.onclick = once(() => act(action));
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

  // -- the end of the game -----------------------------------------------------------------------------
  async function loadSummary() {
    if (app.summaryFor === app.code || app.summaryLoading) return;
    app.summaryLoading = true;
    try {
      const res = await fetch("/api/rooms/" + app.code + "/summary");
      if (res.ok) { app.summary = await res.json(); app.summaryFor = app.code; render(); }
      else app.summaryTries = (app.summaryTries || 0) + 1;
    } catch (e) { app.summaryTries = (app.summaryTries || 0) + 1; }
    app.summaryLoading = false;
    // The totals show meanwhile; a failed request (a server restart, a busy database) is asked again.
    if (app.summaryFor !== app.code && (app.summaryTries || 0) < 5) setTimeout(loadSummary, 2000);
  }

  function fmt(x) { return (x > 0 ? "+" : x < 0 ? "−" : "±") + Math.abs(x).toFixed(1); }

  function renderOver(s, room) {
    const sum = app.summaryFor === app.code ? app.summary : null;
    $("over-title").textContent = overLine(s);
    $("seed").textContent = room.seed || "…";
    $("log-link").href = "/api/rooms/" + room.code + "/log";
    $("log-link").setAttribute("download", "pasch-" + room.code + ".json");
    $("rematch").hidden = !mySeats().length && !room.rematch_code;
    $("rematch").textContent = room.rematch_code ? t("rematch") + " → " + room.rematch_code : t("rematch");
    const wrap = $("over-table");
    wrap.innerHTML = "";
    const rs = $("review-summary");
    rs.innerHTML = "";
    if (!sum) {
      $("over-text").textContent = s.players.map((p, i) => p + ": " + s.totals[i]).join(" · ");
      $("review-toggle").hidden = true;
      rs.textContent = room.rules.kind === "sheet" && room.rules.columns.length === 1 ? t("reviewing") : "";
      return;
    }
    $("over-text").textContent = "";
    // The ranking: each player's sections (sheet games) and total, best first.
    const sheet = sum.players.length && sum.players[0].upper !== null;
    const table = document.createElement("table");
    table.className = "sheet standings";
    const cols = sheet
      ? ["rank", "player", "upper", ...(room.rules.bonus_threshold ? ["bonus"] : []), "lower", "extra", "total"]
      : ["rank", "player", "total"];
    const hr = table.createTHead().insertRow();
    for (const c of cols) { const th = document.createElement("th"); th.scope = "col"; th.textContent = t("col_" + c); hr.appendChild(th); }
    const tb = table.createTBody();
    for (const p of sum.players) {
      const tr = tb.insertRow();
      tr.dataset.seat = String(p.seat);
      if (holds(p.seat)) tr.className = "me";
      for (const c of cols) {
        const td = tr.insertCell();
        if (c === "rank") td.textContent = sum.solo ? "—" : p.rank + ".";
        else if (c === "player") {
          td.textContent = p.name;
          const notes = [];
          if (p.personal_best) notes.push(t("personal_best"));
          else if (p.best_before !== null) notes.push(t("best_before", { n: p.best_before }));
          if (p.average_before !== null) notes.push(t("average_before", { n: p.average_before, g: p.games_before }));
          if (notes.length) {
            const span = document.createElement("span");
            span.className = "small history";
            span.textContent = " " + notes.join(" · ");
            td.appendChild(span);
          }
        } else {
          td.textContent = String(p[c]);
          if (c === "total") td.className = "sum";
        }
      }
    }
    wrap.appendChild(table);
    // "Your play vs optimal": expected points lost, luck, best decisions (single-column rule sets).
    const rev = sum.review;
    $("review-toggle").hidden = !rev;
    if (!rev) {
      if (room.rules.kind !== "sheet" || room.rules.columns.length > 1) rs.textContent = t("no_review");
      return;
    }
    const mine = rev.players.filter((p) => holds(p.seat));
    for (const p of (mine.length ? mine : rev.players)) {
      const para = document.createElement("p");
      para.className = "vs-optimal";
      para.dataset.seat = String(p.seat);
      para.textContent = t("vs_optimal", {
        name: p.name, lost: p.lost.toFixed(1), luck: fmt(p.luck === null ? 0 : p.luck),
        acc: p.accuracy === null ? "—" : Math.round(100 * p.accuracy) + "%",
      });
      rs.appendChild(para);
    }
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = t("vs_optimal_note", { e: rev.expected_start.toFixed(1) });
    rs.appendChild(note);
    renderReview(rev, s);
  }

  // The move-by-move review: every decision, what was played, what was best and what it cost.
  function renderReview(rev, s) {
    const box = $("review");
    box.innerHTML = "";
    const table = document.createElement("table");
    table.className = "sheet review";
    const hr = table.createTHead().insertRow();
    const many = s.players.length > 1;
    const cols = [...(many ? ["player"] : []), "turn", "dice", "played", "best_move", "loss"];
    for (const c of cols) { const th = document.createElement("th"); th.scope = "col"; th.textContent = t("col_" + c); hr.appendChild(th); }
    const tb = table.createTBody();
    const playersPerTurn = s.players.length;
    for (const d of rev.decisions) {
      const tr = tb.insertRow();
      tr.className = d.loss >= 0.005 ? (d.loss >= 3 ? "mistake big" : "mistake") : "good";
      const cells = {
        player: s.players[d.player], turn: String(Math.floor(d.turn / playersPerTurn) + 1),
        dice: d.dice.join(" ") + " (" + d.throws_left + ")",
        played: actionLabel(d.played), best_move: d.loss >= 0.005 ? actionLabel(d.best) : "✓",
        loss: d.loss >= 0.005 ? "−" + d.loss.toFixed(1) : "",
      };
      for (const c of cols) { const td = tr.insertCell(); td.textContent = cells[c]; if (c === "loss") td.className = "num"; }
    }
    box.appendChild(table);
  }
  $("review-toggle").onclick = () => {
    const open = $("review").hidden;
    $("review").hidden = !open;
    $("review-toggle").textContent = open ? t("review_close") : t("review_open");
    $("review-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  };

  // The second click of a double click (detail 2) and auto-repeated keys are not new decisions: they may
  // arrive after the first one moved the game on, where the position check cannot tell them apart.
  function once(fn) { return (ev) => { if (ev && ev.detail > 1) return; fn(); }; }
  $("throw").onclick = once(throwDice);
  $("hint").onclick = askHint;
  $("apply-hint").onclick = once(applyHint);
  $("take-seat").onclick = async () => {
    const name = $("join-name").value.trim();
    const body = name ? { name } : {};
    if (name) localStorage.setItem("pasch:name", name);
    const { ok, data } = await postJSON("/api/rooms/" + app.code + "/join", body);
    if (!ok) return showError(detail(data));
    app.tokens[data.seat] = data.token;
    saveTokens(app.code, app.tokens);
    $("join-name").value = "";
    joinSeats();
  };

  // Rematch: every seat this device holds follows to the new room with its own token (each player's page
  // does the same when the rematch frame arrives), so nobody lands there as a spectator.
  async function followRematch() {
    if (app.following) return;
    app.following = true;
    const tokens = {};
    let code = app.room.rematch_code;
    for (const [seat, tok] of Object.entries(app.tokens)) {
      const { ok, data } = await postJSON("/api/rooms/" + app.code + "/rematch", { token: tok });
      if (!ok) { app.following = false; return showError(detail(data)); }
      code = data.code;
      tokens[data.seat !== null && data.seat !== undefined ? data.seat : seat] = data.token || tok;
    }
    if (!code) { app.following = false; return; }
    saveTokens(code, tokens);
    location.assign("/r/" + code);
  }
  $("rematch").onclick = () => {
    if (!mySeats().length) { if (app.room.rematch_code) location.assign("/r/" + app.room.rematch_code); return; }
    followRematch();
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
    if (ev.repeat && !/^(Arrow|[jk]$)/.test(ev.key)) { ev.preventDefault(); return; }  // a held key acts once
    if (/^[1-9]$/.test(ev.key)) { toggleHold(Number(ev.key) - 1); ev.preventDefault(); }
    else if (ev.key === " " || ev.key === "r") { throwDice(); ev.preventDefault(); }
    else if (ev.key === "ArrowDown" || ev.key === "j" || ev.key === "ArrowRight") { move(1); ev.preventDefault(); }
    else if (ev.key === "ArrowUp" || ev.key === "k" || ev.key === "ArrowLeft") { move(-1); ev.preventDefault(); }
    else if (ev.key === "Enter" && btns[app.cursor] && myTurn()) { btns[app.cursor].click(); ev.preventDefault(); }
    else if (ev.key === "h" && app.room && app.room.hints) { askHint(); ev.preventDefault(); }
    else if (ev.key === "a" && app.hint) { applyHint(); ev.preventDefault(); }
  });

  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  translatePage();
  if (m) {
    app.code = m[1].toUpperCase();
    app.tokens = loadTokens(app.code);
    $("join-name").value = localStorage.getItem("pasch:name") || "";
    $("home").hidden = true;
    $("game").hidden = false;
    connect();
  } else {
    showHome();
  }
})();
