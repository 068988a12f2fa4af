"""`bang bench relay`: what the broker and the host cost on loopback.

1. broker_rtt: one client publishes and receives its own 300-byte messages (QoS 1), no host.
2. update: `--tables` tables of 4 networked bot clients play for `--seconds`; the time from a
   client sending its action to the last seat receiving the resulting update, the size of
   those updates, and the actions per second all tables made together.
3. host_bot: the host alone runs `--tables` tables of 4 in-host bots (every action still
   applied, stored, signed and published): the host's own throughput.

Everything runs in this one process and event loop (broker if embedded, host, and every bot
client), so the figures are an upper bound on latency and a lower bound on throughput.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

EXAMPLES = """examples:
  bang bench relay                                    embedded broker, 4 tables
  bang bench relay --broker mqtt://127.0.0.1:1883 --tables 8 --json
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure the network relay",
                                   description="Benchmarks that print figures.")
    sub = parser.add_subparsers(dest="bench", metavar="BENCH", required=True)
    relay = sub.add_parser(
        "relay", help="broker round trip, action-to-update latency, bytes, tables",
        description=__doc__, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    relay.add_argument("--broker", metavar="URL",
                       help="an existing broker (e.g. Mosquitto); default: embedded amqtt")
    relay.add_argument("--tables", type=int, default=4,
                       help="concurrent tables of 4 networked bots (default 4)")
    relay.add_argument("--seconds", type=float, default=10.0,
                       help="how long the tables play (default 10)")
    relay.add_argument("--pings", type=int, default=1000,
                       help="broker round trips to time (default 1000)")
    relay.add_argument("--json", action="store_true", help="one JSON object on stdout")
    relay.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import logging

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    if args.tables < 1 or args.seconds <= 0 or args.pings < 1:
        print("bang bench relay: --tables, --seconds and --pings must be positive",
              file=sys.stderr)
        return 2
    result = asyncio.run(relay(args.broker, args.tables, args.seconds, args.pings))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    return 0


def _pct(values: list[float], q: float) -> int:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))]) if ordered else 0


async def relay(broker: str | None, tables: int, seconds: float, pings: int) -> dict[str, Any]:
    from server.broker import EmbeddedBroker
    from server.connection import serve
    from server.host import Host
    from server.store import Store
    from shared import protocol as p

    embedded = None
    if broker is None:
        embedded = EmbeddedBroker(port=_free_port())
        await embedded.start()
        broker = embedded.url
    address = p.parse_broker_url(broker)
    with tempfile.TemporaryDirectory() as tmp:
        rtt = await _broker_rtt(address, pings)
        store = Store(Path(tmp) / "bench.sqlite3")
        host = Host(store, bot_delay=0.0, rate=1e6, burst=1e6)
        stop = asyncio.Event()
        serving = asyncio.create_task(serve(host, address, stop))
        try:
            tally = await _tables(broker, Path(tmp), tables, seconds, host)
            bot_actions = await _bot_tables(broker, Path(tmp), tables, seconds, host)
        finally:
            stop.set()
            await serving
            host.stop()
            store.close()
            if embedded is not None:
                await embedded.stop()
    return {
        "broker": "embedded amqtt" if embedded is not None else broker,
        "broker_rtt_p50_us": _pct(rtt, 0.5),
        "broker_rtt_p99_us": _pct(rtt, 0.99),
        "update_p50_us": _pct(tally.latencies, 0.5),
        "update_p99_us": _pct(tally.latencies, 0.99),
        "updates_timed": len(tally.latencies),
        "bytes_per_update_median": round(statistics.median(tally.sizes)) if tally.sizes else 0,
        "tables": tables,
        "games_finished": tally.games,
        "actions_per_s": round(tally.actions / seconds, 1),
        "host_bot_tables": tables,
        "host_bot_actions_per_s": round(bot_actions / seconds, 1),
    }


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _broker_rtt(address: Any, pings: int) -> list[float]:
    """Publish -> receive on one connection, QoS 1, a 300-byte payload; no host involved."""
    from server.connection import mqtt_client

    topic = f"bang/bench/{time.time_ns()}"
    out = []
    async with mqtt_client(address) as client:
        await client.subscribe(topic, qos=1)
        messages = client.messages.__aiter__()
        for _ in range(pings):
            start = time.perf_counter()
            await client.publish(topic, b"x" * 300, qos=1)
            await messages.__anext__()
            out.append((time.perf_counter() - start) * 1e6)
    return out


