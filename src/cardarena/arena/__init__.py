"""Simulation, benchmarks and (later) tournaments and statistics."""

from .bench import bench_game
from .simulate import GameResult, play_game, simulate

__all__ = ["GameResult", "bench_game", "play_game", "simulate"]
