// Refbox live board: renders any game's view, follows the server-sent event stream,
// reconnects by itself and catches up (journal history + current view).
// User-facing words come from the page's #strings block (translated on the server).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const S = JSON.parse($("strings").textContent);
  const fmt = (s, args) => s.replace(/\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : ""));
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return e;
  }
  const label = (key) => (S.fields && S.fields[key]) || key.replace(/_/g, " ");
  // names that live as data (games, periods, view values, buttons), in the page's language
  const name = (table, key) => (S[table] && typeof key === "string" && S[table][key]) || key;
  // view and event fields whose values are words of a known set: the table that names them
  const VALUE_TABLES = { phase: "values", stage: "values", result: "values", ball_in_hand: "values", team: "values",
    color: "colours", ball: "actions", end: "ends", kind: "actions", option: "actions" };
  const value = (x, key) => name(VALUE_TABLES[key] || "values", x);
  const shown = (k, x) => (typeof x === "string" && k in VALUE_TABLES ? value(x, k) : text(x));
  function signalText(s) {
    const m = /^(\d+)th foul$/.exec(s.what || "");
    const what = m ? fmt(S.nth_foul, { n: m[1] }) : s.what === "10 m kick" ? S.ten_m_kick : name("actions", s.what);
    return [what, value(s.team)].filter(Boolean).join(" · ");
  }
  const isDice = (a) => Array.isArray(a) && a.length > 0 && a.every((d) => Number.isInteger(d) && d >= 1 && d <= 6);
  const isTile = (t) => Array.isArray(t) && t.length === 2 && t.every((d) => Number.isInteger(d) && d >= 0 && d <= 6);
  const mmss = (s) => { s = Math.max(0, Math.ceil(Number(s))); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };

  // --- dice and tiles as pictures ---------------------------------------------------
  const PIPS = { 0: [], 1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[25, 25], [50, 50], [75, 75]],
    4: [[27, 27], [73, 27], [27, 73], [73, 73]], 5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
    6: [[27, 24], [73, 24], [27, 50], [73, 50], [27, 76], [73, 76]] };

  function pips(g, v, dx, dy) {
    for (const [x, y] of PIPS[v] || []) g.append(svg("circle", { cx: x + dx, cy: y + dy, r: 9, class: "pip" }));
  }
  function die(v, size) {
    const s = svg("svg", { viewBox: "0 0 100 100", class: "die" + (size ? " " + size : ""), role: "img", "aria-label": fmt(S.die, { v }) });
    s.append(svg("rect", { x: 3, y: 3, width: 94, height: 94, rx: 16, class: "face" }));
    pips(s, v, 0, 0);
    return s;
  }
  function tile(t, vertical) {
    const [a, b] = t;
    const s = svg("svg", { viewBox: vertical ? "0 0 100 200" : "0 0 200 100", class: "tile" + (vertical ? " vertical" : ""),
      role: "img", "aria-label": fmt(S.tile, { a, b }) });
    s.append(svg("rect", { x: 2, y: 2, width: vertical ? 96 : 196, height: vertical ? 196 : 96, rx: 12, class: "face" }));
    s.append(svg("line", vertical ? { x1: 12, y1: 100, x2: 88, y2: 100, class: "bar" } : { x1: 100, y1: 12, x2: 100, y2: 88, class: "bar" }));
    pips(s, a, 0, 0);
    pips(s, b, vertical ? 0 : 100, vertical ? 100 : 0);
    return s;
  }
  const diceRow = (values, size) => values.map((v) => die(v, size));

  // --- generic values --------------------------------------------------------------
  function text(v) {
    if (v === true) return "✓";
    if (v === false || v === null || v === undefined) return "";
    if (Array.isArray(v)) return v.map(text).filter(Boolean).join(", ");
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${label(k)} ${text(x)}`).join(" · ");
    return String(v);
  }
  function fact(key, x) {
    const f = el("div", "fact");
    f.dataset.key = key;
    f.append(el("span", "label", label(key)));
    const val = el("span", "value");
    if (isDice(x)) val.append(...diceRow(x, "small"));
    else val.textContent = shown(key, x);
    f.append(val);
    return f;
  }

  // --- sports: home and away ---------------------------------------------------------
  function team(box, t, side) {
    box.replaceChildren();
    box.append(el("div", "name", t.name), el("div", "score", t.score));
    const facts = el("div", "team-facts");
    if (t.fouls !== undefined) {
      const f = el("div", "fouls");
      f.append(el("span", "label", S.fouls), el("span", "value", t.fouls));
      const dots = el("span", "dots");
      for (let i = 1; i <= Math.max(5, t.fouls); i++) dots.append(el("span", "dot" + (i <= t.fouls ? " on" : "") + (i >= 5 ? " warn" : "")));
      f.append(dots);
      facts.append(f);
    }
    if (t.timeouts_left !== undefined) {
      const f = fact("timeouts_left", t.timeouts_left);
      f.firstChild.textContent = S.timeouts;
      facts.append(f);
    }
    if (t.yellow_cards || t.red_cards) {
      const c = el("div", "cards");
      for (let i = 0; i < (t.yellow_cards || 0); i++) c.append(el("span", "card yellow", ""));
      for (let i = 0; i < (t.red_cards || 0); i++) c.append(el("span", "card red", ""));
      c.title = `${S.yellow} ${t.yellow_cards || 0} · ${S.red} ${t.red_cards || 0}`;
      facts.append(c);
    }
    if (Array.isArray(t.penalties) && t.penalties.length) {
      const p = el("div", "penalties");
      p.append(el("span", "label", S.send_off));
      for (const s of t.penalties) p.append(el("span", "penalty", mmss(s)));
      facts.append(p);
    }
    if (t.tenth_foul_kick) facts.append(el("div", "alert", S.tenth_foul_kick));
    if (Array.isArray(t.kicks) && t.kicks.length) {
      const k = el("div", "kicks");
      k.append(el("span", "label", S.kicks));
      for (const ok of t.kicks) k.append(el("span", "kick" + (ok ? " in" : " out"), ok ? "●" : "○"));
      k.append(el("span", "value", t.kicks_scored ?? ""));
      facts.append(k);
    }
    box.append(facts);
    box.classList.toggle("winner", false);
    return box;
  }

  const SKIP = new Set(["game", "players", "turn", "winner", "events", "table_events", "over", "dice", "home", "away",
    "clock", "clock_seconds", "clock_running", "period", "timeout", "shot_clock", "shot_clock_running", "horn",
    "horn_pattern", "horn_count", "signal", "turn_total", "controls", "layout", "line", "arms", "open_ends",
    "ends_terms", "spinner", "colours", "frames_played", "abandoned", "draw", "last", "camera_hold"]);
  const MORE_DICE = ["rolls", "held", "set_aside", "pending", "revealed", "must_keep", "kept"];

  let current = null;
  function render(v) {
    current = v;
    document.body.dataset.game = v.game || "";
    $("game-title").textContent = name("games", v.game) || "";
    const raw = $("raw");
    if (raw) raw.textContent = JSON.stringify(v, null, 2);
    const sport = v.home && v.away && typeof v.home === "object";
    $("sport").hidden = !sport;
    if (sport) {
      team($("home"), v.home, "home");
      team($("away"), v.away, "away");
      $("period").textContent = name("periods", v.period) || "";
      const clock = $("clock");
      clock.textContent = v.clock || "";
      clock.classList.toggle("stopped", !v.clock_running);
      clock.title = v.clock_running ? "" : S.stopped;
      $("shot").hidden = v.shot_clock === null || v.shot_clock === undefined;
      $("shot-value").textContent = v.shot_clock ?? "";
      $("timeout").hidden = !v.timeout;
      $("timeout").textContent = v.timeout ? `${S.timeout} ${value(v.timeout.team)} ${mmss(v.timeout.seconds)}` : "";
      $("signal").hidden = !v.signal;
      $("signal").textContent = v.signal ? signalText(v.signal) : "";
    }
    // players (not for sports, where players are the two team names)
    const players = $("players");
    players.replaceChildren();
    if (!sport && Array.isArray(v.players)) {
      for (const p of v.players) {
        const name = typeof p === "object" && p !== null ? p.name : p;
        const card = el("div", "player" + (name === v.turn ? " active" : "") + (name === v.winner ? " won" : ""));
        card.append(el("div", "name", name));
        if (typeof p === "object" && p !== null) {
          const main = ["score", "stakes", "balance"].find((k) => typeof p[k] === "number");
          if (main) card.append(el("div", "score", p[main]));
          const extra = el("div", "extra");
          for (const [k, x] of Object.entries(p)) {
            if (k === "name" || k === main || x === null || x === false || (Array.isArray(x) && !x.length)) continue;
            extra.append(fact(k, x));
          }
          if (extra.childElementCount) card.append(extra);
        }
        players.append(card);
      }
    }
    // whose turn, turn total
    const turn = $("turn");
    turn.replaceChildren();
    if (v.turn) {
      turn.append(el("span", "who", fmt(S.to_play, { name: v.turn })));
      if (typeof v.turn_total === "number") {
        const tt = el("span", "turn-total");
        tt.append(el("span", "label", S.turn_total), el("span", "value", v.turn_total));
        turn.append(tt);
      }
    }
    // what holds the camera's reading (the table's camera_hold): the players are to settle the die or enter the throw
    // (a lost camera: enter the throws until it is back)
    const hold = $("camera-hold");
    const held = { die: S.hold_die, tile: S.hold_tile, lost: S.hold_lost, paused: S.hold_paused }[v.camera_hold];
    hold.hidden = !held;
    hold.textContent = held || "";
    // the dice just read
    $("dice").replaceChildren(...(isDice(v.dice) ? diceRow(v.dice, "big") : []));
    const more = $("more-dice");
    more.replaceChildren();
    for (const k of MORE_DICE) if (isDice(v[k])) more.append(fact(k, v[k]));
    // dominoes: the line of play and the spinner's arms
    const tiles = $("tiles");
    tiles.replaceChildren();
    if (Array.isArray(v.line) && v.line.some(isTile)) {
      const row = el("div", "tile-row line");
      row.append(...v.line.filter(isTile).map((t) => tile(t, t[0] === t[1])));
      tiles.append(row);
      for (const [arm, list] of Object.entries(v.arms || {})) {
        if (!Array.isArray(list) || !list.length) continue;
        const r = el("div", "tile-row arm");
        r.append(el("span", "label", label(arm)), ...list.filter(isTile).map((t) => tile(t, false)));
        tiles.append(r);
      }
    }
    // everything else the view says, generically
    const facts = $("facts");
    facts.replaceChildren();
    const last = Array.isArray(v.last) ? v.last.join(" · ") : v.last;
    if (last) facts.append(el("div", "message", last));
    for (const [k, x] of Object.entries(v)) {
      if (SKIP.has(k) || MORE_DICE.includes(k) || x === null || x === false || x === "" ||
          (Array.isArray(x) && !x.length) || (typeof x === "object" && !Array.isArray(x) && !Object.keys(x).length)) continue;
      if (sport && !["added_time", "stage", "result"].includes(k)) continue;
      if (k === "stage" && x === "regular") continue;
      facts.append(fact(k, x));
    }
    const w = $("winner");
    w.hidden = !v.winner;
    w.textContent = v.winner ? fmt(S.wins, { name: v.winner }) : "";
    for (const f of hooks) f(v);
  }

  // --- history ------------------------------------------------------------------------
  const MAX_HISTORY = 300;
  function historyLine(entry) {
    const e = entry.event || {};
    const li = el("li", "entry");
    li.dataset.seq = entry.seq;
    const at = new Date(entry.at * 1000);
    const when = el("time", "at", at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }));
    when.dateTime = at.toISOString();
    li.append(el("span", "seq", entry.seq), el("span", "type", name("actions", e.type || "")));
    const body = el("span", "body");
    for (const [k, x] of Object.entries(e)) {
      if (k === "type" || k === "t" || k === "source" || x === false || x === null) continue;
      if (isDice(x) && k === "dice") body.append(...diceRow(x, "tiny"));
      else if (isTile(x) && k === "tile") body.append(tile(x, false));
      else body.append(el("span", "kv", `${label(k)} ${shown(k, x)}`));
    }
    li.append(when);
    if (e.source) li.append(el("span", "source", name("sources", e.source)));
    li.append(body);
    return li;
  }
  let effective = [];  // entries not undone, oldest first: an undo takes back the last one
  function addHistory(msg) {
    const list = $("history-list");
    if (!list) return;
    if (msg.reset) { list.replaceChildren(); effective = []; }
    for (const entry of msg.events) {
      const li = historyLine(entry);
      if (entry.event && entry.event.type === "undo") {
        const undone = effective.pop();
        if (undone) undone.classList.add("undone");
      } else {
        effective.push(li);
      }
      list.prepend(li);
    }
    if (effective.length > 5000) effective = effective.slice(-5000);
    while (list.childElementCount > MAX_HISTORY) list.lastChild.remove();
    list.dataset.empty = list.childElementCount ? "" : S.no_history;
  }

  // --- device health --------------------------------------------------------------------
  function showHealth(h) {
    const faults = Object.entries(h || {}).filter(([, d]) => d && d.ok === false);
    const b = $("health");
    b.hidden = !faults.length;
    b.replaceChildren(...faults.map(([name, d]) => {
      const item = el("div", "fault");
      item.append(el("strong", "", `${S.fault}: ${name}`), el("span", "", d.detail ? ` — ${d.detail}` : ""));
      return item;
    }));
  }

  // --- the stream: reconnect by itself, never lose an event --------------------------
  let lastId = "";
  let es = null;
  let retryMs = 1000;
  function status(state) {
    const s = $("status");
    s.textContent = S[state];
    s.className = "status " + state;
    document.body.dataset.stream = state;
  }
  function connect() {
    if (es) es.close();
    es = new EventSource("/stream" + (lastId ? "?since=" + encodeURIComponent(lastId) : ""));
    es.addEventListener("open", () => { status("live"); retryMs = 1000; });
    const track = (e) => { if (e.lastEventId) lastId = e.lastEventId; };
    es.addEventListener("view", (e) => { track(e); render(JSON.parse(e.data)); });
    es.addEventListener("history", (e) => { track(e); addHistory(JSON.parse(e.data)); });
    es.addEventListener("health", (e) => { track(e); showHealth(JSON.parse(e.data)); });
    es.addEventListener("error", () => {
      status("reconnecting");
      // the browser retries by itself while it can; when it gives up (CLOSED), start again
      if (es.readyState === EventSource.CLOSED) {
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 10000);
      }
    });
  }

  const hooks = [];
  window.Refbox = { S, el, fmt, name, render, die, tile, onView: (f) => { hooks.push(f); if (current) f(current); },
                    get view() { return current; }, get lastId() { return lastId; } };
  const init = $("initial-view");
  if (init && init.textContent.trim()) render(JSON.parse(init.textContent));
  addHistory({ reset: true, events: [] });
  status("connecting");
  connect();
})();
