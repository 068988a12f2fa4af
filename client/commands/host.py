"""`bang host`: the headless host that runs rooms and games over MQTT."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from client.commands.common import broker_url, delay_seconds, port_number

EXAMPLES = """examples:
  bang host                                  embedded broker on 127.0.0.1:1883
  bang host --lan --port 1884                embedded broker reachable from the LAN
  bang host --broker mqtt://user:pw@broker.example:1883 --data ~/bang.sqlite3
  bang host --export k3v9x2ab > game.json     a room's game, for `bang replay` and bug reports
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "host", help="run the headless game host",
        description="Run the host: rooms, games, timers and persistence over MQTT. Without "
        "--broker it starts an embedded broker in the same process.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--broker", metavar="URL", type=broker_url,
                        help="use this broker: mqtt://[user:pw@]host[:port] or mqtts://")
    parser.add_argument("--lan", action="store_true",
                        help="embedded broker on all interfaces instead of 127.0.0.1")
    parser.add_argument("--port", type=port_number, default=1883,
                        help="embedded broker port (default 1883)")
    parser.add_argument("--data", type=Path, metavar="PATH",
                        help="SQLite file for rooms and games (default: user data dir)")
    parser.add_argument("--bot-delay", type=delay_seconds, default=0.5, metavar="SECONDS",
                        help="pause before each bot move (default 0.5)")
    parser.add_argument("--keep-days", type=float, default=30.0, metavar="DAYS",
                        help="delete finished games from the data file after this many days "
                        "(default 30; 0 keeps them forever)")
    parser.add_argument("--bot-chat", action="store_true",
                        help="bots say a quick phrase now and then at the table (\"Ouch!\", "
                        "\"Good game!\"); off by default")
    parser.add_argument("--verbose", action="store_true", help="log every action")
    parser.add_argument("--export", metavar="ROOM",
                        help="print that room's game as a record for `bang replay`, and exit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.main import default_data_path, run_host, setup_logging

    if args.broker and (args.lan or args.port != 1883):
        print("bang host: --lan and --port are for the embedded broker; not with --broker",
              file=sys.stderr)
        return 2
    if args.keep_days < 0:
        print("bang host: --keep-days must be 0 (forever) or more", file=sys.stderr)
        return 2
    if args.export:
        return export(args.data or default_data_path(), args.export)
    setup_logging(args.verbose)
    return asyncio.run(run_host(args.broker, args.port, args.lan,
                                args.data or default_data_path(), bot_delay=args.bot_delay,
                                keep_days=args.keep_days, bot_talk=args.bot_chat))


def export(data: Path, room: str) -> int:
    from server.store import Store
    from shared.record import dump_record

    if not data.exists():
        print(f"bang host: no data file at {data}", file=sys.stderr)
        return 1
    store = Store(data)
    try:
        record = store.game_record(room)
    except KeyError as exc:
        print(f"bang host: {exc.args[0]}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if record is None:
        print(f"bang host: the game in room {room} has not started", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(dump_record(record) + b"\n")
    return 0
