"""What the run commands share: the one-line error exit, and the options that say where games are played."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn, TypeVar

import click

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
