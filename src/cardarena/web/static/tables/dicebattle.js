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
// A card's name, kind, level and text come from the seat's own board panel of its hand ("Fox Spirit
// [fox_spirit] monster Lv2 | forced: ..."), remembered once seen; other cards show their name from the id.
//
// Acting: click a card of your hand to set it (several places it fits: a chooser of just those); click a
// card on a die or in the list of effects to resolve to use or skip its choice effect, or to resolve it first;
// click a card of your graveyard to take it back with Revival. Miracle, done, the dice token, redraw, pass and
// the penalty draw are buttons on the table.

import {h, replace, chooserDialog} from "../dom.js";

/** Card facts by id, learnt from the board's hand panel: {name, kind, level, text}. */
const cards = new Map();
/** The die each seat showed at the last drawing, to show a new roll rolling. */
const lastRolls = new Map();
/** Whether each seat's set was face down at the last drawing, to turn it over once when it is revealed. */
const lastHidden = new Map();
/** The selection this ply: {ply, chooser: {title, actions} | null}. */
let pick = null;
/** The card whose text is shown (a tap on a card that has nothing to do now). */
let info = null;

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
      if (m) cards.set(m[2], {name: m[1], kind: m[3], level: Number(m[4]), text: m[5] || ""});
    }
  }
  for (const a of message.legal || []) {
    const {card} = parseAction(a.text);
    const named = a.group && a.group.replace(/^(use|skip|first|revive) /, "");
    if (card && named && !cards.has(card)) cards.set(card, {name: named, kind: null, level: null, text: ""});
  }
}

