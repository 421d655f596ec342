// ToraBato's table: playing-card faces for hands, mana, soldiers, the stack and the attack, drawn from
// observation(seat) (see src/cardarena/games/torabato/views.py and docs/games/torabato.md):
//   observation.players[i] = {deck, hand_size, discard, mana_count, mana_tapped, available_mana, soldiers,
//                             known_in_hand, known_in_mana, known_in_hand_or_mana, hand?, mana?}
//   (hand and mana are there only for the viewer's own seat; the opponent's cards are drawn as backs)
//   observation.stack = [{kind, card, controller, target, zeroed}] (bottom first), observation.attack =
//   {attackers, blocks: [[blocker, attacker]], assigned}, observation.pending (a choice being resolved).
//
// Acting: a click on a card collects the legal actions whose first card is that card (mana 7S, play 7S @opp,
// use QS, recur 2S, attacker KS, block QH KS, assign KS QH, choose 5C, reveal 7S). One: it is sent. Several:
// a small chooser names the card, says what it does and lists just those actions in words, and a click on a
// target (a soldier, a spell on the stack, the opponent) narrows them. Actions without a card (pass, attack,
// done) are buttons in the middle of the table.
//
// Reading: every face-up card carries its text (ctx.cards, from ToraBatoGame.card_texts: cost, kind, effect),
// shown by the page's card viewer on hover, focus and a long press; a legend explains the table's notation.
//
// The last move (docs/web.md): what differs between ctx.before (the observation right after the player's own
// last decision) and this observation is marked with the class "changed": cards new on the stack, in a discard
// pile or among the soldiers, soldiers tapped, damaged or boosted, counts of deck, hand and mana that moved, the
// attack and the blocks; what left the table (a soldier that died, a spell that resolved) is named in a "gone"
// note. Both observations are the seat's own view.

import {describeCard, h, hideCard, replace} from "../dom.js";

const SUITS = {S: "♠", C: "♣", H: "♥", D: "♦"};
const COST = {A: 4, 2: 1, 3: 4, 4: 3, 5: 2, 6: 3, 7: 1, 8: 1, 9: 2, 10: 1, J: 1, Q: 2, K: 3, JK: 5};
/** Kinds whose action text names a card first: "kind CARD [target]". */
const CARD_KINDS = new Set(["reveal", "mana", "play", "use", "recur", "attacker", "block", "assign", "choose"]);

/** The selection in progress: a card clicked with several possible actions. Cleared on every new ply. */
let selection = null;
/** What each card says (ctx.cards of the latest render): name -> {name, cost, kind, text, notes}. */
let texts = {};

/** Parse an action text into {kind, card, target} ("play 3S @QH" -> play, 3S, QH; "@opp" -> "opp"). */
export function parseAction(text) {
  const [kind, card, rest] = text.split(" ");
  if (!CARD_KINDS.has(kind)) return {kind, card: null, target: null};
  const target = rest ? rest.replace(/^@/, "") : null;
  return {kind, card, target};
}

/** Rank and suit of a card name: "10H" -> ["10", "H"], "JK0" -> ["JK", null]. */
export function splitCard(name) {
  if (name.startsWith("JK")) return ["JK", null];
  return [name.slice(0, -1), name.slice(-1)];
}

/** A card's short sign: "8C" -> "8♣", "JK1" -> "Joker". */
export function sign(name) {
  const [rank, suit] = splitCard(name);
  return suit ? `${rank}${SUITS[suit]}` : "Joker";
}

/** What the card says (the game's card texts; a bare name when the server sent none). */
function cardInfo(name) {
  return texts[name] || {name: sign(name), text: []};
}

function costOf(name) {
  const info = texts[name];
  return info && info.cost !== null && info.cost !== undefined ? info.cost : String(COST[splitCard(name)[0]]);
}

// ------------------------------------------------------------------------------------------- card faces

function face(name, {extra = "", cost = false, onclick = null} = {}) {
  const [rank, suit] = splitCard(name);
  const colour = suit === "H" || suit === "D" ? "red" : suit ? "black" : "joker";
  const soldier = ["A", "10", "J", "Q", "K"].includes(rank);
  const el = h(
    "div",
    {class: `card face ${colour}${soldier ? " soldier-card" : ""} ${extra}`, dataset: {card: name}, role: "img", "aria-label": cardInfo(name).name, onclick},
    h("span", {class: "corner"}, rank === "JK" ? "JK" : rank, h("br"), suit ? SUITS[suit] : "★"),
    h("span", {class: "pip"}, suit ? SUITS[suit] : "★"),
    cost ? h("span", {class: "cost", title: "cost in mana"}, costOf(name)) : null,
  );
  return describeCard(el, cardInfo(name));
}

