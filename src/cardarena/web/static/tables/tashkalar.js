// Tash-Kalar's table: the 69-square arena as an SVG board, the hand with each card's pattern, the scores per
// colour (duel, High Form tasks, melee, teams) and every decision taken by clicks on the board or the cards.
//
// Drawn from the state message alone (docs/web.md, "Table modules"):
//   observation(seat) (src/cardarena/games/tashkalar/views.py): board {square: [colour, rank]} (rank 1 common,
//     2 heroic, 3 legendary), phase, player (the seat acting), actions, discarded, score / points / colour_scores,
//     supply_two_sided / supply_legendary per colour, hand_sizes [[beings, legends, flares]] per seat, the seat's
//     own hand {beings, legends, flares} (card ids), known_hand_cards, effect {step, marked, self, mover, ...},
//     resolving, tasks / next_task / claimed (High Form), colour_of_seat / turn_seat / handed_over (teams),
//     improvised_colours (melee);
//   board panels (the game's text view, built for the same seat): the hand panel carries each own card's name,
//     rank, text and pattern rows ("c . c" / ". @ ."); the task and effect panels the task and card texts; the
//     arena panel the pattern of a summon waiting for a recalled piece ("( )");
//   legal actions: "place e5", "choose e5", "recall e5", "setup f2 0", "move e5 e7",
//     "summon <card> at e5 r90 [using c3]", "discard|bottom|take <card>", "flare <card> [against 2]",
//     "claim <task>", "score 2", "option 2", "skip", "end", "handover", "resign".
//
// Clicks: a square takes the action on it (place, choose, recall; setup and several actions: a chooser), a piece
// that may move is selected and a click on a highlighted destination moves it; a card of the hand is selected:
// the board shows every square it can be summoned on, a click on one shows the pattern in that rotation or
// reflection (a button per placement when there are several) and "Summon" sends it; the card's other actions
// (discard, flare, put under the deck) are buttons beside it. Words (end, skip, handover, resign) are buttons.
//
// The last move (docs/web.md, "The last move on the table"): ``ctx.before`` is this seat's observation right after
// its own last decision; every square whose piece changed since (placed, summoned, moved in or out, destroyed,
// upgraded, converted) is marked ``changed`` on the board (a new piece outlined and dropped in, a vacated square
// with a faint ghost of the piece that left it), and so is every other changed fact of the observation (scores,
// supplies, hand counts, discard piles, flares, tasks, the end's trigger); a line says the board's changes in words.
// Readable cards: every card face up (hand, discard piles, known cards, tasks, choosers) carries ``ctx.cards``
// (TashKalarGame.card_texts, by card id) through dom.js describeCard: hover, focus or a long press shows it.

import {describeCard, h, replace} from "../dom.js";

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
const SIZE = 9;
const CELL = 40;
const MARGIN = 16;
/** The orientation names of the actions, in the order the engine numbers its symmetries. */
export const ORIENTATIONS = ["r0", "r90", "r180", "r270", "m0", "m90", "m180", "m270"];
const ORIENT_LABEL = {r0: "as printed", r90: "turned 90°", r180: "turned 180°", r270: "turned 270°", m0: "mirrored", m90: "mirrored, 90°", m180: "mirrored, 180°", m270: "mirrored, 270°"};
const RANKS = {1: "common", 2: "heroic", 3: "legendary"};
/** The board's coloured squares and central area (the rulebook's board facts; tests compare them with the engine). */
export const RED = ["c8", "d2", "e5", "h6"];
export const GREEN = ["a5", "c3", "f8", "g3", "i4"];
export const CENTRAL = ["d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"];

/** Inside the 9x9 grid and outside the corner triangles (three squares cut from each corner). */
export function onBoard(x, y) {
  if (x < 0 || y < 0 || x >= SIZE || y >= SIZE) return false;
  return Math.min(x, SIZE - 1 - x) + Math.min(y, SIZE - 1 - y) >= 2;
}

const nameOf = (x, y) => `${FILES[x]}${y + 1}`;
const coords = (sq) => [FILES.indexOf(sq[0]), Number(sq.slice(1)) - 1];

/** Every square of the arena, rank 1 first. */
export const SQUARES = [];
for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) if (onBoard(x, y)) SQUARES.push(nameOf(x, y));

/** The selection in progress (cleared on every new ply): {ply, card, square, variant, from, square, chooser}. */
let selection = null;

// ------------------------------------------------------------------------------------------- reading the message

/** An action's text as its parts: "summon imp at e5 r90 using c3" -> {kind, card, sq, orient, using}. */
export function parseAction(text) {
  const w = text.split(" ");
  const kind = w[0];
  switch (kind) {
    case "place":
    case "choose":
    case "recall":
      return {kind, sq: w[1]};
    case "setup":
      return {kind, sq: w[1], colour: Number(w[2])};
    case "move":
      return {kind, from: w[1], to: w[2]};
    case "summon":
      return {kind, card: w[1], sq: w[3], orient: w[4], using: w[6] || null};
    case "discard":
    case "bottom":
    case "take":
    case "claim":
      return {kind, card: w[1]};
    case "flare":
      return {kind, card: w[1], against: w.length === 4 ? Number(w[3]) : null};
    case "option":
    case "score":
      return {kind, n: Number(w[1])};
    default:
      return {kind};
  }
}

/** The squares a summon's pattern uses, as its menu detail names them: "... pattern on d4 e4 f4 ...". */
export function detailSquares(detail) {
  const m = (detail || "").match(/pattern on((?: [a-i][1-9])*)/);
  return m ? m[1].trim().split(" ").filter(Boolean) : [];
}

/** The own cards of the hand panel: {id: {id, name, rank, text, pattern: [[tokens]], upper, lower}}. */
export function readHand(panels) {
  const cards = {};
  const extra = {teamLegends: [], under: ""};
  const panel = (panels || []).find((p) => p.key === "hand");
  if (!panel) return {cards, extra};
  let current = null;
  for (const line of panel.lines || []) {
    let m = line.match(/^([a-z0-9-]+) \[(common|heroic|legendary)\] (.+?): (.*)$/);
    if (m) {
      current = {id: m[1], rank: m[2], name: m[3], text: m[4], pattern: [], kind: "being"};
      cards[m[1]] = current;
      continue;
    }
    m = line.match(/^([a-z0-9-]+) \[flare (\d+)\/(\d+)\] (.+)$/);
    if (m) {
      current = {id: m[1], rank: "flare", name: m[4], text: "", pattern: [], kind: "flare", upper: Number(m[2]), lower: Number(m[3])};
      cards[m[1]] = current;
      continue;
    }
    m = line.match(/^team legends \(held by your teammate\): (.*)$/);
    if (m) {
      extra.teamLegends = m[1].split(", ");
      current = null;
      continue;
    }
    m = line.match(/^under your school deck \(bottom first\): (.*)$/);
    if (m) {
      extra.under = m[1];
      current = null;
      continue;
    }
    if (current && line.startsWith("      ")) {
      const body = line.trim();
      if (current.kind === "flare") current.text += (current.text ? "\n" : "") + body;
      else current.pattern.push(body.split(/\s+/));
    }
  }
  return {cards, extra};
}

/** Task texts of the High Form panel: {id: {id, name, points, text}} and the next task's text. */
function readTasks(panels) {
  const tasks = {};
  let next = null;
  const panel = (panels || []).find((p) => p.key === "tasks");
  for (const line of (panel && panel.lines) || []) {
    let m = line.match(/^task ([a-z0-9-]+): (.+?) \((\d+) pt\): (.*)$/);
    if (m) tasks[m[1]] = {id: m[1], name: m[2], points: Number(m[3]), text: m[4]};
    m = line.match(/^next task ([a-z0-9-]+): (.*) \| task deck \d+$/);
    if (m) next = {id: m[1], text: m[2]};
  }
  return {tasks, next};
}

