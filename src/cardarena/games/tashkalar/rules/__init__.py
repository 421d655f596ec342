"""The rules as functions on a state, one module per topic.

``turns.py`` (phases, the legal actions of each, carrying out an action, the end of a turn), ``summoning.py``
(pattern matching), ``effects.py`` (resolving card effects), ``flares.py``, ``decks.py`` (drawing and putting
cards under decks), ``pieces.py`` (the board's cells and bit sets), ``modes.py`` (High Form, melee, scoring and
the end) and ``tasks.py`` (High Form task conditions).
"""

from .turns import apply, legal_actions

__all__ = ["apply", "legal_actions"]
