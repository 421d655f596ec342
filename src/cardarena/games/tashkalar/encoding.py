"""Numbers for learning agents (``cardarena.rl``): the observation as a fixed-size vector, and the factored actions.

The encoding is built from ``observation(seat)`` only (this module imports nothing of the state, the rules or the
views), so other seats' hands and every deck's order cannot enter it. Seats and colours are relative: slot 0 is
the observing seat (its colour), then the next seats (colours) in turn order; slots of seats a mode does not
have stay zero, so every mode of a card set has one layout (4 seat slots, 4 colour slots). Card blocks have one
number per card of the card set (``cards.toml`` order), square blocks one per square (a1, b1, ... i9).

The flat action encoding has over 5 million entries (a summon names a card, a square and an orientation; an
improvised summon also an enemy piece), so a decision is taken as up to 4 sub-decisions of at most
``width`` entries (:class:`TashKalarFactoring`): a head, then the square, the orientation and the piece used.
docs/games/tashkalar.md and docs/rl.md give the details.
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from ...engine import Action, Layout, ObservationEncoder
from ...engine.encoding import Buffer, CachedFactoring, put_counts, ratio
from .actions import CARD_KINDS, MAX_OPTIONS, SQ_KINDS
from .board import NAME_SQ, SQ_NAME, compact, uncompact
from .cards.model import ORIENTATIONS, CardSet
from .cards.tasks import TaskSet
from .constants import PHASE_NAMES, Kind

PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}
SLOTS = 4  # seats and colours, relative to the observer
RANKS = 3  # common, heroic, legendary (a piece's rank 1-3)
HANDS = ("beings", "legends", "flares")
SMALL = 10
MAX_SCORE = 20


def _squares() -> dict[str, int]:
    return {name: compact(sq) for name, sq in NAME_SQ.items()}


class TashKalarEncoder(ObservationEncoder):
    """Tash-Kalar's observation (any mode) as ``size`` floats in [0, 1]."""

    def __init__(self, cards: CardSet, tasks: TaskSet | None, *, players: int, colours: int) -> None:
        self.card = {c.id: c.index for c in cards.cards}
        self.schools = list(cards.schools)
        self.school = {s: i for i, s in enumerate(self.schools)}
        self.sq = _squares()
        self.task = {t.id: t.index for t in tasks.tasks} if tasks is not None else {}
        self.players, self.colours = players, colours
        n, nt, ns = len(cards.cards), len(self.task), len(self.schools)
        self.n = n
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(PHASE_NAMES), f"one-hot phase: {', '.join(PHASE_NAMES)}")
        self.o_flags = lay.add(
            "flags",
            10,
            "turn / 100, actions left / 2, discarded this turn, extra turns / 2, in an extra turn, final turns "
            "left / 4 (0 before the end is near), an effect is under way, a trigger is pending, the game is over, "
            "I am to act",
        )
        self.o_player = lay.add("player", SLOTS, "one-hot: the seat to act, relative to me")
        self.o_board = lay.add(
            "board",
            81 * (SLOTS + RANKS),
            "per square (a1 b1 ... i9): one-hot colour of its piece relative to mine (4), one-hot rank (3)",
        )
        self.o_colour = lay.add(
            "colours",
            SLOTS * 4,
            f"per colour, mine first: two-sided pieces in the supply / 12, legendary / 3, score / {MAX_SCORE}, "
            f"High Form points / {MAX_SCORE}",
        )
        self.o_seat = lay.add(
            "seats",
            SLOTS * (8 + ns),
            "per seat, me first: beings, legends, flares in hand / 5, school deck / 18, cards put under / 5, "
            "drew its last school card, school deck sideways / 18 (teams), its legends are my team's; one-hot school",
        )
        self.o_discards = lay.add("school_discards", SLOTS * n, "per seat, me first: its school discard pile")
        self.o_known = lay.add("known_hand_cards", SLOTS * n, "per seat, me first: its hand cards known to all")
        self.o_decks = lay.add("decks", 2, "legend deck / 10, flare deck / 10")
        self.o_piles = lay.add("discards", 2 * n, "the legend discard pile, then the flare discard pile")
        self.o_counters = lay.add(
            "counters",
            3 + 3 + SLOTS * RANKS,
            "destroyed this turn per rank / 4, extra draws per deck / 3, destroyed per colour (mine first) and "
            "rank / 4",
        )
        self.o_hand = lay.add("me.hand", 3 * n, "my hand: beings, legends, flares (1 per card)")
        self.o_deck = lay.add("me.deck", 2 * n, "cards in my school deck; those I put at its bottom")
        self.o_team = lay.add("me.team_legends", n, "my teammate's legends (teams)")
        self.o_resolving = lay.add("resolving", n, "one-hot: the card whose effect is resolving")
        self.o_effect = lay.add(
            "effect",
            81 + 4,
            "the effect under way: its 'each' square (one-hot), repeats / 4, steps done / 8, "
            "destroyed by this step / 4, by the effect / 4",
        )
        self.o_pending = lay.add(
            "pending_summon", n + 81 + len(ORIENTATIONS), "a summon waiting on a recall: card, square, orientation"
        )
        self.o_recall = lay.add("recall_choices", 81, "squares whose piece may be taken back")
        self.o_melee = lay.add(
            "melee",
            SLOTS * SLOTS + SLOTS * SLOTS + SLOTS + 1,
            "melee: points per seat (me first) per colour / 5, colours each seat improvised with, colours to pick "
            "from, setup commons placed / 8",
        )
        self.o_tasks = lay.add(
            "tasks",
            max(1, nt * (2 + SLOTS) + 1),
            "High Form: current tasks, the next task, tasks claimed per colour (mine first), task deck / 24",
        )
        self.o_result = lay.add("result", 3, "one-hot once over: I won, I lost, a draw")

    def encode_into(self, observation: dict[str, Any], seat: int, out: Buffer) -> None:
        card, sq, n = self.card, self.sq, self.n
        np_, nc = self.players, self.colours
        colour_of = observation.get("colour_of_seat")
        mine = colour_of[seat] if colour_of else seat

        def rel_seat(s: int) -> int:
            return (s - seat) % np_

        def rel_colour(c: int) -> int:
            return (c - mine) % nc

        out[self.o_phase + PHASE_INDEX[observation["phase"]]] = 1.0
        f = self.o_flags
        out[f] = ratio(observation["turn"], 100)
        out[f + 1] = ratio(observation["actions"], 2)
        out[f + 2] = float(observation["discarded"])
        out[f + 3] = ratio(observation["extra_turns"], 2)
        out[f + 4] = float(observation["extra_turn_now"])
        final = observation["final_turns_left"]
        out[f + 5] = ratio(final, 4) if final >= 0 else 0.0
        effect = observation["effect"]
        out[f + 6] = float(effect is not None)
        out[f + 7] = float(bool(observation["trigger"]))
        if observation["result"] is not None:
            out[f + 8] = 1.0
            r = observation["result"][seat]
            out[self.o_result + (0 if r > 0 else 1 if r < 0 else 2)] = 1.0
        player = observation.get("turn_seat", observation["player"])
        to_act = observation["player"]
        if to_act == seat:
            out[f + 9] = 1.0
        if player is not None and player >= 0:
            out[self.o_player + rel_seat(player)] = 1.0
        width = SLOTS + RANKS
        o_board = self.o_board
        for name, (colour, rank) in observation["board"].items():
            q = o_board + sq[name] * width
            out[q + (colour - mine) % nc] = 1.0
            if 1 <= rank <= RANKS:
                out[q + SLOTS + rank - 1] = 1.0
        points = observation.get("points")
        for c in range(nc):
            q = self.o_colour + rel_colour(c) * 4
            out[q] = ratio(observation["supply_two_sided"][c], 12)
            out[q + 1] = ratio(observation["supply_legendary"][c], 3)
            out[q + 2] = ratio(observation["score"][c], MAX_SCORE)
            if points is not None:
                out[q + 3] = ratio(points[c], MAX_SCORE)
        stride = 8 + len(self.schools)
        sideways = observation.get("school_deck_sideways")
        for s in range(np_):
            r = rel_seat(s)
            q = self.o_seat + r * stride
            sizes = observation["hand_sizes"][s]
            out[q] = ratio(sizes[0], 5)
            out[q + 1] = ratio(sizes[1], 5)
            out[q + 2] = ratio(sizes[2], 5)
            out[q + 3] = ratio(observation["school_deck_sizes"][s], 18)
            out[q + 4] = ratio(observation["cards_put_under"][s], 5)
            out[q + 5] = float(observation["drew_last_school_card"][s])
            if sideways is not None:
                out[q + 6] = ratio(sideways[s], 18)
            if colour_of and colour_of[s] == mine and s != seat:
                out[q + 7] = 1.0
            school = self.school.get(observation["schools"][s])
            if school is not None:
                out[q + 8 + school] = 1.0
            # a card name: `c` holds a colour index above (compiled, a local keeps one type)
            for name in observation["school_discards"][s]:
                out[self.o_discards + r * n + card[name]] += 1.0
            for name in observation["known_hand_cards"][s]:
                out[self.o_known + r * n + card[name]] += 1.0
        out[self.o_decks] = ratio(observation["legend_deck"], 10)
        out[self.o_decks + 1] = ratio(observation["flare_deck"], 10)
        put_counts(out, self.o_piles, observation["legend_discard"], card, 1.0)
        put_counts(out, self.o_piles + n, observation["flare_discard"], card, 1.0)
        q = self.o_counters
        for i, x in enumerate(observation["destroyed_this_turn"][:3]):
            if x:
                out[q + i] = ratio(x, 4)
        for i, x in enumerate(observation["extra_draws"][:3]):
            if x:
                out[q + 3 + i] = ratio(x, 3)
        for i, x in enumerate(observation["destroyed_by_colour"][: nc * RANKS]):
            if x:
                c, rank = divmod(i, RANKS)
                out[q + 6 + rel_colour(c) * RANKS + rank] = ratio(x, 4)
        hand = observation.get("hand")
        if hand is not None:
            for i, kind in enumerate(HANDS):
                base = self.o_hand + i * n
                for name in hand[kind]:
                    out[base + card[name]] += 1.0
            base = self.o_deck
            for name in observation["my_deck_cards"]:
                out[base + card[name]] += 1.0
            if observation["my_deck_bottom"]:
                put_counts(out, self.o_deck + n, observation["my_deck_bottom"], card, 1.0)
        if "team_legends" in observation:
            put_counts(out, self.o_team, observation["team_legends"], card, 1.0)
        resolving = observation["resolving"]
        if resolving is not None:
            out[self.o_resolving + card[resolving]] = 1.0
        if effect is not None:
            q = self.o_effect
            if effect.get("each"):
                out[q + sq[effect["each"]]] = 1.0
            out[q + 81] = ratio(effect.get("repeated") or 0, 4)
            out[q + 82] = ratio(effect.get("done") or 0, 8)
            out[q + 83] = ratio(effect.get("destroyed_by_step") or 0, 4)
            out[q + 84] = ratio(effect.get("destroyed_by_effect") or 0, 4)
        pending = observation["pending_summon"]
        if pending is not None:
            q = self.o_pending
            out[q + card[pending[0]]] = 1.0
            out[q + n + sq[pending[1]]] = 1.0
            if pending[2] in ORIENTATIONS:
                out[q + n + 81 + ORIENTATIONS.index(pending[2])] = 1.0
        if observation["recall_choices"]:
            put_counts(out, self.o_recall, observation["recall_choices"], sq, 1.0)
        if "colour_scores" in observation:
            q = self.o_melee
            for s, row in enumerate(observation["colour_scores"]):
                for c, x in enumerate(row):
                    out[q + rel_seat(s) * SLOTS + rel_colour(c)] = ratio(x, 5)
            q += SLOTS * SLOTS
            for s, row in enumerate(observation["improvised_colours"]):
                for c in row:
                    out[q + rel_seat(s) * SLOTS + rel_colour(c)] = 1.0
            q += SLOTS * SLOTS
            for c in observation["pick_colours"]:
                out[q + rel_colour(c)] = 1.0
            out[q + SLOTS] = ratio(observation["setup_done"], 8)
        if "tasks" in observation:
            task, nt = self.task, len(self.task)
            q = self.o_tasks
            put_counts(out, q, observation["tasks"], task, 1.0)
            if observation["next_task"] is not None:
                out[q + nt + task[observation["next_task"]]] = 1.0
            for c, claimed in enumerate(observation["claimed"]):
                put_counts(out, q + (2 + rel_colour(c)) * nt, claimed, task, 1.0)
            out[q + (2 + SLOTS) * nt] = ratio(observation["task_deck"], 24)


