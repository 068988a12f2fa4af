"""`bang join`: sit at a table on a host (the lobby, or straight into `--room`)."""

from __future__ import annotations

import argparse
import sys

from client.commands.common import (
    add_display_flags,
    broker_url,
    player_name,
    remember_broker,
    settings_for,
    unreachable,
)
from shared import protocol

EXAMPLES = """examples:
  bang join                                   the lobby of the host on this machine
  bang join --broker mqtt://192.168.1.20:1883 --name Rosa
  bang join --room Saloon                     take a seat in the room called Saloon
  bang join --broker mqtts://user:pw@bang.example.org:8883 --lang it
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "join",
        help="join a room on a host (the lobby if no room is given)",
        description="Connect to a host through its MQTT broker and take a seat. Your seat "
        "is kept if the connection drops: run the same command again to reclaim it.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_connection_flags(parser)
    parser.add_argument("--name", type=player_name, help="your name at the table")
    add_display_flags(parser)
    parser.set_defaults(func=run)


def add_connection_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", type=broker_url,
                        help="the host's broker, e.g. mqtt://127.0.0.1:1883 "
                        "(default: the last one used)")
    parser.add_argument("--room", help="a room id or name: skip the lobby")
    parser.add_argument("--fingerprint", type=_fingerprint,
                        help="the host's key fingerprint, as `bang host` prints it "
                        "(SHA256:xxxx:…): refuse any other host")


def _fingerprint(text: str) -> str:
    """A host fingerprint as `bang host` prints it, or a clear argparse error."""
    import re

    normal = text.strip().lower().replace("sha256:", "SHA256:", 1)
    if not re.fullmatch(r"SHA256(:[0-9a-f]{4}){8}", normal):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a host fingerprint (SHA256: then 8 groups of 4 hex digits, as "
            "`bang host` prints it)")
    return normal


def run(args: argparse.Namespace, spectator: bool = False) -> int:
    from client import door_mode
    from client.app import BangApp
    from client.net import Remote
    from client.screens.lobby import LobbyIntent, LobbyScreen
    from client.settings import config_path

    settings = settings_for(args)
    try:
        protocol.parse_broker_url(settings.broker)
    except protocol.ProtocolError as exc:  # saved by an older version, or edited by hand
        print(f"bang: the saved broker is unusable ({exc.message}); give one with --broker "
              "mqtt://HOST:PORT", file=sys.stderr)
        return 2
    # Over the SSH door the broker is the server's own: a player there cannot fix it, and
    # the lobby says it is down and joins once it is back.
    problem = None if door_mode.is_door() else unreachable(settings.broker)
    if problem is not None:
        print(f"bang: {problem}. Is its host running? Start one with `bang host`, or give "
              "its broker with --broker mqtt://HOST:PORT", file=sys.stderr)
        return 2
    remote = Remote(settings.broker, config_dir=config_path().parent,
                    fingerprint=args.fingerprint)
    intent = LobbyIntent(watch=args.room) if spectator else LobbyIntent(join=args.room)
    app = BangApp(
        lang=settings.lang,
        theme=settings.theme,
        first_screen=lambda app: LobbyScreen(remote, settings.name, app.i18n, intent,
                                             spectator=spectator,
                                             on_connected=lambda: remember_broker(
                                                 settings.broker)),
        remote=remote,
    )
    door_mode.apply(app)
    app.run()
    return 0