/** The arena panel's "( )" squares: the pattern of a summon waiting for a piece to be taken back. */
function panelPattern(panels) {
  const panel = (panels || []).find((p) => p.key === "arena");
  const out = new Set();
  if (!panel) return out;
  for (const line of panel.lines || []) {
    const m = line.match(/^ {0,2}(\d) /);
    if (!m || !/^ +\d /.test(line)) continue;
    const y = Number(m[1]) - 1;
    for (let x = 0; x < SIZE; x++) if (line.slice(4 + 3 * x, 5 + 3 * x) === "(") out.add(nameOf(x, y));
  }
  return out;
}

/** The score target of the mode ("12 pts / 18", "score 3 (its lowest colour) of 10"), read from a seat panel. */
function scoreTarget(panels) {
  for (const p of panels || []) {
    for (const line of p.lines || []) {
      const m = line.match(/^score: .*?(?:\/|of) (\d+)/);
      if (m) return Number(m[1]);
    }
  }
  return null;
}

/** Card names by id: from the hand panel, the legal actions' details ("Name (id)") and the discard piles' panel lines. */
const names = new Map();

function learnNames(message, hand) {
  for (const c of Object.values(hand)) names.set(c.id, c.name);
  for (const a of message.legal || []) {
    const m = (a.detail || "").match(/^(.+) \(([a-z0-9-]+)\)$/);
    if (m) names.set(m[2], m[1]);
    const s = a.text.match(/^summon ([a-z0-9-]+) /);
    const g = (a.group || "").match(/^summon (.+?)(?: \(improvised\))?(?: on ranks? [\d-]+)?$/);
    if (s && g) names.set(s[1], g[1]);
  }
  const obs = message.observation || {};
  const piles = [];
  (obs.school_discards || []).forEach((ids, seat) => piles.push([ids, `seat ${seat}`, /^school discard pile: (.*)$/]));
  piles.push([obs.legend_discard || [], "shared", /^legend discard pile: (.*)$/], [obs.flare_discard || [], "shared", /^flare discard pile: (.*)$/]);
  for (const [ids, key, pattern] of piles) {
    const panel = (message.board || []).find((p) => p.key === key);
    const line = panel && (panel.lines || []).map((l) => l.match(pattern)).find(Boolean);
    const listed = line ? line[1].split(", ") : [];
    if (listed.length === ids.length) ids.forEach((id, i) => names.set(id, listed[i]));
  }
}

/** What each card says (ctx.cards: TashKalarGame.card_texts, keyed by card and task id), set by render. */
let texts = {};

/** A card's name: its card text's, else learned, else its id in words. */
function cardName(id) {
  if (texts[id]) return texts[id].name;
  if (names.has(id)) return names.get(id);
  return id.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

/** What the card viewer shows for card (or task) ``id``: the game's card text, else what the hand panel says. */
function cardInfo(id, task = false) {
  const known = task ? texts[`task:${id}`] || texts[id] : texts[id];
  if (known) return known;
  return {name: cardName(id), cost: null, kind: "", text: [], notes: []};
}

/** ``el`` made readable (dom.js describeCard) as card ``id``; returned for use inside h(). */
function readable(el, id, task = false) {
  return describeCard(el, cardInfo(id, task));
}

/** A card's name as a readable chip (discard piles, known cards, the card an effect resolves). */
function cardChip(id, cls = "tk-named") {
  return readable(h("span", {class: cls, dataset: {card: id}}, cardName(id)), id);
}

/** A list of card chips separated by commas. */
function cardChips(ids) {
  const out = [];
  ids.forEach((id, i) => out.push(i ? ", " : "", cardChip(id)));
  return out;
}

/** The squares a pattern uses when summoned on ``at`` in ``orient``: [{sq, tok}], the summon square first. */
export function patternSquares(rows, at, orient) {
  const k = ORIENTATIONS.indexOf(orient);
  let sc = -1;
  let sr = -1;
  rows.forEach((row, r) =>
    row.forEach((tok, c) => {
      if ("@CHL".includes(tok) && tok.length === 1) [sc, sr] = [c, r];
    }),
  );
  const [ax, ay] = coords(at);
  const out = [{sq: at, tok: rows[sr] ? rows[sr][sc] : "@"}];
  rows.forEach((row, r) =>
    row.forEach((tok, c) => {
      if (tok === "." || (r === sr && c === sc)) return;
      let dx = c - sc;
      let dy = sr - r;
      if (k >= 4) dx = -dx;
      for (let i = 0; i < k % 4; i++) [dx, dy] = [dy, -dx];
      // a marked square ("*") may lie past the arena's edge: there is no square there to draw
      if (onBoard(ax + dx, ay + dy)) out.push({sq: nameOf(ax + dx, ay + dy), tok});
    }),
  );
  return out;
}

// ------------------------------------------------------------------------------------------- drawing helpers

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "dataset") for (const [dk, dv] of Object.entries(v)) el.setAttribute(`data-${dk}`, String(dv));
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function centre(sq) {
  const [x, y] = coords(sq);
  return [MARGIN + x * CELL + CELL / 2, MARGIN + (SIZE - 1 - y) * CELL + CELL / 2];
}

/** A piece: a disc (common), a disc with a ring (heroic, the two-sided piece turned over), a star (legendary). */
function piece(sq, colour, rank, title) {
  const [cx, cy] = centre(sq);
  const attrs = {class: `piece c${colour} rank${rank}`, dataset: {piece: `${colour}-${rank}`, at: sq}};
  if (rank === 3) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 7 : 16;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
    }
    return svg("g", attrs, svg("title", {}, title), svg("polygon", {points: pts.join(" "), class: "body"}));
  }
  const body = svg("circle", {cx, cy, r: rank === 2 ? 15 : 12, class: "body"});
  const ring = rank === 2 ? svg("circle", {cx, cy, r: 8, class: "ring"}) : null;
  return svg("g", attrs, svg("title", {}, title), body, ring);
}

/** A small pattern grid of a card (tokens: . c h l @ C H L * c* h* l*). */
function patternGrid(rows) {
  const width = Math.max(...rows.map((r) => r.length));
  const grid = h("div", {class: "tk-pattern", "aria-label": `pattern ${rows.map((r) => r.join(" ")).join(" / ")}`});
  grid.style.gridTemplateColumns = `repeat(${width}, 1fr)`;
  for (const row of rows) {
    for (const tok of row) {
      const kind = tok === "." ? "none" : ["@", "C", "H", "L"].includes(tok) ? "summon" : tok === "*" ? "marked" : "piece";
      const cls = `tk-pt ${kind}${tok.length > 1 ? " star" : ""} t-${tok.replace("*", "s").replace("@", "at")}`;
      grid.append(h("span", {class: cls, title: TOKEN_WORDS[tok] || tok}, tok === "." ? "" : tok === "@" ? "◎" : tok.replace("*", "✱")));
    }
  }
  return grid;
}

const TOKEN_WORDS = {
  c: "your piece (any rank)",
  h: "your heroic or legendary piece",
  l: "your legendary piece",
  "@": "the summon square",
  C: "summon square on your piece",
  H: "summon square on your heroic or legendary piece",
  L: "summon square on your legendary piece",
  "*": "a marked square",
  "c*": "your piece, marked",
  "h*": "your heroic or legendary piece, marked",
  "l*": "your legendary piece, marked",
};

// ------------------------------------------------------------------------------------------- the table

