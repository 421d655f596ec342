"""The largest Lyabi decision over random games: legal actions (one line each in a flat menu), groups (one line
each in the grouped menu: ``game.choice_label``) and the most details in one group.

    .venv/bin/python scripts/lyabi_menu_sizes.py --games 300
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

import cardarena


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    game = cardarena.load("lyabi")
    most_actions = most_groups = most_details = 0
    for seed in range(args.games):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            groups = Counter(game.choice_label(state, a)[0] for a in legal)
            most_actions = max(most_actions, len(legal))
            most_groups = max(most_groups, len(groups))
            most_details = max(most_details, max(groups.values()))
            state.apply(rng.choice(state.playout_actions()))
    print(
        f"{args.games} random games: largest decision {most_actions} legal actions; most groups {most_groups};"
        f" most details in one group {most_details}"
    )


if __name__ == "__main__":
    main()
