// Dice Battle Monsters' table: each player's die with the cards set on it (the main zone, the magic circle and
// the grant), face down for the other player until the reveal; stars, Miracle and Revival; hand, deck,
// graveyard and stock zone; and the battle: the effects still to resolve in their order and the newest events.
//
// observation(seat) (src/cardarena/games/dicebattle/views.py, docs/games/dicebattle.md):
//   {seat, round, first, phase: "dice"|"order"|"choice"|"revive"|"penalty"|"over", waiting: {kind, seat, card?,
//    zone?, cards?}, players: [{stars, miracle, revival, hand_count, deck_count, graveyard, stock, roll, redraws,
//    token, known_in_hand, used_last_battle, main, circle, grant, hand?, level?, cancelled?, tie_win?}],
//    queue: [[level, owner, card, zone]] (next first), events: [newest 12 event lines], result}
//   While a set is face down, another seat gets only counts: main and circle are numbers, grant 0 or 1; the
//   cards are drawn as backs. hand is there only for the viewer's own seat.
// A card's name, level, kind and text come from ``ctx.cards`` (Game.card_texts: the card file's texts, keyed by
// id); every face-up card is readable in the page's card viewer (dom.js describeCard: hover, focus, a long press;
// a tap on a card with nothing to do opens it too). Without ``ctx.cards`` (a replay) the seat's hand panel
// ("Fox Spirit [fox_spirit] monster Lv2 | forced: ...") is read instead.
//
// The last move (docs/web.md): everything that differs between ``ctx.before`` (the seat's own view after its
// last decision) and this observation carries the class ``changed``: a die rolled, cards set (as backs) or
// revealed, stars, Miracle and Revival, levels and the tie/cancel flags, hand, deck and graveyard counts, new
// cards in a hand, graveyard or stock zone, new effects in the queue, new event lines; cards that left a die or
// the stock zone are named in a "gone: ..." line with where they went.
//
// Acting: click a card of your hand to set it (several places it fits: a chooser of just those, each with what
// the card does there); click a card on a die or in the list of effects to resolve to use or skip its choice
// effect, or to resolve it first; click a card of your graveyard to take it back with Revival. Miracle, done,
// the dice token, redraw, pass and the penalty draw are buttons on the table.

import {h, replace, chooserDialog, describeCard, hideCard, showCard} from "../dom.js";

/** What each card says (ctx.cards, by id): {name, cost, kind, text: [..], notes: [..]}. */
let texts = {};
/** Fallback card facts by id, read from the board's hand panel when there is no ctx.cards (the replay page). */
const learned = new Map();
/** The die each seat showed at the last drawing, to show a new roll rolling. */
const lastRolls = new Map();
/** Whether each seat's set was face down at the last drawing, to turn it over once when it is revealed. */
const lastHidden = new Map();
/** The selection this ply: {ply, chooser: {title, actions} | null}. */
let pick = null;

const PLAIN = {
  miracle: "Miracle: reroll the die",
  done: "Done setting",
  redraw: "Show the hand and redraw",
  token: "Set the dice token",
  pass: "Keep Revival face up",
  draw: "Draw the penalty card",
  decline: "Decline the penalty draw",
};
const KEY_OF_KIND = {set: "hand", magic: "hand", grant: "hand", use: "card", skip: "card", first: "card", revive: "grave"};

/** "set fox_spirit" -> {kind: "set", card: "fox_spirit", key: "hand:fox_spirit"}; "done" -> {kind, card: null}. */
export function parseAction(text) {
  const [kind, ...rest] = text.split(" ");
  const card = rest.length ? rest.join(" ") : null;
  return {kind, card, key: card && KEY_OF_KIND[kind] ? `${KEY_OF_KIND[kind]}:${card}` : null};
}

function learn(message) {
  for (const panel of message.board || []) {
    if (panel.key !== "hand") continue;
    for (const line of panel.lines || []) {
      const m = line.match(/^(.+?) \[([\w-]+)\] (human|monster|magic) Lv(\d+)(?: \| (.*))?$/);
      if (m) learned.set(m[2], {name: m[1], cost: m[4], kind: `${m[3]}, level ${m[4]}`, text: m[5] ? m[5].split(" | ") : [], notes: []});
    }
  }
}

