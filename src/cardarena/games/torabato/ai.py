"""ToraBato's knowledge for the AI (issue 14), from one seat's observation only: an evaluation of the position, a
good player's rules of thumb, and the facts about the opponent's hidden cards worth odds.

The rules of thumb: set a mana card every turn until the hand's plays are affordable, choosing the card least worth
keeping; summon the strongest soldier the mana allows; remove the opponent's strongest soldier when it pays; mill
the opponent with damage spells when no soldier is worth killing; keep 1 mana up for a 7 on the opponent's turn;
attack with soldiers that no untapped opponent soldier can block profitably; block to kill, to survive or to trade
up, and chump-block only when the deck is about to run out; answer a damage spell aimed at a soldier or at the deck
with a 7, or save a soldier with an 8.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine import Action, Rng
from .cards import BY_NAME, NAMES, CardSpec
from .constants import (
    ASSIGN_K,
    ATTACK_K,
    ATTACKER_K,
    BLOCK_K,
    CHOOSE_K,
    DONE_K,
    MANA_K,
    OPPONENT,
    PASS_K,
    PLAY_K,
    RECUR_K,
    REVEAL_K,
    SOLDIER,
    USE_K,
    Ability,
    Effect,
    Phase,
)

if TYPE_CHECKING:
    from .state import ToraBatoState

Obs = dict[str, Any]


# -- the evaluation ----------------------------------------------------------------------------------------------
def _board(player: Obs) -> float:
    return sum(s["attack"] + 0.5 * max(0, s["health"] - s["damage"]) for s in player["soldiers"])


def evaluate(observation: Obs, seat: int) -> float:
    """How well ``seat`` stands, in [-1, 1]: decks (the race to an empty deck), the soldiers on the field, the
    cards in hand and the mana, each as a difference between the two players."""
    result = observation.get("result")
    if result is not None:
        return max(-1.0, min(1.0, float(result[seat])))
    me, opp = observation["players"][seat], observation["players"][1 - seat]
    # A deck near empty weighs more than a card more in a long deck.
    decks = math.sqrt(me["deck"]) - math.sqrt(opp["deck"])
    score = (
        0.6 * decks
        + 0.12 * (_board(me) - _board(opp))
        + 0.08 * (me["hand_size"] - opp["hand_size"])
        + 0.05 * (min(me["mana_count"], 8) - min(opp["mana_count"], 8))
    )
    return math.tanh(score)


# -- card worth ---------------------------------------------------------------------------------------------------
_EFFECT_WORTH = {
    Effect.DAMAGE: 2.0,
    Effect.DESTROY: 5.0,
    Effect.GAIN_MANA: 2.5,
    Effect.DRAW: 3.5,
    Effect.PREVENT: 3.0,
    Effect.BOOST: 2.5,
    Effect.RETURN_MANA: 1.0,
    Effect.DESTROY_ALL: 4.0,
}


def worth(s: CardSpec) -> float:
    """How much a card is worth keeping in hand (the least worth is set as mana)."""
    if s.kind == SOLDIER:
        return s.attack * 1.5 + s.health + (1.0 if s.ability is not None else 0.0) + (1.0 if s.recur_cost else 0.0)
    assert s.effect is not None
    base = _EFFECT_WORTH[s.effect]
    if s.effect == Effect.DAMAGE:
        base += s.amount * 1.2
    return base + (0.5 if s.recur_cost else 0.0)


# -- the policy ---------------------------------------------------------------------------------------------------
class _View:
    """The observation read once for the rules of thumb."""

    def __init__(self, specs: Sequence[CardSpec], observation: Obs, seat: int) -> None:
        self.spec = specs
        self.obs = observation
        self.seat = seat
        self.me = observation["players"][seat]
        self.opp = observation["players"][1 - seat]
        self.mana = self.me["available_mana"]
        self.my_soldiers = {s["card"]: s for s in self.me["soldiers"]}
        self.opp_soldiers = {s["card"]: s for s in self.opp["soldiers"]}

    def s(self, name: str) -> CardSpec:
        return self.spec[BY_NAME[name]]

    @staticmethod
    def left(soldier: Obs) -> int:
        """Health left."""
        return int(soldier["health"]) - int(soldier["damage"])

    def soldier_worth(self, soldier: Obs) -> float:
        return soldier["attack"] * 1.5 + self.left(soldier)


def heuristic_action(specs: Sequence[CardSpec], observation: Obs, legal: list[Action], seat: int, rng: Rng) -> Action:
    """One of ``legal``, chosen by the rules of thumb of this module (``rng`` breaks ties)."""
    by_text = {str(a): a for a in legal}
    v = _View(specs, observation, seat)
    kind = legal[0][0]
    if kind == CHOOSE_K:
        return max(legal, key=lambda a: (worth(specs[a[1]]), -a[1]))
    if kind == REVEAL_K:
        return min(legal, key=lambda a: (specs[a[1]].value, worth(specs[a[1]])))
    if kind in (ATTACKER_K, DONE_K) and observation["phase"] == Phase.SELECT_ATTACKERS.text:
        return _attackers(v, legal, by_text)
    if kind in (BLOCK_K, DONE_K) and observation["phase"] == Phase.SELECT_BLOCKERS.text:
        return _blocks(v, legal, by_text)
    if kind == ASSIGN_K:
        return _assign(v, legal)
    return _priority(v, legal, by_text, rng)


def _good_attacker(v: _View, soldier: Obs) -> bool:
    """No untapped opponent soldier can block it, kill it and survive (unless it is unblockable)."""
    if soldier.get("unblockable"):
        return True
    for b in v.opp["soldiers"]:
        if b["tapped"]:
            continue
        kills = b["attack"] >= v.left(soldier) and not b["zeroed"]
        survives = soldier["attack"] < v.left(b) or soldier["zeroed"]
        if kills and survives:
            return False
        if kills and v.soldier_worth(b) < v.soldier_worth(soldier) - 1:
            return False  # a cheap trade for them
    return soldier["attack"] > 0 and not soldier["zeroed"]


def _attackers(v: _View, legal: list[Action], by_text: dict[str, Action]) -> Action:
    for a in legal:
        if a[0] == ATTACKER_K and _good_attacker(v, v.my_soldiers[NAMES[a[1]]]):
            return a
    if DONE_K in by_text:
        return by_text[DONE_K]
    return max(legal, key=lambda a: v.soldier_worth(v.my_soldiers[NAMES[a[1]]]))


def _blocks(v: _View, legal: list[Action], by_text: dict[str, Action]) -> Action:
    blocks = [a for a in legal if a[0] == BLOCK_K]
    incoming = sum(v.opp_soldiers[n]["attack"] for n in v.obs["attack"]["attackers"] if n in v.opp_soldiers)
    desperate = v.me["deck"] <= incoming + 1
    best: tuple[float, Action] | None = None
    for a in blocks:
        blocker, attacker = v.my_soldiers[NAMES[a[1]]], v.opp_soldiers[NAMES[a[2]]]
        already = any(att == NAMES[a[2]] for _, att in v.obs["attack"]["blocks"])
        kills = blocker["attack"] >= v.left(attacker) and not blocker["zeroed"]
        survives = attacker["attack"] < v.left(blocker) or attacker["zeroed"]
        gain = 0.0
        if kills:
            gain += v.soldier_worth(attacker)
        if not survives:
            gain -= v.soldier_worth(blocker)
        if survives and not kills:
            gain += 0.5 * attacker["attack"]  # stops the milling for free
        if already and not kills:
            gain -= 1.0
        if desperate:
            gain += 2.0 * attacker["attack"]
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, a)
    if best is not None:
        return best[1]
    return by_text.get(DONE_K, legal[-1])


def _assign(v: _View, legal: list[Action]) -> Action:
    """One point of damage to the blocker closest to dying (counting the points already given)."""
    assigned = v.obs["attack"]["assigned"]

    def need(a: Action) -> tuple[int, int]:
        b = v.opp_soldiers[NAMES[a[2]]]
        given = sum(1 for x, y in assigned if x == NAMES[a[1]] and y == NAMES[a[2]])
        left = v.left(b) - given
        return (0 if left > 0 else 1, left)

    return min(legal, key=need)


def _priority(v: _View, legal: list[Action], by_text: dict[str, Action], rng: Rng) -> Action:
    obs = v.obs
    own_turn = obs["active"] == v.seat
    stack = obs["stack"]
    passing = by_text.get(PASS_K, legal[0])
    if stack:
        answer = _answer(v, legal)
        return answer if answer is not None else passing
    phase = obs["phase"]
    if own_turn and phase == Phase.MAIN.text:
        return _main(v, legal, by_text, rng) or passing
    if phase in (Phase.BLOCK.text, Phase.DAMAGE.text):
        save = _combat_trick(v, legal)
        if save is not None:
            return save
    return passing


def _plays(legal: list[Action], kind: str = PLAY_K) -> list[Action]:
    return [a for a in legal if a[0] == kind]


def _answer(v: _View, legal: list[Action]) -> Action | None:
    """The top of the stack is the opponent's: a 7 on a damage spell aimed at us, an 8 to save a soldier."""
    kind, card, controller, target = (v.obs["stack"][-1][k] for k in ("kind", "card", "controller", "target"))
    if controller == v.seat or kind != "spell" or v.obs["stack"][-1]["zeroed"]:
        return None
    s = v.s(card)
    if s.effect != Effect.DAMAGE:
        return None
    mine = target == "opponent" or target in v.my_soldiers
    if not mine:
        return None
    lethal = target in v.my_soldiers and s.amount >= v.left(v.my_soldiers[target])
    if target == "opponent" and s.amount < 3 and v.me["deck"] > 6:
        return None
    for a in _plays(legal):
        spec = v.spec[a[1]]
        if spec.effect == Effect.PREVENT and a[2] == BY_NAME[card] and (lethal or target == "opponent"):
            return a
        if (
            lethal
            and spec.effect == Effect.BOOST
            and a[2] == BY_NAME[target]
            and s.amount < v.left(v.my_soldiers[target]) + spec.health
        ):
            return a
    return None