export function render(container, message, act, ctx) {
  const obs = message.observation || {};
  const legal = message.legal || [];
  if (selection && selection.ply !== message.ply) selection = null;
  texts = (ctx && ctx.cards) || {};
  const {cards: hand, extra} = readHand(message.board);
  learnNames(message, hand);
  const me = obs.seat === undefined || obs.seat === null ? null : obs.seat;
  const n = (obs.hand_sizes || []).length || 2;
  const teams = Array.isArray(obs.colour_of_seat);
  const colourOf = (seat) => (teams ? obs.colour_of_seat[seat] : seat);
  const given = (seat) => (ctx && ctx.nameOf ? ctx.nameOf(seat) : `Player ${seat + 1}`);
  // players of the same name (three "normal AI" in a melee) are told apart by their colour
  const seatsNamed = (word) => [...Array(n).keys()].filter((s) => given(s) === word).length;
  const name = (seat) => (!teams && seatsNamed(given(seat)) > 1 ? `${given(seat)} (${COLOUR_NAMES[colourOf(seat)]})` : given(seat));
  // who plays a colour: its seat, or a team's two seats
  const owners = (colour) => [...Array(n).keys()].filter((s) => colourOf(s) === colour);
  const teamName = (colour) => (me === null ? `the ${COLOUR_NAMES[colour]} team` : colour === colourOf(me) ? "your team" : "the other team");
  const ownerName = (colour) => (teams ? teamName(colour) : owners(colour).map((s) => (s === me ? "you" : name(s))).join(" and ") || name(colour));
  const parsed = legal.map((a) => ({...a, p: parseAction(a.text)}));
  const redraw = () => render(container, message, act, ctx);
  const send = (text) => {
    selection = null;
    act(text);
    redraw();
  };
  const view = {obs, message, legal: parsed, hand, extra, tasks: readTasks(message.board), me, n, teams, colourOf, name, ownerName, redraw, send, ply: message.ply};
  view.words = (text) => engineWords(text, view);
  // the last move: what differs from the observation after this seat's own last decision (null: nothing to mark)
  view.diff = lastMove(ctx && ctx.before, obs);
  // the drop-in of new pieces plays once per state: a redraw while it plays continues it (a negative delay), a
  // later one (a click) shows the marks without it
  const now = performance.now();
  if (!animation || animation.ply !== message.ply) animation = {ply: message.ply, start: now};
  const elapsed = now - animation.start;
  view.animate = !(ctx && ctx.reducedMotion) && elapsed < ANIMATION_MS ? `-${Math.round(elapsed)}ms` : null;
  autoSelect(view);
  const root = h(
    "div",
    {class: "tashkalar", dataset: {phase: obs.phase || "", mode: modeOf(obs), from: (selection && selection.from) || "", card: (selection && selection.card) || ""}},
    statusLine(view),
    scores(view),
    h("div", {class: "tk-main"}, h("div", {class: "tk-board-wrap"}, board(view), boardKey(view)), h("div", {class: "tk-side"}, sinceLine(view), controls(view), handZone(view), tasksZone(view))),
    others(view),
  );
  // the hand's patterns are drawn in the colour of the seat (a spectator: colour 0)
  root.style.setProperty("--mine", `var(--tk${me === null ? 0 : colourOf(me)})`);
  // a change the table draws nowhere (a count of pieces destroyed this turn, an extra draw to come): the status
  // line says that something happened since the player's last move
  if (view.diff && view.diff.any && !root.querySelector(".changed")) root.querySelector(".tk-status").classList.add("changed");
  replace(container, root);
}

/** When the table first drew the state of this ply ({ply, start}): its new pieces drop in once from then on. */
let animation = null;
const ANIMATION_MS = 1400; // the longest of the last move's animations (tables.css tk-arrive, tk-fade)

/** An engine text with seat numbers in words: "seat 1" -> the player's name, "team 0 (seats 0+2)" -> both names. */
export function engineWords(text, view) {
  return String(text || "")
    .replace(/\bteam (\d) \(seats \d\+\d\)/g, (_, c) => view.ownerName(Number(c)))
    .replace(/\bseats (\d)(?:\+| and )(\d)/g, (_, a, b) => `${view.name(Number(a))} and ${view.name(Number(b))}`)
    .replace(/\bseat (\d)\b/g, (_, s) => (Number(s) === view.me ? "you" : view.name(Number(s))))
    .replace(/\bof you\b/g, "of yours");
}

// ------------------------------------------------------------------------------------------- the last move

const same = (a, b) => JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b);

/** What changed between ``before`` and ``obs`` (both this seat's own observation), or null when nothing is to be
 *  marked: ``squares`` sq -> {kind: "new" | "gone" | "changed", was: [colour, rank] | null, now}; then the sets of
 *  colours, seats and card ids whose shown facts changed. */
export function lastMove(before, obs) {
  if (!before || !obs || before === obs) return null;
  const squares = new Map();
  const was = before.board || {};
  const now = obs.board || {};
  for (const sq of new Set([...Object.keys(was), ...Object.keys(now)])) {
    const a = was[sq] || null;
    const b = now[sq] || null;
    if (same(a, b)) continue;
    squares.set(sq, {kind: !a ? "new" : !b ? "gone" : "changed", was: a, now: b});
  }
  const perIndex = (key) => {
    const out = new Set();
    const a = before[key] || [];
    const b = obs[key] || [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) if (!same(a[i], b[i])) out.add(i);
    return out;
  };
  const added = (a, b) => new Set((b || []).filter((x) => !(a || []).includes(x)));
  const ownBefore = before.hand ? [...(before.hand.beings || []), ...(before.hand.legends || []), ...(before.hand.flares || [])] : [];
  const ownNow = obs.hand ? [...(obs.hand.beings || []), ...(obs.hand.legends || []), ...(obs.hand.flares || [])] : [];
  // the score each mode shows: melee's table of points per enemy colour, High Form's points, the duel's score
  const score = perIndex(obs.colour_scores ? "colour_scores" : obs.points ? "points" : "score");
  return {
    squares,
    score,
    supply: new Set([...perIndex("supply_two_sided"), ...perIndex("supply_legendary")]),
    claimed: perIndex("claimed"),
    improvised: perIndex("improvised_colours"),
    melee: (obs.colour_scores || []).map((row, c) => new Set(row.map((v, o) => o).filter((o) => !same(((before.colour_scores || [])[c] || [])[o], row[o])))),
    hands: perIndex("hand_sizes"),
    discards: perIndex("school_discards"),
    known: perIndex("known_hand_cards"),
    decks: perIndex("school_deck_sizes"),
    legendDiscard: added(before.legend_discard, obs.legend_discard),
    flareDiscard: added(before.flare_discard, obs.flare_discard),
    newDiscards: (obs.school_discards || []).map((ids, s) => added((before.school_discards || [])[s], ids)),
    tasks: added(before.tasks, obs.tasks),
    nextTask: !same(before.next_task, obs.next_task),
    ownCards: added(ownBefore, ownNow),
    teamLegends: added(before.team_legends, obs.team_legends),
    trigger: !same(before.trigger, obs.trigger),
    finalTurns: !same(before.final_turns_left, obs.final_turns_left),
    // the turn line: another turn, another seat or phase, the actions left
    turn: ["turn", "player", "phase", "actions", "discarded", "extra_turn_now", "handed_over"].some((k) => !same(before[k], obs[k])),
    effect: !same(before.resolving, obs.resolving) || !same(before.effect, obs.effect),
    ownDecks: ["legend_deck", "flare_deck", "my_deck_bottom"].some((k) => !same(before[k], obs[k])),
    any: !same(before, obs),
  };
}

/** ``cls`` plus " changed" where ``flag`` holds: the class list of an element the last move may have changed. */
const mark = (cls, flag) => (flag ? `${cls} changed` : cls);

