"""Laplaplace's data: the ability language (``abilities``), the card list (``table``) and build files (``builds``).

The shipped files are in ``../data``: ``cards.toml`` and ``builds/*.toml``. Everything is checked once, at load.
"""

from .abilities import TRIGGERS, Ability, AbilityError, Effect, parse_ability
from .builds import SHIPPED_BUILDS, Build, build_text, load_build, load_build_ref, parse_build
from .card import CardDef
from .table import CardTable, load_cards, parse_cards

__all__ = [
    "SHIPPED_BUILDS",
    "TRIGGERS",
    "Ability",
    "AbilityError",
    "Build",
    "CardDef",
    "CardTable",
    "Effect",
    "build_text",
    "load_build",
    "load_build_ref",
    "load_cards",
    "parse_ability",
    "parse_build",
    "parse_cards",
]
