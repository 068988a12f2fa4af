"""`bang bench relay`: what the host costs, measured from outside it.

The host runs as `bang host` in a process of its own (with the embedded amqtt broker in it
unless --broker names one) and the load comes from other processes, so that what the host
process spends and holds is the host's own cost. It keeps its rooms in a SQLite file of its
own, or in --store (a postgresql:// URL: use a database of its own, as the bench fills it).
With --hosts N, each host step runs N host processes as one cluster (`bang host --cluster
bench-<random>`) on --broker (an external one: the embedded broker has no shared
subscriptions) and --store (PostgreSQL); the clients cannot tell the hosts apart.

1. broker_rtt: one client publishes and receives its own 300-byte messages (QoS 1); no host.
2. connect (only with --connect N): N fresh client identities connect, spread over the
   workers: all at once, or with --connect-window S at instants spread evenly over S
   seconds; the time from each one's own start to its welcome.
3. update: --tables tables of --seats (default 4) networked bot clients play for --seconds,
   run by --workers processes (default: one per CPU, at most one per table), each table as
   fast as it can or at most --rate actions per second. Measured: the time from a client
   sending its action to the last seat of its table receiving the resulting update, the size
   of the payloads the clients receive, the games finished and the actions per second of all
   tables together. games_started: the games the tables started (the first ones, seated
   before the clock starts, included); games_finished: those that ended; the others were in
   course at the end. failover_s: the longest pause a game in course saw (the largest gap
   between consecutive updates to a table's seats, or from the last one to the end). With
   --kill-one, one host process is killed with SIGKILL a third of the way through --seconds:
   its rooms must move to the other hosts (lean seats then also follow each room's retained
   snapshot, to see a takeover at once). A request that gets no answer is re-sent, and a
   game silent for 5 s is asked for a snapshot. lost_actions: the actions whose `act` the
   host acknowledged that the store does not hold afterwards (it must be 0).
   With --clients lean (the default) each seat is a lean bot (`client.benchkit.lean`): it
   checks every signature and opens every sealed message, as any client must, but builds no
   view and speaks MQTT without paho, so that a thousand tables of load fit beside the host
   on a small machine. With --clients full each seat is the client library's `Remote`, as a
   player's program is: the figure then includes the clients' own cost (they skip the lobby,
   see `client.benchkit.remote`).
4. host_rss_mb: the host process's peak resident memory over 1-3 (VmHWM).
5. host_bot: a fresh host process alone plays --tables tables of 4 in-host bots through the
   broker (every action applied, stored, signed and published); the actions are counted in
   its data file. host_bot_tables: the tables it accepted.
6. flood (only with --flood R): a fresh host process, so that nothing steps 1-5 left
   (rooms, clients, memory) weighs on it. For --seconds, one table of 4 networked bot clients
   plays at a human pace (2 actions a second at the table; --tables and --rate do not apply)
   in one worker process while, in another, a stranger on the broker sends R junk messages a
   second, evenly paced: forged requests with the honest clients' ids and keys, random bytes
   on their inboxes and outboxes, requests from fresh keys, random bytes on random room
   topics, the host topic and junk/N (see `client.benchkit.flood`). Measured: the rate the
   stranger achieved, the requests the honest clients sent during the flood, those answered
   and the time from each to its answer, and the actions applied (the game goes on).
7. host_actions_per_s: the host pipeline alone, in this process, with no broker and no
   network: Host and Store with tables of in-host bots and the outbox drained (see
   `client.benchkit.pipeline`).

`engine`: "compiled" when the host processes and step 7 run the compiled rules engine (`bang
compile`; they find it as this process does), else "interpreted".

`errors`, `host_bot_errors` and `flood_errors` count the refusals and timeouts the clients of
steps 3, 5 and 6 met, by code (`busy`: the host makes rooms at a limited rate, or runs as many
as it allows; the tables of step 3 wait for their first rooms and those of step 5 ask again a
second later, without counting it; `unreachable`: no answer within the client's 10 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from client import compiled_engine
from client.commands.common import broker_url, unreachable
from client.commands.host import store_spec

if TYPE_CHECKING:
    from client.benchkit.hosts import HostGroup, HostSetup
    from client.benchkit.pool import FloodRun
    from client.net.remote import Remote
    from server.store import Store

EXAMPLES = """examples:
  bang bench relay                                    embedded broker, 4 tables
  bang bench relay --broker mqtt://127.0.0.1:1883 --tables 8 --json
  bang bench relay --broker mqtt://127.0.0.1:1883 --tables 1000 --rate 1 --json
  bang bench relay --broker mqtt://127.0.0.1:1883 --connect 3000
  bang bench relay --broker mqtt://127.0.0.1:1883 --connect 3000 --connect-window 10
  bang bench relay --broker mqtt://127.0.0.1:1883 --tables 1 --flood 1000 --json
  bang bench relay --store postgresql://bang:PW@127.0.0.1/bench --json
  bang bench relay --broker mqtt://127.0.0.1:1883 --store postgresql://bang:PW@127.0.0.1/bench \
      --hosts 3 --kill-one --tables 30 --seconds 30 --json
