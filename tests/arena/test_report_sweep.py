"""The balance report's sweeps (:mod:`cardarena.arena.sweep`, ``cardarena report GAME --sweep CARD.FIELD=a:b``):
a number swept over three values moves the outcome the expected way, in order; every value plays the same games
(common random numbers); a bad card, field, value type or range is refused before any game; one real game.

The toy here is :class:`~tests.arena.report_games.PlantedGame` reading its cards from a TOML file (what a sweep
edits), with a ``[rules]`` table: ``seat0_bonus`` is added to seat 0's total, ``spare`` is read by nobody.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardarena.arena import report as R
from cardarena.arena import sweep as S
from cardarena.cli.main import cli
from cardarena.engine import Game, Option, OptionError, Setup, load, registry

from .report_games import PlantedGame, PlantedState

TOY_CARDS = """\
[rules]
seat0_bonus = 0  # added to seat 0's total
spare = 0        # read by nobody: sweeping it changes no game

[[card]]
id = "a"
value = 1
note = "plain"

[[card]]
id = "b"
value = 2

[[card]]
id = "c"
value = 3

[[card]]
id = "d"
value = 4

[[card]]
id = "e"
value = 5

[[card]]
id = "f"
value = 6
"""


class TomlCardsGame(PlantedGame):
    """:class:`PlantedGame` with its cards in a TOML file (``cards=PATH``, the option a sweep edits), handed to
    PlantedGame as its ``name:value,...`` text; its loader takes values 0..99 only."""

    id = "toy-toml-cards"
    name = "Toy cards from a TOML file"
    option_spec = tuple(
        Option("cards", str, None, "the card file (TOML)", path=True) if o.name == "cards" else o
        for o in PlantedGame.option_spec
    )

    def setup(self) -> None:
        path = self.card_file()
        if path is None:
            raise OptionError("toy-toml-cards needs cards=FILE")
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for card in data["card"]:
            value = card["value"]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
                raise OptionError(f"card {card['id']!r}: value must be a whole number 0..99, not {value}")
        self.bonus = data["rules"]["seat0_bonus"]
        given = self.options
        self.options = {**given, "cards": ",".join(f"{card['id']}:{card['value']}" for card in data["card"])}
        try:
            super().setup()
        finally:
            self.options = given  # the path again, as the report records it and the sweep reads it

    def report_setup(self, seed: int) -> None:
        return None  # the cards and options as given in every game (whatever PlantedGame's setups become)

    def new_initial_state(self, seed: int = 0) -> PlantedState:
        state = PlantedState(self, seed)
        state.totals[0] += self.bonus
        return state


@pytest.fixture
def cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy's card file, with the toy registered for this test."""
    monkeypatch.setitem(registry._extra, TomlCardsGame.id, TomlCardsGame)
    path = tmp_path / "toy.toml"
    path.write_text(TOY_CARDS, encoding="utf-8")
    return path


def swept(cards: Path, sweep: str, n: int, **kw: Any) -> dict[str, Any]:
    the_plan = R.plan(
        TomlCardsGame.id,
        n=n,
        seed=3,
        agents=["random"],
        options={"cards": str(cards)},
        sweep=sweep,
        sweep_outcome=kw.pop("outcome", None),
        sweep_dir=cards.parent / "sweep",
    )
    return R.report(the_plan, jobs=1, bootstrap=0, **kw)


def test_a_cards_value_raised_raises_its_strength_in_order_and_fair_at_lies_between(cards: Path) -> None:
    data = swept(cards, "c.value=0:12:6", n=120)
    block = data["sweep"]
    assert (block["target"], block["kind"], block["name"], block["field"]) == ("c.value", "card", "c", "value")
    assert block["outcome"] == "strength" and block["fair_line"] == 0 and block["current"] == 3
    assert [p["value"] for p in block["points"]] == [0, 6, 12]
    strength = [p["card_points"] for p in block["points"]]
    assert strength[0] < 0 < strength[1] < strength[2], strength  # worth nothing, above the average, overpowered
    assert 0 < block["fair_at"] < 6  # the average card is worth about 3.5
    assert all(p["games"] == 120 and len(p["seat_scores"]) == 2 for p in block["points"])
    assert data["variants"][0]["options"]["cards"] == str(cards)  # the report's own variant is the file as given
    written = sorted(p.name for p in (cards.parent / "sweep").iterdir())
    assert written == ["toy-c.value=0.toml", "toy-c.value=12.toml", "toy-c.value=6.toml"]
    assert tomllib.loads((cards.parent / "sweep" / "toy-c.value=12.toml").read_text())["card"][2]["value"] == 12


