// The table page shell, common to every game: connection, seats, whose turn, legal actions, log, chat, rules,
// result. A game with a table module (tables/<game>.js) draws its own table from the observation; the others
// show the game's text panels ("board").
//
// URLs: /play/{key}#INVITATION (an invitation: the page joins with it once, keeps the seat's secret the join
// answers in localStorage and replaces the fragment with #seat=N), /play/{key}#seat=N (a seat this browser holds:
// its secret is sent only inside the WebSocket's first message and the lobby's POST bodies), /watch/{key} (a
// spectator). Development and tests: table.html?fixture=URL&step=N plays back
// a fixture file (tests/web/ui/wire.py) instead of connecting.

import {h, replace, append, getJSON, toast, savedName, saveName, logItem, confirmDialog, closeConfirm, dropDetachedCard} from "./dom.js";
import {Connection, FixtureConnection} from "./net.js";

/** Games that have their own table module. */
const TABLE_MODULES = new Set(["torabato", "laplaplace", "lyabi", "dicebattle", "tashkalar"]);

const page = {
  key: null,
  token: null, // the seat's secret (never the invitation, which only joins)
  mode: "watch", // "play" or "watch"
  seat: null, // our seat number (null: spectator)
  summary: null, // the game summary (welcome.game)
  seats: [],
  state: null, // the latest state message
  logCount: 0, // the n of the last log entry held (sent as "since" on reconnect)
  module: null, // the table module, once loaded
  moduleFor: null,
  conn: null,
  fixture: null,
  heldSeat: null, // the seat whose secret this page holds (kept in localStorage)
  byAccount: false, // the page opens the seat bound to the signed-in account (/play/KEY#account): no secret here
  leaving: false, // this page asked to leave the seat (the server's "left" is then no news)
  spectators: 0, // how many watch (welcome, state and seats messages)
  clock: null, // the clock of the latest state: {kind, limit, then, left: [seconds], running}
  clockAt: 0, // performance.now() when it came (the running seat's time is counted down from there)
  thinking: null, // the AI seat that thinks now (a "thinking" message), or null
  thinkingAt: 0, // performance.now() when it began to think, by the server's count of seconds so far
  thinkingHeard: 0, // performance.now() when the "thinking" message came
  odds: false, // the game declares hidden facts to give odds on (welcome.odds)
  advice: true, // hints and odds are offered (welcome.advice: not in a rated game)
  asking: null, // "hint" or "odds" while this page waits for the answer
  autoPass: true, // take a forced decision for the player (kept in localStorage: see loadAutoPass)
  auto: null, // the action auto-pass or "Pass until something happens" takes in the latest state, if any
  autoPly: null, // the ply of the latest state answered automatically (one answer per ply, never more)
  autoTimer: null,
  autoSent: 0, // how many actions were sent automatically (for tests: window.__table.autoSent)
  clicks: 0, // how many actions the player sent by a click (window.__table.clicks)
  skip: null, // "Pass until something happens" ({until: "event", turn}) or "Pass until my turn" ({until: "mine", turn}) while it runs
  passTexts: new Set(), // the texts of the passes seen among this seat's legal actions (an opponent's pass reads so)
  before: null, // the observation the table's "last move" marks compare with (see noteBaseline)
  autoEntries: new Set(), // the log entries (n) of actions auto-pass took since the baseline (they are no decision)
  beforePly: 0, // the ply of the baseline
  shownObservation: null, // a spectator's previous observation
  cards: {}, // what each card of the game says (welcome.cards)
  strengths: {}, // each AI strength in words (welcome.strengths): label -> {title, words}
  rated: null, // a rated game's rating changes when it ended (the "rated" message): [{seat, name, before, rating, ...}]
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------- location

function readLocation() {
  const params = new URLSearchParams(location.search);
  const fixture = params.get("fixture");
  if (fixture) return {fixture, step: Number(params.get("step") || 0)};
  const match = location.pathname.match(/^\/(play|watch)\/([^/]+)\/?$/);
  if (!match) return null;
  const where = {mode: match[1], key: decodeURIComponent(match[2]), invitation: null, seat: null};
  if (where.mode === "play") {
    const fragment = decodeURIComponent(location.hash.slice(1));
    const held = /^seat=(\d{1,3})$/.exec(fragment);
    if (held) where.seat = Number(held[1]);
    else if (fragment === "account") where.account = true; // the seat bound to the signed-in account
    else where.invitation = fragment || null;
  }
  return where;
}

// ---------------------------------------------------------------------------------------------- seat secrets
// A joined seat's secret is kept in localStorage under cardarena.seat.KEY.SEAT as {seat, secret, invitation}: a
// reload, another tab or a reconnect opens the seat with it (the server then closes the older connection, which
// says so). The invitation, dead once joined, is kept only to recognise its link if it is opened again.

const SEATS = "cardarena.seat.";

function loadSeat(key, seat) {
  try {
    const held = JSON.parse(localStorage.getItem(`${SEATS}${key}.${seat}`) || "null");
    return held && typeof held.secret === "string" && held.seat === seat ? held : null;
  } catch {
    return null;
  }
}

function heldByInvitation(key, invitation) {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i);
      if (!name || !name.startsWith(`${SEATS}${key}.`)) continue;
      const held = loadSeat(key, Number(name.slice(`${SEATS}${key}.`.length)));
      if (held && held.invitation === invitation) return held;
    }
  } catch {
    // storage disabled: nothing is held
  }
  return null;
}

