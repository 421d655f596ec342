// Lyabi's table: both wizards' HP, magic circles, hands, decks, discard piles and items; the supply of ryabi
// with its costs, the face-down circle piles and the item pile; the battle, where both sets lie face down until
// both have set and are then shown together, with the colour triangle that decides it.
//
// observation(seat) (src/cardarena/games/lyabi/views.py, docs/games/lyabi.md):
//   {turn, phase, to_act, first_player, seat?, players: [{hp, hand_size, hand_known, deck_size, discard, field,
//    item ("face down" | id | null), draw_to, battling, set (null | "face down" | "dummy" | [ryabi]),
//    hand?, dummy_in_hand?, deck_top?}], supply: {ryabi: count}, circle_piles: {level: count}, item_pile,
//    removed: {ryabi, circles, items}, actions_left, battle_colours, pending_damage, last_battle, result,
//    end_reason, seen_opponent_hand?}
//   (hand, dummy_in_hand and deck_top are there only for the viewer's own seat; another seat's hand is drawn as
//   backs, less the cards everyone knows it holds, hand_known, which are drawn face up.)
// Printed numbers the observation does not repeat (a circle's ATK, a level's cost and multiplier, the text of
// your own item) are read from the seat's own board panels, which are built from the same observation.
//
// Acting, as at a real table: pick the ryabi to pay with from your hand (they lift), then click what you pay
// for: a supply pile (buy, or split when one card is picked), a circle pile (place) or the item pile. One
// matching action is sent at once; several (a split's second card, a circle to replace, a payment when nothing
// is picked) open a small chooser of just those. In the battle, pick one ryabi or two of a colour and press
// "Set face down", or click the dummy. Items are used by clicking your item (the Goddess's Brush: a colour of
// the triangle); the Mysterious Crystal's cards are clicked in the order they go back, top first. "Pass" and
// "Use no item" are buttons.
//
// Readable cards: every face-up card (a ryabi, a magic circle, your item, the dummy, a chip of a pile) and every
// pile carries what it says (ctx.cards, the game's card_texts: a circle is looked up as "blue5 circle", an item
// by its id), shown by dom.js on hover, focus or a long press. The last move: every element whose part of the
// observation differs from ctx.before (the observation right after the player's own last decision) has the
// class `changed`; what left the table is said by a "gone: ..." note where it was (see markChanges).

import {h, replace, chooserDialog, describeCard} from "../dom.js";

const COLOURS = ["blue", "green", "red"];
/** BEATS[c]: the colour c beats (blue beats red, red beats green, green beats blue). */
const BEATS = {blue: "red", red: "green", green: "blue"};

/** The turn whose battle sets were last turned over, so that a reveal flips the cards once. */
let flipped = null;
/** What the player is doing this ply: {ply, picked: [hand index], order: [deck_top index], chooser}. */
let pick = null;
/** The (before, observation) pair last marked: a redraw of the same pair (a pick) marks without the pulse again. */
let marked = {before: null, obs: null};
/** The item ids of the game (the data file tunes the items; their ids are fixed), for the item pile's text. */
const ITEM_IDS = ["crystal", "eye", "brush", "sword", "stone", "mirror", "orb", "herb"];
/** What each card says (ctx.cards): name -> {name, cost, kind, text, notes}; {} where the server sends none. */
let cards = {};

// ------------------------------------------------------------------------------------------- actions

/** "buy red5 pay blue3 green3" -> {kind: "buy", keys: ["supply:red5"], pay: ["blue3", "green3"]}. */
export function parseAction(text) {
  const words = text.split(" ");
  const kind = words[0];
  const out = {kind, keys: [], pay: null, seq: null};
  if (kind === "buy") {
    out.keys = [`supply:${words[1]}`];
    out.pay = words.slice(3);
  } else if (kind === "split") {
    out.keys = words.slice(3).map((w) => `supply:${w}`);
    out.pay = [words[1]];
  } else if (kind === "place") {
    const r = words.indexOf("replace");
    out.keys = [`circles:${words[1]}`];
    out.pay = words.slice(3, r < 0 ? undefined : r);
  } else if (kind === "item") {
    out.keys = ["items"];
    out.pay = words.slice(2);
  } else if (kind === "use") {
    out.keys = words[1] === "brush" ? [`colour:${words[2]}`, "item:mine"] : ["item:mine"];
  } else if (kind === "set") {
    if (words[1] === "dummy") out.keys = ["dummy"];
    else {
      out.keys = ["set"];
      out.pay = words.slice(1);
    }
  } else if (kind === "order") {
    out.keys = ["order"];
    out.seq = words.slice(1);
  }
  return out;
}

const sorted = (names) => [...names].sort();
const sameCards = (a, b) => a.length === b.length && sorted(a).every((x, i) => x === sorted(b)[i]);

/** "green11" -> ["green", 11]. */
export function splitRyabi(name) {
  const m = name.match(/^([a-z]+?)(\d+)$/);
  return m ? [m[1], Number(m[2])] : [name, 0];
}

// ------------------------------------------------------------------------------------------- board facts

