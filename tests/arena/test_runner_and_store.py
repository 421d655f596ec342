"""The runner (chunks sized by time, errors and bad arguments), the result stores and the statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cardarena.arena import runner, simulate
from cardarena.arena.results import JsonLinesStore, StoreMismatchError, open_store
from cardarena.arena.stats import bradley_terry, paired_interval, sprt
from cardarena.engine import OptionError


def square(context: int, items: list[int]) -> list[tuple[int, int]]:
    return [(i, i * i + context) for i in items]


def explode(context: Any, items: list[int]) -> list[int]:
    raise RuntimeError(f"boom at {items}")


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_runner_returns_every_item_once_whatever_the_chunks(jobs: int) -> None:
    got: list[tuple[int, int]] = []
    runner.run(square, 5, range(500), got.extend, jobs=jobs, target_seconds=1e-4, max_chunk=7)
    assert sorted(got) == [(i, i * i + 5) for i in range(500)]


def test_chunks_start_at_one_item_and_grow_to_the_target_time_at_most_twofold() -> None:
    chunker = runner._Chunker(iter(range(1000)), target_seconds=0.5, max_chunk=256)
    assert chunker.next_chunk() == [0]
    chunker.measured(1, 0.01)  # 10 ms a game: 50 games make half a second, reached by doubling
    assert [len(chunker.next_chunk()) for _ in range(7)] == [2, 4, 8, 16, 32, 50, 50]
    chunker.measured(50, 5.0)  # much slower than thought: the estimate moves halfway (55 ms), 9 games
    assert len(chunker.next_chunk()) == 9
    fast = runner._Chunker(iter(range(1000)), target_seconds=0.5, max_chunk=8)
    fast.measured(1, 1e-9)
    assert [len(fast.next_chunk()) for _ in range(6)] == [2, 4, 8, 8, 8, 8]  # never more than max_chunk


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_error_in_the_work_stops_the_run_and_is_raised(jobs: int) -> None:
    with pytest.raises(RuntimeError, match="boom"):
        runner.run(explode, None, range(10), lambda results: None, jobs=jobs)


def test_bad_runner_arguments_are_refused() -> None:
    with pytest.raises(OptionError, match="valid backends: process, ray"):
        runner.run(square, 0, range(3), print, backend="mpi")
    with pytest.raises(OptionError, match="jobs must be at least 1"):
        runner.run(square, 0, range(3), print, jobs=0)
    with pytest.raises(OptionError, match="--address joins a Ray cluster"):
        runner.run(square, 0, range(3), print, address="10.0.0.1:6379")


def test_simulate_reports_progress_and_is_the_same_for_any_job_count() -> None:
    seen: list[tuple[int, int]] = []
    one = simulate("dicebattle", n=10, seed=2, jobs=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 10) and seen[-1] == (10, 10)
    assert one == simulate("dicebattle", n=10, seed=2, jobs=2)


@pytest.mark.parametrize("name", ["r.sqlite", "r.jsonl"])
def test_a_store_keeps_each_game_once_and_refuses_another_run(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    with open_store(path, {"seed": 1}) as store:
        store.add([(3, {"x": 3}), (1, {"x": 1})])
        store.add([(1, {"x": "again"})])  # a game already stored is kept as it was
    with open_store(path, {"seed": 1}) as store:
        assert store.load() == {1: {"x": 1}, 3: {"x": 3}}
    with pytest.raises(StoreMismatchError, match="seed: stored 1, now 2"):
        open_store(path, {"seed": 2})
    with pytest.raises(OptionError, match="is a folder"):
        open_store(tmp_path, {"seed": 1})


@pytest.mark.parametrize("name", ["r.sqlite", "r.jsonl"])
def test_a_store_is_extended_when_its_growing_field_grows_and_never_cut(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    with open_store(path, {"seed": 1, "pairs": 2}, grows="pairs") as store:
        store.add([(0, {"x": 0}), (1, {"x": 1})])
    with open_store(path, {"seed": 1, "pairs": 4}, grows="pairs") as store:  # a pilot grows into the full run
        assert store.load() == {0: {"x": 0}, 1: {"x": 1}}
        store.add([(2, {"x": 2})])
    with open_store(path, {"seed": 1, "pairs": 4}, grows="pairs") as store:  # the identity was rewritten
        assert store.load() == {0: {"x": 0}, 1: {"x": 1}, 2: {"x": 2}}
    with pytest.raises(StoreMismatchError, match="pairs 4; it can be extended to more, not cut to 3"):
        open_store(path, {"seed": 1, "pairs": 3}, grows="pairs")
    with pytest.raises(StoreMismatchError, match=r"another run .*seed: stored 1, now 2"):
        open_store(path, {"seed": 2, "pairs": 8}, grows="pairs")  # more pairs of another run: refused
    with pytest.raises(StoreMismatchError, match="pairs: stored 4, now 8"):
        open_store(path, {"seed": 1, "pairs": 8})  # a store opened without a growing field never grows
    with open_store(path, {"seed": 1, "pairs": 4}) as store:
        assert len(store.load()) == 3


def test_a_json_lines_store_drops_the_line_a_kill_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    with open_store(path, {"seed": 1}) as store:
        store.add([(0, {"x": 0}), (1, {"x": 1})])
    with path.open("ab") as f:
        f.write(b'{"idx": 2, "x"')  # the write a kill -9 interrupted
    with open_store(path, {"seed": 1}) as store:
        assert isinstance(store, JsonLinesStore) and store.load() == {0: {"x": 0}, 1: {"x": 1}}
        store.add([(2, {"x": 2})])
    with open_store(path, {"seed": 1}) as store:
        assert store.load() == {0: {"x": 0}, 1: {"x": 1}, 2: {"x": 2}}
    for junk in ("not json\n", "no line at all"):
        (tmp_path / "junk.jsonl").write_text(junk)
        with pytest.raises(OptionError, match="holds no identity"):
            open_store(tmp_path / "junk.jsonl", {"seed": 1})
    (tmp_path / "cut.jsonl").write_bytes(b'{"identity": {"se')  # killed while writing its first line: redone
    with open_store(tmp_path / "cut.jsonl", {"seed": 1}) as store:
        assert store.load() == {}
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all, just some bytes" * 100)
    with pytest.raises(OptionError, match="is not a result store"):
        open_store(tmp_path / "junk.sqlite", {"seed": 1})


def test_ratings_order_the_entrants_and_say_how_sure_they_are() -> None:
    ratings = bradley_terry(3, [(0, 1, 70.0, 100), (1, 2, 70.0, 100), (0, 2, 85.0, 100)])
    assert ratings is not None
    assert ratings[0].elo > ratings[1].elo > ratings[2].elo
    assert sum(r.elo for r in ratings) == pytest.approx(0, abs=1e-6)
    assert all(10 < r.se < 40 for r in ratings)  # 300 games: about 20 Elo
    fewer = bradley_terry(3, [(0, 1, 7.0, 10), (1, 2, 7.0, 10), (0, 2, 8.5, 10)])
    assert fewer is not None and fewer[0].se > 2 * ratings[0].se  # ten times fewer games: wider
    sweep = bradley_terry(2, [(0, 1, 20.0, 20)])  # a clean sweep stays finite
    assert sweep is not None and 200 < sweep[0].elo - sweep[1].elo < 1000
    assert bradley_terry(3, [(0, 1, 5.0, 10)]) is None  # entrant 2 never played


def test_the_paired_interval_and_the_sequential_test() -> None:
    assert paired_interval([0.5]) == (0.0, 1.0)
    lo, hi = paired_interval([1.0] * 5)
    assert 0.4 < lo < 0.8 and hi == 1.0  # five deals won: likely stronger, not certainly unbeatable
    lo, hi = paired_interval([0.0, 1.0] * 50)
    assert lo < 0.5 < hi and hi - lo < 0.25
    assert sprt([0.5, 1.0] * 30, 0.05).decision == "a"
    assert sprt([0.5] * 200, 0.05).decision is None  # equal: no decision within the deals played
    stopped = sprt([None, *[0.0] * 30], 0.05)
    assert stopped.decision == "b" and stopped.deals == 9  # a failed deal is skipped; eight deals, then the test
