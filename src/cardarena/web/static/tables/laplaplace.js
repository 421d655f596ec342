// Laplaplace's table: the build picker (every card with its text), the two columns, and the battle, which runs
// by itself once both builds are complete, played back step by step from the battle log.
//
// observation(seat) (src/cardarena/games/laplaplace/views.py, docs/games/laplaplace.md):
//   {scene: "blind"|"open"|"league", phase: "show"|"build"|"over", to_act, done: [bool, bool],
//    seats: [{build?: [card ids], base_hp?, open?: [card ids] | null}, ...]   (another seat's build is absent
//    until the battle), result?: {winner, reason, turns, hp, base_hp}, log?: [battle log lines]}
// What each card says comes from ctx.cards (Game.card_texts: card id -> {name, kind, text, notes}); every face-up
// card is readable in the page's card viewer (dom.js describeCard: hover, focus, long press). Without ctx.cards
// (an older server) the texts come from the legal actions' details and the board panels, which name the card first.
// The battle log's "Turn N: P0 HP 27/30 [Jab, Plating(down)] | P1 HP ..." lines give the columns at the start
// of each turn, with each card's up/down state; the playback walks the log line by line. The log names the sides
// P0 and P1; the table shows the players' names instead.
//
// The last move (docs/web.md): what differs between ctx.before (this seat's observation after its own last
// decision) and the observation now is marked with the class "changed": the other seat's finished build, its open
// cards, its build revealed by the battle, the battle's result. In the battle each playback step marks what it
// changed: cards downed, upped, swapped or revealed, HP, a removed card ("gone: ...").

import {describeCard, h, replace} from "../dom.js";

/** Card texts by display name, gathered from every message seen (the fallback when ctx.cards is empty). */
const texts = new Map();
/** Playback state per container: {key, line, timer}. */
const players = new WeakMap();
/** Where the notation is explained in full: the browser rules page of the game. */
const NOTATION_URL = "/rules/laplaplace#the-notation";
/** Whether the player opened the legend: it stays open when the table is drawn again. */
let legendOpen = false;

const TURN_LINE = /^Turn (\d+): P0 HP (-?\d+)\/(-?\d+) \[(.*?)\] \| P1 HP (-?\d+)\/(-?\d+) \[(.*?)\]$/;

/** "Lance [6, force 11, damage] <A> ..." -> ["Lance", "[6, force 11, damage]", "<A> ..."]. */
export function splitText(detail) {
  const m = detail.match(/^(?:\d+\. )?(.+?) (\[[^\]]*\])\s*(.*)$/);
  return m ? [m[1], m[2], m[3]] : [detail, "", ""];
}

function learnTexts(message) {
  for (const a of message.legal || []) if (a.detail) texts.set(splitText(a.detail)[0], a.detail);
  for (const p of message.board || []) for (const line of p.lines || []) if (/^\d+\. /.test(line)) texts.set(splitText(line)[0], line.replace(/^\d+\. /, ""));
}

/**
 * What the table knows of the cards: ``info(key)`` by card id (observations, actions) or display name (the battle
 * log), as dom.js describeCard wants it: {name, kind, text: [..], notes: [..]}.
 */
function cardBook(cards) {
  const byName = new Map();
  for (const [id, info] of Object.entries(cards || {})) {
    byName.set(id, info);
    byName.set(info.name.toLowerCase(), info);
  }
  return (key) => {
    const found = byName.get(key) || byName.get(String(key).toLowerCase()) || byName.get(String(key).replace(/-/g, " ").toLowerCase());
    if (found) return found;
    // an older server without card texts: the name and text an action detail or a panel gave
    const wanted = String(key).replace(/-/g, " ").toLowerCase();
    for (const [name, detail] of texts) {
      if (name.toLowerCase() === wanted) {
        const [, meta, text] = splitText(detail);
        return {name, kind: meta.replace(/^\[|\]$/g, ""), text: [text], notes: []};
      }
    }
    return {name: String(key), kind: "", text: [], notes: []};
  };
}