function back(extra = "") {
  return h("div", {class: `card back ${extra}`, "aria-label": "hidden card"});
}

/** Several backs shown as a fan with a count. */
function backs(count, label, extra = "") {
  const fan = [];
  for (let i = 0; i < Math.min(count, 8); i++) fan.push(back());
  return h("div", {class: `fan ${extra}`, title: `${count} ${label}`}, fan, h("span", {class: "count"}, `${count}`));
}

/** ``cls`` plus " changed" when ``yes``: the element shows part of the last move. */
function mark(cls, yes) {
  return yes ? `${cls} changed` : cls;
}

// ------------------------------------------------------------------------------------------- the last move

/**
 * What changed between ``before`` and ``obs`` (both this seat's observation), per seat and on the stack and the
 * attack, as sets of card names and flags the drawing below reads; null ``before``: nothing.
 */
export function lastMove(before, obs) {
  const none = {players: [0, 1].map(() => ({cards: new Set(), soldiers: new Set()})), stack: new Set(), gone: [], attack: false, blocks: new Set(), phase: false, reveals: false, pending: false, passed: null};
  if (!before || !obs || !before.players || !obs.players) return none;
  const diff = none;
  const place = placesOf(obs);
  for (const s of [0, 1]) {
    const was = before.players[s];
    const now = obs.players[s];
    const d = diff.players[s];
    d.deck = was.deck !== now.deck;
    d.hand = was.hand_size !== now.hand_size;
    d.mana = was.mana_count !== now.mana_count || was.mana_tapped !== now.mana_tapped || was.available_mana !== now.available_mana || (was.mana_pool || 0) !== (now.mana_pool || 0);
    d.discard = was.discard.length !== now.discard.length;
    d.manaSet = now.mana_count > was.mana_count; // a card set face down as mana (the fan of backs is marked)
    const newIn = (list, old) => (list || []).filter((c) => !(old || []).includes(c));
    for (const c of newIn(now.discard, was.discard)) d.cards.add(c);
    for (const c of newIn(now.hand, was.hand)) d.cards.add(c);
    for (const c of newIn(now.mana, was.mana)) d.cards.add(c);
    for (const c of newIn(now.known_in_hand, was.known_in_hand)) d.cards.add(c);
    for (const c of newIn(now.known_in_mana, was.known_in_mana)) d.cards.add(c);
    for (const c of newIn(now.known_in_hand_or_mana, was.known_in_hand_or_mana)) d.cards.add(c);
    const old = new Map(was.soldiers.map((x) => [x.card, x]));
    for (const x of now.soldiers) {
      const y = old.get(x.card);
      // a soldier that came in, or whose tapping, damage, attack/health or "this turn" flags moved
      if (!y || ["tapped", "damage", "attack", "health", "unblockable", "zeroed"].some((k) => x[k] !== y[k])) d.soldiers.add(x.card);
    }
    const here = new Set(now.soldiers.map((x) => x.card));
    for (const x of was.soldiers) {
      if (!here.has(x.card)) diff.gone.push(`${sign(x.card)} ${wentTo(x.card, place, "died or left")}`);
    }
  }
  const key = (item) => `${item.kind} ${item.card} ${item.target}`;
  const stackWas = new Set(before.stack.map(key));
  for (const item of obs.stack) if (!stackWas.has(key(item))) diff.stack.add(key(item));
  const stackNow = new Set(obs.stack.map(key));
  for (const item of before.stack) {
    if (stackNow.has(key(item))) continue;
    const where = place.has(item.card) ? `, ${wentTo(item.card, place, "")}` : "";
    if (item.kind === "ability") diff.gone.push(`${sign(item.card)}'s ability resolved`);
    else if (item.kind === "spell") diff.gone.push(`${sign(item.card)} resolved${where}`);
    else diff.gone.push(`${sign(item.card)} ${place.has(item.card) ? wentTo(item.card, place, "") : "taken back from the discard pile"}`);
  }
  const atkWas = before.attack || {attackers: [], blocks: []};
  const atkNow = obs.attack || {attackers: [], blocks: []};
  const blocksWas = new Set(atkWas.blocks.map((b) => b.join(" ")));
  for (const b of atkNow.blocks) if (!blocksWas.has(b.join(" "))) diff.blocks.add(b[0]);
  diff.attack = JSON.stringify(atkWas) !== JSON.stringify(atkNow) && (atkNow.attackers.length > 0 || atkNow.blocks.length > 0);
  for (const c of atkNow.attackers) if (!atkWas.attackers.includes(c)) diff.players.forEach((d) => d.soldiers.add(c));
  diff.phase = before.turn !== obs.turn || before.phase !== obs.phase || before.active !== obs.active || !!obs.result !== !!before.result;
  diff.reveals = JSON.stringify(before.reveals) !== JSON.stringify(obs.reveals);
  diff.pending = JSON.stringify(before.pending) !== JSON.stringify(obs.pending) && !!obs.pending;
  // nothing on the table moved, but priority did: the one who held it passed ("Bo passed.")
  const moved = diff.gone.length || diff.stack.size || diff.attack || diff.phase || diff.reveals || diff.pending || diff.players.some((d) => d.deck || d.hand || d.mana || d.discard || d.cards.size || d.soldiers.size);
  const turned = before.priority !== obs.priority || before.to_act !== obs.to_act || before.passes !== obs.passes;
  diff.passed = !moved && turned && before.to_act !== null && before.to_act !== undefined ? before.to_act : null;
  return diff;
}