function saveSeat(key, held) {
  try {
    localStorage.setItem(`${SEATS}${key}.${held.seat}`, JSON.stringify(held));
  } catch {
    // storage disabled: the seat lasts as long as this page
  }
}

function forgetSeat(key, seat) {
  try {
    localStorage.removeItem(`${SEATS}${key}.${seat}`);
  } catch {
    // nothing kept
  }
}

// ---------------------------------------------------------------------------------------------- sending

function send(message) {
  if (!page.conn || !page.conn.send(message)) toast("Not connected: try again in a moment.");
}

/**
 * Send an action's text as the answer to the latest state. A legal action that carries a ``confirm`` question
 * (the game's word: it ends the build, the turn or the game early, or cannot be taken back) is sent only once the
 * player accepts it in the page's dialog; nothing is sent on "Cancel", and an answer given after the game moved
 * on (another ply) is dropped.
 */
async function act(text) {
  if (!page.state) return;
  page.skip = null; // a choice of the player's own ends "Pass until something happens"
  const ply = page.state.ply;
  const legal = (page.state.legal || []).find((a) => a.text === text);
  if (legal && legal.confirm) {
    const yes = await confirmDialog(legal.confirm);
    if (!yes || !page.state || page.state.ply !== ply) return;
  }
  // auto-pass answered this position already: a click on it would only be refused as stale ("that answers ply
  // 117; the game is at ply 119"); and a click of the player's own comes before an automatic answer still waiting
  if (page.autoPly === ply) return;
  clearTimeout(page.autoTimer);
  send({type: "act", ply, action: text});
  page.clicks += 1;
  document.body.classList.add("sending");
}

// ---------------------------------------------------------------------------------------------- auto-pass
// A decision whose one action (besides the game's resignation) is forced, a pass or a step such as ToraBato's
// only "pass", is taken for the player when auto-pass is on; "Pass until something happens" passes whenever a
// pass is legal until the turn ends, an opponent does something other than pass, or a decision has no pass (the
// terminal's ":skip"); "Pass until my turn" (where the game says whose turn it is: state.turn_player) passes
// whenever a pass is legal until a later turn is the player's own, whatever the opponents do, and stops at a
// decision that has no pass. The answer is sent as the player's own action, at the state's ply, at most once per ply
// and no sooner than AUTO_GAP_MS after the previous one (the server allows 20 messages a second), and never for
// an action the page would ask about (``confirm``). A fixture (no server) is never answered.

const AUTOPASS = "cardarena.autopass";
const AUTO_GAP_MS = 150;
let autoLast = 0; // performance.now() of the latest automatic answer

function loadAutoPass() {
  try {
    return localStorage.getItem(AUTOPASS) !== "off";
  } catch {
    return true;
  }
}

function saveAutoPass(on) {
  try {
    localStorage.setItem(AUTOPASS, on ? "on" : "off");
  } catch {
    // storage disabled: the setting lasts as long as this page
  }
}

/** The legal action to take for the player in ``state`` (auto-pass or skipping), or null: the player decides. */
function autoAction(state) {
  if (page.fixture || page.seat === null || !state || state.terminal || state.to_act !== page.seat) return null;
  if (state.status !== undefined && state.status !== "running") return null;
  const legal = state.legal || [];
  for (const a of legal) if (a.pass) page.passTexts.add(a.text);
  const choices = legal.filter((a) => !a.resign);
  if (page.skip) {
    const pass = choices.find((a) => a.pass && !a.confirm);
    const going = page.skip.until === "mine" ? !(state.turn !== page.skip.turn && state.turn_player === page.seat) : state.turn === page.skip.turn;
    if (pass && going) return pass;
    page.skip = null;
  }
  if (page.autoPass && choices.length === 1 && !choices[0].confirm) return choices[0];
  return null;
}

/** Stop "Pass until something happens" when an opponent's new log entry is anything but a pass ("Pass until my
 *  turn" goes on: it stops only at the player's turn or at a decision with no pass). */
function watchOpponents(entries) {
  if (!page.skip || page.skip.until === "mine") return;
  for (const e of entries) {
    if (e.n !== undefined && e.n <= page.logCount) continue;
    if (e.seat !== null && e.seat !== undefined && e.seat !== page.seat && !page.passTexts.has(e.text)) page.skip = null;
  }
}

function scheduleAuto() {
  clearTimeout(page.autoTimer);
  const s = page.state;
  if (!page.auto || !s || page.autoPly === s.ply) return;
  const ply = s.ply;
  const text = page.auto.text;
  const wait = Math.max(0, autoLast + AUTO_GAP_MS - performance.now());
  page.autoTimer = setTimeout(() => {
    if (!page.state || page.state.ply !== ply || page.autoPly === ply || !page.auto || page.auto.text !== text) return;
    page.autoPly = ply;
    page.autoEntries.add(ply + 1); // a seat's ply counts its log entries: its own action is the next one
    autoLast = performance.now();
    page.autoSent += 1;
    send({type: "act", ply, action: text});
    document.body.classList.add("sending");
  }, wait);
}