/** A face-up card: name, "6 · force 11 · damage", its text (the rulebook's original only in the viewer). */
function cardTile(info, {down = false, extra = "", onclick = null, action = null, changed = false} = {}) {
  const shown = (info.text || []).filter((t) => !t.startsWith("Rulebook")); // the original: in the viewer only
  const attrs = {class: `lcard ${extra}${down ? " down" : ""}${changed ? " changed" : ""}`, dataset: {card: info.name}, onclick};
  if (action) attrs.dataset.action = action;
  if (onclick) Object.assign(attrs, {role: "button", tabindex: "0"});
  const tile = h(
    "div",
    attrs,
    h("div", {class: "lname"}, info.name, down ? h("span", {class: "badge"}, "down") : null),
    info.kind ? h("div", {class: "lmeta"}, info.kind) : null,
    shown.length ? h("div", {class: "ltext"}, shown.join(" / ")) : null,
  );
  return describeCard(tile, down ? {...info, notes: ["This card is down: it cannot fire until it is upped.", ...(info.notes || [])]} : info);
}

function backTile(label, changed) {
  return h("div", {class: `lcard back-tile${changed ? " changed" : ""}`, "aria-label": "hidden build"}, h("div", {class: "lname"}, "[?]"), h("div", {class: "ltext"}, label));
}

/** The notation in a few words, where the cards are (the rules page has it in full). */
function legend() {
  const item = (mark, words) => h("li", {}, h("code", {}, mark), " ", words);
  return h(
    "details",
    {class: "legend", open: legendOpen, ontoggle: (event) => (legendOpen = event.target.open)},
    h("summary", {}, "What the marks mean"),
    h(
      "ul",
      {},
      item("6 · force 11 · damage", "the card's number, its force and its kind. Force is HP and speed: every card's force adds to your base HP (your starting HP and your speed; the faster side acts first each turn)."),
      item("<A>", "an action: fires in your action phase while the card is up and its conditions hold; your topmost card that can fire goes first, again and again until none can."),
      item("<E: …>", "an event: fires by itself whenever what follows the colon happens, in either side's phase, while the card is up."),
      item("<L: …>", "a condition the ability needs."),
      item("<Top>", "fires only from the top of the column."),
      item("<Always>", "holds all the time while the card is in play."),
      item("<Build>", "works once, when the battle starts."),
      item("up / down", "a card that fires is turned down (marked \"down\") and cannot fire until the up phase at the end of the turn."),
      item("[Downless]", "the card stays up when it fires."),
      item("[Remove]", "the card is removed from the game when it fires (its force leaves your base HP)."),
      item("[Unblockable]", "no enemy event may answer or change its damage."),
      item("3 times", "three separate hits, each reduced, increased or reflected on its own."),
    ),
    h("p", {class: "muted"}, "Point at a card, or hold it on a touch screen, to read it in full. ", h("a", {href: NOTATION_URL, target: "_blank", rel: "noopener"}, "The notation in the rules")),
  );
}

/** A battle log line with the players' names for the log's "P0" and "P1". */
function namedLine(line, name) {
  return line.replace(/\bP([01])\b/g, (_, seat) => name(Number(seat)));
}

// ------------------------------------------------------------------------------------------- the table

export function render(container, message, act, ctx = {}) {
  learnTexts(message);
  const obs = message.observation;
  const me = obs.seat === undefined ? ctx.seat : obs.seat;
  const mine = me === null || me === undefined ? 0 : me;
  const name = (seat) => (ctx.nameOf ? ctx.nameOf(seat) : `player ${seat + 1}`);
  const info = cardBook(ctx.cards);
  const marks = lastMove(ctx.before || null, obs);
  const parts = [];
  if (obs.phase === "over" && obs.log) {
    parts.push(battle(container, obs, name, info, marks, ctx)); // its result line says how the battle ended
  } else {
    const seated = me !== null && me !== undefined; // a spectator sees seat 0's column first, as nobody's own
    parts.push(h("div", {class: `phase${marks.result ? " changed" : ""}`}, phaseLine(obs, message, seated ? me : null, name)));
    parts.push(h("div", {class: "columns"}, column(obs, mine, name, seated, info, marks), column(obs, 1 - mine, name, false, info, marks)));
    if ((message.legal || []).length) parts.push(picker(message.legal, act, obs, info));
    else parts.push(legend());
  }
  replace(container, h("div", {class: "laplaplace"}, parts));
}