def _combat_trick(v: _View, legal: list[Action]) -> Action | None:
    """In a fight, an 8 on our soldier that would die (and would survive with +2/+2) or would fail to kill."""
    boosts = [a for a in _plays(legal) if v.spec[a[1]].effect == Effect.BOOST]
    if not boosts:
        return None
    attack = v.obs["attack"]
    pairs = [(b, a) for b, a in attack["blocks"]]
    for b, a in pairs:
        for mine, theirs in ((b, a), (a, b)):
            if mine in v.my_soldiers and theirs in v.opp_soldiers:
                m, t = v.my_soldiers[mine], v.opp_soldiers[theirs]
                dies = t["attack"] >= v.left(m) and not t["zeroed"]
                for p in boosts:
                    spec = v.spec[p[1]]
                    if p[2] == BY_NAME[mine] and dies and t["attack"] < v.left(m) + spec.health:
                        return p
    return None


def _main(v: _View, legal: list[Action], by_text: dict[str, Action], rng: Rng) -> Action | None:
    """Our own main phase with an empty stack: mana, then soldiers, removal, damage, draw, recursion, attack."""
    hand = [BY_NAME[n] for n in v.me["hand"]]
    mana_actions = _plays(legal, MANA_K)
    if mana_actions:
        costs = sorted(v.spec[c].cost for c in hand)
        wants_mana = v.me["mana_count"] < 7 or (costs and costs[-1] > v.mana)
        if wants_mana and len(hand) >= 1:
            return min(mana_actions, key=lambda a: (worth(v.spec[a[1]]), a[1]))
    plays = _plays(legal)
    keep = 1 if _holds_answer(v) else 0
    # soldiers, strongest first, if mana remains for an answer
    soldiers = [a for a in plays if v.spec[a[1]].kind == SOLDIER]
    if soldiers:
        best = max(soldiers, key=lambda a: (worth(v.spec[a[1]]), a[1]))
        if v.spec[best[1]].cost <= v.mana - keep or v.spec[best[1]].cost >= 3:
            return best
    removal = _removal(v, plays)
    if removal is not None:
        return removal
    for a in plays:
        s = v.spec[a[1]]
        if s.effect == Effect.GAIN_MANA and any(
            v.spec[c].cost > v.mana and v.spec[c].cost <= v.mana - s.cost + s.amount and c != a[1] for c in hand
        ):
            return a
        if s.effect == Effect.DRAW and v.mana - s.cost >= keep:
            return a
    mills = [a for a in plays if v.spec[a[1]].effect == Effect.DAMAGE and a[2] == OPPONENT]
    if mills and (v.mana - min(v.spec[a[1]].cost for a in mills) >= keep or v.opp["deck"] <= 4):
        return max(mills, key=lambda a: v.spec[a[1]].amount)
    attack = by_text.get(ATTACK_K)
    if attack is not None and any(_good_attacker(v, s) for s in v.me["soldiers"] if not s["tapped"] and not s["sick"]):
        return attack
    uses = _plays(legal, USE_K)
    for a in uses:
        s = v.spec[a[1]]
        if s.ability == Ability.REGROW and v.me["discard"]:
            return a
        if s.ability == Ability.TAP and a[2] >= 0 and NAMES[a[2]] in v.opp_soldiers and attack is not None:
            return a
    recurs = _plays(legal, RECUR_K)
    if recurs and v.mana - keep >= min(v.spec[a[1]].recur_cost or 0 for a in recurs):
        return max(recurs, key=lambda a: (worth(v.spec[a[1]]), a[1]))
    return None


