"""Plain English for compiled effect steps and cards (shown by ``rules``, ``play`` and the docs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cards import Card, Step

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


def _ref(step: Step) -> str:
    return {"self": "this piece", "last": "the last piece affected", "summon": "the summon square"}[step.ref]


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
    return "".join(parts)


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
    """Plain English for one compiled step (with its "if you did" condition)."""
    text = _step_text(step)
    if step.only_if == "done":
        return "If you did, " + text[0].lower() + text[1:]
    if step.only_if == "not_done":
        return "If you did not, " + text[0].lower() + text[1:]
    return text


def _step_text(step: Step) -> str:
    """Plain English for one compiled step.

    >>> from .cards import Step
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
    may_one = step.optional and (step.count == 1 or step.target_self)
    verb = {"destroy": "destroy", "upgrade": "upgrade", "downgrade": "downgrade", "convert": "convert"}.get(op)
    if verb:
        what, plural = ("this piece", False) if step.target_self else _phrase(step)
        into = ""
        if op == "convert" and step.place_rank:
            into = f" into {_a({1: 'common', 2: 'heroic', 3: 'legendary'}[step.place_rank])} piece of yours"
        text = f"{verb} {what}{'' if step.target_self else _where(step, plural=plural)}{into}."
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
    if step.to_area:
        dest += " " + _AREA_WORDS[step.to_area].replace("on ", "onto ", 1)
    if step.target_self:
        subject, plural = "This piece", False
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