/**
 * What differs between ``before`` (the seat's observation after its own last decision; null: mark nothing) and
 * ``obs``, per seat: the places of the build whose card is new, whether the hidden build's state changed, the open
 * cards that are new, whether the places/base HP line changed, whether the build came out (the battle's reveal);
 * and whether the battle's result is new.
 */
export function lastMove(before, obs) {
  const marks = {cards: [new Set(), new Set()], done: [false, false], open: [new Set(), new Set()], total: [false, false], revealed: [false, false], result: false};
  if (!before || !before.seats) return marks;
  for (const seat of [0, 1]) {
    const now = obs.seats[seat] || {};
    const old = before.seats[seat] || {};
    if (Array.isArray(now.build)) {
      const known = Array.isArray(old.build) ? old.build : null;
      now.build.forEach((id, i) => {
        if (!known || known[i] !== id) marks.cards[seat].add(i);
      });
      marks.total[seat] = !known || known.length !== now.build.length || old.base_hp !== now.base_hp;
      marks.revealed[seat] = !known;
    }
    marks.done[seat] = Boolean((before.done || [])[seat]) !== Boolean((obs.done || [])[seat]);
    (now.open || []).forEach((id, i) => {
      if (!old.open || old.open[i] !== id) marks.open[seat].add(i);
    });
  }
  marks.result = Boolean(obs.result) && !before.result;
  return marks;
}

function phaseLine(obs, message, me, name) {
  if (message.to_act === null || message.to_act === undefined) return "Both builds are complete.";
  if (message.status === "open") return "Waiting for the other player to join: the builds start then.";
  if (message.status === "abandoned") return "This game was closed before its battle.";
  const canFinish = (message.legal || []).some((a) => a.text === "done");
  const verb = obs.phase === "show" ? "show an open card" : `add a card to your build (top first)${canFinish ? " or finish it" : ""}`;
  const finished = (obs.done || []).map((d, s) => (d ? (s === me ? "you" : name(s)) : null)).filter(Boolean);
  const done = finished.length ? ` · build finished: ${finished.join(", ")}` : "";
  const open = obs.scene === "open" && obs.phase === "build" ? " (your 4 open cards must all be placed)" : "";
  if (message.to_act === me && (message.legal || []).length) return `Your turn: ${verb}${open}${done}`;
  // your place, though you have nothing to choose (an AI plays it for you): no "Your turn"
  if (message.to_act === me) return `${obs.phase === "show" ? "Your open cards are" : "Your build is"} being made${done}`;
  return `Waiting for ${name(message.to_act)} to ${obs.phase === "show" ? "show an open card" : "build"}${done}`;
}

/** One seat's column during the build: its cards top first, or a back while it is hidden. */
function column(obs, seat, name, own, info, marks) {
  const s = obs.seats[seat] || {};
  const title = h("h3", {}, own ? `Your build (${name(seat)})` : `${name(seat)}'s build`);
  const open = s.open
    ? h("div", {class: "open-cards"}, h("span", {class: "muted"}, "open cards: "), s.open.map((id, i) => describeCard(h("span", {class: `chip${marks.open[seat].has(i) ? " changed" : ""}`, dataset: {card: info(id).name}}, info(id).name), info(id))))
    : null;
  if (!Array.isArray(s.build)) {
    const done = obs.done && obs.done[seat];
    return h("section", {class: "column hidden-column", dataset: {seat}}, title, open, backTile(done ? "build complete" : "still building", marks.done[seat]));
  }
  const cards = s.build.map((id, i) => h("div", {class: "slot"}, h("span", {class: "place"}, `${i + 1}`), cardTile(info(id), {changed: marks.cards[seat].has(i)})));
  return h(
    "section",
    {class: "column", dataset: {seat}},
    title,
    open,
    cards.length ? cards : h("p", {class: "muted"}, "no cards yet"),
    h("div", {class: `muted total${marks.total[seat] ? " changed" : ""}`}, `${s.build.length}/8 places · base HP ${s.base_hp ?? 0}`),
  );
}