/** What card ``id`` says (see ``texts``); a card never read shows its name from the id. */
function infoOf(id) {
  return texts[id] || learned.get(id) || {name: id.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()), text: [], notes: []};
}

function nameOf(id) {
  return infoOf(id).name;
}

/** The card's kind word ("monster") and level, for its face. */
function kindOf(id) {
  const info = infoOf(id);
  return {kind: (info.kind || "").split(",")[0] || null, level: info.cost === undefined || info.cost === null ? null : info.cost};
}

/** The line of a card's text that a battle resolves: its grant's (in the stock zone) or its effect's. */
function effectLine(id, zone) {
  const lines = infoOf(id).text || [];
  const grant = lines.find((l) => l.startsWith("Grant "));
  return (zone === "stock" && grant) || lines[0] || "";
}

// ------------------------------------------------------------------------------------------- the last move

/** How many more of each id ``now`` holds than ``was`` (arrays of ids; anything else counts as empty). */
function extra(was, now) {
  const out = new Map();
  for (const id of Array.isArray(now) ? now : []) out.set(id, (out.get(id) || 0) + 1);
  for (const id of Array.isArray(was) ? was : []) if (out.has(id)) out.set(id, out.get(id) - 1);
  return out;
}

/** take(id): whether one more copy of ``id`` is among ``counts`` (and uses it up), to mark exactly the new ones. */
function taker(counts) {
  const left = new Map(counts);
  return (id) => {
    const n = left.get(id) || 0;
    if (n <= 0) return false;
    left.set(id, n - 1);
    return true;
  };
}

/** The cards a seat's die shows face up (none while they are backs). */
function setCards(p) {
  return Array.isArray(p.main) ? [...p.main, ...p.circle, ...(p.grant ? [p.grant] : [])] : [];
}

/** How many backs a zone shows (a number while face down; 0 face up). */
function backCount(value) {
  return typeof value === "number" ? value : 0;
}

/** What changed on one seat's side between ``b`` (the baseline) and ``p`` (now). */
function sideChanges(b, p) {
  const zone = (z) => {
    const hiddenNow = typeof p[z] === "number";
    if (hiddenNow) return {backsFrom: typeof b[z] === "number" ? b[z] : 0, faces: new Map()};
    const now = z === "grant" ? (p.grant ? [p.grant] : []) : p[z];
    const was = typeof b[z] === "number" ? [] : z === "grant" ? (b.grant ? [b.grant] : []) : b[z];
    return {backsFrom: Infinity, faces: extra(was, now)}; // turned face up: every card is new to this seat
  };
  const hand = (q) => (Array.isArray(q.hand) ? q.hand : q.known_in_hand); // the cards of a hand this seat sees
  const d = {
    roll: b.roll !== p.roll,
    stars: b.stars !== p.stars,
    miracle: b.miracle !== p.miracle,
    revival: b.revival !== p.revival,
    handCount: b.hand_count !== p.hand_count,
    deck: b.deck_count !== p.deck_count,
    graveCount: b.graveyard.length !== p.graveyard.length,
    redraws: b.redraws !== p.redraws,
    token: p.token && !b.token,
    level: p.level !== undefined && b.level !== p.level,
    flags: p.level !== undefined && (b.cancelled !== p.cancelled || b.tie_win !== p.tie_win),
    grave: extra(b.graveyard, p.graveyard),
    stock: extra(b.stock, p.stock),
    hand: extra(b.hand, p.hand),
    known: extra(b.known_in_hand, p.known_in_hand),
    main: zone("main"),
    circle: zone("circle"),
    grant: zone("grant"),
  };
  // what left the die, the stock zone or a hand this seat could see, and where it went
  const left = extra([...setCards(p), ...p.stock, ...hand(p)], [...setCards(b), ...b.stock, ...hand(b)]);
  const toGrave = taker(d.grave);
  const toHand = taker(extra(hand(b), hand(p)));
  const toStock = taker(d.stock);
  const facedDown = typeof p.main === "number" && p.main + p.circle + p.grant > 0;
  d.gone = [];
  for (const [id, n] of left) {
    for (let i = 0; i < n; i++) {
      const where = toGrave(id) ? "to the graveyard" : toHand(id) ? "back to the hand" : toStock(id) ? "to the stock zone" : facedDown ? "set face down" : "off the table";
      d.gone.push(`${nameOf(id)} (${where})`);
    }
  }
  return d;
}

