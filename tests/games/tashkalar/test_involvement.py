"""The balance report's hooks (``involvement.py``): what is declared, what each action involves, how games end."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cardarena import engine
from cardarena.engine import Involvement, apply_involving
from cardarena.engine.harness import check_involvement
from cardarena.games.tashkalar.cards import default_path
from cardarena.games.tashkalar.cards.tasks import default_task_path
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.game import TashKalarGame
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import being, flare, make_game, position, set_item
from .test_highform import with_tasks

SMASH = being(
    "smasher", "c @", [{"do": "destroy", "who": "enemy", "count": "all", "near": "adjacent", "rank": "any"}], "common"
)
RAISE = being("raiser", "c @", [{"do": "upgrade", "who": "own", "near": "adjacent", "from": "self"}], "common")
IDLE = being("idler", "c @", [{"do": "destroy", "who": "enemy", "near": "adjacent"}], "common")
LEGEND = being("great-one", "h h @", [{"do": "gain_action"}], "legendary")
SPARK = flare("spark", 1, 1, [{"do": "gain_action"}], [{"do": "gain_action"}])


def lab(**options: Any) -> TashKalarGame:
    return make_game(SMASH, RAISE, IDLE, legends=(LEGEND,), flares=(SPARK,), **options)


def load(**options: Any) -> TashKalarGame:
    game = engine.load("tashkalar", **options)
    assert isinstance(game, TashKalarGame)
    return game


def start(game: TashKalarGame, seed: int) -> TashKalarState:
    st = game.new_initial_state(seed)
    assert isinstance(st, TashKalarState)
    return st


def step(st: TashKalarState, text: str) -> set[Involvement]:
    """Play ``text`` on ``st`` and return what the game says the action involved."""
    return set(apply_involving(st, text))


def names(found: set[Involvement], kind: str) -> set[tuple[int | None, str, str]]:
    return {(i.seat, i.name, i.verb) for i in found if i.kind == kind}


# -- random games of every mode --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "seeds"),
    [
        ({}, 6),
        ({"mode": "highform"}, 4),
        ({"mode": "melee", "players": 3}, 3),
        ({"mode": "melee", "players": 4}, 2),
        ({"teams": True, "players": 4}, 3),
        ({"mode": "highform", "teams": True, "players": 4}, 3),
    ],
    ids=["duel", "highform", "melee-3", "melee-4", "teams-deathmatch", "teams-highform"],
)
def test_random_games_involve_only_declared_entries(options: dict[str, Any], seeds: int) -> None:
    """Random games of every mode and seat count: every involvement is declared, hooks leave the states as they
    were, every end is one of the mode's end conditions; the seats' schools, draws and summons do occur."""
    game = load(**options)
    occurred = check_involvement(game, range(seeds))
    for key in ("rule:place", "rule:destroy", "rule:discard", "rule:final-round", "piece:common"):
        assert occurred[key] > 0, key
    assert sum(v for k, v in occurred.items() if k.startswith("card:")) > 0
    assert sum(v for k, v in occurred.items() if k.startswith("effect:")) > 0
    if options.get("mode") == "highform":
        assert sum(v for k, v in occurred.items() if k.startswith("task:")) > 0


def test_catalogue_declares_every_card_flare_effect_task_and_the_mode_rules() -> None:
    """Every being of every school, every legend and flare of the card file, each effect and flare half; tasks
    and the rules of the mode only where the mode has them (クラシック tasks, 乱戦 odd commons, チーム戦 handover)."""
    duel = load()
    declared = {(d.kind, d.name) for d in duel.involvement_catalogue()}
    cs = duel.cards
    assert {("card", c.id) for c in cs.cards if c.kind != "flare"} <= declared
    assert {("flare", cs.cards[c].id) for c in cs.flares} <= declared
    assert {("effect", f"{cs.cards[c].id}:{half}") for c in cs.flares for half in ("upper", "lower")} <= declared
    assert ("effect", "cinder-imp") in declared and ("piece", "legendary") in declared
    assert not any(kind == "task" for kind, _ in declared)
    assert ("rule", "resign") in declared and ("rule", "handover") not in declared
    assert ("rule", "odd-commons") not in declared and ("rule", "score-destroyed") in declared
    high = {(d.kind, d.name) for d in load(mode="highform").involvement_catalogue()}
    assert ("task", "havoc") in high and ("rule", "task") in high and ("rule", "legend-point") not in high
    melee = {(d.kind, d.name) for d in load(mode="melee", players=3).involvement_catalogue()}
    assert ("rule", "odd-commons") in melee and ("rule", "improvised-summon") in melee
    assert ("rule", "resign") not in melee
    team = {(d.kind, d.name) for d in load(teams=True, players=4).involvement_catalogue()}
    assert ("rule", "handover") in team


def test_a_tests_only_card_file_declares_its_extra_card() -> None:
    """A card file with a card of its own (here the lab's ``raiser``) declares it and its effect."""
    declared = {(d.kind, d.name): d.label for d in lab().involvement_catalogue()}
    assert declared[("card", "raiser")] == "Raiser (Lab, common)"
    assert declared[("effect", "raiser")] == "effect of Raiser"
    assert ("card", "great-one") in declared and ("flare", "spark") in declared
    assert ("card", "cinder-imp") not in declared


def test_initial_involvement_schools_shared_decks_and_opening_hands() -> None:
    """準備: each seat's school deck (in_school), the shared legend and flare decks (in_deck), 3 beings, 2 legends and
    1 flare drawn (drawn)."""
    game = load(school0="ember", school1="ember")
    st = start(game, 3)
    found = set(game.initial_involvement(st))
    ember = {game.cards.cards[c].id for c in game.cards.schools["ember"].cards}
    assert {i.name for i in found if i.seat == 0 and i.verb == "in_school"} == ember
    assert {i.name for i in found if i.seat == 1 and i.verb == "in_deck" and i.kind == "flare"} == {
        game.cards.cards[c].id for c in game.cards.flares
    }
    drawn = [i for i in found if i.seat == 1 and i.verb == "drawn"]
    assert len(drawn) == 6 and sum(i.kind == "flare" for i in drawn) == 1
    high = load(mode="highform")
    hs = start(high, 3)
    offered = {i.name for i in high.initial_involvement(hs) if i.kind == "task"}
    assert high.tasks is not None and offered == {high.tasks.tasks[t].id for t in hs.cur_t}


def test_resampled_states_give_declared_involvements() -> None:
    """The hooks read resampled worlds too (the report may be handed one): nothing undeclared comes out."""
    game = load()
    st = start(game, 7)
    while st.phase != Phase.MAIN:
        st.apply(st.legal_actions()[0])
    world = st.resample(0, 1)
    declared = {(d.kind, d.name) for d in game.involvement_catalogue()}
    assert {(i.kind, i.name) for i in game.initial_involvement(world)} <= declared
    before = world.clone()
    action = world.legal_actions()[0]
    world.apply(action)
    assert {(i.kind, i.name) for i in game.involvement(before, action, world)} <= declared


# -- exact positions -------------------------------------------------------------------------------------------


def test_summon_used_effect_fired_and_destroyed_pieces_affect_their_owner() -> None:
    """クリーチャーの召喚 and キーワード 破壊: the summoned being is USED by its summoner, its effect fired, and each
    destroyed enemy piece is AFFECTED for its owner (seat 1); the summoner's new piece is placed (USED)."""
    st = position(lab(), "d5:o e6:x e4:X", hand=("smasher",))
    found = step(st, "summon smasher at e5 r0")
    assert (0, "smasher", "summoned") in names(found, "card")
    assert (0, "smasher", "fired") in names(found, "effect")
    assert names(found, "piece") == {(0, "common", "placed"), (1, "common", "destroyed"), (1, "heroic", "destroyed")}
    assert (0, "destroy", "applied") in names(found, "rule")


def test_an_effect_that_does_nothing_is_not_fired() -> None:
    """Nothing to destroy: the being is summoned but its effect did nothing ("do what can be done")."""
    st = position(lab(), "d5:o", hand=("idler",))
    found = step(st, "summon idler at e5 r0")
    assert (0, "idler", "summoned") in names(found, "card")
    assert names(found, "effect") == set() and names(found, "piece") == {(0, "common", "placed")}  # its own piece


def test_upgrade_by_an_effect_is_a_rule_applied() -> None:
    """キーワード アップグレード: a common next to the raiser becomes heroic (a choice of the effect)."""
    st = position(lab(), "d5:o", hand=("raiser",))
    found = step(st, "summon raiser at e5 r0")
    if st.phase == Phase.EFFECT:  # the effect asks which piece
        found |= step(st, "choose d5")
    assert (0, "upgrade", "applied") in names(found, "rule")
    assert (0, "raiser", "fired") in names(found, "effect")


def test_end_of_turn_draws_are_available() -> None:
    """ターン終了時、手札を補充する: the beings drawn at the end of the turn are AVAILABLE (drawn) for their seat."""
    st = position(lab(), "d5:o", hand=("smasher",))
    found = step(st, "summon smasher at e5 r0")
    found |= step(st, "end")
    drawn = {i for i in found if i.verb == "drawn"}
    assert drawn and all(i.seat == 0 and i.kind == "card" for i in drawn)
    assert len(drawn) <= 3


def test_discard_and_put_under() -> None:
    """可能なアクション: the discard action (the card discarded) and cards put under their decks (returned)."""
    st = position(lab(), "", hand=("smasher", "raiser"), flares=("spark",))
    found = step(st, "discard smasher")
    assert (0, "smasher", "discarded") in names(found, "card") and (0, "discard", "applied") in names(found, "rule")
    found = step(st, "bottom spark")
    assert (0, "spark", "returned") in names(found, "flare") and (0, "put-under", "applied") in names(found, "rule")


def test_flare_played_with_its_halves_and_the_point_it_gives() -> None:
    """焰カードの発動 (対戦): the flare is USED, each half that applies fires, and the opponent scores 1."""
    st = position(lab(), "a4:x b4:X c4:X", flares=("spark",), actions=0)
    st.edit(phase=Phase.MAIN)
    found = step(st, "flare spark")
    assert (0, "spark", "played") in names(found, "flare")
    assert names(found, "effect") == {(0, "spark:upper", "fired"), (0, "spark:lower", "fired")}
    assert {(0, "flare", "applied"), (0, "flare-point", "applied")} <= names(found, "rule")


def test_legend_summon_and_its_point_in_deathmatch() -> None:
    """対戦: プレイヤーは伝説級ユニットを1体召喚するたびに1点を獲得する."""
    st = position(lab(), "c5:O d5:O", legends=("great-one",))
    found = step(st, "summon great-one at e5 r0")
    assert (0, "great-one", "summoned") in names(found, "card")
    assert {(0, "legend-summon", "applied"), (0, "legend-point", "applied")} <= names(found, "rule")
    assert (0, "great-one", "fired") in names(found, "effect")  # it gained an action


def test_points_for_destroyed_pieces_at_the_end_of_the_turn() -> None:
    """対戦: ターン終了時、破壊した敵ユニットの種類に応じて点数を獲得する."""
    st = position(lab(), "d5:o e6:X", hand=("smasher",), actions=1)
    found = step(st, "summon smasher at e5 r0")  # the last action: the turn ends, 1 point scored
    assert st.score == [1, 0]
    assert (0, "score-destroyed", "applied") in names(found, "rule")
    assert (1, "heroic", "destroyed") in names(found, "piece")


def test_melee_odd_commons_and_legend_point() -> None:
    """乱戦: 2-3 odd commons of different colours give a point in one of them; a legend summon a point too."""
    game = lab(mode="melee", players=4)
    st = position(game, "d5:o e6:x e4:v f5:s", hand=("smasher",))
    found = step(st, "summon smasher at e5 r0")
    assert {(s, "common", "destroyed") for s in (1, 2, 3)} <= names(found, "piece")
    step(st, "end")
    assert st.phase == Phase.PICK
    found = step(st, "score 3")
    assert (0, "odd-commons", "applied") in names(found, "rule")
    st = position(game, "c5:O d5:O", legends=("great-one",))
    step(st, "summon great-one at e5 r0")
    found = step(st, "score 2")
    assert (0, "legend-point", "applied") in names(found, "rule") and (0, "great-one", "fired") in names(
        found, "effect"
    )


def test_team_pieces_affect_both_teammates_and_handover() -> None:
    """チーム戦: a destroyed piece of a team colour is AFFECTED for both teammates; handing over is a rule."""
    game = lab(teams=True, players=4)
    st = position(game, "d5:o e6:x", hand=("smasher",))
    found = step(st, "summon smasher at e5 r0")
    assert {(1, "common", "destroyed"), (3, "common", "destroyed")} <= names(found, "piece")
    found = step(st, "handover")
    assert (0, "handover", "applied") in names(found, "rule")


def test_task_claimed_is_completed_and_claimable_tasks_are_available() -> None:
    """クラシック: ターン終了時、条件が適合するタスクカードを1枚だけ獲得できる (completed); those claimable are
    AVAILABLE, the next task turned is offered."""
    game = lab(mode="highform")
    st = with_tasks(position(game, "d5:o f5:x f4:x f6:x", hand=("smasher",)), "havoc", "red-vigil", "slant")
    step(st, "summon smasher at e5 r0")
    found = step(st, "end")
    assert (0, "havoc", "available") in names(found, "task")
    found = step(st, "claim havoc")
    tasks = names(found, "task")
    assert (0, "havoc", "completed") in tasks and (0, "task", "applied") in names(found, "rule")
    assert any(seat is None and verb == "offered" for seat, _, verb in tasks)


def test_last_school_card_drawn_triggers_the_end() -> None:
    """ゲームの終了: a seat drew the last card of its school deck (deck-exhausted), and the round is played out."""
    st = position(lab(), "")
    set_item(st, "deck_s", 0, st.deck_s[0][:3])
    found = step(st, "end")
    assert {(0, "deck-exhausted", "applied"), (0, "final-round", "applied")} <= names(found, "rule")


def test_summon_replace_move_and_convert() -> None:
    """キーワード: a summon onto an enemy piece destroys it, a combat move onto one destroys it, a convert destroys
    one and puts yours (移動, 破壊); each destroyed piece is AFFECTED for seat 1."""
    bash = being(
        "bash",
        "c @",
        [{"do": "move", "target": "self", "style": "combat"}, {"do": "convert", "near": "adjacent", "from": "self"}],
    )
    st = position(make_game(bash), "d5:o e5:x f5:x g5:x", hand=("bash",), actions=1)
    found = step(st, "summon bash at e5 r0")
    assert {(0, "summon-replace", "applied"), (0, "destroy", "applied")} <= names(found, "rule")
    assert (1, "common", "destroyed") in names(found, "piece") and names(found, "effect") == set()
    found = step(st, "move e5 f5")
    assert (0, "move", "applied") in names(found, "rule") and (1, "common", "destroyed") in names(found, "piece")
    assert (0, "bash", "fired") in names(found, "effect")
    found = step(st, "choose g5")
    assert (0, "convert", "applied") in names(found, "rule") and (1, "common", "destroyed") in names(found, "piece")


def test_out_of_pieces_recall() -> None:
    """ユニットの不足: a piece outside the pattern is taken back to summon (recall), then the being is placed."""
    st = position(lab(), "d5:o a5:o i5:O", hand=("raiser",), supply_two=(0, 16))
    step(st, "summon raiser at e5 r0")
    assert st.phase == Phase.SUMMON_RECALL
    found = step(st, "recall i5")
    assert (0, "recall", "applied") in names(found, "rule")
    assert names(found, "piece") == {(0, "common", "placed")}  # i5 taken back, not destroyed; the being placed


def test_extra_turn_and_recover() -> None:
    """An effect's extra turn (extra_turn) and a card taken from the discard pile (recover) are rules applied, and
    the effect fired."""
    again = being("again", "c @", [{"do": "extra_turn"}])
    st = position(make_game(again), "d5:o", hand=("again",), actions=1)
    found = step(st, "summon again at e5 r0")
    assert (0, "extra-turn", "applied") in names(found, "rule") and (0, "again", "fired") in names(found, "effect")
    game = make_game(being("finder", "c @", [{"do": "recover", "deck": "school", "may": True}]))
    st = position(game, "d5:o", hand=("finder",))
    set_item(st, "disc_s", 0, [game.cards.by_id["filler-0"].index])
    step(st, "summon finder at e5 r0")
    found = step(st, "take filler-0")
    assert (0, "take", "applied") in names(found, "rule") and (0, "finder", "fired") in names(found, "effect")
    assert (0, "filler-0", "drawn") in names(found, "card")


def test_legend_deck_reshuffled_when_empty() -> None:
    """焰カードと伝説級カードは山札がなくなった場合、捨て札をシャッフルして新たな山札とする."""
    game = lab()
    st = position(game, "")
    st.edit(deck_l=[], disc_l=[game.cards.by_id["great-one"].index, game.cards.by_id["filler-legend"].index])
    found = step(st, "end")
    assert (None, "reshuffle", "applied") in names(found, "rule")
    assert {(0, "great-one", "drawn"), (0, "filler-legend", "drawn")} <= names(found, "card")


def test_improvised_summon_in_melee() -> None:
    """乱戦: 即興召喚 (an enemy piece used as your own in a summon) is a rule applied."""
    game = make_game(being("liner", "c c @", [{"do": "gain_action"}]), mode="melee", players=3)
    st = position(game, "d5:o c5:x a5:v b5:v d6:v", hand=("liner",))
    found = step(st, "summon liner at e5 r0 using c5")
    assert {(0, "improvised-summon", "applied")} <= names(found, "rule")
    assert (0, "liner", "summoned") in names(found, "card") and (0, "liner", "fired") in names(found, "effect")


# -- end conditions --------------------------------------------------------------------------------------------


def _end(st: TashKalarState) -> None:
    while st.phase != Phase.OVER:
        step(st, "end")


def test_end_by_points_in_deathmatch() -> None:
    """ゲームの終了 (対戦): いずれかのプレイヤーが18点以上の得点を獲得した場合."""
    game = lab()
    st = position(game, "", actions=0)
    st.edit(score=[18, 3])
    _end(st)
    assert game.end_condition(st) == "points"
    assert {d.name for d in game.end_conditions()} == {"points", "deck-exhausted", "draw", "turn-cap"}


def test_end_by_the_last_school_card() -> None:
    """ゲームの終了: 自分の流派の山札の最後のカードを引いたとき; the score decides (seat 0 ahead)."""
    game = lab()
    st = position(game, "")
    set_item(st, "deck_s", 0, st.deck_s[0][:3])
    st.edit(score=[2, 0])
    _end(st)
    assert game.end_condition(st) == "deck-exhausted"


def test_end_by_resignation() -> None:
    """ゲームの終了: 2人ゲーム…プレイヤーはいつでも投了することができる."""
    game = lab(resign=True)
    st = position(game, "")
    found = step(st, "resign")
    assert (0, "resign", "applied") in names(found, "rule")
    assert game.end_condition(st) == "resignation"


def test_end_by_the_turn_cap() -> None:
    """The max_turns safety cap ends the game as a draw: "turn-cap"."""
    game = lab(max_turns=6)
    st = position(game, "")
    _end(st)
    assert st.capped and game.end_condition(st) == "turn-cap"


def test_end_in_a_draw_after_the_tie_breaks() -> None:
    """同点の場合: tied on points, upgraded pieces and pieces: a draw, and the tie-break rule applied."""
    game = lab()
    st = position(game, "a4:o a5:x")
    st.edit(score=[18, 18])
    found: set[Involvement] = set()
    while st.phase != Phase.OVER:
        found |= step(st, "end")
    assert game.end_condition(st) == "draw" and (None, "tie-break", "applied") in names(found, "rule")


def test_end_by_points_in_melee_and_high_form() -> None:
    """乱戦: 3人ゲームなら12点以上 in one colour; クラシック: 9点以上 (tasks and legendary pieces)."""
    game = lab(mode="melee", players=3)
    st = position(game, "")
    set_item(st, "mscore", 1, [0, 0, 12])
    _end(st)
    assert game.end_condition(st) == "points"
    assert "resignation" not in {d.name for d in game.end_conditions()}
    high = lab(mode="highform")
    st = position(high, "")
    st.edit(score=[9, 0])
    _end(st)
    assert high.end_condition(st) == "points"


ASH_HOUND = 'name = "Ash Hound"\nrank = "common"\npattern = """\nc\nc\n@\n"""\neffect = [{ do = "move",'


def changed_entries(a: dict[tuple[str, str], str], b: dict[tuple[str, str], str]) -> set[tuple[str, str]]:
    return {key for key in a.keys() | b.keys() if a.get(key) != b.get(key)}


@pytest.mark.parametrize(
    ("file", "old", "new", "entry", "shown"),
    [
        (
            "cards",
            ASH_HOUND + ' target = "self", style = "combat", times = 2',
            ASH_HOUND + ' target = "self", style = "combat", times = 3',
            ("card", "ash-hound"),
            "times=3",
        ),
        (
            "cards",
            'name = "Rally Cry"\nupper = 3\n',
            'name = "Rally Cry"\nupper = 2\n',
            ("flare", "rally-cry"),
            "upper=2",
        ),
        (
            "cards",
            "c h c\n. @ .\nc h c\n",
            "c h c\n. @ .\nc c c\n",
            ("card", "grand-summoner"),
            "pattern=c h c / . @ . / c c c",
        ),
        (
            "tasks",
            'id = "havoc"\nname = "Havoc"\ntype = "destruction"\npoints = 1\n',
            'id = "havoc"\nname = "Havoc"\ntype = "destruction"\npoints = 3\n',
            ("task", "havoc"),
            "points=3",
        ),
        # a field written out at its default is no change: nothing differs
        (
            "cards",
            ASH_HOUND,
            ASH_HOUND.replace("{ do", "{ may = false, do"),
            None,
            "",
        ),
    ],
    ids=["being-effect-number", "flare-threshold", "legend-pattern", "task-points", "default-written-out"],
)
def test_editing_one_number_of_a_file_changes_exactly_that_entrys_data(
    tmp_path: Path, file: str, old: str, new: str, entry: tuple[str, str] | None, shown: str
) -> None:
    """entry_data (issue 29, "what changed"): one number edited in a copy of the shipped card or task file changes
    the text of that card, flare or task, and no other entry (a card's effect entry has no data of its own)."""
    shipped_path = Path(default_path() if file == "cards" else default_task_path())
    text = shipped_path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    edited = tmp_path / f"{file}.toml"
    edited.write_text(text.replace(old, new), encoding="utf-8")
    shipped = load(mode="highform").entry_data()
    theirs = load(mode="highform", **{file: str(edited)}).entry_data()
    assert changed_entries(shipped, theirs) == ({entry} if entry else set())
    if entry is not None:
        assert shown in theirs[entry] and shown not in shipped[entry]
    catalogue = {(d.kind, d.name) for d in load(mode="highform").involvement_catalogue()}
    assert set(shipped) == {key for key in catalogue if key[0] in ("card", "flare", "task")}
    assert not any(key[0] == "task" for key in load().entry_data())  # tasks only where they are played


@pytest.mark.parametrize(
    "options",
    [{}, {"mode": "highform"}, {"mode": "melee", "players": 3}, {"mode": "deathmatch", "teams": True, "players": 4}],
    ids=["duel", "highform", "melee-3", "teams"],
)
def test_report_setup_draws_every_school_for_every_seat_mirrors_included(options: dict[str, Any]) -> None:
    """report_setup (issue 29): the schools the seats bring, drawn per game from its seed, in every mode; over
    many games each seat plays each school about equally often, mirrors happen, the labels are the schools'
    names, and the same seed gives the same schools (every variant plays the same ones)."""
    game = load(**options)
    schools = list(game.cards.schools)
    names = {game.cards.schools[s].name: s for s in schools}
    games = 400
    counts = Counter()
    mirrors = 0
    for seed in range(games):
        setup = game.report_setup(seed)
        assert setup is not None and setup.kind == "school" and setup == game.report_setup(seed)
        chosen = dict(setup.options)
        assert list(chosen) == [f"school{s}" for s in range(game.num_players)]
        assert [names[label] for label in setup.seats] == list(chosen.values())
        counts.update((seat, school) for seat, school in enumerate(chosen.values()))
        mirrors += len(set(chosen.values())) < game.num_players
    expected = games / len(schools)
    assert all(0.7 * expected < counts[seat, s] < 1.3 * expected for seat in range(game.num_players) for s in schools)
    assert mirrors > 0
    played = load(**options, **dict(game.report_setup(3).options))  # the options load as a game
    assert [played.options[f"school{s}"] for s in range(game.num_players)] == list(
        dict(game.report_setup(3).options).values()
    )


def test_report_setup_keeps_a_school_the_options_name() -> None:
    game = load(school1="ember")
    assert {dict(game.report_setup(seed).options)["school1"] for seed in range(50)} == {"ember"}
    assert len({dict(game.report_setup(seed).options)["school0"] for seed in range(50)}) == len(game.cards.schools)
