"""Laplaplace as a cardarena game: the build decisions, then the automatic battle inside the last one."""

from __future__ import annotations

import random
from typing import Any

from cardarena.engine import Action, Game, InvalidActionError, Option, OptionError, Rng, State, derive_seed

from .cards.builds import MAX_CARDS, Build, load_build
from .cards.table import CardDef, CardTable, load_cards
from .render import render_state
from .rules.battle import JUDGE_TURN, Battle, Outcome

OPEN_CARDS = 4  # オープンカード: 4 shown, then 4 hidden ones added
SCENES = ("blind", "open", "league")

# Every game has the safety cap max_turns (RULINGS). Here it may not pre-empt the rulebook's judgement after
# turn 30, which ends every battle, so values below 30 are refused and the cap is never reached.
MAX_TURNS = Option(
    "max_turns",
    int,
    200,
    f"safety cap on the battle's length in turns, at least {JUDGE_TURN}: the judgement after turn {JUDGE_TURN} "
    "ends every battle first, so the cap never ends one",
)

OPTIONS = (
    MAX_TURNS,
    Option(
        "build",
        str,
        "blind",
        "build scene: blind (secret builds), open (4 shown, then 4 hidden added) or league (both builds from files)",
        choices=SCENES,
    ),
    Option("build0", str, None, "build file (TOML) for seat 0; that seat then makes no build decisions"),
    Option("build1", str, None, "build file (TOML) for seat 1; that seat then makes no build decisions"),
    Option("cards", str, None, "card list file (TOML) replacing the built-in cards.toml"),
    Option(
        "identical",
        str,
        "draw",
        "identical builds: draw (the rule) or coin (a seeded coin, for tournaments that must have a winner)",
        choices=("draw", "coin"),
    ),
)


class LapAction(Action):
    """``add CARD`` (next card of the build, top first), ``show CARD`` (an open card) or ``done``."""

    __slots__ = ()


DONE = LapAction(("done",))


class Laplaplace(Game):
    id = "laplaplace"
    name = "Laplaplace"
    version = "2"
    option_spec = OPTIONS

    table: CardTable
    fixed: list[Build | None]

    def setup(self) -> None:
        cap = self.options["max_turns"]
        if cap < JUDGE_TURN:
            raise OptionError(
                f"option 'max_turns': {cap} is below {JUDGE_TURN}; a Laplaplace battle ends with the rulebook's "
                f"judgement after turn {JUDGE_TURN} (バトルが30ターンを超えたら…判定します), which a cap must not cut "
                f"short: give {JUDGE_TURN} or more (the cap is then never reached)"
            )
        self.table = load_cards(self.options["cards"])
        self.fixed = [None, None]
        for s in (0, 1):
            path = self.options[f"build{s}"]
            if path is not None:
                self.fixed[s] = load_build(path, self.table)
        scene = self.options["build"]
        if scene == "league" and None in self.fixed:
            raise OptionError("the league scene reads both builds from files: give build0=PATH and build1=PATH")
        if scene == "open" and any(b is not None for b in self.fixed):
            raise OptionError("build files are for the blind and league scenes (open builds are made in play)")
        cards = self.table.cards
        n = len(cards)
        self.add_actions: list[Action] = [LapAction(("add", c.id)) for c in cards]
        self.show_actions: list[Action] = [LapAction(("show", c.id)) for c in cards]
        self.all_actions: list[Action] = [*self.add_actions, *self.show_actions, DONE]
        self.index_of = {a: i for i, a in enumerate(self.all_actions)}
        self.blind_legal: list[Action] = [*self.add_actions, DONE]
        self.show_legal = [self.show_actions[i:] for i in range(n)]
        self._n = n

    def new_initial_state(self, seed: int = 0) -> LapState:
        return LapState(self, seed)

    def parse_action(self, state: State, text: str) -> Action:
        words = text.strip().split()
        if words == ["done"]:
            return DONE
        if len(words) >= 2 and words[0] in ("add", "show"):
            card = self.table.find(" ".join(words[1:]))
            if card is None:
                raise InvalidActionError(text, f"no card named {' '.join(words[1:])!r}")
            return (self.add_actions if words[0] == "add" else self.show_actions)[card.index]
        raise InvalidActionError(text, "expected 'add CARD', 'show CARD' or 'done'")

    @property
    def num_distinct_actions(self) -> int:
        return len(self.all_actions)

    def action_index(self, action: Action) -> int:
        try:
            return self.index_of[action]
        except KeyError:
            raise InvalidActionError(str(action), "not a Laplaplace action") from None

    def action_from_index(self, index: int) -> Action:
        return self.all_actions[index]

    def card_of(self, action: Action) -> CardDef | None:
        if action[0] == "done":
            return None
        found = self.table.find(action[1])
        assert found is not None
        return found

    def describe_action(self, state: State, action: Action) -> str:
        card = self.card_of(action)
        if card is None:
            return "done: the build is complete"
        verb = "show" if action[0] == "show" else "add"
        return f"{verb} {card.summary()}"

    def action_seen_by(self, state: State, action: Action, seat: int | None) -> str:
        """Another seat sees that a card was shown or a build finished, never which card or how many added.

        A build finishes either with ``done`` or with the ``add`` of its eighth card; both look the same to the
        other seats ("finishes its build"), so the way it finished does not tell them whether it is full. Every
        other ``add`` is not seen at all: not even the number of cards added may show. The action that makes the
        reveal (the last open card shown, the last build finished) is seen in full, since what it chose is shown
        to everyone at once.
        """
        assert isinstance(state, LapState)
        actor = state.current_player
        if seat is not None and seat == actor:
            return self.describe_action(state, action)
        assert actor is not None
        if action[0] == "show":
            if actor == 1 and len(state.shown[1]) == OPEN_CARDS - 1:
                return self.describe_action(state, action)  # both sets of open cards are revealed now
            return "picks an open card (shown once both have picked 4)"
        if action[0] == "add" and len(state.builds[actor]) < MAX_CARDS - 1:
            return ""
        if state.done[1 - actor]:
            return self.describe_action(state, action)  # both builds are complete: the battle reveals them
        return "finishes its build"

    def render(self, state: State, seat: int | None) -> str:
        assert isinstance(state, LapState)
        return render_state(state, seat)

    def rules_text(self) -> str:
        lines = ["", "## Cards (from the data file; every value is assumed)", ""]
        for c in self.table.cards:
            lines.append(f"- `{c.id}` {c.summary()}")
            for a in c.abilities:
                lines.append(f"    - `{a.text}`")
        return super().rules_text() + "\n".join(lines) + "\n"

    def battle(self, builds: list[list[CardDef]], rng: Rng, log: list[str] | None) -> Outcome:
        return Battle(builds, rng, log=log, identical=self.options["identical"]).run()


