"""クラシック (High Form): the tasks, dealing them, claiming at the end of a turn, points, the end and tie-breaks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import cardarena
from cardarena.engine import CardDataError
from cardarena.games.tashkalar.board import NAME_SQ
from cardarena.games.tashkalar.cards.tasks import TASK_TYPES, build_tasks, load_tasks
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.rules import modes
from cardarena.games.tashkalar.rules.modes import points
from cardarena.games.tashkalar.rules.pieces import aside
from cardarena.games.tashkalar.rules.tasks import task_holds
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import being, board, legal, make_game, play, position, set_item

TASKS = load_tasks()
DESTROY_ADJ = being(
    "smasher", "c @", [{"do": "destroy", "who": "enemy", "count": "all", "near": "adjacent", "rank": "any"}]
)
LEGEND = being("great-one", "h h @", [{"do": "gain_action"}], "legendary")


def hf(**options: Any):  # type: ignore[no-untyped-def]
    return make_game(DESTROY_ADJ, legends=(LEGEND,), mode="highform", **options)


def with_tasks(st: TashKalarState, *ids: str, next_task: str | None = None) -> TashKalarState:
    st.edit(cur_t=[TASKS.by_id[i].index for i in ids])
    used = set(st.cur_t)
    if next_task is not None:
        st.edit(next_t=TASKS.by_id[next_task].index)
        used.add(st.next_t)
    st.edit(deck_t=[t.index for t in TASKS.tasks if t.index not in used])
    st.edit(t_bottom=0)
    return st


def test_the_project_ships_24_tasks_16_simple_8_advanced_in_the_families() -> None:
    assert len(TASKS.tasks) == 24
    assert sum(not t.advanced for t in TASKS.tasks) == 16
    assert {t.type for t in TASKS.tasks} == set(TASK_TYPES)
    assert all(1 <= t.points <= 3 for t in TASKS.tasks)
    kinds = {c.kind for t in TASKS.tasks for c in t.conditions}
    assert kinds == {"destroyed", "occupy", "summoned", "cross", "line", "chain", "surround"}


# Each task: a position where it holds for seat 0, and a near miss where it does not.
# dest: enemy (colour 1) commons, heroics, legendaries destroyed this turn; summoned: (square, rank) this turn.
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("havoc", {"dest": (3, 0, 0)}, {"dest": (2, 0, 0)}),
    ("breaker", {"dest": (1, 1, 0)}, {"dest": (2, 0, 0)}),
    ("rampage", {"dest": (3, 0, 1)}, {"dest": (3, 0, 0)}),
    ("tyrants-fall", {"dest": (1, 1, 1)}, {"dest": (2, 1, 0)}),
    ("red-vigil", {"pieces": "c8:o d2:o e5:o"}, {"pieces": "c8:o d2:o e5:x d3:o"}),
    ("green-vigil", {"pieces": "a5:o c3:o f8:o"}, {"pieces": "a5:o c3:o f7:o"}),
    ("colour-rite", {"summoned": ("e5", 2)}, {"summoned": ("e5", 1)}),
    ("prism", {"pieces": "c8:O d2:@ a5:O c3:O"}, {"pieces": "c8:O d2:o a5:O c3:O"}),
    ("hold-the-centre", {"pieces": "d4:o e4:o f4:o d5:o e5:o"}, {"pieces": "d4:o e4:o f4:o d5:o e5:x g5:o"}),
    ("high-seat", {"pieces": "d4:O e5:@ f6:O"}, {"pieces": "d4:O e5:@ f6:o"}),
    ("heart-guard", {"pieces": "e5:O d5:o f5:o e4:o e6:o"}, {"pieces": "e5:o d5:o f5:o e4:o e6:o"}),
    ("throne", {"pieces": "d4:O e4:O f4:O d5:o e5:o f5:o d6:o"}, {"pieces": "d4:O e4:O f4:o d5:o e5:o f5:o d6:o"}),
    ("rank-and-file", {"pieces": "a5:o b5:o c5:o d5:o e5:o"}, {"pieces": "a5:o b5:o c5:o d5:o f5:o"}),
    ("slant", {"pieces": "f3:o e4:o d5:o c6:o"}, {"pieces": "c3:o d4:o e5:o f5:o"}),
    ("vanguard", {"pieces": "c3:O d4:O e5:@"}, {"pieces": "c3:O d4:o e5:@"}),
    ("great-wall", {"pieces": "b5:o c5:o d5:o e5:o f5:o g5:o h5:o"}, {"pieces": "b5:o c5:o d5:o e5:o f5:o g5:o i5:o"}),
    ("reach", {"pieces": "e5:o e6:o f7:o e8:o e9:o"}, {"pieces": "e5:o e6:o e7:o e8:o"}),
    (
        "web",
        {"pieces": "a5:o b5:o c5:o d5:o e5:o f6:o g5:o h5:o"},
        {"pieces": "a5:o b5:o c5:o d5:o e5:o f5:o g5:o i5:o"},
    ),
    (
        "bridge",
        {"pieces": "e1:o e2:o e3:o d4:o e5:o e6:o e7:o f8:o e9:o"},
        {"pieces": "e1:o e2:o e3:o d4:o e5:o e6:o e7:o e9:o"},
    ),
    ("span", {"pieces": "b2:o c3:o d4:o e5:o f6:o g7:o h8:o"}, {"pieces": "c3:o d4:o e5:o f6:o g7:o h8:o"}),
    ("encircle", {"pieces": "e5:x d4:o e4:o f4:o d5:o f5:o d6:o"}, {"pieces": "e5:x d4:o e4:o f4:o d5:o f5:o"}),
    ("isolate", {"pieces": "e5:x d4:o e4:o f4:o"}, {"pieces": "e5:x d4:o e4:o f4:o e6:x"}),
    ("cage", {"pieces": "e5:X d4:o e4:o f4:o d5:o"}, {"pieces": "e5:x d4:o e4:o f4:o d5:o"}),
    ("siege", {"pieces": "e5:x d4:o e4:o f4:o d5:o f5:o d6:o e6:o"}, {"pieces": "e5:x d4:o e4:o f4:o d5:o f5:o d6:o"}),
]


def _case_state(spec: dict[str, Any]) -> TashKalarState:
    st = position(hf(), spec.get("pieces", ""))
    if "dest" in spec:
        st.edit(dest=[0, 0, 0, *spec["dest"]])
    if "summoned" in spec:
        sq, rank = spec["summoned"]
        st.edit(summoned=[NAME_SQ[sq] << 2 | rank])
    return st


def test_every_shipped_task_has_a_scenario() -> None:
    assert sorted(c[0] for c in CASES) == sorted(t.id for t in TASKS.tasks)


@pytest.mark.parametrize("task_id, yes, no", CASES, ids=[c[0] for c in CASES])
def test_task_condition(task_id: str, yes: dict[str, Any], no: dict[str, Any]) -> None:
    """ターン終了時、プレイヤーは条件が適合するタスクカードを1枚だけ獲得できる: each task's condition."""
    task = TASKS.by_id[task_id]
    assert task_holds(_case_state(yes), 0, task), f"{task_id} should hold: {task.text}"
    assert not task_holds(_case_state(no), 0, task), f"{task_id} should not hold"
    # the same position does not give the task to the other colour
    assert not task_holds(_case_state(yes), 1, task)