function renderAutoControls() {
  const s = page.state;
  const playing = page.seat !== null && !page.fixture;
  $("autopass-label").hidden = !playing;
  $("autopass").checked = page.autoPass;
  const mine = s && !s.terminal && s.to_act === page.seat && (s.legal || []).some((a) => a.pass);
  const offered = playing && mine && !page.auto && !page.skip;
  $("skip").hidden = !offered;
  // only where the game says whose turn it is (a round that both players play has no "my turn")
  $("skip-turn").hidden = !offered || s.turn_player === null || s.turn_player === undefined;
}

/** "Pass until something happens" (``until`` "event") or "Pass until my turn" (``until`` "mine"). */
function startSkip(until) {
  const s = page.state;
  if (!s || s.to_act !== page.seat) return;
  page.skip = {until, turn: s.turn};
  page.auto = autoAction(s);
  renderTurn();
  renderAutoControls();
  scheduleAuto();
}

// ---------------------------------------------------------------------------------------------- messages

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      return onWelcome(message);
    case "state":
      return onState(message);
    case "seats":
      page.seats = message.seats || [];
      if (message.spectators !== undefined) page.spectators = message.spectators;
      return renderSeats();
    case "undone":
      return onUndone(message);
    case "handed_over":
      return onHandedOver(message);
    case "chat":
      return addChat(message);
    case "thinking":
      return onThinking(message);
    case "hint":
    case "odds":
      return onAdvice(message);
    case "rematch":
      return onRematchOffer(message);
    case "rated":
      page.rated = message.changes || [];
      return page.state ? renderResult() : undefined;
    case "error":
      if (page.asking) adviceRefused(message);
      return onError(message);
    case "ack":
      document.body.classList.remove("sending");
      return undefined;
    default:
      return undefined; // pong and anything newer: nothing to draw
  }
}

function onWelcome(message) {
  page.seat = message.seat === undefined ? null : message.seat;
  page.odds = message.odds === true;
  page.advice = message.advice !== false;
  page.cards = message.cards || {}; // what each card says (Game.card_texts), for the card viewer
  page.strengths = message.strengths || {};
  drawHandoverStrengths();
  page.summary = message.game || {};
  page.seats = page.summary.seats || page.seats;
  if (page.summary.spectators !== undefined) page.spectators = page.summary.spectators;
  const title = page.summary.title || page.summary.game || "Table";
  $("title").textContent = page.seat === null ? `${title} (watching)` : title;
  document.title = `${title} · cardarena`;
  $("chat-form").hidden = page.seat === null; // spectators read the chat but do not write to it
  if (TABLE_MODULES.has(page.summary.game)) {
    // the table is clicked; the list of choices stays as a fallback, folded
    $("actions-box").open = false;
    $("actions-title").textContent = "All choices as a list";
  }
  showRules(page.summary.game, title);
  renderSeats();
  renderAdvice();
}

function onState(message) {
  if (page.state && page.state.ply !== message.ply) closeConfirm(); // a question about an older position
  page.state = message;
  document.body.classList.remove("sending");
  if (message.seats) page.seats = message.seats;
  if (message.spectators !== undefined) page.spectators = message.spectators;
  page.clock = message.clock || null;
  page.clockAt = performance.now();
  if (message.ply < page.logCount) withdrawLog(message.ply); // an undo we did not hear of (a reconnection)
  noteBaseline(message);
  watchOpponents(message.log || []);
  for (const entry of message.log || []) addLog(entry);
  page.auto = autoAction(message);
  renderUndo();
  renderSeats();
  renderTurn();
  renderAutoControls();
  renderActions();
  renderResult();
  renderAdvice();
  scheduleAuto();
  renderTable().catch((error) => {
    // a table module that fails to load or draw: the game's text panels still show the table
    toast(`The table could not be drawn (${error.message}): showing the text view.`);
    drawPanels($("table"), page.state.board || []);
  });
}

/** A seat took its last action back: its log entry (ours from ``ply`` on) is withdrawn; a state follows. */
// ---------------------------------------------------------------------------------------------- the last move
// The table marks what the other seats changed since this player's own last decision (docs/web.md, The last move
// on the table): every table module gets ``ctx.before``, the observation as it stood right after the player's
// latest decision, and marks each element that differs from it with the class ``changed``. A decision is an
// action of this seat that the page did not take by itself: auto-pass is not a decision, so a run of automatic
// passes keeps the marks of everything the opponents did meanwhile. It is read from the log (an entry of this
// seat that auto-pass did not send), so a fixture played back, a reload and a reconnection mark the same.
// A spectator's baseline is the state before the latest one. The first state a page gets is its own baseline:
// nothing is marked on arrival. Both observations are this seat's own view, so the marks tell nothing more.

function noteBaseline(message) {
  const obs = message.observation === undefined ? null : message.observation;
  if (page.seat === null) {
    page.before = page.shownObservation === null ? obs : page.shownObservation;
    page.shownObservation = obs;
    return;
  }
  const fresh = (message.log || []).filter((e) => e.n === undefined || e.n > page.logCount);
  const decided = fresh.some((e) => e.seat === page.seat && !page.autoEntries.has(e.n));
  if (page.before === null || decided || message.ply < page.beforePly) {
    page.before = obs;
    page.beforePly = message.ply;
    page.autoEntries.clear();
  }
}

