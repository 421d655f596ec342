"""Simulation, benchmarks and (later) tournaments and statistics."""

from .bench import bench_agent, bench_game
from .simulate import GameResult, play_game, simulate
from .strength import strength, wilson

__all__ = ["GameResult", "bench_agent", "bench_game", "play_game", "simulate", "strength", "wilson"]
