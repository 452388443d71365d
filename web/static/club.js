// Club dashboard: one tile per table, kept live by /club/stream (server-sent events).
"use strict";
const L = JSON.parse(document.getElementById("strings").textContent);  // words in the page's language
const named = (table, key) => (L[table] && L[table][key]) || key;
const tilesBox = document.getElementById("tiles");
const tables = new Map();

function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
function fmt(label, name) { return label.replace("{name}", name); }

function renderTile(t) {
  const s = t.summary || {};
  const online = t.status === "online";
  const tile = el("article", "tile " + (online ? "online" : "offline"));
  tile.dataset.table = t.table;
  tile.append(el("h2", "name", t.table), el("div", "state", online ? L.online : (t.status ? L.offline : L.unknown)));
  tile.append(el("div", "game", s.game ? named("games", s.game) : ""));
  if (s.clock) tile.append(el("div", "clock", s.clock), el("div", "period", s.period ? named("periods", s.period) : ""));
  const ul = el("ul", "scores");
  for (const p of s.scores || []) {
    const li = el("li");
    li.append(el("span", "who", p.name), document.createTextNode(" "), el("span", "pts", p.score === null || p.score === undefined ? "" : String(p.score)));
    ul.append(li);
  }
  tile.append(ul);
  if (s.winner) tile.append(el("div", "winner", fmt(L.wins, s.winner)));
  else if (s.turn) tile.append(el("div", "turn", fmt(L.to_play, s.turn)));
  if (Object.hasOwn(L.holds, s.hold || "")) tile.append(el("div", "hold", L.holds[s.hold]));
  return tile;
}

function draw() {
  const names = [...tables.keys()].sort();
  tilesBox.replaceChildren(...names.map((n) => renderTile(tables.get(n))));
  document.getElementById("empty").hidden = names.length > 0;
}

function broker(b) {
  const e = document.getElementById("broker");
  e.textContent = b.connected ? L.broker_up : L.broker_down;
  e.className = "broker " + (b.connected ? "up" : "down");
  e.title = b.detail || "";
}

function connect() {
  const es = new EventSource("/club/stream");
  es.addEventListener("tables", (e) => { tables.clear(); for (const t of JSON.parse(e.data)) tables.set(t.table, t); draw(); });
  es.addEventListener("table", (e) => { const t = JSON.parse(e.data); tables.set(t.table, t); draw(); });
  es.addEventListener("broker", (e) => broker(JSON.parse(e.data)));
  es.addEventListener("error", () => {
    const b = document.getElementById("broker"); b.textContent = L.stream_down; b.className = "broker down";
  });
}
connect();