function onUndone(message) {
  withdrawLog(message.ply);
  toast(message.seat === page.seat ? "You took your last action back." : `${nameOf(message.seat)} took their last action back.`);
}

function withdrawLog(ply) {
  for (const li of [...$("log").children]) {
    if (Number(li.dataset.n) > ply) li.remove();
  }
  page.logCount = Math.min(page.logCount, ply);
}

function renderUndo() {
  $("undo").hidden = !(page.state && page.state.can_undo && page.seat !== null);
  const mine = page.seats.find((s) => s.seat === page.seat);
  const running = page.state && !page.state.terminal && page.state.status === "running";
  const holds = page.token || page.byAccount; // the seat's secret, or the account the seat is bound to
  $("handover").hidden = !(page.mode === "play" && holds && !page.fixture && running && mine && mine.kind === "human");
}

function onHandedOver(message) {
  const who = message.seat === page.seat ? "You" : nameOf(message.seat);
  const why = message.why === "time" ? "ran out of time" : "left";
  const title = page.strengths[message.strength] ? page.strengths[message.strength].title.split(" — ")[0] : `${message.strength} AI`;
  toast(`${who} ${why}: ${title.toLowerCase()} plays on.`);
}

/** Seconds left of a seat on the clock, counting down the running seat's time since the state came. */
function clockLeft(seat) {
  const c = page.clock;
  if (!c || !c.left) return null;
  let left = c.left[seat];
  if (c.running === seat) left -= (performance.now() - page.clockAt) / 1000;
  return Math.max(0, left);
}

