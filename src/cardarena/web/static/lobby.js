// The lobby: create a game (game, options, seats human or AI), hand out the invitation links, list the open
// and running listed games. Talks to the REST API of docs/web.md; every text from the server or a player is
// put in the page with textContent.

import {h, replace, getJSON, toast, savedName, saveName, copyText} from "./dom.js";
import {startAccountBar} from "./account.js";
import {isSignedIn, startMine} from "./mine.js";

const REFRESH_MS = 5000;
/** The strength labels offered, weakest first, when the catalogue names none (it does: its `strengths`). */
const DEFAULT_STRENGTHS = ["easy", "normal", "hard", "expert"];
/** A listed game's status in words. */
const STATUS_WORDS = {open: "waiting for players", running: "being played", finished: "finished", abandoned: "abandoned"};
const $ = (id) => document.getElementById(id);

const lobby = {games: [], strengths: {}, agentSpecs: false};

// ---------------------------------------------------------------------------------------------- catalogue

/** The catalogue: [{id, title, players: [min, max], options, strengths}] plus the generic strength labels; both shapes accepted:
 *  a bare list of games, or {games: [...], strengths: {easy: spec, ...}, agent_specs: bool} (agent specs are offered
 *  only where the server takes them: its operator's choice). */
async function loadCatalogue() {
  const data = await getJSON("/api/catalogue");
  lobby.games = Array.isArray(data) ? data : data.games || [];
  lobby.strengths = (!Array.isArray(data) && (data.strengths || data.strength_labels)) || {};
  lobby.agentSpecs = !Array.isArray(data) && data.agent_specs === true;
  replace($("game"), lobby.games.map((g) => h("option", {value: g.id}, g.title || g.id)));
  drawCatalogue();
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && lobby.games.some((g) => g.id === wanted)) $("game").value = wanted;
  onGameChange();
}

/** "2 players" or "2-4 players". */
function playersText(game) {
  const [min, max] = game.players || [2, 2];
  return min === max ? `${min} players` : `${min}-${max} players`;
}

/** The link to a game's page for the browser (docs/web.md, Browser pages). */
function rulesLink(game, label) {
  return h("a", {href: game.rules_page || `/rules/${encodeURIComponent(game.id)}`, target: "_blank", rel: "noopener", dataset: {rules: game.id}}, label);
}

/** Every game with its description, players, typical length and a link to how to play it. */
function drawCatalogue() {
  replace(
    $("catalogue"),
    lobby.games.map((g) =>
      h(
        "li",
        {dataset: {game: g.id}},
        h("h3", {}, g.title || g.id),
        g.description ? h("p", {class: "description"}, g.description) : null,
        h("p", {class: "muted facts"}, playersText(g), g.length ? ` · ${g.length}` : ""),
        h("button", {type: "button", class: "play-anyone", dataset: {anyone: g.id}, onclick: () => playAnyone(g)}, "Play anyone"),
        rulesLink(g, `How to play ${g.title || g.id}`),
      ),
    ),
  );
}

function currentGame() {
  return lobby.games.find((g) => g.id === $("game").value) || lobby.games[0];
}

function onGameChange() {
  const game = currentGame();
  if (!game) return;
  drawOptions(game.options || []);
  replace($("game-about"), game.description || "", " ", rulesLink(game, "How to play"));
  const [min, max] = game.players || [2, 2];
  const counts = [];
  for (let n = min; n <= max; n++) counts.push(n);
  replace($("seat-count"), counts.map((n) => h("option", {value: n}, `${n} players`)));
  drawSeats();
}

/** One form field per option, by its type: a choice list, a checkbox, a number or a text. Each has its label and
 *  help in a player's words (``label``, ``about``: players numbered from 1, no files; the option's name and the
 *  engine's ``help`` where a server sends none). An option that changes the AI's measured figures (Tash-Kalar's
 *  mode) redraws the seats' strength menus. */