/** The newest event lines that ``was`` did not end with (both lists hold the newest 12, oldest first). */
function newEvents(was, now) {
  for (let k = Math.min(was.length, now.length); k > 0; k--) {
    const tail = was.slice(was.length - k);
    if (tail.every((line, i) => line === now[i])) return now.length - k;
  }
  return was.length || now.length ? now.length : 0;
}

/** Everything that differs between ``ctx.before`` and ``obs``, or null when nothing is to be marked. */
function changesOf(before, obs) {
  if (!before || !before.players) return null;
  const key = ([lv, owner, card, zone]) => `${lv}:${owner}:${card}:${zone}`;
  return {
    seats: [0, 1].map((s) => sideChanges(before.players[s], obs.players[s])),
    round: before.round !== obs.round,
    first: before.first !== obs.first,
    queue: extra(before.queue.map(key), obs.queue.map(key)),
    events: newEvents(before.events || [], obs.events || []),
  };
}

/** ``el`` with the class ``changed`` when ``yes``. */
function mark(el, yes) {
  if (el && yes) el.classList.add("changed");
  return el;
}

// ------------------------------------------------------------------------------------------- pieces

function face(id, {extra: cls = "", key = null, view = null, changed = false} = {}) {
  const {kind, level} = kindOf(id);
  const attrs = {class: `dcard ${kind || ""} ${cls}${changed ? " changed" : ""}`, dataset: {card: id}};
  if (key && view) {
    attrs.dataset.pick = key;
    attrs.onclick = () => onPick(view, key);
  } else attrs.onclick = () => showCard(infoOf(id)); // a tap on a card with nothing to do reads it
  const word = Math.max(...nameOf(id).split(" ").map((w) => w.length)); // a smaller font keeps a long word whole
  const size = word > 11 ? " longest" : word > 9 ? " longer" : word > 7 ? " long" : "";
  const el = h("div", attrs, h("span", {class: `dname${size}`}, nameOf(id)), level !== null ? h("span", {class: "dlv"}, `Lv${level}`) : null, kind ? h("span", {class: "dkind"}, kind) : null);
  return describeCard(el, infoOf(id));
}

function chip(id, changed) {
  const el = h("span", {class: `chip${changed ? " changed" : ""}`, dataset: {card: id}, onclick: () => showCard(infoOf(id))}, nameOf(id));
  return describeCard(el, infoOf(id));
}

function back(extra = "", label = "face-down card") {
  return h("div", {class: `dcard back ${extra}`, "aria-label": label});
}

/** ``n`` backs; those from index ``newFrom`` on are marked changed. */
function backs(n, extra, label, newFrom = Infinity) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(mark(back(extra, label), i >= newFrom));
  return out;
}

const PIPS = {1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9]};

/** A die showing ``roll`` (0: not rolled yet); ``rolling`` shakes it once, when its face has just changed. */
function die(roll, rolling, seat) {
  const cells = [];
  for (let i = 1; i <= 9; i++) cells.push(h("span", {class: (PIPS[roll] || []).includes(i) ? "pip on" : "pip"}));
  return h("div", {class: `die${rolling ? " rolling" : ""}${roll ? "" : " unrolled"}`, dataset: {roll, seat}, role: "img", "aria-label": roll ? `die showing ${roll}` : "die not rolled"}, roll ? cells : h("span", {class: "q"}, "?"));
}

// ------------------------------------------------------------------------------------------- the table