/** Time left as a clock shows it: m:ss, or days and hours / hours and minutes on a turn-based game's clock. */
function clockText(seconds) {
  const s = Math.ceil(seconds);
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClocks() {
  for (const el of document.querySelectorAll("#seats .clock")) {
    const seat = Number(el.dataset.seat);
    const left = clockLeft(seat);
    el.textContent = left === null ? "" : clockText(left);
    el.classList.toggle("running", page.clock && page.clock.running === seat);
    el.classList.toggle("low", left !== null && left < 10);
  }
}

// ---------------------------------------------------------------------------------------------- thinking and help

/** An AI seat began to think (seat and the seconds so far, counted on from here on this page's clock) or stopped. */
function onThinking(message) {
  page.thinking = message.seat === null || message.seat === undefined ? null : message.seat;
  page.thinkingHeard = performance.now();
  page.thinkingAt = page.thinkingHeard - 1000 * (Number(message.elapsed) || 0);
  renderThinking();
}

/** "Hard AI is thinking… 3 s": the seconds since it began, or since its last action this page saw (a run of
 *  decisions, such as a turn of several moves, counts each one from the one before). */
function renderThinking() {
  const el = $("thinking");
  const over = page.state && page.state.terminal;
  if (page.thinking === null || over) {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  // clockAt: when the latest state came; one that came after the "thinking" message is an action of the run
  const from = page.clockAt > page.thinkingHeard ? page.clockAt : page.thinkingAt;
  const seconds = Math.max(0, Math.floor((performance.now() - from) / 1000));
  el.textContent = `${nameOf(page.thinking)} is thinking… ${seconds} s`;
  el.hidden = false;
}

/** The Help box: Hint while this seat is to act, Odds where the game declares hidden facts; an answer about an
 *  older position is cleared. */
function renderAdvice() {
  const s = page.state;
  const mine = page.seats.find((x) => x.seat === page.seat);
  const playing = page.seat !== null && s && !s.terminal && (!mine || mine.kind === "human");
  $("advice-box").hidden = !playing || !page.advice; // no help in a rated game
  $("hint").disabled = !(playing && s.to_act === page.seat && (s.legal || []).length > 0) || page.asking !== null;
  $("odds").hidden = !page.odds;
  $("odds").disabled = !playing || page.asking !== null;
  const shown = $("advice");
  if (!playing || (shown.dataset.ply && Number(shown.dataset.ply) !== s.ply)) {
    replace(shown, []);
    delete shown.dataset.ply;
  }
}

function ask(kind) {
  if (!page.state || page.asking) return;
  page.asking = kind;
  send({type: kind});
  const box = $("advice");
  box.dataset.ply = page.state.ply;
  replace(box, h("p", {class: "muted"}, kind === "hint" ? "Thinking about your move…" : "Counting the chances…"));
  renderAdvice();
}

function percent(share) {
  return `${Math.round(100 * share)}%`;
}

/** A hint (the search's top choices, its share of the thinking, the chance to win) or the odds, in words. */
function onAdvice(message) {
  page.asking = null;
  const box = $("advice");
  if (!page.state || message.ply !== page.state.ply) {
    renderAdvice(); // about a position that has gone
    return;
  }
  box.dataset.ply = message.ply;
  if (message.type === "hint") {
    const rows = (message.rows || []).map((r) => {
      let value = "";
      if (r.win !== null && r.win !== undefined) value = ` · wins about ${percent(r.win)}`;
      else if (r.mean !== null && r.mean !== undefined) value = ` · average result ${r.mean > 0 ? "+" : ""}${r.mean.toFixed(2)} (−1 last, +1 first)`;
      return h("li", {dataset: {action: r.action}}, h("strong", {}, r.label), h("span", {class: "muted"}, ` ${percent(r.share)} of the search${value}`));
    });
    replace(box, [h("p", {}, "A short search, from what you can see, would play:"), h("ol", {class: "hint-rows"}, rows)]);
  } else {
    const facts = (message.facts || []).map((f) => {
      const values = f.values.map((v) => `${v.value} ${percent(v.share)}`);
      if (f.other > 0) values.push(`other or none ${percent(f.other)}`);
      return h("li", {}, h("strong", {}, `${f.fact}: `), values.join(", "));
    });
    const intro = facts.length ? `From ${message.worlds} deals that fit what you know:` : "Nothing hidden to give odds on now.";
    replace(box, [h("p", {}, intro), h("ul", {class: "odds-rows"}, facts)]);
  }
  renderAdvice();
}

function adviceRefused(message) {
  page.asking = null;
  replace($("advice"), h("p", {class: "muted"}, message.message || "No answer now."));
  renderAdvice();
}

async function handOver() {
  const strength = $("handover-strength").value;
  if (!window.confirm(`Leave this game? An AI (${$("handover-strength").selectedOptions[0].textContent}) will play your seat to the end.`)) return;
  try {
    await getJSON(`/api/games/${encodeURIComponent(page.key)}/handover`, {method: "POST", body: {token: page.token, strength}});
  } catch (error) {
    toast(`Could not leave: ${error.message}`);
  }
}

function undo() {
  if (!page.state || !page.state.can_undo) return;
  send({type: "undo", ply: page.state.ply});
  document.body.classList.add("sending");
}

function onError(message) {
  document.body.classList.remove("sending");
  toast(message.message || message.code || "error");
  if (message.code === "replaced") {
    // the seat was opened in another window or device: the server closed this connection; retrying by itself
    // would take the seat back from there, so only a click does
    page.conn.stop();
    setStatus("offline");
    showNotice(
      "This seat was opened in another window or device, so this window stopped. If that was not you, someone has your seat's link: leave the seat.",
      h("button", {type: "button", id: "play-here", onclick: playHere}, "Play here"),
    );
  } else if (["bad_token", "no_seat", "not_signed_in", "cross_origin"].includes(message.code) || (message.code === "left" && !page.leaving)) {
    page.conn.stop(); // a refused or given-up seat will not work on a retry either
    setStatus("offline");
    if (page.heldSeat !== null) forgetSeat(page.key, page.heldSeat);
    showNotice(`${message.message}.`, h("a", {href: `/watch/${encodeURIComponent(page.key)}`}, "Watch the game"));
  } else if (message.code === "expired") {
    page.conn.stop(); // an expired game will not work on a retry either
    setStatus("offline");
  }
}

/** Take the seat back in this window (the other one is then told, as this one was). */
function playHere() {
  hideNotice();
  page.conn.resume();
}

function showNotice(text, ...extra) {
  const box = $("notice");
  replace(box, h("span", {}, text), " ", extra);
  box.hidden = false;
}

function hideNotice() {
  $("notice").hidden = true;
}

// ---------------------------------------------------------------------------------------------- drawing

function setStatus(status) {
  const el = $("status");
  el.dataset.status = status;
  el.textContent = status;
}

function nameOf(seat) {
  const row = page.seats.find((s) => s.seat === seat);
  if (row && row.name) return row.name;
  return `player ${seat + 1}`; // an open seat, as the log names it (views.seat_names)
}

function renderSeats() {
  const toAct = page.state ? page.state.to_act : null;
  const items = page.seats.map((s) =>
    h(
      "li",
      {class: `seat${s.seat === toAct ? " to-act" : ""}${s.seat === page.seat ? " me" : ""}`, dataset: {seat: s.seat}},
      h("span", {class: `dot ${s.kind === "ai" || s.connected ? "on" : "off"}`, title: s.connected ? "connected" : "away"}),
      h("span", {class: "name", title: s.kind === "ai" && page.strengths[s.label] ? page.strengths[s.label].words : null}, s.name || `(open seat: player ${s.seat + 1})`),
      s.seat === page.seat ? h("span", {class: "muted"}, " · you") : null,
      page.clock && s.kind === "human" ? h("span", {class: "clock", dataset: {seat: s.seat}, title: "time left on the clock"}) : null,
    ),
  );
  replace($("seats"), items);
  renderClocks();
  if (page.state) renderUndo();
  const n = page.spectators || 0;
  $("spectators").textContent = n ? `${n} watching` : "No one watching";
  $("spectators").dataset.count = n;
}

function renderTurn() {
  const s = page.state;
  let text;
  let mine = false;
  const open = page.seats.find((seat) => !seat.name);
  if (s.terminal) text = "The game is over.";
  else if (s.status === "open" || open) text = "Waiting for the other players to join.";
  else if (s.to_act === null || s.to_act === undefined) text = "";
  else if (s.to_act === page.seat && page.seat !== null && page.auto) text = page.skip ? `Passing until ${page.skip.until === "mine" ? "your turn" : "something happens"}: ${actionWords(page.auto)}.` : `Only one choice, taken for you: ${actionWords(page.auto)}.`;
  else if (s.to_act === page.seat && page.seat !== null) {
    text = "Your turn.";
    mine = true;
  } else text = `Waiting for ${nameOf(s.to_act)}.`;
  $("turn").textContent = text;
  $("turn").classList.toggle("mine", mine);
  tellTurn(mine);
}

/** The page's title says when the game waits for this player; in a tab out of view, where the player allowed the
 *  browser's notifications (the lobby asks), a notification says so too: turn-based games are played over days. */
function tellTurn(mine) {
  const base = document.title.replace(/^\(Your turn\) /, "");
  document.title = mine ? `(Your turn) ${base}` : base;
  const ply = page.state ? page.state.ply : null;
  if (!mine || !document.hidden || page.toldTurn === ply) return;
  page.toldTurn = ply;
  if ("Notification" in window && Notification.permission === "granted") {
    const title = (page.summary && (page.summary.title || page.summary.game)) || "cardarena";
    const note = new Notification(`Your turn: ${title}`, {tag: `turn-${page.key}`});
    note.onclick = () => window.focus();
  }
}

/** What a legal action does, in the words its button shows: the game's detail of a pass or step, else its text. */
function actionWords(action) {
  return withNames(action.detail && action.group === action.text ? action.detail : action.text);
}

/** A game's words with each seat it names ("seat 1", "P1", "seat(s) 0") as that player's name, as the server does
 *  for the log (views.with_names); for the list of every choice, whose words come from the game as they are. */
function withNames(text) {
  return String(text).replace(/\b(?:[Ss]eat(?:\(s\))? |P)(\d+)\b/g, (whole, seat) => (page.seats.some((s) => s.seat === Number(seat)) ? nameOf(Number(seat)) : whole));
}

/** The legal actions as buttons, one group per choice_label group (the fallback for every table). */
function renderActions() {
  const legal = (page.state && page.state.legal) || [];
  if (!legal.length) {
    replace($("actions"), h("p", {class: "muted"}, "Nothing to choose now."));
    return;
  }
  const groups = new Map();
  for (const a of legal) {
    const group = a.group || a.text;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(a);
  }
  const blocks = [];
  for (const [group, actions] of groups) {
    if (actions.length === 1 && (!actions[0].detail || actions[0].group === actions[0].text)) {
      // one action alone: a pass or a step has what it does in this step as its detail ("End main phase")
      blocks.push(h("div", {class: "group"}, actionButton(actions[0], actionWords(actions[0]))));
      continue;
    }
    blocks.push(
      h("div", {class: "group"}, h("div", {class: "group-name"}, withNames(group)), h("div", {class: "group-actions"}, actions.map((a) => actionButton(a, withNames(a.detail || a.text))))),
    );
  }
  replace($("actions"), blocks);
}

function actionButton(action, label) {
  const short = label.length > 60 ? `${label.slice(0, 57)}…` : label; // long card texts: in full in the title
  return h("button", {type: "button", class: "action", title: label, dataset: {action: action.text}, onclick: () => act(action.text)}, short);
}

function renderResult() {
  const s = page.state;
  const box = $("result");
  if (!s.terminal) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const children = [h("strong", {class: "result-line"}, resultLine(s))];
  if (page.mode === "play" && (page.token || page.byAccount) && !page.fixture) {
    children.push(h("button", {type: "button", onclick: rematch}, "Rematch"));
  }
  if (page.key) {
    const seat = page.seat === null ? "open" : page.seat;
    children.push(h("a", {class: "replay-link", href: `/replay/${encodeURIComponent(page.key)}?seat=${seat}&ply=0`}, "Watch the replay"));
  }
  if (page.rated && page.rated.length) children.push(ratingChanges(page.rated));
  replace(box, children);
}

/** A rated game's rating changes, one line a player ("Ann: 1500 → 1662 (+162)?"; "?" marks a provisional rating),
 * with the link to the game's leaderboard. */
function ratingChanges(changes) {
  const line = (c) => {
    const delta = Math.round(c.rating) - Math.round(c.before);
    const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
    const who = c.seat === page.seat ? `${c.name} (you)` : c.name;
    return h("li", {dataset: {account: c.account}}, `${who}: ${Math.round(c.before)} → ${Math.round(c.rating)}${c.provisional ? "?" : ""} (${sign}${Math.abs(delta)})`);
  };
  const key = changes[0].key;
  return h(
    "div",
    {class: "rating-changes"},
    h("span", {}, "Ratings: "),
    h("ul", {}, changes.map(line)),
    h("a", {href: `/leaderboard/${encodeURIComponent(key)}`}, "Leaderboard"),
  );
}

/**
 * The result in words: who won and why ("You win — Alice fell to 0 HP", "Bob wins — your deck ran out" reads
 * "Bob wins — Alice's deck ran out": the game's end_reason names every seat), "Draw — the turn limit (200) was
 * reached"; team-mates and ties together ("You and Carol win"). Never the returns' numbers.
 */
function resultLine(s) {
  const returns = s.returns || [];
  const best = Math.max(...returns);
  const winners = returns.map((r, seat) => (r === best ? seat : null)).filter((x) => x !== null);
  let who;
  if (!returns.length || winners.length === returns.length) who = "Draw";
  else {
    const mine = winners.includes(page.seat);
    const names = winners.filter((seat) => seat !== page.seat).map(nameOf);
    const all = mine ? ["You", ...names] : names;
    const list = all.length > 1 ? `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}` : all[0];
    who = `${list} ${all.length > 1 || mine ? "win" : "wins"}`;
  }
  return s.end_reason ? `${who} — ${s.end_reason}` : `${who}.`;
}

/** The "an AI plays on" menu: each strength in words (welcome.strengths), never an agent spec. */
function drawHandoverStrengths() {
  for (const option of $("handover-strength").options) {
    const w = page.strengths[option.value];
    if (!w) continue;
    option.textContent = w.title;
    option.title = w.words;
  }
}

async function renderTable() {
  const game = page.summary && page.summary.game;
  const area = $("table");
  if (TABLE_MODULES.has(game)) {
    if (page.moduleFor !== game) {
      page.moduleFor = game;
      page.module = import(new URL(`./tables/${game}.js`, import.meta.url).href); // a promise, awaited below
    }
    const module = await page.module;
    const state = page.state; // the latest: several states may arrive while the module loads
    // before: what the "last move" marks compare with (null: mark nothing); reducedMotion: no animation
    const before = page.before === state.observation ? null : page.before;
    const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    // cards: name -> {name, cost, kind, text: [..], notes: [..]} (dom.js describeCard shows one)
    const ctx = {seat: page.seat, seats: page.seats, nameOf, before, reducedMotion, cards: page.cards};
    module.render(area, state, act, ctx);
    dropDetachedCard(); // a viewer beside a card the redraw replaced
    return;
  }
  drawPanels(area, page.state.board || []);
}

/** The game's own text panels (board): one box per zone, coloured by its owner. */
export function drawPanels(area, panels) {
  replace(
    area,
    h(
      "div",
      {class: "panels"},
      panels.map((p) =>
        h("section", {class: "panel", dataset: {seat: p.seat === null || p.seat === undefined ? "shared" : p.seat, key: p.key || p.title}}, h("h3", {}, p.title), h("pre", {}, (p.lines || []).join("\n"))),
      ),
    ),
  );
}

function addLog(entry) {
  if (entry.n !== undefined && entry.n <= page.logCount) return; // already held (resumed connection)
  if (entry.n !== undefined) page.logCount = entry.n;
  const who = entry.seat === null || entry.seat === undefined ? "" : `${nameOf(entry.seat)}: `;
  const log = $("log");
  log.append(logItem(entry, who));
  log.scrollTop = log.scrollHeight;
}

function addChat(message) {
  const chat = $("chat");
  chat.append(h("li", {}, h("span", {class: "who"}, `${message.name || nameOf(message.seat)}: `), message.text));
  chat.scrollTop = chat.scrollHeight;
}

/** The Rules panel leads to the game's page for the browser (GET /rules/{game}: what to click on this table,
 *  the notation, the options; docs/web.md, Browser pages), in a new tab so that the table stays open. */
function showRules(game, title) {
  const link = $("rules-link");
  if (!game) return;
  link.href = `/rules/${encodeURIComponent(game)}`;
  link.textContent = `How to play ${title} (opens a new tab)`;
}

// ---------------------------------------------------------------------------------------------- lobby calls

/**
 * The seat this page plays: the one this browser holds (#seat=N), or the one the invitation in the fragment takes
 * (asking for a name, kept in localStorage; joining answers the seat's secret). The fragment then becomes
 * #seat=N, so a reload or a screenshot neither shows nor needs the invitation. ``null`` when there is none.
 */
async function claimSeat(where) {
  let held = where.seat !== null ? loadSeat(page.key, where.seat) : heldByInvitation(page.key, where.invitation);
  if (!held && where.seat !== null) {
    showNotice(`This browser does not hold player ${where.seat + 1}'s seat in this game: open your invitation link (it works once).`);
    return null;
  }
  if (!held) {
    let name = savedName();
    if (!name) name = await askName();
    saveName(name);
    try {
      const answer = await getJSON(`/api/games/${encodeURIComponent(page.key)}/join`, {method: "POST", body: {token: where.invitation, name}});
      held = {seat: answer.seat, secret: answer.secret, invitation: where.invitation};
    } catch (error) {
      showNotice(`Could not take the seat: ${error.message}.`, h("a", {href: `/watch/${encodeURIComponent(page.key)}`}, "Watch the game"));
      return null;
    }
    saveSeat(page.key, held);
  }
  history.replaceState(null, "", `${location.pathname}${location.search}#seat=${held.seat}`);
  return held;
}

function askName() {
  const dialog = $("join");
  const input = $("join-name");
  return new Promise((resolve) => {
    $("join-form").addEventListener(
      "submit",
      () => {
        resolve(input.value.trim().slice(0, 24) || "player");
      },
      {once: true},
    );
    dialog.showModal();
    input.focus();
  });
}

/** Give the seat up: it is open again, and the server answers a new invitation for it, shown here to pass on. */
async function leave() {
  if (!window.confirm("Give your place to someone else? It opens again: you get a new invitation link for it to pass on.")) return;
  page.leaving = true;
  try {
    const answer = await getJSON(`/api/games/${encodeURIComponent(page.key)}/leave`, {method: "POST", body: {token: page.token}});
    page.conn.stop();
    forgetSeat(page.key, page.heldSeat);
    setStatus("offline");
    $("leave").hidden = true;
    const url = new URL(answer.invitation, location.href).href;
    const field = h("input", {value: url, readonly: true, "aria-label": "the seat's new invitation", dataset: {invitation: answer.seat}});
    showNotice(`You left your seat (player ${answer.seat + 1}); it is open again. Its new invitation (private: whoever opens it takes the seat):`, field, h("a", {href: "/"}, "Back to the lobby"));
  } catch (error) {
    page.leaving = false;
    toast(`Could not leave: ${error.message}`);
  }
}

/** A new game like this one, with this player seated in it at once (the server answers this seat's secret):
 *  the page goes to the new table. The other players' invitations, if any, are shown there to pass on. */
async function rematch() {
  try {
    const answer = await getJSON(`/api/games/${encodeURIComponent(page.key)}/rematch`, {method: "POST", body: {token: page.token}});
    saveSeat(answer.key, {seat: answer.seat, secret: answer.secret, invitation: null});
    const invitations = (answer.invitations || []).map((inv) => ({seat: inv.seat, url: new URL(inv.url, location.href).href}));
    if (invitations.length) sessionStorage.setItem(`cardarena.rematch.${answer.key}`, JSON.stringify(invitations));
    location.assign(`/play/${encodeURIComponent(answer.key)}#seat=${answer.seat}`);
  } catch (error) {
    toast(`Rematch failed: ${error.message}`);
  }
}

/** Another player asked for a rematch: this seat's own invitation to it, offered here (opening it joins). */
function onRematchOffer(message) {
  const url = new URL(message.invitation, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith("/play/")) return;
  showNotice(`${message.by} asks for a rematch.`, h("a", {class: "button", href: url.href, dataset: {rematchOffer: message.key}}, "Play the rematch"));
}

/** The invitations of a rematch this page asked for (kept for this tab only), shown once to pass on. */
function showRematchInvitations() {
  let invitations = null;
  try {
    invitations = JSON.parse(sessionStorage.getItem(`cardarena.rematch.${page.key}`) || "null");
    sessionStorage.removeItem(`cardarena.rematch.${page.key}`);
  } catch {
    invitations = null;
  }
  if (!Array.isArray(invitations) || !invitations.length) return;
  const list = h("ul", {class: "links"});
  for (const inv of invitations) {
    const field = h("input", {value: inv.url, readonly: true, "aria-label": `invitation for player ${inv.seat + 1}`, dataset: {invitation: inv.seat}});
    list.append(h("li", {}, field));
  }
  showNotice("Rematch: send each other player their own invitation (whoever opens it first takes the seat):", list);
}

// ---------------------------------------------------------------------------------------------- start

function wireButtons() {
  $("undo").addEventListener("click", undo);
  page.autoPass = loadAutoPass();
  $("autopass").checked = page.autoPass;
  $("autopass").addEventListener("change", () => {
    page.autoPass = $("autopass").checked;
    saveAutoPass(page.autoPass);
    if (!page.state) return;
    page.auto = autoAction(page.state);
    renderTurn();
    renderAutoControls();
    scheduleAuto();
  });
  $("skip").addEventListener("click", () => startSkip("event"));
  $("skip-turn").addEventListener("click", () => startSkip("mine"));
  $("handover-button").addEventListener("click", handOver);
  $("hint").addEventListener("click", () => ask("hint"));
  $("odds").addEventListener("click", () => ask("odds"));
  setInterval(renderClocks, 500);
  setInterval(renderThinking, 500);
}

function wireChat() {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    send({type: "chat", text: text.slice(0, 300)});
    input.value = "";
  });
}