/** What the seat's board panels add to the observation: circles' ATK, levels' cost and times, its item's text. */
function boardFacts(board) {
  const facts = {atk: new Map(), times: new Map(), cost: new Map(), circleCost: new Map(), itemCost: null, itemText: null, waiting: ""};
  for (const panel of board || []) {
    for (const line of panel.lines || []) {
      for (const m of line.matchAll(/(\w+?\d+) circle \(ATK (\d+)\)/g)) facts.atk.set(m[1], Number(m[2]));
      for (const m of line.matchAll(/Lv(\d+) cost (\d+) ×([\d.]+)/g)) {
        facts.cost.set(Number(m[1]), Number(m[2]));
        facts.times.set(Number(m[1]), m[3]);
      }
      for (const m of line.matchAll(/Lv(\d+) \(cost (\d+)\)/g)) facts.circleCost.set(m[1], Number(m[2]));
      const ic = line.match(/^item pile: .*\(cost (\d+)\)/);
      if (ic) facts.itemCost = Number(ic[1]);
      if (line.startsWith("Waiting on")) facts.waiting = line.replace(/^Waiting on:?\s*/, "");
      if (panel.key === `seat${panel.seat}` && line.startsWith("item: ") && !line.includes("[?]")) facts.itemText = line.slice(6);
    }
  }
  return facts;
}

// ------------------------------------------------------------------------------------------- card faces

/** Make ``el`` readable (hover, focus, long press) with what the card ``key`` says, when the game sent it. */
function readable(el, key) {
  const info = cards[key];
  if (info) describeCard(el, info);
  return el;
}

/** An item's name without its Japanese original (not every phone has the font): "Mirror of Desire". */
function itemName(id) {
  const info = cards[id];
  return info ? info.name.replace(/^[\u3000-\u9fff\s]+/, "") : id;
}

/** A face-down circle pile, read as the circles it may hold (their ATK) and its cost. */
function circlePileInfo(lv, cost) {
  const kinds = Object.keys(cards).filter((k) => k.endsWith(" circle") && splitRyabi(k.slice(0, -7))[1] === Number(lv));
  return {
    name: `Lv${lv} magic circles`,
    cost: cost === undefined ? null : String(cost),
    kind: "face-down pile",
    text: [
      `Placing a circle takes the top card of this pile onto your field; its colour shows only then. It is one of: ${kinds.map((k) => `${k} (${(cards[k].text[0] || "").split(".")[0]})`).join(", ") || "the circles of this level"}.`,
    ],
    notes: ["ATK: the circle's attack, multiplied by the winning ryabi's multiplier (×)"],
  };
}

/** The face-down item pile, read as the items it may hold, each with what it does. */
function itemPileInfo(cost) {
  return {
    name: "item pile",
    cost: cost === null ? null : `${cost}+`,
    kind: "face-down pile",
    text: [`In your item phase, pay ryabi worth ${cost === null ? "the item cost" : cost} or more for the top item: you see which it is, the opponent does not until it is used. The items:`],
    notes: ITEM_IDS.filter((id) => cards[id]).map((id) => `${itemName(id)}: ${[].concat(cards[id].text)[0] || ""}`),
  };
}

function ryabi(name, {extra = "", attrs = {}, facts = null, onclick = null} = {}) {
  const [colour, level] = splitRyabi(name);
  const times = facts && facts.times.get(level);
  const face = h(
    "div",
    {class: `ry ${colour} ${extra}`, dataset: {card: name, ...(attrs.dataset || {})}, role: onclick ? "button" : "img", "aria-label": name, onclick, title: attrs.title},
    h("span", {class: "lv"}, String(level)),
    h("span", {class: "col"}, colour),
    times && times !== "1" ? h("span", {class: "times", title: "damage multiplier"}, `×${times}`) : null,
  );
  return readable(face, name);
}

/** The dummy as a card: ``attrs`` for the one in your hand (a click sets it). */
function dummyCard(attrs = {}) {
  return readable(h("div", {class: "ry dummy", "aria-label": "the dummy", ...attrs}, h("span", {class: "lv"}, "D"), h("span", {class: "col"}, "dummy")), "dummy");
}

function back(extra = "", label = "hidden card") {
  return h("div", {class: `ry back ${extra}`, "aria-label": label});
}

function circle(name, facts) {
  const [colour, level] = splitRyabi(name);
  const atk = facts.atk.get(name);
  const face = h(
    "div",
    {class: `circle ${colour}`, dataset: {circle: name}, "aria-label": `${colour} Lv${level} magic circle${atk === undefined ? "" : `, ATK ${atk}`}`},
    h("span", {class: "lv"}, `Lv${level}`),
    atk === undefined ? null : h("span", {class: "atk"}, `ATK ${atk}`),
  );
  return readable(face, `${name} circle`);
}

/** A pile of cards as chips, "green3 ×4", so that a long discard pile stays one or two lines. */
function chips(names, extra = "") {
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) || 0) + 1);
  return [...counts].map(([n, k]) => readable(h("span", {class: `chip ${splitRyabi(n)[0]} ${extra}`, dataset: {card: n, n: k}}, k > 1 ? `${n} ×${k}` : n), n));
}

