"""The `bang` command. Each sub-command lives in its own module under `client.commands`;
that module exposes `register(subparsers)` which adds its parser and sets `func`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from client import compiled_engine

#: Sub-command modules, in the order `bang --help` lists them.
COMMAND_MODULES = (
    "client.commands.play",
    "client.commands.join",
    "client.commands.watch",
    "client.commands.host",
    "client.commands.ssh_serve",
    "client.commands.simulate",
    "client.commands.replay",
    "client.commands.bench",
    "client.commands.compile",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bang",
        description="BANG! for the terminal: play, host, watch and test the Spaghetti-Western "
        "card game of hidden roles.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    compiled_engine.activate()  # before anything imports the engine
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # here, where a reader gone is caught, not at exit
        return code
    except BrokenPipeError:  # the reader went away (`bang replay --json game | head`)
        # Whatever is still buffered goes nowhere, instead of a second error at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