function drawOptions(options) {
  const fields = options.map((o) => {
    const id = `opt-${o.name}`;
    const text = o.about || o.help;
    const help = text ? h("span", {class: "help"}, text) : null;
    const game = currentGame();
    const measured = game && game.strength_words_by && game.strength_words_by[o.name]; // the AI's figures follow it
    const attrs = {id, name: o.name, dataset: {option: o.name, type: o.type || "str"}, onchange: measured ? drawSeats : undefined};
    const label = o.label || o.name;
    if (o.choices && o.choices.length) {
      const unset = o.default === null || o.default === undefined ? h("option", {value: "", selected: true}, "(default)") : null; // left unset: the game decides
      const select = h("select", attrs, unset, o.choices.map((c) => h("option", {value: String(c), selected: c === o.default}, String(c))));
      return h("div", {class: "field"}, h("label", {for: id}, label), select, help);
    }
    if (o.type === "bool") {
      return h("div", {class: "field check"}, h("input", {...attrs, type: "checkbox", checked: Boolean(o.default)}), h("label", {for: id}, label), help);
    }
    const numeric = o.type === "int" || o.type === "float";
    const input = h("input", {...attrs, type: numeric ? "number" : "text", step: o.type === "float" ? "any" : undefined, value: o.default === null || o.default === undefined ? "" : String(o.default), placeholder: o.default === null ? "(default)" : undefined});
    return h("div", {class: "field"}, h("label", {for: id}, label), input, help);
  });
  replace($("options"), fields.length ? h("details", {}, h("summary", {}, "Options"), fields) : null);
}