async function start() {
  wireChat();
  wireButtons();
  const where = readLocation();
  if (!where) {
    $("turn").textContent = "No game here: open an invitation or spectator link from the lobby.";
    setStatus("offline");
    return;
  }
  const hooks = {onMessage, onStatus: setStatus, since: () => page.logCount};
  if (where.fixture) {
    page.fixture = await getJSON(where.fixture);
    page.mode = page.fixture.seat === null ? "watch" : "play";
    page.conn = new FixtureConnection(page.fixture, hooks, where.step);
  } else {
    Object.assign(page, {key: where.key, mode: where.mode});
    // another link of this game pasted into this tab changes only the fragment: read it as a new page would
    window.addEventListener("hashchange", () => location.reload());
    if (page.mode === "play" && where.account) {
      // no secret in this browser: the cookie opens the account's seat (the socket, and leave, handover and
      // rematch, whose requests then carry no token)
      page.byAccount = true;
      $("leave").hidden = false;
      $("leave").addEventListener("click", leave);
    } else if (page.mode === "play") {
      const held = await claimSeat(where);
      if (!held) {
        setStatus("offline");
        return;
      }
      Object.assign(page, {token: held.secret, heldSeat: held.seat});
      showRematchInvitations();
      $("leave").hidden = false;
      $("leave").addEventListener("click", leave);
    }
    page.conn = new Connection(page.key, page.token, hooks, {account: Boolean(page.byAccount)});
  }
  page.conn.connect();
}

// What the page holds, for tests and debugging: only this seat's own view (never anything more).
window.__table = {
  state: () => page.state,
  seat: () => page.seat,
  logCount: () => page.logCount,
  autoSent: () => page.autoSent,
  clicks: () => page.clicks,
  changed: () => document.querySelectorAll("#table .changed").length,
  before: () => page.before, // the observation the last-move marks compare with (the seat's own, earlier)
};

window.addEventListener("error", (event) => toast(`Page error: ${event.message}`));
start().catch((error) => toast(`Could not start the table: ${error.message}`));