/** Where each face-up card lies now (for the "gone" note): card -> words. */
function placesOf(obs) {
  const place = new Map();
  obs.players.forEach((p, s) => {
    for (const c of p.discard) place.set(c, {where: "discard", seat: s});
    for (const c of p.hand || []) place.set(c, {where: "hand", seat: s});
    for (const c of p.known_in_hand || []) place.set(c, {where: "hand", seat: s});
  });
  return place;
}

let nameOfSeat = (seat) => `player ${seat + 1}`;
let viewer = null; // the viewer's seat (null: a spectator)

function whose(seat) {
  return seat === viewer ? "your" : `${nameOfSeat(seat)}'s`;
}

function wentTo(card, place, otherwise) {
  const p = place.get(card);
  if (!p) return otherwise;
  return p.where === "discard" ? `to ${whose(p.seat)} discard pile` : `back to ${whose(p.seat)} hand`;
}

// ------------------------------------------------------------------------------------------- the table

export function render(container, message, act, ctx) {
  const obs = message.observation;
  const legal = message.legal || [];
  if (selection && selection.ply !== message.ply) selection = null;
  texts = (ctx && ctx.cards) || {};
  nameOfSeat = ctx && ctx.nameOf ? ctx.nameOf : (seat) => `player ${seat + 1}`;
  viewer = obs.seat === undefined ? null : obs.seat;
  const me = obs.seat === null || obs.seat === undefined ? 0 : obs.seat; // spectators see seat 0 at the bottom
  const them = 1 - me;
  const click = (card) => (event) => {
    event.stopPropagation();
    onCard(card, legal, act, () => render(container, message, act, ctx), message.ply);
  };
  const changes = lastMove(ctx ? ctx.before : null, obs);
  const view = {obs, legal, click, ctx, me, changes, terminal: !!message.terminal || !!obs.result};

  const root = h(
    "div",
    {class: "torabato"},
    side(view, them, "top"),
    middle(view, act, () => render(container, message, act, ctx)),
    side(view, me, "bottom"),
  );
  // a viewer opened beside a card (hover, focus) described an element the redraw replaced: close it (a sheet
  // opened by a long press stays until its Close)
  const open = document.getElementById("card-viewer");
  if (open && !open.hidden && !open.classList.contains("sheet")) hideCard();
  replace(container, root);
  markPlayable(root, legal);
}