def test_tasks_count_destruction_and_summons_of_this_turn_only() -> None:
    g = hf()
    st = with_tasks(position(g, "d5:o f5:x f4:x f6:x", hand=("smasher",)), "havoc", "red-vigil", "slant")
    play(st, "summon smasher at e5 r0")
    assert st.dest[3:] == [3, 0, 0]
    assert st.summoned == [NAME_SQ["e5"] << 2 | 2]
    assert st.observation(0)["summoned_this_turn"] == [[], ["e5"], []]
    play(st, "end")
    assert st.phase == Phase.CLAIM and legal(st) == ["claim havoc", "skip"]
    play(st, "claim havoc")
    assert st.player == 1 and st.phase == Phase.MAIN
    assert st.dest == [0] * 6 and st.summoned == []


def test_destroyed_pieces_go_back_at_once_in_high_form() -> None:
    st = position(hf(), "d5:o f5:x", hand=("smasher",))
    before = st.supply_two[1]
    play(st, "summon smasher at e5 r0")
    assert st.supply_two[1] == before + 1 and aside(st) == [0, 0, 0, 0]


def test_claim_at_most_one_task_then_the_next_task_refills_and_a_new_next_is_turned() -> None:
    """タスクの山札の1番上の『次のタスク』を今獲得されたタスクの代わりに補充し…新たな『次のタスク』とする."""
    st = with_tasks(
        position(hf(), "c8:o d2:o e5:o a5:o c3:o f8:o"), "red-vigil", "green-vigil", "web", next_task="slant"
    )
    deck_before = len(st.deck_t)
    play(st, "place a4", "place a3")
    assert st.phase == Phase.CLAIM
    assert legal(st) == ["claim red-vigil", "claim green-vigil", "skip"]
    play(st, "claim green-vigil")
    ids = [TASKS.tasks[t].id for t in st.cur_t]
    assert ids == ["red-vigil", "slant", "web"]
    assert st.next_t >= 0 and len(st.deck_t) < deck_before
    assert st.score == [1, 0] and [TASKS.tasks[t].id for t in st.claimed[0]] == ["green-vigil"]
    assert st.player == 1  # only one task per turn


