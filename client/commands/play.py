"""`bang play`: the quick start. One command, a table with bots, you at it."""

from __future__ import annotations

import argparse

from client.commands.common import add_display_flags, settings_for
from shared.roles import MAX_PLAYERS, MIN_PLAYERS
from shared.setup import Setup

EXAMPLES = """examples:
  bang play                      a 5-player table against bots, on this machine
  bang play --players 7 --lang it
  bang play --offline --seed 42  no broker or host: the engine runs inside the app
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="start a game against bots right now (embedded broker and host)",
        description="Start the embedded broker and a host in this process, open a room with "
        "bots in the free seats and put you at the table.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=5,
                        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="N",
                        help=f"players at the table, bots included ({MIN_PLAYERS}-{MAX_PLAYERS})")
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument("--pool", choices=("all", "base"), default="all",
                        help="characters: all 26 or the 16 of the base game")
    parser.add_argument("--seed", type=int, default=None, help="deal this seed (repeatable)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds you have for each decision (default: no limit)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds each bot waits before acting, so you can follow")
    parser.add_argument("--offline", action="store_true",
                        help="no broker and no host: run the engine inside the app")
    add_display_flags(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import random

    from client.app import BangApp
    from client.session import LocalSession, LocalTable

    settings = settings_for(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    names = [settings.name] + [f"Bot {i}" for i in range(1, args.players)]
    table = LocalTable(
        setup=Setup(players=args.players, seed=seed, names=names, pool=args.pool),
        seat=0,
        bot_delay=args.bot_delay,
        timeout=args.timeout,
    )
    app = BangApp(LocalSession(table), lang=settings.lang, theme=settings.theme)
    app.run()
    return 0