"""

#: How long the host-bot creators may take to connect.
SETUP_TIMEOUT = 120.0
#: How often a host-bot table looks for the end of its game in the host's data file.
POLL = 0.05
#: Seconds a host-bot table waits before asking again for a room the host was too busy to make.
BUSY_RETRY = 1.0
#: Actions a second at the honest table of the flood step: a quick human table, far inside
#: the host's budgets, so that what it meets is the flood's doing.
FLOOD_PACE = 2.0
KILL_ONE_ALONE = "--kill-one needs --hosts 2 or more: another host must take the rooms over"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure the network relay",
                                   description="Benchmarks that print figures.")
    sub = parser.add_subparsers(dest="bench", metavar="BENCH", required=True)
    relay = sub.add_parser(
        "relay", help="the host's cost: latency, bytes, tables, memory, throughput",
        description=__doc__, epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    relay.add_argument("--broker", metavar="URL", type=broker_url,
                       help="an existing broker (e.g. Mosquitto); default: embedded amqtt")
    relay.add_argument("--tables", type=int, default=4,
                       help="concurrent tables of networked bots (default 4)")
    relay.add_argument("--seconds", type=float, default=10.0,
                       help="how long the tables play (default 10)")
    relay.add_argument("--rate", type=float, metavar="R",
                       help="at most R actions per second at each table (default: as fast "
                       "as it can)")
    relay.add_argument("--seats", type=int, default=4,
                       help="seats at each table, 3-7 (default 4)")
    relay.add_argument("--clients", choices=("lean", "full"), default="lean",
                       help="the tables' seats: lean bots or the full client library "
                       "(default lean)")
    relay.add_argument("--workers", type=int, metavar="N",
                       help="processes running the bot tables (default: one per CPU, at most "
                       "one per table)")
    relay.add_argument("--connect", type=int, metavar="N",
                       help="also time N fresh clients connecting (at once, or over "
                       "--connect-window), to their welcome")
    relay.add_argument("--connect-window", type=float, metavar="S",
                       help="with --connect: the N clients start at instants spread evenly "
                       "over S seconds (default 0: all at once)")
    relay.add_argument("--flood", type=float, metavar="R",
                       help="also play one table under a flood of R junk messages per second "
                       "on the broker (default: no flood)")
    relay.add_argument("--pings", type=int, default=1000,
                       help="broker round trips to time (default 1000)")
    relay.add_argument("--store", type=store_spec, metavar="PATH|URL",
                       help="the hosts' store: a SQLite file or postgresql://… (default: a "
                       "SQLite file of the bench's own for each host step)")
    relay.add_argument("--hosts", type=int, metavar="N",
                       help="N host processes as one cluster (needs --broker and --store "
                       "postgresql://…); default: one host on its own")
    relay.add_argument("--kill-one", action="store_true",
                       help="with --hosts: SIGKILL one host a third of the way through the "
                       "tables' --seconds")
    relay.add_argument("--json", action="store_true", help="one JSON object on stdout")
    relay.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import logging

    from client.benchkit import BenchError
    from client.benchkit.hosts import HostSetup

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    problem = _check(args) or _store_problem(args.store)
    if not problem and args.broker is not None:
        problem = unreachable(args.broker)
    if problem:
        print(f"bang bench relay: {problem}", file=sys.stderr)
        return 2
    workers = args.workers or min(os.cpu_count() or 1, args.tables)
    hosts = HostSetup(args.broker, args.store, args.hosts, args.kill_one)
    try:
        result = asyncio.run(relay(hosts, args.tables, args.seconds, args.pings,
                                   args.rate, workers, args.connect,
                                   args.connect_window or 0.0, args.flood, args.clients,
                                   args.seats))
    except BenchError as exc:
        print(f"bang bench relay: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    return 0


def _check(args: argparse.Namespace) -> str | None:
    """What is wrong with the flags, in one line; None when nothing is."""
    if args.tables < 1 or args.seconds <= 0 or args.pings < 1:
        return "--tables, --seconds and --pings must be positive"
    if args.rate is not None and not 0 < args.rate < math.inf:
        return "--rate must be a positive number of actions per second"
    if not 3 <= args.seats <= 7:
        return "--seats must be 3 to 7"
    if args.workers is not None and args.workers < 1:
        return "--workers must be positive"
    if args.connect is not None and args.connect < 1:
        return "--connect must be positive"
    if args.connect_window is not None and not 0 <= args.connect_window < math.inf:
        return "--connect-window must be a number of seconds, 0 or more"
    if args.connect_window is not None and args.connect is None:
        return "--connect-window needs --connect"
    if args.flood is not None and not 0 < args.flood < math.inf:
        return "--flood must be a positive number of messages per second"
    return _check_hosts(args)


def _check_hosts(args: argparse.Namespace) -> str | None:
    """The cluster flags: what is wrong with them, in one line."""
    from server.store import POSTGRES_SCHEMES

    if args.hosts is None:
        return KILL_ONE_ALONE if args.kill_one else None
    if args.hosts < 1:
        return "--hosts must be positive"
    if args.broker is None:
        return ("--hosts needs --broker: an external broker with shared subscriptions "
                "(Mosquitto 2, EMQX); the embedded one has none")
    if not str(args.store or "").startswith(POSTGRES_SCHEMES):
        return "--hosts needs --store postgresql://…: the hosts share their rooms there"
    if args.kill_one and args.hosts < 2:
        return KILL_ONE_ALONE
    return None


def _store_problem(spec: Path | str | None) -> str | None:
    """Why --store cannot be opened, in one line; None when it can (or is not given)."""
    from server.store import StoreUnavailable, open_store

    if spec is None:
        return None
    try:
        open_store(spec).close()
    except StoreUnavailable as exc:
        return str(exc)
    return None


def _pct(values: list[float], q: float) -> int:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))]) if ordered else 0


async def relay(hosts: HostSetup, tables: int, seconds: float, pings: int,
                rate: float | None, workers: int, connect: int | None,
                connect_window: float = 0.0, flood: float | None = None,
                clients: str = "lean", seats: int = 4) -> dict[str, Any]:
    from client.benchkit.audit import lost_actions
    from client.benchkit.pipeline import host_actions_per_s
    from client.benchkit.pool import WorkerPool
    from shared import protocol as p

    _raise_fd_limit()
    with tempfile.TemporaryDirectory() as tmp:
        async with hosts.group(_mkdir(Path(tmp) / "tables")) as group:
            rtt = await _broker_rtt(p.parse_broker_url(group.url), pings)
            async with WorkerPool(workers, group.url, group.fingerprint) as pool:
                welcomes = await pool.connect(connect, connect_window) if connect else []
                played = await pool.tables(tables, seconds, rate, lean=clients == "lean",
                                           seats=seats, on_go=_killer(group, hosts, seconds),
                                           takeovers=hosts.kill_one)
            rss = group.peak_rss_mb()
            lost = lost_actions(group.store, played.acked)
        async with hosts.group(_mkdir(Path(tmp) / "bots")) as group:
            bot_tables, bot_rate, bot_errors = await _host_bot_tables(group, tables, seconds)
        flooded = await _flood(hosts, _mkdir(Path(tmp) / "flood"), flood, seconds) \
            if flood else None
    pipeline = await host_actions_per_s(tables, seconds, hosts.store)
    result: dict[str, Any] = {
        "broker": "embedded amqtt" if hosts.broker is None else hosts.broker,
        "store": "sqlite" if hosts.store is None else _store_kind(hosts.store),
        "hosts": hosts.count or 1,
        "broker_rtt_p50_us": _pct(rtt, 0.5),
        "broker_rtt_p99_us": _pct(rtt, 0.99),
        "update_p50_us": _pct(played.latencies, 0.5),
        "update_p99_us": _pct(played.latencies, 0.99),
        "updates_timed": len(played.latencies),
        "bytes_per_update_median": round(statistics.median(played.sizes)) if played.sizes else 0,
        "sealed_sizes": played.sealed,
        "tables": tables,
        "clients": clients,
        "seats": seats,
        "games_started": played.started,
        "games_finished": played.games,
        "failover_s": round(played.pause, 2),
        "lost_actions": lost,
        "actions_per_s": round(played.actions / seconds, 1),
        "host_bot_tables": bot_tables,
        "host_bot_actions_per_s": round(bot_rate, 1),
        "host_rss_mb": rss,
        "host_actions_per_s": round(pipeline, 1),
        "workers": workers,
        "rate": rate,
        "engine": "compiled" if compiled_engine.active() else "interpreted",
        "errors": dict(played.errors),
        "host_bot_errors": dict(bot_errors),
    }
    if connect:
        result |= {"connect_clients": connect, "connect_window_s": connect_window,
                   "connect_welcomed": len(welcomes),
                   "connect_p50_ms": _pct(welcomes, 0.5), "connect_p99_ms": _pct(welcomes, 0.99)}
    if flood is not None and flooded is not None:
        result |= _flood_figures(flood, flooded)
    return result


def _killer(group: HostGroup, hosts: HostSetup, seconds: float) -> Callable[[float], None]:
    """What the tables' start does: with --kill-one, arm the kill for a third of the way."""

    def arm(go: float) -> None:
        if hosts.kill_one:
            delay = go - time.time() + seconds / 3
            asyncio.get_running_loop().call_later(max(0.0, delay), group.kill_one)

    return arm