/** The board's changes in words, by square ("new: e5 (Bo's heroic) · gone: d4 (your common)"), marked changed. */
function sinceLine(view) {
  const diff = view.diff;
  if (!diff || !diff.squares.size) return null;
  const piece = (p) => pieceWords(view, p);
  const groups = {new: [], changed: [], gone: []};
  for (const [sq, c] of [...diff.squares].sort()) {
    if (c.kind === "new") groups.new.push(`${sq} (${piece(c.now)})`);
    else if (c.kind === "gone") groups.gone.push(`${sq} (${piece(c.was)})`);
    else groups.changed.push(`${sq} (${piece(c.was)} → ${c.was[0] === c.now[0] ? RANKS[c.now[1]] : piece(c.now)})`);
  }
  const parts = [];
  if (groups.new.length) parts.push(h("span", {class: "tk-since-new"}, h("strong", {}, "new: "), groups.new.join(", ")));
  if (groups.changed.length) parts.push(h("span", {class: "tk-since-changed"}, h("strong", {}, "changed: "), groups.changed.join(", ")));
  if (groups.gone.length) parts.push(h("span", {class: "tk-since-gone"}, h("strong", {}, "gone (moved or destroyed): "), groups.gone.join(", ")));
  return h("section", {class: "tk-since changed", "aria-live": "polite"}, h("div", {class: "tk-since-title"}, view.me === null ? "On the board since the last action" : "On the board since your last move"), parts);
}

/** What the board's pieces and marks mean: a short key under the board. */
function boardKey(view) {
  const chip = (cls) => h("span", {class: `tk-key-sym ${cls}`, "aria-hidden": "true"});
  const items = [
    [chip("common"), "common"],
    [chip("heroic"), "heroic"],
    [chip("legendary"), "legendary"],
    [chip("red"), "red and"],
    [chip("green"), "green squares"],
    [chip("central"), "central area"],
  ];
  if (view.diff && view.diff.squares.size) items.push([chip("new"), view.me === null ? "new or changed" : "new or changed since your move"], [chip("gone"), "piece gone"]);
  return h("div", {class: "tk-key", "aria-label": "board key"}, items.map(([sym, words]) => h("span", {class: "tk-key-item"}, sym, words)));
}

function modeOf(obs) {
  if (obs.colour_scores) return "melee";
  if (obs.tasks) return "highform";
  return "deathmatch";
}

/** When every move of an effect starts from one piece, it is selected already: one click takes a destination. */
function autoSelect(view) {
  const moves = view.legal.filter((a) => a.p.kind === "move");
  const sources = new Set(moves.map((a) => a.p.from));
  if (sources.size === 1 && !view.legal.some((a) => ["place", "choose", "recall"].includes(a.p.kind)) && !selection) {
    selection = {ply: view.ply, from: [...sources][0], auto: true};
  }
}

/** What the seat to act is doing, by phase (the engine's phase names are not shown). */
const PHASE_WORDS = {
  setup: "placing a first piece",
  "melee-setup": "placing the setup commons",
  main: "playing",
  effect: "resolving an effect",
  bottom: "putting cards under their decks",
  "recall-place": "placing a piece taken back",
  "summon-recall": "taking back a piece",
  "pick-colour": "choosing a colour to score in",
  "claim-task": "choosing a task to claim",
};

function statusLine(view) {
  const {obs, name, diff} = view;
  const parts = [`Turn ${obs.turn ?? "?"}`];
  if (obs.phase === "over") parts.push(`the game is over${obs.trigger ? `: ${view.words(obs.trigger)}` : ""}`);
  else {
    const mine = obs.player === view.me;
    let line = `${mine ? "you are" : `${name(obs.player)} is`} ${PHASE_WORDS[obs.phase] || obs.phase}`;
    if (view.teams && obs.handed_over) line += `, handed over by ${name(obs.turn_seat)}`;
    parts.push(line);
    if (obs.phase === "main") parts.push(`${obs.actions} action${obs.actions === 1 ? "" : "s"} left${obs.discarded ? ", discard used" : ""}`);
    if (obs.extra_turn_now) parts.push("extra turn");
  }
  const lines = [h("div", {class: mark("tk-phase", diff && diff.turn)}, parts.join(" · "))];
  if (obs.phase !== "over" && obs.final_turns_left !== null && obs.final_turns_left >= 0 && obs.trigger) {
    const final = `Final round: ${obs.final_turns_left} turn${obs.final_turns_left === 1 ? "" : "s"} left (${view.words(obs.trigger)})`;
    lines.push(h("div", {class: mark("tk-final", diff && (diff.trigger || diff.finalTurns))}, final));
  }
  if (obs.resolving && obs.phase !== "over") {
    const step = obs.effect ? obs.effect.step : "";
    const mover = obs.effect && obs.effect.mover ? ` (the piece on ${obs.effect.mover}, ${obs.effect.moves_left} move${obs.effect.moves_left === 1 ? "" : "s"} left)` : "";
    lines.push(h("div", {class: mark("tk-effect", diff && diff.effect), dataset: {resolving: obs.resolving}}, cardChip(obs.resolving, "tk-named strong"), ": ", `${step || "resolving"}${mover}`));
  }
  const hint = hintText(view);
  if (hint) lines.push(h("div", {class: "tk-hint"}, hint));
  return h("section", {class: "tk-status"}, lines);
}

/** What a click does now, in words: only what the legal actions allow (none: no hint, e.g. the game is over). */
function hintText(view) {
  const kinds = new Set(view.legal.map((a) => a.p.kind));
  kinds.delete("resign");
  const obs = view.obs;
  if (!kinds.size || obs.phase === "over") return "";
  if (selection && selection.card && selection.square) return "Pick the placement (its pattern is outlined on the board), then Summon.";
  if (selection && selection.card) return "Highlighted squares: where this card can be summoned. Click one.";
  if (selection && selection.from) return `Click a highlighted square to move the piece on ${selection.from}.`;
  if (obs.phase === "setup") return "Choose the square of your first common piece.";
  if (obs.phase === "melee-setup") return "Put a setup common: click a highlighted square.";
  if (obs.phase === "bottom") return "Put cards under their decks: select a card, or skip.";
  if (obs.phase === "claim-task") return "Claim a task (click it), or skip.";
  if (obs.phase === "pick-colour") return "Choose the colour to score 1 point in.";
  if (obs.phase === "summon-recall") return "Out of pieces: take back one of your pieces outside the pattern.";
  if (obs.phase === "recall-place") return "Place the piece you took back.";
  if (kinds.has("move")) return "Click a highlighted piece, then where it goes.";
  if (obs.phase === "main") {
    const can = [];
    if (kinds.has("place")) can.push("click a dotted empty square to place a common piece");
    if (kinds.has("summon")) can.push("click a card of your hand to summon it");
    if (can.length) return `${can.join(", or ")[0].toUpperCase()}${can.join(", or ").slice(1)}.`;
    if (kinds.has("flare")) return "No actions left: you may still invoke your flare (click it), or end your turn.";
    if (kinds.has("end")) return obs.actions > 0 ? "Nothing to place or summon: end your turn." : "No actions left: end your turn.";
    return "";
  }
  if (kinds.has("option")) return "Choose one of the effect's options.";
  if (kinds.has("skip") && kinds.size === 1) return "Nothing more to do here: skip.";
  return "Click a highlighted square.";
}

// ------------------------------------------------------------------------------------------- scores

const COLOUR_NAMES = ["blue", "red", "green", "purple"];

function colourChip(colour) {
  return h("span", {class: `tk-chip c${colour}`, title: COLOUR_NAMES[colour]});
}

