"""The build decisions (ビルド: blind, open, league scenes), actions, hidden information and the battle log."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardarena
from cardarena.engine import CardDataError, IllegalActionError, InvalidActionError, OptionError, Rng
from cardarena.games.laplaplace import LaplaplaceState
from cardarena.games.laplaplace.constants import Kind, Phase

BUILDS = Path(cardarena.__file__).parent / "games" / "laplaplace" / "data" / "builds"


def new(seed: int = 0, **options: object) -> LaplaplaceState:
    state = cardarena.load("laplaplace", **options).new_initial_state(seed)
    assert isinstance(state, LaplaplaceState)
    return state


def play(state: LaplaplaceState, *texts: str) -> None:
    for t in texts:
        state.apply_text(t)


def test_blind_any_card_any_number_zero_to_eight() -> None:
    """ビルド: 各プレイヤーはカードを0〜8枚選んで一列に並べ…どのカードを何枚含めても構いません。"""
    s = new()
    n = len(s.game.table)
    assert len(s.legal_actions()) == n + 1  # every card, plus done
    play(s, *["add lance"] * 8)  # the eighth card completes the build
    assert s.done == [True, False] and s.current_player == 1
    play(s, "done")  # an empty build is allowed
    assert s.is_terminal()
    assert s.builds == [[s.game.table.find("lance").index] * 8, []]  # type: ignore[union-attr]
    assert s.returns() == [1.0, -1.0]  # 0 cards: 0 HP, a loss at the reveal


def test_build_order_is_top_to_bottom() -> None:
    """ビルド: 一列に並べ — the first card added is the top card."""
    s = new()
    play(s, "add jab", "add lance", "done", "add blank", "done")
    assert s.observation(0)["seats"][0]["build"] == ["jab", "lance"]
    assert "P0 reveals [Jab, Lance]" in s.log[0]


def test_blind_builds_are_secret_until_reveal() -> None:
    """ビルド (blind): both build in secret; the other seat sees nothing until the battle."""
    s = new()
    play(s, "add lance", "add rally")
    assert "build" not in s.observation(1)["seats"][0]
    assert "build" not in s.observation(None)["seats"][0]
    assert s.observation(0)["seats"][0]["build"] == ["lance", "rally"]
    assert s.game.action_seen_by(s, s.legal_actions()[0], 1) == ""  # not even the number of cards shows
    play(s, "done")
    obs = s.observation(1)
    assert "build" not in obs["seats"][0] and obs["done"] == [True, False]
    play(s, "add blank", "done")
    assert s.observation(1)["seats"][0]["build"] == ["lance", "rally"]
    assert s.observation(None)["log"] == s.log


def test_open_scene() -> None:
    """ビルド (open): 4枚のカードを選んでお互いに見せ合います…自分のオープンカードにカード4枚を足して組みます。"""
    s = new(build="open")
    assert s.phase is Phase.SHOW
    assert all(a[0] == Kind.SHOW for a in s.legal_actions())
    play(s, "show lance", "show lance", "show jab", "show rally")
    assert s.observation(0)["seats"][0]["open"] == ["lance", "lance", "jab", "rally"]
    assert s.observation(1)["seats"][0]["open"] is None  # hidden until both have shown 4
    play(s, "show blank", "show blank", "show shield", "show shield")
    assert s.phase is Phase.BUILD
    assert s.observation(1)["seats"][0]["open"] == ["lance", "lance", "jab", "rally"]
    assert s.observation(0)["seats"][1]["open"] == ["blank", "blank", "shield", "shield"]
    # 8 cards: the 4 open ones in any order plus 4 more; the last places must take the open cards left
    play(s, "add pierce", "add pierce", "add pierce", "add pierce")
    assert sorted(str(a) for a in s.legal_actions()) == ["add jab", "add lance", "add rally"]
    with pytest.raises(IllegalActionError, match="open cards"):
        s.apply_text("add blank")
    play(s, "add lance", "add rally", "add lance", "add jab")
    assert s.current_player == 1
    with pytest.raises(IllegalActionError):
        s.apply_text("done")  # exactly 4 + 4 in the open scene


def test_open_cards_listed_in_card_order() -> None:
    """ビルド (open): オープンカードの並び順は適当で構いません — so shows go in card-list order."""
    s = new(build="open")
    play(s, "show lance")
    with pytest.raises(IllegalActionError, match="order"):
        s.apply_text("show blank")  # Blank comes before Lance in the card list
    play(s, "show lance", "show nullify")


def test_league_scene_needs_build_files_and_has_no_decisions(tmp_path: Path) -> None:
    """ビルド (league): builds are read from files; the battle needs no decision."""
    with pytest.raises(OptionError, match="build0"):
        cardarena.load("laplaplace", build="league")
    s = new(build="league", build0=str(BUILDS / "knight.toml"), build1=str(BUILDS / "judge.toml"))
    assert s.is_terminal() and s.legal_actions() == []
    assert s.log[0].startswith("P0 reveals [Lance, Rally")


def test_build_file_for_one_seat() -> None:
    s = new(build1=str(BUILDS / "mirror.toml"))
    play(s, "add jab", "done")
    assert s.is_terminal()
    with pytest.raises(OptionError):
        cardarena.load("laplaplace", build="open", build0=str(BUILDS / "knight.toml"))


def test_actions_round_trip_and_errors() -> None:
    g = cardarena.load("laplaplace")
    s = g.new_initial_state(0)
    for i in range(g.num_distinct_actions):
        a = g.action_from_index(i)
        assert g.parse_action(s, str(a)) == a and g.action_index(a) == i
    assert g.parse_action(s, "add Second Wind") == g.parse_action(s, "add second-wind")
    for bad in ("", "add", "add nothing", "play lance", "done now"):
        with pytest.raises(InvalidActionError):
            g.parse_action(s, bad)
    with pytest.raises(IllegalActionError):
        s.apply_text("show lance")  # blind scene


def test_log_follows_the_battle() -> None:
    """The log a person can follow: each firing, each hit and each HP change."""
    s = new(build0=str(BUILDS / "knight.toml"), build1=str(BUILDS / "flurry-edge.toml"), build="league")
    text = "\n".join(s.log)
    assert "Turn 1:" in text and "First player:" in text
    assert "fires" in text and "hits" in text and "HP " in text and "-> " in text
    assert s.log[-1].startswith("Result:")
    rendered = s.render(None)
    assert "Battle log:" in rendered and s.log[-1] in rendered


def test_resample_keeps_observation() -> None:
    s = new(3)
    play(s, "add lance", "add jab", "done", "add blank")
    other = s.resample(1, Rng(9))
    assert other.observation(1) == s.observation(1)
    assert other.legal_actions() == s.legal_actions()


def test_bad_options() -> None:
    with pytest.raises(OptionError):
        cardarena.load("laplaplace", build="sealed")
    with pytest.raises(CardDataError, match="file not found"):
        cardarena.load("laplaplace", build0="/nonexistent/file.toml")
    with pytest.raises(CardDataError, match="file not found"):
        cardarena.load("laplaplace", cards="/nonexistent/cards.toml")


def test_rules_text_lists_cards() -> None:
    text = cardarena.load("laplaplace").rules_text()
    assert "## Rulings" in text and "`pierce`" in text and "## Options" in text


def test_max_turns_cannot_preempt_the_judgement() -> None:
    """決着: バトルが30ターンを超えたら、以下の優先順位で勝敗を判定します — the safety cap max_turns must not end a
    battle before that judgement: values below 30 are refused; from 30 up the judgement always comes first."""
    for bad in (1, 3, 29, "10"):
        with pytest.raises(OptionError, match=r"max_turns.*below 30.*judgement after turn 30"):
            cardarena.load("laplaplace", max_turns=bad)
    files = {"build": "league", "build0": str(BUILDS / "fortress.toml"), "build1": str(BUILDS / "mirror.toml")}
    default = new(**files)
    assert default.turn == 30 and "judgement" in default.log[-1]  # fortress vs mirror: a battle to the judgement
    for cap in (30, "31", 1000):
        capped = new(**files, max_turns=cap)
        assert capped.outcome == default.outcome and capped.log == default.log


def test_blind_build_size_is_secret() -> None:
    """ビルド (blind): 各プレイヤーはカードを0〜8枚選んで一列に並べ、構成を組みます; バトル: お互いの構成を同時に
    開示します — until the reveal the second builder learns nothing of the first build, not even whether it is full
    (a full build ends with its eighth card, a shorter one with ``done``: both must look the same)."""

    def seen_by_seat1(*texts: str) -> tuple[list[str], dict[str, object], str]:
        s = new(5)
        seen = []
        for t in texts:
            action = s.parse_legal(t)
            seen.append(s.game.action_seen_by(s, action, 1))
            s.apply(action)
        assert s.current_player == 1
        return [x for x in seen if x], s.observation(1), s.render(1)

    full = seen_by_seat1(*["add lance"] * 8)
    short = seen_by_seat1("add jab", "done")
    empty = seen_by_seat1("done")
    assert full == short == empty
    assert full[0] == ["finishes its build"]
    s = new(5)
    play(s, *["add lance"] * 7)
    assert s.game.action_seen_by(s, s.game.parse_action(s, "add jab"), None) == "finishes its build"
    assert s.game.action_seen_by(s, s.game.parse_action(s, "add jab"), 0).startswith("add Jab")


def _views(state: LaplaplaceState, seat: int) -> tuple[dict[str, object], str]:
    return state.observation(seat), state.render(seat)


def test_actions_another_seat_cannot_tell_apart_leave_it_the_same_view() -> None:
    """Hidden information (the harness property, checked here for every scene): for the actions of the seat to
    act that another seat cannot tell apart by ``action_seen_by``, that seat's observation (and picture) after
    each is the same; an action it does not see at all ("") leaves its view as it was."""
    games = [
        cardarena.load("laplaplace"),
        cardarena.load("laplaplace", build="open"),
        cardarena.load("laplaplace", build0=str(BUILDS / "knight.toml")),
    ]
    for game in games:
        for seed in range(6):
            rng = Rng(seed)
            state = game.new_initial_state(seed)
            assert isinstance(state, LaplaplaceState)
            while not state.is_terminal():
                actor = state.current_player
                assert actor is not None
                legal = state.legal_actions()
                for seat in (None, 1 - actor):
                    after: dict[str, tuple[dict[str, object], str]] = {}
                    for action in legal:
                        seen = game.action_seen_by(state, action, seat)
                        trial = state.clone()
                        trial.apply(action)
                        obs = trial.observation(seat), trial.render(seat)
                        if seen == "":
                            assert obs == (state.observation(seat), state.render(seat)), (str(action), seat)
                        assert after.setdefault(seen, obs) == obs, (str(action), seen, seat)
                state.apply(legal[rng.randbelow(len(legal))])


def test_resample_redraws_a_build_being_made() -> None:
    """Hidden information: a search for seat 1 while seat 0 builds gets no hint of seat 0's cards or count."""
    s = new(4)
    play(s, "add lance", "add lance", "add lance")
    sizes = set()
    for k in range(40):
        world = s.resample(1, Rng(k))
        assert world.observation(1) == s.observation(1) and world.current_player == 0
        assert len(world.builds[0]) < 8 and world.builds[1] == []
        sizes.add(len(world.builds[0]))
    assert len(sizes) > 3