@mypyc_attr(native_class=False)  # as its base: see engine/encoding.py
class TashKalarFactoring(CachedFactoring):
    """Tash-Kalar's actions as a head and up to three more sub-decisions.

    Head tokens, in order: ``place``, ``recall`` and ``choose`` of each square (3 x 81), ``move`` from each square
    (81; then the square moved to), ``option 1`` to ``option 8``, ``skip``, ``end``, ``resign``, ``handover``,
    ``discard``, ``bottom``, ``flare`` and ``take`` of each card (4 x cards), ``claim`` of each task, ``score``
    for each colour (4), ``setup`` of each square and colour (81 x 4), ``flare ... against`` of each card and seat
    (cards x 4), ``summon`` of each card (then the square, then the orientation) and the melee's improvised
    ``summon ... using`` of each card (then the square, the orientation and the enemy piece's square). Squares are
    numbered a1=0, b1=1, ... i9=80; orientations r0 r90 r180 r270 m0 m90 m180 m270 are 0-7.
    """

    depth = 4
    steps: tuple[str, ...] = ("head", "square", "orientation", "piece used")

    def __init__(self, cards: CardSet, tasks: TaskSet | None) -> None:
        self.cards = [c.id for c in cards.cards]
        self.card = {c.id: c.index for c in cards.cards}
        self.task_ids = [t.id for t in tasks.tasks] if tasks is not None else []
        self.task = {t: i for i, t in enumerate(self.task_ids)}
        n, nt = len(self.cards), len(self.task_ids)
        self.o_move = 3 * 81
        self.o_option = self.o_move + 81
        self.o_word = self.o_option + MAX_OPTIONS
        self.words = (Kind.SKIP, Kind.END, Kind.RESIGN, Kind.HANDOVER)
        self.o_card = self.o_word + len(self.words)
        self.card_kinds = (*CARD_KINDS, Kind.TAKE)
        self.o_claim = self.o_card + len(self.card_kinds) * n
        self.o_score = self.o_claim + nt
        self.o_setup = self.o_score + 4
        self.o_against = self.o_setup + 81 * 4
        self.o_summon = self.o_against + n * 4
        self.o_improv = self.o_summon + n
        self.width = max(self.o_improv + n, 81)

    def _factors(self, a: Action) -> tuple[int, ...]:
        kind = a[0]
        if kind in SQ_KINDS:
            return (SQ_KINDS.index(kind) * 81 + compact(a[1]),)
        if kind == Kind.MOVE:
            return (self.o_move + compact(a[1]), compact(a[2]))
        if kind == Kind.OPTION:
            return (self.o_option + a[1] - 1,)
        if kind in self.words:
            return (self.o_word + self.words.index(kind),)
        if kind == Kind.FLARE and len(a) == 3:
            return (self.o_against + self.card[a[1]] * 4 + a[2],)
        if kind in self.card_kinds:
            return (self.o_card + self.card_kinds.index(kind) * len(self.cards) + self.card[a[1]],)
        if kind == Kind.CLAIM:
            return (self.o_claim + self.task[a[1]],)
        if kind == Kind.SCORE:
            return (self.o_score + a[1],)
        if kind == Kind.SETUP:
            return (self.o_setup + compact(a[1]) * 4 + a[2],)
        if kind == Kind.SUMMON:
            where = (compact(a[2]), ORIENTATIONS.index(a[3]))
            if len(a) == 5:
                return (self.o_improv + self.card[a[1]], *where, compact(a[4]))
            return (self.o_summon + self.card[a[1]], *where)
        raise ValueError(f"not a Tash-Kalar action: {a!r}")

    def token_text(self, position: int, token: int) -> str:
        if position == 1 or position == 3:
            return SQ_NAME[uncompact(token)]
        if position == 2:
            return ORIENTATIONS[token]
        for action, seq in self.known.items():
            if seq[0] == token:
                return str(action) if len(seq) == 1 else " ".join(str(action).split()[:2]) + " ..."
        return f"head {token}"