async def _bot_tables(broker: str, tmp: Path, tables: int, seconds: float, host: Any) -> int:
    """The host alone: `tables` games of 4 in-host bots, restarted as they end; returns the
    actions the host applied (and stored, and published) in `seconds`."""
    from client.net.remote import Remote
    from shared import crypto

    creators = [Remote(broker, config_dir=tmp / "c", key=crypto.ClientKey.generate(),
                       fingerprint=host.keys.fingerprint) for _ in range(tables)]
    for remote in creators:
        await remote.__aenter__()
    by_table: list[list[Any]] = [[] for _ in creators]  # the host's Room objects
    try:
        await asyncio.gather(*(r.wait_connected(30) for r in creators))
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for remote, rooms in zip(creators, by_table, strict=True):
                if not rooms or rooms[-1].status != "playing":
                    room = await remote.create_room("bots", seats=4, turn_timeout=0)
                    rooms.append(host.rooms[room.id])
                    await remote.start(room.id, bots=True)
            await asyncio.sleep(0.05)
        everything = [room for rooms in by_table for room in rooms]
        counted = sum(room.state.actions for room in everything if room.state is not None)
        for room in everything:  # stop the bots before the host is torn down
            host.timers.cancel(room.id)
    finally:
        for remote in creators:
            await remote.close()
    return counted


class _Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.sizes: list[int] = []
        self.actions = 0
        self.games = 0
        self.sent: dict[tuple[str, int], float] = {}
        self.seen: dict[tuple[str, int], tuple[int, float]] = {}

    def received(self, room: str, seq: int, seats: int) -> None:
        key = (room, seq)
        count, _ = self.seen.get(key, (0, 0.0))
        now = time.perf_counter()
        self.seen[key] = (count + 1, now)
        if count + 1 == seats:
            del self.seen[key]
            started = self.sent.pop(key, None)
            if started is not None:
                self.latencies.append((now - started) * 1e6)


async def _tables(broker: str, tmp: Path, tables: int, seconds: float, host: Any) -> _Tally:
    from client.net.remote import Remote
    from shared import crypto

    tally = _Tally()

    class CountingRemote(Remote):
        def _dispatch(self, topic: str, payload: bytes) -> None:
            if topic.endswith("/out"):
                tally.sizes.append(len(payload))
            super()._dispatch(topic, payload)

    remotes = [CountingRemote(broker, config_dir=tmp / "c", key=crypto.ClientKey.generate(),
                              fingerprint=host.keys.fingerprint)
               for _ in range(4 * tables)]
    for remote in remotes:
        await remote.__aenter__()
    try:
        await asyncio.gather(*(r.wait_connected(30) for r in remotes))
        tally.sizes.clear()
        deadline = time.perf_counter() + seconds
        await asyncio.gather(*(_table(remotes[4 * t: 4 * t + 4], deadline, tally, t)
                               for t in range(tables)))
    finally:
        for remote in remotes:
            await remote.close()
    return tally


async def _table(seats: list[Any], deadline: float, tally: _Tally, number: int) -> None:
    """Play games back to back at one table until the deadline."""
    from shared.bots.random_bot import RandomBot

    game = 0
    while time.perf_counter() < deadline:
        room = await seats[0].create_room(f"bench {number}.{game}", seats=4, turn_timeout=0)
        for i, remote in enumerate(seats):
            await remote.join(room.id, f"bot{i}")
        for remote in seats[1:]:
            await remote.ready(room.id)
        await seats[0].start(room.id)
        over = await asyncio.gather(*(_seat(r, room.id, RandomBot(i), deadline, tally)
                                      for i, r in enumerate(seats)))
        if all(over):
            tally.games += 1
        for remote in seats:
            await remote.leave(room.id)
        game += 1


async def _seat(remote: Any, room: str, bot: Any, deadline: float, tally: _Tally) -> bool:
    """One bot seat; True when the game ended before the deadline."""
    from client.net.remote import RemoteError
    from shared import protocol as p

    updates = remote.updates()
    while True:
        patience = min(5.0, max(0.5, deadline - time.perf_counter() + 0.5))
        try:
            update = await asyncio.wait_for(updates.__anext__(), patience)
        except TimeoutError:
            return False
        if not isinstance(update, p.PrivateUpdate) or update.room != room:
            continue
        tally.received(room, update.seq, 4)
        if update.info.status == "over":
            return True
        if time.perf_counter() > deadline:
            return False
        view = update.view
        if view is None or view.pending is None or not view.options:
            continue
        tally.sent[(room, update.seq + 1)] = time.perf_counter()
        try:
            await remote.act(room, view.pending.id, bot.choose(view))
            tally.actions += 1
        except RemoteError:
            tally.sent.pop((room, update.seq + 1), None)
