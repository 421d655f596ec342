"""The conformance harness: the checks every game must pass, run by each game's tests.

``check_game(game, seeds)`` plays one random playout per seed and, along the way, checks the state protocol:
legal actions exist until the end and all apply, texts and indices round-trip, observations are JSON-ready and
unchanged by ``resample`` (the hidden-information leak test), no seat's observation changes because of another
seat's pending hidden commitment (:func:`check_commitments`), resample depends on what the seat knows and the rng
alone (:func:`check_resample_canonical`) and redraws every card it cannot see (:func:`check_resample_redraws`),
``why_not`` agrees with the legal actions, states pickle and stay
small, clones are independent, illegal input leaves the state unchanged, and records replay to the identical final
state.
"""

from __future__ import annotations

import json
import math
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .errors import IllegalActionError, InvalidActionError, RulesError
from .game import Game, State
from .involvement import check_involvements
from .records import replay
from .rng import Rng, derive_seed

#: The most a pickled state may take besides its history. A state holds its position; tables belong to the game.
MAX_STATE_BYTES = 8 * 1024


class ConformanceError(AssertionError):
    """A game broke the state protocol; the message names the seed and the decision."""


@dataclass
class ConformanceReport:
    games: int = 0
    decisions: int = 0
    longest: int = 0
    results: dict[str, int] = field(default_factory=dict)


def _fail(seed: int, step: int, message: str) -> ConformanceError:
    return ConformanceError(f"seed {seed}, decision {step}: {message}")


def _json_ready(obj: Any) -> bool:
    try:
        return bool(json.loads(json.dumps(obj)) == obj)
    except (TypeError, ValueError):
        return False


def check_state(
    state: State, rng: Rng, *, seed: int = 0, step: int = 0, deep: bool = True, redraws: bool = True
) -> None:
    """Check one non-final or final state. ``deep`` adds the per-action and leak checks; ``redraws`` (with
    ``deep``) adds :func:`check_resample_redraws`, the costliest of them (many resamples per seat)."""
    game = state.game
    legal = state.legal_actions()
    if state.is_terminal():
        if state.current_player is not None or legal:
            raise _fail(seed, step, "a terminal state has a current player or legal actions")
        return
    player = state.current_player
    if player is None or not 0 <= player < game.num_players:
        raise _fail(seed, step, f"current_player {player!r} is not a seat")
    if not legal:
        raise _fail(seed, step, "a non-terminal state has no legal actions")
    if not deep:
        return
    before = state.snapshot()
    if not _json_ready(before):
        raise _fail(seed, step, "snapshot() is not JSON-ready")
    indices = _check_listed_actions(state, legal, seed, step)
    _check_refusals(state, rng, indices, before, seed, step)
    _check_views(state, rng, legal, before, seed, step)
    check_resample_canonical(state, derive_seed(seed, step, 0xCA70), seed=seed, step=step)
    if redraws:
        check_resample_redraws(state, derive_seed(seed, step, 0x4ED7), seed=seed, step=step)
    check_commitments(state, Rng(derive_seed(seed, step, 0x5EC2E7)), seed=seed, step=step)
    _check_copies(state, legal, before, seed, step)


def _check_listed_actions(state: State, legal: list[Action], seed: int, step: int) -> set[int]:
    """Every listed action: once only, its text and index round-trip, ``why_not`` allows it, and it applies."""
    game = state.game
    if len(set(legal)) != len(legal):
        raise _fail(seed, step, "legal_actions lists an action twice")
    indices = set()
    for action in legal:
        text = str(action)
        back = game.parse_action(state, text)
        if back != action:
            raise _fail(seed, step, f"action text {text!r} does not round-trip (read back as {back!r})")
        index = game.action_index(action)
        if not 0 <= index < game.num_distinct_actions:
            raise _fail(seed, step, f"action_index({text!r}) = {index} is out of range")
        if game.action_from_index(index) != action:
            raise _fail(seed, step, f"action_from_index does not invert action_index for {text!r}")
        indices.add(index)
        if state.why_not(action) is not None:
            raise _fail(seed, step, f"why_not({text!r}) refuses a listed action: {state.why_not(action)}")
        trial = state.clone()
        try:
            trial.apply(action)
        except RulesError as e:
            raise _fail(seed, step, f"listed action {text!r} does not apply: {e}") from e
    if len(indices) != len(legal):
        raise _fail(seed, step, "two legal actions share one action_index")
    return indices