// ------------------------------------------------------------------------------------------- the table

export function render(container, message, act, ctx) {
  const obs = message.observation;
  const legal = message.legal || [];
  if (!pick || pick.ply !== message.ply) pick = {ply: message.ply, picked: [], order: [], chooser: null};
  const me = obs.seat === null || obs.seat === undefined ? 0 : obs.seat; // spectators: seat 0 at the bottom
  cards = (ctx && ctx.cards) || {};
  const facts = boardFacts(message.board);
  const redraw = () => render(container, message, act, ctx);
  const parsed = legal.map((a) => ({...a, ...parseAction(a.text)}));
  const view = {obs, legal: parsed, act, redraw, facts, me, ctx, spectator: obs.seat === null || obs.seat === undefined};
  const root = h(
    "div",
    {class: "lyabi"},
    side(view, 1 - me, "top"),
    h("div", {class: "centre"}, battle(view), market(view)),
    side(view, me, "bottom"),
  );
  replace(container, root);
  markTargets(root, view);
  const before = ctx && ctx.before;
  if (!before || !before.players) marked = {before: null, obs};
  else {
    markChanges(root, view, before);
    const again = marked.before === before && marked.obs === obs; // a redraw (a pick): no second pulse
    if (again || (ctx && ctx.reducedMotion)) for (const el of root.querySelectorAll(".changed")) el.classList.add("still");
    marked = {before, obs};
  }
}

/** A player's name (the page's; "player 1" where a page has none: never a seat number). */
function nameOf(view, seat) {
  return view.ctx && view.ctx.nameOf ? view.ctx.nameOf(seat) : `player ${seat + 1}`;
}

/** The game's own words with its seat numbers ("seat 1 fell to 0 HP", "Waiting on: seat 0 (you)") as names. */
function named(view, text) {
  return String(text || "").replace(/\b[Ss]eat (\d+)( \(you\))?/g, (_, n, you) => (you ? "you" : nameOf(view, Number(n))));
}

function hpBar(hp, max) {
  const fill = h("span");
  fill.style.width = `${Math.max(0, Math.min(100, (100 * hp) / Math.max(1, max)))}%`;
  return h("div", {class: "hpbar"}, fill);
}

function side(view, seat, where) {
  const {obs, facts} = view;
  const p = obs.players[seat];
  const own = Array.isArray(p.hand);
  const startHp = Math.max(20, ...obs.players.map((q) => q.hp));
  const header = h(
    "div",
    {class: "who-line"},
    h("strong", {class: "pname"}, nameOf(view, seat)),
    h("span", {class: "hp", dataset: {hp: p.hp}, title: "HP"}, `HP ${p.hp}`),
    obs.first_player === seat ? h("span", {class: "badge"}, "first player") : null,
    obs.to_act === seat && !obs.result ? h("span", {class: "badge hot"}, "to act") : null,
    p.draw_to !== 3 ? h("span", {class: "badge draw-to"}, `draws to ${p.draw_to}`) : null,
  );
  const field = h(
    "div",
    {class: "zone field"},
    h("span", {class: "zone-name"}, `magic circles (${p.field.length})`),
    h("div", {class: "row"}, p.field.length ? p.field.map((c) => circle(c, facts)) : h("span", {class: "muted"}, "none")),
  );
  const hand = own ? ownHand(view, p) : hiddenHand(view, p);
  const counts = h(
    "div",
    {class: "zone piles"},
    h("span", {class: "stat", dataset: {deck: p.deck_size}}, `deck ${p.deck_size}`),
    h("span", {class: "stat", dataset: {discard: p.discard.length}}, `discard ${p.discard.length}`),
    own && p.deck_top && p.deck_top.length && obs.phase !== "crystal" ? h("span", {class: "stat"}, `deck top: ${p.deck_top.join(", ")}`) : null,
  );
  const discard = p.discard.length ? h("div", {class: "discard"}, chips(p.discard, "mini")) : null;
  const parts = [header, hpBar(p.hp, startHp), h("div", {class: "zones"}, field, item(view, p, own), hand), counts, discard];
  return h("section", {class: `side ${where}${own ? " mine" : ""}`, dataset: {seat}}, parts);
}

function ownHand(view, p) {
  const cards = p.hand.map((c, i) =>
    ryabi(c, {
      extra: pick.picked.includes(i) ? "picked" : "",
      attrs: {dataset: {hand: i}},
      facts: view.facts,
      onclick: () => toggle(view, i),
    }),
  );
  const dummy = p.dummy_in_hand ? dummyCard({dataset: {pick: "dummy"}, role: "button", onclick: () => onPick(view, "dummy")}) : null;
  return h("div", {class: "zone hand"}, h("span", {class: "zone-name hand-count"}, `hand (${p.hand.length}${p.dummy_in_hand ? " + dummy" : ""})`), h("div", {class: "row"}, cards, dummy));
}

