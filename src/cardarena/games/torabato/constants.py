"""ToraBato's enums and fixed numbers: a leaf module (it imports nothing of the game).

Hot loops use the module-level aliases (``MAIN = Phase.MAIN``, ``PLAY_K = Kind.PLAY``): they are the enum members
themselves, and compare and hash at ``int``/``str`` speed. They are ``Final``: the compiled rules read them as C
statics (or inline the numbers), not from a module's dictionary.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final


class Phase(IntEnum):
    """The phases and steps of a turn (rulebook ゲームの流れ, 攻撃).

    Priority steps give both players priority (``PRIORITY_PHASES``); the others are one player's choice.
    """

    REVEAL = 0
    DRAW = 1
    MAIN = 2
    DECLARE = 3
    SELECT_ATTACKERS = 4
    EXECUTE = 5
    SELECT_BLOCKERS = 6
    BLOCK = 7
    DAMAGE = 8
    ASSIGN = 9
    END = 10
    OVER = 11
    RECOVERY = 12

    @property
    def text(self) -> str:
        """The phase in plain words, as the observation and the table show it."""
        return _PHASE_TEXT[self]

    @property
    def guide(self) -> str:
        """What the phase or step expects, and how to move on, in plain words (the table and refusals say it)."""
        return _PHASE_GUIDE[self]


_PHASE_TEXT = (
    "first-player reveal",
    "draw phase",
    "main phase",
    "attack: declaration step",
    "attack: choosing attackers",
    "attack: execution step",
    "attack: choosing blockers",
    "attack: defence step",
    "attack: damage step",
    "attack: dividing damage",
    "end phase",
    "game over",
    "recovery phase",
)

_PHASE_GUIDE = (
    "each player puts a card from hand face down ('reveal CARD'); both are shown together and the lower value"
    " goes first (A = 1, J = 11, Q = 12, K = 13, Joker = 0); a tie: each reveals another card",
    "spells and abilities may be used; pass to go on to the main phase",
    "set one mana ('mana CARD'), cast spells and summon soldiers ('play CARD'), use abilities ('use CARD'), take"
    " cards back ('recur CARD') and declare one attack ('attack'); pass to go on to the end phase",
    "attack step 1, the declaration: both players may cast spells and use abilities; pass to move on: when both"
    " pass in succession, the attacker chooses attackers",
    "attack step 2: the attacker sends soldiers into the attack one by one ('attacker CARD'), then 'done'",
    "attack step 2, the execution: the attackers are tapped; both players may respond; pass to move on: when both"
    " pass in succession, the defender chooses blockers",
    "attack step 3: the defender blocks ('block BLOCKER ATTACKER'), one attacker per blocker, then 'done'",
    "attack step 3, the defence: blocks are set; both players may respond; pass to move on: when both pass in"
    " succession, combat damage is dealt",
    "attack step 4, the damage: a last chance to respond; pass to move on: when both pass in succession, combat"
    " damage is dealt (unblocked attackers mill the defender's deck)",
    "attack step 4: the attacker divides a multiply-blocked attacker's damage among its blockers, one point at a"
    " time ('assign ATTACKER BLOCKER')",
    "both players may still act; pass to move on: when both pass in succession, a player with an empty deck loses,"
    " otherwise the turn goes to the other player",
    "the game is over",
    "mana and soldiers have untapped and soldiers healed; both players may act; pass to go on to the draw",
)

REVEAL: Final = Phase.REVEAL
DRAW: Final = Phase.DRAW
MAIN: Final = Phase.MAIN
DECLARE: Final = Phase.DECLARE
SELECT_ATTACKERS: Final = Phase.SELECT_ATTACKERS
EXECUTE: Final = Phase.EXECUTE
SELECT_BLOCKERS: Final = Phase.SELECT_BLOCKERS
BLOCK: Final = Phase.BLOCK
DAMAGE: Final = Phase.DAMAGE
ASSIGN: Final = Phase.ASSIGN
END: Final = Phase.END
OVER: Final = Phase.OVER
RECOVERY: Final = Phase.RECOVERY
PRIORITY_PHASES: Final = frozenset({RECOVERY, DRAW, MAIN, DECLARE, EXECUTE, BLOCK, DAMAGE, END})


class Kind(StrEnum):
    """An action's kind: the first word of its text and the first item of the action tuple."""

    PASS = "pass"
    REVEAL = "reveal"
    MANA = "mana"
    PLAY = "play"
    USE = "use"
    RECUR = "recur"
    ATTACK = "attack"
    ATTACKER = "attacker"
    BLOCK = "block"
    ASSIGN = "assign"
    CHOOSE = "choose"
    DONE = "done"