def test_claiming_is_optional() -> None:
    st = with_tasks(position(hf(), "c8:o d2:o e5:o"), "red-vigil", "green-vigil", "web", next_task="slant")
    play(st, "end", "skip")
    assert st.score == [0, 0] and st.player == 1 and len(st.cur_t) == 3


def test_no_claim_decision_when_no_task_holds() -> None:
    st = with_tasks(position(hf(), "c8:o"), "red-vigil", "green-vigil", "web", next_task="slant")
    play(st, "end")
    assert st.phase == Phase.MAIN and st.player == 1


def test_the_next_task_is_not_claimable() -> None:
    st = with_tasks(position(hf(), "c8:o d2:o e5:o"), "green-vigil", "web", "slant", next_task="red-vigil")
    play(st, "end")
    assert st.phase == Phase.MAIN and st.score == [0, 0]


def test_empty_task_deck_leaves_the_slot_empty() -> None:
    st = with_tasks(position(hf(), "c8:o d2:o e5:o"), "red-vigil", "green-vigil", "web")
    st.edit(deck_t=[])
    st.edit(next_t=-1)
    play(st, "end", "claim red-vigil")
    assert [TASKS.tasks[t].id for t in st.cur_t] == ["green-vigil", "web"]


def _tiny(spec: list[tuple[str, str, bool]]) -> Any:
    raw = {
        "task": [
            {
                "id": tid,
                "name": tid,
                "type": ty,
                "advanced": adv,
                "points": 1,
                "conditions": [{"kind": "destroyed", "count": 9}],
            }
            for tid, ty, adv in spec
        ]
    }
    return build_tasks(raw, file="<tiny tasks>")


def test_dealing_skips_advanced_tasks_and_a_third_task_of_the_same_type() -> None:
    """上級タスクがめくられた場合捨て札にする…3枚目のタスクカードの種類が先に公開された2枚と同じ場合…捨てて."""
    # the deck is turned from its end: a1 (advanced), c1, c2, a2 (advanced), c3 (third "centre"), l1, then s1...
    spec = [
        ("s1", "squares", False),
        ("s2", "squares", False),
        ("l1", "lines", False),
        ("c3", "centre", False),
        ("a2", "destruction", True),
        ("c2", "centre", False),
        ("c1", "centre", False),
        ("a1", "destruction", True),
    ]
    g = hf()
    g.tasks = _tiny(spec)
    st = position(g)
    # deal_tasks shuffles the deck, turns the tasks, shuffles the put-back ones in, and turns the next task: the same
    # steps here with the deck kept in the order given
    deck = list(range(len(spec)))
    current, put_back = modes.turn_tasks(g.tasks, deck)
    names = [g.tasks.tasks[t].id for t in current]
    assert names == ["c1", "c2", "l1"]
    st.edit(deck_t=deck + put_back, cur_t=current, t_bottom=0)
    modes.flip_next(st)
    # the discarded ones (a1, a2, c3) went back into the deck (s1 s2 a1 a2 c3, top last); the next task is the top
    # card: c3 would make a third "centre" among the four face-up tasks, so it goes under the deck, and a2 (an
    # advanced task may be the next task) is turned instead
    assert g.tasks.tasks[st.next_t].id == "a2"
    assert [g.tasks.tasks[t].id for t in st.deck_t] == ["c3", "s1", "s2", "a1"]
    assert st.t_bottom == 1


