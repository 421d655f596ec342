"""What every player can work out about the known cards in a hand and among the mana cards.

A card becomes *known* when it is shown in the first-player reveal or taken back from the public discard pile.
Known cards then move unseen between the hand and the face-down mana cards. A *placement* is the set (a bit mask
over card ids) of known cards that are mana cards; the hand holds the other known cards and unseen ones. Each
public event keeps only the placements it allows, so ``resample`` draws worlds the public history can lead to.
Past ``MAX_PLACEMENTS`` (a player hoarding many taken-back cards) tracking stops (``LOOSE``) until no card is
known: the known cards are then only kept among hand and mana cards.
"""

from __future__ import annotations

from ....engine import Rng

Placements = tuple[int, ...]
MAX_PLACEMENTS = 1024
LOOSE: Placements = ()
NOTHING_KNOWN: Placements = (0,)


def _bounded(out: set[int]) -> Placements:
    return tuple(sorted(out)) if len(out) <= MAX_PLACEMENTS else LOOSE


def after_mana_set(placements: Placements, known: list[int], unseen_in_hand: int) -> Placements:
    """A hand card is set face down: it is a known card of the hand, or an unseen one."""
    if not known or placements == LOOSE:
        return placements
    out: set[int] = set()
    for p in placements:
        if unseen_in_hand + p.bit_count() >= 1:
            out.add(p)
        for k in known:
            if not p >> k & 1:
                out.add(p | 1 << k)
    return _bounded(out)


def after_play(placements: Placements, known: list[int], card: int, unseen_in_hand: int) -> Placements:
    """``card`` leaves the hand face up (``known`` still lists it if it was known).

    A known card was in hand; an unseen one needed an unseen card in hand.
    """
    if not known:
        return placements
    if card in known:
        if len(known) == 1:
            return NOTHING_KNOWN
        return tuple(p for p in placements if not p >> card & 1)
    if placements == LOOSE:
        return placements
    return tuple(p for p in placements if unseen_in_hand + p.bit_count() >= 1)


def after_mana_return(placements: Placements, known: list[int], n_mana: int) -> Placements:
    """9 takes a mana card back unseen: a known card among the mana, or an unseen mana card."""
    if not known or placements == LOOSE:
        return placements
    out: set[int] = set()
    for p in placements:
        if n_mana - p.bit_count() >= 1:
            out.add(p)
        for k in known:
            if p >> k & 1:
                out.add(p & ~(1 << k))
    return _bounded(out)


def surely_in_hand(placements: Placements, known: list[int]) -> list[int]:
    """Known cards that are in hand in every possible placement."""
    if placements == LOOSE:
        return []
    anywhere = 0
    for p in placements:
        anywhere |= p
    return [c for c in known if not anywhere >> c & 1]


def surely_in_mana(placements: Placements, known: list[int]) -> list[int]:
    """Known cards that are mana cards in every possible placement."""
    if placements == LOOSE:
        return []
    always = -1
    for p in placements:
        always &= p
    return [c for c in known if always >> c & 1]


def draw_split(
    placements: Placements, known: list[int], n_hand: int, n_mana: int, rng: Rng
) -> tuple[list[int], list[int]]:
    """One possible (mana, hand) split of the known cards, uniformly among the placements the history allows."""
    if placements == LOOSE:
        shuffled = known.copy()
        rng.shuffle(shuffled)
        low, high = max(0, len(known) - n_hand), min(len(known), n_mana)
        split = low + rng.randbelow(high - low + 1)
        return shuffled[:split], shuffled[split:]
    in_mana = placements[rng.randbelow(len(placements))]
    return [k for k in known if in_mana >> k & 1], [k for k in known if not in_mana >> k & 1]