function side(view, seat, where) {
  const {obs} = view;
  const p = obs.players[seat];
  const d = view.changes.players[seat];
  const own = Array.isArray(p.hand); // the viewer's own seat: hand and mana are known
  const toAct = !view.terminal && (obs.to_act === seat || obs.priority === seat);
  const header = h(
    "div",
    {class: "who-line"},
    h("strong", {class: "pname"}, seat === viewer ? `${nameOfSeat(seat)} (you)` : nameOfSeat(seat)),
    h("span", {class: mark("stat deck", d.deck), title: "cards left in the deck (damage to a player mills it; empty at an end phase: that player loses)", dataset: {stat: "deck", seat}}, `deck ${p.deck}`),
    h("span", {class: mark("stat hand-count", d.hand), title: "cards in hand", dataset: {stat: "hand", seat}}, `hand ${p.hand_size}`),
    h(
      "span",
      {class: mark("stat mana-count", d.mana), title: "mana available now, of the mana cards set (tapped ones are spent until the next recovery)", dataset: {stat: "mana", seat}},
      `mana ${p.available_mana} of ${p.mana_count}${p.mana_tapped ? ` (${p.mana_tapped} tapped)` : ""}`,
    ),
    obs.active === seat && !view.terminal ? h("span", {class: "badge"}, "this turn") : null,
    toAct ? h("span", {class: "badge hot"}, seat === viewer ? "you decide" : "deciding") : null,
  );
  const soldiers = h("div", {class: "row soldiers"}, p.soldiers.length ? p.soldiers.map((s) => soldier(view, s, d)) : h("span", {class: "muted"}, "no soldiers"));
  const hand = own ? ownHand(view, p, d) : hiddenHand(view, p, d);
  const mana = own ? ownMana(view, p, d) : hiddenMana(view, p, d);
  const discard = h(
    "div",
    {class: "zone discard", dataset: {seat}},
    h("span", {class: "zone-name"}, `discard pile (${p.discard.length})`),
    h("div", {class: "row small"}, p.discard.map((c) => face(c, {extra: mark("mini", d.cards.has(c)), onclick: view.click(c)}))),
  );
  const parts = [header, h("div", {class: "zones"}, hand, mana, discard), soldiers];
  if (where === "bottom") parts.reverse();
  // the opponent's side is itself a target (@opp): damage spells aimed at a player
  const attrs = {class: `side ${where}${seat === view.obs.seat ? " mine" : ""}`, dataset: {seat}};
  if (seat !== view.me) {
    attrs.dataset.target = "opp";
    attrs.onclick = view.click("@opp");
  }
  return h("section", attrs, parts);
}

function ownHand(view, p, d) {
  return h(
    "div",
    {class: "zone hand"},
    h("span", {class: "zone-name"}, `your hand (${p.hand.length})`),
    h("div", {class: "row"}, p.hand.map((c) => face(c, {cost: true, extra: mark("", d.cards.has(c)), onclick: view.click(c)}))),
  );
}

function hiddenHand(view, p, d) {
  const known = p.known_in_hand || [];
  const unknown = Math.max(0, p.hand_size - known.length);
  return h(
    "div",
    {class: "zone hand hidden-hand"},
    h("span", {class: "zone-name"}, `hand (${p.hand_size})`),
    h("div", {class: "row"}, known.map((c) => face(c, {extra: mark("known", d.cards.has(c))})), unknown ? backs(unknown, "hidden cards") : null),
    knownAmong(p, d),
  );
}

/** Cards everyone knows the opponent holds in hand or mana (shown in the reveal, taken back from discard). */
function knownAmong(p, d) {
  const ambiguous = (p.known_in_hand_or_mana || []).filter((c) => !(p.known_in_hand || []).includes(c) && !(p.known_in_mana || []).includes(c));
  if (!ambiguous.length) return null;
  return h("div", {class: "known-line"}, h("span", {class: "muted"}, "known in hand or mana: "), ambiguous.map((c) => face(c, {extra: mark("mini known", d.cards.has(c))})));
}

function ownMana(view, p, d) {
  // which mana cards are tapped is not told (mana cards are interchangeable): the first mana_tapped are dimmed
  const cards = p.mana.map((c, i) => face(c, {extra: mark(`mana${i < p.mana_tapped ? " tapped" : ""}`, d.cards.has(c)), onclick: view.click(c)}));
  const pool = p.mana_pool ? h("span", {class: "badge"}, `+${p.mana_pool} from a 5`) : null;
  return h("div", {class: "zone mana"}, h("span", {class: "zone-name"}, `your mana: ${p.available_mana} to spend`), h("div", {class: "row small"}, cards), pool);
}