class LapState(State):
    game: Laplaplace

    def __init__(self, game: Laplaplace, seed: int) -> None:
        super().__init__(game, seed)
        self.rng = Rng(derive_seed(seed, 1))
        self.scene: str = game.options["build"]
        self.builds: list[list[int]] = [[], []]
        self.done = [False, False]
        self.shown: list[list[int]] = [[], []]
        self.outcome: Outcome | None = None
        self._log: list[str] | None = None  # the battle log, written on first use (see ``log``)
        self._battle_rng = 0  # the Rng state the battle started from
        for s in (0, 1):
            fixed = game.fixed[s]
            if fixed is not None:
                self.builds[s] = [c.index for c in fixed.cards]
                self.done[s] = True
        self._maybe_battle()

    # -- protocol -------------------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``show`` (open cards), ``build`` (adding cards), or ``over``."""
        if self.outcome is not None:
            return "over"
        if self.scene == "open" and len(self.shown[1]) < OPEN_CARDS:
            return "show"
        return "build"

    @property
    def current_player(self) -> int | None:
        if self.outcome is not None:
            return None
        if self.scene == "open" and len(self.shown[1]) < OPEN_CARDS:
            return 0 if len(self.shown[0]) < OPEN_CARDS else 1
        return 0 if not self.done[0] else 1

    @property
    def turn(self) -> int:
        return self.outcome.turns if self.outcome is not None else 1

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def returns(self) -> list[float]:
        o = self.outcome
        if o is None or o.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if o.winner == 0 else [-1.0, 1.0]

    def _legal_actions(self) -> list[Action]:
        g = self.game
        seat = self.current_player
        assert seat is not None
        if self.scene == "open":
            shown = self.shown[seat]
            if len(self.shown[1]) < OPEN_CARDS:
                return g.show_legal[shown[-1]] if shown else g.show_legal[0]
            remaining = self.open_remaining(seat)
            if MAX_CARDS - len(self.builds[seat]) > len(remaining):
                return g.add_actions
            return [g.add_actions[i] for i in sorted(set(remaining))]
        return g.blind_legal

    def open_remaining(self, seat: int) -> list[int]:
        """Open cards of ``seat`` not yet placed in its build (each must be placed)."""
        rest = list(self.shown[seat])
        for i in self.builds[seat]:
            if i in rest:
                rest.remove(i)
        return rest

    def why_illegal(self, action: Action) -> str:
        if self.is_terminal():
            return "the battle is over"
        if action == DONE and self.scene == "open":
            return "in the open scene a build has exactly 4 open and 4 added cards"
        if action[0] == "show" and self.phase != "show":
            return "open cards are shown only at the start of the open scene"
        if action[0] == "add" and self.phase == "show":
            return "first show 4 open cards"
        if action[0] == "show":
            return "open cards are listed in card-list order (their order does not matter)"
        if action[0] == "add" and self.scene == "open":
            return "the remaining places must hold your open cards"
        return super().why_illegal(action)

    def _apply(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None
        if action[0] == "show":
            self.shown[seat].append(self._card(action).index)
            return
        if action[0] == "add":
            self.builds[seat].append(self._card(action).index)
            if len(self.builds[seat]) == MAX_CARDS:
                self.done[seat] = True
        else:
            self.done[seat] = True
        self._maybe_battle()

    def _card(self, action: Action) -> CardDef:
        card = self.game.card_of(action)
        assert card is not None
        return card

    def _maybe_battle(self) -> None:
        """Once both builds are complete, reveal them and run the whole battle."""
        if not (self.done[0] and self.done[1]) or self.outcome is not None:
            return
        self._battle_rng = self.rng.state
        self.outcome = self.game.battle(self._battle_builds(), self.rng, None)

    def _battle_builds(self) -> list[list[CardDef]]:
        cards = self.game.table.cards
        return [[cards[i] for i in self.builds[0]], [cards[i] for i in self.builds[1]]]

    @property
    def log(self) -> list[str]:
        """The battle log a person can follow (empty before the battle).

        The battle is deterministic given the builds and the Rng state it started from, so the log is written
        by running it again with logging on the first time someone asks; the two runs must agree.
        """
        if self.outcome is None:
            return []
        if self._log is None:
            rng = Rng(0)
            rng.state = self._battle_rng
            log: list[str] = []
            again = self.game.battle(self._battle_builds(), rng, log)
            if again != self.outcome:
                raise RuntimeError("the logged battle differs from the played one (a bug in battle.py)")
            self._log = log
        return self._log

    # -- views ----------------------------------------------------------------------------------------------
    def observation(self, seat: int | None) -> dict[str, Any]:
        cards = self.game.table.cards
        over = self.outcome is not None
        revealed = self.scene == "open" and len(self.shown[1]) >= OPEN_CARDS
        obs: dict[str, Any] = {
            "scene": self.scene,
            "phase": self.phase,
            "to_act": self.current_player,
            "done": list(self.done),
        }
        seats = []
        for s in (0, 1):
            mine = seat == s
            view: dict[str, Any] = {}
            if mine or over:
                view["build"] = [cards[i].id for i in self.builds[s]]
                view["base_hp"] = sum(cards[i].force for i in self.builds[s])
            if self.scene == "open":
                view["open"] = [cards[i].id for i in self.shown[s]] if (mine or revealed or over) else None
            seats.append(view)
        obs["seats"] = seats
        if self.outcome is not None:
            o = self.outcome
            obs["result"] = {
                "winner": o.winner,
                "reason": o.reason,
                "turns": o.turns,
                "hp": list(o.hp),
                "base_hp": list(o.base),
            }
            obs["log"] = list(self.log)
        return obs

    def snapshot(self) -> dict[str, Any]:
        o = self.outcome
        return {
            "scene": self.scene,
            "rng": self.rng.state,
            "builds": [list(b) for b in self.builds],
            "shown": [list(b) for b in self.shown],
            "done": list(self.done),
            "outcome": None if o is None else [o.winner, o.reason, o.turns, o.hp, o.base, o.cards, o.safety_stops],
            "log": list(self.log),
            "history": [str(a) for a in self.history],
        }

    def clone(self) -> LapState:
        c = LapState.__new__(LapState)
        self._copy_base_into(c)
        c.rng = self.rng.copy()
        c.scene = self.scene
        c.builds = [self.builds[0].copy(), self.builds[1].copy()]
        c.done = self.done.copy()
        c.shown = [self.shown[0].copy(), self.shown[1].copy()]
        c.outcome = self.outcome
        c._log = self._log  # never changed once written
        c._battle_rng = self._battle_rng
        return c

    def resample(self, seat: int, rng: Rng | random.Random | int) -> LapState:
        """Redraw what ``seat`` cannot see: the other seat's hidden cards; reseed the future coin."""
        r = Rng.coerce(rng)
        c = self.clone()
        if self.outcome is not None:
            return c
        n = len(self.game.table)
        other = 1 - seat
        if self.scene == "open":
            if len(c.shown[1]) < OPEN_CARDS:
                if c.shown[other]:  # the other's open cards are still hidden
                    c.shown[other] = sorted(r.randbelow(n) for _ in c.shown[other])
            elif c.builds[other]:
                k = len(c.builds[other])
                extra = [r.randbelow(n) for _ in range(max(0, k - OPEN_CARDS))]
                pool = [*c.shown[other][: min(k, OPEN_CARDS)], *extra]
                r.shuffle(pool)
                c.builds[other] = pool
        elif c.done[other] or c.current_player == other:
            # a finished build has 0-8 cards; one still being made (the other seat is to act) 0-7
            size = r.randbelow(MAX_CARDS + 1) if c.done[other] else r.randbelow(MAX_CARDS)
            c.builds[other] = [r.randbelow(n) for _ in range(size)]
        c.rng = Rng(r.next64())
        return c
