"""ToraBato actions: values, canonical texts and the fixed integer encoding.

Texts (card names as ``7S``, ``10H``, ``QD``, ``JK0``; ``@opp`` is the opponent of the acting player):

=================  ============================================================
``pass``           pass priority
``reveal 7S``      show a card to decide the first player (hidden until both have)
``mana 7S``        set a hand card face down as mana (once per turn)
``play 2S @QH``    cast a spell / summon a soldier from hand, with its target if it has one
``use QS @KH``     use a soldier's ability, with its target if it has one
``recur 2S``       return a card from your discard pile to your hand (its recursion ability)
``attack``         declare the turn's attack
``attacker KS``    send a soldier into the attack (step 2)
``block QH KS``    the defender's QH blocks the attacker KS (step 3)
``assign KS QH``   the attacker gives one point of KS's damage to its blocker QH (step 4)
``choose 5C``      a card chosen while an effect resolves (A's and 9's abilities)
``done``           end the current selection (attackers, blockers)
=================  ============================================================
"""

from __future__ import annotations

from ...engine import Action, InvalidActionError
from .cards import BY_NAME, NAMES
from .constants import (
    ASSIGN_K,
    ATTACK_K,
    ATTACKER_K,
    BLOCK_K,
    CHOOSE_K,
    DONE_K,
    MANA_K,
    NO_TARGET,
    NUM_CARDS,
    OPPONENT,
    PASS_K,
    PLAY_K,
    RECUR_K,
    REVEAL_K,
    USE_K,
    Kind,
)


class ToraBatoAction(Action):
    """A ToraBato action ``(kind, *card ids)``; targets are card ids, ``NO_TARGET`` or ``OPPONENT``."""

    __slots__ = ()

    def __str__(self) -> str:
        kind = self[0]
        if kind in (PLAY_K, USE_K):
            target = self[2]
            tail = "" if target == NO_TARGET else " @opp" if target == OPPONENT else f" @{NAMES[target]}"
            return f"{kind} {NAMES[self[1]]}{tail}"
        return " ".join([kind, *(NAMES[c] for c in self[1:])])


PASS = ToraBatoAction((PASS_K,))
ATTACK = ToraBatoAction((ATTACK_K,))
DONE = ToraBatoAction((DONE_K,))

# Prebuilt action values, so that listing the legal actions allocates nothing but the list.
_N = NUM_CARDS
REVEAL_A = [ToraBatoAction((REVEAL_K, c)) for c in range(_N)]
MANA_A = [ToraBatoAction((MANA_K, c)) for c in range(_N)]
RECUR_A = [ToraBatoAction((RECUR_K, c)) for c in range(_N)]
ATTACKER_A = [ToraBatoAction((ATTACKER_K, c)) for c in range(_N)]
CHOOSE_A = [ToraBatoAction((CHOOSE_K, c)) for c in range(_N)]
#: ``PLAY_A[card][T0 + target]``: a play with its target (``NO_TARGET``, ``OPPONENT`` or a card id)
PLAY_A = [[ToraBatoAction((PLAY_K, c, t)) for t in range(OPPONENT, _N)] for c in range(_N)]
USE_A = [[ToraBatoAction((USE_K, c, t)) for t in range(OPPONENT, _N)] for c in range(_N)]
BLOCK_A = [[ToraBatoAction((BLOCK_K, b, a)) for a in range(_N)] for b in range(_N)]
ASSIGN_A = [[ToraBatoAction((ASSIGN_K, a, b)) for b in range(_N)] for a in range(_N)]
T0 = -OPPONENT  # offset of target codes in PLAY_A / USE_A rows

# kinds with one card argument, and the pair kinds
_SINGLE = (REVEAL_K, MANA_K, RECUR_K, ATTACKER_K, CHOOSE_K)
_TARGETED = (PLAY_K, USE_K)
_PAIR = (BLOCK_K, ASSIGN_K)
_NT = NUM_CARDS + 2  # target codes: OPPONENT, NO_TARGET, cards

