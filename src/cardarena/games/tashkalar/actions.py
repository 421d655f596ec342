"""Actions of the arena game: their canonical text, parsing and fixed integer encoding.

Texts (squares are file a-i and rank 1-9)::

    place e5            place one of your commons (action), or place a piece for an effect
    recall c3           out of units: take back your common or heroic at c3 (then place it; or use it to summon)
    summon <card> at e5 r90   summon a being or legend with its pattern in orientation r0..r270 / m0..m270
    discard <card>      the once-per-turn discard action; then "bottom <card>" any number of times and "skip"
    flare <card>        invoke a flare (not an action)
    choose e5           choose a piece or square for an effect
    move e5 e7          move or leap the piece on e5 to e7 for an effect
    option 2            pick an option of a "choose one" effect
    take <card>         take a card from a discard pile into your hand for an effect ("recover")
    skip                stop an optional ("may", "up to") effect, or stop putting cards under the deck
    end                 end your turn
    resign              give up: the seat (its team) loses (2 players or 2 teams; option resign, on by default)

Part 2 (other modes)::

    handover            teams: hand the turn over to your teammate (before an action or during an effect)
    claim <task>        High Form: claim a current task at the end of your turn ("skip" claims none)
    score 2             melee: score a point in the colour of seat 2 (legend summon, odd commons)
    setup f2 2          melee setup: put a common of seat 2's colour on f2
    flare <card> against 2      melee: invoke a flare comparing yourself with seat 2 (who scores 1)
    summon <card> at e5 r90 using c3   melee: improvised summon using the enemy piece on c3 as your own
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from ...engine import InvalidActionError
from ...engine.actions import Action  # its own module: mypyc derives the classes below from it there
from .board import N_INDEX, NAME_SQ, SQ_NAME, compact, uncompact
from .cards.data import ORIENTATIONS, CardSet
from .cards.tasks import TaskSet
from .constants import Kind

SQ_KINDS = ("place", "recall", "choose")
CARD_KINDS = ("discard", "bottom", "flare")
WORD_KINDS = ("skip", "end", "resign")
MAX_OPTIONS = 8


# tuples: Python classes even where this module is compiled (mypyc's native classes derive from object)
@mypyc_attr(native_class=False)
class TashKalarAction(Action):
    """An action of Tash-Kalar: only these are accepted by ``apply`` (an equal tuple of another type is refused)."""

    __slots__ = ()


@mypyc_attr(native_class=False)
class SqAction(TashKalarAction):
    """``(kind, square)``."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self[0]} {SQ_NAME[self[1]]}"


@mypyc_attr(native_class=False)
class MoveAction(TashKalarAction):
    """``("move", from, to)``."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"move {SQ_NAME[self[1]]} {SQ_NAME[self[2]]}"


@mypyc_attr(native_class=False)
class SummonAction(TashKalarAction):
    """``("summon", card id, square, orientation name)``."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"summon {self[1]} at {SQ_NAME[self[2]]} {self[3]}"


@mypyc_attr(native_class=False)
class ImprovAction(TashKalarAction):
    """``("summon", card id, square, orientation name, enemy square)``: a melee improvised summon."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"summon {self[1]} at {SQ_NAME[self[2]]} {self[3]} using {SQ_NAME[self[4]]}"


@mypyc_attr(native_class=False)
class SetupAction(TashKalarAction):
    """``("setup", square, colour)``."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"setup {SQ_NAME[self[1]]} {self[2]}"


