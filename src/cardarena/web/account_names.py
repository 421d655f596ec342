"""Account names (issue 32): what a name may be, and the key two names are compared by.

A name is 1 to :data:`LONGEST` characters of letters, marks, digits, single inner spaces and ``- _ . '``; nothing
invisible (no control or format characters: a zero-width joiner or a right-to-left override cannot hide in a name).
Its letters come from one script, or from one of the combinations a language writes with (Japanese: Han, Hiragana,
Katakana; Korean: Han, Hangul; Chinese with Bopomofo; each with Latin), so no name mixes look-alike scripts
(Latin ``a`` and Cyrillic ``а`` in one name). A letter's script is read from its Unicode name (``CYRILLIC SMALL
LETTER A``): the standard library has no script property, and the first word of the name is the script for every
letter a person types in a name.

Two names are the same name when their keys are equal (:func:`name_key`: NFKC, then case-folded), so ``Ann``,
``ANN`` and the full-width ``Ａｎｎ`` are one name. The bot accounts' names (``Easy AI`` ... ``Expert AI``) and the
name deleted accounts are given are reserved, compared by a *skeleton* (:func:`skeleton`) that also maps the
characters that look like theirs (``I``, ``l`` and ``1``; ``0`` and ``O``; Cyrillic and Greek look-alikes of Latin
letters) and ignores spaces, so a person cannot register ``Easy Al`` or an all-Cyrillic ``Еаѕу АӀ``. People's names
are unique by skeleton too (``accounts.skeleton``): ``paul`` and ``pauI`` cannot both be accounts.
"""

from __future__ import annotations

import unicodedata

from ..agents.levels import LEVELS

LONGEST = 32
#: the punctuation a name may hold besides letters, marks, digits and single spaces
PUNCTUATION = frozenset("-_.'")
#: the scripts that one language writes with together (beyond these, a name's letters are of one script)
COMBINED = (
    frozenset({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "LATIN"}),
    frozenset({"CJK", "HANGUL", "LATIN"}),
    frozenset({"CJK", "BOPOMOFO", "LATIN"}),
)
#: the name every deleted account is given (its games stay, under this name)
DELETED = "Deleted player"
#: characters that look like others, mapped to one of them before names are compared with the reserved ones
LOOK_ALIKE = str.maketrans(
    {
        "1": "l", "|": "l", "0": "o",
        # Cyrillic look-alikes of Latin letters (lower case: names are compared case-folded)
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
        "у": "y", "х": "x", "ѕ": "s", "і": "i", "ӏ": "l", "ј": "j", "ԁ": "d", "ү": "y", "һ": "h", "ԛ": "q",
        "ԝ": "w",
        # Greek look-alikes of Latin letters
        "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "n", "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
    }
)  # fmt: skip


#: capital letters that look like a small ``l`` (Latin, Cyrillic, Greek I), mapped before case is folded
CAPITAL_I = str.maketrans({"I": "l", "І": "l", "Ι": "l", "Ӏ": "l"})


class BadName(ValueError):
    """A name that may not be an account's: the reason, in words for the person who typed it."""


def bot_name(label: str) -> str:
    """The name of the bot account of strength ``label`` (``easy`` -> ``Easy AI``)."""
    return f"{label.capitalize()} AI"


def name_key(name: str) -> str:
    """The name as names are compared: NFKC, case-folded (and NFKC again, since folding may undo it)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def skeleton(name: str) -> str:
    """The name with look-alike characters made the same (see the module's text), then as :func:`name_key`. A
    capital ``I`` is taken for an ``l`` before case is folded (``pauI`` looks like ``paul``; ``Ali`` does not look
    like ``All``)."""
    return name_key(unicodedata.normalize("NFKC", name).translate(CAPITAL_I)).translate(LOOK_ALIKE).replace(" ", "")


RESERVED = frozenset(skeleton(n) for n in [*(bot_name(label) for label in LEVELS), DELETED])


def _script(ch: str) -> str | None:
    """The script of a letter or digit (the first word of its Unicode name); ``None`` for one common to all."""
    if "0" <= ch <= "9" or unicodedata.category(ch).startswith("M"):
        return None
    first = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
    return first


def check_name(value: str) -> str:
    """The name to keep (NFKC), or :class:`BadName` saying what is wrong with ``value``."""
    name = unicodedata.normalize("NFKC", value)
    if not 1 <= len(name) <= LONGEST:
        raise BadName(f"a name is 1 to {LONGEST} characters")
    if name != name.strip() or "  " in name:
        raise BadName("a name has no spaces at its ends and no two spaces in a row")
    scripts: set[str] = set()
    for ch in name:
        kind = unicodedata.category(ch)
        if ch == " " or ch in PUNCTUATION:
            continue
        if kind[0] not in "LMN" or kind in ("No", "Nl"):
            what = unicodedata.name(ch, repr(ch))
            raise BadName(f"a name holds letters, digits, spaces and - _ . ' only, not {what}")
        script = _script(ch)
        if script is not None:
            scripts.add(script)
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise BadName("a name has at least one letter or digit")
    if len(scripts) > 1 and not any(scripts <= combined for combined in COMBINED):
        raise BadName(
            f"a name's letters are of one script (this one mixes {', '.join(sorted(s.lower() for s in scripts))}, "
            "whose letters can look alike)"
        )
    return name


def reserved(name: str) -> bool:
    """Whether ``name`` is, or looks like, a bot account's name or a deleted account's."""
    return skeleton(name) in RESERVED