function hiddenHand(view, p) {
  const known = p.hand_known || [];
  const unknown = Math.max(0, p.hand_size - known.length);
  const seen = view.obs.seen_opponent_hand; // the Mystic Eye showed this seat the whole hand
  const backs = [];
  for (let i = 0; i < Math.min(unknown, 10); i++) backs.push(back());
  return h(
    "div",
    {class: "zone hand hidden-hand"},
    h("span", {class: "zone-name hand-count"}, `hand (${p.hand_size})`),
    h("div", {class: "row"}, known.map((c) => ryabi(c, {extra: "known", facts: view.facts})), backs, unknown > 10 ? h("span", {class: "count"}, `+${unknown - 10}`) : null),
    seen ? h("div", {class: "eye-line"}, "Mystic Eye: ", chips(seen)) : null,
  );
}

function item(view, p, own) {
  let card;
  if (p.item === null || p.item === undefined) card = h("span", {class: "muted"}, "no item");
  else if (p.item === "face down" || !own) card = h("div", {class: "itemcard back", "aria-label": "face-down item"}, "item");
  else {
    const text = (view.facts.itemText || p.item).replace(/[\u3000-\u9fff]+\s*/g, ""); // the Japanese name: not every phone has the font
    card = h("div", {class: "itemcard face", dataset: {pick: "item:mine", item: p.item}, onclick: () => onPick(view, "item:mine")}, h("strong", {}, p.item), h("span", {class: "itext"}, text.replace(/^\w+ /, "")));
    readable(card, p.item);
  }
  return h("div", {class: "zone item"}, h("span", {class: "zone-name"}, "item"), card);
}

// ------------------------------------------------------------------------------------------- battle

function battle(view) {
  const {obs, me} = view;
  const them = 1 - me;
  const revealed = Array.isArray(obs.battle_colours);
  const flip = revealed && flipped !== obs.turn;
  if (revealed) flipped = obs.turn;
  const slot = (seat) => {
    const s = obs.players[seat].set;
    let shown;
    if (s === null || s === undefined) shown = h("span", {class: "muted"}, obs.result ? "" : obs.players[seat].battling ? "not set yet" : "not battling");
    else if (s === "face down") shown = back("set-back", "face-down battle set");
    else if (s === "dummy") shown = dummyCard({class: "ry dummy shown"});
    else shown = s.map((c) => ryabi(c, {facts: view.facts, extra: flip ? "reveal" : ""}));
    const colour = revealed ? obs.battle_colours[seat] : null;
    return h(
      "div",
      {class: `set-slot${revealed ? " revealed" : ""}`, dataset: {seat, set: Array.isArray(s) ? s.join(" ") : s || "none"}},
      h("span", {class: "zone-name"}, seat === me && !view.spectator ? "your set" : `${nameOf(view, seat)}'s set`),
      h("div", {class: "row"}, shown),
      colour ? h("span", {class: `chip ${colour}`}, colour) : null,
    );
  };
  const sets = h("div", {class: "sets"}, slot(them), triangle(view), slot(me));
  const lines = [];
  const waiting = named(view, view.facts.waiting).replace(/\b1 action\(s\)/, "1 action").replace("action(s)", "actions");
  if (view.facts.waiting && !obs.result) lines.push(h("div", {class: "waiting-on"}, `Waiting on ${waiting}`));
  if (revealed) lines.push(h("div", {class: "verdict"}, verdict(view)));
  if (obs.pending_damage && !obs.result) lines.push(h("div", {class: "pending"}, `damage coming: ${obs.pending_damage}`));
  if (obs.last_battle) lines.push(h("div", {class: "last-battle muted"}, lastBattle(view, obs.last_battle)));
  if (obs.result) lines.push(h("div", {class: "over"}, `Game over: ${named(view, obs.end_reason)}`));
  const phase = obs.result ? "game over" : `${obs.phase} phase${obs.phase === "main" && obs.actions_left > 1 ? ` · ${obs.actions_left} actions` : ""}`;
  return h(
    "section",
    {class: "battle"},
    h("div", {class: "phase"}, `Turn ${obs.turn} · ${phase}`),
    sets,
    lines,
    crystal(view),
    chooser(view),
    controls(view),
  );
}

/** The colour triangle: blue beats red, red beats green, green beats blue; the battle's colours lit. */
function triangle(view) {
  const colours = Array.isArray(view.obs.battle_colours) ? view.obs.battle_colours : [];
  const nodes = COLOURS.map((c) => {
    const lit = colours.includes(c);
    const win = lit && colours.filter(Boolean).length === 2 && BEATS[c] === colours.find((x) => x !== c);
    return h("div", {class: `node ${c}${lit ? " lit" : ""}${win ? " wins" : ""}`, dataset: {pick: `colour:${c}`}, title: `${c} beats ${BEATS[c]}`, onclick: () => onPick(view, `colour:${c}`)}, c);
  });
  return h("div", {class: "triangle", title: "blue beats red, red beats green, green beats blue"}, nodes, h("div", {class: "arrows", "aria-hidden": "true"}, "↻"));
}