def test_next_task_never_makes_three_of_a_type_among_the_four() -> None:
    """表向きになっている4枚のタスクカードのうち3枚が同じ種類となった場合…次のカードを表向きにする."""
    g = cardarena.load("tashkalar", mode="highform")
    for seed in range(150):
        st = g.new_initial_state(seed)
        cur = [TASKS.tasks[t] for t in st.cur_t]
        assert len(cur) == 3 and not any(t.advanced for t in cur)
        assert len({t.type for t in cur}) >= 2
        types = [t.type for t in cur] + [TASKS.tasks[st.next_t].type]
        assert max(types.count(x) for x in types) <= 2


def test_high_form_supplies_and_no_setup_pieces() -> None:
    """ゲーム開始時にゲームボード上にユニットは無い; 17 two-sided and 3 legendary pieces each."""
    st = cardarena.load("tashkalar", mode="highform").new_initial_state(4)
    assert st.phase == Phase.MAIN and st.player == 0 and st.actions == 1
    assert st.supply_two == [17, 17] and st.supply_leg == [3, 3]
    assert not any(st.board)


def test_points_are_tasks_plus_legendary_pieces_on_the_board() -> None:
    st = position(hf(), "e5:@ c3:@ d4:# f4:O")
    st.edit(score=[3, 1])
    assert points(st, 0) == 5 and points(st, 1) == 2
    assert st.observation(0)["points"] == [5, 2]


def test_legend_summon_and_flare_score_nothing_in_high_form() -> None:
    st = position(hf(), "c5:O d5:O", legends=("great-one",))
    play(st, "summon great-one at e5 r0")
    assert st.score == [0, 0] and points(st, 0) == 1
    fl = make_game(
        mode="highform",
        flares=(
            {
                "id": "spark",
                "name": "Spark",
                "upper": 1,
                "lower": 1,
                "upper_effect": [{"do": "gain_action"}],
                "lower_effect": [{"do": "gain_action"}],
            },
        ),
    )
    st = position(fl, "a5:x b5:x", flares=("spark",))
    play(st, "flare spark")
    assert st.score == [0, 0]


def test_nine_points_trigger_the_final_round() -> None:
    """いずれかのプレイヤーのターン終了時、9点以上の得点を獲得したプレイヤーがいた場合…ゲーム終了の条件が満たされる."""
    st = position(hf(), "e5:@")
    st.edit(score=[8, 0])
    play(st, "end")
    assert st.final_left == 2 and "9 points" in st.trigger
    play(st, "end")  # seat 1's last turn
    assert st.phase == Phase.MAIN and st.player == 0
    play(st, "end")  # the player who triggered it takes the last turn
    assert st.phase == Phase.OVER and st.returns() == [1.0, -1.0]


def test_eight_points_do_not_trigger() -> None:
    st = position(hf(), "")
    st.edit(score=[8, 0])
    play(st, "end")
    assert st.final_left == -1


def test_high_form_tie_breaks_upgraded_then_pieces_then_draw() -> None:
    """同点の場合…アップグレードされたユニット数の多い側が勝者…ユニット数が多い側…それでも同点の場合は引き分け."""
    for pieces, expected in (
        ("a5:O a4:x b4:x", [1.0, -1.0]),
        ("a5:o a4:x", [0.0, 0.0]),
        ("a5:o b5:o a4:x", [1.0, -1.0]),
        ("a5:o a4:X", [-1.0, 1.0]),
    ):
        st = position(hf(), pieces)
        st.edit(score=[2, 2], phase=Phase.OVER)
        assert st.returns() == expected, pieces


def test_task_file_errors_name_the_file_the_task_and_the_field() -> None:
    good = {"id": "t", "name": "T", "type": "lines", "points": 1, "conditions": [{"kind": "line", "count": 3}]}
    with pytest.raises(CardDataError) as e:
        build_tasks({"task": [dict(good, points=4)]}, file="f.toml")
    assert e.value.card == "t" and "points" in str(e.value.field)
    with pytest.raises(CardDataError, match="area"):
        build_tasks({"task": [dict(good, conditions=[{"kind": "occupy"}])]}, file="f.toml")
    with pytest.raises(CardDataError, match="two tasks"):
        build_tasks({"task": [good, good]}, file="f.toml")
    with pytest.raises(CardDataError, match="at least 3 simple"):
        build_tasks({"task": [good]}, file="f.toml")
    with pytest.raises(CardDataError, match="file not found"):
        load_tasks("/nonexistent/tasks.toml")


