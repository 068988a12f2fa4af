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
  bang host --broker mqtt://user:pw@broker.example:1883 --store ~/bang.sqlite3
  bang host --store postgresql://bang:pw@db.example/bang   rooms and games in PostgreSQL
  bang host --broker mqtt://broker.example --store postgresql://bang:pw@db/bang --cluster g7x
                                             one of several hosts sharing the rooms (start
                                             each the same way; docs/HOSTING.md, "Scaling")
  bang host --export k3v9x2ab > game.json     a room's game, for `bang replay` and bug reports
"""


def cluster_group(text: str) -> str:
    """`--cluster`: the group name, as server.cluster takes it."""
    from server.cluster import group_name

    try:
        return group_name(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def store_spec(text: str) -> Path | str:
    """`--store`: a URL stays as it is (`open_store` checks it); anything else is a path."""
    return text if "://" in text else Path(text)


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
    parser.add_argument("--store", "--data", dest="store", type=store_spec, metavar="PATH|URL",
                        help="where rooms and games are kept: a SQLite file (default: in the "
                        "user data dir) or postgresql://user:pw@host[:port]/database")
    parser.add_argument("--bot-delay", type=delay_seconds, default=0.5, metavar="SECONDS",
                        help="pause before each bot move (default 0.5)")
    parser.add_argument("--keep-days", type=float, default=30.0, metavar="DAYS",
                        help="delete finished games from the store after this many days "
                        "(default 30; 0 keeps them forever)")
    parser.add_argument("--bot-chat", action="store_true",
                        help="bots say a quick phrase now and then at the table (\"Ouch!\", "
                        "\"Good game!\"); off by default")
    parser.add_argument("--cluster", metavar="GROUP", type=cluster_group,
                        help="run as one of several hosts sharing --broker and --store: "
                        "requests are shared out, a room moves to another host when its "
                        "host dies. GROUP is the same for all of them and a secret of the "
                        "deployment (docs/HOSTING.md)")
    parser.add_argument("--verbose", action="store_true", help="log every action")
    parser.add_argument("--export", metavar="ROOM",
                        help="print that room's game as a record for `bang replay`, and exit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.main import default_data_path, run_host, setup_logging
    from server.store import StoreUnavailable

    if args.broker and (args.lan or args.port != 1883):
        print("bang host: --lan and --port are for the embedded broker; not with --broker",
              file=sys.stderr)
        return 2
    if args.cluster and not args.broker:
        print("bang host: --cluster needs --broker (a broker with shared subscriptions, such as "
              "Mosquitto 2 or EMQX; the embedded one has none)", file=sys.stderr)
        return 2
    if args.keep_days < 0:
        print("bang host: --keep-days must be 0 (forever) or more", file=sys.stderr)
        return 2
    spec = args.store or default_data_path()
    try:
        if args.export:
            return export(spec, args.export)
        setup_logging(args.verbose)
        return asyncio.run(run_host(args.broker, args.port, args.lan, spec,
                                    bot_delay=args.bot_delay, keep_days=args.keep_days,
                                    bot_talk=args.bot_chat, cluster=args.cluster))
    except StoreUnavailable as exc:
        print(f"bang host: {exc}", file=sys.stderr)
        return 2


def export(spec: Path | str, room: str) -> int:
    from server.store import open_store
    from shared.record import dump_record

    if isinstance(spec, Path) and not spec.exists():
        print(f"bang host: no data file at {spec}", file=sys.stderr)
        return 1
    store = open_store(spec)
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