function verdict(view) {
  const [a, b] = view.obs.battle_colours;
  const me = view.me;
  const name = (s) => (s === me && !view.spectator ? "you" : nameOf(view, s));
  if (!a && !b) return "no battle: both set the dummy or did not battle";
  const w = !b || (a && BEATS[a] === b) ? 0 : !a || BEATS[b] === a ? 1 : null;
  if (w === null) return `${a} against ${b}: a tie`;
  const cw = view.obs.battle_colours[w];
  const cl = view.obs.battle_colours[1 - w];
  return cl ? `${cw} beats ${cl}: ${name(w)} win${name(w) === "you" ? "" : "s"} the battle` : `${cw} against no ryabi: ${name(w)} win${name(w) === "you" ? "" : "s"}`;
}

function lastBattle(view, lb) {
  const show = (s) => (s === null || s === undefined ? "nothing" : s === "dummy" ? "the dummy" : Array.isArray(s) ? s.join(" + ") : String(s));
  const who = lb.winner === undefined ? "" : lb.winner === null ? " → no winner" : ` → ${nameOf(view, lb.winner)} wins, ${lb.damage} damage${lb.sword ? ` + ${lb.sword} (sword)` : ""}`;
  return `Last battle (turn ${lb.turn}): ${nameOf(view, 0)} set ${show(lb.sets[0])}, ${nameOf(view, 1)} set ${show(lb.sets[1])}${who}`;
}

/** The Mysterious Crystal: the looked-at cards, clicked in the order they go back (top first). */
function crystal(view) {
  const orders = view.legal.filter((a) => a.kind === "order");
  if (!orders.length) return null;
  const top = view.obs.players[view.me].deck_top || [];
  const cards = top.map((c, i) => {
    const at = pick.order.indexOf(i);
    return h("div", {class: "order-card"}, ryabi(c, {extra: at >= 0 ? "picked" : "", attrs: {dataset: {order: i}}, facts: view.facts, onclick: () => orderClick(view, i)}), h("span", {class: "order-no"}, at >= 0 ? `${at + 1}.` : ""));
  });
  return h("div", {class: "crystal"}, h("div", {class: "zone-name"}, "Mysterious Crystal: click the cards in the order they go back on your deck, top first"), h("div", {class: "row"}, cards));
}

function orderClick(view, i) {
  const top = view.obs.players[view.me].deck_top || [];
  const at = pick.order.indexOf(i);
  if (at >= 0) pick.order.splice(at); // un-pick it and those after it
  else pick.order.push(i);
  const seq = pick.order.map((k) => top[k]);
  const match = view.legal.find((a) => a.kind === "order" && a.seq.length === seq.length && a.seq.every((x, k) => x === seq[k]));
  if (match) return send(view, match.text);
  return view.redraw();
}

function controls(view) {
  const buttons = [];
  for (const a of view.legal) {
    // what the pass does now, as the game words it (its detail: "End main phase", "Take no item")
    if (a.kind === "pass") buttons.push(h("button", {type: "button", class: "big", dataset: {action: a.text}, onclick: () => send(view, a.text)}, a.detail || "Pass"));
    if (a.kind === "decline") buttons.push(h("button", {type: "button", class: "big", dataset: {action: a.text}, onclick: () => send(view, a.text)}, a.detail || "Use no item"));
  }
  const sets = view.legal.filter((a) => a.keys.includes("set"));
  if (sets.length) {
    const picked = pickedNames(view);
    const ok = sets.some((a) => sameCards(a.pay, picked));
    buttons.push(h("button", {type: "button", class: "big", dataset: {pick: "set"}, disabled: !ok, onclick: () => onPick(view, "set")}, ok ? `Set ${picked.join(" + ")} face down` : "Set face down (pick 1 ryabi, or 2 of a colour)"));
  }
  if (pick.picked.length) buttons.push(h("button", {type: "button", class: "secondary", onclick: () => clearPick(view)}, "Clear picks"));
  if (!buttons.length) return null;
  return h("div", {class: "controls"}, buttons);
}

// ------------------------------------------------------------------------------------------- the market