/** The options that differ from their defaults, typed as the catalogue says. */
function readOptions() {
  const game = currentGame();
  const out = {};
  for (const o of game.options || []) {
    const el = document.querySelector(`[data-option="${CSS.escape(o.name)}"]`);
    if (!el) continue;
    let value;
    if (o.type === "bool") {
      if (!el.checked && (o.default === null || o.default === undefined)) continue; // unset: the game decides
      value = el.checked;
    }
    else if (el.value === "") continue;
    else if (o.type === "int") value = parseInt(el.value, 10);
    else if (o.type === "float") value = parseFloat(el.value);
    else value = el.value;
    if (o.choices && o.choices.length && typeof o.default === "number") value = Number(value);
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- seats

/**
 * Each strength of the current game in words, as the catalogue gives them for the options chosen (Tash-Kalar's
 * mode has its own figures): label -> {title: "Hard AI — about 0.4 s a move", words: what it is, its time and how
 * it did in test games}. Never an agent spec (issue 28, point 7).
 */
function strengthWords() {
  const game = currentGame();
  if (!game) return {};
  for (const [name, byValue] of Object.entries(game.strength_words_by || {})) {
    const el = document.querySelector(`[data-option="${CSS.escape(name)}"]`);
    const chosen = el && el.value !== "" ? el.value : (game.options || []).find((o) => o.name === name)?.default;
    if (chosen !== undefined && byValue[String(chosen)]) return byValue[String(chosen)];
  }
  return game.strength_words || {};
}

/** The strength labels the server offers, weakest first (the catalogue's `strengths`, in its order). */
function strengthLabels() {
  const labels = Object.keys(lobby.strengths || {});
  return labels.length ? labels : DEFAULT_STRENGTHS;
}

/** A strength's short title for the seat menu: the catalogue's, else its label in words. */
function strengthTitle(words, label) {
  const w = words[label];
  return (w && w.title) || `${label[0].toUpperCase()}${label.slice(1)} AI`;
}

/** The players' rows (numbered from 1, as the options say "Player 1's deck"): who sits there, and for an AI what
 *  its strength means. Redrawn with the number of players and with an option that changes the figures, keeping
 *  the choices made. */
function drawSeats() {
  const n = Number($("seat-count").value);
  const words = strengthWords();
  const kept = readKinds();
  const specs = readSpecs();
  const rows = [];
  for (let seat = 0; seat < n; seat++) {
    const was = kept[seat];
    const kind = h(
      "select",
      {dataset: {seatKind: seat}, "aria-label": `player ${seat + 1}`, onchange: () => toggleAgent(seat)},
      h("option", {value: "human", selected: was === "human"}, seat === 0 ? "Person (you)" : "Person (invite someone)"),
      strengthLabels().map((s) => h("option", {value: `ai:${s}`, selected: was ? was === `ai:${s}` : seat > 0 && s === "normal"}, strengthTitle(words, s))),
      lobby.agentSpecs ? h("option", {value: "ai:spec", selected: was === "ai:spec"}, "AI: agent spec…") : null,
    );
    const spec = h("input", {dataset: {seatSpec: seat}, value: specs[seat] || "", placeholder: "agent spec, e.g. ismcts:iterations=500", hidden: true, "aria-label": `agent spec of player ${seat + 1}`});
    const about = h("span", {class: "help seat-help", dataset: {seatHelp: seat}});
    rows.push(h("div", {class: "seat-row"}, h("strong", {}, `Player ${seat + 1}`), kind, spec, about));
  }
  replace($("seats"), rows);
  for (let seat = 0; seat < n; seat++) toggleAgent(seat);
}

/** The kind chosen for each seat row now (to keep them when the rows are redrawn). */
function readKinds() {
  const kinds = {};
  for (const select of document.querySelectorAll("[data-seat-kind]")) kinds[Number(select.dataset.seatKind)] = select.value;
  return kinds;
}

/** The agent spec typed for each seat row now (kept as the kinds are). */
function readSpecs() {
  const specs = {};
  for (const input of document.querySelectorAll("[data-seat-spec]")) specs[Number(input.dataset.seatSpec)] = input.value;
  return specs;
}

/** Show the agent spec field for "AI: agent spec…", and under an AI strength what it means. */
function toggleAgent(seat) {
  const kind = document.querySelector(`[data-seat-kind="${seat}"]`).value;
  document.querySelector(`[data-seat-spec="${seat}"]`).hidden = kind !== "ai:spec";
  const words = strengthWords()[kind.startsWith("ai:") ? kind.slice(3) : ""];
  const help = document.querySelector(`[data-seat-help="${seat}"]`);
  help.textContent = words ? words.words : "";
  help.hidden = !words;
}

function readSeats() {
  const seats = [];
  for (const select of document.querySelectorAll("[data-seat-kind]")) {
    const seat = Number(select.dataset.seatKind);
    const value = select.value;
    if (value === "human") {
      seats.push(seat === 0 && myName() ? {kind: "human", name: myName()} : {kind: "human"});
    } else if (value === "ai:spec") {
      const spec = document.querySelector(`[data-seat-spec="${seat}"]`).value.trim();
      seats.push(spec ? {kind: "ai", agent: spec} : {kind: "ai", strength: "normal"});
    } else {
      seats.push({kind: "ai", strength: value.slice(3)});
    }
  }
  return seats;
}

// ---------------------------------------------------------------------------------------------- create

function myName() {
  return $("my-name").value.trim().slice(0, 24);
}

/** The turn clock of the form: null for none, else {kind, minutes | seconds | hours, then} (docs/web.md). */
function readClock() {
  const kind = $("clock-kind").value;
  if (kind === "none") return null;
  const amount = Number($("clock-amount").value);
  const clock = {kind, then: $("clock-then").value};
  if (kind === "game") clock.minutes = amount;
  else if (kind === "turn") clock.hours = amount;
  else clock.seconds = amount;
  return clock;
}

function toggleClock() {
  const kind = $("clock-kind").value;
  $("clock-amount").hidden = $("clock-then").hidden = kind === "none";
  if (kind === "game") $("clock-amount").value = "10";
  if (kind === "move") $("clock-amount").value = "60";
  if (kind === "turn") $("clock-amount").value = "24";
}

async function create(event) {
  event.preventDefault();
  const body = {game: currentGame().id, options: readOptions(), seats: readSeats(), private: $("private").checked};
  const clock = readClock();
  if (clock) body.clock = clock;
  if ($("rated").checked && !$("rated-field").hidden) body.rated = true;
  try {
    const answer = await getJSON("/api/games", {method: "POST", body});
    showCreated(answer, body.seats);
    refreshGames();
  } catch (error) {
    toast(`Could not create the game: ${error.message}`);
  }
}

/** The invitation links (one per human seat, each private to its player) and the spectator link. */
function showCreated(answer, seats) {
  const box = $("created");
  const absolute = (url) => new URL(url, location.href).href;
  const items = (answer.invitations || []).map((inv) => {
    const url = absolute(inv.url);
    const field = h("input", {value: url, readonly: true, "aria-label": `invitation for player ${inv.seat + 1}`, dataset: {invitation: inv.seat}});
    const mine = inv.seat === 0 && seats[0] && seats[0].kind === "human";
    return h(
      "li",
      {},
      h("strong", {}, `Player ${inv.seat + 1}${mine ? " (you)" : ""}`),
      field,
      h("button", {type: "button", class: "secondary", onclick: async () => toast((await copyText(url, field)) ? "Copied." : "Select the link and copy it.", "info")}, "Copy"),
      mine ? h("a", {class: "button", href: url}, "Sit down") : null,
      h("span", {class: "warn"}, "Private to that player: whoever opens it first takes this seat (then it stops working)."),
    );
  });
  const watch = absolute(answer.watch || `/watch/${answer.key}`);
  const watchField = h("input", {value: watch, readonly: true, "aria-label": "spectator link", dataset: {watch: "1"}});
  replace(
    box,
    h("h3", {}, "Game created"),
    h("p", {}, "Send each invitation to its player only. The links are shown once: keep them."),
    h("ul", {class: "links"}, items),
    h("h3", {}, "Spectators"),
    h("ul", {class: "links"}, h("li", {}, watchField, h("button", {type: "button", class: "secondary", onclick: async () => toast((await copyText(watch, watchField)) ? "Copied." : "Select the link and copy it.", "info")}, "Copy"), h("a", {class: "button secondary", href: watch}, "Watch"))),
  );
  box.hidden = false;
  box.scrollIntoView({behavior: "smooth", block: "start"});
}

// ---------------------------------------------------------------------------------------------- game list

async function refreshGames() {
  try {
    const games = await getJSON("/api/games");
    drawGames(Array.isArray(games) ? games : games.games || []);
  } catch (error) {
    $("games-note").textContent = `The list could not be loaded (${error.message}); retrying.`;
  }
}

function drawGames(games) {
  $("games-note").textContent = games.length ? "" : "No listed games yet: create one.";
  replace(
    $("games"),
    games.map((g) => {
      const seats = (g.seats || []).map((s) => (s.kind === "ai" ? s.name || "AI" : s.name || "waiting for a player")).join(" · ");
      const open = (g.seats || []).some((s) => s.kind === "human" && !s.taken && !s.name);
      return h(
        "li",
        {dataset: {key: g.key}},
        h("div", {class: "info"}, h("strong", {}, g.title || g.game), ` ${STATUS_WORDS[g.status] || g.status}`, g.ply ? `, ${g.ply} move${g.ply === 1 ? "" : "s"} played` : "", h("div", {class: "muted"}, seats)),
        open ? h("button", {type: "button", class: "secondary", dataset: {join: g.key}, onclick: () => sit(g)}, "Join") : null,
        h("a", {class: "button secondary", href: `/watch/${encodeURIComponent(g.key)}`}, "Watch"),
      );
    }),
  );
}

// ---------------------------------------------------------------------------------------------- taking a seat
// A seat's secret is kept as the table keeps it (static/table.js): localStorage cardarena.seat.KEY.SEAT holds
// {seat, secret, invitation}; the table's page /play/KEY#seat=N opens the seat with it.

function keepSeat(key, seat, secret) {
  try {
    localStorage.setItem(`cardarena.seat.${key}.${seat}`, JSON.stringify({seat, secret, invitation: null}));
  } catch {
    // storage disabled: the table's page cannot open the seat; say so rather than lose it silently
    toast("This browser keeps no data for this site, so the seat cannot be opened on the table's page.");
  }
}

function goToSeat(key, seat, secret) {
  keepSeat(key, seat, secret);
  location.assign(`/play/${encodeURIComponent(key)}#seat=${seat}`);
}

/** The name to sit down with: the one typed above (kept), or none, after saying where to type it. */
function nameToSit() {
  const name = myName();
  if (name) {
    saveName(name);
    return name;
  }
  toast("Type your name first (top of the page): the other players see it.");
  $("my-name").focus();
  return null;
}

/** Join a listed game's first open seat, without an invitation (listed games offer their open seats to
 *  anyone: docs/web.md, Finding an opponent), and go to the table. */
async function sit(game) {
  const open = (game.seats || []).find((s) => s.kind === "human" && !s.taken && !s.name); // a named seat is kept for its player
  const name = open && nameToSit();
  if (!name) return;
  try {
    const answer = await getJSON(`/api/games/${encodeURIComponent(game.key)}/sit`, {method: "POST", body: {seat: open.seat, name}});
    goToSeat(game.key, answer.seat, answer.secret);
  } catch (error) {
    toast(`Could not join: ${error.message}`);
    refreshGames();
  }
}

// ---------------------------------------------------------------------------------------------- play anyone
// "Play anyone": the server pairs people waiting for the same game (POST /api/match -> a ticket, then long polls
// GET /api/match/TICKET until it answers the seat). After the time chosen in #anyone-ai, the normal AI instead.

const anyone = {ticket: null, game: null, started: 0, aiAfter: 0, timer: null};

async function playAnyone(game) {
  const name = nameToSit();
  if (!name) return;
  if (anyone.ticket) await stopWaiting();
  let answer;
  try {
    answer = await getJSON("/api/match", {method: "POST", body: {game: game.id, name}});
  } catch (error) {
    toast(`Could not wait for a player: ${error.message}`);
    return;
  }
  Object.assign(anyone, {ticket: answer.ticket, game, started: Date.now(), aiAfter: Number($("anyone-ai").value) || 0, near: $("anyone-near").checked});
  anyone.timer = setInterval(tickWaiting, 1000);
  tickWaiting();
  waitForMatch(answer.ticket);
}

/** Ask again and again (each ask waits on the server) until the ticket is matched, cancelled or refused. */
async function waitForMatch(ticket) {
  while (anyone.ticket === ticket) {
    let answer;
    try {
      answer = await getJSON(`/api/match/${encodeURIComponent(ticket)}`);
    } catch (error) {
      if (anyone.ticket !== ticket) return;
      if (error.status === 429) continue;
      endWaiting();
      toast(`Stopped waiting: ${error.message}`);
      return;
    }
    if (anyone.ticket !== ticket) return;
    if (answer.status === "matched") {
      endWaiting();
      goToSeat(answer.key, answer.seat, answer.secret);
      return;
    }
    if (answer.status !== "waiting") {
      endWaiting();
      toast("Stopped waiting: nobody came in time. Ask again, or play the AI.", "info");
      return;
    }
  }
}

function tickWaiting() {
  const seconds = Math.floor((Date.now() - anyone.started) / 1000);
  if (anyone.aiAfter && seconds >= anyone.aiAfter) {
    playTheAI();
    return;
  }
  const box = $("waiting");
  const title = anyone.game.title || anyone.game.id;
  const who = anyone.near ? "an AI of about your rating" : "the normal AI";
  const ai = anyone.aiAfter ? ` If nobody comes within ${anyone.aiAfter} s, you play ${who}.` : "";
  replace(
    box,
    h("p", {}, `Waiting for someone to play ${title} with you… ${seconds} s.${ai}`),
    h("button", {type: "button", class: "secondary", dataset: {anyoneAi: "1"}, onclick: playTheAI}, anyone.near ? "Play an AI of my rating now" : "Play the normal AI now"),
    h("button", {type: "button", class: "secondary", dataset: {anyoneStop: "1"}, onclick: stopWaiting}, "Stop waiting"),
  );
  box.hidden = false;
}

function endWaiting() {
  clearInterval(anyone.timer);
  Object.assign(anyone, {ticket: null, timer: null});
  $("waiting").hidden = true;
}

/** Leave the queue; if the server had matched the ticket already, go to that table instead of losing the seat. */
async function stopWaiting() {
  const ticket = anyone.ticket;
  endWaiting();
  if (!ticket) return null;
  try {
    const answer = await getJSON(`/api/match/${encodeURIComponent(ticket)}/cancel`, {method: "POST"});
    if (answer.status === "matched") {
      goToSeat(answer.key, answer.seat, answer.secret);
      return answer;
    }
  } catch {
    // the ticket is gone already: nothing to leave
  }
  return null;
}

/** Nobody came (or the player chose not to wait): a game of this game against the normal AI, and its table. */
async function playTheAI() {
  const game = anyone.game;
  if (!game || (await stopWaiting())) return;
  const name = myName() || "player";
  const seats = [{kind: "human", name}];
  const body = {game: game.id, options: {}, seats, private: true};
  let strength = "normal";
  if (anyone.near) {
    // the AI whose rating is nearest the player's (GET /api/ratings/bot); a rated game for an account
    try {
      const near = await getJSON(`/api/ratings/bot?game=${encodeURIComponent(game.id)}`);
      strength = near.strength;
      body.rated = isSignedIn();
      toast(`You play the ${strength} AI (rated ${Math.round(near.rating)}; you: ${Math.round(near.yours)}${near.provisional ? "?" : ""}).`, "info");
    } catch (error) {
      toast(`Could not find an AI of your rating (${error.message}): the normal AI plays.`);
    }
  }
  for (let seat = 1; seat < (game.players || [2])[0]; seat++) seats.push({kind: "ai", strength});
  try {
    const created = await getJSON("/api/games", {method: "POST", body});
    const token = new URL(created.invitations[0].url, location.href).hash.slice(1);
    const answer = await getJSON(`/api/games/${encodeURIComponent(created.key)}/join`, {method: "POST", body: {token, name}});
    goToSeat(created.key, answer.seat, answer.secret);
  } catch (error) {
    toast(`Could not start a game against the AI: ${error.message}`);
  }
}

// ---------------------------------------------------------------------------------------------- start

/** Joining needs the seat's invitation link (its token): open it, keeping the token in the fragment. */
function joinByLink(event) {
  event.preventDefault();
  const text = $("invitation").value.trim();
  let url;
  try {
    url = new URL(text, location.href);
  } catch {
    url = null;
  }
  if (!url || url.origin !== location.origin || !/^\/play\/[^/]+$/.test(url.pathname) || url.hash.length < 2) {
    toast("That is not an invitation link of this server (it looks like /play/KEY#TOKEN).");
    return;
  }
  location.assign(url.href);
}

function start() {
  $("join-link").addEventListener("submit", joinByLink);
  const name = $("my-name");
  name.value = savedName();
  name.addEventListener("change", () => saveName(myName()));
  $("game").addEventListener("change", onGameChange);
  $("seat-count").addEventListener("change", drawSeats);
  $("create").addEventListener("submit", create);
  $("clock-kind").addEventListener("change", toggleClock);
  loadCatalogue().catch((error) => toast(`Could not load the games: ${error.message}`));
  // signed in, the account's name is the name at tables unless the person chose another
  startAccountBar((accountName) => {
    if (name.value.trim()) return;
    name.value = accountName.slice(0, 24);
    saveName(myName());
  });
  refreshGames();
  setInterval(refreshGames, REFRESH_MS);
  startMine();
  // a page closed while waiting leaves the queue at once (the server drops it anyway once nobody asks)
  window.addEventListener("pagehide", () => {
    if (anyone.ticket) navigator.sendBeacon(`/api/match/${encodeURIComponent(anyone.ticket)}/cancel`);
  });
}

start();
