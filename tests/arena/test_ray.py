"""The Ray backend on a local runtime (two CPUs, no dashboard, shut down after): the same results as processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from cardarena.arena import simulate
from cardarena.arena.tournament import plan, tournament


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_gives_the_same_tournament_and_simulation_as_processes(local_ray: None) -> None:
    p = plan("dicebattle", ["random", "heuristic", "flatmc:worlds=1"], seed=11)
    assert tournament(p, games_per_pairing=6, backend="ray") == tournament(p, games_per_pairing=6, jobs=1)
    on_ray = simulate("laplaplace", n=12, seed=3, agents=["random"], backend="ray")
    assert on_ray == simulate("laplaplace", n=12, seed=3, agents=["random"], jobs=2)
    assert ray.is_initialized()  # a runtime the runner did not start is left running


def test_ray_gives_the_same_optimisation_as_processes(local_ray: None, tmp_path: Path) -> None:
    from cardarena.arena.optimise import Settings, optimise

    settings = Settings("dicebattle", budget=48, deals=1, seed=5, keep=1, fresh_deals=2, batch=4)
    on_ray = optimise(settings, out=tmp_path / "ray", backend="ray")
    assert on_ray.to_json() == optimise(settings, out=tmp_path / "one", jobs=1).to_json()
    assert ray.is_initialized()  # a runtime the optimiser did not start is left running
