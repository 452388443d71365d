// Refbox control panel: keypad buttons, dice readings, tile placements, clock, free-form
// events, new game. Every POST carries the session's CSRF token (X-CSRF-Token).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const { S, el, fmt, name } = window.Refbox;
  const why = (a) => a.reason_text || a.reason;  // the refusal in the page's language when the API has it
  const CSRF = document.querySelector('meta[name="csrf-token"]').content;
  // "accepted: Roll {"dice":[5]}": the event's name in the page's language and its own fields
  // (not its type, source or time again), the same after a button press and for the camera
  const acceptedText = ({ type, source, t, ...fields }) => `${S.accepted}: ${name("actions", type)} ${JSON.stringify(fields)}`;
  let games = [];
  let currentGame = null;

  // POST a JSON body with the session's CSRF token: the response and its JSON (throws when either fails)
  async function send(url, body) {
    const r = await fetch(url, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
      body: body === undefined ? undefined : JSON.stringify(body) });
    return { r, a: await r.json() };
  }
  async function post(url, body) {
    $("answer").textContent = S.sent;
    let r, a;
    try {
      ({ r, a } = await send(url, body));
    } catch (err) {
      $("answer").textContent = `${S.refused}: ${err}`;
      $("answer").className = "answer refused";
      return null;
    }
    const ok = r.ok && a.accepted;
    $("answer").textContent = ok ? (a.event && a.event.type ? acceptedText(a.event) : S.accepted) : `${S.refused}: ${why(a)}`;
    $("answer").className = "answer " + (ok ? "accepted" : "refused");
    if (ok) loadGame();
    return a;
  }
  const say = (msg) => { $("answer").textContent = msg; $("answer").className = "answer refused"; };

  function parseDice(text) {
    const dice = text.split(/[\s,]+/).filter(Boolean).map(Number);
    return dice.length && dice.every((d) => Number.isInteger(d) && d >= 1 && d <= 6) ? dice : null;
  }
  function parseValue(s) {
    try { return JSON.parse(s); } catch (_) { /* not JSON: a list or a word */ }
    if (s.includes(",")) return s.split(",").filter(Boolean).map(parseValue);
    return s;
  }
  const LIST_FIELDS = ["dice", "tile", "keep", "kept", "held", "hold"];  // dice=5 means [5]
  function parseFields(text) {
    text = text.trim();
    if (!text) return {};
    if (text.startsWith("{")) {
      const o = JSON.parse(text);
      if (typeof o !== "object" || o === null || Array.isArray(o)) throw new Error(S.bad_fields);
      return o;
    }
    const out = {};
    for (const pair of text.split(/\s+/)) {
      const i = pair.indexOf("=");
      if (i < 1) throw new Error(S.bad_fields);
      const key = pair.slice(0, i);
      const value = parseValue(pair.slice(i + 1));
      out[key] = LIST_FIELDS.includes(key) && !Array.isArray(value) ? [value] : value;
    }
    return out;
  }

  async function loadGame() {
    const g = await (await fetch("/api/game")).json();
    const same = currentGame && currentGame.id === g.id && JSON.stringify(currentGame.legal) === JSON.stringify(g.legal);
    currentGame = g;
    if (same) return;
    $("buttons").replaceChildren(...g.buttons.map((n) => {
      const b = el("button", "key" + (n === "undo" ? " undo" : ""), name("actions", n));
      b.type = "button";
      b.dataset.button = n;
      b.onclick = () => post(`/api/press/${encodeURIComponent(n)}`);
      return b;
    }));
    const events = g.info.events;
    const chosen = $("event-type").value;
    $("event-type").replaceChildren(...events.map((t) => {
      const o = el("option", g.legal.includes(t) ? "legal" : "later", `${name("actions", t)} (${t})`);
      o.value = t;
      return o;
    }));
    if (events.includes(chosen)) $("event-type").value = chosen;
    else if (g.legal.length) $("event-type").value = g.legal[0];
    $("clock-panel").hidden = !events.includes("clock_set");
    $("tile-panel").hidden = g.info.family !== "dominoes";
    $("reading-panel").hidden = g.info.family === "dominoes" || g.info.family === "sports";
  }

  function optionInput(o) {
    const row = el("div", "row option");
    const id = "opt-" + o.name;
    const lab = el("label", "", o.name.replace(/_/g, " "));
    lab.htmlFor = id;
    let input;
    if (o.choices) {
      input = el("select");
      for (const c of o.choices) { const op = el("option", "", String(c)); op.value = JSON.stringify(c); input.append(op); }
      input.value = JSON.stringify(o.default);
    } else if (typeof o.default === "boolean") {
      input = el("input");
      input.type = "checkbox";
      input.checked = o.default;
    } else {
      input = el("input");
      input.type = typeof o.default === "number" ? "number" : "text";
      if (o.range) { input.min = o.range[0]; input.max = o.range[1]; }
      if (typeof o.default === "number" && !Number.isInteger(o.default)) input.step = "any";
      input.value = o.default;
    }
    input.id = id;
    input.dataset.option = o.name;
    input.dataset.default = JSON.stringify(o.default);
    row.append(lab, input, hint(o.help));
    return row;
  }
  // An option's help, its "[REC]" or "[REC house rule]" markers (RULES.md: a choice of ours where the
  // source text leaves the rule open) shown as a word the players read, explained when pointed at
  function hint(help) {
    const span = el("span", "hint");
    for (const [i, part] of (help || "").split(/(\[REC[^\]]*\])/).entries()) {
      if (i % 2 === 0) { if (part) span.append(part); continue; }
      const more = part.slice(4, -1).trim();
      const mark = el("abbr", "rec", more ? `${S.rec} · ${more}` : S.rec);
      mark.title = S.rec_explained;
      span.append(mark);
    }
    return span;
  }
  function showGameForm() {
    const g = games.find((x) => x.name === $("new-game").value);
    if (!g) return;
    const other = [g.title_en, g.native].filter((t) => t && t !== g.title);
    $("new-game-info").textContent = `${g.title}${other.length ? " — " + other.join(" / ") : ""} · ` +
      `${name("families", g.family)} · ${fmt(S.players_range, { min: g.players[0], max: g.players[1] })}`;
    $("new-options").replaceChildren(...g.options.map(optionInput));
  }
  async function loadGames() {
    games = await (await fetch("/api/games")).json();
    $("new-game").replaceChildren(...games.map((g) => { const o = el("option", "", `${g.title} (${g.name})`); o.value = g.name; return o; }));
    if (currentGame) {
      $("new-game").value = currentGame.header.game;
      $("new-players").value = currentGame.header.players.join(", ");
    }
    showGameForm();
  }

  $("new-game").addEventListener("change", showGameForm);
  $("new-game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const options = {};
    for (const input of $("new-options").querySelectorAll("[data-option]")) {
      let v;
      if (input.type === "checkbox") v = input.checked;
      else if (input.tagName === "SELECT") v = JSON.parse(input.value);
      else if (input.type === "number") v = Number(input.value);
      else v = input.value;
      if (JSON.stringify(v) !== input.dataset.default) options[input.dataset.option] = v;
    }
    const players = $("new-players").value.split(",").map((s) => s.trim()).filter(Boolean);
    post("/api/new-game", { game: $("new-game").value, players, options });
  });

  $("reading-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("reading-dice").value;
    const dice = parseDice(text);
    if (!dice) return say(text.includes("?") ? S.dice_in_doubt : S.bad_dice);
    post("/api/reading", { dice });
  });

  $("tile-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await fetch("/api/proposals?tile=" + encodeURIComponent($("tile-input").value.trim()));
    const a = await r.json();
    if (!r.ok) return say(`${S.refused}: ${why(a)}`);
    const box = $("proposals");
    if (!a.length) { box.replaceChildren(el("span", "hint", S.no_proposals)); return; }
    box.replaceChildren(...a.map((ev) => {
      const b = el("button", "proposal", `${S.confirm}: ${ev.tile.join("-")}${ev.end ? " → " + name("ends", ev.end) : ""}`);
      b.type = "button";
      b.onclick = () => { const { source, ...clean } = ev; post("/api/events", clean).then(() => box.replaceChildren()); };
      return b;
    }));
  });

  $("clock-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const m = $("clock-input").value.trim().match(/^(\d{1,3})(?::([0-5]?\d))?$/);
    if (!m) return say(S.bad_clock);
    const seconds = Number(m[1]) * (m[2] === undefined ? 1 : 60) + Number(m[2] || 0);
    post("/api/events", { type: "clock_set", [$("clock-kind").value]: seconds });
  });

  $("event-form").addEventListener("submit", (e) => {
    e.preventDefault();
    let fields;
    try { fields = parseFields($("event-fields").value); } catch (err) { return say(`${S.bad_fields} (${err.message})`); }
    post("/api/events", { ...fields, type: $("event-type").value });
  });

  // Ambiguous readings: while the view carries "proposals" (the events the camera's
  // reading could be, e.g. a domino tile that fits several open ends) each gets a
  // confirm button; the tile form above asks /api/proposals for a tile typed by hand.
  function showPending(v) {
    const list = Array.isArray(v.proposals) ? v.proposals.filter((p) => p && typeof p.type === "string") : [];
    $("pending-panel").hidden = !list.length;
    $("pending").replaceChildren(...list.map((ev) => {
      const { source, t, ...clean } = ev;
      const b = el("button", "proposal", `${S.confirm}: ${name("actions", ev.type)} ${JSON.stringify({ ...clean, type: undefined })}`);
      b.type = "button";
      b.onclick = () => post("/api/events", clean);
      return b;
    }));
  }

  // The camera (GET /api/camera, every 2 s): connected or lost, and the table's answer
  // to its newest reading, so a throw the game did not take is not a silent mystery.
  let inView = "";  // the dice in view while a die in doubt holds the throw, as the panel shows them ("5 ? 3?"); else empty
  // how long the camera takes to read a picture on this machine (a Pi reads slower), and when that is longer than
  // the interval pictures are asked for at
  const speed = (c) => (typeof c.read_ms !== "number" ? ""
    : "; " + fmt(c.read_ms > c.interval_ms ? S.camera_slow : S.camera_speed, { ms: Math.round(c.read_ms), interval: c.interval_ms }));
  async function showCamera() {
    let c;
    try { c = (await (await fetch("/api/camera", { credentials: "same-origin" })).json()).camera; } catch (_) { return; }
    $("camera-panel").hidden = !c;
    if (!c) { inView = ""; $("in-view-row").hidden = true; return; }
    // the network that reads the dice, when the table chose another than the standard one
    // the network is named when it is not the standard one (a camera told auto names it once it has chosen the other)
    const network = c.dice_network && !["standard", "auto", "auto (standard)"].includes(c.dice_network) ? "; " + fmt(S.camera_network, { network: c.dice_network }) : "";
    // the dice reader looks at whole pictures, slower, when a die lay where nothing differs from the table
    const whole = c.dice_parts === false ? "; " + S.camera_whole : "";
    // a picture the readers failed on: said until a picture is read again (the camera goes on)
    const state = c.last_error ? fmt(S.camera_lost, { reason: c.last_error })
      : c.reading_error ? fmt(S.camera_unreadable, { n: c.unreadable, reason: c.reading_error })
      : c.connected ? fmt(S.camera_connected, { n: c.readings }) : S.camera_opening;
    // why no reading comes when the settler is held: an unsure die or tile (cocked, or half hidden), a hand,
    // or dice lying in the tray since the table started (no throw: after a restart, the last roll)
    const held = { "a die is unsure (cocked?)": S.camera_cocked, "a tile is unsure": S.camera_tile_unsure, "hand in the picture": S.camera_hand,
      "at rest since the camera started: waiting for a throw": S.camera_wait_throw }[c.settling];
    // the dice of that picture while a die holds the throw (in_view is empty otherwise), the doubtful ones marked: which die to settle
    const holding = Boolean(held && c.connected && !c.last_error);
    inView = holding && c.in_view && c.in_view.length
      ? c.in_view.map((d) => (d.sure ? String(d.value) : (d.value === null ? "" : d.value) + "?")).join(" ") : "";
    $("in-view-row").hidden = !inView;
    // a camera nudged by a bump of the table: the settler put the picture back (vision.settle.CAMERA_NUDGED),
    // and moved the zones with it (zones_moved: how far in all since they were drawn)
    const nudged = (c.settling === "unchanged since the last answer but for a nudge of the camera" ? "; " + S.camera_nudged : "")
      + (c.zones_moved ? "; " + fmt(S.camera_zones_moved, { dx: c.zones_moved[0], dy: c.zones_moved[1] }) : "")
      + (c.zones_turned ? "; " + fmt(S.camera_zones_turned, { turn: c.zones_turned }) : "");
    $("camera-state").textContent = state + (c.paused ? "; " + S.camera_paused : "") + network + whole
      + (holding ? "; " + held + (inView ? "; " + fmt(S.camera_in_view, { dice: inView }) : "") : "") + nudged
      + (c.connected && !c.last_error ? speed(c) : "");
    $("camera-pause").textContent = c.paused ? S.camera_resume : S.camera_pause;
    $("camera-pause").setAttribute("aria-pressed", String(Boolean(c.paused)));
    const last = c.last;
    if (!last) { $("camera-last").textContent = ""; return; }
    const seen = last.kind === "tiles"
      ? last.seen.map((t) => (Array.isArray(t) ? t : t.tile).join("-")).join(" ")
      : last.seen.map((d) => (typeof d === "object" && d !== null ? d.value : d)).join(" ");
    const answer = last.accepted ? acceptedText(last.event) : why(last);
    $("camera-last").textContent = `${fmt(S.camera_last, { seen })} — ${answer}`;
    $("camera-last").className = "answer " + (last.accepted ? "accepted" : "refused");
  }
  showCamera();
  setInterval(showCamera, 2000);
  // The operator pauses the camera (its readings are shown, not sent; throws are entered by hand) and resumes it.
  $("camera-pause").addEventListener("click", async () => {
    await post("/api/camera/pause", { paused: $("camera-pause").getAttribute("aria-pressed") !== "true" });
    showCamera();
  });

  // The camera's last picture, the dice read in it boxed (GET /api/camera/picture), shown on asking
  // and fetched again every 2 s while shown: which die is in doubt, and what the camera sees.
  let picture = false;
  function showPicture() {
    const img = $("camera-picture");
    img.hidden = !picture;
    $("camera-panel").classList.toggle("wide", picture);  // (the picture as wide as the page: its dice legible)
    if (picture) img.src = "/api/camera/picture?t=" + Date.now();
  }
  $("camera-show").addEventListener("click", () => {
    picture = !picture;
    $("camera-show").textContent = picture ? S.camera_hide : S.camera_show;
    $("camera-show").setAttribute("aria-expanded", String(picture));
    $("zones-draw").hidden = !picture;
    if (!picture && drawing) toggleDrawing();
    showPicture();
  });

  // The calibration drawn on the picture (GET and POST /api/camera/zones): zones are polygons in the
  // picture's own pixels (its natural size, at most 960 wide), saved with that size, which scales them
  // to the camera's frames. The calibration the camera has is loaded to start from.
  let drawing = false;
  let zones = [];  // [{name, points: [[x, y], ...]}], ignored areas named "ignore"
  let points = [];  // the corners of the zone being drawn
  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function drawZones() {
    const img = $("camera-picture"), over = $("zones-overlay");
    over.setAttribute("viewBox", `0 0 ${img.naturalWidth || 960} ${img.naturalHeight || 540}`);
    over.setAttribute("preserveAspectRatio", "none");
    const pts = (list) => list.map((p) => p.join(",")).join(" ");
    const shapes = [];
    for (const z of zones) {
      shapes.push(svg("polygon", { points: pts(z.points), class: z.name === "ignore" ? "ignore" : "" }));
      shapes.push(svg("text", { x: Math.min(...z.points.map((p) => p[0])) + 6, y: Math.min(...z.points.map((p) => p[1])) + 24 }, z.name));
    }
    if (points.length) shapes.push(svg("polyline", { points: pts(points) }));
    for (const [x, y] of points) shapes.push(svg("circle", { cx: x, cy: y, r: 5 }));
    over.replaceChildren(...shapes);
    $("zones-list").textContent = (zones.length ? fmt(S.zones_drawn, { zones: zones.map((z) => z.name).join(", ") }) : S.zones_none)
      + (points.length ? "; " + fmt(S.zones_points, { n: points.length }) : "");
  }
  async function loadZones() {
    let z;
    try { z = await (await fetch("/api/camera/zones", { credentials: "same-origin" })).json(); } catch (_) { return; }
    const img = $("camera-picture");
    const c = z.calibration;
    zones = [];
    if (!c) return drawZones();
    const from = c.size || z.frame || [img.naturalWidth, img.naturalHeight];  // (without a size: the frame's pixels)
    const kx = (img.naturalWidth || 960) / from[0], ky = (img.naturalHeight || 540) / from[1];
    const scaled = (poly) => poly.map(([x, y]) => [Math.round(x * kx), Math.round(y * ky)]);
    for (const [name, poly] of Object.entries(c.zones || {})) zones.push({ name, points: scaled(poly) });
    for (const poly of c.ignore || []) zones.push({ name: "ignore", points: scaled(poly) });
    drawZones();
  }
  function toggleDrawing() {
    drawing = !drawing;
    $("zones-editor").hidden = !drawing;
    $("zones-overlay").toggleAttribute("hidden", !drawing);  // (an svg element has no hidden property)
    $("camera-panel").classList.toggle("drawing", drawing);
    $("zones-draw").textContent = drawing ? S.zones_stop : S.zones_draw;
    $("zones-draw").setAttribute("aria-expanded", String(drawing));
    points = [];
    $("zones-answer").textContent = "";
    if (!$("zone-name").value) $("zone-name").value = "kept";  // (a zone name is a calibration's key: not translated)
    if (drawing) loadZones();
  }
  $("zones-draw").addEventListener("click", toggleDrawing);
  function atPicture(e) {  // the picture's own pixels of a pointer event, whatever size it is shown at
    const img = $("camera-picture"), box = img.getBoundingClientRect();
    const x = Math.round((e.clientX - box.left) * img.naturalWidth / box.width), y = Math.round((e.clientY - box.top) * img.naturalHeight / box.height);
    return [Math.min(Math.max(x, 0), img.naturalWidth), Math.min(Math.max(y, 0), img.naturalHeight)];
  }
  // A corner of a closed zone is dragged where it belongs (a press within a few pixels of it); a click elsewhere
  // adds a corner to the zone being drawn.
  let dragged = null, moved = false;
  $("camera-picture").addEventListener("pointerdown", (e) => {
    if (!drawing) return;
    const [x, y] = atPicture(e), img = $("camera-picture");
    const reach = 12 * img.naturalWidth / img.getBoundingClientRect().width;  // (12 pixels on the screen)
    const near = zones.flatMap((z) => z.points).find(([px, py]) => Math.hypot(px - x, py - y) <= reach);
    if (!near) return;
    e.preventDefault();
    dragged = near;
    moved = false;
    img.setPointerCapture(e.pointerId);
  });
  $("camera-picture").addEventListener("pointermove", (e) => {
    if (!dragged) return;
    [dragged[0], dragged[1]] = atPicture(e);
    moved = true;
    drawZones();
  });
  for (const end of ["pointerup", "pointercancel"]) $("camera-picture").addEventListener(end, () => { dragged = null; });
  $("camera-picture").addEventListener("dragstart", (e) => { if (drawing) e.preventDefault(); });  // (no image drag)
  $("camera-picture-link").addEventListener("click", (e) => {
    if (!drawing) return;  // (else a click opens the picture whole)
    e.preventDefault();
    if (moved) { moved = false; return; }  // (the end of a corner's drag: no new corner)
    points.push(atPicture(e));
    drawZones();
  });
  const zonesSay = (msg, ok) => { $("zones-answer").textContent = msg; $("zones-answer").className = "answer " + (ok ? "accepted" : "refused"); };
  $("zone-close").addEventListener("click", () => {
    const name = $("zone-name").value.trim();
    if (!name) return zonesSay(S.zones_no_name, false);
    if (points.length < 3) return zonesSay(S.zones_too_few, false);
    if (name !== "ignore") zones = zones.filter((z) => z.name !== name);  // (a zone drawn again replaces it)
    zones.push({ name, points });
    points = [];
    zonesSay("", true);
    drawZones();
  });
  $("zone-undo").addEventListener("click", () => { points.pop(); drawZones(); });
  $("zones-clear").addEventListener("click", () => { zones = []; points = []; drawZones(); });
  $("zones-save").addEventListener("click", async () => {
    const img = $("camera-picture");
    const body = { size: [img.naturalWidth, img.naturalHeight], zones: {} };
    const ignore = [];
    for (const z of zones) {
      if (z.name === "ignore") ignore.push(z.points);
      else body.zones[z.name] = z.points;
    }
    if (ignore.length) body.ignore = ignore;
    let r, a;
    try {
      ({ r, a } = await send("/api/camera/zones", body));
    } catch (err) { return zonesSay(`${S.refused}: ${err}`, false); }
    if (r.ok && a.accepted) { zonesSay(fmt(a.calibration ? S.zones_saved : S.zones_removed, { file: a.file }), true); showPicture(); }
    else zonesSay(`${S.refused}: ${why(a)}`, false);
  });
  setInterval(() => { if (picture && !$("camera-panel").hidden) showPicture(); }, 2000);

  // A throw the camera holds for a die in doubt is entered by hand from the dice in view:
  // the sure ones as read, each doubtful one as its reading and a ? (or a ? alone), the first
  // ? selected, so that only the dice in doubt are typed (a ? left in is refused, saying so).
  $("reading-from-view").addEventListener("click", () => {
    const input = $("reading-dice");
    input.value = inView;
    input.focus();
    const at = inView.search(/\S*\?/);
    if (at >= 0) input.setSelectionRange(at, inView.indexOf("?", at) + 1);
  });

  // the buttons and the event types follow the game (a new game changes them)
  let shownGame = null;
  window.Refbox.onView((v) => {
    if (v.game !== shownGame) { shownGame = v.game; loadGame(); }
    showPending(v);
    if (v.dice && Array.isArray(v.dice) && !$("reading-dice").matches(":focus")) $("reading-dice").placeholder = v.dice.join(" ") || $("reading-dice").placeholder;
  });
  loadGame().then(loadGames);
})();