export function render(container, message, act, ctx = {}) {
  texts = ctx.cards || {};
  learn(message);
  const obs = message.observation;
  if (!pick || pick.ply !== message.ply) {
    // a new step: no stale chooser, and no card shown by hovering an element that is now redrawn (a sheet the
    // player opened stays until closed)
    if (pick) {
      const viewer = document.getElementById("card-viewer");
      if (viewer && !viewer.classList.contains("sheet")) hideCard();
    }
    pick = {ply: message.ply, chooser: null};
  }
  const me = obs.seat === null || obs.seat === undefined ? 0 : obs.seat;
  const legal = (message.legal || []).map((a) => ({...a, ...parseAction(a.text)}));
  const view = {obs, legal, act, ctx, me, spectator: obs.seat === null || obs.seat === undefined, redraw: () => render(container, message, act, ctx)};
  view.changes = changesOf(ctx.before, obs);
  // for tests: what the marks were drawn from (both the seat's own view, never more)
  window.__dicebattle = {before: ctx.before || null, observation: obs};
  const still = !!ctx.reducedMotion; // no roll or flip animation: the "changed" outline says it
  view.rolling = [0, 1].map((s) => {
    const roll = obs.players[s].roll;
    const key = `${container.id || "table"}:${s}`;
    const changed = lastRolls.has(key) && lastRolls.get(key) !== roll && roll > 0;
    lastRolls.set(key, roll);
    return changed && !still;
  });
  view.flip = [0, 1].map((s) => {
    const key = `${container.id || "table"}:${s}`;
    const hidden = typeof obs.players[s].main === "number";
    const flip = lastHidden.get(key) === true && !hidden;
    lastHidden.set(key, hidden);
    return flip && !still;
  });
  const root = h("div", {class: "dicebattle"}, side(view, 1 - me, "top"), middle(view), side(view, me, "bottom"));
  replace(container, root);
  markTargets(root, view);
}

/** A seat's name ("You" for the viewer's own seat). */
function seatName(view, seat, {you = true} = {}) {
  if (you && seat === view.me && !view.spectator) return "You";
  return view.ctx && view.ctx.nameOf ? view.ctx.nameOf(seat) : `Player ${seat + 1}`;
}

function side(view, seat, where) {
  const {obs} = view;
  const p = obs.players[seat];
  const own = Array.isArray(p.hand);
  const d = view.changes ? view.changes.seats[seat] : null;
  const stars = mark(h("span", {class: "stars", dataset: {stars: p.stars}, title: `${p.stars} of 3 stars`}, "★".repeat(p.stars), h("span", {class: "dim"}, "☆".repeat(Math.max(0, 3 - p.stars)))), d && d.stars);
  const header = h(
    "div",
    {class: "who-line"},
    h("strong", {class: "pname"}, seatName(view, seat, {you: false})),
    stars,
    mark(h("span", {class: `token-chip${p.miracle ? "" : " used"}`, title: "Miracle: reroll your die once per game"}, p.miracle ? "Miracle" : "Miracle used"), d && d.miracle),
    mark(h("span", {class: `token-chip${p.revival ? "" : " used"}`, title: "Revival: take back a card after a lost battle, once per game"}, p.revival ? "Revival" : "Revival used"), d && d.revival),
    mark(obs.first === seat ? h("span", {class: "badge"}, "first") : null, view.changes && view.changes.first),
    obs.waiting && obs.waiting.seat === seat && !obs.result ? h("span", {class: "badge hot"}, "to act") : null,
  );
  const board = h("div", {class: "dieboard"}, mark(die(p.roll, view.rolling[seat], seat), d && d.roll), zones(view, p, seat, d));
  const hand = own ? ownHand(view, p, d) : hiddenHand(view, p, d);
  const piles = h(
    "div",
    {class: "piles"},
    mark(h("span", {class: "stat", dataset: {deck: p.deck_count}}, `deck ${p.deck_count}`), d && d.deck),
    mark(h("span", {class: "stat", dataset: {grave: p.graveyard.length}}, `graveyard ${p.graveyard.length}`), d && d.graveCount),
    p.redraws ? mark(h("span", {class: "stat"}, `redraws ${p.redraws}`), d && d.redraws) : null,
  );
  const isNew = taker(d ? d.grave : new Map());
  // the newest graveyard cards are last: mark the new ones from the end
  const graveItems = p.graveyard
    .map((c, i) => [c, i])
    .reverse()
    .map(([c, i]) => [i, seat === view.me && !view.spectator && p.used_last_battle.includes(c) ? face(c, {extra: "mini", key: `grave:${c}`, view, changed: isNew(c)}) : chip(c, isNew(c))])
    .sort((x, y) => x[0] - y[0])
    .map(([, el]) => el);
  const grave = p.graveyard.length ? h("div", {class: "grave row", "aria-label": "graveyard"}, graveItems) : null;
  const newStock = taker(d ? d.stock : new Map());
  const stock = p.stock.length
    ? h("div", {class: "zone stock"}, h("span", {class: "zone-name"}, "stock zone (grants waiting)"), h("div", {class: "row"}, p.stock.map((c) => face(c, {extra: "mini", key: `card:${c}`, view, changed: newStock(c)}))))
    : null;
  const gone = d && d.gone.length ? h("div", {class: "gone changed"}, `gone: ${d.gone.join(", ")}`) : null;
  const parts = [header, board, gone, stock, hand, piles, grave];
  return h("section", {class: `side ${where}${own ? " mine" : ""}`, dataset: {seat}}, parts);
}

