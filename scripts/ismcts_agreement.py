"""How often a search agent keeps the heuristic's choice: positions of heuristic self-play, every ``--every``-th
decision that has a choice, the agent asked from the acting seat's view (it sees what the heuristic sees).

    .venv/bin/python scripts/ismcts_agreement.py tashkalar ismcts
    .venv/bin/python scripts/ismcts_agreement.py tashkalar ismcts:prior=0 --games 6 --every 6

docs/agents.md quotes it: in the Tash-Kalar duel the default ``ismcts`` (1,000 iterations, ``prior=0.3``) keeps the
heuristic's action at two positions in three, which is why ten times the iterations did not change its score
against the heuristic.
"""

from __future__ import annotations

import argparse

import cardarena
from cardarena.agents import make_agent
from cardarena.agents.base import SeatView


def agreement(game_id: str, spec: str, games: int, every: int, options: dict[str, str]) -> tuple[int, int, float]:
    """(positions where ``spec`` chose the heuristic's action, positions asked, mean number of legal actions)."""
    game = cardarena.load(game_id, **options)
    same = asked = legal_total = 0
    for g in range(games):
        state = game.new_initial_state(100 + g)
        heuristic = [make_agent("heuristic", 7 + s) for s in range(game.num_players)]
        step = 0
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            chosen = heuristic[seat].act(SeatView(state, seat))
            if len(legal) > 1 and step % every == 0:
                searched = make_agent(spec, 11 + step).act(SeatView(state, seat))
                same += searched == chosen
                asked += 1
                legal_total += len(legal)
            state.apply(chosen)
            step += 1
    return same, asked, legal_total / max(asked, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("spec", help="the search agent, e.g. ismcts or ismcts:prior=0")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--every", type=int, default=6, help="ask at every N-th decision (default 6)")
    parser.add_argument("-o", "--option", action="append", default=[], help="game option name=value")
    args = parser.parse_args()
    options = dict(kv.split("=", 1) for kv in args.option)
    same, asked, legal = agreement(args.game, args.spec, args.games, args.every, options)
    print(f"{args.spec}: the heuristic's action at {same} of {asked} positions ({same / asked:.0%}); {legal:.0f} legal")


if __name__ == "__main__":
    main()
