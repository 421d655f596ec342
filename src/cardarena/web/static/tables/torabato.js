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
// a small chooser lists just those, and a click on a target (a soldier, a spell on the stack, the opponent)
// narrows them. Actions without a card (pass, attack, done) are buttons in the middle of the table.

import {h, replace} from "../dom.js";

const SUITS = {S: "♠", C: "♣", H: "♥", D: "♦"};
const COST = {A: 4, 2: 1, 3: 4, 4: 3, 5: 2, 6: 3, 7: 1, 8: 1, 9: 2, 10: 1, J: 1, Q: 2, K: 3, JK: 5};
/** Kinds whose action text names a card first: "kind CARD [target]". */
const CARD_KINDS = new Set(["reveal", "mana", "play", "use", "recur", "attacker", "block", "assign", "choose"]);

/** The selection in progress: a card clicked with several possible actions. Cleared on every new ply. */
let selection = null;

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

// ------------------------------------------------------------------------------------------- card faces

function face(name, {extra = "", cost = false, onclick = null} = {}) {
  const [rank, suit] = splitCard(name);
  const colour = suit === "H" || suit === "D" ? "red" : suit ? "black" : "joker";
  const soldier = ["A", "10", "J", "Q", "K"].includes(rank);
  return h(
    "div",
    {class: `card face ${colour}${soldier ? " soldier-card" : ""} ${extra}`, dataset: {card: name}, role: "img", "aria-label": name, onclick},
    h("span", {class: "corner"}, rank === "JK" ? "JK" : rank, h("br"), suit ? SUITS[suit] : "★"),
    h("span", {class: "pip"}, suit ? SUITS[suit] : "★"),
    cost ? h("span", {class: "cost", title: "cost"}, String(COST[rank])) : null,
  );
}

function back(extra = "") {
  return h("div", {class: `card back ${extra}`, "aria-label": "hidden card"});
}

/** Several backs shown as a fan with a count. */
function backs(count, label) {
  const fan = [];
  for (let i = 0; i < Math.min(count, 8); i++) fan.push(back());
  return h("div", {class: "fan", title: `${count} ${label}`}, fan, h("span", {class: "count"}, `${count}`));
}

// ------------------------------------------------------------------------------------------- the table

export function render(container, message, act, ctx) {
  const obs = message.observation;
  const legal = message.legal || [];
  if (selection && selection.ply !== message.ply) selection = null;
  const me = obs.seat === null || obs.seat === undefined ? 0 : obs.seat; // spectators see seat 0 at the bottom
  const them = 1 - me;
  const click = (card) => (event) => {
    event.stopPropagation();
    onCard(card, legal, act, () => render(container, message, act, ctx), message.ply);
  };
  const view = {obs, legal, click, ctx, me};

  const root = h(
    "div",
    {class: "torabato"},
    side(view, them, "top"),
    middle(view, act, () => render(container, message, act, ctx)),
    side(view, me, "bottom"),
  );
  replace(container, root);
  markPlayable(root, legal);
}