/** The cards set on the die: face up for their owner (and for everyone after the reveal), else backs. */
function zones(view, p, seat, d) {
  const hidden = typeof p.main === "number";
  const level = p.level !== undefined ? mark(h("span", {class: "level", dataset: {level: p.level}}, `Lv ${p.level}`), d && d.level) : null;
  const flags = [p.cancelled ? "cancelled" : null, p.tie_win ? "wins a tie" : null].filter(Boolean);
  const z = (name) => (d ? d[name] : {backsFrom: Infinity, faces: new Map()});
  let main;
  let circle;
  let grant;
  if (hidden) {
    main = backs(p.main, "set-back", "face-down card in the main zone", z("main").backsFrom);
    circle = backs(p.circle, "set-back", "face-down magic", z("circle").backsFrom);
    grant = backs(p.grant, "set-back", "face-down grant", z("grant").backsFrom);
  } else {
    const revealed = view.flip[seat] ? "reveal" : ""; // turned over just now
    const cards = (name, ids) => {
      const isNew = taker(z(name).faces);
      return ids.map((c) => face(c, {extra: revealed, key: `card:${c}`, view, changed: isNew(c)}));
    };
    main = p.token ? mark(h("div", {class: "dcard token"}, h("span", {class: "dname"}, "dice token"), h("span", {class: "dlv"}, "Lv1")), d && d.token) : cards("main", p.main);
    circle = cards("circle", p.circle);
    grant = cards("grant", p.grant ? [p.grant] : []);
  }
  const slot = (name, items, cls) => h("div", {class: `slot ${cls}`}, h("span", {class: "zone-name"}, name), h("div", {class: "row"}, items && (items.length === undefined || items.length) ? items : h("span", {class: "muted"}, "—")));
  return h(
    "div",
    {class: `zones${hidden ? " hidden-set" : ""}`, dataset: {hidden: hidden ? "yes" : "no"}},
    slot("main zone", main, "main"),
    slot("magic", circle, "circle"),
    slot("grant", grant, "grant"),
    level || flags.length ? h("div", {class: "level-line"}, level, flags.length ? mark(h("span", {class: "flags"}, ` · ${flags.join(" · ")}`), d && d.flags) : null) : null,
  );
}

function ownHand(view, p, d) {
  const isNew = taker(d ? d.hand : new Map());
  return h(
    "div",
    {class: "zone hand"},
    mark(h("span", {class: "zone-name"}, `hand (${p.hand.length})`), d && d.handCount),
    h("div", {class: "row"}, p.hand.map((c) => face(c, {key: `hand:${c}`, view, changed: isNew(c)}))),
  );
}

