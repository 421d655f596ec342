"""Build files: a player's 0-8 cards, top to bottom, as a small TOML file (the mail-in entry of a league).

>>> from .table import load_cards
>>> b = parse_build('name = "Rush"\\ncards = ["lance", "Jab"]\\n', load_cards(), "rush.toml")
>>> b.name, [c.id for c in b.cards]
('Rush', ['lance', 'jab'])
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardarena.engine import CardDataError
from cardarena.engine.datafiles import parse_toml, read_text

from ..constants import MAX_CARDS
from .messages import plain
from .table import CardDef, CardTable


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


def load_build_ref(ref: str, table: CardTable) -> Build:
    """A build by the name of a shipped one (:data:`SHIPPED_BUILDS`) or by the path of a build file."""
    if ref in SHIPPED_BUILDS:
        return parse_build((_shipped_folder() / f"{ref}.toml").read_text(encoding="utf-8"), table, f"{ref}.toml")
    return load_build(ref, table)


def build_text(name: str, cards: list[CardDef], *, author: str = "", character: str = "") -> str:
    """The TOML text of a build (what ``load_build`` reads back)."""
    lines = [f"name = {_q(name)}"]
    if author:
        lines.append(f"author = {_q(author)}")
    if character:
        lines.append(f"character = {_q(character)}")
    lines.append("cards = [" + ", ".join(_q(c.id) for c in cards) + "]  # top to bottom")
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