_BASE: dict[str, int] = {}
_n = 3
for _k in _SINGLE:
    _BASE[_k] = _n
    _n += NUM_CARDS
for _k in _TARGETED:
    _BASE[_k] = _n
    _n += NUM_CARDS * _NT
for _k in _PAIR:
    _BASE[_k] = _n
    _n += NUM_CARDS * NUM_CARDS
NUM_DISTINCT_ACTIONS = _n
_FIXED: dict[str, int] = {PASS_K: 0, ATTACK_K: 1, DONE_K: 2}
_FIXED_ACTIONS = (PASS, ATTACK, DONE)


def action_index(action: Action) -> int:
    kind = action[0]
    if kind in _FIXED:
        return _FIXED[kind]
    base = _BASE[kind]
    if kind in _TARGETED:
        return base + action[1] * _NT + (action[2] - OPPONENT)
    if kind in _PAIR:
        return base + action[1] * NUM_CARDS + action[2]
    return base + int(action[1])


def action_from_index(index: int) -> ToraBatoAction:
    if index < 3:
        return _FIXED_ACTIONS[index]
    kind = max((k for k in _BASE if _BASE[k] <= index), key=lambda k: _BASE[k])
    offset = index - _BASE[kind]
    if kind in _TARGETED:
        card, t = divmod(offset, _NT)
        return ToraBatoAction((kind, card, t + OPPONENT))
    if kind in _PAIR:
        a, b = divmod(offset, NUM_CARDS)
        return ToraBatoAction((kind, a, b))
    return ToraBatoAction((kind, offset))


def _card(token: str, text: str) -> int:
    try:
        return BY_NAME[token.upper()]
    except KeyError:
        raise InvalidActionError(text, f"{token!r} is not a card (cards look like AS, 10H, QD, JK0)") from None


def parse(text: str) -> ToraBatoAction:
    """Read an action's text (card names in any case); ``InvalidActionError`` if malformed.

    >>> str(parse("play 2s @qh")), str(parse("block QH KS")), action_index(parse("pass"))
    ('play 2S @QH', 'block QH KS', 0)
    """
    words = text.split()
    if not words:
        raise InvalidActionError(text, "empty action")
    try:
        kind = Kind(words[0].lower())
    except ValueError:
        known = ", ".join([*_FIXED, *_SINGLE, *_TARGETED, *_PAIR])
        raise InvalidActionError(text, f"unknown action {words[0]!r}; actions are: {known}") from None
    args = words[1:]
    if kind in _FIXED:
        if args:
            raise InvalidActionError(text, f"'{kind}' takes no arguments")
        return _FIXED_ACTIONS[_FIXED[kind]]
    if kind in _SINGLE:
        if len(args) != 1:
            raise InvalidActionError(text, f"'{kind}' takes one card, e.g. '{kind} 7S'")
        return ToraBatoAction((kind, _card(args[0], text)))
    if kind in _TARGETED:
        if len(args) not in (1, 2):
            raise InvalidActionError(text, f"'{kind}' takes a card and maybe a target, e.g. '{kind} 2S @opp'")
        card = _card(args[0], text)
        target = NO_TARGET
        if len(args) == 2:
            if not args[1].startswith("@"):
                raise InvalidActionError(text, "a target is written @CARD or @opp")
            word = args[1][1:]
            target = OPPONENT if word.lower() == "opp" else _card(word, text)
        return ToraBatoAction((kind, card, target))
    if kind in _PAIR:
        if len(args) != 2:
            raise InvalidActionError(text, f"'{kind}' takes two cards, e.g. '{kind} QH KS'")
        return ToraBatoAction((kind, _card(args[0], text), _card(args[1], text)))
    raise AssertionError(f"action kind {kind} has no reader")  # pragma: no cover - every Kind is read above
