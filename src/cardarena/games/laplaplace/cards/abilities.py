"""The small ability language of Laplaplace cards, and its parser.

An ability is one line::

    <timing> <limit>* <tag>* effect ; effect ; ...

>>> a = parse_ability("<A><トップ> damage enemy 1 x3")
>>> a.timing == Timing.ACTION, a.top, a.effects
(True, True, (Effect(op='damage', args=('enemy', 1, 3)),))
>>> parse_ability("<E:enemy_damage min=2> reflect").trigger_min
2

Timings: ``<A>`` (action), ``<E:trigger>`` (event), ``<ビルド>`` (build), ``<常態>`` (always on).
Limits: ``<L:condition>`` and ``<トップ>``. Tags: ``[除去]``, ``[ダウンレス]``, ``[迎撃不可]``.
``docs/games/laplaplace.md`` lists every trigger, condition and effect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

from ..constants import ACTION, BUILD, CONST, EVENT, INCREASE, OTHER, REDUCTION, REFLECTION, Timing

#: Event triggers, with the rulebook phrase each one stands for.
TRIGGERS: dict[str, str] = {
    "above_downed": "一つ上のカードがダウンされる",
    "targeted": "このカードが敵の能力の効果のターゲットになる",
    "enemy_damage": "敵の能力による自分へのダメージ",
    "my_damage": "自分の能力による敵へのダメージ",
    "my_target_list": "自分の能力でターゲットリストが発生",
    "first_player_phase": "先攻後攻決定フェイズ",
    "enemy_event": "自分のカードの能力をトリガーとして敵のEventが発動",
}

#: ``<L:…>`` conditions.
CONDITIONS: dict[str, str] = {
    "hp_at_most_half_base": "HPが基礎HPの半分以下",
    "shared_up_card": "敵と自分にアップ状態の同カードがある",
    "source_in_play": "ダメージの発生源となったカードが場に存在している",
}

TAGS: dict[str, str] = {"除去": "remove", "ダウンレス": "downless", "迎撃不可": "unblockable"}


class AbilityError(ValueError):
    """An ability line that does not follow the ability language (the loader names the file and card)."""


def _by_fields(value: Effect | Ability) -> tuple[Any, ...]:
    """Pickle a frozen dataclass through its constructor: compiled, it has no ``__dict__`` to restore, and its
    frozen ``__setattr__`` refuses the attributes one by one."""
    return type(value), tuple([getattr(value, f.name) for f in fields(value)])


@dataclass(frozen=True)
class Effect:
    op: str
    args: tuple[Any, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)


@dataclass(frozen=True)
class Ability:
    """One parsed ability. ``stage`` orders damage events (``Stage`` in constants.py, as a plain int)."""

    timing: Timing
    trigger: str | None
    trigger_min: int
    limits: tuple[str, ...]
    top: bool
    remove: bool
    downless: bool
    unblockable: bool
    effects: tuple[Effect, ...]
    text: str
    stage: int = int(OTHER)
    plain_damage: tuple[int, int] | None = None  # (amount, times) when the only effect is `damage enemy`

    def __reduce__(self) -> tuple[Any, ...]:
        return _by_fields(self)


_HEAD = re.compile(r"\s*(<[^<>]*>|\[[^\[\]]*\])")
_WORD = re.compile(r"^[a-z_0-9+\-]+$")


def _int(token: str, what: str) -> int:
    if not re.fullmatch(r"\d+", token):
        raise AbilityError(f"{what} must be a whole number, not {token!r}")
    return int(token)


def _expect(words: list[str], n: int, usage: str) -> None:
    if len(words) != n:
        raise AbilityError(f"expected `{usage}`, got `{' '.join(words)}`")


def _parse_damage(words: list[str], text: str) -> Effect:
    """``damage enemy|self|above_base N [xM]``."""
    if len(words) not in (3, 4) or words[1] not in ("enemy", "self", "above_base"):
        raise AbilityError(f"expected `damage enemy|self|above_base N [xM]`, got `{text}`")
    amount = _int(words[2], "damage amount")
    times = 1
    if len(words) == 4:
        if not words[3].startswith("x"):
            raise AbilityError(f"repeat count must look like x3, not {words[3]!r}")
        times = _int(words[3][1:], "repeat count")
    if amount < 1 or times < 1:
        raise AbilityError("damage amount and repeat count must be at least 1")
    return Effect("damage", (words[1], amount, times))


def _parse_amount(op: str, words: list[str], text: str) -> Effect:
    """``modify +N|-N`` (N ≥ 1) and ``speed +N``."""
    if op == "modify":
        _expect(words, 2, "modify +N|-N")
        m = re.fullmatch(r"([+-])(\d+)", words[1])
        if not m or int(m.group(2)) == 0:
            raise AbilityError(f"expected `modify +N` or `modify -N` (N ≥ 1), got `{text}`")
        return Effect(op, (int(m.group(2)) * (1 if m.group(1) == "+" else -1),))
    _expect(words, 2, "speed +N")
    m = re.fullmatch(r"\+(\d+)", words[1])
    if not m:
        raise AbilityError(f"expected `speed +N`, got `{text}`")
    return Effect(op, (int(m.group(1)),))


def _parse_effect(text: str) -> Effect:
    words = text.split()
    if not words:
        raise AbilityError("empty effect (two ';' in a row?)")
    for w in words:
        if not _WORD.match(w):
            raise AbilityError(f"unexpected word {w!r} in effect `{text}`")
    op = words[0]
    if op == "damage":
        return _parse_damage(words, text)
    if op in (
        "heal_to_base",
        "initial_hp_plus_half_base",
        "remove_self",
        "ignore_effect",
        "reflect",
        "negate_event",
        "no_up_phase",
        "above_ignores_top",
    ):
        _expect(words, 1, op)
        return Effect(op)
    if op == "list":
        if len(words) != 3 or words[1] not in ("enemy", "own") or words[2] not in ("all", "up", "not_bottom"):
            raise AbilityError(f"expected `list enemy|own all|up|not_bottom`, got `{text}`")
        return Effect(op, (words[1], words[2]))
    if op == "pick":
        if len(words) != 2 or words[1] not in ("topmost", "above", "source", "own_shared_up"):
            raise AbilityError(f"expected `pick topmost|above|source|own_shared_up`, got `{text}`")
        return Effect(op, (words[1],))
    if op == "pick2":
        if words != ["pick2", "enemy_same_up"]:
            raise AbilityError(f"expected `pick2 enemy_same_up`, got `{text}`")
        return Effect(op, ("enemy_same_up",))
    if op in ("down", "up", "remove", "swap_below"):
        if len(words) != 2 or words[1] not in ("target", "target2"):
            raise AbilityError(f"expected `{op} target|target2`, got `{text}`")
        return Effect(op, (words[1],))
    if op in ("modify", "speed"):
        return _parse_amount(op, words, text)
    if op == "prefer":
        if len(words) != 2 or words[1] not in ("category_of_above", "number_of_above"):
            raise AbilityError(f"expected `prefer category_of_above|number_of_above`, got `{text}`")
        return Effect(op, (words[1],))
    raise AbilityError(f"unknown effect {op!r}")


# Effects allowed only under some timings or triggers.
_ONLY_TIMING = {
    "initial_hp_plus_half_base": (BUILD,),
    "no_up_phase": (CONST,),
    "above_ignores_top": (CONST,),
}
_ONLY_TRIGGER = {
    "ignore_effect": ("targeted",),
    "modify": ("enemy_damage", "my_damage"),
    "reflect": ("enemy_damage",),
    "prefer": ("my_target_list",),
    "speed": ("first_player_phase",),
    "negate_event": ("enemy_event",),
}


@dataclass
class _Head:
    """What the markers before the effects say: timing, trigger, limits and tags."""

    pos: int = 0  # where the effects start
    timing: Timing | None = None
    trigger: str | None = None
    trigger_min: int = 0
    limits: list[str] = field(default_factory=list)
    top: bool = False
    tags: set[str] = field(default_factory=set)


def _read_timing(head: _Head, inner: str) -> None:
    if head.timing is not None:
        raise AbilityError("an ability has exactly one timing (<A>, <E:…>, <ビルド> or <常態>)")
    if inner == "A":
        head.timing = ACTION
    elif inner == "ビルド":
        head.timing = BUILD
    elif inner == "常態":
        head.timing = CONST
    else:
        head.timing = EVENT
        parts = inner[2:].split()
        if not parts or parts[0] not in TRIGGERS:
            raise AbilityError(f"unknown trigger <{inner}>; triggers are {', '.join(TRIGGERS)}")
        head.trigger = parts[0]
        for extra in parts[1:]:
            mm = re.fullmatch(r"min=(\d+)", extra)
            if not mm or head.trigger not in ("enemy_damage", "my_damage"):
                raise AbilityError(f"unexpected {extra!r} in <{inner}> (only damage triggers take min=N)")
            head.trigger_min = int(mm.group(1))


def _read_head(line: str) -> _Head:
    """The markers ``<…>`` and tags ``[…]`` at the start of ``line``."""
    head = _Head()
    while True:
        m = _HEAD.match(line, head.pos)
        if not m:
            return head
        token = m.group(1)
        head.pos = m.end()
        inner = token[1:-1].strip()
        if token.startswith("["):
            if inner not in TAGS:
                raise AbilityError(f"unknown tag [{inner}]; tags are {', '.join(f'[{t}]' for t in TAGS)}")
            head.tags.add(TAGS[inner])
        elif inner in ("A", "ビルド", "常態") or inner.startswith("E:"):
            _read_timing(head, inner)
        elif inner == "トップ":
            head.top = True
        elif inner.startswith("L:"):
            cond = inner[2:].strip()
            if cond not in CONDITIONS:
                raise AbilityError(f"unknown condition <{inner}>; conditions are {', '.join(CONDITIONS)}")
            head.limits.append(cond)
        else:
            raise AbilityError(f"unknown marker <{inner}>")


def _stage(effects: tuple[Effect, ...]) -> int:
    ops = {e.op for e in effects}
    if "modify" in ops:
        return int(INCREASE if effects[0].op == "modify" and effects[0].args[0] > 0 else REDUCTION)
    if "reflect" in ops:
        return int(REFLECTION)
    return int(OTHER)


def parse_ability(line: str) -> Ability:
    """Parse one ability line; raise :class:`AbilityError` with a designer-readable message."""
    head = _read_head(line)
    timing, trigger, limits, tags = head.timing, head.trigger, head.limits, head.tags
    if timing is None:
        raise AbilityError("an ability must start with its timing: <A>, <E:trigger>, <ビルド> or <常態>")
    if head.top and timing != ACTION:
        raise AbilityError("<トップ> limits only actions <A>")
    if "source_in_play" in limits and trigger != "enemy_damage":
        raise AbilityError("<L:source_in_play> needs the trigger <E:enemy_damage>")
    if timing in (BUILD, CONST) and (limits or tags):
        raise AbilityError("build and always-on abilities take no limits or tags")
    body = line[head.pos :].strip()
    effects = tuple(_parse_effect(part.strip()) for part in body.split(";")) if body else ()
    if not effects:
        raise AbilityError("an ability needs at least one effect")
    _check_effects(effects, timing, trigger)
    return Ability(
        timing=timing,
        trigger=trigger,
        trigger_min=head.trigger_min,
        limits=tuple(limits),
        top=head.top,
        remove="remove" in tags,
        downless="downless" in tags,
        unblockable="unblockable" in tags,
        effects=effects,
        text=line.strip(),
        stage=_stage(effects),
        plain_damage=(
            (effects[0].args[1], effects[0].args[2])
            if len(effects) == 1 and effects[0].op == "damage" and effects[0].args[0] == "enemy"
            else None
        ),
    )


def _check_effects(effects: tuple[Effect, ...], timing: Timing, trigger: str | None) -> None:
    picked = picked2 = listed = False
    for e in effects:
        allowed = _ONLY_TIMING.get(e.op)
        if allowed is not None and timing not in allowed:
            raise AbilityError(f"`{e.op}` belongs to <{'ビルド' if allowed == (BUILD,) else '常態'}> abilities")
        if allowed is None and timing in (BUILD, CONST):
            raise AbilityError(f"`{e.op}` cannot be a build or always-on effect")
        triggers = _ONLY_TRIGGER.get(e.op)
        if triggers is not None and trigger not in triggers:
            raise AbilityError(f"`{e.op}` needs one of the triggers {', '.join(f'<E:{t}>' for t in triggers)}")
        if e.op == "list":
            listed = True
        elif e.op == "pick":
            if e.args[0] == "topmost" and not listed:
                raise AbilityError("`pick topmost` needs a `list …` before it")
            if e.args[0] == "above" and trigger != "above_downed":
                raise AbilityError("`pick above` needs the trigger <E:above_downed>")
            if e.args[0] == "source" and trigger != "enemy_damage":
                raise AbilityError("`pick source` needs the trigger <E:enemy_damage>")
            picked = True
        elif e.op == "pick2":
            if not picked:
                raise AbilityError("`pick2` needs a `pick` before it")
            picked2 = True
        elif e.op in ("down", "up", "remove", "swap_below") and not (picked if e.args[0] == "target" else picked2):
            raise AbilityError(f"`{e.op} {e.args[0]}` needs a `pick` of that target before it")