@mypyc_attr(native_class=False)
class FlareAgainst(TashKalarAction):
    """``("flare", card id, opponent)``."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"flare {self[1]} against {self[2]}"


def improv_action(card: str, sq: int, orient: str, using: int) -> ImprovAction:
    return ImprovAction(("summon", card, sq, orient, using))


def setup_action(sq: int, colour: int) -> SetupAction:
    return SetupAction(("setup", sq, colour))


def flare_against(card: str, opponent: int) -> FlareAgainst:
    return FlareAgainst(("flare", card, opponent))


def seat_action(kind: str, seat: int) -> Action:
    return TashKalarAction((kind, seat))


def sq_action(kind: str, sq: int) -> SqAction:
    """An action on one square.

    >>> str(sq_action("place", NAME_SQ["e5"])), str(move_action(NAME_SQ["e5"], NAME_SQ["e7"]))
    ('place e5', 'move e5 e7')
    """
    return SqAction((kind, sq))


def move_action(a: int, b: int) -> MoveAction:
    return MoveAction(("move", a, b))


def summon_action(card: str, sq: int, orient: str) -> SummonAction:
    return SummonAction(("summon", card, sq, orient))


def card_action(kind: str, card: str) -> Action:
    return TashKalarAction((kind, card))


def option_action(k: int) -> Action:
    return TashKalarAction(("option", k))


SKIP = TashKalarAction(("skip",))
END = TashKalarAction(("end",))
RESIGN = TashKalarAction(("resign",))
HANDOVER = TashKalarAction(("handover",))
WORDS = {"skip": SKIP, "end": END, "resign": RESIGN, "handover": HANDOVER}
SCORE = tuple(seat_action("score", k) for k in range(4))
# one shared object per square, so that building legal lists allocates little: indexed by square (every index
# below N_INDEX has one, on the board or not)
PLACE: Final[tuple[SqAction, ...]] = tuple(sq_action("place", sq) for sq in range(N_INDEX))
RECALL: Final[tuple[SqAction, ...]] = tuple(sq_action("recall", sq) for sq in range(N_INDEX))
CHOOSE: Final[tuple[SqAction, ...]] = tuple(sq_action("choose", sq) for sq in range(N_INDEX))


def _square(text: str, word: str) -> int:
    sq = NAME_SQ.get(word)
    if sq is None:
        raise InvalidActionError(text, f"{word!r} is not a square of the board (files a-i, ranks 1-9, no corners)")
    return sq


def _seat(text: str, word: str) -> int:
    if word not in ("0", "1", "2", "3"):
        raise InvalidActionError(text, f"{word!r} is not a seat (0-3)")
    return int(word)


def parse(cards: CardSet, text: str, tasks: TaskSet | None = None) -> Action:
    """Read an action's canonical text (legality is not checked here)."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError(text, "empty action")
    kind, args = words[0], words[1:]

    def need(n: int, form: str) -> None:
        if len(args) != n:
            raise InvalidActionError(text, f"expected {form!r}")

    def card(word: str) -> str:
        if word not in cards.by_id:
            raise InvalidActionError(text, f"no card called {word!r}")
        return word

    if kind in WORDS:
        need(0, kind)
        return WORDS[kind]
    if kind in SQ_KINDS:
        need(1, f"{kind} <square>")
        return sq_action(kind, _square(text, args[0]))
    if kind == Kind.MOVE:
        need(2, "move <from> <to>")
        return move_action(_square(text, args[0]), _square(text, args[1]))
    if kind == Kind.FLARE and len(args) == 3:
        if args[1] != "against":
            raise InvalidActionError(text, "expected 'flare <card> against <seat>'")
        return flare_against(card(args[0]), _seat(text, args[2]))
    if kind in CARD_KINDS:
        need(1, f"{kind} <card>")
        return card_action(kind, card(args[0]))
    if kind == Kind.TAKE:
        need(1, "take <card>")
        return card_action("take", card(args[0]))
    if kind == Kind.CLAIM:
        need(1, "claim <task>")
        if tasks is None or args[0] not in tasks.by_id:
            raise InvalidActionError(text, f"no High Form task called {args[0]!r}")
        return card_action("claim", args[0])
    if kind == Kind.SCORE:
        need(1, "score <seat>")
        return SCORE[_seat(text, args[0])]
    if kind == Kind.SETUP:
        need(2, "setup <square> <seat>")
        return setup_action(_square(text, args[0]), _seat(text, args[1]))
    if kind == Kind.OPTION:
        need(1, "option <number>")
        if not args[0].isdigit() or not 1 <= int(args[0]) <= MAX_OPTIONS:
            raise InvalidActionError(text, f"option takes a number from 1 to {MAX_OPTIONS}")
        return option_action(int(args[0]))
    if kind == Kind.SUMMON:
        if len(args) not in (4, 6) or args[1] != "at" or (len(args) == 6 and args[4] != "using"):
            raise InvalidActionError(text, "expected 'summon <card> at <square> <orientation> [using <square>]'")
        if args[3] not in ORIENTATIONS:
            raise InvalidActionError(text, f"orientation must be one of {', '.join(ORIENTATIONS)}")
        if len(args) == 6:
            return improv_action(card(args[0]), _square(text, args[2]), args[3], _square(text, args[5]))
        return summon_action(card(args[0]), _square(text, args[2]), args[3])
    raise InvalidActionError(
        text,
        "unknown action; expected place, recall, summon, discard, bottom, flare, choose, move, option, take, skip, "
        "end, handover, claim, score, setup",
    )