def test_a_seats_number_moves_that_seats_score_up_and_fair_at_is_where_it_crosses_one_half(cards: Path) -> None:
    block = swept(cards, "rules.seat0_bonus=-4:4:4", n=60)["sweep"]
    assert block["kind"] == "table" and block["outcome"] == "seats"  # no strength for a rules table: seats
    assert block["seat"] == 0 and block["fair_line"] == 0.5
    scores = [p["seat_scores"][0] for p in block["points"]]
    assert scores[0] < 0.5 < scores[2] and scores[0] < scores[1] < scores[2], scores
    assert -4 < block["fair_at"] < 4
    assert set(block["fair_values"]) <= {0}  # a bonus of 4 either way is told apart from a fair seat
    lengths = swept(cards, "rules.seat0_bonus=-4:4:4", n=10, outcome="length")["sweep"]
    assert lengths["outcome"] == "length" and lengths["fair_at"] is None and lengths["fair_line"] is None


class SetupCardsGame(TomlCardsGame):
    """The TOML toy whose games are played with one or two rounds each, as its report setups draw them."""

    id = "toy-toml-setups"

    def report_setup(self, seed: int) -> Setup:
        rounds = 1 + seed % 2
        return Setup((("rounds", rounds),), (f"{rounds} rounds",) * 2, "build")


def test_every_value_plays_the_same_games_in_one_progress_bar(cards: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._extra, SetupCardsGame.id, SetupCardsGame)
    played: dict[str, list[tuple[Any, ...]]] = {}
    play = R.play_one

    def recorded(game: Game, index: int, seed: int, agents: Any, setup: Setup | None = None) -> dict[str, Any]:
        row = play(game, index, seed, agents, setup)
        played.setdefault(game.options["cards"], []).append(
            (index, row["seed"], tuple(agents), tuple(row["setup"]), game.options["rounds"])
        )
        return row

    monkeypatch.setattr(R, "play_one", recorded)
    bar: list[tuple[int, int, str]] = []
    the_plan = R.plan(
        SetupCardsGame.id,
        n=30,
        agents=["random"],
        options={"cards": str(cards)},
        sweep="rules.spare=0:2",
        sweep_dir=cards.parent / "sweep",
    )
    block = R.report(the_plan, bootstrap=0, progress=lambda *a: bar.append(a))["sweep"]
    assert len(played) == 3 and len({tuple(games) for games in played.values()}) == 1  # seeds, agents, setups
    assert {game[4] for game in next(iter(played.values()))} == {1, 2}  # the setups do vary from game to game
    games = [b for b in bar if b[2] == "games"]
    assert games[0] == (0, 90, "games") and games[-1] == (90, 90, "games")  # 3 variants (0 is the file's own)
    statistics = [b for b in bar if b[2].startswith("statistics")]
    assert statistics[0][0] == 0 and statistics[-1][0] == statistics[-1][1] > 0
    # a number nobody reads changes nothing: the same games, so the very same results
    first = block["points"][0]
    assert all(
        (p["seat_scores"], p["turns_mean"]) == (first["seat_scores"], first["turns_mean"]) for p in block["points"]
    )


@pytest.mark.parametrize(
    ("sweep", "message"),
    [
        ("z.value=1:3", "has no card 'z'; its entries are card: a, b, c, d, e, f; table: rules"),
        ("C.value=1:3", "(did you mean c?)"),
        ("c.valeu=1:3", "c has no field 'valeu'; its number fields: value"),
        ("a.note=1:3", "a.note is text ('plain'), not a number"),
        ("c.value=1:3:0.5", "c.value is a whole number (3) in toy.toml; the values 1:3:0.5 are not"),
        ("c.value=1:200:99", "toy-toml-cards refuses c.value = 100: card 'c': value must be a whole number 0..99"),
        ("c.value=1:30", "has 30 values; a sweep plays at most 12"),
        ("c.value=5:1", "must go up"),
        ("c.value=1:x", "--sweep takes CARD.FIELD=a:b[:step]"),
        ("c=1:3", "--sweep takes CARD.FIELD=a:b[:step]"),
        ("item:c.value=1:3", "has no item 'c'"),
    ],
)
def test_a_bad_sweep_is_refused_before_any_game(
    cards: Path, monkeypatch: pytest.MonkeyPatch, sweep: str, message: str
) -> None:
    monkeypatch.setattr(R, "play_one", lambda *a: pytest.fail("a game was played"))
    with pytest.raises(OptionError) as e:
        swept(cards, sweep, n=5)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert not (cards.parent / "sweep").exists() or not any((cards.parent / "sweep").iterdir())