def _store_kind(spec: Path | str) -> str:
    from server.store import POSTGRES_SCHEMES

    return "postgresql" if str(spec).startswith(POSTGRES_SCHEMES) else "sqlite"


async def _flood(hosts: HostSetup, workdir: Path, rate: float, seconds: float) -> FloodRun:
    """Step 6: an honest table under a junk flood, on a host process (or cluster) of its own."""
    from client.benchkit.pool import WorkerPool

    async with hosts.group(workdir) as group, \
            WorkerPool(2, group.url, group.fingerprint) as pool:
        return await pool.flood(rate, seconds, FLOOD_PACE)


def _flood_figures(rate: float, run: FloodRun) -> dict[str, Any]:
    """The flood_* keys of the result."""
    return {"flood_rate": rate, "flood_msgs_per_s": round(run.sent / run.seconds, 1),
            "flood_requests": run.requests, "flood_answered": len(run.answered_ms),
            "flood_p50_ms": _pct(run.answered_ms, 0.5),
            "flood_p99_ms": _pct(run.answered_ms, 0.99),
            "flood_actions": run.actions, "flood_games_finished": run.games,
            "flood_errors": dict(run.errors)}


def _mkdir(path: Path) -> Path:
    path.mkdir()
    return path


def _raise_fd_limit() -> None:
    """Every client holds a socket: allow as many open files as the system lets this process
    have; the host and the workers inherit the limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _broker_rtt(address: Any, pings: int) -> list[float]:
    """Publish -> receive on one connection, QoS 1, a 300-byte payload; no host involved."""
    from client.net.remote import mqtt_client

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


async def _host_bot_tables(host: HostGroup, tables: int,
                           seconds: float) -> tuple[int, float, Counter[str]]:
    """The host alone: `tables` rooms of 4 in-host bots, each followed by a new one when its
    game ends, for `seconds`. Returns the tables the host accepted, the actions per second
    they made, and the refusals. The games are followed in the host's data file, so that no
    client has to watch them."""
    from client.benchkit import BenchError
    from client.benchkit.remote import BenchRemote
    from server.store import open_store
    from shared import crypto

    creators = [BenchRemote(host.url, config_dir=host.workdir, key=crypto.ClientKey.generate(),
                            fingerprint=host.fingerprint, follow_lobby=False)
                for _ in range(tables)]
    for remote in creators:
        await remote.__aenter__()
    rooms: list[list[str]] = [[] for _ in creators]
    errors: Counter[str] = Counter()
    store = open_store(host.store)
    try:
        try:
            await asyncio.gather(*(r.wait_connected(SETUP_TIMEOUT) for r in creators))
        except TimeoutError:
            raise BenchError(f"the host-bot clients did not all connect within "
                             f"{SETUP_TIMEOUT:.0f} s") from None
        start = time.perf_counter()
        await asyncio.gather(*(_bot_games(remote, store, start + seconds, mine, errors)
                               for remote, mine in zip(creators, rooms, strict=True)))
        elapsed = time.perf_counter() - start
        actions = sum(store.action_count(room) for mine in rooms for room in mine)
    finally:
        store.close()
        await asyncio.gather(*(remote.close() for remote in creators))
    return sum(bool(mine) for mine in rooms), actions / elapsed, errors


async def _bot_games(creator: Remote, store: Store, deadline: float, rooms: list[str],
                     errors: Counter[str]) -> None:
    """One host-bot table: a new room of bots whenever the last game is over."""
    from client.net.remote import RemoteError

    while time.perf_counter() < deadline:
        if rooms and store.load_record(rooms[-1]).status == "playing":
            await asyncio.sleep(POLL)
            continue
        try:
            room = await creator.create_room("bots", seats=4, turn_timeout=0)
            rooms.append(room.id)
            await creator.start(room.id, bots=True)
        except RemoteError as exc:
            if exc.code == "busy":  # rooms are made at a limited rate, for everyone together
                await asyncio.sleep(BUSY_RETRY)
                continue
            errors[exc.code] += 1
            return
        except TimeoutError:
            errors["timeout"] += 1
            return
