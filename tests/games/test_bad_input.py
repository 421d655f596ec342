"""The kernel refuses what is not its own, in every game (property tests over arbitrary input).

At random reachable states every game is fed arbitrary objects as actions and arbitrary texts to read. The
properties, for every game:

- a refusal is always a ``RulesError`` (never ``TypeError``, ``KeyError``, ``IndexError``...), and leaves the state
  exactly as it was;
- whatever is accepted is recorded so that the record replays to the identical state;
- a record or a data file, however broken, is refused with a ``RulesError`` too.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardarena
from cardarena.engine import Action, Game, RecordError, Rng, RulesError, State

GAME_IDS = cardarena.games()
GAMES: dict[str, Game] = {gid: cardarena.load(gid) for gid in GAME_IDS}
GAMES_DIR = Path(cardarena.__file__).parent / "games"
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reach(game: Game, seed: int, steps: int) -> State:
    """A state reached by ``steps`` random legal actions from the initial state of ``seed``."""
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randbelow(len(legal))])
    return state


def _sample_actions() -> list[Action]:
    """A few real actions of every game, to be offered to the other games (their tuples may be equal)."""
    out: list[Action] = []
    for _gid, game in GAMES.items():
        for steps in (0, 5, 20):
            state = reach(game, 3, steps)
            out.extend(state.legal_actions()[:8])
    return out


FOREIGN = _sample_actions()
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12))
junk = st.one_of(
    scalars,
    st.just(()),
    st.just({}),
    st.lists(scalars, max_size=4),
    st.dictionaries(st.text(max_size=4), scalars, max_size=3),
    st.tuples(st.text(max_size=8), scalars, scalars),
    st.builds(lambda items: Action(tuple(items)), st.lists(scalars, max_size=4)),
    st.sampled_from(FOREIGN),
    st.sampled_from(FOREIGN).map(tuple),
    st.sampled_from(FOREIGN).map(lambda a: Action(tuple(a))),
)


def accepted(state: State, before: dict[str, Any], act: Callable[[], object]) -> bool:
    """Run ``act``: a refusal must be a ``RulesError`` that leaves ``state`` as it was (``before``); an accepted
    input must leave a record that replays to the identical state."""
    try:
        act()
    except RulesError:
        assert state.snapshot() == before
        return False
    record = json.loads(json.dumps(state.to_record()))
    assert cardarena.replay(record).snapshot() == state.snapshot()
    return True


@pytest.mark.parametrize("gid", GAME_IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), obj=junk, pick=st.integers(0, 10**6))
def test_apply_refuses_anything_not_its_own(gid: str, seed: int, steps: int, obj: Any, pick: int) -> None:
    game = GAMES[gid]
    state = reach(game, seed, steps)
    before = state.snapshot()
    # An equal plain tuple or bare Action of a legal move is refused too: its text may read back differently.
    candidates = [obj]
    if not state.is_terminal():
        legal = state.legal_actions()
        candidates += [tuple(legal[pick % len(legal)]), Action(tuple(legal[pick % len(legal)]))]
    for candidate in candidates:
        if accepted(state, before, lambda c=candidate: state.apply(c)):
            return


digit_junk = st.sampled_from(["²", "٣", "੩", "𝟗", "Ⅻ", "9" * 5000, "1_0", "-1", "0x1", "1e3", " ", "\x00"])
texts = st.one_of(st.text(max_size=30), digit_junk, st.lists(digit_junk, min_size=1, max_size=3).map(" ".join))


@pytest.mark.parametrize("gid", GAME_IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), tail=texts, pick=st.integers(0, 10**6))
def test_parse_action_refuses_bad_text(gid: str, seed: int, steps: int, tail: str, pick: int) -> None:
    """Arbitrary text, and the words of a real action with odd digits or junk put after them."""
    game = GAMES[gid]
    state = reach(game, seed, steps)
    before = state.snapshot()
    words = str(state.legal_actions()[pick % len(state.legal_actions())]).split() if not state.is_terminal() else []
    for text in (tail, " ".join([*words[:1], tail]), " ".join([*words, tail])):
        if accepted(state, before, lambda t=text: state.apply_text(t)):
            return


@pytest.mark.parametrize("gid", GAME_IDS)
@pytest.mark.parametrize("text", [None, 7, b"pass", ["pass"]])
def test_parse_action_refuses_non_text(gid: str, text: Any) -> None:
    game = GAMES[gid]
    with pytest.raises(cardarena.InvalidActionError, match="must be a string"):
        game.parse_action(game.new_initial_state(1), text)


json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
FIELDS = ("game", "version", "options", "seed", "actions", "result")


@pytest.mark.parametrize("gid", GAME_IDS)
@FUZZ
@given(seed=st.integers(0, 2**16), field=st.sampled_from(FIELDS), value=json_values, drop=st.booleans())
def test_broken_records_are_refused_with_record_errors(gid: str, seed: int, field: str, value: Any, drop: bool) -> None:
    record = json.loads(json.dumps(reach(GAMES[gid], seed, 30).to_record()))
    if drop:
        record.pop(field)
    else:
        record[field] = value
    with contextlib.suppress(RulesError):
        cardarena.replay(record, verify=True)


@pytest.mark.parametrize(
    "text",
    ["abc\x00def", "", "[", "[]", "null", "{" * 10, '{"a":' + "[" * 100000 + "]" * 100000 + "}"],
)
def test_malformed_record_texts(text: str) -> None:
    with pytest.raises(RecordError):
        cardarena.replay(text)


def test_record_fields_are_checked_strictly() -> None:
    record = reach(GAMES["torabato"], 1, 10).to_record()
    for field, value in [("version", None), ("options", []), ("seed", True), ("seed", 10**30), ("game", 5)]:
        with pytest.raises(RecordError, match=field):
            cardarena.replay({**record, field: value})
    with pytest.raises(RecordError, match="not valid JSON"):
        cardarena.replay('{"game": "torabato", "version": "2", "seed": ' + "9" * 5000 + ', "actions": []}')


def test_record_files_that_are_not_utf8_or_too_deep(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="cannot read"):
        cardarena.replay(bad)
    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' + "[" * 100000 + "]" * 100000 + "}")
    with pytest.raises(RecordError, match="not valid JSON"):
        cardarena.replay(deep)


# -- data files ----------------------------------------------------------------------------------------------
DATA_OPTIONS = [
    ("torabato", "cards", "torabato/data/cards.toml"),
    ("lyabi", "cards", "lyabi/data/cards.toml"),
    ("dicebattle", "cards", "dicebattle/data/cards.toml"),
    ("laplaplace", "cards", "laplaplace/data/cards.toml"),
    ("laplaplace", "build0", "laplaplace/data/builds/knight.toml"),
    ("tashkalar", "cards", "tashkalar/data/cards.toml"),
    ("tashkalar", "tasks", "tashkalar/data/tasks.toml"),
]
TOML_VALUES = ['""', '"x"', "-1", "0", "99999999999", "true", "[]", "{}", "1.5", '"²"', '[1, "a"]', "{ a = 1 }"]


@pytest.mark.parametrize(("gid", "option", "rel"), DATA_OPTIONS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_broken_data_files_give_rules_errors(gid: str, option: str, rel: str, data: st.DataObject) -> None:
    """A shipped data file with one line deleted, one value replaced by another type, or cut short."""
    import tempfile

    lines = (GAMES_DIR / rel).read_text(encoding="utf-8").splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    how = data.draw(st.sampled_from(["delete", "value", "cut", "duplicate"]))
    if how == "delete":
        del lines[i]
    elif how == "value":
        key, sep, _ = lines[i].partition("=")
        lines[i] = f"{key}= {data.draw(st.sampled_from(TOML_VALUES))}" if sep else lines[i] + " = 1"
    elif how == "cut":
        lines = lines[:i]
    else:
        lines.insert(i, lines[i])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.toml"
        path.write_text("\n".join(lines), encoding="utf-8")
        try:
            game = cardarena.load(gid, **{option: str(path)})
            reach(game, 1, 20)
            game.rules_text()
        except RulesError:
            pass