/** The build picker: every card that may be added (or shown) now, grouped by kind, with its text. */
function picker(legal, act, obs, info) {
  const groups = new Map();
  const plain = [];
  for (const a of legal) {
    if (!a.detail) {
      plain.push(a);
      continue;
    }
    if (!groups.has(a.group)) groups.set(a.group, []);
    groups.get(a.group).push(a);
  }
  const showing = obs.phase === "show";
  return h(
    "section",
    {class: "picker"},
    h("h3", {}, showing ? "Show an open card (both are revealed once each has shown 4)" : "Pick a card for the next place (top first)"),
    // a button says what it does: "done" ends this seat's build (the page asks first)
    h("div", {class: "controls"}, plain.map((a) => h("button", {type: "button", class: "big", dataset: {action: a.text}, title: a.text, onclick: () => act(a.text)}, a.text === "done" ? "Finish my build" : a.text))),
    legend(),
    [...groups].map(([group, actions]) =>
      h(
        "div",
        {class: "pick-group"},
        h("h4", {}, group),
        h(
          "div",
          {class: "pick-cards"},
          // "add lance" / "show lance": the card id follows the verb
          actions.map((a) => cardTile(info(a.text.split(" ").slice(1).join(" ") || splitText(a.detail)[0]), {extra: "pickable", action: a.text, onclick: () => act(a.text)})),
        ),
      ),
    ),
  );
}

// ------------------------------------------------------------------------------------------- the battle

/** The columns at each "Turn N" line of the log: [{line, turn, hp: [..], base: [..], cols: [[{name, down}]]}]. */
export function turnsOf(log) {
  const out = [];
  log.forEach((line, index) => {
    const m = line.match(TURN_LINE);
    if (m) out.push({line: index, turn: Number(m[1]), hp: [Number(m[2]), Number(m[5])], base: [Number(m[3]), Number(m[6])], cols: [parseColumn(m[4]), parseColumn(m[7])]});
  });
  return out;
}

/** "Jab, Plating(down)" -> [{name: "Jab", down: false}, {name: "Plating", down: true}]. */
function parseColumn(text) {
  return text ? text.split(", ").map((c) => ({name: c.replace(/\(down\)$/, ""), down: c.endsWith("(down)")})) : [];
}

const SIDE = (p) => Number(p.slice(1));
/** The log's events that change a column or a HP between two "Turn" lines (rules/battle.py writes them). */
const EVENTS = [
  [/^(P[01]) reveals \[(.*)\]: base HP (-?\d+)$/, (b, m) => {
    b.cols[SIDE(m[1])] = parseColumn(m[2]);
    b.base[SIDE(m[1])] = Number(m[3]);
    b.hp[SIDE(m[1])] = Number(m[3]);
  }],
  [/^(P[01]) initial HP (-?\d+)$/, (b, m) => (b.hp[SIDE(m[1])] = Number(m[2]))],
  [/^(P[01]) .*: initial HP -?\d+ -> (-?\d+)$/, (b, m) => (b.hp[SIDE(m[1])] = Number(m[2]))],
  [/hits (P[01])(?: \(its own side\))? for -?\d+: HP -?\d+ -> (-?\d+)$/, (b, m) => (b.hp[SIDE(m[1])] = Number(m[2]))],
  [/^(P[01]) recovers(?: to HP|: HP -?\d+ ->) (-?\d+)$/, (b, m) => (b.hp[SIDE(m[1])] = Number(m[2]))],
  [/^(P[01]) (.+?) fires.* and downs itself$/, (b, m) => setDown(b, m, true)],
  [/^(P[01]) (.+?) is downed$/, (b, m) => setDown(b, m, true)],
  [/^(P[01]) (.+?) is upped$/, (b, m) => setDown(b, m, false)],
  [/^(P[01]) (.+?) is removed: base HP -?\d+ -> (-?\d+)$/, (b, m) => {
    const col = b.cols[SIDE(m[1])];
    const i = col.findIndex((c) => c.name === m[2]);
    if (i >= 0) col.splice(i, 1);
    b.base[SIDE(m[1])] = Number(m[3]);
  }],
  [/^(P[01]) (.+?) swaps with (.+?) below it$/, (b, m) => {
    const col = b.cols[SIDE(m[1])];
    const i = col.findIndex((c, k) => c.name === m[2] && col[k + 1] && col[k + 1].name === m[3]);
    if (i >= 0) [col[i], col[i + 1]] = [col[i + 1], col[i]];
  }],
  [/^(P[01]) up phase: \d+ card\(s\) up(?:; staying down: (.*))?$/, (b, m) => {
    const staying = m[2] ? m[2].split(", ") : [];
    for (const c of b.cols[SIDE(m[1])]) {
      const k = staying.indexOf(c.name);
      c.down = k >= 0;
      if (k >= 0) staying.splice(k, 1);
    }
  }],
];