def test_task_option_reads_another_file(tmp_path: Any) -> None:
    path = tmp_path / "tasks.toml"
    path.write_text(
        "\n".join(
            f'[[task]]\nid = "t{i}"\nname = "T{i}"\ntype = "{ty}"\npoints = 1\n'
            f'conditions = [{{ kind = "occupy", area = "central", count = {i + 1} }}]\n'
            for i, ty in enumerate(["lines", "centre", "chains", "lines"])
        ),
        encoding="utf-8",
    )
    g = cardarena.load("tashkalar", mode="highform", tasks=str(path))
    assert g.tasks is not None and len(g.tasks.tasks) == 4
    st = g.new_initial_state(0)
    assert len(st.cur_t) == 3 and st.next_t >= 0


def test_summoned_tasks_count_summons_not_squares(tmp_path: Any) -> None:
    """このターンに…召喚した: two summons on the same square in one turn are two summons."""
    path = tmp_path / "tasks.toml"
    twice = '[[task]]\nid = "twice"\nname = "Twice"\ntype = "centre"\npoints = 1\n'
    twice += 'conditions = [{ kind = "summoned", area = "central", rank = "any", count = 2 }]\n'
    fillers = "".join(
        f'[[task]]\nid = "t{i}"\nname = "T{i}"\ntype = "{ty}"\npoints = 1\n'
        f'conditions = [{{ kind = "destroyed", count = 9 }}]\n'
        for i, ty in enumerate(["lines", "chains", "surround"])
    )
    path.write_text(twice + fillers, encoding="utf-8")
    g = make_game(
        being("one", "c @", [], "common"), being("two", "c @", [], "common"), mode="highform", tasks=str(path)
    )
    assert g.tasks is not None
    st = position(g, "d5:o", hand=("one", "two"))
    st.edit(cur_t=[g.tasks.by_id[t].index for t in ("twice", "t0", "t1")])
    play(st, "summon one at e5 r0", "summon two at e5 r0")  # the second destroys your own common on e5
    assert board(st) == "d5:o e5:o"
    assert task_holds(st, 0, g.tasks.by_id["twice"])
    assert legal(st) == ["claim twice", "skip"]
    st = position(g, "d5:o", hand=("one", "two"))
    st.edit(cur_t=[g.tasks.by_id[t].index for t in ("twice", "t0", "t1")])
    play(st, "summon one at e5 r0")
    assert not task_holds(st, 0, g.tasks.by_id["twice"])  # one summon is not two


def test_high_form_also_ends_when_a_school_deck_runs_out() -> None:
    """ゲームの終了の条件は、いずれかのプレイヤーが自分の流派の山札の最後のカードを引いたときに満たされる."""
    st = position(hf(), "")
    set_item(st, "deck_s", 0, st.deck_s[0][:3])
    play(st, "end")
    assert st.deck_out[0] and st.final_left == 2 and "last card" in st.trigger


_conditions = hst.fixed_dictionaries(
    {},
    optional={
        "kind": hst.sampled_from(["destroyed", "occupy", "summoned", "cross", "line", "chain", "surround", "x"]),
        "count": hst.integers(-1, 12),
        "upgraded": hst.integers(-1, 4),
        "rank": hst.sampled_from(["any", "upgraded", "legendary", "bad"]),
        "area": hst.sampled_from(["red", "green", "central", "edge", "nowhere"]),
        "reaches": hst.sampled_from(["opposite-sides", "centre-and-edge", "moon"]),
        "isolated": hst.booleans(),
    },
)


@settings(max_examples=200, deadline=None)
@given(_conditions, hst.integers(0, 5))
def test_task_validation_accepts_or_names_the_task_and_field(cond: dict[str, Any], points: int) -> None:
    good = [
        {"id": f"g{i}", "name": "G", "type": ty, "points": 1, "conditions": [{"kind": "line", "count": 3}]}
        for i, ty in enumerate(["lines", "centre", "chains"])
    ]
    task = {"id": "probe", "name": "Probe", "type": "lines", "points": points, "conditions": [cond]}
    try:
        ts = build_tasks({"task": [*good, task]}, file="p.toml")
    except CardDataError as e:
        assert e.card == "probe" and e.field
        return
    probe = ts.by_id["probe"]
    st = position(hf(), "e5:o d4:x")
    assert isinstance(task_holds(st, 0, probe), bool)
