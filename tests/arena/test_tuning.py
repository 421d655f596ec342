"""``cardarena.arena.tuning``: the search on common random numbers, resuming from a store after Ctrl-C, the time
limit, writing the settings into a model (weights kept) and the expert playing with them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardarena.agents import make_agent
from cardarena.agents.expert import ExpertAgent, model_for
from cardarena.agents.valuenet import ValueNet
from cardarena.arena import tuning
from cardarena.arena.strength import play_one, strength
from cardarena.arena.training import TrainConfig, train
from cardarena.arena.tuning import Measured, TuneConfig, make_space, parse_range, tune, write_settings
from cardarena.engine import OptionError, RulesError, load


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A value network for ToraBato trained on a handful of games (a second or less)."""
    out = tmp_path_factory.mktemp("model") / "torabato.npz"
    train(TrainConfig("torabato", games=6, rounds=0, positions=4, hidden=(8,), epochs=2), out)
    return out


def config(model: Path, **changes: Any) -> TuneConfig:
    base: dict[str, Any] = dict(
        game="torabato",
        agent=f"expert:iterations=4,model={model}",
        against="random",
        trials=3,
        pairs=2,
        confirm_pairs=2,
        max_slowdown=None,
    )
    return TuneConfig(**{**base, **changes})


def test_every_trial_plays_the_same_deals_and_a_resumed_run_proposes_what_an_uninterrupted_one_would(
    tiny_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "tune.db"
    calls = {"n": 0}
    real = tuning.measure

    def interrupted_at_the_third(*args: Any, **kwargs: Any) -> Measured:
        calls["n"] += 1
        if calls["n"] == 3:  # the untuned reference, trial 2 (trial 1 is the untuned point), then Ctrl-C
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tuning, "measure", interrupted_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        tune(config(tiny_model, trials=4), store=store)
    monkeypatch.setattr(tuning, "measure", real)
    resumed = tune(config(tiny_model, trials=4), store=store)
    whole = tune(config(tiny_model, trials=4), jobs=2)
    assert [(t.number, t.settings, t.score) for t in resumed.trials] == [
        (t.number, t.settings, t.score) for t in whole.trials
    ]
    # the untuned settings are the first trial, answered from the reference measurement
    first = resumed.trials[0]
    assert first.repeated and first.settings == {k: resumed.untuned_settings[k] for k in first.settings}
    assert first.score == round(resumed.untuned_search.score, 4)
    # the resumed run played the two trials the interruption left, and the confirmation: 2 rounds x 2 seats for the
    # untuned settings, and as many for the best unless they are the untuned ones (measured once)
    confirmation = 4 if resumed.best.number == 0 else 8
    assert resumed.games == 2 * 4 + confirmation and whole.games == 4 + 3 * 4 + confirmation
    assert len({t.spec for t in whole.trials}) == 4 and all("iterations=4" in t.spec for t in whole.trials)


def test_a_trial_slower_than_the_limit_is_never_the_best(monkeypatch: pytest.MonkeyPatch, tiny_model: Path) -> None:
    def fake(game: Any, options: Any, spec: str, against: str, **kw: Any) -> Measured:
        slow = "rollout=heuristic" in spec
        score = 0.9 if slow else 0.6 if "depth=0," in spec else 0.3
        return Measured(spec, [score] * kw["pairs"], 2 * kw["pairs"], 0, 0.02 if slow else 0.01)

    monkeypatch.setattr(tuning, "measure", fake)
    result = tune(config(tiny_model, trials=12, max_slowdown=1.5, ranges=("depth=0:1",)))
    slow = [t for t in result.trials if t.settings["rollout"] == "heuristic"]
    assert slow and all(not t.feasible and t.objective == pytest.approx(t.score - 1) for t in slow)
    assert result.best.feasible and result.best.score == 0.6 and result.best.settings["rollout"] == "random"


def test_the_best_settings_are_written_into_the_model_and_the_expert_plays_with_them(
    tiny_model: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy.npz"
    copy.write_bytes(tiny_model.read_bytes())
    game = load("torabato")
    before = make_agent(f"expert:model={copy}", 0)
    assert isinstance(before, ExpertAgent) and before.settings(game)["c"] == 1.0  # the model's read (and cached)
    result = tune(config(copy, ranges=("c=1.5:2.5",)), require_model=True)
    best = result.best.settings
    assert best["c"] >= 1.5  # the untuned c=1 is outside the range: every trial is a new setting
    write_settings(result, command="cardarena tune torabato ...")
    net = ValueNet.load(copy)
    assert net.meta["search"] == best
    tuning_record = net.meta["tuning"]
    assert tuning_record["command"] == "cardarena tune torabato ..." and tuning_record["iterations"] == 4
    assert tuning_record["confirmation"]["tuned"]["spec"] == result.best.spec and tuning_record["previous_search"] == {}
    old = ValueNet.load(tiny_model)
    for (w, b), (w0, b0) in zip(net.layers, old.layers, strict=True):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    # the same process reads the new settings (the model's cache knows the file changed), and plays with them
    agent = make_agent(f"expert:iterations=4,model={copy}", 0)
    assert isinstance(agent, ExpertAgent)
    assert agent.settings(game) == {"iterations": 4, **best}
    assert model_for(game, str(copy)) is not None
    summary = strength("torabato", (f"expert:iterations=4,model={copy}", "random"), pairs=1)
    assert summary["errors"] == 0 and summary["games"] == 2


def test_the_trials_games_are_strengths_games_timed_in_cpu_seconds(tiny_model: Path) -> None:
    game = load("torabato")
    agents = (f"expert:iterations=4,model={tiny_model}", "heuristic")
    for index in range(4):
        mine, theirs = tuning.play_timed(game, agents, index, 5), play_one(game, agents, index, 5)
        assert (mine.result, mine.decisions, mine.a_decisions, mine.seed) == (
            theirs.result,
            theirs.decisions,
            theirs.a_decisions,
            theirs.seed,
        )


def test_a_measurement_over_the_time_limit_stops_after_a_quarter_of_its_games(tiny_model: Path) -> None:
    game = load("torabato")
    spec = f"expert:iterations=4,model={tiny_model}"
    whole = tuning.measure(game, {}, spec, "random", pairs=8, seed=0, jobs=1)
    assert not whole.stopped and whole.games == 16 and len(whole.scored) == 8
    cut = tuning.measure(game, {}, spec, "random", pairs=8, seed=0, jobs=1, limit=1e-9)
    assert cut.stopped and 4 <= cut.games < 16 and len(cut.rounds) == 8 and None in cut.rounds
    assert cut.rounds[0] == whole.rounds[0]  # the same deals, from the first


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("c=3:1", "LOW must be below HIGH"),
        ("c=-1:2", "c takes values from 0 to 100"),
        ("depth=0:2.5", "the bounds of depth are whole numbers"),
        ("rollout=random|greedy", "rollout is one of random, heuristic, not 'greedy'"),
        ("iterations=1:10", "iterations is not tuned"),
        ("width=1:2", "cannot tune 'width'; the tuned settings are c, depth, rollout, prior, candidates"),
        ("c", "must look like NAME=LOW:HIGH"),
        ("c=0:2:log", "a log scale needs LOW above 0"),
    ],
)
def test_a_bad_range_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        parse_range(text)


