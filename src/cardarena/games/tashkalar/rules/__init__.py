"""The rules as functions on a state, one module per topic.

``legal.py`` (the legal actions of each phase and why an action is not one of them: one source),
``turns.py`` (carrying out an action, summons and flares, the end of a turn), ``summoning.py``
(pattern matching), ``effects.py`` (resolving card effects), ``flares.py``, ``decks.py`` (drawing and putting
cards under decks), ``pieces.py`` (the board's cells and bit sets), ``modes.py`` (High Form, melee, scoring and
the end) and ``tasks.py`` (High Form task conditions).
"""

from .legal import legal_actions, why_not
from .turns import apply

__all__ = ["apply", "legal_actions", "why_not"]
