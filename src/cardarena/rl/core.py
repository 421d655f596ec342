"""The engine room of the environments: a game walked one masked sub-decision at a time, with cached encodings.

:class:`Decisions` holds the true state, and hands each seat only what ``observation(seat)`` allows, encoded by the
game's :meth:`~cardarena.engine.Game.observation_encoder`. A decision is taken as the sequence of sub-decisions of
the game's :meth:`~cardarena.engine.Game.action_factoring` (one step for the games whose flat encoding is small):
the legal actions' sequences form a tree built once per decision, and each step's mask lists the children of the
node reached so far, so every masked-in choice leads to a legal action and every legal action can be reached.

Speed (``cardarena bench --rl``): the legal actions are listed once per decision (the state caches them), the
tree is built once per decision, an observation is encoded once per decision and seat (sub-steps copy it and add
the progress block), the encoder writes only its non-zero entries, and masks are shared by the sets of tokens they
allow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine import Action, Game, IllegalActionError, InvalidActionError, OptionError, State

#: How many distinct masks are kept for reuse (a few hundred arise in a long run of most games).
MASK_CACHE = 4096
#: A node of the tree of legal actions: the next sub-decision's token -> a deeper node, or the action it completes.
Node = dict[int, Any]


def agent_name(seat: int) -> str:
    """PettingZoo's name of a seat: ``player_0``, ``player_1``..."""
    return f"player_{seat}"


