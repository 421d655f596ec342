"""Reading a card file: patterns, effect steps compiled from the card language, and the frozen card tables."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from ....engine import CardDataError
from ....engine.datafiles import parse_toml, read_text
from ..._datamodel import validate
from ..board import WIDTH
from .data import COMMON, HEROIC, LEGENDARY, ORIENTATIONS, RANK_NAMES, RANK_OF, Card, CardSet, Orientation, School
from .model import DEFAULT_FILE, SLUG, BeingModel, FlareModel, RulesModel, SchoolModel, model_text
from .steps import compile_steps, step_keywords
from .text import card_text


def _transform(k: int, dx: int, dy: int) -> tuple[int, int]:
    """Symmetry ``k`` (0-3: rotations by 90° clockwise steps, 4-7: the mirror image, then rotated)."""
    if k >= 4:
        dx = -dx
    for _ in range(k % 4):
        dx, dy = dy, -dx
    return dx, dy


def parse_pattern(text: str, *, file: str, card: str) -> tuple[tuple[str, ...], tuple[Orientation, ...]]:
    """Read a pattern grid; return its rows and its distinct orientations (first name of each kept)."""
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if not rows:
        raise CardDataError(file, "the pattern is empty", card=card, field="pattern")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise CardDataError(
            file, "every row of the pattern needs the same number of squares", card=card, field="pattern"
        )
    if width > 7 or len(rows) > 7:
        raise CardDataError(file, "a pattern may be at most 7×7 squares", card=card, field="pattern")
    summon = None
    cells: list[tuple[int, int, str]] = []
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok not in {".", "c", "h", "l", "@", "C", "H", "L", "*", "c*", "h*", "l*"}:
                raise CardDataError(
                    file,
                    f"unknown pattern square {tok!r} (use . c h l @ C H L * c* h* l*, separated by spaces)",
                    card=card,
                    field="pattern",
                )
            if tok in "@CHL":
                if summon is not None:
                    raise CardDataError(
                        file, "a pattern needs exactly one summon square (@, C, H or L)", card=card, field="pattern"
                    )
                summon = (c, r, tok)
            elif tok != ".":
                cells.append((c, r, tok))
    if summon is None:
        raise CardDataError(file, "the pattern has no summon square (@, C, H or L)", card=card, field="pattern")
    sc, sr, stok = summon
    summon_req = {"@": 0, "C": COMMON, "H": HEROIC, "L": LEGENDARY}[stok]
    if summon_req == 0 and not any(t[0] in "chl" for _, _, t in cells):
        raise CardDataError(file, "the pattern needs at least one of your pieces", card=card, field="pattern")
    rank_of_tok = {"c": COMMON, "h": HEROIC, "l": LEGENDARY}
    seen: set[tuple[Any, ...]] = set()
    orients: list[Orientation] = []
    for k, name in enumerate(ORIENTATIONS):
        reqs = []
        marked = []
        for c, r, tok in cells:
            dx, dy = _transform(k, c - sc, sr - r)
            shift = dy * WIDTH + dx
            if tok.endswith("*"):
                marked.append(shift)  # a marked square; c* h* l*: a marked square that needs your piece
            if tok != "*":
                reqs.append((shift, rank_of_tok[tok[0]]))
        key = (frozenset(reqs), frozenset(marked))
        if key in seen:
            continue
        seen.add(key)
        # the highest requirement first: the most selective bit set is tested first
        reqs.sort(key=lambda sr_: (-sr_[1], sr_[0]))
        orients.append(Orientation(name, tuple(reqs), summon_req, tuple(sorted(marked))))
    return tuple(" ".join(r) for r in rows), tuple(orients)


# ---------------------------------------------------------------------------------------------------------------
# Loading


def default_path() -> str:
    return str(resources.files(__name__.rsplit(".", 2)[0]).joinpath("data", DEFAULT_FILE))


def load_cards(path: str | None = None) -> CardSet:
    """Read, validate and compile a card file (the package's own when ``path`` is None)."""
    file = path or default_path()
    return _build_once(file, read_text(file))


@lru_cache(maxsize=16)
def _build_once(file: str, text: str) -> CardSet:
    """The card set of one file content: the file is read on every load, and built again whenever it changed."""
    return build_cards(parse_toml(text, file), file=file)


def build_cards(raw: dict[str, Any], *, file: str) -> CardSet:
    """Validate and compile the parsed TOML ``raw``."""
    unknown = set(raw) - {"rules", "school", "legend", "flare"}
    if unknown:
        raise CardDataError(
            file, f"unknown top-level table {sorted(unknown)[0]!r} (expected rules, school, legend, flare)"
        )
    raw_rules = raw.get("rules", {})
    if not isinstance(raw_rules, dict):
        raise CardDataError(
            file,
            "rules is a table of numbers ([rules] with lines like hand_beings = 3), not a single value",
            field="rules",
        )
    rules = validate(RulesModel, raw_rules, file=file, card=None, what="the [rules] table", table="rules")
    cards: list[Card] = []
    by_id: dict[str, Card] = {}
    texts: dict[str, str] = {}  # each card's data as written (model_text), by id

    def add(card: Card) -> None:
        if not SLUG.match(card.id):
            raise CardDataError(
                file,
                "an id is lowercase letters, digits and single hyphens (it is typed in actions)",
                card=card.id,
                field="id",
            )
        if card.id in by_id:
            raise CardDataError(file, "two cards have this id", card=card.id, field="id")
        by_id[card.id] = card
        cards.append(card)

    def being(data: Any, school: str, kind: str) -> Card:
        cid = str(data.get("id", "?")) if isinstance(data, dict) else "?"
        m: BeingModel = validate(BeingModel, data, file=file, card=cid)
        rank = RANK_OF[m.rank]
        if kind == "being" and rank == LEGENDARY:
            raise CardDataError(file, "a school being is common or heroic", card=m.id, field="rank")
        if kind == "legend" and rank != LEGENDARY:
            raise CardDataError(file, "a legend is legendary", card=m.id, field="rank")
        rows, orients = parse_pattern(m.pattern, file=file, card=m.id)
        if orients[0].summon_req > rank:
            # 配置するユニットよりランク高いユニットがあった場合…召喚することはできない: never summonable
            raise CardDataError(
                file,
                f"the summon square needs your {RANK_NAMES[orients[0].summon_req]} piece, higher than this "
                f"{RANK_NAMES[rank]} being, which can never be summoned onto a higher-ranked piece",
                card=m.id,
                field="pattern",
            )
        texts[m.id] = model_text(m)
        has_marked = bool(orients[0].marked)
        steps = compile_steps(m.effect, file=file, card=m.id, has_self=True, has_marked=has_marked, where="effect")

        c = Card(
            index=len(cards),
            id=m.id,
            name=m.name,
            kind=kind,
            school=school,
            rank=rank,
            pattern=rows,
            orients=orients,
            steps=steps,
            flavor=m.flavor,
            keywords=frozenset(step_keywords(steps)),
        )
        return _replace_text(c, card_text(c))

    schools: dict[str, School] = {}
    raw_schools = raw.get("school", [])
    if not isinstance(raw_schools, list) or not raw_schools:
        raise CardDataError(file, "the file needs at least one [[school]]")
    for s in raw_schools:
        sm: SchoolModel = validate(SchoolModel, s, file=file, card=None)
        if not SLUG.match(sm.id) or sm.id in schools or sm.id in ("legend", "flare", "random"):
            raise CardDataError(file, f"school id {sm.id!r} is not a unique lowercase slug", field="school.id")
        ids = []
        for b in sm.being:
            c = being(b, sm.id, "being")
            add(c)
            ids.append(c.index)
        if len(ids) < rules.hand_beings:
            raise CardDataError(file, f"school {sm.id!r} needs at least {rules.hand_beings} beings", field="being")
        schools[sm.id] = School(sm.id, sm.name, tuple(ids))
    raw_legends = _deck(raw, "legend", file, rules.hand_legends, "hand_legends")
    raw_flares = _deck(raw, "flare", file, rules.hand_flares, "hand_flares")
    legends = []
    for d in raw_legends:
        c = being(d, "legend", "legend")
        add(c)
        legends.append(c.index)
    flares = []
    for d in raw_flares:
        cid = str(d.get("id", "?")) if isinstance(d, dict) else "?"
        fm: FlareModel = validate(FlareModel, d, file=file, card=cid)
        texts[fm.id] = model_text(fm)
        up = compile_steps(
            fm.upper_effect, file=file, card=fm.id, has_self=False, has_marked=False, where="upper_effect"
        )
        lo = compile_steps(
            fm.lower_effect, file=file, card=fm.id, has_self=False, has_marked=False, where="lower_effect"
        )
        if not up or not lo:
            raise CardDataError(file, "a flare needs an upper and a lower effect", card=fm.id, field="upper_effect")

        c = Card(
            index=len(cards),
            id=fm.id,
            name=fm.name,
            kind="flare",
            school="flare",
            upper=fm.upper,
            lower=fm.lower,
            upper_steps=up,
            lower_steps=lo,
            flavor=fm.flavor,
            keywords=frozenset(step_keywords(up) | step_keywords(lo)),
        )
        add(_replace_text(c, card_text(c)))
        flares.append(c.index)
    return CardSet(file, rules, tuple(cards), by_id, schools, tuple(legends), tuple(flares), texts)


def _deck(raw: dict[str, Any], key: str, file: str, hand: int, rule: str) -> list[Any]:
    """The [[legend]] or [[flare]] entries: every hand holds ``hand`` such cards (rules.``rule``), so the deck they
    are drawn from may not be left out or empty."""
    entries = raw.get(key)
    if not isinstance(entries, list) or not entries:
        got = "is missing" if entries is None else ("is empty" if entries == [] else "is not a list of tables")
        raise CardDataError(
            file,
            f"[[{key}]] {got}: every hand holds {rule} = {hand} {key}(s), so the file needs at least one [[{key}]]",
            field=key,
        )
    return entries


def _replace_text(card: Card, text: str) -> Card:
    object.__setattr__(card, "text", text)
    return card