function hiddenHand(view, p, d) {
  const known = p.known_in_hand || [];
  const unknown = Math.max(0, p.hand_count - known.length);
  const isNew = taker(d ? d.known : new Map());
  return h(
    "div",
    {class: "zone hand hidden-hand"},
    mark(h("span", {class: "zone-name"}, `hand (${p.hand_count})`), d && d.handCount),
    h("div", {class: "row fan"}, known.map((c) => face(c, {extra: "known mini", changed: isNew(c)})), backs(Math.min(unknown, 12), "mini", "hidden card"), unknown > 12 ? h("span", {class: "count"}, `+${unknown - 12}`) : null),
  );
}

// ------------------------------------------------------------------------------------------- the middle

/** Where a queued effect comes from, in the table's words (the main zone goes unsaid). */
const ZONE_WORDS = {circle: "magic", stock: "grant"};

const PHASES = {dice: "setting cards", order: "battle", choice: "battle", revive: "after the battle", penalty: "empty deck", over: "game over"};

function middle(view) {
  const {obs} = view;
  const w = obs.waiting || {};
  const c = view.changes;
  const head = mark(h("div", {class: "phase"}, `Round ${obs.round} · ${PHASES[obs.phase] || obs.phase}`), c && c.round);
  const waiting = obs.result ? null : h("div", {class: "waiting"}, waitingText(view, w));
  const isNew = taker(c ? c.queue : new Map());
  const queue = obs.queue.length
    ? h(
        "ol",
        {class: "queue", "aria-label": "effects still to resolve, next first"},
        obs.queue.map(([lv, owner, card, zone], i) =>
          mark(
            h(
              "li",
              {class: `${w.card === card && w.seat === owner ? "now" : ""}${i === 0 ? " next" : ""}`, dataset: {seat: owner}},
              face(card, {extra: "mini", key: owner === view.me && !view.spectator ? `card:${card}` : null, view}),
              h("span", {}, ` Lv${lv} · ${seatName(view, owner)}${ZONE_WORDS[zone] ? ` · ${ZONE_WORDS[zone]}` : ""}`),
            ),
            isNew(`${lv}:${owner}:${card}:${zone}`),
          ),
        ),
      )
    : null;
  const events = obs.events || [];
  const fresh = c ? events.length - c.events : events.length;
  const list = h("ol", {class: "events"}, events.map((e, i) => mark(h("li", {class: /reveals|battle:|wins|takes effect/.test(e) ? "key" : ""}, plainEvent(view, e)), c && i >= fresh)));
  return h(
    "section",
    {class: "middle"},
    head,
    waiting,
    queue ? h("div", {class: "zone-name"}, "effects to resolve, in order") : null,
    queue,
    chooser(view),
    controls(view),
    h("details", {class: "events-box", open: true}, h("summary", {}, "what happened"), list),
    legend(view),
  );
}

/** An event line of the game in the table's words: players by name (never "seat 1"). */
function plainEvent(view, line) {
  return line
    .replace(" (max_turns)", "")
    .replace(/\b1 (\w+)\(s\)/g, "1 $1")
    .replace(/(\w+)\(s\)/g, "$1s")
    .replace(/\bseat (\d+)('s)?/gi, (m, n, own) => {
      const name = seatName(view, Number(n), {you: false});
      return own ? `${name}'s` : name;
    });
}

/** The table's notation in words, folded under the events. */
function legend(view) {
  const items = [
    "Lv N: a card's level. Setting it uses N of the die; a unit fights at its level in the battle (the yellow Lv is the level now).",
    "human, monster, magic: a human alone or monsters added together make the unit in the main zone; magic goes in the magic circle beside a human.",
    "choice: its owner decides to use or skip it when it resolves. forced: it takes effect by itself if its condition holds.",
    "grant: a card set for later battles; it waits in the stock zone until it fires.",
    "★: a won battle gives a star; 3 stars win the game.",
    "Hover over a card, hold it (touch) or tap one with nothing to do to read it.",
    view.spectator ? "An orange outline: what changed with the last action." : "An orange outline: what changed since your last move.",
  ];
  return h("details", {class: "legend"}, h("summary", {}, "How to read the table"), h("ul", {}, items.map((t) => h("li", {}, t))));
}