function hiddenMana(view, p, d) {
  const known = p.known_in_mana || [];
  const unknown = Math.max(0, p.mana_count - known.length);
  return h(
    "div",
    {class: "zone mana hidden-mana"},
    h("span", {class: "zone-name"}, `mana ${p.available_mana} of ${p.mana_count}`),
    h("div", {class: "row small"}, known.map((c) => face(c, {extra: mark("mini known", d.cards.has(c))})), unknown ? backs(unknown, "face-down mana cards", mark("", d.manaSet)) : null),
  );
}

function soldier(view, s, d) {
  const attack = view.obs.attack || {attackers: [], blocks: []};
  const attacking = attack.attackers.includes(s.card);
  const blocking = attack.blocks.find(([b]) => b === s.card);
  const flags = [
    s.tapped ? (s.tapped_this_turn ? "tapped this turn" : "tapped") : null,
    s.sick ? "new" : null,
    s.unblockable ? "unblockable" : null,
    s.zeroed ? "deals 0" : null,
    attacking ? "attacking" : null,
    blocking ? `blocks ${sign(blocking[1])}` : null,
  ].filter(Boolean);
  const changed = d.soldiers.has(s.card) || view.changes.blocks.has(s.card);
  const cls = `soldier${s.tapped ? " tapped" : ""}${attacking ? " attacking" : ""}${blocking ? " blocking" : ""}`;
  return h(
    "div",
    {class: mark(cls, changed), dataset: {soldier: s.card}},
    face(s.card, {onclick: view.click(s.card)}),
    h("div", {class: "stats"}, h("span", {class: "ah", title: "attack/health"}, `${s.attack}/${s.health}`), s.damage ? h("span", {class: "dmg", title: "damage taken"}, `−${s.damage}`) : null),
    flags.length ? h("div", {class: "flags"}, flags.join(" · ")) : null,
  );
}

function middle(view, act, redraw) {
  const {obs, legal, changes} = view;
  const phase = h(
    "div",
    {class: mark("phase", changes.phase)},
    `Turn ${obs.turn} · ${obs.phase}`,
    obs.result ? ` · ${endWords(obs.end_reason)}` : obs.active !== null && obs.active !== undefined ? ` · ${obs.active === viewer ? "your turn" : `${nameOfSeat(obs.active)}'s turn`}` : "",
  );
  const stack = h(
    "div",
    {class: "stack"},
    h("span", {class: "zone-name"}, obs.stack.length ? "stack (the top resolves first):" : "stack empty"),
    [...obs.stack].reverse().map((item) =>
      h(
        "div",
        {class: mark("stack-item", changes.stack.has(`${item.kind} ${item.card} ${item.target}`)), dataset: {seat: item.controller, item: item.card}},
        face(item.card, {extra: "mini", onclick: view.click(item.card)}),
        h("span", {}, stackWords(item)),
      ),
    ),
  );
  const gone = changes.gone.length ? h("div", {class: "gone changed"}, h("strong", {}, "Gone: "), changes.gone.join(" · ")) : null;
  const who = changes.passed === viewer ? "You" : nameOfSeat(changes.passed);
  const what = view.ctx && view.ctx.before && String(view.ctx.before.phase).includes("reveal") ? "put a card face down" : "passed";
  const passed = changes.passed !== null ? h("div", {class: "passed changed"}, `${who} ${what}.`) : null;
  const attack = attackLine(obs.attack, changes.attack);
  const reveals = obs.phase && obs.phase.includes("reveal") ? revealLine(view) : null;
  const pending = obs.pending && !view.terminal ? h("div", {class: mark("pending", changes.pending)}, pendingText(obs.pending)) : null;
  // actions that start from no card: pass, attack, done; pass and done say what they do in this step, as the
  // game words it (their detail: "Let it resolve", "End main phase", "No blocks")
  const buttons = legal
    .filter((a) => !parseAction(a.text).card)
    .map((a) => h("button", {type: "button", class: `big ${a.text}`, dataset: {action: a.text}, title: a.detail || a.text, onclick: () => act(a.text)}, a.detail || (a.text === "attack" ? "Attack" : a.text)));
  const chooser = selection ? chooserBox(view, act, redraw) : null;
  return h("section", {class: "middle"}, phase, reveals, stack, gone, passed, attack, pending, chooser, h("div", {class: "controls"}, buttons), legend());
}

