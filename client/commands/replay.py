"""`bang replay FILE`: replay a game record and print its log or final state."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import msgspec

from shared.describe import describe
from shared.record import RecordError, load_record, replay

EXAMPLES = """examples:
  bang replay game.json            the event log, one readable line per event
  bang replay game.json --json     the final state as JSON
  bang replay game.msgpack         records may also be MessagePack
See docs/REPLAY.md for the record format and rigged scenarios.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a game record and print its event log",
        description="Replay a game record (JSON or MessagePack) and print every event as a "
        "readable line, or the final state with --json.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", type=Path, help="the game record")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from client.plaintext import clean  # names in a record file must not reach the terminal raw

    try:
        data = args.file.read_bytes()
    except OSError as error:
        print(f"bang replay: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    lines: list[str] = []
    names: list[str] = []
    try:
        record = load_record(data)
        names = record.setup.names or [f"Player {i + 1}" for i in range(record.setup.players)]
        state = replay(record, on_event=lambda _, event: lines.append(describe(event, names)))
    except RecordError as error:
        print("\n".join(clean(line) for line in lines))
        print(f"bang replay: {args.file}: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(msgspec.to_builtins(state), ensure_ascii=False, indent=1))
    else:
        print("\n".join(clean(line) for line in lines))
    return 0