class Codec:
    """The fixed integer encoding of every action of a card set."""

    def __init__(self, cards: CardSet, tasks: TaskSet | None = None) -> None:
        self.cards = cards
        self.tasks = tasks
        n = len(cards.cards)
        self.base_move = 3 * 81
        self.base_option = self.base_move + 81 * 81
        self.base_word = self.base_option + MAX_OPTIONS
        self.base_card = self.base_word + len(WORD_KINDS)
        self.base_summon = self.base_card + len(CARD_KINDS) * n
        # part 2, appended so that the duel's indices stay as they were
        self.base_handover = self.base_summon + n * 81 * len(ORIENTATIONS)
        self.base_score = self.base_handover + 1
        self.base_setup = self.base_score + 4
        self.base_against = self.base_setup + 81 * 4
        self.base_claim = self.base_against + n * 4
        nt = len(tasks.tasks) if tasks is not None else 0
        self.base_improv = self.base_claim + nt
        # the card language's "recover" (take a card from a discard pile), appended after everything else
        self.base_take = self.base_improv + n * 81 * len(ORIENTATIONS) * 81
        self.size = self.base_take + n

    def index(self, action: Action) -> int:
        kind = action[0]
        if kind == Kind.HANDOVER:
            return self.base_handover
        if kind == Kind.TAKE:
            return self.base_take + self.cards.by_id[action[1]].index
        if kind == Kind.SCORE:
            return self.base_score + action[1]
        if kind == Kind.SETUP:
            return self.base_setup + compact(action[1]) * 4 + action[2]
        if kind == Kind.FLARE and len(action) == 3:
            return self.base_against + self.cards.by_id[action[1]].index * 4 + action[2]
        if kind == Kind.CLAIM:
            assert self.tasks is not None
            return self.base_claim + self.tasks.by_id[action[1]].index
        if kind == Kind.SUMMON and len(action) == 5:
            c = self.cards.by_id[action[1]].index
            i = (c * 81 + compact(action[2])) * len(ORIENTATIONS) + ORIENTATIONS.index(action[3])
            return self.base_improv + i * 81 + compact(action[4])
        if kind in SQ_KINDS:
            return SQ_KINDS.index(kind) * 81 + compact(action[1])
        if kind == Kind.MOVE:
            return self.base_move + compact(action[1]) * 81 + compact(action[2])
        if kind == Kind.OPTION:
            return self.base_option + action[1] - 1
        if kind in WORD_KINDS:
            return self.base_word + WORD_KINDS.index(kind)
        n = len(self.cards.cards)
        if kind in CARD_KINDS:
            return self.base_card + CARD_KINDS.index(kind) * n + self.cards.by_id[action[1]].index
        if kind == Kind.SUMMON:
            c = self.cards.by_id[action[1]].index
            return self.base_summon + (c * 81 + compact(action[2])) * len(ORIENTATIONS) + ORIENTATIONS.index(action[3])
        raise ValueError(f"not an action of this game: {action!r}")

    def action(self, index: int) -> Action:
        if index < self.base_move:
            return sq_action(SQ_KINDS[index // 81], uncompact(index % 81))
        if index < self.base_option:
            i = index - self.base_move
            return move_action(uncompact(i // 81), uncompact(i % 81))
        if index < self.base_word:
            return option_action(index - self.base_option + 1)
        if index < self.base_card:
            return WORDS[WORD_KINDS[index - self.base_word]]
        n = len(self.cards.cards)
        if index < self.base_summon:
            i = index - self.base_card
            return card_action(CARD_KINDS[i // n], self.cards.cards[i % n].id)
        if index >= self.base_take:
            return card_action("take", self.cards.cards[index - self.base_take].id)
        if index >= self.base_handover:
            return self._part2(index)
        i = index - self.base_summon
        o = i % len(ORIENTATIONS)
        i //= len(ORIENTATIONS)
        return summon_action(self.cards.cards[i // 81].id, uncompact(i % 81), ORIENTATIONS[o])

    def _part2(self, index: int) -> Action:
        if index == self.base_handover:
            return HANDOVER
        if index < self.base_setup:
            return SCORE[index - self.base_score]
        if index < self.base_against:
            i = index - self.base_setup
            return setup_action(uncompact(i // 4), i % 4)
        if index < self.base_claim:
            i = index - self.base_against
            return flare_against(self.cards.cards[i // 4].id, i % 4)
        if index < self.base_improv:
            assert self.tasks is not None
            return card_action("claim", self.tasks.tasks[index - self.base_claim].id)
        i = index - self.base_improv
        using = uncompact(i % 81)
        i //= 81
        o = i % len(ORIENTATIONS)
        i //= len(ORIENTATIONS)
        return improv_action(self.cards.cards[i // 81].id, uncompact(i % 81), ORIENTATIONS[o], using)