def test_the_default_depth_range_reaches_past_the_shipped_depth() -> None:
    # ToraBato's expert plays depth 20, and depth 40 scored as well or better against the heuristic (docs/agents.md,
    # "Why ToraBato's search saturates"): a range that ends at 20 cannot find it.
    assert [p.describe() for p in make_space(["depth"], ())] == ["0:60"]


def test_the_space_leaves_out_what_the_agent_spec_fixes() -> None:
    assert [p.name for p in make_space(None, (), fixed=["rollout"])] == ["c", "depth", "prior", "candidates"]
    assert [p.describe() for p in make_space(["c", "depth"], ["depth=0:5"])] == ["0.1:3 (log)", "0:5"]
    with pytest.raises(OptionError, match="rollout is given in the agent spec"):
        make_space(["rollout"], (), fixed=["rollout"])
    with pytest.raises(OptionError, match="prior is not tuned here"):
        make_space(["c"], ["prior=0:1"])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"agent": "ismcts:iterations=4"}, "tunes the expert's search settings"),
        ({"agent": "expert:width=3"}, "width"),
        ({"trials": 0}, "--trials must be at least 1"),
        ({"confirm_pairs": 1}, "--confirm-pairs at least 2"),
    ],
)
def test_a_bad_game_agent_or_count_fails_before_any_game(
    tiny_model: Path, changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message):  # an unknown game, option or agent parameter: all RulesError
        tune(config(tiny_model, **changes))


def test_writing_needs_a_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardarena.agents import expert

    monkeypatch.setattr(expert, "MODELS", tmp_path)  # no shipped model
    with pytest.raises(OptionError, match="has no trained model"):
        tune(TuneConfig("torabato", agent="expert:iterations=4", against="random", trials=1), require_model=True)
    bad = tmp_path / "bad.npz"
    bad.write_text("not a model")
    with pytest.raises(OptionError, match="not a cardarena value network"):
        tune(TuneConfig("torabato", agent=f"expert:model={bad}", against="random", trials=1))