def test_a_strength_is_refused_for_a_number_the_report_does_not_measure(cards: Path) -> None:
    with pytest.raises(OptionError, match=r"measures no strength for table 'rules'.*seats or length"):
        swept(cards, "rules.spare=0:2", n=5, outcome="strength")


def test_the_cli_refuses_a_bad_sweep_with_one_line_and_exit_2_and_writes_nothing(cards: Path) -> None:
    out = cards.parent / "out"
    result = CliRunner().invoke(
        cli, ["report", TomlCardsGame.id, "-o", f"cards={cards}", "--sweep", "c.value=1:200:99", "--out", str(out)]
    )
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and result.output.startswith("error: --sweep c.value:")
    assert not out.exists()


def test_values_and_crossings() -> None:
    assert S.parse_values("0.5:1.5:0.5") == (0.5, 1.0, 1.5)
    assert S.parse_values("-2:2:2") == (-2, 0, 2)
    assert S.crossing([0, 1, 2], [0.7, 0.6, 0.4], 0.5) == 1.5  # downwards too
    assert S.crossing([0, 1, 2], [None, -1.0, 1.0], 0.0) == 1.5  # a value without a strength is skipped
    assert S.crossing([0, 1], [None, None], 0.0) is None


def test_torabato_j_attack_swept_on_the_real_game(tmp_path: Path) -> None:
    """The real card file (ToraBato's J, a 1/1 for 1 mana) through the command line: the JSON's shape, and J
    stronger with 9 attack than with 1."""
    out = tmp_path / "report"
    args = ["report", "torabato", "-n", "80", "-j", "1", "--bootstrap", "0", "--sweep", "J.attack=1:9:4"]
    result = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "sweep: J.attack from 1 to 9: the card's strength" in result.output
    block = json.loads((out / "report.json").read_text(encoding="utf-8"))["sweep"]
    assert set(block) >= {"target", "kind", "name", "field", "outcome", "points", "fair_at", "method"}
    assert (block["target"], block["kind"], block["outcome"], block["current"]) == ("J.attack", "card", "strength", 1)
    assert [p["value"] for p in block["points"]] == [1, 5, 9]
    for p in block["points"]:
        assert set(p) == {
            "value",
            "games",
            "seat_scores",
            "seat_ci",
            "card_points",
            "card_points_ci",
            "turns_mean",
            "turns_ci",
        }
        assert p["games"] == 80 and len(p["seat_scores"]) == len(p["seat_ci"]) == 2
        assert p["turns_ci"][0] <= p["turns_mean"] <= p["turns_ci"][1]
    # 5 seeds of 5 at n=80 (4 of 5 at n=40, since J's uses are summoning, attacking and blocking with it, no
    # longer also setting it as mana)
    assert block["points"][2]["card_points"] > block["points"][0]["card_points"]
    assert block["points"][0]["turns_mean"] > block["points"][2]["turns_mean"]  # by 4 turns or more in those
    assert sorted(f.name for f in (out / "sweep").iterdir()) == ["cards-J.attack=5.toml", "cards-J.attack=9.toml"]


@pytest.mark.parametrize("game_id", ["torabato", "lyabi", "dicebattle", "laplaplace", "tashkalar"])
def test_every_card_of_the_shipped_files_can_be_named_for_a_sweep(game_id: str) -> None:
    """Each game's catalogue names its cards as its card file's tables do (Lyabi's ryabi and circles by colour
    and level); an effect's step that names a rank (Tash-Kalar's ``{ do = "place", rank = "heroic" }``) is no
    entry."""
    game = load(game_id)
    path = game.card_file()
    assert path is not None and path.name == "cards.toml"
    entries = game.card_entries(tomllib.loads(path.read_text(encoding="utf-8")))
    cards = {(d.kind, d.name) for d in game.involvement_catalogue() if d.kind in ("card", "flare", "circle")}
    assert cards and cards <= set(entries)
    assert all(kind in {"card", "flare", "circle", "item", "school", "table"} for kind, _ in entries), set(entries)