@given(st.text(max_size=30) | st.sampled_from(["add lance", "show  Jab", "done", "add SECOND WIND", "add"]))
@settings(max_examples=200, deadline=None)
def test_parse_action_reads_or_refuses(text: str) -> None:
    g = cardarena.load("laplaplace")
    s = g.new_initial_state(0)
    try:
        a = g.parse_action(s, text)
    except InvalidActionError:
        return
    assert g.parse_action(s, str(a)) == a and 0 <= g.action_index(a) < g.num_distinct_actions


def test_a_position_built_with_edit_and_why_not() -> None:
    """ビルド (open): the last places must take the open cards left. A position built through the kernel
    (``State.edit``): ``why_not`` gives the reason of the same check that leaves an action out of the legal list."""
    s = new(build="open")
    idx = {c.id: c.index for c in s.game.table.cards}
    s.edit(
        shown=[[idx["jab"], idx["lance"], idx["lance"], idx["rally"]], [idx["blank"]] * 4],
        builds=[[idx["pierce"]] * 4, []],
    )
    assert s.phase is Phase.BUILD and s.current_player == 0
    legal = s.legal_actions()
    assert sorted(str(a) for a in legal) == ["add jab", "add lance", "add rally"]
    for a in (s.game.action_from_index(i) for i in range(s.game.num_distinct_actions)):
        assert (s.why_not(a) is None) == (a in legal), a
    assert s.why_not(s.game.parse_action(s, "add blank")) == "the remaining places must hold your open cards"
    assert s.why_not(s.game.parse_action(s, "show blank")) == "open cards are shown only at the start of the open scene"
    assert s.why_not(s.game.parse_action(s, "done")) == "in the open scene a build has exactly 4 open and 4 added cards"
    with pytest.raises(TypeError, match="no declared field"):
        s.edit(scene="blind")  # the scene is the game's option, not a field of the state
