// Live mirror: render the view, follow the server-sent event stream, reconnect by itself.
"use strict";
const $ = (id) => document.getElementById(id);
const PIPS = { 1: [[50, 50]], 2: [[25, 25], [75, 75]], 3: [[25, 25], [50, 50], [75, 75]],
  4: [[25, 25], [75, 25], [25, 75], [75, 75]], 5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
  6: [[25, 25], [75, 25], [25, 50], [75, 50], [25, 75], [75, 75]] };

function dieSvg(v) {
  const pips = (PIPS[v] || []).map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9" fill="#111"/>`).join("");
  return `<svg class="die" viewBox="0 0 100 100" role="img" aria-label="die ${v}"><rect x="3" y="3" width="94" height="94" rx="16" fill="#f4f4f4"/>${pips}</svg>`;
}

function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }

function teamCard(side, t, active) {
  const card = el("div", "player " + side + (active ? " active" : ""));
  card.append(el("div", "name", t.name), el("div", "score", String(t.score)));
  const extra = [];
  if (t.fouls !== undefined) extra.push(`fouls ${t.fouls}`);
  if (t.timeouts_left !== undefined) extra.push(`timeouts ${t.timeouts_left}`);
  if (t.penalties && t.penalties.length) extra.push(`send-off ${t.penalties.map((s) => Math.ceil(s) + "s").join(" ")}`);
  if (extra.length) card.append(el("div", "extra", extra.join(" · ")));
  return card;
}

function render(v) {
  $("game").textContent = v.game;
  $("raw").textContent = JSON.stringify(v, null, 2);
  const hasClock = typeof v.clock === "string";
  $("clockbox").hidden = !hasClock;
  if (hasClock) { $("clock").textContent = v.clock; $("period").textContent = v.period || ""; }
  const scores = $("scores"); scores.replaceChildren();
  if (v.home && v.away) {
    scores.append(teamCard("home", v.home), teamCard("away", v.away));
  } else if (Array.isArray(v.players)) {
    for (const p of v.players) {
      if (typeof p === "object" && p !== null) scores.append(teamCard("", { name: p.name, score: p.score ?? "" }, p.name === v.turn));
    }
  }
  const turn = $("turnbox"); turn.replaceChildren();
  if (v.turn) turn.textContent = `${v.turn} to play` + (v.turn_total !== undefined ? ` · series ${v.turn_total}` : "");
  $("dice").innerHTML = (v.dice || []).map(dieSvg).join("");
  $("winner").hidden = !v.winner; $("winner").textContent = v.winner ? `${v.winner} wins` : "";
}

let last = 0;
function connect() {
  const es = new EventSource("/stream");
  es.addEventListener("open", () => { $("status").textContent = "live"; $("status").className = "status live"; });
  es.addEventListener("view", (e) => { const v = JSON.parse(e.data); last = Number(e.lastEventId) || last; render(v); });
  es.addEventListener("error", () => { $("status").textContent = "reconnecting…"; $("status").className = "status down"; });
}

async function send(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Refbox-Pin": $("pin").value }, body: body ? JSON.stringify(body) : undefined });
  const a = await r.json();
  $("answer").textContent = a.accepted ? `accepted: ${JSON.stringify(a.event)}` : `refused: ${a.reason}`;
}

async function loadButtons() {
  const names = await (await fetch("/api/buttons")).json();
  $("buttons").replaceChildren(...names.map((n) => { const b = el("button", "", n.replace(/_/g, " ")); b.dataset.button = n; b.onclick = () => send(`/api/press/${n}`); return b; }));
}

$("roll").addEventListener("submit", (e) => {
  e.preventDefault();
  const dice = $("dice-input").value.split(/[ ,]+/).filter(Boolean).map(Number);
  send("/api/events", { type: "roll", dice });
});

render(JSON.parse($("initial-view").textContent));
loadButtons();
connect();
