"""The build and deck optimiser: search a game's card choices for the highest win rate against a field.

``cardarena optimise laplaplace`` searches 8-card Laplaplace builds (top to bottom, any card any number of
times); ``cardarena optimise dicebattle`` searches legal 30-card Dice Battle decks (at most 2 copies of a card).
The *field* is the game's shipped examples (Laplaplace's ``data/builds/``, Dice Battle's starter decks) or a
folder of the user's files. Everything specific to a game is one small :class:`Encoding` below (its search
space, how a point of it becomes a legal file, how the field is read); the search itself knows none of it.

**The search** is Optuna's TPE sampler over one categorical parameter per choice (a build's 8 places, a deck's
count of each card), asked and told in fixed batches so that the workers of the one runner
(:mod:`cardarena.arena.runner`) play a batch in parallel. The field's own members are the first candidates
(known-sensible starting points); a candidate already measured is answered from memory without playing.

**Paired seeds.** Every candidate plays deal ``d`` of the search (the game seeded ``derive_seed(seed, 0, d)``)
against every field member in both seat orders, with the agents in seat ``s`` of seat order ``o`` seeded
``derive_seed(seed, 0, d, o, s + 1)``: two candidates differ only by their cards, never by their luck.

**The objective** of a candidate is half its mean score over the field and half its score against the member it
does worst against (a score counts a win 1, a draw 1/2): the aim is to beat *every* member, not to crush a few.

**The budget** is the number of games the search may play; every candidate costs ``members x deals x 2``.

**Fresh measurement.** The ``keep`` best candidates of the search are measured again on fresh deals (stream 1:
``derive_seed(seed, 1, d)``, never seen by the search), and only those figures are reported: the search's own
numbers of its best candidates are inflated by the selection (the best of many noisy measurements is lucky).
Each finalist's score against each member has a 95% interval over deals (:func:`~.stats.paired_interval`, each
deal the mean of its two seat orders), as the tournaments report it.

Same seed and arguments give the same result whatever the backend or the number of jobs: results are keyed by
their game, and the sampler is told every batch in trial order.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import tempfile
import time
import traceback
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..agents import SeatView, make_agent
from ..engine import CardDataError, Game, OptionError, derive_seed, load
from ..engine.datafiles import read_text
from . import runner
from .stats import paired_interval
from .strength import wilson

SEARCH, FRESH = 0, 1  # the two seed streams: the search's deals, and the fresh deals of the final measurement
DEFAULT_AGENT = "heuristic"
DEFAULT_BATCH = 16

Candidate = tuple[str, ...]  # a build's cards top to bottom, or a deck's 30 cards in card-pool order (card ids)
ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class Param:
    """One categorical choice of the search space."""

    name: str
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Member:
    """A field member: its name, and either the option value that plays it (a starter deck's name) or the text of
    its file (written where each worker can read it)."""

    name: str
    ref: str | None = None
    text: str | None = None
    cards: Candidate = ()  # what the game read from it (the search starts from the field's own cards)


# -- per-game encodings --------------------------------------------------------------------------------------


class Encoding(ABC):
    """What the search needs to know of one game: the search space, legal files, the field."""

    game_id: str
    seat_option: str  # the per-seat option that plays a file: "build" -> build0/build1, "deck" -> deck0/deck1
    file_kind: str  # "build" or "deck", in messages and file names
    default_deals: int  # search deals per field member and candidate (each played in both seat orders)
    uses_agents: bool  # whether agents make decisions in these games

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = {**self.base_options(), **(options or {})}
        self.game = load(self.game_id, **self.options)
        self.cards = self.card_ids(self.game)

    def base_options(self) -> dict[str, Any]:
        """Options every game of the search is loaded with (before the two seats' files)."""
        return {}

    @abstractmethod
    def card_ids(self, game: Game) -> tuple[str, ...]:
        """Every card id of the card list in use, in its order."""

    @abstractmethod
    def params(self) -> list[Param]:
        """The search space: one categorical parameter per choice."""

    @abstractmethod
    def decode(self, values: dict[str, str]) -> Candidate:
        """The legal candidate at a point of the search space (repaired if the point itself is not legal)."""

    @abstractmethod
    def encode(self, candidate: Candidate) -> dict[str, str] | None:
        """The point of the search space of a legal candidate (to start the search from it), or ``None``."""

    @abstractmethod
    def file_text(self, candidate: Candidate, *, name: str, comments: Sequence[str] = ()) -> str:
        """The candidate as a file the game loads (``build0=``/``deck0=``), with ``comments`` at its top."""

    @abstractmethod
    def read_member(self, game: Game) -> tuple[str, Candidate]:
        """The name and the cards of the file seat 0 of ``game`` plays."""

    @abstractmethod
    def default_field(self) -> list[Member]:
        """The shipped examples the candidates play against when no field folder is given."""

    def check_member(self, member: Member) -> tuple[str, Candidate]:
        """Load ``member`` as the game does (``CardDataError``/``OptionError`` if it is broken); its name and cards."""
        with tempfile.TemporaryDirectory(prefix="cardarena-optimise-") as scratch:
            value = materialise(member, Path(scratch), self.file_kind)
            game = load(self.game_id, **self.seat_options(value, value))
            return self.read_member(game)

    def seat_options(self, value0: str, value1: str) -> dict[str, Any]:
        """The options of a game with the files (or starter names) ``value0`` and ``value1`` in seats 0 and 1."""
        return {**self.options, f"{self.seat_option}0": value0, f"{self.seat_option}1": value1}

    def field_from(self, folder: str | Path) -> list[Member]:
        """Every ``*.toml`` file of ``folder`` (sorted by name) as a field member, each checked by the game."""
        path = Path(folder)
        if not path.is_dir():
            raise CardDataError(str(path), f"not a folder of {self.file_kind} files (--field)")
        files = sorted(path.glob("*.toml"))
        if not files:
            raise CardDataError(str(path), f"no {self.file_kind} files (*.toml) in this folder (--field)")
        members = []
        for p in files:  # the game reads the user's file itself, so an error names it
            name, cards = self.read_member(load(self.game_id, **self.seat_options(str(p), str(p))))
            members.append(Member(name, text=read_text(p), cards=cards))
        return members


class LaplaplaceBuilds(Encoding):
    """Laplaplace: 8 places, top to bottom, each any card of the list (any card any number of times).

    The battle of two fixed builds needs no decision (the league scene), so no agent plays; the battle's only
    chance is a coin for a complete tie of speed, HP and cards.
    """

    game_id = "laplaplace"
    seat_option = "build"
    file_kind = "build"
    default_deals = 1
    uses_agents = False
    places = 8

    def base_options(self) -> dict[str, Any]:
        return {"build": "league"}

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        # the league scene needs both files; the card list comes from a game of the blind scene (no file needed)
        opts = dict(options or {})
        self.options = {**self.base_options(), **opts}
        self.game = load(self.game_id, **{**opts, "build": "blind"})
        self.cards = self.card_ids(self.game)

    def card_ids(self, game: Game) -> tuple[str, ...]:
        return card_list_game(game).card_ids()

    def params(self) -> list[Param]:
        return [Param(f"place{i + 1}", self.cards) for i in range(self.places)]

    def decode(self, values: dict[str, str]) -> Candidate:
        return tuple(values[f"place{i + 1}"] for i in range(self.places))

    def encode(self, candidate: Candidate) -> dict[str, str] | None:
        if len(candidate) != self.places:
            return None
        return {f"place{i + 1}": c for i, c in enumerate(candidate)}

    def file_text(self, candidate: Candidate, *, name: str, comments: Sequence[str] = ()) -> str:
        lines = [f"# {c}".rstrip() for c in comments]
        lines += [
            f"name = {toml_string(name)}",
            'author = "cardarena optimise"',
            "cards = [" + ", ".join(toml_string(c) for c in candidate) + "]  # top to bottom",
        ]
        return "\n".join(lines) + "\n"

    def read_member(self, game: Game) -> tuple[str, Candidate]:
        member = card_list_game(game).seat_card_list(0)
        assert member is not None  # the build options name a file for seat 0 (seat_options)
        return member

    def default_field(self) -> list[Member]:
        folder = Path(game_package_dir(self.game)) / "data" / "builds"
        return self.field_from(folder)


class DiceBattleDecks(Encoding):
    """Dice Battle: 30 cards, at most 2 copies of a card; one parameter per card of the pool: 0, 1 or 2 copies.

    A point whose copies do not add up to 30 is repaired: copies are taken away (or added, up to 2 of a card) at
    random, with a generator seeded by the point itself, so each point stands for exactly one legal deck.
    """

    game_id = "dicebattle"
    seat_option = "deck"
    file_kind = "deck"
    default_deals = 8
    uses_agents = True
    deck_size = 30
    max_copies = 2
    starters = ("horde", "arcana", "vanguard")  # the option values of the starter decks (`deck0=horde`)

    def card_ids(self, game: Game) -> tuple[str, ...]:
        return card_list_game(game).card_ids()

    def params(self) -> list[Param]:
        choices = tuple(str(n) for n in range(self.max_copies + 1))
        return [Param(card, choices) for card in self.cards]

    def decode(self, values: dict[str, str]) -> Candidate:
        counts = {card: int(values[card]) for card in self.cards}
        total = sum(counts.values())
        if total != self.deck_size:
            import random

            digest = hashlib.sha256(json.dumps(counts, sort_keys=True).encode()).digest()
            rng = random.Random(int.from_bytes(digest[:8], "little"))
            while total > self.deck_size:
                card = rng.choice([c for c in self.cards if counts[c] > 0])
                counts[card] -= 1
                total -= 1
            while total < self.deck_size:
                card = rng.choice([c for c in self.cards if counts[c] < self.max_copies])
                counts[card] += 1
                total += 1
        return tuple(card for card in self.cards for _ in range(counts[card]))

    def encode(self, candidate: Candidate) -> dict[str, str] | None:
        return {card: str(candidate.count(card)) for card in self.cards}

    def file_text(self, candidate: Candidate, *, name: str, comments: Sequence[str] = ()) -> str:
        lines = [f"# {c}".rstrip() for c in comments]
        lines += [f"name = {toml_string(name)}", 'plan = "Found by cardarena optimise."', "", "[cards]"]
        lines += [f"{card} = {candidate.count(card)}" for card in self.cards if card in candidate]
        return "\n".join(lines) + "\n"

    def read_member(self, game: Game) -> tuple[str, Candidate]:
        member = card_list_game(game).seat_card_list(0)
        assert member is not None  # every Dice Battle seat plays a deck
        name, ids = member
        return name, tuple(card for card in self.cards for _ in range(ids.count(card)))

    def default_field(self) -> list[Member]:
        members = []
        for ref in self.starters:
            name, cards = self.check_member(Member(ref, ref=ref))
            members.append(Member(name, ref=ref, cards=cards))
        return members


@runtime_checkable
class CardListGame(Protocol):
    """A game whose seats play card lists (builds, decks) the optimiser can write: Laplaplace, Dice Battle."""

    def card_ids(self) -> tuple[str, ...]:
        """Every card of the card file in use, by id."""
        ...

    def seat_card_list(self, seat: int) -> tuple[str, tuple[str, ...]] | None:
        """The name and card ids of the list ``seat`` plays from a file (``None``: it builds its own)."""
        ...


def card_list_game(game: Game) -> CardListGame:
    """``game`` as a :class:`CardListGame` (a ``TypeError`` for a game that has no card lists)."""
    if not isinstance(game, CardListGame):
        raise TypeError(f"{game.id} has no card lists to optimise (card_ids, seat_card_list)")
    return game


ENCODINGS: dict[str, type[Encoding]] = {"laplaplace": LaplaplaceBuilds, "dicebattle": DiceBattleDecks}


def encoding_for(game_id: str, options: dict[str, Any] | None = None) -> Encoding:
    """The search space of ``game_id`` (``OptionError`` naming the games the optimiser knows)."""
    cls = ENCODINGS.get(game_id)
    if cls is None:
        known = ", ".join(sorted(ENCODINGS))
        raise OptionError(f"the optimiser searches builds or decks of {known}, not {game_id!r}")
    return cls(options)


def game_package_dir(game: Game) -> Path:
    """The folder of the package that defines ``game``'s class (where its shipped data lives)."""
    import sys

    module = sys.modules[type(game).__module__]
    return Path(module.__file__ or ".").parent


def toml_string(s: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    return json.dumps(s, ensure_ascii=False)


def materialise(member: Member, folder: Path, kind: str) -> str:
    """The option value that plays ``member``: its starter name, or the path of its text written in ``folder``.

    The parent writes every file of a batch before the games start, so on this machine a worker only reads them; a
    worker of a Ray cluster on another machine writes its own copy, through a temporary file of its own (process
    id and a random part in the name), renamed into place at once so that no one reads half a file.
    """
    if member.text is None:
        assert member.ref is not None
        return member.ref
    digest = hashlib.sha256(member.text.encode()).hexdigest()[:16]
    path = folder / f"{kind}-{digest}.toml"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        tmp.write_text(member.text, encoding="utf-8")
        tmp.replace(path)  # atomic: another worker may write the same file at the same time
    return str(path)


# -- playing a batch -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """Everything a worker needs to play the games of a batch (small and picklable)."""

    game_id: str
    options: tuple[tuple[str, Any], ...]
    seat_option: str
    file_kind: str
    agent: str
    members: tuple[Member, ...]
    candidates: tuple[Member, ...]
    seed: int
    stream: int
    deals: int
    scratch: str

    def games_per_candidate(self) -> int:
        return len(self.members) * self.deals * 2

    def locate(self, index: int) -> tuple[int, int, int, int]:
        """Game ``index`` -> (candidate, member, deal, seat order): candidate-major, so a chunk keeps one game."""
        rest, order = divmod(index, 2)
        rest, deal = divmod(rest, self.deals)
        cand, member = divmod(rest, len(self.members))
        return cand, member, deal, order

    @classmethod
    def of(
        cls,
        encoding: Encoding,
        members: Sequence[Member],
        candidates: Sequence[Candidate],
        *,
        agent: str,
        seed: int,
        stream: int,
        deals: int,
        scratch: str,
    ) -> Batch:
        """The batch in which ``candidates`` (written as the game's files) play ``deals`` deals of ``stream``
        against every member of the field, in both seat orders."""
        return cls(
            game_id=encoding.game_id,
            options=tuple(sorted(encoding.options.items())),
            seat_option=encoding.seat_option,
            file_kind=encoding.file_kind,
            agent=agent,
            members=tuple(members),
            candidates=tuple(
                Member(f"#{i}", text=encoding.file_text(c, name="candidate")) for i, c in enumerate(candidates)
            ),
            seed=seed,
            stream=stream,
            deals=deals,
            scratch=scratch,
        )


def play_batch(batch: Batch, indices: list[int]) -> list[tuple[int, float | None, str | None]]:
    """The runner's work function: (index, the candidate's score, error) for each game."""
    scratch = Path(batch.scratch)
    games: dict[tuple[int, int, int], Game] = {}  # loaded once per chunk: candidates come and go
    out: list[tuple[int, float | None, str | None]] = []
    for index in indices:
        c, m, deal, order = batch.locate(index)
        try:
            key = (c, m, order)
            game = games.get(key)
            if game is None:
                mine = materialise(batch.candidates[c], scratch, batch.file_kind)
                theirs = materialise(batch.members[m], scratch, batch.file_kind)
                pair = (mine, theirs) if order == 0 else (theirs, mine)
                options = {**dict(batch.options), f"{batch.seat_option}0": pair[0], f"{batch.seat_option}1": pair[1]}
                game = games[key] = load(batch.game_id, **options)
            seed = derive_seed(batch.seed, batch.stream, deal)
            state = game.new_initial_state(seed)
            players = [
                make_agent(batch.agent, derive_seed(batch.seed, batch.stream, deal, order, s + 1)) for s in (0, 1)
            ]
            views = [SeatView(state, s) for s in (0, 1)]
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                state.apply(players[seat].act(views[seat]))
            returns = state.returns()
            me, them = returns[order], returns[1 - order]
            out.append((index, 1.0 if me > them else 0.5 if me == them else 0.0, None))
        except Exception as e:  # a bug in a game or an agent is counted and reported, not fatal
            where = traceback.extract_tb(e.__traceback__)[-1]
            out.append((index, None, f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno})"))
    return out


@dataclass
class Measured:
    """A candidate's games against the field: per member, each deal's score (the mean of its two seat orders)."""

    candidate: Candidate
    deal_scores: list[list[float]]  # [member][deal]
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)  # the first few games' errors, to show the user

    def member_score(self, m: int) -> float:
        scores = self.deal_scores[m]
        return sum(scores) / len(scores) if scores else 0.0

    def objective(self) -> float:
        per = [self.member_score(m) for m in range(len(self.deal_scores))]
        return 0.5 * (sum(per) / len(per)) + 0.5 * min(per)


def play(
    batch: Batch,
    candidates: Sequence[Candidate],
    *,
    backend: runner.Backend | str,
    jobs: int | None,
    address: str | None,
    progress: Callable[[int], None] | None = None,
) -> list[Measured]:
    """Play every game of ``batch`` (whose files are ``candidates``); each candidate's measurement, in order."""
    per = batch.games_per_candidate()
    rows: dict[int, tuple[float | None, str | None]] = {}

    def on_results(results: list[tuple[int, float | None, str | None]]) -> None:
        for index, score, error in results:
            rows[index] = (score, error)
        if progress is not None:
            progress(len(results))

    total = per * len(batch.candidates)
    for member in (*batch.members, *batch.candidates):
        materialise(member, Path(batch.scratch), batch.file_kind)
    runner.run(play_batch, batch, range(total), on_results, backend=backend, jobs=jobs, address=address)
    measured = []
    for c in range(len(batch.candidates)):
        deal_scores: list[list[float]] = [[] for _ in batch.members]
        errors = 0
        samples: list[str] = []
        for m in range(len(batch.members)):
            for d in range(batch.deals):
                pair = [rows[((c * len(batch.members) + m) * batch.deals + d) * 2 + o] for o in (0, 1)]
                valid = [s for s, _ in pair if s is not None]
                errors += 2 - len(valid)
                samples += [e for _, e in pair if e is not None and len(samples) < 3]
                if valid:
                    deal_scores[m].append(sum(valid) / len(valid))
        measured.append(Measured(candidates[c], deal_scores, errors, samples))
    return measured


# -- the search ----------------------------------------------------------------------------------------------


@dataclass
class Finalist:
    rank: int
    candidate: Candidate
    search_objective: float
    fresh: Measured
    file: str = ""


@dataclass
class Result:
    game: str
    agent: str | None
    seed: int
    budget: int
    deals: int
    fresh_deals: int
    members: list[str]
    candidates_measured: int
    games_played: int
    search_games: int
    fresh_games: int
    errors: int
    error_samples: list[str] = field(default_factory=list)
    finalists: list[Finalist] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agent": self.agent,
            "seed": self.seed,
            "budget": self.budget,
            "search_deals_per_member": self.deals,
            "fresh_deals_per_member": self.fresh_deals,
            "field": self.members,
            "candidates_measured": self.candidates_measured,
            "search_games": self.search_games,
            "fresh_games": self.fresh_games,
            "errors": self.errors,
            "error_samples": self.error_samples,
            "best": [finalist_json(f, self.members) for f in self.finalists],
        }


def member_figures(measured: Measured, m: int) -> dict[str, Any]:
    """A finalist's score against member ``m``: mean, 95% interval over deals, and Wilson's over games."""
    scores = measured.deal_scores[m]
    n = len(scores)
    score = measured.member_score(m)
    lo, hi = paired_interval(scores)
    wlo, whi = wilson(score, 2 * n)
    return {
        "score": round(score, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "ci95_wilson": [round(wlo, 4), round(whi, 4)],
        "deals": n,
        "games": 2 * n,
    }


def finalist_json(f: Finalist, members: list[str]) -> dict[str, Any]:
    per = {name: member_figures(f.fresh, m) for m, name in enumerate(members)}
    overall = [s for scores in f.fresh.deal_scores for s in scores]
    mean = sum(overall) / len(overall) if overall else 0.0
    return {
        "rank": f.rank,
        "file": f.file,
        "cards": list(f.candidate),
        "search_objective": round(f.search_objective, 4),
        "fresh_objective": round(f.fresh.objective(), 4),
        "fresh_score": round(mean, 4),
        "beats_every_member": all(v["ci95"][0] > 0.5 for v in per.values()),
        "vs": per,
        "errors": f.fresh.errors,
    }


@dataclass(frozen=True)
class Settings:
    """The arguments of one optimisation run (see :func:`optimise`)."""

    game_id: str
    budget: int
    field_dir: str | None = None
    agent: str = DEFAULT_AGENT
    seed: int = 0
    keep: int = 3
    deals: int | None = None
    fresh_deals: int = 200
    batch: int = DEFAULT_BATCH
    options: tuple[tuple[str, Any], ...] = ()


SEARCHED_AT_LEAST = 4  # candidates the sampler proposes beyond the field's own files, at the least


def minimum_budget(cost: int, members: int) -> int:
    """The least budget: the field's own files (the first candidates) and four candidates of the sampler's."""
    return (members + SEARCHED_AT_LEAST) * cost


def prepare(settings: Settings) -> tuple[Encoding, list[Member], int]:
    """Check the settings, the game and the field before any game is played; (encoding, field, deals)."""
    encoding = encoding_for(settings.game_id, dict(settings.options))
    if settings.keep < 1:
        raise OptionError(f"--keep must be at least 1, got {settings.keep}")
    if settings.fresh_deals < 2:
        raise OptionError(f"the fresh measurement needs at least 2 deals per member, got {settings.fresh_deals}")
    if settings.batch < 1:
        raise OptionError(f"the batch must hold at least 1 candidate, got {settings.batch}")
    deals = settings.deals if settings.deals is not None else encoding.default_deals
    if deals < 1:
        raise OptionError(f"--deals must be at least 1, got {deals}")
    make_agent(settings.agent, 0)  # an unknown agent or parameter fails here, naming the valid ones
    members = encoding.field_from(settings.field_dir) if settings.field_dir else encoding.default_field()
    names = [m.name for m in members]
    for name in names:
        if names.count(name) > 1:
            raise CardDataError(name, f"two {encoding.file_kind}s of the field are named {name!r}; rename one")
    cost = len(members) * deals * 2
    least = minimum_budget(cost, len(members))
    if settings.budget < least:
        raise OptionError(
            f"--budget {settings.budget} is below the minimum of {least} games: every candidate plays "
            f"{len(members)} field members x {deals} deals x 2 seat orders = {cost} games, and the search "
            f"measures the {len(members)} field files and at least {SEARCHED_AT_LEAST} candidates of its own"
        )
    return encoding, members, deals


def optimise(
    settings: Settings,
    *,
    out: str | Path,
    backend: runner.Backend | str = runner.Backend.PROCESS,
    jobs: int | None = None,
    address: str | None = None,
    progress: ProgressCallback | None = None,
) -> Result:
    """Search, measure the best afresh, write them into ``out`` with ``summary.json``; the :class:`Result`."""
    start = time.perf_counter()
    encoding, members, deals = prepare(settings)
    cost = len(members) * deals * 2
    fresh_cost = len(members) * settings.fresh_deals * 2
    total = (settings.budget // cost) * cost + settings.keep * fresh_cost
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    out_dir = Path(out)
    with tempfile.TemporaryDirectory(prefix="cardarena-optimise-") as scratch, _ray_runtime(backend, jobs, address):

        def measure(candidates: list[Candidate], stream: int, n_deals: int) -> list[Measured]:
            return play(
                Batch.of(
                    encoding,
                    members,
                    candidates,
                    agent=settings.agent,
                    seed=settings.seed,
                    stream=stream,
                    deals=n_deals,
                    scratch=scratch,
                ),
                candidates,
                backend=backend,
                jobs=jobs,
                address=address,
                progress=advance,
            )

        seen, search_games = search(encoding, members, settings, deals, measure)
        ranked = sorted(seen.values(), key=lambda m: (-m.objective(), m.candidate))[: settings.keep]
        done = search_games  # the bar's total counted the whole budget; the search may stop short of it
        fresh = measure([m.candidate for m in ranked], FRESH, settings.fresh_deals)
    finalists = [
        Finalist(0, m.candidate, m.objective(), f) for m, f in zip(ranked, fresh)
    ]  # ranked by the search; reported by the fresh measurement below
    finalists.sort(key=lambda f: (-f.fresh.objective(), f.candidate))
    names = [m.name for m in members]
    result = Result(
        game=encoding.game_id,
        agent=settings.agent if encoding.uses_agents else None,
        seed=settings.seed,
        budget=settings.budget,
        deals=deals,
        fresh_deals=settings.fresh_deals,
        members=names,
        candidates_measured=len(seen),
        games_played=search_games + len(finalists) * fresh_cost,
        search_games=search_games,
        fresh_games=len(finalists) * fresh_cost,
        errors=sum(m.errors for m in seen.values()) + sum(f.fresh.errors for f in finalists),
        error_samples=[e for m in [*seen.values(), *(f.fresh for f in finalists)] for e in m.error_samples][:5],
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    for rank, f in enumerate(finalists, start=1):
        f.rank = rank
        path = out_dir / f"{encoding.game_id}-best-{rank}.toml"
        f.file = path.name
        comments = header_lines(result, f, names)
        path.write_text(
            encoding.file_text(f.candidate, name=f"Optimised #{rank} (seed {settings.seed})", comments=comments),
            encoding="utf-8",
        )
    result.finalists = finalists
    result.seconds = time.perf_counter() - start
    (out_dir / "summary.json").write_text(
        json.dumps(result.to_json(), ensure_ascii=False, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    if progress is not None:
        progress(total, total)
    return result


@contextmanager
def _ray_runtime(backend: runner.Backend | str, jobs: int | None, address: str | None) -> Iterator[None]:
    """One Ray runtime for the whole run: the runner starts (and stops) one per call when none is running, which
    for a search of hundreds of batches would cost seconds each. Nothing to do for the process backend, or when
    Ray is already initialised (a test, a notebook: left running)."""
    if str(backend) != runner.Backend.RAY.value:
        yield
        return
    try:
        import ray
    except ImportError:  # pragma: no cover - the arena extra installs it
        raise OptionError("--backend ray needs Ray: pip install 'cardarena[arena]'") from None
    if ray.is_initialized():
        yield
        return
    if address is None:
        ray.init(num_cpus=jobs or runner.default_jobs(), include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=address, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def search(
    encoding: Encoding,
    members: list[Member],
    settings: Settings,
    deals: int,
    measure: Callable[[list[Candidate], int, int], list[Measured]],
) -> tuple[dict[Candidate, Measured], int]:
    """Optuna's TPE, asked and told in batches, until the budget is spent; every candidate measured, games played."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        sampler = optuna.samplers.TPESampler(seed=settings.seed, multivariate=True, constant_liar=True)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    distributions: dict[str, optuna.distributions.BaseDistribution] = {
        p.name: optuna.distributions.CategoricalDistribution(p.choices) for p in encoding.params()
    }
    for m in members:  # start from the field itself: known-sensible builds and decks
        point = encoding.encode(m.cards)
        if point is not None:
            study.enqueue_trial(point, skip_if_exists=True)
    cost = len(members) * deals * 2
    seen: dict[Candidate, Measured] = {}
    spent = 0
    asks = 0
    max_asks = 20 * max(1, settings.budget // cost)  # a sampler that only repeats itself must still stop
    while spent + cost <= settings.budget and asks < max_asks:
        room = (settings.budget - spent) // cost
        trials: list[tuple[Any, Candidate]] = []
        new: list[Candidate] = []
        while len(new) < min(settings.batch, room) and asks < max_asks:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                trial = study.ask(distributions)
            asks += 1
            candidate = encoding.decode({k: str(v) for k, v in trial.params.items()})
            trials.append((trial, candidate))
            if candidate not in seen and candidate not in new:
                new.append(candidate)
        for measured in measure(new, SEARCH, deals):
            seen[measured.candidate] = measured
        spent += cost * len(new)
        for trial, candidate in trials:
            study.tell(trial, seen[candidate].objective())
    return seen, spent


def header_lines(result: Result, f: Finalist, members: list[str]) -> list[str]:
    """The comments at the top of a written file: how it was found and what it scored on fresh deals."""
    lines = [
        f"Found by `cardarena optimise {result.game}` (seed {result.seed}, budget {result.budget} games, "
        f"{result.candidates_measured} candidates measured"
        + (f", agents {result.agent}" if result.agent else "")
        + ").",
        f"Rank {f.rank}; fresh measurement: {result.fresh_deals} new deals x 2 seat orders against each member "
        "(score: win 1, draw 1/2; 95% interval over deals):",
    ]
    for m, name in enumerate(members):
        v = member_figures(f.fresh, m)
        lines.append(f"  vs {name}: {v['score']:.3f} [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}] ({v['games']} games)")
    return lines


def load_candidate(game_id: str, path: str | Path, options: dict[str, Any] | None = None) -> Candidate:
    """The cards of a written build or deck file, read back by the game itself (``CardDataError`` if broken)."""
    encoding = encoding_for(game_id, options)
    _, candidate = encoding.check_member(Member(Path(path).stem, text=read_text(path)))
    return candidate


def describe(candidate: Candidate, *, ordered: bool) -> str:
    """A short text of a candidate's cards: in order (a build), or as counts (a deck)."""
    if ordered:
        return ", ".join(candidate)
    counts: dict[str, int] = {}
    for c in candidate:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(f"{c} x{n}" if n > 1 else c for c, n in counts.items())


__all__ = [
    "ENCODINGS",
    "Encoding",
    "Member",
    "Result",
    "Settings",
    "describe",
    "encoding_for",
    "load_candidate",
    "minimum_budget",
    "optimise",
]