function waitingText(view, w) {
  if (!w || w.kind === "nothing") return "";
  const who = seatName(view, w.seat);
  if (w.kind === "dice") return `${who}: set cards on the die (levels up to the die), then done.`;
  if (w.kind === "choice") return `${who}: use ${nameOf(w.card)} (${effectLine(w.card, w.zone)}) or skip it.`;
  if (w.kind === "order") return `${who}: which tied effect resolves first (${(w.cards || []).map(nameOf).join(", ")}).`;
  if (w.kind === "revive") return `${who}: take back a card with Revival, or pass.`;
  if (w.kind === "penalty") return `${who}: the other deck ran out: draw a penalty card or decline.`;
  return `${who}: ${w.kind}`;
}

const CARD_BUTTON = {use: (n) => `Use ${n}`, skip: (n) => `Skip ${n}`, first: (n) => `Resolve ${n} first`};

function controls(view) {
  const buttons = [];
  for (const a of view.legal) {
    if (PLAIN[a.kind]) buttons.push(h("button", {type: "button", class: "big", dataset: {action: a.text}, onclick: () => send(view, a.text)}, PLAIN[a.kind]));
    else if (CARD_BUTTON[a.kind]) {
      const button = h("button", {type: "button", class: a.kind === "skip" ? "secondary" : "big", dataset: {action: a.text}, onclick: () => send(view, a.text)}, CARD_BUTTON[a.kind](nameOf(a.card)));
      buttons.push(describeCard(button, infoOf(a.card)));
    }
  }
  return buttons.length ? h("div", {class: "controls"}, buttons) : null;
}

// ------------------------------------------------------------------------------------------- clicks

function onPick(view, key) {
  const id = key.slice(key.indexOf(":") + 1);
  const actions = view.legal.filter((a) => a.key === key);
  if (!actions.length) return showCard(infoOf(id)); // nothing to do with it now: read it
  if (actions.length === 1) return send(view, actions[0].text);
  const where = actions.every((a) => KEY_OF_KIND[a.kind] === "hand");
  pick.chooser = {title: `${nameOf(id)}: ${where ? "where does it go?" : "choose one"}`, actions, card: id};
  view.redraw();
}

function send(view, text) {
  pick = {ply: pick.ply, chooser: null};
  view.act(text);
  view.redraw();
}

/** What a chooser's button says: the place and what the card does there (never the action's text). */
const WHERE = {set: "Main zone", magic: "Magic circle", grant: "As a grant"};

function chooserLabel(a) {
  const lines = infoOf(a.card).text || [];
  if (a.kind === "grant") return lines.find((l) => l.startsWith("Grant ")) || WHERE.grant;
  if (WHERE[a.kind]) return `${WHERE[a.kind]}: ${lines[0] || nameOf(a.card)}`;
  return CARD_BUTTON[a.kind] ? CARD_BUTTON[a.kind](nameOf(a.card)) : a.detail || nameOf(a.card);
}

function chooser(view) {
  if (!pick.chooser) return null;
  const cancel = () => {
    pick.chooser = null;
    view.redraw();
  };
  const box = chooserDialog(pick.chooser.title, pick.chooser.actions, chooserLabel, (text) => send(view, text), cancel);
  for (const button of box.querySelectorAll("button.choice")) button.removeAttribute("title"); // the label says it
  describeCard(box.querySelector(".chooser-title"), infoOf(pick.chooser.card));
  return box;
}

/** Light up every card a click would act on. */
function markTargets(root, view) {
  const keys = new Set(view.legal.map((a) => a.key).filter(Boolean));
  for (const el of root.querySelectorAll("[data-pick]")) {
    const on = keys.has(el.dataset.pick);
    el.classList.toggle("playable", on);
    if (on) {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault(); // a key acts as a click on a card that can be played
        el.click();
      });
    }
  }
}
