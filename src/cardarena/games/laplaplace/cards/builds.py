"""Build files: a player's 0-8 cards, top to bottom, as a small TOML file (the mail-in entry of a league).

>>> from .table import load_cards
>>> b = parse_build('name = "Rush"\\ncards = ["lance", "Jab"]\\n', load_cards(), "rush.toml")
>>> b.name, [c.id for c in b.cards]
('Rush', ['lance', 'jab'])
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardarena.engine import CardDataError
from cardarena.engine.datafiles import parse_toml, read_text

from ..constants import MAX_CARDS
from .card import CardDef
from .messages import plain
from .table import CardTable


class BuildSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(default="", max_length=60)
    author: str = Field(default="", max_length=60)
    character: str = Field(default="", max_length=2000)  # 構成に必要な情報(キャラクターの設定など)
    cards: list[str] = Field(max_length=MAX_CARDS)


@dataclass(frozen=True)
class Build:
    name: str
    author: str
    character: str
    cards: tuple[CardDef, ...]
    source: str


def parse_build(text: str, table: CardTable, source: str = "<build>") -> Build:
    """Read a build file's text; raise ``CardDataError`` naming the file, the card and the field."""
    raw = parse_toml(text, source)
    try:
        spec = BuildSpec.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(err["loc"])
        msg = plain(err, "a build file", tuple(BuildSpec.model_fields))
        if loc and loc[0] == "cards" and err["type"] == "too_long":
            msg = f"a build has at most {MAX_CARDS} cards, not {len(raw['cards'])}"
        entry = f"#{loc[1] + 1}" if len(loc) >= 2 and isinstance(loc[1], int) else None  # the place in the list
        raise CardDataError(source, msg, card=entry, field=str(loc[0]) if loc else None) from None
    cards: list[CardDef] = []
    for entry in spec.cards:
        card = table.find(entry)
        if card is None:
            raise CardDataError(source, "no such card in the card list (use its id or name)", card=entry, field="cards")
        cards.append(card)
    name = spec.name or Path(source).stem
    return Build(name, spec.author, spec.character, tuple(cards), source)


def load_build(path: str | Path, table: CardTable) -> Build:
    return parse_build(read_text(path), table, str(path))


def _shipped_folder() -> Path:
    return Path(str(resources.files("cardarena.games.laplaplace").joinpath("data", "builds")))


# The builds shipped in ``data/builds/``, by file name without ``.toml`` (``fortress``...): the values of the
# options build0/build1 that a server accepts, since they name no file of the server's (see ``Option.path``).
SHIPPED_BUILDS: tuple[str, ...] = tuple(sorted(f.stem for f in _shipped_folder().glob("*.toml")))


INLINE = "cards:"  # a build given in the option itself: ``cards:jab,edge,blank`` (card ids, top to bottom)


def load_build_ref(ref: str, table: CardTable) -> Build:
    """A build by the name of a shipped one (:data:`SHIPPED_BUILDS`), by the path of a build file, or given
    inline: ``cards:`` and the card ids (or names) top to bottom, separated by commas (``cards:jab,edge,blank``;
    ``cards:`` alone is the empty build). The balance report deals such builds (``report_builds.py``); an inline
    build is checked like a build file (at most 8 cards of the card list)."""
    if ref in SHIPPED_BUILDS:
        return parse_build((_shipped_folder() / f"{ref}.toml").read_text(encoding="utf-8"), table, f"{ref}.toml")
    if ref.startswith(INLINE):
        entries = [e.strip() for e in ref[len(INLINE) :].split(",") if e.strip()]
        build = parse_build(build_text("", [], ids=entries), table, ref)
        return replace(build, name=", ".join(c.name for c in build.cards) or "the empty build")
    return load_build(ref, table)


def build_text(
    name: str, cards: list[CardDef], *, author: str = "", character: str = "", ids: list[str] | None = None
) -> str:
    """The TOML text of a build (what ``load_build`` reads back); ``ids`` names the cards instead of ``cards``
    (unchecked: ``parse_build`` checks them)."""
    lines = [f"name = {_q(name)}"]
    if author:
        lines.append(f"author = {_q(author)}")
    if character:
        lines.append(f"character = {_q(character)}")
    names = [c.id for c in cards] if ids is None else ids
    lines.append("cards = [" + ", ".join(_q(i) for i in names) + "]  # top to bottom")
    return "\n".join(lines) + "\n"


def _q(s: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