def _check_refusals(state: State, rng: Rng, indices: set[int], before: dict[str, Any], seed: int, step: int) -> None:
    """An unlisted action has a reason (``why_not``), is refused and changes nothing; malformed text is refused."""
    game = state.game
    for _ in range(8):
        index = rng.randbelow(game.num_distinct_actions)
        if index in indices:
            continue
        illegal = game.action_from_index(index)
        if not state.why_not(illegal):
            raise _fail(seed, step, f"why_not({str(illegal)!r}) gives no reason for an action that is not listed")
        try:
            state.apply(illegal)
        except IllegalActionError:
            pass
        else:
            raise _fail(seed, step, f"illegal action {str(illegal)!r} was accepted")
        if state.snapshot() != before:
            raise _fail(seed, step, f"refusing {str(illegal)!r} changed the state")
        break
    try:
        game.parse_action(state, "%% not an action %%")
    except InvalidActionError:
        pass
    else:
        raise _fail(seed, step, "malformed action text was accepted")


def _check_views(state: State, rng: Rng, legal: list[Action], before: dict[str, Any], seed: int, step: int) -> None:
    """Observations are JSON-ready, and resample cannot reveal anything the seat does not already know."""
    game = state.game
    player = state.current_player
    for seat in [None, *range(game.num_players)]:
        if not _json_ready(state.observation(seat)):
            raise _fail(seed, step, f"observation({seat}) is not JSON-ready")
    for seat in range(game.num_players):
        obs = state.observation(seat)
        other = state.resample(seat, rng.fork())
        if other.observation(seat) != obs:
            raise _fail(seed, step, f"observation({seat}) changed after resample({seat}): hidden information leaks")
        if other.history:
            raise _fail(seed, step, f"resample({seat}) kept the action history, which may hold hidden choices")
        if other.current_player != player:
            raise _fail(seed, step, f"resample({seat}) changed who is to act: the turn order leaks hidden information")
        if seat == player and other.legal_actions() != legal:
            raise _fail(seed, step, f"resample({seat}) changed the acting seat's legal actions")
        if state.snapshot() != before:
            raise _fail(seed, step, f"resample({seat}) changed the original state")


def _check_copies(state: State, legal: list[Action], before: dict[str, Any], seed: int, step: int) -> None:
    """A state pickles and carries only its position (the game is pickled by reference, so card tables are not
    sent with every state); clones are equal and independent."""
    data = pickle.dumps(state)
    carried = len(data) - len(pickle.dumps(state.history))
    if carried > MAX_STATE_BYTES:
        raise _fail(seed, step, f"a pickled state takes {carried:,} bytes besides its history: it carries tables")
    if pickle.loads(data).snapshot() != before:
        raise _fail(seed, step, "a state differs from itself after a pickle round-trip")
    twin = state.clone()
    if twin.snapshot() != before:
        raise _fail(seed, step, "clone() differs from the original")
    twin.apply(legal[-1])
    if state.snapshot() != before:
        raise _fail(seed, step, "applying an action to a clone changed the original")


def check_resample_canonical(state: State, rng_seed: int, *, seed: int = 0, step: int = 0) -> None:
    """``resample(seat, rng)`` is a function of what ``seat`` may know and of ``rng`` alone.

    A resampled world looks the same to the seat as the state, so resampling it again with the same ``rng`` must
    give the very same world. When it does not, the unseen cards were drawn in an order that comes from the true
    state, and a search agent choosing from that world could tell two positions apart that its seat cannot.
    """
    for seat in range(state.game.num_players):
        world = state.resample(seat, Rng(rng_seed))
        again = world.resample(seat, Rng(rng_seed))
        if again.snapshot() != world.snapshot():
            where = _first_difference(world.snapshot(), again.snapshot())
            raise _fail(
                seed,
                step,
                f"resample({seat}) of a resampled world gives another world with the same rng ({where}): "
                "the unseen cards are drawn in an order that comes from the true state",
            )


