"""Post-game analysis (issue 31, point 5): a player asks "where did I go wrong?" and gets, for each of their
decisions, the analysing search's win probability of the move played and of the best move it finds, estimated from
their own information only.

The planted hidden-card change: every position of a record is analysed from the true state and from states whose
hidden cards (the opponents' hands, the decks' order, future dice) were replaced by resamples for the deciding seat:
a seat cannot tell them apart, so the analysis must be identical, number for number. The view handed to the
analysis refuses the cheating door (``FairView``)."""

from __future__ import annotations

import pytest

from cardarena.agents import make_agent, time_limit
from cardarena.agents.analysis import (
    MISTAKE,
    GameAnalysis,
    analyse_decision,
    analyse_record,
    analyst,
    estimate,
    flag,
    positions,
)
from cardarena.engine import OptionError, Rng, State, derive_seed
from tests.agents.helpers import CONFIGS, FairView, load, play_game

SPEC = "expert:iterations=8"
#: one short game per configuration: random seats (mistakes to find), capped by ``max_turns``
GAMES = list(CONFIGS)


def _record(config: str, seed: int = 3) -> tuple[State, dict]:
    game = load(config)
    final = play_game(game, ["random"] * game.num_players, seed)
    return final, final.to_record()


@pytest.mark.parametrize("config", GAMES)
def test_a_short_record_of_every_game_is_analysed_decision_by_decision(config: str) -> None:
    final, record = _record(config)
    analysis = analyse_record(record, seats=[0], agent=SPEC, seed=1)
    mine = [ply for ply, state in positions(record) if state.current_player == 0]
    assert [d.ply for d in analysis.decisions] == mine and mine
    rated = [d for d in analysis.decisions if not d.forced]
    assert rated, "a game where seat 0 never had a choice"
    for d in analysis.decisions:
        assert d.seat == 0 and d.played == str(final.history[d.ply])
        if d.forced:
            assert d.p_best is None and d.swing == 0
            continue
        assert d.p_played is not None and d.p_best is not None
        assert 0 <= d.p_played <= d.p_best <= 1
        assert d.swing == pytest.approx(d.p_best - d.p_played, abs=1e-6)
        assert d.mistake == (d.swing >= MISTAKE)
        assert d.visits_played >= 1
        if d.best != d.played:  # the move played was searched with the whole budget of its own search
            assert d.visits_played == 8 and d.visits_best == 8
    summary = analysis.summary(0)
    assert summary["decisions"] == len(mine) and summary["forced"] == len(mine) - len(rated)
    assert len(summary["biggest"]) <= 3
    again = GameAnalysis.from_json(analysis.to_json())
    assert again.to_json() == analysis.to_json()


@pytest.mark.parametrize("config", GAMES)
def test_hidden_cards_the_seat_never_saw_do_not_change_the_analysis(config: str) -> None:
    """The planted change: the same decisions, from the true state and from two resamples of it for the deciding
    seat (every card it could not see redrawn), give the identical analysis."""
    final, record = _record(config, seed=5)
    checked = changed = 0
    for ply, state in positions(record):
        seat = state.current_player
        assert seat is not None
        if len(state.playout_actions()) < 2:
            continue
        played = final.history[ply]
        true = analyse_decision(FairView(state, seat), played, agent=SPEC, seed=ply).to_json()
        for k in range(2):
            planted = state.resample(seat, Rng(derive_seed(11, ply, k)))
            changed += _hidden(planted) != _hidden(state)
            other = analyse_decision(FairView(planted, seat), played, agent=SPEC, seed=ply).to_json()
            assert other == true, f"ply {ply}: the analysis read a hidden card"
        checked += 1
        if checked == 4:
            break
    assert checked and changed, "nothing hidden was replaced"


def _hidden(state: State) -> dict:
    """The whole position, hidden parts included (not the history: a resample has none)."""
    return {k: v for k, v in state.snapshot().items() if k != "history"}


def test_the_same_spec_and_seed_give_the_same_analysis_and_the_played_move_is_estimated_by_its_own_search() -> None:
    _, record = _record("dicebattle", seed=2)
    one = analyse_record(record, agent=SPEC, seed=4).to_json()
    assert analyse_record(record, agent=SPEC, seed=4).to_json() == one
    assert sorted({d["seat"] for d in one["decisions"]}) == [0, 1] == one["seats"]
    # a move the search disliked gets the whole budget of a search of its own
    state = next(s for _, s in positions(record) if len(s.playout_actions()) > 2)
    seat = state.current_player
    worst = state.playout_actions()[-1]
    p, visits = estimate(SPEC, FairView(state, seat), worst, seed=1)
    assert visits == 8 and 0 <= p <= 1


def test_mistakes_and_the_three_biggest_are_flagged_per_seat() -> None:
    _, record = _record("dicebattle", seed=2)
    analysis = analyse_record(record, agent=SPEC, seed=4)
    decisions = analysis.decisions
    for d, swing in zip(decisions, [0.3, 0.2, 0.15, 0.12, 0.05, 0.005, 0.0] * 20, strict=False):
        d.swing = swing if not d.forced else 0.0
    flag(decisions)
    for seat in (0, 1):
        mine = [d for d in decisions if d.seat == seat]
        top = sorted((d.swing for d in mine if d.swing >= 0.01), reverse=True)[:3]
        assert sorted((d.swing for d in mine if d.biggest), reverse=True) == top
        assert all(d.mistake == (d.swing >= 0.10) for d in mine)


def test_a_time_limit_that_cuts_every_search_claims_no_swing() -> None:
    """The web server bounds each decision's searches (``time_limit``): cut before a single iteration, a decision
    is still answered, with no mistake claimed."""
    final, record = _record("dicebattle", seed=2)
    ply, state = next((p, s) for p, s in positions(record) if len(s.playout_actions()) > 2)
    with time_limit(0.0):
        d = analyse_decision(FairView(state, state.current_player), final.history[ply], agent=SPEC, seed=1)
    assert d.swing == 0 and not d.mistake and d.p_played == d.p_best


def test_an_analyst_must_be_a_fair_search() -> None:
    with pytest.raises(OptionError, match="hidden cards"):
        analyst("mcts:iterations=8")
    with pytest.raises(OptionError, match="search agent"):
        analyst("heuristic")
    with pytest.raises(OptionError):
        analyst("expert:iterations=-1")
    assert make_agent("ismcts:iterations=8", 0).name == analyst("ismcts:iterations=8").name