/** The game's end reason with players' names for seat numbers ("Bo's deck is empty at the end phase"). */
function endWords(reason) {
  if (!reason) return "game over";
  return reason.replace(/seat (\d+)'s/g, (_, n) => whose(Number(n))).replace(/seat (\d+)/g, (_, n) => (Number(n) === viewer ? "you" : nameOfSeat(Number(n))));
}

/** A stack item in words: who put it there, and at what ("Bo's spell at your Q♥ (deals 0)"). */
function stackWords(item) {
  const what = item.kind === "spell" ? "spell" : item.kind === "ability" ? "ability" : "taking back from the discard pile";
  let at = "";
  if (item.target === "opponent") at = 1 - item.controller === viewer ? " at you" : ` at ${nameOfSeat(1 - item.controller)}`;
  else if (item.target) at = ` at ${sign(item.target)}`;
  return `${item.controller === viewer ? "Your" : `${nameOfSeat(item.controller)}'s`} ${what}${at}${item.zeroed ? " (deals 0)" : ""}`;
}

function attackLine(attack, changed) {
  if (!attack || (!attack.attackers.length && !attack.blocks.length)) return null;
  const blocks = attack.blocks.map(([b, a]) => `${sign(b)} blocks ${sign(a)}`);
  const assigned = (attack.assigned || []).map((x) => (Array.isArray(x) ? `${sign(x[0])} → ${sign(x[1])}` : String(x)));
  return h(
    "div",
    {class: mark("attack-line", changed)},
    h("strong", {}, "Attack: "),
    attack.attackers.map(sign).join(", ") || "no attackers yet",
    blocks.length ? ` · ${blocks.join(", ")}` : "",
    assigned.length ? ` · damage divided: ${assigned.join(", ")}` : "",
  );
}

function revealLine(view) {
  return h(
    "div",
    {class: mark("reveals", view.changes.reveals)},
    view.obs.reveals.map((cards, seat) => h("span", {}, `${seat === viewer ? "You" : nameOfSeat(seat)} showed: `, cards.length ? cards.map((c) => face(c, {extra: "mini"})) : "—")),
  );
}

function pendingText(pending) {
  if (!Array.isArray(pending)) return String(pending).replace(/_/g, " ");
  const [what, seat] = pending;
  const who = seat === viewer ? "You choose" : `${nameOfSeat(seat)} chooses`;
  if (what === "regrow") return `${who} a card from the discard pile to take back to hand.`;
  if (what === "return_mana") return `${who} a mana card to take back to hand.`;
  return `${who}: ${String(what).replace(/_/g, " ")}.`;
}

/** The table's notation in words, folded away under one line. */
function legend() {
  const owner = (seat) => (seat === viewer ? "yours" : nameOfSeat(seat));
  return h(
    "details",
    {class: "legend"},
    h("summary", {}, "How to read this table"),
    h(
      "ul",
      {},
      h("li", {}, `♠ ♣ and one joker are ${owner(0)}; ♥ ♦ and the other joker are ${owner(1)}. Each rank does one thing whatever its suit.`),
      h("li", {}, "Hover over a card, or hold your finger on it, to read what it does."),
      h("li", {}, "The green circle on a card in your hand is its cost in mana."),
      h("li", {}, "A soldier shows attack/health (2/3) and the damage it has taken (−1); at its health it dies."),
      h("li", {}, "Tapped (turned and faded): used this turn; it untaps at its owner's recovery. New: came in this turn, cannot attack yet."),
      h("li", {}, "Card backs are hidden cards; a yellow frame on the opponent's face-up card: everyone knows they hold it."),
      h("li", {}, "A green frame: a card you can act with now. A dashed frame: a target to click."),
      h("li", {}, "An orange frame: what changed since your last move (the opponent's play and what followed)."),
      h("li", {}, "Deck: damage to a player mills that many cards from the deck; a player whose deck is empty at an end phase loses."),
    ),
  );
}

// ------------------------------------------------------------------------------------------- clicks

/** A click on a card (or "@opp"): narrow the selection by target, or start one from the card. */
function onCard(card, legal, act, redraw, ply) {
  const target = card.startsWith("@") ? card.slice(1) : card;
  if (selection) {
    const narrowed = selection.actions.filter((a) => parseAction(a.text).target === target);
    if (narrowed.length === 1) return send(narrowed[0].text, act, redraw);
    if (narrowed.length > 1) {
      selection = {...selection, actions: narrowed};
      return redraw();
    }
    if (selection.card === card) {
      selection = null; // a second click on the same card: cancel
      return redraw();
    }
  }
  let actions = legal.filter((a) => parseAction(a.text).card === card);
  if (!actions.length) actions = legal.filter((a) => parseAction(a.text).target === target); // e.g. an attacker to block
  if (!actions.length) return undefined;
  if (actions.length === 1) return send(actions[0].text, act, redraw);
  selection = {card, actions, ply};
  return redraw();
}

function send(text, act, redraw) {
  selection = null;
  act(text);
  redraw(); // the chooser closes at once; the next state redraws the table anyway
}

/** Where a target card lies, in words: "Bo's J♠ soldier", "your Q♥ soldier", "the 3♦ on the stack". */
function targetWords(target, obs) {
  if (target === "opp") {
    const them = viewer === null ? "the opponent" : nameOfSeat(1 - viewer);
    return `${them} (mills their deck)`;
  }
  for (const [seat, p] of obs.players.entries()) {
    if (p.soldiers.some((s) => s.card === target)) return `${whose(seat)} ${sign(target)} soldier`;
  }
  const item = obs.stack.find((i) => i.card === target);
  if (item) return `${item.controller === viewer ? "your" : `${nameOfSeat(item.controller)}'s`} ${sign(target)} on the stack`;
  return sign(target);
}

/** A legal action in words, for the chooser: "Play 8♣ as a spell at Bo's J♠ soldier (1 mana)". */
export function actionWords(text, obs) {
  const {kind, card, target} = parseAction(text);
  if (!card) return text;
  const c = sign(card);
  const info = cardInfo(card);
  const at = target ? ` at ${targetWords(target, obs)}` : "";
  switch (kind) {
    case "mana":
      return `Set ${c} face down as mana (it is no longer its printed card)`;
    case "play":
      if ((info.kind || "").startsWith("soldier")) return `Summon ${c}, a ${info.kind} (${costOf(card)} mana)`;
      return `Play ${c} as a spell${at} (${costOf(card)} mana)`;
    case "use":
      return `Use ${c}'s ability${at}`;
    case "recur":
      return `Take ${c} back from your discard pile to your hand`;
    case "attacker":
      return `Send ${c} into the attack`;
    case "block":
      return `Block ${sign(target)} with ${c}`;
    case "assign":
      return `Give 1 point of ${c}'s damage to ${sign(target)}`;
    case "choose":
      return obs.pending && obs.pending[0] === "return_mana" ? `Take ${c} from your mana back to your hand` : `Take ${c} back to your hand`;
    case "reveal":
      return `Show ${c} to decide who goes first`;
    default:
      return text;
  }
}

function chooserBox(view, act, redraw) {
  const card = selection.card.replace(/^@/, "");
  const info = card === "opp" ? null : cardInfo(card);
  return h(
    "div",
    {class: "chooser", role: "dialog", "aria-label": `choices for ${info ? info.name : "the opponent"}`},
    h(
      "div",
      {class: "chooser-title"},
      info ? [describeCard(h("strong", {class: "chooser-card"}, info.name), info), info.kind ? ` · ${info.kind}` : "", ` · cost ${costOf(card)}`] : h("strong", {}, "The opponent"),
      info ? (info.text || []).map((t) => h("div", {class: "chooser-text"}, t)) : null,
      h("div", {class: "muted"}, "Choose one, or click a highlighted target:"),
    ),
    h(
      "div",
      {class: "chooser-actions"},
      selection.actions.map((a) => h("button", {type: "button", class: "choice", dataset: {action: a.text}, onclick: () => send(a.text, act, redraw)}, actionWords(a.text, view.obs))),
      h(
        "button",
        {
          type: "button",
          class: "cancel",
          onclick: () => {
            selection = null;
            redraw();
          },
        },
        "Cancel",
      ),
    ),
  );
}

/** Mark the cards a click would do something with (and, during a selection, its targets). */
function markPlayable(root, legal) {
  const starts = new Set(legal.map((a) => parseAction(a.text).card).filter(Boolean));
  const targets = new Set((selection ? selection.actions : []).map((a) => parseAction(a.text).target).filter(Boolean));
  for (const el of root.querySelectorAll("[data-card]")) {
    if (starts.has(el.dataset.card)) el.classList.add("playable");
    if (targets.has(el.dataset.card)) el.classList.add("target");
    if (selection && selection.card === el.dataset.card) el.classList.add("selected");
  }
  for (const el of root.querySelectorAll("[data-target=opp]")) el.classList.toggle("target", targets.has("opp"));
}
