// Laplaplace's table: the build picker (every card with its text), the two columns, and the battle, which runs
// by itself once both builds are complete, played back step by step from the battle log.
//
// observation(seat) (src/cardarena/games/laplaplace/views.py, docs/games/laplaplace.md):
//   {scene: "blind"|"open"|"league", phase: "show"|"build"|"over", to_act, done: [bool, bool],
//    seats: [{build?: [card ids], base_hp?, open?: [card ids] | null}, ...]   (another seat's build is absent
//    until the battle), result?: {winner, reason, turns, hp, base_hp}, log?: [battle log lines]}
// The card texts come from the legal actions' details ("Lance [6, force 11, damage] <A><Top> ...") and from
// the board panels ("1. Lance [6, ...] ..."): both name the card first.
// The battle log's "Turn N: P0 HP 27/30 [Jab, Plating(down)] | P1 HP ..." lines give the columns at the start
// of each turn, with each card's up/down state; the playback walks the log line by line.

import {h, replace} from "../dom.js";

/** Card texts by display name, gathered from every message seen (the picker shows them all at the start). */
const texts = new Map();
/** Playback state per container: {key, line, timer, speed}. */
const players = new WeakMap();

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

/** A card id ("second-wind") to its display name ("Second Wind") when a text names it, else the id. */
function nameOfId(id) {
  const wanted = id.replace(/-/g, " ").toLowerCase();
  for (const name of texts.keys()) if (name.toLowerCase() === wanted) return name;
  return id;
}

function cardTile(name, {down = false, extra = "", onclick = null, action = null} = {}) {
  const detail = texts.get(name) || name;
  const [, meta, text] = splitText(detail);
  const attrs = {class: `lcard ${extra}${down ? " down" : ""}`, dataset: {card: name}, onclick};
  if (action) attrs.dataset.action = action;
  if (onclick) Object.assign(attrs, {role: "button", tabindex: "0"});
  return h("div", attrs, h("div", {class: "lname"}, name, down ? h("span", {class: "badge"}, "down") : null), meta ? h("div", {class: "lmeta"}, meta) : null, text ? h("div", {class: "ltext"}, text) : null);
}

function backTile(label) {
  return h("div", {class: "lcard back-tile", "aria-label": "hidden build"}, h("div", {class: "lname"}, "[?]"), h("div", {class: "ltext"}, label));
}

// ------------------------------------------------------------------------------------------- the table

export function render(container, message, act, ctx) {
  learnTexts(message);
  const obs = message.observation;
  const me = obs.seat === undefined ? (ctx && ctx.seat) : obs.seat;
  const mine = me === null || me === undefined ? 0 : me;
  const name = (seat) => (ctx && ctx.nameOf ? ctx.nameOf(seat) : `P${seat}`);
  const parts = [h("div", {class: "phase"}, phaseLine(obs, message, mine, name))];
  if (obs.phase === "over" && obs.log) {
    parts.push(battle(container, obs, name));
  } else {
    parts.push(h("div", {class: "columns"}, column(obs, mine, name, true), column(obs, 1 - mine, name, false)));
    if ((message.legal || []).length) parts.push(picker(message.legal, act));
  }
  replace(container, h("div", {class: "laplaplace"}, parts));
}

function phaseLine(obs, message, me, name) {
  if (obs.phase === "over" && obs.result) return `Battle over after ${obs.result.turns} turn(s): ${obs.result.reason}`;
  if (message.to_act === null || message.to_act === undefined) return "Both builds are complete.";
  const verb = obs.phase === "show" ? "show an open card" : "add a card to the build (top first) or stop";
  const finished = (obs.done || []).map((d, s) => (d ? name(s) : null)).filter(Boolean);
  const done = finished.length ? ` · finished: ${finished.join(", ")}` : "";
  if (message.to_act === me) return `Your turn: ${verb}${done}`;
  return `Waiting for ${name(message.to_act)} to ${obs.phase === "show" ? "show" : "build"}${done}`;
}

/** One seat's column during the build: its cards top first, or backs while it is hidden. */
function column(obs, seat, name, own) {
  const s = obs.seats[seat] || {};
  const title = h("h3", {}, own ? `Your build (${name(seat)})` : `${name(seat)}'s build`);
  const open = s.open ? h("div", {class: "open-cards"}, h("span", {class: "muted"}, "open cards: "), s.open.map((id) => h("span", {class: "chip"}, nameOfId(id)))) : null;
  if (!Array.isArray(s.build)) {
    const done = obs.done && obs.done[seat];
    return h("section", {class: "column hidden-column", dataset: {seat}}, title, open, backTile(done ? "build complete" : "still building"));
  }
  const cards = s.build.map((id, i) => h("div", {class: "slot"}, h("span", {class: "place"}, `${i + 1}`), cardTile(nameOfId(id))));
  return h("section", {class: "column", dataset: {seat}}, title, open, cards.length ? cards : h("p", {class: "muted"}, "no cards yet"), h("div", {class: "muted"}, `${s.build.length}/8 places · base HP ${s.base_hp ?? 0}`));
}

