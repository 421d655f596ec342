"""What the run commands share: the one-line error exit, the ``--agents`` option, and the options that say where
games are played."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TypeVar

import click

from ..agents import split_specs
from ..arena.runner import Backend

F = TypeVar("F", bound=Callable[..., object])


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on standard error and exit with status 2 (bad input: nothing was run)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def runner_options(*, jobs_default: int | None = None) -> Callable[[F], F]:
    """``--jobs/-j``, ``--backend process|ray`` and ``--address``: the one runner's options (docs/tournaments.md).

    ``jobs_default=None`` means all cores (the runner's default)."""
    jobs_help = "worker processes" if jobs_default is not None else "worker processes [all cores]"

    def add(command: F) -> F:
        for option in reversed(
            (
                click.option(
                    "--jobs",
                    "-j",
                    default=jobs_default,
                    type=int,
                    show_default=jobs_default is not None,
                    help=jobs_help,
                ),
                click.option(
                    "--backend",
                    type=click.Choice([b.value for b in Backend]),
                    default=Backend.PROCESS.value,
                    show_default=True,
                    help="process: this machine; ray: a local Ray runtime, or the cluster at --address "
                    "(docs/tournaments.md)",
                ),
                click.option(
                    "--address", default=None, help="a Ray cluster to join (HOST:6379, or 'auto'); with --backend ray"
                ),
            )
        ):
            command = option(command)
        return command

    return add


AGENTS_METAVAR = "SPEC[,SPEC...]"


def agents_option(help: str, *, default: str | None = None) -> Callable[[F], F]:
    """``--agents SPEC[,SPEC...]``, the one form of every run command (simulate, strength, tournament, report,
    optimise): repeatable, each value one spec or several separated by commas (a spec's own ``key=value`` items
    stay with it, :func:`cardarena.agents.split_specs`). The command reads the values with :func:`agent_specs`."""
    more = " Repeat --agents, or separate specs by commas: --agents A,B is --agents A --agents B."
    return click.option(
        "--agents",
        "agents",
        multiple=True,
        metavar=AGENTS_METAVAR,
        help=help + more + (f"  [default: {default}]" if default is not None else ""),
    )


def agent_specs(values: Sequence[str], *, old: Sequence[str] = (), old_form: str = "") -> list[str]:
    """The specs of every ``--agents`` value, in order, then ``old``: the specs an old form of the command gave
    (``--agents A B`` as separate words, ``optimise --agent A``), still accepted with a note on standard error
    that names the new form (``old_form`` says what the old one was)."""
    specs = [spec for value in values for spec in split_specs(value)]
    if old:
        specs += [spec for value in old for spec in split_specs(value)]
        new = "--agents " + shlex.quote(",".join(specs))
        click.echo(f"note: {old_form} is the old form, still accepted; write {new}", err=True)
    return specs
