"""The progress bar (cli/progress.py) through a run in phases: a line for the games, then one for the statistics
with its own count and time left, so that the bar never sits at "ETA 0:00:00" while the statistics are computed."""

from __future__ import annotations

import io
import re
import time

from rich.console import Console

from cardarena.cli.progress import GameProgress


def drawn(bar_calls: list[tuple[int, int] | tuple[int, int, str]]) -> tuple[str, GameProgress]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=160)
    with GameProgress("toy report", console=console) as bar:
        for call in bar_calls:
            bar(*call)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue()), bar


def test_the_statistics_phase_has_a_line_of_its_own_with_its_count() -> None:
    text, bar = drawn(
        [(0, 10, "games"), (4, 10, "games"), (10, 10, "games"), (0, 50, "statistics: card strengths"),
         (20, 50, "statistics: card strengths")]
    )  # fmt: skip
    final = text.rsplit("toy report: playing games", 1)[1]  # the last frame drawn
    assert "10/10" in final and "games/s" in final
    statistics = final.split("toy report: computing statistics: card strengths", 1)[1]
    assert "20/50" in statistics and "games/s" not in statistics
    assert bar.phase == "statistics: card strengths" and bar.played() == 10 and bar.resumed() == 0


def test_a_two_argument_call_is_the_games_phase_and_stored_games_count_as_resumed() -> None:
    text, bar = drawn([(6, 20), (9, 20)])  # as simulate and tournament call it
    assert "toy report: playing games" in text and "9/20" in text and "computing" not in text
    assert bar.resumed() == 6 and bar.played() == 3 and bar.phase == "games"


def test_the_games_rate_stops_when_the_games_are_played() -> None:
    """The games/s of a finished games line no longer falls while the statistics are computed (it did: the rate
    was measured up to now)."""
    console = Console(file=io.StringIO(), force_terminal=True, width=160)
    with GameProgress("toy report", console=console) as bar:
        bar(0, 10)
        bar(10, 10)
        rate = bar.speed()
        time.sleep(0.01)
        assert bar.speed() == rate
        bar(0, 5, "statistics")
        time.sleep(0.01)
        assert bar.speed() == rate is not None
        bar(0, 3, "writing the page")  # a third phase: still the games' rate
        time.sleep(0.01)
        assert bar.speed() == rate