function scores(view) {
  const {obs, name} = view;
  const diff = view.diff;
  const target = scoreTarget(view.message.board);
  const ncol = (obs.supply_two_sided || []).length;
  const rows = [];
  for (let c = 0; c < ncol; c++) {
    const seats = [];
    for (let s = 0; s < view.n; s++) if (view.colourOf(s) === c) seats.push(s);
    const who = seats.map((s) => `${name(s)}${s === view.me ? " (you)" : ""}`).join(" + ");
    let score;
    let detail = null;
    if (obs.colour_scores) {
      const row = obs.colour_scores[c];
      const others = row.map((v, o) => [o, v]).filter(([o]) => o !== c);
      const lowest = Math.min(...others.map(([, v]) => v));
      score = `${lowest}${target ? ` / ${target}` : ""}`;
      detail = h(
        "span",
        {class: "tk-melee"},
        others.map(([o, v]) => h("span", {class: mark("tk-melee-cell", diff && diff.melee[c] && diff.melee[c].has(o)), title: `points in the colour of ${name(o)}`}, colourChip(o), String(v))),
        obs.improvised_colours
          ? h("span", {class: mark("muted tk-improvised", diff && diff.improvised.has(c))}, ` improvised with: ${obs.improvised_colours[c].length ? obs.improvised_colours[c].map((o) => (view.ownerName(o) === "you" ? "your pieces" : `${view.ownerName(o)}'s pieces`)).join(", ") : "nobody's pieces yet"}`)
          : null,
      );
    } else if (obs.points) {
      const claimed = (obs.claimed && obs.claimed[c]) || [];
      score = `${obs.points[c]}${target ? ` / ${target}` : ""}`;
      // the claimed tasks by name, each readable (its points and condition)
      const chips = claimed.map((id, i) => [i ? ", " : "", readable(h("span", {class: "tk-named", dataset: {task: id}}, cardInfo(id, true).name), id, true)]);
      detail = h("span", {class: mark("muted tk-claimed", diff && diff.claimed.has(c))}, `${claimed.length} task${claimed.length === 1 ? "" : "s"}`, claimed.length ? [": ", chips] : "");
    } else {
      score = `${obs.score ? obs.score[c] : 0}${target ? ` / ${target}` : ""}`;
    }
    const acting = obs.phase !== "over" && seats.includes(obs.player);
    rows.push(
      h(
        "div",
        {class: `tk-score${acting ? " acting" : ""}`, dataset: {colour: c}},
        colourChip(c),
        h("span", {class: "tk-who"}, view.teams ? `team: ${who}` : who),
        h("strong", {class: mark("tk-points", diff && diff.score.has(c)), title: obs.colour_scores ? "score: the lowest of the points in each enemy colour" : "score"}, score),
        h("span", {class: mark("tk-supply", diff && diff.supply.has(c)), title: "pieces left in the supply: two-sided (common or heroic) / legendary"}, `◯ ${obs.supply_two_sided[c]} · ★ ${obs.supply_legendary[c]} left`),
        detail,
      ),
    );
  }
  return h("section", {class: "tk-scores"}, rows);
}


// ------------------------------------------------------------------------------------------- the board

function board(view) {
  const {obs, legal} = view;
  const width = 2 * MARGIN + SIZE * CELL;
  const root = svg("svg", {class: "tk-board", viewBox: `0 0 ${width} ${width}`, role: "group", "aria-label": "the arena"});
  const red = new Set(RED);
  const green = new Set(GREEN);
  const central = new Set(CENTRAL);
  const squares = svg("g", {class: "squares"});
  for (const sq of SQUARES) {
    const [x, y] = coords(sq);
    const cls = ["sq", (x + y) % 2 ? "light" : "dark", red.has(sq) ? "red" : green.has(sq) ? "green" : "", central.has(sq) ? "central" : ""].filter(Boolean).join(" ");
    squares.append(svg("rect", {x: MARGIN + x * CELL, y: MARGIN + (SIZE - 1 - y) * CELL, width: CELL, height: CELL, class: cls, dataset: {sq}}));
  }
  root.append(squares);
  // the central area's outline
  const [cx0, cy0] = [MARGIN + 3 * CELL, MARGIN + 3 * CELL];
  root.append(svg("rect", {x: cx0, y: cy0, width: 3 * CELL, height: 3 * CELL, class: "central-frame"}));
  const labels = svg("g", {class: "labels"});
  for (let x = 0; x < SIZE; x++) {
    labels.append(svg("text", {x: MARGIN + x * CELL + CELL / 2, y: MARGIN - 4, "text-anchor": "middle"}, FILES[x]));
    labels.append(svg("text", {x: MARGIN + x * CELL + CELL / 2, y: width - 3, "text-anchor": "middle"}, FILES[x]));
  }
  for (let y = 0; y < SIZE; y++) {
    const py = MARGIN + (SIZE - 1 - y) * CELL + CELL / 2 + 4;
    labels.append(svg("text", {x: MARGIN / 2, y: py, "text-anchor": "middle"}, String(y + 1)));
    labels.append(svg("text", {x: width - MARGIN / 2, y: py, "text-anchor": "middle"}, String(y + 1)));
  }
  root.append(labels);

  const marks = squareMarks(view);
  const under = svg("g", {class: "marks under"});
  for (const [sq, set] of marks) {
    const [x, y] = coords(sq);
    for (const cls of set) if (UNDER_MARKS.has(cls)) under.append(svg("rect", {x: MARGIN + x * CELL + 2, y: MARGIN + (SIZE - 1 - y) * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 5, class: `mark ${cls}`, dataset: {sq}}));
  }
  root.append(under);

  // the last move, under the pieces: a ghost of each piece that left its square (moved away or destroyed)
  const diff = view.diff;
  const lastMarks = svg("g", {class: "marks last-move"});
  for (const [sq, c] of diff ? diff.squares : []) {
    const [x, y] = coords(sq);
    const words = c.kind === "gone" ? `gone from ${sq}: ${pieceWords(view, c.was)} (moved away or destroyed)` : c.kind === "new" ? `new on ${sq}: ${pieceWords(view, c.now)}` : `changed on ${sq}: ${pieceWords(view, c.was)}, now ${pieceWords(view, c.now)}`;
    const box = svg("rect", {x: MARGIN + x * CELL + 1.5, y: MARGIN + (SIZE - 1 - y) * CELL + 1.5, width: CELL - 3, height: CELL - 3, rx: 5, class: `mark changed last-${c.kind}`, dataset: {sq, change: c.kind}}, svg("title", {}, words));
    lastMarks.append(box);
    if (c.kind === "gone") {
      const ghost = piece(sq, c.was[0], c.was[1], words);
      ghost.setAttribute("class", `ghost c${c.was[0]} rank${c.was[1]}${view.animate ? " fading" : ""}`);
      if (view.animate) ghost.style.animationDelay = view.animate;
      ghost.removeAttribute("data-piece");
      lastMarks.append(ghost);
    }
  }
  root.append(lastMarks);

  const pieces = svg("g", {class: "pieces"});
  for (const [sq, [colour, rank]] of Object.entries(obs.board || {})) {
    const el = piece(sq, colour, rank, `${pieceWords(view, [colour, rank])} on ${sq}`);
    const change = diff && diff.squares.get(sq);
    if (change && view.animate) {
      el.classList.add("arrived");
      el.style.animationDelay = view.animate;
    }
    pieces.append(el);
  }
  root.append(pieces);

  const over = svg("g", {class: "marks over"});
  for (const [sq, set] of marks) {
    const [x, y] = coords(sq);
    const px = MARGIN + x * CELL;
    const py = MARGIN + (SIZE - 1 - y) * CELL;
    for (const cls of set) {
      if (UNDER_MARKS.has(cls)) continue;
      if (cls.startsWith("tok-")) over.append(svg("text", {x: px + CELL - 4, y: py + 12, "text-anchor": "end", class: `mark ${cls}`, dataset: {sq}}, cls.slice(4).replace("s", "✱").replace("at", "◎")));
      else if (cls === "dot") over.append(svg("circle", {cx: px + CELL / 2, cy: py + CELL / 2, r: 4, class: "mark dot", dataset: {sq}}));
      else over.append(svg("rect", {x: px + 1.5, y: py + 1.5, width: CELL - 3, height: CELL - 3, rx: 4, class: `mark ${cls}`, dataset: {sq}}));
    }
  }
  root.append(over);

  // the click layer: one transparent square per board square, on top
  const hits = svg("g", {class: "hits"});
  const clickable = clickableSquares(view);
  for (const sq of SQUARES) {
    const [x, y] = coords(sq);
    hits.append(
      svg("rect", {
        x: MARGIN + x * CELL,
        y: MARGIN + (SIZE - 1 - y) * CELL,
        width: CELL,
        height: CELL,
        class: `hit${clickable.has(sq) ? " clickable" : ""}`,
        dataset: {square: sq},
        // the squares a click does something on are reached with the keyboard too (Tab, then Enter or Space)
        tabindex: clickable.has(sq) ? "0" : null,
        role: clickable.has(sq) ? "button" : null,
        "aria-label": `square ${sq}`,
        onclick: (event) => {
          event.stopPropagation();
          onSquare(view, sq);
        },
        onkeydown: (event) => {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault();
          onSquare(view, sq);
        },
      }),
    );
  }
  root.append(hits);
  if (!legal.length) root.classList.add("idle");
  return root;
}

/** "Bo's heroic", "your common": a piece in words, by its colour's players. */
function pieceWords(view, [colour, rank]) {
  const who = view.ownerName(colour);
  return `${who === "you" ? "your" : `${who}'s`} ${RANKS[rank]}`;
}

/** Marks drawn under the pieces (tints); the others are outlines and dots over them. */
const UNDER_MARKS = new Set(["pattern", "being", "marked-sq", "using"]);

/** Every square's highlights, as class names: targets of a click, the selection, the summon preview, the effect. */
function squareMarks(view) {
  const {obs, legal} = view;
  const marks = new Map();
  const add = (sq, cls) => {
    if (!sq) return;
    if (!marks.has(sq)) marks.set(sq, new Set());
    marks.get(sq).add(cls);
  };
  const effect = obs.effect || null;
  if (effect) {
    for (const sq of effect.marked || []) add(sq, "marked-sq");
    if (effect.self) add(effect.self, "self");
    for (const sq of effect.picked || []) add(sq, "picked");
  }
  for (const sq of panelPattern(view.message.board)) add(sq, "pattern");
  const sel = selection;
  if (sel && sel.card) {
    const summons = legal.filter((a) => a.p.kind === "summon" && a.p.card === sel.card);
    for (const a of summons) add(a.p.sq, "summon-place");
    if (sel.square) {
      const variants = summons.filter((a) => a.p.sq === sel.square);
      const chosen = variants[Math.min(sel.variant || 0, variants.length - 1)];
      if (chosen) for (const [sq, cls] of previewSquares(view, chosen)) add(sq, cls);
      add(sel.square, "chosen");
    }
    return marks;
  }
  if (sel && sel.from) {
    add(sel.from, "source-selected");
    for (const a of legal) {
      if (a.p.kind !== "move" || a.p.from !== sel.from) continue;
      add(a.p.to, "dest");
      if (/destroys/.test(a.detail || "")) add(a.p.to, "destroy");
    }
  }
  const quiet = obs.phase === "main" || obs.phase === "recall-place"; // placing a common: a dot, not an outline
  for (const a of legal) {
    if (["place", "choose", "recall", "setup"].includes(a.p.kind)) add(a.p.sq, quiet && a.p.kind === "place" ? "dot" : "target");
    if (a.p.kind === "move" && !(sel && sel.from)) add(a.p.from, "source");
  }
  return marks;
}

/** The preview of one summon: [square, class] for the being's square, the pattern's pieces and marked squares. */
function previewSquares(view, action) {
  const card = view.hand[action.p.card];
  const out = [];
  const listed = detailSquares(action.detail);
  if (card && card.pattern.length) {
    for (const {sq, tok} of patternSquares(card.pattern, action.p.sq, action.p.orient)) {
      if (sq === action.p.sq) out.push([sq, "being"]);
      else if (tok === "*") out.push([sq, "marked-sq"]);
      else out.push([sq, "pattern"]);
      if (tok !== "@" && tok !== ".") out.push([sq, `tok-${tok.replace("*", "s")}`]);
    }
  } else {
    out.push([action.p.sq, "being"]);
    for (const sq of listed) out.push([sq, "pattern"]);
  }
  if (action.p.using) out.push([action.p.using, "using"]);
  return out;
}

/** The squares a click does something on now. */
function clickableSquares(view) {
  const out = new Set();
  for (const a of view.legal) {
    if (["place", "choose", "recall", "setup"].includes(a.p.kind)) out.add(a.p.sq);
    if (a.p.kind === "move") out.add(a.p.from);
    if (a.p.kind === "move" && selection && selection.from === a.p.from) out.add(a.p.to);
    if (a.p.kind === "summon" && selection && selection.card === a.p.card) out.add(a.p.sq);
  }
  return out;
}

// ------------------------------------------------------------------------------------------- clicks on the board

function onSquare(view, sq) {
  const {legal} = view;
  const sel = selection;
  if (sel && sel.card) {
    const here = legal.filter((a) => a.p.kind === "summon" && a.p.card === sel.card && a.p.sq === sq);
    if (here.length) {
      selection = {...sel, square: sq, variant: 0, chooser: null};
      return view.redraw();
    }
    selection = null; // a click elsewhere drops the card
  }
  if (sel && sel.from) {
    const move = legal.find((a) => a.p.kind === "move" && a.p.from === sel.from && a.p.to === sq);
    if (move) return view.send(move.text);
    if (sq === sel.from && !sel.auto) {
      selection = null;
      return view.redraw();
    }
  }
  const here = legal.filter((a) => ["place", "choose", "recall", "setup"].includes(a.p.kind) && a.p.sq === sq);
  const moves = legal.filter((a) => a.p.kind === "move" && a.p.from === sq);
  if (moves.length && !here.length) {
    selection = {ply: view.ply, from: sq};
    return view.redraw();
  }
  if (here.length === 1 && !moves.length) return view.send(here[0].text);
  if (here.length + moves.length > 1) {
    selection = {ply: view.ply, chooser: {title: `On ${sq}: choose one`, actions: here, from: moves.length ? sq : null}};
    return view.redraw();
  }
  if (selection !== sel) view.redraw();
  return undefined;
}

function onCard(view, id) {
  if (selection && selection.card === id) {
    selection = null;
  } else {
    const any = view.legal.some((a) => a.p.card === id && ["summon", "discard", "bottom", "flare"].includes(a.p.kind));
    selection = any ? {ply: view.ply, card: id} : null;
  }
  view.redraw();
}

// ------------------------------------------------------------------------------------------- controls

function button(label, text, view, {cls = "", title = null} = {}) {
  return h("button", {type: "button", class: `tk-btn ${cls}`, title, dataset: {action: text}, onclick: () => view.send(text)}, label);
}

/** A square's action as a button label: "Place a common piece on e5", "Take back your heroic on c3". */
function squareLabel(view, a) {
  const here = view.obs.board && view.obs.board[a.p.sq];
  const what = here ? pieceWords(view, here) : "the square";
  if (a.p.kind === "place") return `Place a common piece on ${a.p.sq}`;
  if (a.p.kind === "recall") return `Take back ${what} on ${a.p.sq}`;
  if (a.p.kind === "choose") return here ? `Choose ${what} on ${a.p.sq}` : `Choose ${a.p.sq}`;
  return `${a.p.kind} ${a.p.sq}`;
}

/** A summon's menu detail in words: "at e5 r90: being on e5, pattern on d4 e4 f4; destroys the heroic of seat 1
 *  on e5" -> "Being on e5, pattern on d4 e4 f4; destroys Bo's heroic on e5". */
function summonWords(view, detail) {
  const text = view.words(String(detail || "").replace(/^at [a-i]\d [rm]\d+: /, "")).replace(/\bthe (common|heroic|legendary) of ([^;]+?) on ([a-i]\d)/g, (_, rank, who, sq) => `${who === "yours" ? "your" : `${who}'s`} ${rank} on ${sq}`);
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

function controls(view) {
  const {legal, obs, name} = view;
  const parts = [];
  const chooser = chooserBox(view);
  if (chooser) parts.push(chooser);
  const words = [];
  for (const a of legal) {
    switch (a.p.kind) {
      case "end":
        words.push(button("End turn", a.text, view, {cls: "big"}));
        break;
      case "skip":
        words.push(button(obs.phase === "claim-task" ? "Claim no task" : obs.phase === "bottom" ? "Done (skip)" : "Skip", a.text, view, {cls: "big"}));
        break;
      case "handover": {
        const mate = view.me === null ? null : (view.me + 2) % 4;
        words.push(button(mate === null ? "Hand over" : `Hand over to ${name(mate)}`, a.text, view, {cls: "big"}));
        break;
      }
      case "resign":
        words.push(resignButton(view, a.text));
        break;
      case "option":
        words.push(button(view.words(a.detail) || `Option ${a.p.n}`, a.text, view, {cls: "option", title: view.words(a.detail)}));
        break;
      case "score":
        words.push(h("button", {type: "button", class: "tk-btn score", dataset: {action: a.text}, title: view.words(a.detail), onclick: () => view.send(a.text)}, colourChip(a.p.n), ` 1 point in ${view.ownerName(a.p.n)}'s colour`));
        break;
      case "take":
        words.push(readable(h("button", {type: "button", class: "tk-btn take", dataset: {action: a.text}, onclick: () => view.send(a.text)}, `Take ${cardName(a.p.card)} into your hand`), a.p.card));
        break;
      case "claim":
        words.push(readable(button(`Claim ${cardInfo(a.p.card, true).name || a.detail}`, a.text, view, {cls: "claim"}), a.p.card, true));
        break;
      default:
        break;
    }
  }
  if (words.length) parts.push(h("div", {class: "tk-words"}, words));
  if (!parts.length) return h("section", {class: "tk-controls empty"});
  return h("section", {class: "tk-controls"}, parts);
}

/** Resigning: the page asks first (the legal action's ``confirm``), so a stray click loses nothing. */
function resignButton(view, text) {
  return h("button", {type: "button", class: "tk-btn quiet", dataset: {action: text}, onclick: () => view.send(text)}, "Resign…");
}

/** The box of the selection: a card's actions and its summon placements, or the actions of one square. */
function chooserBox(view) {
  const sel = selection;
  if (!sel) return null;
  const cancel = h(
    "button",
    {
      type: "button",
      class: "tk-btn cancel",
      onclick: () => {
        selection = null;
        view.redraw();
      },
    },
    "Cancel",
  );
  if (sel.chooser) {
    const pickSource = () => {
      selection = {ply: view.ply, from: sel.chooser.from};
      view.redraw();
    };
    const moves = sel.chooser.from ? h("button", {type: "button", class: "tk-btn", dataset: {source: sel.chooser.from}, onclick: pickSource}, `Move the piece on ${sel.chooser.from}`) : null;
    return h(
      "div",
      {class: "tk-chooser", role: "dialog"},
      h("div", {class: "tk-chooser-title"}, sel.chooser.title),
      h(
        "div",
        {class: "tk-chooser-actions"},
        sel.chooser.actions.map((a) =>
          a.p.kind === "setup"
            ? h("button", {type: "button", class: "tk-btn", dataset: {action: a.text}, onclick: () => view.send(a.text)}, colourChip(a.p.colour), ` a common of ${view.name(a.p.colour)}`)
            : button(squareLabel(view, a), a.text, view),
        ),
        moves,
        cancel,
      ),
    );
  }
  if (!sel.card) return null;
  const card = sel.card;
  const mine = view.legal.filter((a) => a.p.card === card && a.p.kind !== "take" && a.p.kind !== "claim");
  const summons = mine.filter((a) => a.p.kind === "summon");
  const others = mine.filter((a) => a.p.kind !== "summon");
  const places = new Set(summons.map((a) => a.p.sq)).size;
  const title = `${cardName(card)}${summons.length ? `: ${places} square${places === 1 ? "" : "s"} to summon on` : ""}`;
  // what the card does, read from the card text (a being's effect; a flare's two halves)
  const info = cardInfo(card);
  const effect = (info.text || []).filter((line) => !line.startsWith("Pattern:"));
  const rows = [effect.length ? h("div", {class: "tk-chooser-text"}, effect.map((line) => h("div", {}, line))) : null];
  if (sel.square) {
    const variants = summons.filter((a) => a.p.sq === sel.square);
    const i = Math.min(sel.variant || 0, variants.length - 1);
    if (variants.length > 1) {
      rows.push(
        h(
          "div",
          {class: "tk-variants"},
          variants.map((a, k) =>
            h(
              "button",
              {
                type: "button",
                class: `tk-btn variant${k === i ? " current" : ""}`,
                dataset: {variant: a.text},
                title: summonWords(view, a.detail),
                onclick: () => {
                  selection = {...sel, variant: k};
                  view.redraw();
                },
              },
              `${ORIENT_LABEL[a.p.orient] || a.p.orient}${a.p.using ? ` using ${a.p.using}` : ""}`,
            ),
          ),
        ),
      );
    }
    const chosen = variants[i];
    rows.push(h("div", {class: "tk-detail"}, summonWords(view, chosen.detail) || `On ${sel.square}`));
    rows.push(button(`Summon ${cardName(card)} on ${sel.square}`, chosen.text, view, {cls: "big summon"}));
  }
  const labels = {discard: "Discard (draw later)", bottom: "Put under its deck", flare: "Invoke this flare"};
  for (const a of others) {
    const label = a.p.kind === "flare" && a.p.against !== null ? `Invoke against ${view.name(a.p.against)}` : labels[a.p.kind] || a.text;
    rows.push(button(label, a.text, view, {cls: a.p.kind}));
  }
  return h("div", {class: "tk-chooser", role: "dialog", dataset: {card}}, readable(h("div", {class: "tk-chooser-title"}, title), card), h("div", {class: "tk-chooser-actions"}, rows, cancel));
}

// ------------------------------------------------------------------------------------------- cards

function cardTile(view, id, {kind, own = true, known = false, fresh = false} = {}) {
  const card = view.hand[id] || {id, name: cardName(id), rank: kind, text: "", pattern: []};
  const usable = view.legal.some((a) => a.p.card === id && ["summon", "discard", "bottom", "flare"].includes(a.p.kind));
  const canSummon = view.legal.some((a) => a.p.card === id && a.p.kind === "summon");
  const selected = selection && selection.card === id;
  const attrs = {
    class: mark(`tk-card ${card.kind === "flare" ? "flare" : card.rank}${usable ? " usable" : ""}${canSummon ? " summonable" : ""}${selected ? " selected" : ""}${known ? " known" : ""}`, fresh),
    dataset: {card: id},
  };
  if (own && usable) Object.assign(attrs, {role: "button", tabindex: "0", onclick: () => onCard(view, id), onkeydown: (e) => (e.key === "Enter" || e.key === " ") && onCard(view, id)});
  const head = h("div", {class: "tk-card-head"}, h("span", {class: "tk-card-name"}, card.name), h("span", {class: "tk-card-rank"}, card.kind === "flare" ? `flare ${card.upper ?? ""}/${card.lower ?? ""}` : card.rank || ""));
  const body = card.pattern && card.pattern.length ? patternGrid(card.pattern) : null;
  const text = card.text ? h("div", {class: "tk-card-text"}, card.text) : null;
  return readable(h("div", attrs, head, body, text), id);
}

function handZone(view) {
  const {obs} = view;
  if (!obs.hand) return null;
  const groups = [
    ["beings", obs.hand.beings || []],
    ["legends", obs.hand.legends || []],
    ["flare", obs.hand.flares || []],
  ];
  const rows = groups.map(([label, ids]) =>
    h("div", {class: "tk-hand-group"}, h("div", {class: "tk-zone-name"}, `${label} (${ids.length})`), h("div", {class: "tk-cards"}, ids.map((id) => cardTile(view, id, {kind: label, fresh: !!view.diff && view.diff.ownCards.has(id)})))),
  );
  // a team's legends are shared: the teammate's are known, and summoned by this seat after a handover
  const teamIds = obs.team_legends || [];
  const team = teamIds.length
    ? h("div", {class: "tk-hand-group team"}, h("div", {class: "tk-zone-name"}, `team legends held by ${view.name((view.me + 2) % 4)} (${teamIds.length})`), h("div", {class: "tk-cards"}, teamIds.map((id) => cardTile(view, id, {kind: "legendary", fresh: !!view.diff && view.diff.teamLegends.has(id)}))))
    : null;
  const deck = h(
    "div",
    {class: mark("tk-note muted", view.diff && (view.diff.ownDecks || (view.me !== null && view.diff.decks.has(view.me))))},
    `school deck ${obs.school_deck_sizes ? obs.school_deck_sizes[view.me] : "?"}`,
    obs.my_deck_bottom && obs.my_deck_bottom.length ? [" · under it (bottom first): ", cardChips(obs.my_deck_bottom)] : "",
    ` · legend deck ${obs.legend_deck} · flare deck ${obs.flare_deck}`,
  );
  return h("section", {class: "tk-hand"}, h("h3", {}, "Your hand"), rows, team, deck);
}

function tasksZone(view) {
  const {obs} = view;
  if (!obs.tasks) return null;
  const claims = new Map(view.legal.filter((a) => a.p.kind === "claim").map((a) => [a.p.card, a]));
  const diff = view.diff;
  const tiles = obs.tasks.map((id) => {
    const t = view.tasks.tasks[id] || {id, name: id, points: "?", text: ""};
    const claim = claims.get(id);
    const attrs = {class: mark(`tk-task${claim ? " claimable" : ""}`, diff && diff.tasks.has(id)), dataset: {task: id}};
    if (claim) Object.assign(attrs, {role: "button", tabindex: "0", dataset: {task: id, action: claim.text}, onclick: () => view.send(claim.text)});
    const tile = h("div", attrs, h("div", {class: "tk-card-head"}, h("span", {class: "tk-card-name"}, t.name), h("span", {class: "tk-card-rank"}, `${t.points} pt`)), h("div", {class: "tk-card-text"}, t.text));
    return readable(tile, id, true);
  });
  const next = obs.next_task
    ? h(
        "div",
        {class: mark("tk-note muted tk-next-task", diff && diff.nextTask)},
        "next task: ",
        readable(h("span", {class: "tk-named", dataset: {task: obs.next_task}}, texts[obs.next_task] ? cardInfo(obs.next_task, true).name : view.tasks.next ? view.tasks.next.text : obs.next_task), obs.next_task, true),
        ` · task deck ${obs.task_deck}`,
      )
    : null;
  return h("section", {class: "tk-tasks"}, h("h3", {}, "High Form tasks"), h("div", {class: "tk-cards"}, tiles), next);
}

/** The other seats: their hands as backs with counts (and the cards every seat saw them take), decks, discards. */
function others(view) {
  const {obs, name} = view;
  const diff = view.diff;
  const blocks = [];
  for (let s = 0; s < view.n; s++) {
    const sizes = (obs.hand_sizes || [])[s] || [0, 0, 0];
    const known = (obs.known_hand_cards || [])[s] || [];
    const own = s === view.me;
    const mate = view.teams && view.me !== null && s === (view.me + 2) % 4;
    // hidden cards as backs: the known ones (taken from a discard pile in sight; a teammate's legends) are named
    const backs = [];
    const shown = mate ? obs.team_legends || [] : [];
    if (!own) {
      for (const [count, kind] of [
        [Math.max(0, sizes[0] - known.length), "being"],
        [mate ? 0 : sizes[1], "legend"],
        [sizes[2], "flare"],
      ]) {
        for (let i = 0; i < count; i++) backs.push(h("span", {class: `tk-back ${kind}`, title: `a hidden ${kind}`}));
      }
    }
    const discard = (obs.school_discards || [])[s] || [];
    blocks.push(
      h(
        "section",
        {class: `tk-seat${own ? " mine" : ""}${obs.player === s && obs.phase !== "over" ? " acting" : ""}`, dataset: {seat: s}},
        h("div", {class: "tk-seat-head"}, colourChip(view.colourOf(s)), h("strong", {}, name(s)), h("span", {class: "muted"}, ` ${obs.schools ? obs.schools[s] : ""}${own ? " · you" : ""}${mate ? " · teammate" : ""}`)),
        h("div", {class: mark("tk-seat-line tk-hand-count", diff && diff.hands.has(s))}, `hand: ${plural(sizes[0], "being")}, ${plural(sizes[1], "legend")}, ${plural(sizes[2], "flare")}`, own ? "" : " ", own ? null : h("span", {class: "tk-backs hidden-hand"}, backs)),
        (known.length || shown.length) && !own
          ? h("div", {class: mark("tk-seat-line", diff && diff.known.has(s))}, "known in hand: ", [...known, ...shown].map((id) => cardChip(id, "tk-known")))
          : null,
        h(
          "div",
          {class: "tk-seat-line muted"},
          h("span", {class: mark("tk-deck", diff && diff.decks.has(s))}, `school deck ${(obs.school_deck_sizes || [])[s] ?? "?"}`),
          " · ",
          h("span", {class: mark("tk-discard", diff && diff.discards.has(s))}, `discard pile ${discard.length}`),
          discard.length ? [": ", discard.map((id, i) => [i ? ", " : "", cardChip(id, mark("tk-named", diff && diff.newDiscards[s] && diff.newDiscards[s].has(id)))])] : "",
        ),
      ),
    );
  }
  // the shared discard piles: a legend summoned or a flare invoked since the player's last move is marked there
  const shared = [];
  for (const [key, label, added] of [
    ["legend_discard", "legend discard pile", diff && diff.legendDiscard],
    ["flare_discard", "flare discard pile", diff && diff.flareDiscard],
  ]) {
    const ids = obs[key] || [];
    if (!ids.length) continue;
    const chips = ids.map((id, i) => [i ? ", " : "", cardChip(id, mark("tk-named", added && added.has(id)))]);
    shared.push(h("span", {class: `tk-pile ${key}`}, `${label}: `, chips));
  }
  const piles = shared.length ? h("div", {class: "tk-note muted tk-shared"}, shared.map((el, i) => [i ? " · " : "", el])) : null;
  return h("section", {class: "tk-others"}, blocks, piles);
}

/** "1 being", "2 flares". */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