class Decisions:
    """One game, taken as masked sub-decisions, seen by each seat through its encoded observation.

    The observation vector is the game's encoding followed, where a decision takes more than one step, by the
    *progress* block: a one-hot of the sub-decision being taken (``depth`` numbers) and, for every earlier
    sub-decision of the same decision, its token as ``(token + 1) / width`` (``depth - 1`` numbers; 0 when not
    taken yet). Only the seat taking the decision sees its own progress; the others see zeros there.
    """

    def __init__(self, game: Game, *, text_info: bool = True) -> None:
        self.game = game
        self.encoder = game.observation_encoder()
        self.factoring = game.action_factoring()
        self.width = self.factoring.width
        self.depth = self.factoring.depth
        self.text_info = text_info
        self.base_size = self.encoder.size
        self.progress_size = 0 if self.depth == 1 else 2 * self.depth - 1
        self.size = self.base_size + self.progress_size
        low, high = self.encoder.bounds()
        low += [0.0] * self.progress_size
        high += [1.0] * self.progress_size
        self.low = np.asarray(low, dtype=np.float32)
        self.high = np.asarray(high, dtype=np.float32)
        self._factors = self.factoring.factors
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self.state: State = game.new_initial_state(0)
        self._new_decision()

    # -- the decision being taken ----------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        self.state = self.game.new_initial_state(seed)
        self._new_decision()

    def set_state(self, state: State) -> None:
        """Continue from ``state`` (a position built elsewhere: tests, a league's saved games)."""
        if repr(state.game) != repr(self.game):
            raise OptionError(f"a state of {self.game!r} is needed, not one of {state.game!r}")
        self.state = state
        self._new_decision()

    def _new_decision(self) -> None:
        self.prefix: list[int] = []
        self._node: Node | None = None
        self._encoded: dict[int, np.ndarray] = {}
        self._observed: dict[int, dict[str, np.ndarray]] = {}

    def node(self) -> Node:
        """The tree node of the sub-decision to take now (built from the legal actions once per decision)."""
        node = self._node
        if node is None:
            factors = self._factors
            root: Node
            if self.depth == 1:
                root = {factors(a)[0]: a for a in self.state.legal_actions()}
            else:
                root = {}
                for action in self.state.legal_actions():
                    seq = factors(action)
                    n = root
                    for t in seq[:-1]:
                        child = n.get(t)
                        if child is None:
                            child = n[t] = {}
                        n = child
                    n[seq[-1]] = action
            self._node = node = root
        return node

    def choose(self, token: int) -> Action | None:
        """Take one sub-decision; returns the action once the decision is complete (then applied), else ``None``.

        A token the mask leaves out raises ``IllegalActionError`` and changes nothing.
        """
        if self.state.is_terminal():
            raise IllegalActionError(self.state, token, "the game is over")
        node = self.node()
        nxt = node.get(token)
        if nxt is None:
            step = self.factoring.steps[min(len(self.prefix), self.depth - 1)]
            raise IllegalActionError(
                self.state,
                token,
                f"sub-decision {token} ({step}) is masked out here; allowed: {sorted(node)[:20]}"
                + (" ..." if len(node) > 20 else ""),
            )
        if isinstance(nxt, dict):
            self.prefix.append(token)
            self._node = nxt
            seat = self.state.current_player
            if seat is not None:
                self._observed.pop(seat, None)
            return None
        self.state.apply_legal(nxt)
        self._new_decision()
        return nxt

    def apply(self, action: Action) -> None:
        """Take a whole action (an opponent agent's): allowed only between decisions, validated by the state."""
        if self.prefix:
            raise InvalidActionError(str(action), "a decision is half taken: finish its sub-decisions first")
        self.state.apply(action)
        self._new_decision()

    # -- what a seat gets ------------------------------------------------------------------------------------
    def encoded(self, seat: int) -> np.ndarray:
        """The game's encoding of ``observation(seat)``, cached for the current decision."""
        vec = self._encoded.get(seat)
        if vec is None:
            # the encoder writes its non-zero entries straight into the zeroed array (measured: twice as fast as
            # collecting them in a dict and copying them over in one numpy call)
            vec = np.zeros(self.size, dtype=np.float32)
            self.encoder.encode_into(self.state.observation(seat), seat, vec)
            self._encoded[seat] = vec
        return vec

    def tokens(self, seat: int) -> list[int]:
        """The tokens allowed now to ``seat``, as a list (the mask's non-zero positions, cheaper to sample from)."""
        return list(self.node()) if seat == self.state.current_player else []

    def mask(self, seat: int) -> np.ndarray:
        """1 for each token allowed now to ``seat`` (all zeros when it is not to act).

        The same sets of allowed tokens come back again and again (pass, the same few cards), so masks are kept
        by their tokens and shared: they are read-only (``env.step`` never changes one; copy it to change it).
        """
        key = tuple(self.node()) if seat == self.state.current_player else ()
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= MASK_CACHE:
                self._masks.clear()
            mask = np.zeros(self.width, dtype=np.int8)
            mask[list(key)] = 1
            mask.flags.writeable = False
            self._masks[key] = mask
        return mask

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """``{"observation": vector, "action_mask": mask}`` for ``seat`` now (cached until the next step)."""
        got = self._observed.get(seat)
        if got is None:
            vec = self.encoded(seat)
            if self.progress_size and seat == self.state.current_player:
                vec = vec.copy()
                base, depth = self.base_size, self.depth
                k = len(self.prefix)
                vec[base + k] = 1.0
                for i, t in enumerate(self.prefix):
                    vec[base + depth + i] = (t + 1) / self.width
            got = {"observation": vec, "action_mask": self.mask(seat)}
            self._observed[seat] = got
        return got

    def info(self, seat: int) -> dict[str, Any]:
        """For people debugging: the text picture ``seat`` may see and, for the seat to act, the legal actions
        still reachable by the sub-decisions taken so far (with the name of the next sub-decision)."""
        if not self.text_info:
            return {}
        out: dict[str, Any] = {"text": self.game.render(self.state, seat)}
        if seat == self.state.current_player:
            out["legal"] = [str(a) for a in _leaves(self.node())]
            out["step"] = self.factoring.steps[len(self.prefix)]
            out["taken"] = [self.factoring.token_text(i, t) for i, t in enumerate(self.prefix)]
        return out


def _leaves(node: Node) -> list[Action]:
    out: list[Action] = []
    for v in node.values():
        if isinstance(v, dict):
            out += _leaves(v)
        else:
            out.append(v)
    return out