function market(view) {
  const {obs, facts} = view;
  const rows = COLOURS.map((colour) =>
    h(
      "div",
      {class: "supply-row"},
      Object.entries(obs.supply)
        .filter(([n]) => splitRyabi(n)[0] === colour)
        .map(([n, count]) => {
          const level = splitRyabi(n)[1];
          const cost = facts.cost.get(level);
          const pile = h(
            "div",
            {class: `pile${count ? "" : " empty"}`, dataset: {pick: `supply:${n}`, left: count}, "aria-label": `${n}: ${count} left${cost === undefined ? "" : `, cost ${cost}`}`, onclick: () => onPick(view, `supply:${n}`)},
            ryabi(n, {facts, extra: "mini"}),
            h("span", {class: "count"}, `×${count}`),
            cost === undefined ? null : h("span", {class: "cost"}, `cost ${cost}`),
          );
          return readable(pile, n);
        }),
    ),
  );
  const circles = Object.entries(obs.circle_piles).map(([lv, count]) => {
    const pile = h(
      "div",
      {class: `pile circle-pile${count ? "" : " empty"}`, dataset: {pick: `circles:${lv}`, left: count}, "aria-label": `Lv${lv} circles, face down: ${count} left`, onclick: () => onPick(view, `circles:${lv}`)},
      h("div", {class: "circle back"}, h("span", {class: "lv"}, `Lv${lv}`)),
      h("span", {class: "count"}, `×${count}`),
      facts.circleCost.has(lv) ? h("span", {class: "cost"}, `cost ${facts.circleCost.get(lv)}`) : null,
    );
    return describeCard(pile, circlePileInfo(lv, facts.circleCost.get(lv)));
  });
  const items = h(
    "div",
    {class: `pile item-pile${obs.item_pile ? "" : " empty"}`, dataset: {pick: "items", left: obs.item_pile}, "aria-label": `items, face down: ${obs.item_pile} left`, onclick: () => onPick(view, "items")},
    h("div", {class: "itemcard back"}, "item"),
    h("span", {class: "count"}, `×${obs.item_pile}`),
    facts.itemCost === null ? null : h("span", {class: "cost"}, `cost ${facts.itemCost}+`),
  );
  describeCard(items, itemPileInfo(facts.itemCost));
  const removed = obs.removed || {};
  const goneRyabi = Object.entries(removed.ryabi || {}).flatMap(([n, k]) => Array(k).fill(n));
  const goneCircles = removed.circles || [];
  const goneItems = removed.items || [];
  return h(
    "section",
    {class: "market"},
    h("div", {class: "zone-name"}, "supply (pick the ryabi to pay with, then click what you buy)"),
    h("div", {class: "supply"}, rows),
    h("div", {class: "row piles-row"}, circles, items),
    goneRyabi.length || goneCircles.length || goneItems.length
      ? h(
          "div",
          {class: "removed muted"},
          "removed from the game: ",
          chips(goneRyabi),
          goneCircles.map((n) => readable(h("span", {class: `chip ${splitRyabi(n)[0]}`, dataset: {circle: n}}, `${n} circle`), `${n} circle`)),
          goneItems.map((id) => readable(h("span", {class: "chip item", dataset: {item: id}}, itemName(id)), id)),
        )
      : null,
    legend(),
  );
}

/** The table's notation in one line, where the cards show it. */
function legend() {
  return h(
    "div",
    {class: "legend muted"},
    h("strong", {}, "How to read it: "),
    "blue5 = a blue ryabi of level 5 · ×1.5 = its damage multiplier · ATK = a circle's attack · blue beats red, red beats green, green beats blue · hover, focus or hold a card to read it · ",
    h("span", {class: "changed-key"}, "outlined"),
    " = changed since your last move",
  );
}

// ------------------------------------------------------------------------------------------- clicks

function pickedNames(view) {
  const hand = view.obs.players[view.me].hand || [];
  return pick.picked.map((i) => hand[i]);
}

function toggle(view, i) {
  if (!view.legal.some((a) => a.pay)) return; // nothing is paid or set now
  const at = pick.picked.indexOf(i);
  if (at >= 0) pick.picked.splice(at, 1);
  else pick.picked.push(i);
  pick.chooser = null;
  view.redraw();
}

function clearPick(view) {
  pick.picked = [];
  pick.chooser = null;
  view.redraw();
}

/** A click on a target (a supply pile, a circle pile, the item pile, your item, a colour, the dummy, "set"). */
function onPick(view, key) {
  let actions = view.legal.filter((a) => a.keys.includes(key));
  if (!actions.length) return;
  const picked = pickedNames(view);
  let title = null;
  if (picked.length) {
    const paying = actions.filter((a) => a.pay && sameCards(a.pay, picked));
    if (paying.length) actions = paying;
    else if (actions.some((a) => a.pay)) title = `${picked.join(" + ")} does not pay for this: choose a payment`;
  } else if (key === "set") return;
  if (actions.length === 1 && !title) return send(view, actions[0].text);
  pick.chooser = {key, title: title || chooserTitle(view, key), actions};
  view.redraw();
}

function send(view, text) {
  pick = {ply: pick.ply, picked: [], order: [], chooser: null};
  view.act(text);
  view.redraw(); // the chooser closes at once; the next state redraws the table anyway
}

/** What a click on ``key`` gets, in words, as the chooser's title. */
function chooserTitle(view, key) {
  const [kind, what] = key.split(":");
  const f = view.facts;
  if (kind === "supply") return `${what}${f.cost.has(splitRyabi(what)[1]) ? ` (cost ${f.cost.get(splitRyabi(what)[1])})` : ""}: choose how to get it`;
  if (kind === "circles") return `The top Lv${what} circle${f.circleCost.has(what) ? ` (cost ${f.circleCost.get(what)})` : ""}: choose what to pay with`;
  if (kind === "items") return `The top item${f.itemCost === null ? "" : ` (cost ${f.itemCost} or more)`}: choose what to pay with`;
  if (kind === "item") return `Your ${itemName(view.obs.players[view.me].item)}: choose`;
  return "Choose one";
}

/** A payment in words: "blue3 + green1 (worth 4)". */
function paid(names, detail) {
  const costs = names.map((n) => (cards[n] ? Number(cards[n].cost) : NaN));
  const total = costs.every((c) => !Number.isNaN(c)) ? costs.reduce((x, y) => x + y, 0) : ((detail || "").match(/total (\d+)/) || [])[1];
  return `${names.join(" + ")}${total === undefined ? "" : ` (worth ${total})`}`;
}

