"""Agents by spec string: ``name[:key=value,...]`` (``random``, ``flatmc:worlds=16``, ``ismcts:iterations=2000``).

The command line's ``--vs``/``--agents``, the arena's runners and the Python API all make agents here. An unknown
name or parameter, or a value a parameter does not take, raises ``OptionError`` listing the valid ones.
"""

from __future__ import annotations

from ..engine.errors import OptionError
from ..engine.options import resolve_options
from .base import Agent
from .expert import ExpertAgent
from .flatmc import FlatMonteCarloAgent
from .heuristic import HeuristicAgent
from .ismcts import ISMCTSAgent
from .mcts import PerfectInformationMCTSAgent
from .random_agent import RandomAgent

#: Every agent by spec name. ``mcts`` cheats (``cls.cheats``): it is for analysis, never a fair opponent.
AGENTS: dict[str, type[Agent]] = {
    cls.name: cls
    for cls in (
        RandomAgent,
        HeuristicAgent,
        FlatMonteCarloAgent,
        ISMCTSAgent,
        ExpertAgent,
        PerfectInformationMCTSAgent,
    )
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iterations=500,c=0.7"`` -> ``("ismcts", {"iterations": "500", "c": "0.7"})``.

    >>> parse_spec("flatmc:worlds=8")
    ('flatmc', {'worlds': '8'})
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"agent spec {spec!r}: {item!r} must look like key=value")
        if key.strip() in params:
            raise OptionError(f"agent spec {spec!r} gives {key.strip()!r} twice")
        params[key.strip()] = value.strip()
    return name.strip(), params


def split_specs(text: str) -> list[str]:
    """A comma-separated list of specs (one ``--agents`` value), where a spec's own ``key=value`` items stay with it.

    A piece ``key=value`` continues the spec before it when that spec has parameters (``name:...``) or seat
    options (a tournament entrant's ``...@deck=...``); otherwise, or when it is a tournament entrant's
    ``NAME=SPEC`` (its value starts with an agent's name that is no parameter of the spec before), it starts a new
    spec. Empty pieces (a trailing comma) are dropped.

    >>> split_specs("ismcts:iterations=200,c=0.5,random")
    ['ismcts:iterations=200,c=0.5', 'random']
    >>> split_specs("horde=heuristic@deck=horde,hand=5,mine=heuristic@deck=my.toml,random")
    ['horde=heuristic@deck=horde,hand=5', 'mine=heuristic@deck=my.toml', 'random']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if specs and _continues(specs[-1], piece):
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def _continues(spec: str, piece: str) -> bool:
    """Whether ``piece`` is one more ``key=value`` item of ``spec`` rather than a spec of its own."""
    key, eq, value = piece.partition("=")
    if not eq or any(c in key for c in ":@") or not any(c in spec for c in ":@"):
        return False
    named = value.strip().partition(":")[0].partition("@")[0].strip()
    if named not in AGENTS:
        return True
    # ``NAME=heuristic...``: an entrant, unless the spec before has a parameter of that name
    head = spec.partition("@")[0]
    head = head.partition("=")[2] if "=" in head.partition(":")[0] else head  # drop a leading entrant NAME=
    cls = AGENTS.get(head.partition(":")[0].strip())
    return cls is not None and key.strip() in {o.name for o in cls.params}


def make_agent(spec: str, seed: int) -> Agent:
    """An agent from its spec, with its own seeded generator."""
    name, params = parse_spec(spec)
    cls = AGENTS.get(name)
    if cls is None:
        raise OptionError(f"unknown agent {name!r}; valid agents: {', '.join(AGENTS)}")
    values = resolve_options(cls.params, params, game_id=f"agent {name!r}")
    return cls(seed, **values)  # type: ignore[call-arg]  # each agent takes its declared params