function side(view, seat, where) {
  const {obs, ctx} = view;
  const p = obs.players[seat];
  const own = Array.isArray(p.hand); // the viewer's own seat: hand and mana are known
  const name = ctx && ctx.nameOf ? ctx.nameOf(seat) : `seat ${seat}`;
  const header = h(
    "div",
    {class: "who-line"},
    h("strong", {class: "pname"}, name),
    h("span", {class: "stat", title: "cards left in the deck"}, `deck ${p.deck}`),
    h("span", {class: "stat", title: "mana available / cards / tapped"}, `mana ${p.available_mana} (${p.mana_count} cards, ${p.mana_tapped} tapped)`),
    obs.active === seat ? h("span", {class: "badge"}, "active") : null,
    obs.priority === seat && !obs.result ? h("span", {class: "badge hot"}, "to act") : null,
  );
  const soldiers = h("div", {class: "row soldiers"}, p.soldiers.length ? p.soldiers.map((s) => soldier(view, s)) : h("span", {class: "muted"}, "no soldiers"));
  const hand = own ? ownHand(view, p) : hiddenHand(view, p);
  const mana = own ? ownMana(view, p) : hiddenMana(view, p);
  const discard = h(
    "div",
    {class: "zone discard"},
    h("span", {class: "zone-name"}, `discard (${p.discard.length})`),
    h("div", {class: "row small"}, p.discard.map((c) => face(c, {extra: "mini", onclick: view.click(c)}))),
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

function ownHand(view, p) {
  return h("div", {class: "zone hand"}, h("span", {class: "zone-name"}, `hand (${p.hand.length})`), h("div", {class: "row"}, p.hand.map((c) => face(c, {cost: true, onclick: view.click(c)}))));
}

function hiddenHand(view, p) {
  const known = p.known_in_hand || [];
  const unknown = Math.max(0, p.hand_size - known.length);
  return h(
    "div",
    {class: "zone hand hidden-hand"},
    h("span", {class: "zone-name"}, `hand (${p.hand_size})`),
    h("div", {class: "row"}, known.map((c) => face(c, {extra: "known"})), unknown ? backs(unknown, "hidden cards") : null),
    knownAmong(p),
  );
}

/** Cards everyone knows the opponent holds in hand or mana (shown in the reveal, taken back from discard). */
function knownAmong(p) {
  const ambiguous = (p.known_in_hand_or_mana || []).filter((c) => !(p.known_in_hand || []).includes(c) && !(p.known_in_mana || []).includes(c));
  if (!ambiguous.length) return null;
  return h("div", {class: "known-line"}, h("span", {class: "muted"}, "known in hand or mana: "), ambiguous.map((c) => face(c, {extra: "mini known"})));
}

function ownMana(view, p) {
  // which mana cards are tapped is not told (mana cards are interchangeable): the first mana_tapped are dimmed
  const cards = p.mana.map((c, i) => face(c, {extra: `mana${i < p.mana_tapped ? " tapped" : ""}`, onclick: view.click(c)}));
  const pool = p.mana_pool ? h("span", {class: "badge"}, `+${p.mana_pool} from 5`) : null;
  return h("div", {class: "zone mana"}, h("span", {class: "zone-name"}, `mana ${p.available_mana}`), h("div", {class: "row small"}, cards), pool);
}

function hiddenMana(view, p) {
  const known = p.known_in_mana || [];
  const unknown = Math.max(0, p.mana_count - known.length);
  return h(
    "div",
    {class: "zone mana hidden-mana"},
    h("span", {class: "zone-name"}, `mana ${p.available_mana}/${p.mana_count}`),
    h("div", {class: "row small"}, known.map((c) => face(c, {extra: "mini known"})), unknown ? backs(unknown, "face-down mana cards") : null),
  );
}

function soldier(view, s) {
  const attack = view.obs.attack || {attackers: [], blocks: []};
  const attacking = attack.attackers.includes(s.card);
  const blocking = attack.blocks.find(([b]) => b === s.card);
  const flags = [
    s.tapped ? (s.tapped_this_turn ? "tapped this turn" : "tapped") : null,
    s.sick ? "new" : null,
    s.unblockable ? "unblockable" : null,
    s.zeroed ? "deals 0" : null,
    attacking ? "attacking" : null,
    blocking ? `blocks ${blocking[1]}` : null,
  ].filter(Boolean);
  return h(
    "div",
    {class: `soldier${s.tapped ? " tapped" : ""}${attacking ? " attacking" : ""}${blocking ? " blocking" : ""}`, dataset: {soldier: s.card}},
    face(s.card, {onclick: view.click(s.card)}),
    h("div", {class: "stats"}, h("span", {class: "ah", title: "attack/health"}, `${s.attack}/${s.health}`), s.damage ? h("span", {class: "dmg", title: "damage taken"}, `−${s.damage}`) : null),
    flags.length ? h("div", {class: "flags"}, flags.join(" · ")) : null,
  );
}

function middle(view, act, redraw) {
  const {obs, legal} = view;
  const phase = h("div", {class: "phase"}, `Turn ${obs.turn} · ${obs.phase}`, obs.result ? ` · ${obs.end_reason || "over"}` : "");
  const stack = h(
    "div",
    {class: "stack"},
    h("span", {class: "zone-name"}, obs.stack.length ? "stack (top first)" : "stack empty"),
    [...obs.stack].reverse().map((item) =>
      h(
        "div",
        {class: "stack-item", dataset: {seat: item.controller}},
        face(item.card, {extra: "mini", onclick: view.click(item.card)}),
        h("span", {}, `${item.kind}${item.target ? ` → ${item.target === "opp" || typeof item.target === "number" ? `seat ${item.target}` : item.target}` : ""}${item.zeroed ? " (0 damage)" : ""}`),
      ),
    ),
  );
  const attack = attackLine(obs.attack);
  const reveals = obs.phase && obs.phase.includes("reveal") ? revealLine(view) : null;
  const pending = obs.pending ? h("div", {class: "pending"}, `Choosing: ${pendingText(obs.pending)}`) : null;
  // actions that start from no card: pass, attack, done; pass and done say what they do in this step, as the
  // game words it (their detail: "Let it resolve", "End main phase", "No blocks")
  const buttons = legal
    .filter((a) => !parseAction(a.text).card)
    .map((a) => h("button", {type: "button", class: `big ${a.text}`, dataset: {action: a.text}, title: a.text, onclick: () => act(a.text)}, a.detail || a.text));
  const chooser = selection ? chooserBox(view, act, redraw) : null;
  return h("section", {class: "middle"}, phase, reveals, stack, attack, pending, chooser, h("div", {class: "controls"}, buttons));
}

function attackLine(attack) {
  if (!attack || (!attack.attackers.length && !attack.blocks.length)) return null;
  const blocks = attack.blocks.map(([b, a]) => `${b} blocks ${a}`);
  const assigned = (attack.assigned || []).map((x) => (Array.isArray(x) ? x.join(" → ") : String(x)));
  return h(
    "div",
    {class: "attack-line"},
    h("strong", {}, "Attack: "),
    attack.attackers.join(", ") || "no attackers yet",
    blocks.length ? ` · ${blocks.join(", ")}` : "",
    assigned.length ? ` · damage assigned: ${assigned.join(", ")}` : "",
  );
}

function revealLine(view) {
  return h("div", {class: "reveals"}, view.obs.reveals.map((cards, seat) => h("span", {}, `seat ${seat} showed: `, cards.length ? cards.map((c) => face(c, {extra: "mini"})) : "—")));
}

function pendingText(pending) {
  return Array.isArray(pending) ? pending.join(" ").replace(/_/g, " ") : String(pending);
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

function chooserBox(view, act, redraw) {
  return h(
    "div",
    {class: "chooser", role: "dialog", "aria-label": `choices for ${selection.card}`},
    h("div", {class: "chooser-title"}, `${selection.card.replace(/^@/, "")}: choose one, or click a highlighted target`),
    h(
      "div",
      {class: "chooser-actions"},
      selection.actions.map((a) => h("button", {type: "button", class: "choice", dataset: {action: a.text}, onclick: () => send(a.text, act, redraw)}, a.text)),
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
        "cancel",
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