/** An action of the chooser in words (never its action text): what is paid, what is gained or done. */
export function choiceWords(a) {
  const words = a.text.split(" ");
  if (a.kind === "buy") return `Buy ${words[1]}: pay ${paid(a.pay, a.detail)}`;
  if (a.kind === "split") return `Split ${a.pay[0]} into ${words.slice(3).join(" + ")}`;
  if (a.kind === "place") {
    const r = words.indexOf("replace");
    return `Pay ${paid(a.pay, a.detail)}${r < 0 ? "" : ` and remove your ${words[r + 1]} circle from the game`}`;
  }
  if (a.kind === "item") return `Pay ${paid(a.pay, a.detail)}`;
  if (a.kind === "use") return words[1] === "brush" ? `${itemName("brush")}: your ryabi becomes ${words[2]}` : `Use the ${itemName(words[1])}`;
  return a.detail ? `${a.group}: ${a.detail}` : a.text;
}

/** The card (or pile) a chooser is about, readable, with its first line of text: what the choice gets. */
function chooserHead(view, key) {
  const [kind, what] = key.split(":");
  let face = null;
  let info = null;
  if (kind === "supply") {
    face = ryabi(what, {facts: view.facts, extra: "mini"});
    info = cards[what];
  } else if (kind === "circles") {
    info = circlePileInfo(what, view.facts.circleCost.get(what));
    face = describeCard(h("div", {class: "circle back"}, h("span", {class: "lv"}, `Lv${what}`)), info);
  } else if (kind === "items" || kind === "item") {
    const id = kind === "item" ? view.obs.players[view.me].item : null;
    info = id ? cards[id] : itemPileInfo(view.facts.itemCost);
    face = h("div", {class: `itemcard ${id ? "face" : "back"}`}, id ? itemName(id) : "item");
    if (info) describeCard(face, info);
  }
  if (!info) return null;
  const line = [].concat(info.text || []).filter(Boolean)[kind === "supply" ? 1 : 0] || "";
  return h("div", {class: "chooser-card"}, face, h("span", {class: "chooser-effect"}, line));
}

function chooser(view) {
  if (!pick.chooser) return null;
  const cancel = () => {
    pick.chooser = null;
    view.redraw();
  };
  const box = chooserDialog(pick.chooser.title, pick.chooser.actions, choiceWords, (text) => send(view, text), cancel);
  const head = chooserHead(view, pick.chooser.key);
  if (head) box.querySelector(".chooser-title").after(head);
  // each choice is readable too: the card it gains (a purchase or a split), or the chooser's card
  for (const button of box.querySelectorAll("[data-action]")) {
    const a = pick.chooser.actions.find((x) => x.text === button.dataset.action);
    const gained = a && (a.kind === "buy" || a.kind === "split") ? a.keys.map((k) => k.slice(7)) : [];
    const key = pick.chooser.key.startsWith("supply:") ? pick.chooser.key.slice(7) : gained[0];
    if (key) readable(button, key);
    button.removeAttribute("title"); // the action's text: the label says it in words
  }
  return box;
}

// ------------------------------------------------------------------------------------------- the last move

/** The pair of observations the table's marks compare now ({before, obs}; before null: nothing marked), for tests
 *  (they import this module as the page did and check the marks against their own diff of the two). */
export function lastMarked() {
  return marked;
}