/** The build picker: every card that may be added now, grouped by category, with its text. */
function picker(legal, act) {
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
  return h(
    "section",
    {class: "picker"},
    h("h3", {}, "Pick a card (top first)"),
    // a button says what it does: "done" ends this seat's build (the page asks first)
    h("div", {class: "controls"}, plain.map((a) => h("button", {type: "button", class: "big", dataset: {action: a.text}, title: a.text, onclick: () => act(a.text)}, a.text === "done" ? "Finish my build" : a.text))),
    [...groups].map(([group, actions]) =>
      h(
        "div",
        {class: "pick-group"},
        h("h4", {}, group),
        h(
          "div",
          {class: "pick-cards"},
          actions.map((a) => cardTile(splitText(a.detail)[0], {extra: "pickable", action: a.text, onclick: () => act(a.text)})),
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

function battle(container, obs, name) {
  const log = obs.log;
  const key = log.length + (log[0] || "");
  let play = players.get(container);
  if (!play || play.key !== key) {
    if (play) clearInterval(play.timer);
    play = {key, line: 0, timer: null};
    players.set(container, play);
  }
  const turns = turnsOf(log);
  const stage = h("div", {class: "battle"});
  const draw = () => drawBattle(stage, play, obs, turns, name);
  const controls = h(
    "div",
    {class: "controls playback"},
    h("button", {type: "button", dataset: {play: "back"}, onclick: () => move(play, -1, log, draw)}, "◀ step"),
    h("button", {type: "button", dataset: {play: "toggle"}, onclick: () => toggle(play, log, draw)}, play.timer ? "❚❚ pause" : "▶ play"),
    h("button", {type: "button", dataset: {play: "step"}, onclick: () => move(play, 1, log, draw)}, "step ▶"),
    h("button", {type: "button", dataset: {play: "end"}, onclick: () => move(play, log.length, log, draw)}, "end ▶▶"),
  );
  draw();
  return h("section", {class: "battle-box"}, controls, stage);
}

function move(play, delta, log, draw) {
  play.line = Math.max(0, Math.min(log.length - 1, play.line + delta));
  draw();
}

function toggle(play, log, draw) {
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
    }, 350);
  }
  draw();
}

/** A bar of HP against base HP (its width set through the CSSOM, so a strict Content-Security-Policy holds). */
function hpBar(hp, base) {
  const fill = h("span");
  fill.style.width = `${Math.max(0, Math.min(100, (100 * hp) / Math.max(1, base)))}%`;
  return h("div", {class: "hpbar", title: `HP ${hp} of base ${base}`}, fill);
}

function drawBattle(stage, play, obs, turns, name) {
  const log = obs.log;
  const now = battleAt(log, play.line, turns);
  const final = play.line >= log.length - 1;
  const hp = now.hp;
  const base = now.base;
  const cols = now.cols;
  const columns = [0, 1].map((seat) =>
    h(
      "section",
      {class: `column${obs.result && obs.result.winner === seat && final ? " winner" : ""}`, dataset: {seat}},
      h("h3", {}, `${name(seat)} · HP ${hp[seat]}/${base[seat]}`),
      hpBar(hp[seat], base[seat]),
      cols[seat].map((c, i) => h("div", {class: "slot"}, h("span", {class: "place"}, `${i + 1}`), cardTile(c.name, {down: c.down, extra: "compact"}))),
    ),
  );
  const lines = log.map((line, i) => h("li", {class: i === play.line ? "current" : i < play.line ? "past" : "future"}, line));
  const list = h("ol", {class: "battle-log", start: "1"}, lines);
  replace(stage, h("div", {class: "turn-now"}, now.turn ? `Turn ${now.turn}` : "Before the battle", ` · line ${play.line + 1}/${log.length}`), h("div", {class: "columns"}, columns), list);
  const current = list.children[play.line];
  if (current) list.scrollTop = Math.max(0, current.offsetTop - 60); // the list is the offset parent of its lines
  const toggleButton = stage.parentElement && stage.parentElement.querySelector("[data-play=toggle]");
  if (toggleButton) toggleButton.textContent = play.timer ? "❚❚ pause" : "▶ play";
}