REDRAW_SAMPLES = 16
#: A place may keep its true card in every sampled world only if its pool holds that card this often or more
#: (0.5 ** 16 is about 1.5e-5: a true redraw leaves a place alone that often).
REDRAW_SHARE = 0.5


def check_resample_redraws(
    state: State, rng_seed: int, *, seed: int = 0, step: int = 0, samples: int = REDRAW_SAMPLES
) -> None:
    """``resample(seat, rng)`` redraws every card the seat cannot see (``game.hidden_cards``).

    The twin of :func:`check_resample_canonical`: a resample that left the opponent's true hand in place would
    reveal nothing and be canonical, and hand search the truth. Over ``samples`` worlds each hidden place must take
    another card than its true one at least once, unless its pool holds that card so often that keeping it every
    time is likely (``REDRAW_SHARE``). Games that do not declare their hidden cards are not checked here.
    """
    game = state.game
    for seat in range(game.num_players):
        truth = game.hidden_cards(state, seat)
        if truth is None:
            return
        moved: dict[str, set[str]] = {pool: set() for pool in truth}
        for k in range(samples):
            world = game.hidden_cards(state.resample(seat, Rng(derive_seed(rng_seed, seat, k))), seat)
            if world is None or {p: set(c) for p, c in world.items()} != {p: set(c) for p, c in truth.items()}:
                raise _fail(seed, step, f"resample({seat}) changes which places are hidden from seat {seat}")
            for pool, places in truth.items():
                moved[pool].update(place for place, card in places.items() if world[pool][place] != card)
        for pool, places in truth.items():
            cards = list(places.values())
            for place, card in places.items():
                if place not in moved[pool] and cards.count(card) < REDRAW_SHARE * len(cards):
                    raise _fail(
                        seed,
                        step,
                        f"resample({seat}) left {pool} {place} ({card!r}) in place in all {samples} worlds, though"
                        f" only {cards.count(card)} of the pool's {len(cards)} cards are like it: a hidden card"
                        " is not redrawn",
                    )


def _sample(items: list[Action], k: int, rng: Rng) -> list[Action]:
    """At most ``k`` of ``items``, the first always among them, the others drawn at random (order kept)."""
    if len(items) <= k:
        return items
    rest = list(range(1, len(items)))
    rng.shuffle(rest)
    return [items[0], *(items[i] for i in sorted(rest[: k - 1]))]


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON-ready values first differ, as ``path: value vs value``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted({*a, *b}, key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'the value'}: {a!r} vs {b!r}"


