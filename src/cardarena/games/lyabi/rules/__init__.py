"""The rules of Lyabi as functions on a state, one module per topic.

- ``board``: the small moves every rule uses (paying, gaining, an item used up, the end of the game);
- ``turns``: setup and the turn: the draw phase, main and item phases in priority order, the end phase;
- ``market``: the main phase's buy, split and place, and the item phase's purchase;
- ``items``: the items' timing windows and effects;
- ``battle``: the battle phase, from the hidden sets to cleanup.

``protocol`` joins them: :func:`legal_actions`, :func:`why_not` and :func:`apply`. Legality has one source: each
condition is a check in its topic's module that both filters the listed actions and gives the reason for a refusal.

This package's ``__init__`` stays interpreted (setup.py compiles no package ``__init__``: one that imports its
compiled submodules recurses at import in mypyc's separate mode), so the joining functions live in ``protocol``.
"""

from __future__ import annotations

from .protocol import apply, legal_actions, start, why_not

__all__ = ["apply", "legal_actions", "start", "why_not"]