/** "knight_errant" -> "Knight Errant" when the card was never in this seat's hand. */
function nameOf(id) {
  const known = cards.get(id);
  if (known) return known.name;
  return id.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

// ------------------------------------------------------------------------------------------- pieces

function face(id, {extra = "", key = null, view = null} = {}) {
  const c = cards.get(id) || {};
  const attrs = {class: `dcard ${c.kind || ""} ${extra}`, dataset: {card: id}, title: c.text ? `${nameOf(id)}: ${c.text}` : nameOf(id)};
  if (key && view) {
    attrs.dataset.pick = key;
    attrs.onclick = () => onPick(view, key);
  } else if (view) attrs.onclick = () => showInfo(view, id);
  return h("div", attrs, h("span", {class: "dname"}, nameOf(id)), c.level !== null && c.level !== undefined ? h("span", {class: "dlv"}, `Lv${c.level}`) : null, c.kind ? h("span", {class: "dkind"}, c.kind) : null);
}

function back(extra = "", label = "face-down card") {
  return h("div", {class: `dcard back ${extra}`, "aria-label": label});
}

function backs(n, extra, label) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(back(extra, label));
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

export function render(container, message, act, ctx) {
  learn(message);
  const obs = message.observation;
  if (!pick || pick.ply !== message.ply) pick = {ply: message.ply, chooser: null};
  const me = obs.seat === null || obs.seat === undefined ? 0 : obs.seat;
  const legal = (message.legal || []).map((a) => ({...a, ...parseAction(a.text)}));
  const view = {obs, legal, act, ctx, me, spectator: obs.seat === null || obs.seat === undefined, redraw: () => render(container, message, act, ctx)};
  const rolling = [0, 1].map((s) => {
    const roll = obs.players[s].roll;
    const key = `${container.id || "table"}:${s}`;
    const changed = lastRolls.has(key) && lastRolls.get(key) !== roll && roll > 0;
    lastRolls.set(key, roll);
    return changed;
  });
  view.rolling = rolling;
  view.flip = [0, 1].map((s) => {
    const key = `${container.id || "table"}:${s}`;
    const hidden = typeof obs.players[s].main === "number";
    const flip = lastHidden.get(key) === true && !hidden;
    lastHidden.set(key, hidden);
    return flip;
  });
  const root = h("div", {class: "dicebattle"}, side(view, 1 - me, "top"), middle(view), side(view, me, "bottom"));
  replace(container, root);
  markTargets(root, view);
}

function seatName(view, seat) {
  return view.ctx && view.ctx.nameOf ? view.ctx.nameOf(seat) : `seat ${seat}`;
}

function side(view, seat, where) {
  const {obs} = view;
  const p = obs.players[seat];
  const own = Array.isArray(p.hand);
  const stars = h("span", {class: "stars", dataset: {stars: p.stars}, title: `${p.stars} of 3 stars`}, "★".repeat(p.stars), h("span", {class: "dim"}, "☆".repeat(Math.max(0, 3 - p.stars))));
  const header = h(
    "div",
    {class: "who-line"},
    h("strong", {class: "pname"}, seatName(view, seat)),
    stars,
    h("span", {class: `token-chip${p.miracle ? "" : " used"}`, title: "Miracle: reroll your die once per game"}, p.miracle ? "Miracle" : "Miracle used"),
    h("span", {class: `token-chip${p.revival ? "" : " used"}`, title: "Revival: take back a card after a lost battle, once per game"}, p.revival ? "Revival" : "Revival used"),
    obs.first === seat ? h("span", {class: "badge"}, "first") : null,
    obs.waiting && obs.waiting.seat === seat && !obs.result ? h("span", {class: "badge hot"}, "to act") : null,
  );
  const board = h("div", {class: "dieboard"}, die(p.roll, view.rolling[seat], seat), zones(view, p, seat));
  const hand = own ? ownHand(view, p) : hiddenHand(view, p);
  const piles = h(
    "div",
    {class: "piles"},
    h("span", {class: "stat", dataset: {deck: p.deck_count}}, `deck ${p.deck_count}`),
    h("span", {class: "stat"}, `graveyard ${p.graveyard.length}`),
    p.redraws ? h("span", {class: "stat"}, `redraws ${p.redraws}`) : null,
  );
  const grave = p.graveyard.length
    ? h(
        "div",
        {class: "grave row"},
        p.graveyard.map((c) => (seat === view.me && !view.spectator && p.used_last_battle.includes(c) ? face(c, {extra: "mini", key: `grave:${c}`, view}) : h("span", {class: "chip", dataset: {card: c}}, nameOf(c)))),
      )
    : null;
  const stock = p.stock.length ? h("div", {class: "zone stock"}, h("span", {class: "zone-name"}, "stock zone (grants waiting)"), h("div", {class: "row"}, p.stock.map((c) => face(c, {extra: "mini", key: `card:${c}`, view})))) : null;
  const parts = [header, board, stock, hand, piles, grave];
  return h("section", {class: `side ${where}${own ? " mine" : ""}`, dataset: {seat}}, parts);
}

/** The cards set on the die: face up for their owner (and for everyone after the reveal), else backs. */
function zones(view, p, seat) {
  const hidden = typeof p.main === "number";
  const level = p.level !== undefined ? h("span", {class: "level", dataset: {level: p.level}}, `Lv ${p.level}`) : null;
  const flags = [p.cancelled ? "cancelled" : null, p.tie_win ? "wins a tie" : null].filter(Boolean);
  let main;
  let circle;
  let grant;
  if (hidden) {
    main = backs(p.main, "set-back", "face-down card in the main zone");
    circle = backs(p.circle, "set-back", "face-down magic");
    grant = backs(p.grant, "set-back", "face-down grant");
  } else {
    const revealed = view.flip[seat] ? "reveal" : ""; // turned over just now
    main = p.token ? h("div", {class: "dcard token"}, h("span", {class: "dname"}, "dice token"), h("span", {class: "dlv"}, "Lv1")) : p.main.map((c) => face(c, {extra: revealed, key: `card:${c}`, view}));
    circle = p.circle.map((c) => face(c, {extra: revealed, key: `card:${c}`, view}));
    grant = p.grant ? [face(p.grant, {extra: revealed, key: `card:${p.grant}`, view})] : [];
  }
  const slot = (name, items, cls) => h("div", {class: `slot ${cls}`}, h("span", {class: "zone-name"}, name), h("div", {class: "row"}, items && (items.length === undefined || items.length) ? items : h("span", {class: "muted"}, "—")));
  return h(
    "div",
    {class: `zones${hidden ? " hidden-set" : ""}`, dataset: {hidden: hidden ? "yes" : "no"}},
    slot("main zone", main, "main"),
    slot("magic", circle, "circle"),
    slot("grant", grant, "grant"),
    level || flags.length ? h("div", {class: "level-line"}, level, flags.length ? ` · ${flags.join(" · ")}` : "") : null,
  );
}

function ownHand(view, p) {
  return h("div", {class: "zone hand"}, h("span", {class: "zone-name"}, `hand (${p.hand.length})`), h("div", {class: "row"}, p.hand.map((c) => face(c, {key: `hand:${c}`, view}))));
}

function hiddenHand(view, p) {
  const known = p.known_in_hand || [];
  const unknown = Math.max(0, p.hand_count - known.length);
  return h(
    "div",
    {class: "zone hand hidden-hand"},
    h("span", {class: "zone-name"}, `hand (${p.hand_count})`),
    h("div", {class: "row fan"}, known.map((c) => face(c, {extra: "known mini", view})), backs(Math.min(unknown, 12), "mini", "hidden card"), unknown > 12 ? h("span", {class: "count"}, `+${unknown - 12}`) : null),
  );
}

// ------------------------------------------------------------------------------------------- the middle

function middle(view) {
  const {obs} = view;
  const w = obs.waiting || {};
  const head = h("div", {class: "phase"}, `Round ${obs.round} · ${obs.phase} phase`, obs.result ? " · game over" : "");
  const waiting = obs.result ? null : h("div", {class: "waiting"}, waitingText(view, w));
  const queue = obs.queue.length
    ? h(
        "ol",
        {class: "queue", "aria-label": "effects still to resolve, next first"},
        obs.queue.map(([lv, owner, card, zone], i) =>
          h(
            "li",
            {class: `${w.card === card && w.seat === owner ? "now" : ""}${i === 0 ? " next" : ""}`, dataset: {seat: owner}},
            face(card, {extra: "mini", key: owner === view.me ? `card:${card}` : null, view}),
            h("span", {}, ` Lv${lv} · ${seatName(view, owner)}${zone === "main" ? "" : ` · ${zone === "stock" ? "grant" : zone}`}`),
          ),
        ),
      )
    : null;
  const events = h("ol", {class: "events"}, (obs.events || []).map((e) => h("li", {class: /reveals|battle:|wins|takes effect/.test(e) ? "key" : ""}, e)));
  return h(
    "section",
    {class: "middle"},
    head,
    waiting,
    queue ? h("div", {class: "zone-name"}, "effects to resolve, in order") : null,
    queue,
    chooser(view),
    controls(view),
    cardInfo(),
    h("details", {class: "events-box", open: true}, h("summary", {}, "what happened"), events),
  );
}

function waitingText(view, w) {
  if (!w || w.kind === "nothing") return "";
  const who = w.seat === view.me && !view.spectator ? "You" : seatName(view, w.seat);
  if (w.kind === "dice") return `${who}: set cards on the die (levels up to the die), then done.`;
  if (w.kind === "choice") return `${who}: use the choice effect of ${nameOf(w.card)} or skip it.`;
  if (w.kind === "order") return `${who}: which tied effect resolves first (${(w.cards || []).map(nameOf).join(", ")}).`;
  if (w.kind === "revive") return `${who}: take back a card with Revival, or pass.`;
  if (w.kind === "penalty") return `${who}: the other deck ran out: draw a penalty card or decline.`;
  return `${who}: ${w.kind}`;
}

function controls(view) {
  const buttons = [];
  for (const a of view.legal) {
    if (PLAIN[a.kind]) buttons.push(h("button", {type: "button", class: "big", dataset: {action: a.text}, onclick: () => send(view, a.text)}, PLAIN[a.kind]));
    else if (a.kind === "use" || a.kind === "skip" || a.kind === "first") {
      buttons.push(h("button", {type: "button", class: a.kind === "skip" ? "secondary" : "big", dataset: {action: a.text}, onclick: () => send(view, a.text)}, `${a.kind} ${nameOf(a.card)}`));
    }
  }
  return buttons.length ? h("div", {class: "controls"}, buttons) : null;
}

// ------------------------------------------------------------------------------------------- clicks

function onPick(view, key) {
  const actions = view.legal.filter((a) => a.key === key);
  if (!actions.length) return showInfo(view, key.slice(key.indexOf(":") + 1));
  if (actions.length === 1) return send(view, actions[0].text);
  const where = actions.every((a) => KEY_OF_KIND[a.kind] === "hand");
  pick.chooser = {title: `${nameOf(actions[0].card)}: ${where ? "where does it go?" : "choose one"}`, actions};
  view.redraw();
}

function showInfo(view, id) {
  info = info === id ? null : id; // a second tap hides it
  view.redraw();
}

/** The text of the card tapped last, as far as this seat has read it (its hand panel names every card held). */
function cardInfo() {
  if (!info) return null;
  const c = cards.get(info) || {};
  const head = [nameOf(info), c.kind ? ` · ${c.kind}` : "", c.level !== null && c.level !== undefined ? ` Lv${c.level}` : ""].join("");
  return h("div", {class: "card-info", dataset: {info}}, h("strong", {}, head), c.text ? h("div", {}, c.text) : null);
}

function send(view, text) {
  pick = {ply: pick.ply, chooser: null};
  view.act(text);
  view.redraw();
}

function chooser(view) {
  if (!pick.chooser) return null;
  const label = (a) => a.detail || `${a.kind} ${nameOf(a.card)}`;
  const cancel = () => {
    pick.chooser = null;
    view.redraw();
  };
  return chooserDialog(pick.chooser.title, pick.chooser.actions, label, (text) => send(view, text), cancel);
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
    }
  }
}
