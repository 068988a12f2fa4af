"""`bang watch`: spectate a room, read-only: the public table, no hand, no actions."""

from __future__ import annotations

import argparse

from client.commands.common import add_display_flags, player_name
from client.commands.join import add_connection_flags
from client.commands.join import run as join_run

EXAMPLES = """examples:
  bang watch                                  pick a room to watch from the lobby
  bang watch --room Saloon
  bang watch --broker mqtt://192.168.1.20:1883 --room k3x9a2
  bang watch --room Saloon --name Carl         your name when you talk with the spectators
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="spectate a room, read-only",
        description="Watch a game as a spectator: every public fact, no hands, no actions. "
        "Spectators talk among themselves (m); the players do not read them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_connection_flags(parser)
    parser.add_argument("--name", type=player_name,
                        help="your name when you talk (default: the last one used)")
    add_display_flags(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return join_run(args, spectator=True)