PASS_K: Final = Kind.PASS
REVEAL_K: Final = Kind.REVEAL
MANA_K: Final = Kind.MANA
PLAY_K: Final = Kind.PLAY
USE_K: Final = Kind.USE
RECUR_K: Final = Kind.RECUR
ATTACK_K: Final = Kind.ATTACK
ATTACKER_K: Final = Kind.ATTACKER
BLOCK_K: Final = Kind.BLOCK
ASSIGN_K: Final = Kind.ASSIGN
CHOOSE_K: Final = Kind.CHOOSE
DONE_K: Final = Kind.DONE


class Source(IntEnum):
    """What a stack item is: items are tuples ``(source, card, controller, target)``."""

    SPELL = 0
    ABILITY = 1
    RECURSION = 2


SPELL: Final = Source.SPELL
ABILITY: Final = Source.ABILITY
RECURSION: Final = Source.RECURSION


class Pending(StrEnum):
    """A choice a player makes while an effect resolves: ``pending`` is ``(Pending, seat)``."""

    REGROW = "regrow"  # A's ability: a card from the discard pile back to hand
    RETURN_MANA = "return_mana"  # 9: a mana card back to hand


REGROW: Final = Pending.REGROW
RETURN_MANA: Final = Pending.RETURN_MANA


class CardType(StrEnum):
    SOLDIER = "soldier"
    SPELL = "spell"


SOLDIER: Final = CardType.SOLDIER


class Timing(StrEnum):
    """When a spell may be cast: on either turn, on its caster's own turn only (相手ターンで使用不可), or at once,
    off the stack (5)."""

    ANY = "any"
    OWN = "own"
    INSTANT_OFF_STACK = "instant_off_stack"


OWN: Final = Timing.OWN


class Effect(StrEnum):
    """A spell's effect."""

    DAMAGE = "damage"
    DESTROY = "destroy"
    GAIN_MANA = "gain_mana"
    DRAW = "draw"
    PREVENT = "prevent"
    BOOST = "boost"
    RETURN_MANA = "return_mana"
    DESTROY_ALL = "destroy_all"


#: Spell effects that take no target.
UNTARGETED: Final = frozenset({Effect.GAIN_MANA, Effect.DRAW, Effect.DESTROY_ALL})


class Ability(StrEnum):
    """A soldier's ability."""

    REGROW = "regrow"
    FORTIFY = "fortify"
    TAP = "tap"
    UNBLOCKABLE = "unblockable"


# Per-card flags of the "this turn" effects (K, 7, Q's target), bits of ``flags``; they end with those effects.
UNBLOCKABLE_FLAG: Final = 1
ZEROED: Final = 2
TAPPED_THIS_TURN: Final = 4

# Targets besides card ids.
NO_TARGET: Final = -1
OPPONENT: Final = -2

# Card ids: seat 0 (player A) owns ids 0-26 (spades 0-12, clubs 13-25, joker 26); seat 1 (player B) owns 27-53
# (hearts 27-39, diamonds 40-52, joker 53). Within a suit, id % 13 is the rank index (0 = A ... 12 = K).
NUM_CARDS: Final = 54
CARDS_PER_SEAT: Final = 27

HAND_SIZE: Final = 5
MAX_REDEALS: Final = 10  # ties in the first-player reveal before the first player is drawn at random