/** Down (or up) the first card of that name whose state changes. */
function setDown(b, m, down) {
  const card = b.cols[SIDE(m[1])].find((c) => c.name === m[2] && c.down !== down);
  if (card) card.down = down;
}

/** The battle as of log line ``upto``: the last "Turn" line before it, then every event after it. */
export function battleAt(log, upto, turns) {
  let start = null;
  for (const t of turns) if (t.line <= upto) start = t;
  const b = start
    ? {turn: start.turn, hp: [...start.hp], base: [...start.base], cols: start.cols.map((c) => c.map((x) => ({...x})))}
    : {turn: 0, hp: [0, 0], base: [0, 0], cols: [[], []]};
  for (let i = start ? start.line + 1 : 0; i <= upto; i++) {
    const line = log[i].trim();
    for (const [pattern, apply] of EVENTS) {
      const m = line.match(pattern);
      if (m) {
        apply(b, m);
        break;
      }
    }
  }
  return b;
}

/** The line the playback starts at: the last one before turn 1 (or the result, when the battle has no turn),
 *  where both builds are revealed with their initial HP. */
function startLine(log) {
  const first = log.findIndex((line) => /^(Turn \d+:|Result)/.test(line));
  return Math.max(0, first - 1);
}

/**
 * What one playback step changed, from the battle before it (``prev``) to the battle at it (``now``), per side: the
 * places of cards that are new there, swapped, downed or upped; the cards that left the column; whether HP or
 * base HP changed. A card that left is found by walking both columns top down (a removal shortens the column).
 */
export function stepChanges(prev, now) {
  const out = {cards: [new Set(), new Set()], gone: [[], []], hp: [false, false]};
  if (!prev) return out;
  for (const side of [0, 1]) {
    const a = prev.cols[side];
    const b = now.cols[side];
    let i = 0;
    for (let j = 0; j < b.length; ) {
      if (i < a.length && a[i].name === b[j].name) {
        if (a[i].down !== b[j].down) out.cards[side].add(j);
      } else if (a.length - i > b.length - j) {
        out.gone[side].push(a[i].name); // a card of the column before is no longer there
        i += 1;
        continue;
      } else out.cards[side].add(j); // another card in this place (a swap, a reveal)
      i += 1;
      j += 1;
    }
    for (; i < a.length; i++) out.gone[side].push(a[i].name);
    out.hp[side] = prev.hp[side] !== now.hp[side] || prev.base[side] !== now.base[side];
  }
  return out;
}

function battle(container, obs, name, info, marks, ctx) {
  const log = obs.log;
  const key = log.length + (log[0] || "");
  const turns = turnsOf(log);
  let play = players.get(container);
  if (!play || play.key !== key) {
    if (play) clearInterval(play.timer);
    play = {key, line: startLine(log), timer: null};
    players.set(container, play);
  }
  const stage = h("div", {class: "battle"});
  const draw = () => drawBattle(stage, play, obs, turns, name, info, marks);
  const controls = h(
    "div",
    {class: "controls playback"},
    h("button", {type: "button", dataset: {play: "back"}, onclick: () => move(play, -1, log, draw)}, "◀ step"),
    h("button", {type: "button", dataset: {play: "toggle"}, onclick: () => toggle(play, log, draw, ctx.reducedMotion)}, play.timer ? "❚❚ pause" : "▶ play"),
    h("button", {type: "button", dataset: {play: "step"}, onclick: () => move(play, 1, log, draw)}, "step ▶"),
    h("button", {type: "button", dataset: {play: "turn"}, onclick: () => nextTurn(play, turns, log, draw)}, "turn ▶"),
    h("button", {type: "button", dataset: {play: "end"}, onclick: () => move(play, log.length, log, draw)}, "end ▶▶"),
  );
  draw();
  const r = obs.result;
  const result = r ? h("p", {class: `phase battle-result${marks.result ? " changed" : ""}`}, `Battle over after ${r.turns} turn${r.turns === 1 ? "" : "s"}: ${namedLine(r.reason, name)} (final HP: ${name(0)} ${r.hp[0]}, ${name(1)} ${r.hp[1]})`) : null;
  return h("section", {class: "battle-box"}, result, controls, stage, legend());
}

