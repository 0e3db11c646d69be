"""The ``croupier`` command tree, walked: the tests that drive every option enumerate it here."""

from __future__ import annotations

from collections.abc import Iterator

import click

from croupier.conformance.cli import main


def commands(group: click.Group = main, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command below ``group`` that is no group itself, as its path of names."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name)


def command(path: tuple[str, ...]) -> click.Command:
    """The command at ``path`` (``("audit", "verify")``)."""
    found: click.Command = main
    for name in path:
        assert isinstance(found, click.Group)
        child = found.get_command(click.Context(found), name)
        assert child is not None, path
        found = child
    return found