def check_commitments(
    state: State,
    rng: Rng,
    *,
    seed: int = 0,
    step: int = 0,
    max_compared: int = 4,
    max_follow: int = 8,
    worlds: int = 3,
    confirm_worlds: int = 32,
) -> None:
    """No seat's observation changes because of another seat's pending hidden commitment.

    Simultaneous choices are hidden choices made one after the other (DESIGN.md), so a seat that chooses later
    must learn nothing of the earlier choices before they are revealed. For the acting seat A and every other
    seat B, A's legal actions are grouped by how B sees them (``action_seen_by``): B cannot tell two actions of
    a group apart from the log, so while A's choice is pending, ``observation(B)`` and ``render(B)`` after
    either (applied to clones: the same chance) must be equal as well.

    When A goes on choosing (setting several cards one by one), every branch is followed by the same further
    actions of A (legal in every branch and seen alike by B) until another seat is to act. A's choice is then
    *pending* when that seat's choice is hidden from A in turn (two of its actions look alike to A) and nothing
    was revealed to A: A's own observation is the same in worlds resampled for A (a reveal shows A the others'
    hidden choices), which keep the state's chance (its ``rng``, where it has one). So the last of the simultaneous
    choices, which reveals them all, and a hidden choice answered by public ones are exempt. ``worlds``
    resampled worlds decide this, and ``confirm_worlds`` more before a difference is reported; at most
    ``max_compared`` actions of a group and ``max_follow`` further actions are tried, so the check stays cheap.
    """
    game = state.game
    actor = state.current_player
    if actor is None:
        return
    legal = state.legal_actions()
    sampled: list[State] = []

    def follow(seat: int, members: list[Action]) -> tuple[list[State], list[Action]] | None:
        """Each member applied to a clone, then the same further actions of the actor until another seat is to
        act; None when the branches end, part ways or find no common next action."""
        branches = []
        for action in members:
            branch = state.clone()
            branch.apply(action)
            branches.append(branch)
        path: list[Action] = []
        for _ in range(max_follow + 1):
            players = {b.current_player for b in branches}
            if len(players) != 1 or None in players:
                return None
            if actor not in players:
                return branches, path
            if len(path) == max_follow:
                return None
            others = [set(b.legal_actions()) for b in branches[1:]]
            common = next(
                (
                    a
                    for a in reversed(branches[0].legal_actions())
                    if all(a in legal_there for legal_there in others)
                    and len({game.action_seen_by(b, a, seat) for b in branches}) == 1
                ),
                None,
            )
            if common is None:
                return None
            for b in branches:
                b.apply(common)
            path.append(common)
        return None

    def next_choice_hidden(branch: State) -> bool:
        """Two of the next chooser's actions look alike to the actor."""
        seen: set[str] = set()
        for answer in branch.legal_actions()[:64]:
            text = game.action_seen_by(branch, answer, actor)
            if text in seen:
                return True
            seen.add(text)
        return False

    def reveals(actions: list[Action], branch: State, count: int) -> bool:
        """Playing ``actions`` shows the actor something it could not see, in one of ``count`` worlds."""
        while len(sampled) < count:
            world = state.resample(actor, rng.fork())
            # The true chance where the state keeps it as ``rng`` (every game here does): a public die rolled
            # later is then the same in every world and is no reveal; hidden cards still differ.
            if isinstance(getattr(state, "rng", None), Rng) and isinstance(getattr(world, "rng", None), Rng):
                world.rng = state.rng.copy()  # type: ignore[attr-defined]
            sampled.append(world)
        seen = branch.observation(actor)
        for world in sampled[:count]:
            other = world.clone()
            for action in actions:
                if action not in other.legal_actions():
                    return True  # the worlds part ways: the actor's own choices depend on what it cannot see
                other.apply(action)
            if other.observation(actor) != seen:
                return True
        return False

    for seat in range(game.num_players):
        if seat == actor:
            continue
        groups: dict[str, list[Action]] = {}
        for action in legal:
            groups.setdefault(game.action_seen_by(state, action, seat), []).append(action)
        for seen_as, members in groups.items():
            if len(members) < 2:
                continue
            members = _sample(members, max_compared, rng)
            followed = follow(seat, members)
            if followed is None:
                continue
            branches, path = followed
            if not all(next_choice_hidden(b) for b in branches):
                continue
            if any(reveals([a, *path], b, worlds) for a, b in zip(members, branches)):
                continue
            obs, picture = branches[0].observation(seat), game.render(branches[0], seat)
            for action, branch in zip(members[1:], branches[1:]):
                other_obs = branch.observation(seat)
                if other_obs == obs and game.render(branch, seat) == picture:
                    continue
                if reveals([members[0], *path], branches[0], confirm_worlds) or reveals(
                    [action, *path], branch, confirm_worlds
                ):
                    break  # a reveal after all (the first worlds happened to match the truth)
                where = _first_difference(obs, other_obs) if other_obs != obs else "render() differs"
                then = f" then {', '.join(map(str, path))}" if path else ""
                raise _fail(
                    seed,
                    step,
                    f"seat {seat} sees seat {actor}'s actions {str(members[0])!r} and {str(action)!r} both as "
                    f"{seen_as!r}, yet while that choice is pending its view after them{then} differs ({where}): "
                    "a pending hidden commitment leaks",
                )