/** The multiset ``after`` less ``before``: the names added (with repeats). */
function added(before, after) {
  const rest = [...(before || [])];
  const out = [];
  for (const x of after || []) {
    const at = rest.indexOf(x);
    if (at >= 0) rest.splice(at, 1);
    else out.push(x);
  }
  return out;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const counted = (counts) => Object.entries(counts || {}).flatMap(([n, k]) => Array(k).fill(n));

function mark(el) {
  if (el) el.classList.add("changed");
  return el;
}

/** A small note, marked, of what left the table from ``where`` (put at its end, or after it with ``after``):
 *  "gone: red5 circle (removed from the game)". */
function goneNote(where, names, why, {after = false} = {}) {
  if (!where || !names.length) return;
  const note = mark(h("div", {class: "gone"}, "gone: ", names.flatMap((n, i) => (i && typeof n === "string" ? [", ", n] : [n])), ` (${why})`));
  if (after) where.after(note);
  else where.append(note);
}

/**
 * Mark with the class ``changed`` every element whose part of the observation differs between ``before`` (the
 * seat's observation right after its own last decision) and now: HP, deck and discard counts and the discard's
 * new cards, magic circles placed, items taken, used or lost, hand sizes and the cards everyone now knows in a
 * hand, battle sets set or revealed, the triangle and the verdict of a reveal, the damage coming, the last
 * battle, the supply, circle and item piles, the removed cards, the step (turn and phase) and the end (anything
 * else that differs marks the step's line). What left the table gets a "gone:"
 * note where it was (a circle from a field, an item from its holder, the battle's ryabi from the battle). Only
 * these two observations of the seat's own are read.
 */
function markChanges(root, view, before) {
  const obs = view.obs;
  const removedItems = added(before.removed && before.removed.items, obs.removed && obs.removed.items);
  for (const seat of [0, 1]) {
    const b = before.players[seat];
    const a = obs.players[seat];
    const side = root.querySelector(`.side[data-seat="${seat}"]`);
    if (!b || !a || !side) continue;
    if (b.hp !== a.hp) [".hp", ".hpbar"].forEach((q) => mark(side.querySelector(q)));
    if (b.deck_size !== a.deck_size) mark(side.querySelector("[data-deck]"));
    if (!same(b.discard, a.discard)) {
      mark(side.querySelector("[data-discard]"));
      for (const name of new Set(added(b.discard, a.discard))) mark(side.querySelector(`.discard [data-card="${name}"]`));
    }
    // circles: each new one, and a note for those that left the field
    const placed = added(b.field, a.field);
    const circles = [...side.querySelectorAll(".field [data-circle]")].reverse(); // the newest last
    for (const name of placed) mark(circles.find((el) => el.dataset.circle === name && !el.classList.contains("changed")));
    goneNote(side.querySelector(".field"), added(a.field, b.field).map((n) => `${n} circle`), "removed from the game");
    // the item: taken, used or lost
    if (b.item !== a.item) {
      mark(side.querySelector(".item .itemcard")) || mark(side.querySelector(".item .muted"));
      // an item held is never one that resolves when taken (the crystal, the herb): those went by themselves
      const held = removedItems.filter((id) => id !== "crystal" && id !== "herb");
      if (b.item && !a.item) goneNote(side.querySelector(".zone.item"), held.length ? held.map(itemName) : ["its item"], "used or removed from the game");
    }
    if (b.draw_to !== a.draw_to) mark(side.querySelector(".draw-to"));
    // the hand: its size (your own: what you drew), and the cards everyone now knows it holds
    if (b.hand_size !== a.hand_size || !same(b.hand, a.hand) || b.dummy_in_hand !== a.dummy_in_hand) mark(side.querySelector(".hand-count"));
    const known = [...side.querySelectorAll(".hidden-hand .ry.known")];
    for (const name of added(b.hand_known, a.hand_known)) mark(known.find((el) => el.dataset.card === name && !el.classList.contains("changed")));
    // the battle set: set face down, or revealed
    if (!same(b.set, a.set) && a.set !== null && a.set !== undefined) {
      for (const el of root.querySelectorAll(`.set-slot[data-seat="${seat}"] .row > *`)) mark(el);
    }
  }
  if (!same(before.battle_colours, obs.battle_colours) && obs.battle_colours) {
    root.querySelectorAll(".triangle .node.lit").forEach(mark);
    mark(root.querySelector(".verdict"));
  }
  if (before.turn !== obs.turn || before.phase !== obs.phase || before.actions_left !== obs.actions_left) mark(root.querySelector(".phase"));
  if (before.pending_damage !== obs.pending_damage) mark(root.querySelector(".pending"));
  if (!same(before.last_battle, obs.last_battle)) mark(root.querySelector(".last-battle"));
  if (!same(before.seen_opponent_hand, obs.seen_opponent_hand)) mark(root.querySelector(".eye-line"));
  if (!same(before.result, obs.result)) mark(root.querySelector(".over"));
  // the market: the piles bought from, placed from, taken from
  for (const [name, count] of Object.entries(obs.supply || {})) {
    if ((before.supply || {})[name] !== count) mark(root.querySelector(`[data-pick="supply:${name}"]`));
  }
  for (const [lv, count] of Object.entries(obs.circle_piles || {})) {
    if ((before.circle_piles || {})[lv] !== count) mark(root.querySelector(`[data-pick="circles:${lv}"]`));
  }
  if (before.item_pile !== obs.item_pile) mark(root.querySelector('[data-pick="items"]'));
  // removed from the game: the line that lists them, and the battle's ryabi said gone where the battle is
  if (!same(before.removed, obs.removed)) {
    const line = root.querySelector(".removed");
    mark(line);
    const ryabiGone = added(counted(before.removed && before.removed.ryabi), counted(obs.removed && obs.removed.ryabi));
    goneNote(root.querySelector(".battle .sets"), chips(ryabiGone), "set in the battle, removed from the game", {after: true});
  }
  // anything else that moved (whose turn it is to act, a flag of the battle): the step's line says it changed
  if (!root.querySelector(".changed") && !same(before, obs)) mark(root.querySelector(".phase"));
}

/** Light up what a click would do something with: hand cards that pay, targets, the picked cards. */
function markTargets(root, view) {
  const keys = new Set(view.legal.flatMap((a) => a.keys));
  const payers = new Set(view.legal.flatMap((a) => a.pay || []));
  for (const el of root.querySelectorAll("[data-pick]")) {
    const on = keys.has(el.dataset.pick);
    el.classList.toggle("target", on);
    if (on && el.tagName !== "BUTTON") {
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
    }
  }
  for (const el of root.querySelectorAll(".side.mine [data-hand]")) el.classList.toggle("playable", payers.has(el.dataset.card));
}
