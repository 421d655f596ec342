"""The build/deck optimiser: legal candidates, paired seeds, fresh seeds for the finalists, determinism, files that
load and replay, and clear errors for bad input. Tiny budgets and fields keep every test to a second or two."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

import cardarena
from cardarena.agents import SeatView, make_agent
from cardarena.arena import optimise as opt
from cardarena.arena.optimise import (
    FRESH,
    SEARCH,
    Batch,
    Member,
    Settings,
    encoding_for,
    load_candidate,
    optimise,
    play_batch,
)
from cardarena.engine import CardDataError, OptionError, derive_seed, load


@pytest.fixture(scope="module")
def builds_dir() -> Path:
    """The shipped example builds of Laplaplace (the default field)."""
    encoding = encoding_for("laplaplace")
    return opt.game_package_dir(encoding.game) / "data" / "builds"


@pytest.fixture
def small_field(tmp_path: Path, builds_dir: Path) -> Path:
    """Two example builds: a field small enough for a search of a few dozen battles."""
    field = tmp_path / "field"
    field.mkdir()
    for name in ("knight.toml", "judge.toml"):
        shutil.copy(builds_dir / name, field / name)
    return field


def test_the_default_fields_are_the_shipped_examples() -> None:
    builds = encoding_for("laplaplace").default_field()
    assert len(builds) == 10 and {"Knight", "Judge", "Pierce Wall"} <= {m.name for m in builds}
    assert all(len(m.cards) == 8 for m in builds)
    decks = encoding_for("dicebattle").default_field()
    assert [m.ref for m in decks] == ["horde", "arcana", "vanguard"]
    assert all(len(m.cards) == 30 for m in decks)


@pytest.mark.parametrize("game_id", ["laplaplace", "dicebattle"])
def test_every_point_of_the_search_space_is_a_legal_file(game_id: str, tmp_path: Path) -> None:
    encoding = encoding_for(game_id)
    rng = random.Random(5)
    params = encoding.params()
    for i in range(40):
        point = {p.name: rng.choice(p.choices) for p in params}
        if game_id == "dicebattle" and i % 2:  # also the corners: every card twice (94 cards), or none at all
            point = {p.name: p.choices[-1 if i % 4 == 1 else 0] for p in params}
        candidate = encoding.decode(point)
        assert encoding.decode(point) == candidate  # one point, one candidate (the repair is seeded by the point)
        if game_id == "laplaplace":
            assert len(candidate) == 8
        else:
            assert len(candidate) == 30 and max(Counter(candidate).values()) <= 2
        path = tmp_path / f"c{i}.toml"
        path.write_text(encoding.file_text(candidate, name=f"c{i}", comments=["a comment"]), encoding="utf-8")
        assert load_candidate(game_id, path) == candidate  # the game itself reads it back, card for card
        if encoding.encode(candidate) is not None:
            assert encoding.decode(encoding.encode(candidate) or {}) == candidate


def _recording_load(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    """Record (seat 0's file, seat 1's file, game seed) of every game ``play_batch`` starts."""
    seen: list[tuple[str, str, int]] = []
    real = opt.load

    def load_and_record(game_id: str, **options: Any) -> Any:
        game = real(game_id, **options)
        start = game.new_initial_state

        def new_initial_state(seed: int = 0) -> Any:
            seen.append((options["build0"], options["build1"], seed))
            return start(seed)

        game.new_initial_state = new_initial_state
        return game

    monkeypatch.setattr(opt, "load", load_and_record)
    return seen


def test_every_candidate_plays_the_same_deals_against_every_member_in_both_seat_orders(
    monkeypatch: pytest.MonkeyPatch, small_field: Path, tmp_path: Path
) -> None:
    encoding = encoding_for("laplaplace")
    members = encoding.field_from(small_field)
    candidates = [("lance",) * 8, ("pierce", "blank", "blank", "blank", "blank", "blank", "blank", "blank")]
    batch = Batch.of(
        encoding, members, candidates, agent="random", seed=3, stream=SEARCH, deals=3, scratch=str(tmp_path / "scratch")
    )
    seen = _recording_load(monkeypatch)
    rows = play_batch(batch, list(range(2 * 2 * 3 * 2)))
    assert all(error is None for _, _, error in rows)
    by_deal: dict[int, set[int]] = defaultdict(set)
    orders: Counter[tuple[str, str]] = Counter()
    for index, (seat0, seat1, seed) in enumerate(seen):
        _, _, deal, _ = batch.locate(index)
        by_deal[deal].add(seed)
        orders[(seat0, seat1)] += 1
    assert dict(by_deal) == {d: {derive_seed(3, SEARCH, d)} for d in range(3)}
    assert len(orders) == 8 and set(orders.values()) == {3}  # 2 candidates x 2 members x 2 seat orders, 3 deals each
    assert all((b, a) in orders for a, b in orders)


def test_a_candidate_scores_the_same_wherever_it_sits_in_a_batch(small_field: Path, tmp_path: Path) -> None:
    encoding = encoding_for("dicebattle")
    members = encoding.default_field()
    horde = members[0].cards
    rng = random.Random(2)
    other = encoding.decode({p.name: rng.choice(p.choices) for p in encoding.params()})

    def measure(cands: list[tuple[str, ...]], stream: int) -> list[opt.Measured]:
        batch = Batch.of(
            encoding, members, cands, agent="heuristic", seed=11, stream=stream, deals=2, scratch=str(tmp_path)
        )
        return opt.play(batch, cands, backend="process", jobs=1, address=None)

    first = measure([other, horde], SEARCH)
    second = measure([horde, other], SEARCH)
    assert first[1].deal_scores == second[0].deal_scores and first[0].deal_scores == second[1].deal_scores
    assert [len(s) for s in first[0].deal_scores] == [2, 2, 2]
    fresh = measure([other, horde], FRESH)
    assert fresh[0].deal_scores != first[0].deal_scores or fresh[1].deal_scores != first[1].deal_scores


def test_a_tiny_search_is_deterministic_writes_loadable_files_and_measures_finalists_on_fresh_deals(
    monkeypatch: pytest.MonkeyPatch, small_field: Path, tmp_path: Path
) -> None:
    streams: list[tuple[int, int]] = []
    real_play = opt.play

    def play_and_record(batch: Batch, *args: Any, **kwargs: Any) -> Any:
        streams.append((batch.stream, batch.deals))
        return real_play(batch, *args, **kwargs)

    monkeypatch.setattr(opt, "play", play_and_record)
    settings = Settings("laplaplace", budget=40, field_dir=str(small_field), seed=4, keep=2, fresh_deals=3, batch=4)
    progress: list[tuple[int, int]] = []
    first = optimise(settings, out=tmp_path / "a", jobs=1, progress=lambda d, t: progress.append((d, t)))
    second = optimise(settings, out=tmp_path / "b", jobs=1)
    assert first.to_json() == second.to_json()
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert summary == first.to_json() and summary["search_games"] == 40 and summary["candidates_measured"] == 10
    assert summary["fresh_games"] == 2 * 2 * 3 * 2 and progress[-1][0] == progress[-1][1]
    assert streams.count((FRESH, 3)) == 2 and all(s == (SEARCH, 1) for s in streams if s[0] == SEARCH)
    assert [b["rank"] for b in summary["best"]] == [1, 2]
    for best in summary["best"]:
        path = tmp_path / "a" / best["file"]
        assert (tmp_path / "b" / best["file"]).read_text() == path.read_text()
        text = path.read_text()
        assert "vs Knight:" in text and "vs Judge:" in text and "95% interval" in text
        assert list(load_candidate("laplaplace", path)) == best["cards"]
        game = load("laplaplace", build0=str(path), build1=str(small_field / "knight.toml"))
        state = game.new_initial_state(7)  # the blind scene: seat 1 builds with the file, seat 0 decides nothing
        assert state.is_terminal()
        replayed = cardarena.replay(state.to_record())
        assert replayed.returns() == state.returns()
        for v in best["vs"].values():
            assert v["games"] == 6 and 0.0 <= v["ci95"][0] <= v["score"] <= v["ci95"][1] <= 1.0


def test_a_written_deck_plays_and_replays(tmp_path: Path) -> None:
    settings = Settings("dicebattle", budget=42, deals=1, seed=2, keep=1, fresh_deals=2, batch=4)
    result = optimise(settings, out=tmp_path, jobs=1)
    assert result.search_games == 42 and result.agent == "heuristic" and result.errors == 0
    path = tmp_path / result.to_json()["best"][0]["file"]
    game = load("dicebattle", deck0=str(path), deck1="arcana")
    state = game.new_initial_state(1)
    players = [make_agent("heuristic", s) for s in (0, 1)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(players[seat].act(SeatView(state, seat)))
    assert cardarena.replay(state.to_record()).returns() == state.returns()


def test_bad_input_is_refused_before_any_game(tmp_path: Path, small_field: Path) -> None:
    with pytest.raises(OptionError, match="dicebattle, laplaplace, not 'torabato'"):
        optimise(Settings("torabato", budget=1000), out=tmp_path)
    with pytest.raises(CardDataError, match="not a folder of build files"):
        optimise(Settings("laplaplace", budget=1000, field_dir=str(tmp_path / "nowhere")), out=tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CardDataError, match=r"no deck files \(\*\.toml\)"):
        optimise(Settings("dicebattle", budget=1000, field_dir=str(empty)), out=tmp_path)
    (small_field / "broken.toml").write_text('name = "Broken"\ncards = ["lance", "no such card"]\n')
    with pytest.raises(CardDataError, match=r"broken\.toml.*no such card"):
        optimise(Settings("laplaplace", budget=1000, field_dir=str(small_field)), out=tmp_path)
    with pytest.raises(OptionError, match="below the minimum of 336 games"):
        optimise(Settings("dicebattle", budget=335), out=tmp_path)  # (3 starters + 4) x 3 x 8 deals x 2
    with pytest.raises(OptionError, match=r"below the minimum of 280 games.*the 10 field files"):
        optimise(Settings("laplaplace", budget=279), out=tmp_path)  # (10 examples + 4) x 10 x 1 deal x 2
    with pytest.raises(OptionError, match="valid agents"):
        optimise(Settings("dicebattle", budget=1000, agent="nobody"), out=tmp_path)
    with pytest.raises(OptionError, match="--keep"):
        optimise(Settings("dicebattle", budget=1000, keep=0), out=tmp_path)
    assert not list(tmp_path.glob("*.toml")) and not (tmp_path / "summary.json").exists()


def test_a_game_that_raises_is_counted_and_shown_not_fatal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    class Broken:
        def act(self, view: SeatView) -> Any:
            raise RuntimeError("agent bug")

    real = opt.make_agent
    monkeypatch.setattr(opt, "make_agent", lambda spec, seed: Broken() if spec == "random" else real(spec, seed))
    settings = Settings("dicebattle", budget=42, deals=1, agent="random", fresh_deals=2, keep=1)
    result = optimise(settings, out=tmp_path, jobs=1)
    assert result.errors == 42 + 12 and result.error_samples[0].startswith("RuntimeError: agent bug (at ")
    assert json.loads((tmp_path / "summary.json").read_text())["errors"] == 54


def test_two_worker_processes_give_the_same_result_as_one(tmp_path: Path) -> None:
    settings = Settings("dicebattle", budget=48, deals=1, seed=8, keep=2, fresh_deals=2, batch=4)
    one = optimise(settings, out=tmp_path / "one", jobs=1)
    two = optimise(settings, out=tmp_path / "two", jobs=2)
    assert one.to_json() == two.to_json() and one.candidates_measured == 8


def test_workers_writing_the_same_file_at_once_never_collide(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    text = 'name = "Same"\ncards = ["lance"]\n'
    member = Member("same", text=text)
    with ThreadPoolExecutor(max_workers=8) as pool:
        paths = set(pool.map(lambda _: opt.materialise(member, tmp_path / "scratch", "build"), range(64)))
    assert len(paths) == 1 and Path(paths.pop()).read_text() == text
    assert [p.name for p in (tmp_path / "scratch").iterdir()] == [
        f"build-{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
    ]


def test_the_card_lists_are_read_through_the_games_own_methods() -> None:
    from cardarena.arena.optimise import card_list_game

    dice = card_list_game(cardarena.load("dicebattle", deck0="vanguard"))
    name, cards = dice.seat_card_list(0) or ("", ())
    assert name
    assert len(cards) == 30 and set(cards) <= set(dice.card_ids()) and max(map(cards.count, cards)) <= 2
    blind = card_list_game(cardarena.load("laplaplace"))
    assert blind.seat_card_list(0) is None and len(blind.card_ids()) == len(set(blind.card_ids()))
    with pytest.raises(TypeError, match="no card lists"):
        card_list_game(cardarena.load("torabato"))
