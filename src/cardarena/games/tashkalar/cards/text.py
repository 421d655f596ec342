"""Plain English for compiled effect steps and cards (shown by ``rules``, ``play`` and the docs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .data import Card, Cond, Step

_RANK_WORDS = {
    0b1110: "",
    0b0010: "common ",
    0b0100: "heroic ",
    0b1000: "legendary ",
    0b1100: "upgraded ",
    0b0110: "non-legendary ",
}
_AREA_WORDS = {
    "marked": "on a marked square",
    "central": "on a central square",
    "red": "on a red square",
    "green": "on a green square",
    "colored": "on a coloured square",
    "edge": "on an edge square",
}


_REF_WORDS = {
    "self": "this piece",
    "last": "the last piece affected",
    "summon": "the summon square",
    "each": "that square",
}
_OWNER_WORDS = {1: "one of your pieces", 2: "an enemy piece", 3: "a piece"}
_RAY_WORDS = {"orthogonal": "an orthogonal line", "diagonal": "a diagonal line", "any": "a straight line"}
_TARGET_WORDS = {"self": "this piece", "last": "that piece", "each": "the piece there"}


def _ref(step: Step) -> str:
    return _REF_WORDS[step.ref]


_REF_SQUARE = {"this piece": "this piece's square", "the last piece affected": "the square last affected"}


def _dist(d: tuple[int, int] | None, ref: str) -> str:
    if d is None:
        return ""
    lo, hi = d
    if lo == hi == 0:
        return f" on {_REF_SQUARE.get(ref, ref)}"
    if lo == hi:
        return f" at distance {lo} from {ref}"
    if hi >= 99:
        return f" at distance {lo} or more from {ref}"
    if lo == 0:
        return f" at distance at most {hi} from {ref}"
    return f" at distance {lo} to {hi} from {ref}"


def _where(step: Step, *, plural: bool = False) -> str:
    parts = []
    if step.near:
        parts.append(f" adjacent to {_ref(step)}")
    parts.append(_dist(step.dist, _ref(step)))
    if step.area:
        words = _AREA_WORDS[step.area]
        if plural:
            words = words.replace(" a ", " ").replace(" an ", " ").replace("square", "squares")
        parts.append(" " + words)
    if step.ray:
        first = "the first piece " if step.first else ""
        parts.append(f" ({first}on {_RAY_WORDS[step.ray]} from {_ref(step)})")
    if step.next_to:
        parts.append(f" adjacent to {_OWNER_WORDS[step.next_to].replace('one of your', 'any of your')}")
    if step.connected:
        parts.append(f" in the group joined to {_ref(step)} through adjacent pieces")
    return "".join(parts)


def cond_text(cond: Cond) -> str:
    """The words of an ``if``: "If you destroyed a piece this way", "If there are 2 or more enemy pieces …"."""
    if cond.kind == "destroyed":
        n = "a piece" if cond.lo == 1 else f"{cond.lo} or more pieces"
        return {
            "previous": f"If the previous step destroyed {n}",
            "effect": f"If this effect destroyed {n}",
            "turn": f"If you destroyed {n.replace('piece', 'enemy piece')} this turn",
        }[cond.by]
    f = cond.filt
    assert f is not None
    rank = _RANK_WORDS[f.ranks]
    if cond.hi >= 999:
        n = f"{cond.lo} or more" if cond.lo != 1 else "at least one"
    elif cond.lo == 0:
        n = "no" if cond.hi == 0 else f"at most {cond.hi}"
    elif cond.lo == cond.hi:
        n = str(cond.lo)
    else:
        n = f"{cond.lo} to {cond.hi}"
    where = _where(f, plural=True)
    if f.who == 1:
        return f"If you have {n} {rank}pieces{where}"
    return f"If there are {n} {'enemy ' if f.who == 2 else ''}{rank}pieces{where}"


def _if_it_is(step: Step) -> str:
    """For a fixed target with owner / rank filters: " if it is an enemy common piece"."""
    if step.who == 3 and step.ranks == 0b1110:
        return ""
    rank = _RANK_WORDS[step.ranks]
    return " if it is " + {1: f"one of your {rank}pieces", 2: f"an enemy {rank}piece", 3: _a(f"{rank}piece")}[step.who]


def _a(words: str) -> str:
    return ("an " if words[:1] in "aeiou" else "a ") + words


def _phrase(step: Step) -> tuple[str, bool]:
    """The pieces a step acts on, and whether the phrase is plural."""
    rank = _RANK_WORDS[step.ranks]
    other = "other " if step.other else ""
    kind = f"{other}{rank}"
    if step.count == -1:
        return {1: f"all your {kind}pieces", 2: f"all enemy {kind}pieces", 3: f"all {kind}pieces"}[step.who], True
    n = step.count
    if n == 1:
        return {1: f"one of your {kind}pieces", 2: f"an enemy {kind}piece", 3: _a(f"{kind}piece")}[step.who], False
    pre = f"up to {n}" if step.optional else str(n)
    return {1: f"{pre} of your {kind}pieces", 2: f"{pre} enemy {kind}pieces", 3: f"{pre} {kind}pieces"}[step.who], True


def step_text(step: Step) -> str:
    """Plain English for one compiled step (with its conditions and repetition)."""
    text = _step_text(step)
    if not step.scores:
        text = text[:-1] + " (destroyed pieces score nothing)."
    if step.repeat:
        why = "it destroyed a piece" if step.repeat_destroyed else "it did something"
        times = "once" if step.repeat == 1 else f"up to {step.repeat} times"
        text += f" If {why}, repeat this {times}."
    if step.cond is not None:
        text = cond_text(step.cond) + ", " + text[0].lower() + text[1:]
    if step.only_if == "done":
        return "If you did, " + text[0].lower() + text[1:]
    if step.only_if == "not_done":
        return "If you did not, " + text[0].lower() + text[1:]
    return text


def _step_text(step: Step) -> str:
    """Plain English for one compiled step.

    >>> from .model import Step
    >>> _step_text(Step("destroy", who=2, ranks=0b0010, near=True))
    'Destroy an enemy common piece adjacent to this piece.'
    """
    op = step.op
    if op == "gain_action":
        return f"Gain {step.n} action{'s' if step.n > 1 else ''}."
    if op == "draw_extra":
        card = {"school": "being", "legend": "legend", "flare": "flare"}[step.deck]
        return f"Draw an extra {card} card at the end of the turn."
    if op == "choose_one":
        opts = " / ".join(f"({i}) " + " ".join(s.text for s in o) for i, o in enumerate(step.options, 1))
        return f"Choose one: {opts}"
    if op == "extra_turn":
        return "Take an extra turn after this one." if step.n == 1 else f"Take {step.n} extra turns after this one."
    if op == "recover":
        card = {"school": "being", "legend": "legend", "flare": "flare"}[step.deck]
        pile = "your school's" if step.deck == "school" else f"the {card}"
        n = f"{'up to ' if step.optional else ''}{step.count} {card} cards" if step.count > 1 else f"a {card} card"
        text = f"take {n} from {pile} discard pile into your hand."
        return ("You may " + text) if step.optional and step.count == 1 else text[0].upper() + text[1:]
    if op == "for_each":
        if step.pieces_only:
            what, _ = _phrase(step)
            what = what.replace("one of your", "each of your").replace("an enemy", "each enemy")
            what = what.replace("a piece", "each piece").replace(" a ", " each ", 1) if what.startswith("a ") else what
            return f"For {what}{_where(step, plural=False)}: " + " ".join(s.text for s in step.sub)
        where = _where(step, plural=False)
        for article in (" on a ", " on an "):
            if where.startswith(article):  # "on a marked square" -> "each marked square"
                return f"For each {where[len(article) :]}: " + " ".join(s.text for s in step.sub)
        return f"For each square{where}: " + " ".join(s.text for s in step.sub)
    may_one = step.optional and (step.count == 1 or step.target != "choose")
    verb = {"destroy": "destroy", "upgrade": "upgrade", "downgrade": "downgrade", "convert": "convert"}.get(op)
    if verb:
        fixed = step.target != "choose"
        what, plural = (_TARGET_WORDS[step.target] + _if_it_is(step), False) if fixed else _phrase(step)
        into = ""
        if op == "convert" and step.place_rank:
            into = f" into {_a({1: 'common', 2: 'heroic', 3: 'legendary'}[step.place_rank])} piece of yours"
        text = f"{verb} {what}{'' if fixed else _where(step, plural=plural)}{into}."
        return ("You may " + text) if may_one else text[0].upper() + text[1:]
    if op == "place":
        rank = {1: "common", 2: "heroic", 3: "legendary"}[step.place_rank]
        colour = "your colour" if step.who == 1 else "an opponent's colour"
        if step.count == -1:
            what = f"a {rank} piece of {colour} on each empty square"
        elif step.count == 1:
            what = f"{_a(rank)} piece of {colour}"
        else:
            what = f"{'up to ' if step.optional else ''}{step.count} {rank} pieces of {colour}"
        text = f"place {what}{_where(step)}."
        return ("You may " + text) if may_one else text[0].upper() + text[1:]
    # move / leap
    style = "combat" if step.combat else "standard"
    kind = "leap" if op == "leap" else "move"
    times = ""
    if step.times > 1:
        times = f" up to {step.times} times" if step.optional else f" {step.times} times"
    dest = ""
    if step.to_near:
        dest += f" to a square adjacent to {_ref(step)}"
    if step.to_dist:
        dest += _dist(step.to_dist, "its start").replace(" at ", " to a square at ", 1)
    if step.to_ref is not None:
        dest = ""
        base = _REF_WORDS[step.to_ref]
        if step.to_near:
            dest += f" to a square adjacent to {base}"
        if step.to_dist:
            d = _dist(step.to_dist, base)
            dest += d.replace(" on ", " onto ", 1) if d.startswith(" on ") else d.replace(" at ", " to a square at ", 1)
    if step.to_area:
        dest += " " + _AREA_WORDS[step.to_area].replace("on ", "onto ", 1)
    if step.to_empty:
        dest = dest.replace(" to a square", " to an empty square", 1) if " to a square" in dest else dest
        dest += "" if " to an empty square" in dest else " to an empty square"
    if step.to_who:
        rank = _RANK_WORDS[step.to_ranks]
        dest += (
            " onto " + {1: f"one of your {rank}pieces", 2: f"an enemy {rank}piece", 3: _a(f"{rank}piece")}[step.to_who]
        )
    if step.to_next_to and step.to_empty and dest.endswith(" to an empty square"):
        dest += f" adjacent to {_OWNER_WORDS[step.to_next_to].replace('one of your', 'any of your')}"
    elif step.to_next_to:
        dest += f" to a square adjacent to {_OWNER_WORDS[step.to_next_to].replace('one of your', 'any of your')}"
    if step.to_ray:
        if op == "move":
            dest += " in one direction" if step.to_ray == "any" else f" in one {step.to_ray} direction"
            if step.far:
                dest += " as far as it can (it stops after destroying a piece)"
        else:
            first = " onto the first piece" if step.to_first else ""
            dest += f"{first} along {_RAY_WORDS[step.to_ray]}"
    if step.target != "choose":
        subject, plural = _TARGET_WORDS[step.target][0].upper() + _TARGET_WORDS[step.target][1:], False
    else:
        subject, plural = _phrase(step)
        subject = subject[0].upper() + subject[1:] + _where(step, plural=plural)
    if step.optional and not plural:
        verb_s = "may make"
    elif plural:
        verb_s = "each make" if step.count != -1 else "make"
    else:
        verb_s = "makes"
    return f"{subject} {verb_s} {_a(style)} {kind}{times}{dest}."


def card_text(card: Card) -> str:
    if card.kind == "flare":
        up = " ".join(s.text for s in card.upper_steps)
        lo = " ".join(s.text for s in card.lower_steps)
        return (
            f"Upper (an opponent has {card.upper}+ more upgraded pieces): {up}\n"
            f"Lower (an opponent has {card.lower}+ more pieces): {lo}"
        )
    return " ".join(s.text for s in card.steps)
