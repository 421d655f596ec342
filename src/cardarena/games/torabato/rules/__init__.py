"""The rules of ToraBato as functions on a state, one module per topic.

- ``board``: what is where (mana, a soldier's numbers) and the small moves every rule uses;
- ``turns``: the first-player reveal, the phases of a turn, priority and passing;
- ``casting``: what a player with priority may do (mana, spells and summons, abilities, recursion);
- ``effects``: the stack resolving, and choices made while an effect resolves;
- ``combat``: the attack, from its declaration to combat damage;
- ``knowledge``: what every player can work out about the known cards in a hand and among the mana;
- ``dispatch``: joins them: :func:`legal_actions`, :func:`why_not` and :func:`apply`.

This package module only names them (it stays interpreted: a compiled package ``__init__`` that imports its own
compiled submodules recurses at import under mypyc's separate mode; see setup.py's ``INTERPRETED``).
"""

from __future__ import annotations

from .dispatch import CHOICE_KINDS, apply, legal_actions, why_not, why_not_now

__all__ = ["CHOICE_KINDS", "apply", "legal_actions", "why_not", "why_not_now"]