def _holds_answer(v: _View) -> bool:
    return any(v.s(n).effect == Effect.PREVENT for n in v.me["hand"]) and not v.obs["stack"]


def _removal(v: _View, plays: list[Action]) -> Action | None:
    """Destroy or damage the opponent's best soldier when it is worth the card; a board wipe when behind."""
    best: tuple[float, Action] | None = None
    my_board = sum(v.soldier_worth(s) for s in v.me["soldiers"])
    their_board = sum(v.soldier_worth(s) for s in v.opp["soldiers"])
    for a in plays:
        s = v.spec[a[1]]
        target = a[2]
        if s.effect == Effect.DESTROY_ALL:
            gain = their_board - my_board - 3
        elif target >= 0 and NAMES[target] in v.opp_soldiers:
            t = v.opp_soldiers[NAMES[target]]
            if s.effect == Effect.DESTROY:
                gain = v.soldier_worth(t) - 3
            elif s.effect == Effect.DAMAGE and s.amount >= v.left(t):
                gain = v.soldier_worth(t) - s.amount
            else:
                continue
        else:
            continue
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, a)
    return best[1] if best is not None else None


# -- facts worth odds ------------------------------------------------------------------------------------------------
def hidden_facts(world: ToraBatoState, seat: int) -> dict[str, str]:
    """What the opponent holds, read from a resampled world: aces, jokers, answers and threats, the hand's mix;
    and the rank of the seat's own next draw."""
    o = 1 - seat
    specs = world.game.spec
    hand = [specs[c] for c in world.hand[o]]
    ranks = {s.rank for s in hand}
    soldiers = sum(1 for s in hand if s.kind == SOLDIER)
    facts = {
        "opponent holds an ace": "yes" if "A" in ranks else "no",
        "opponent holds a Joker": "yes" if "Joker" in ranks else "no",
        "opponent holds a 7 (answers a damage spell)": "yes" if "7" in ranks else "no",
        "opponent holds removal (3, 4 or Joker)": "yes" if ranks & {"3", "4", "Joker"} else "no",
        "opponent's hand: soldiers / spells": f"{soldiers} / {len(hand) - soldiers}",
        "opponent's best soldier in hand": max(
            (s.rank for s in hand if s.kind == SOLDIER), key=_soldier_rank, default="none"
        ),
    }
    if world.deck[seat]:
        facts["your next draw"] = specs[world.deck[seat][-1]].rank
    return facts


def _soldier_rank(rank: str) -> int:
    return ("10", "J", "Q", "K", "A").index(rank) if rank in ("10", "J", "Q", "K", "A") else -1
