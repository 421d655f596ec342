"""Property tests of the effect engine: random effects written in the card language always resolve.

Hypothesis writes effects; a game with those cards is played at random. Every decision must be legal and
resolvable, pieces are conserved, and each effect ends (the game reaches its end).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardarena.engine import CardDataError, Rng

from .helpers import being, make_game
from .test_cards import conserved

RANKS = st.sampled_from(["any", "common", "heroic", "legendary", "upgraded", "non-legendary"])
WHERE = st.fixed_dictionaries(
    {},
    optional={
        "near": st.just("adjacent"),
        "max_distance": st.integers(0, 4),
        "on": st.sampled_from(["marked", "central", "red", "edge"]),
        "from": st.sampled_from(["self", "last", "summon"]),
        "next_to": st.sampled_from(["own", "enemy", "any"]),
    },
)
CONDITION = st.one_of(
    st.fixed_dictionaries({"destroyed": st.integers(1, 2), "by": st.sampled_from(["previous", "effect", "turn"])}),
    st.fixed_dictionaries(
        {
            "pieces": st.fixed_dictionaries(
                {}, optional={"who": st.sampled_from(["own", "enemy"]), "near": st.just("adjacent")}
            )
        },
        optional={"at_least": st.integers(0, 2), "at_most": st.integers(2, 5)},
    ),
)


@st.composite
def steps(draw: Any, depth: int = 0) -> dict[str, Any]:
    op = draw(
        st.sampled_from(
            ["gain_action", "draw_extra", "destroy", "upgrade", "downgrade", "convert", "place", "move", "leap"]
            + ["extra_turn", "recover"]
            + (["choose_one", "for_each"] if depth == 0 else [])
        )
    )
    step: dict[str, Any] = {"do": op}
    if op in ("draw_extra", "recover"):
        step["deck"] = draw(st.sampled_from(["school", "legend", "flare"]))
        if op == "recover" and draw(st.booleans()):
            step["may"] = True
    elif op == "choose_one":
        step["options"] = [[draw(steps(depth=1))], [draw(steps(depth=1))]]
    elif op == "for_each":
        step["on"] = draw(st.sampled_from(["marked", "central", "edge"]))
        step["steps"] = [draw(steps(depth=1)) for _ in range(draw(st.integers(1, 2)))]
        for sub in step["steps"]:
            if "near" in sub or "max_distance" in sub:
                sub["from"] = "each"
            elif sub["do"] in ("destroy", "upgrade", "downgrade", "convert") and draw(st.booleans()):
                sub.pop("count", None)
                sub["target"] = "each"
    elif op not in ("gain_action", "extra_turn"):
        step.update(draw(WHERE))
        if op != "place":
            step["rank"] = draw(RANKS)
        else:
            step["rank"] = draw(st.sampled_from(["common", "heroic", "legendary"]))
        if op in ("destroy", "upgrade", "downgrade", "move", "leap", "place"):
            step["who"] = draw(st.sampled_from(["own", "enemy", "any"] if op != "place" else ["own", "enemy"]))
        if op != "place":
            if draw(st.booleans()):
                step["ray"] = draw(st.sampled_from(["orthogonal", "diagonal", "any"]))
                step["first"] = draw(st.booleans())
            if draw(st.booleans()):
                step["connected"] = True
            if op in ("destroy", "convert", "move", "leap") and draw(st.booleans()):
                step["scores"] = False
            if draw(st.booleans()):
                step["repeat"] = draw(st.integers(1, 2))
                step["repeat_while"] = draw(st.sampled_from(["done", "destroyed"]))
        if op in ("move", "leap"):
            step["style"] = draw(st.sampled_from(["standard", "combat"]))
            step["times"] = draw(st.integers(1, 3))
            dest = draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "to_ray": st.sampled_from(["orthogonal", "diagonal", "any"]),
                        "to_empty": st.just(True),
                        "to_next_to": st.sampled_from(["own", "enemy", "any"]),
                    },
                )
            )
            step.update(dest)
            if op == "move" and "to_ray" in step and draw(st.booleans()):
                step["far"] = True
                step["times"] = 1
            if op == "leap" and "to_ray" in step and draw(st.booleans()):
                step["to_first"] = True
            if not step.get("to_empty") and draw(st.booleans()):
                step["to_who"] = draw(st.sampled_from(["own", "enemy", "any"]))
            if draw(st.booleans()):
                step["target"] = "self"
                step.pop("who", None)
        count = draw(st.sampled_from([1, 2, "all"]))
        if not (op in ("leap",) and count == "all") and step.get("target") != "self":
            step["count"] = count
        if draw(st.booleans()):
            step["up_to"] = True
    if depth == 0 and draw(st.booleans()):
        step["only_if"] = draw(st.sampled_from(["done", "not_done"]))
    if draw(st.integers(0, 3)) == 0:
        step["if"] = draw(CONDITION)
    return step


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(steps(), min_size=1, max_size=3), min_size=3, max_size=3), st.integers(0, 10_000))
def test_random_effects_always_resolve(effects: list[list[dict[str, Any]]], seed: int) -> None:
    patterns = ["c @", "c . *\n. @ .", "* c *\nc @ c"]
    cards = [being(f"gen-{i}", patterns[i], eff, rank="heroic") for i, eff in enumerate(effects)]
    try:
        game = make_game(*cards, max_turns=40)
    except CardDataError:
        assume(False)
        return
    game.options["school0"] = game.options["school1"] = "lab"
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    n = 0
    while not state.is_terminal():
        legal = state.playout_actions()
        assert legal
        state.apply(legal[rng.randbelow(len(legal))])
        conserved(state)
        n += 1
        assert n < 20_000