function move(play, delta, log, draw) {
  play.line = Math.max(0, Math.min(log.length - 1, play.line + delta));
  draw();
}

/** To the next "Turn N" line (or the end). */
function nextTurn(play, turns, log, draw) {
  const next = turns.find((t) => t.line > play.line);
  move(play, (next ? next.line : log.length) - play.line, log, draw);
}

/** Play the log line by line; with reduced motion a line stays twice as long (and style.css draws no pulse). */
function toggle(play, log, draw, reducedMotion) {
  if (play.timer) {
    clearInterval(play.timer);
    play.timer = null;
  } else {
    play.timer = setInterval(() => {
      if (play.line >= log.length - 1) {
        clearInterval(play.timer);
        play.timer = null;
      } else play.line += 1;
      draw();
    }, reducedMotion ? 700 : 350);
  }
  draw();
}

/** A bar of HP against base HP (its width set through the CSSOM, so a strict Content-Security-Policy holds). */
function hpBar(hp, base, changed) {
  const fill = h("span");
  fill.style.width = `${Math.max(0, Math.min(100, (100 * hp) / Math.max(1, base)))}%`;
  return h("div", {class: `hpbar${changed ? " changed" : ""}`, title: `HP ${hp} of base ${base}`}, fill);
}

function drawBattle(stage, play, obs, turns, name, info, marks) {
  const log = obs.log;
  const now = battleAt(log, play.line, turns);
  const step = stepChanges(play.line > 0 ? battleAt(log, play.line - 1, turns) : null, now);
  const atStart = play.line <= startLine(log); // the builds were just revealed: the revealed ones are marked
  const final = play.line >= log.length - 1;
  const columns = [0, 1].map((seat) =>
    h(
      "section",
      {class: `column${obs.result && obs.result.winner === seat && final ? " winner" : ""}`, dataset: {seat}},
      h("h3", {class: step.hp[seat] ? "changed" : null}, `${name(seat)} · HP ${now.hp[seat]}/${now.base[seat]}`),
      hpBar(now.hp[seat], now.base[seat], step.hp[seat]),
      now.cols[seat].map((c, i) =>
        h("div", {class: "slot"}, h("span", {class: "place"}, `${i + 1}`), cardTile(info(c.name), {down: c.down, extra: "compact", changed: step.cards[seat].has(i) || (atStart && marks.revealed[seat])})),
      ),
      step.gone[seat].length ? h("div", {class: "gone changed"}, `gone: ${step.gone[seat].join(", ")}`) : null,
    ),
  );
  const lines = log.map((line, i) => h("li", {class: i === play.line ? "current" : i < play.line ? "past" : "future"}, namedLine(line, name)));
  const list = h("ol", {class: "battle-log", start: "1"}, lines);
  replace(stage, h("div", {class: "turn-now"}, now.turn ? `Turn ${now.turn}` : "Before the battle", ` · line ${play.line + 1}/${log.length}`), h("div", {class: "columns"}, columns), list);
  const current = list.children[play.line];
  if (current) list.scrollTop = Math.max(0, current.offsetTop - 60); // the list is the offset parent of its lines
  const toggleButton = stage.parentElement && stage.parentElement.querySelector("[data-play=toggle]");
  if (toggleButton) toggleButton.textContent = play.timer ? "❚❚ pause" : "▶ play";
}