def check_game(
    game: Game,
    seeds: Iterable[int],
    *,
    deep_every: int = 5,
    max_decisions: int = 200_000,
) -> ConformanceReport:
    """Random seeded playouts to the end, checking the protocol; raises :class:`ConformanceError`."""
    report = ConformanceReport()
    for seed in seeds:
        rng = Rng(derive_seed(seed, 0xC0FFEE))
        state = game.new_initial_state(seed)
        if state.snapshot() != game.new_initial_state(seed).snapshot():
            raise _fail(seed, 0, "two initial states from the same seed differ")
        mid: State | None = None
        step = 0
        while not state.is_terminal():
            deep, redraws = step % deep_every == 0, step % (2 * deep_every) == 0  # redraws: every other deep state
            check_state(state, rng, seed=seed, step=step, deep=deep, redraws=redraws)
            legal = state.playout_actions()
            state.apply(legal[rng.randbelow(len(legal))])
            step += 1
            if step == 40:
                mid = state.clone()
            if step > max_decisions:
                raise _fail(seed, step, f"no end after {max_decisions} decisions")
        check_state(state, rng, seed=seed, step=step)
        returns = state.returns()
        if len(returns) != game.num_players or not all(isinstance(r, float) and math.isfinite(r) for r in returns):
            raise _fail(seed, step, f"returns {returns!r} are not one finite float per seat")
        record = json.loads(json.dumps(state.to_record()))
        again = replay(record, verify=True)
        if again.snapshot() != state.snapshot():
            raise _fail(seed, step, "replaying the record does not reproduce the final state")
        if mid is not None:
            # A clone taken mid-game and driven by the rest of the history ends in the same state.
            for action in state.history[40:]:
                mid.apply(action)
            if mid.snapshot() != state.snapshot():
                raise _fail(seed, step, "a mid-game clone replayed to the end differs")
        report.games += 1
        report.decisions += step
        report.longest = max(report.longest, step)
        key = ",".join(f"{r:g}" for r in returns)
        report.results[key] = report.results.get(key, 0) + 1
    return report


def check_involvement(game: Game, seeds: Iterable[int], *, max_decisions: int = 200_000) -> dict[str, int]:
    """Random seeded games with the balance report's hooks (:mod:`.involvement`) called as the report calls
    them; raises :class:`ConformanceError` when an involvement is not declared by ``involvement_catalogue()``, has
    an unknown verb or seat, when a hook changes the states it reads, or when a game's ``end_condition`` is not one
    of its ``end_conditions()``. Returns, per declared ``"kind:name"``, the number of games it occurred in."""
    catalogue = game.involvement_catalogue()
    if not catalogue:
        raise ConformanceError(f"{game.id} declares nothing in involvement_catalogue()")
    ends = {d.name for d in game.end_conditions()}
    occurred: dict[str, int] = {f"{d.kind}:{d.name}": 0 for d in catalogue}
    for seed in seeds:
        rng = Rng(derive_seed(seed, 0x1A7017))
        state = game.new_initial_state(seed)
        seen = set(game.initial_involvement(state))
        problem = check_involvements(catalogue, seen, game.num_players)
        if problem:
            raise _fail(seed, 0, f"initial_involvement: {problem}")
        step = 0
        while not state.is_terminal():
            before = state.clone()
            legal = state.playout_actions()
            action = legal[rng.randbelow(len(legal))]
            state.apply(action)
            shown_before, shown_after = before.snapshot(), state.snapshot()
            found = game.involvement(before, action, state)
            problem = check_involvements(catalogue, found, game.num_players)
            if problem:
                raise _fail(seed, step, f"involvement of {action}: {problem}")
            if before.snapshot() != shown_before or state.snapshot() != shown_after:
                raise _fail(seed, step, f"involvement of {action} changed the states it was given")
            seen.update(found)
            step += 1
            if step > max_decisions:
                raise _fail(seed, step, f"no end after {max_decisions} decisions")
        end = game.end_condition(state)
        if end not in ends:
            raise _fail(seed, step, f"end_condition {end!r} is not one of end_conditions() {sorted(ends)}")
        for key in {f"{inv.kind}:{inv.name}" for inv in seen}:
            occurred[key] += 1
    return occurred
