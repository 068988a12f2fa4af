"""A load worker of `bang bench relay`: networked bot tables, a burst of fresh clients, or a
stranger flooding the broker with junk, in one process and one event loop, so that the
clients' own cost stays out of the host's.

The bench starts it as `python -m client.benchkit.worker --broker URL --fingerprint FP` and
talks JSON lines with it (`client.benchkit.pool` is the other side):

    bench  -> worker  {"op": "tables", "tables": [0, 2], "seconds": 10, "rate": 1.0,
                       "timed": false, "lean": true, "seats": 4, "takeovers": false}
                      or {"op": "connect", "starts": [0.0, 0.005, ...]}
                      or {"op": "flood", "victims": [[CID, PUB], ...], "rate": 1000,
                          "seconds": 10}
    worker -> bench   {"ready": true}        connected and seated: the job can start
    bench  -> worker  {"go": T}              T: a time.time() instant shared by all workers
    worker -> bench   {"result": {...}}      or {"error": "..."} at any point

`seats`: at each table (default 4). `lean`: the seats are `client.benchkit.lean` seats, not
the client library's `Remote`s.
`starts`: one client each, connecting that many seconds after the go. `timed`: every request
of the tables' clients is timed too, and the ready line names the clients as
`"clients": [[CID, PUB], ...]` (PUB: the public key in hex), for a flood to aim at (see
`client.benchkit.flood`).

An empty line or the end of stdin ends the worker.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiomqtt

from client.benchkit.flood import flood
from client.benchkit.lean import lean_tables
from client.benchkit.remote import BenchRemote
from client.net.remote import Remote, RemoteError
from client.net.tables import TableUpdate
from shared import crypto
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.mqtt import MqttError
from shared.views import TableView

#: Seats at each table unless the job says otherwise.
SEATS = 4
#: After the deadline the seats go on reading (without acting) this long, so that the actions
#: sent just before it are timed too.
GRACE = 1.0
#: A client of the connect burst not welcomed within this many seconds is not welcomed.
CONNECT_TIMEOUT = 30.0
#: How long the table clients may take to connect before the worker gives up.
SETUP_TIMEOUT = 120.0
#: Tables seated at once before the start: all at once, a thousand tables' requests would
#: wait in the host's queue past the clients' request timeout.
SETUP_AT_ONCE = 20
#: A request that fails with one of these got no answer from the host (`Remote.request`);
#: any other code is the host's answer, a refusal.
UNANSWERED = {"unreachable", "disconnected"}
#: A game in course that updates no seat for this many seconds (plus two pacer intervals) has
#: stalled: a host died with the room. The seats ask for a snapshot (again at each stall),
#: which reaches the room's new host once it has taken the room over.
STALL = 5.0

#: What a seat reads of one update: room, seq, room info, the seat's view (None before a game).
Seen = tuple[str, int, p.RoomInfo, TableView | None]


def _view_of(update: object) -> Seen | None:
    """A seat's update as `Seen`; None for any other update. The one place that knows the
    type of a seat's update, which changes with the wire version."""
    if isinstance(update, TableUpdate) and update.seat is not None:
        return update.room, update.seq, update.info, update.view
    return None


class Tally:
    """What this worker's tables measured; the bench merges the tallies of all workers."""

    def __init__(self, seats: int = SEATS) -> None:
        self.seats = seats  # at each table: an update is complete when all have it
        self.latencies: list[float] = []  # µs from an action sent to the last seat's update
        self.sizes: list[int] = []  # bytes of each public RoomDelta received
        self.sealed: set[int] = set()  # the lengths of sealed messages seen
        self.actions = 0
        self.games = 0
        self.started = 0  # games started, the first ones (seated before the go) included
        self.acked: dict[str, list[int]] = {}  # room -> the decisions whose act was acknowledged
        self.pause = 0.0  # the longest pause of a game in course, in seconds
        self.errors: Counter[str] = Counter()
        self._sent: dict[tuple[str, int], float] = {}  # (room, seq it will make) -> sent at
        self._seen: dict[tuple[str, int], int] = {}  # (room, seq) -> seats that have it
        self._last: dict[str, float] = {}  # room in course -> when it last updated a seat
        self._until = float("inf")  # pauses are measured up to here: the deadline

    def game_on(self, room: str, until: float) -> None:
        """The room's game is in course from now: time its pauses, up to `until`."""
        self._last[room] = time.perf_counter()
        self._until = until

    def game_off(self, room: str) -> None:
        """The room's game is over, or play has ended: its last pause runs to now."""
        last = self._last.pop(room, None)
        if last is not None:
            self.pause = max(self.pause, min(time.perf_counter(), self._until) - last)

    def acknowledged(self, room: str, decision: int) -> None:
        self.acked.setdefault(room, []).append(decision)

    def sending(self, room: str, seq: int) -> None:
        self._sent[(room, seq)] = time.perf_counter()

    def unsent(self, room: str, seq: int, error: str) -> None:
        self._sent.pop((room, seq), None)
        self.errors[error] += 1

    def received(self, room: str, seq: int) -> None:
        now = time.perf_counter()
        last = self._last.get(room)
        if last is not None and now <= self._until:
            self.pause = max(self.pause, now - last)
            self._last[room] = now
        key = (room, seq)
        count = self._seen.get(key, 0) + 1
        if count < self.seats:
            self._seen[key] = count
            return
        self._seen.pop(key, None)
        started = self._sent.pop(key, None)
        if started is not None:
            self.latencies.append((time.perf_counter() - started) * 1e6)

    def result(self) -> dict[str, Any]:
        return {"latencies": [round(x) for x in self.latencies], "sizes": self.sizes,
                "sealed": sorted(self.sealed),
                "actions": self.actions, "games": self.games, "started": self.started,
                "acked": self.acked, "pause": self.pause, "errors": dict(self.errors)}


@dataclass
class _Asked:
    """One request of a timed client: when it went, and when and how it was answered."""

    sent: float
    answered: float | None = None
    code: str | None = None  # the refusal, or why no answer came
    done: bool = False


class Requests:
    """Every request the clients of a timed job sent, answered or not."""

    def __init__(self) -> None:
        self.asked: list[_Asked] = []

    def settled(self, start: float, end: float) -> bool:
        return all(a.done for a in self.asked if start <= a.sent < end)

    def result(self, start: float, end: float) -> dict[str, Any]:
        """The requests sent from `start` to `end`: how many, the milliseconds to each answer
        (the unanswered are missing), and the refusals and failures by code."""
        during = [a for a in self.asked if start <= a.sent < end]
        return {"sent": len(during),
                "answered_ms": [round((a.answered - a.sent) * 1000, 1) for a in during
                                if a.answered is not None],
                "errors": dict(Counter(a.code for a in during if a.code is not None))}


class _TimedRemote(BenchRemote):
    """A load client that notes each of its requests in `requests`: every request the
    client makes (acts, rooms, seats, its own snapshots) passes through `request`."""

    requests: Requests | None = None

    async def request(self, message: p.ClientMessage) -> Any:
        if self.requests is None:
            return await super().request(message)
        asked = _Asked(time.perf_counter())
        self.requests.asked.append(asked)
        try:
            reply = await super().request(message)
        except RemoteError as exc:
            asked.code = exc.code
            if exc.code not in UNANSWERED:
                asked.answered = time.perf_counter()
            raise
        else:
            asked.answered = time.perf_counter()
        finally:
            asked.done = True
        return reply


class _Pacer:
    """At most `rate` actions per second at one table (None: no limit). The first slot falls
    at a random point of the first interval, so that paced tables do not all act at once, as
    independent tables would not."""

    def __init__(self, rate: float | None, start: float, rng: random.Random) -> None:
        self.interval = 1.0 / rate if rate else 0.0
        self.next = start + rng.random() * self.interval

    async def wait(self) -> None:
        if not self.interval:
            return
        now = time.perf_counter()
        delay = self.next - now
        self.next = max(self.next, now) + self.interval
        if delay > 0:
            await asyncio.sleep(delay)


class _Table:
    """Networked bot seats playing games back to back; seat 0 creates the rooms. Each
    seat's updates are read from the start into a queue, so none is missed between games."""

    def __init__(self, number: int, remotes: list[Remote], tally: Tally) -> None:
        self.number = number
        self.remotes = remotes
        self.tally = tally
        self.inboxes: list[asyncio.Queue[Seen]] = [asyncio.Queue() for _ in remotes]
        self.readers = [asyncio.create_task(_read(remote, inbox))
                        for remote, inbox in zip(remotes, self.inboxes, strict=True)]
        self.room: str | None = None
        self.created = 0  # rooms, for their names

    async def new_game(self, patient: bool = False) -> bool:
        """Create a room, seat everyone, start; False (the refusal counted) when refused.
        `patient`: while the host says `busy` (it limits how fast rooms are made, for
        everyone together), wait and try again, as players arriving over time would."""
        creator = self.remotes[0]
        try:
            while True:
                try:
                    info = await creator.create_room(f"bench {self.number}.{self.created}",
                                                     seats=len(self.remotes),
                                                     turn_timeout=0)
                    break
                except RemoteError as exc:
                    if not (patient and exc.code == "busy"):
                        raise
                    await asyncio.sleep(1.0)
            for i, remote in enumerate(self.remotes):
                await remote.join(info.id, f"bot{i}")
            for remote in self.remotes[1:]:
                await remote.ready(info.id)
            await creator.start(info.id)
        except RemoteError as exc:
            self.tally.errors[exc.code] += 1
            return False
        except TimeoutError:
            self.tally.errors["timeout"] += 1
            return False
        self.room = info.id
        self.created += 1
        self.tally.started += 1
        return True

    async def play(self, deadline: float, pacer: _Pacer) -> None:
        """Games back to back until the deadline; the game then in course is left as it is
        (its seats go offline when the worker disconnects)."""
        while self.room is not None:
            room = self.room
            self.tally.game_on(room, deadline)
            over = await asyncio.gather(*(self._seat(i, room, deadline, pacer)
                                          for i in range(len(self.remotes))))
            self.tally.game_off(room)
            if not all(over):
                return
            self.tally.games += 1
            if time.perf_counter() >= deadline or not await self.new_game():
                return

    async def _seat(self, index: int, room: str, deadline: float, pacer: _Pacer) -> bool:
        """One seat until its game is over (True) or the deadline and the grace pass."""
        remote, inbox, bot = self.remotes[index], self.inboxes[index], RandomBot(index)
        answered: int | None = None
        stall = STALL + 2 * pacer.interval
        while True:
            left = deadline + GRACE - time.perf_counter()
            if left <= 0:
                return False
            try:
                seen_room, seq, info, view = await asyncio.wait_for(inbox.get(),
                                                                     min(left, stall))
            except TimeoutError:
                if time.perf_counter() < deadline:
                    with contextlib.suppress(RemoteError):
                        await remote.snapshot(room)
                continue
            if seen_room != room:
                continue
            self.tally.received(room, seq)
            if info.status == "over":
                return True
            if view is None or view.pending is None or not view.options:
                continue
            if view.pending.id == answered:  # the same decision again, after a presence change
                continue
            await pacer.wait()
            if time.perf_counter() >= deadline:
                continue
            self.tally.sending(room, seq + 1)
            decision = view.pending.id
            try:
                await remote.act(room, decision, bot.choose(view))
            except RemoteError as exc:
                if exc.code != "applied":  # applied, though its answer was lost
                    self.tally.unsent(room, seq + 1, exc.code)
                    continue
            except TimeoutError:
                self.tally.unsent(room, seq + 1, "timeout")
                continue
            self.tally.actions += 1
            self.tally.acknowledged(room, decision)
            answered = decision

    def close(self) -> None:
        for reader in self.readers:
            reader.cancel()


async def _read(remote: Remote, inbox: asyncio.Queue[Seen]) -> None:
    async for update in remote.updates():
        seen = _view_of(update)
        if seen is not None:
            inbox.put_nowait(seen)


async def _tables(broker: str, fingerprint: str, config_dir: Path, numbers: list[int],
                  seconds: float, rate: float | None, timed: bool,
                  seats: int = SEATS) -> dict[str, Any]:
    """Connect the tables' clients and seat the first games, then play from the go.
    `timed`: also time every request sent while the tables play (see `Requests`)."""
    tally = Tally(seats)
    requests = Requests() if timed else None
    remotes: list[Remote] = []
    for _ in range(seats * len(numbers)):
        remote = _TimedRemote(broker, config_dir=config_dir, key=crypto.ClientKey.generate(),
                              fingerprint=fingerprint, follow_lobby=False)
        remote.sizes, remote.sealed, remote.requests = tally.sizes, tally.sealed, requests
        remotes.append(await remote.__aenter__())
    tables: list[_Table] = []
    try:
        await asyncio.gather(*(remote.wait_connected(SETUP_TIMEOUT) for remote in remotes))
        tables = [_Table(number, remotes[seats * i: seats * i + seats], tally)
                  for i, number in enumerate(numbers)]
        gate = asyncio.Semaphore(SETUP_AT_ONCE)

        async def seat(table: _Table) -> None:
            async with gate:
                await table.new_game(patient=True)

        await asyncio.gather(*(seat(table) for table in tables))
        clients = [[r.cid, r.key.public.hex()] for r in remotes] if timed else None
        start = await _go(clients=clients)
        tally.sizes.clear()
        await asyncio.gather(*(table.play(start + seconds,
                                          _Pacer(rate, start, random.Random(table.number)))
                               for table in tables))
        timed_result = {}
        if requests is not None:
            await _settle(requests, start, start + seconds)
            timed_result = {"requests": requests.result(start, start + seconds)}
    finally:
        for table in tables:
            table.close()
        await asyncio.gather(*(remote.close() for remote in remotes))
    return tally.result() | timed_result


async def _lean_tables(broker: str, fingerprint: str, numbers: list[int], seconds: float,
                       rate: float | None, seats: int, takeovers: bool) -> dict[str, Any]:
    """The tables with lean seats: the same play, measured the same way."""
    tally = Tally(seats)
    await lean_tables(broker, fingerprint, numbers, seconds, tally, _go,
                      lambda number, start: _Pacer(rate, start, random.Random(number)),
                      seats=seats, grace=GRACE, setup_at_once=SETUP_AT_ONCE,
                      stall=STALL + (2 / rate if rate else 0.0), takeovers=takeovers)
    return tally.result()


async def _settle(requests: Requests, start: float, end: float) -> None:
    """Until every request sent from `start` to `end` has its answer or has given up (a
    snapshot the client asked for on its own may still be on its way when play ends)."""
    while not requests.settled(start, end):
        await asyncio.sleep(0.05)


async def _connect(broker: str, fingerprint: str, config_dir: Path,
                   starts: list[float]) -> dict[str, Any]:
    """One fresh identity for each of `starts`, connecting that many seconds after the go;
    the time from each one's own start to its welcome. The keys are made before the go, so
    that making them is not timed."""
    remotes = [BenchRemote(broker, config_dir=config_dir, key=crypto.ClientKey.generate(),
                           fingerprint=fingerprint, follow_lobby=False)
               for _ in starts]
    go = await _go()

    async def welcome(remote: Remote, offset: float) -> float | None:
        start = go + offset
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        await remote.__aenter__()
        try:
            await remote.wait_connected(CONNECT_TIMEOUT)
        except TimeoutError:
            return None
        return (time.perf_counter() - start) * 1000

    try:
        times = await asyncio.gather(*(welcome(remote, offset)
                                       for remote, offset in zip(remotes, starts, strict=True)))
    finally:
        await asyncio.gather(*(remote.close() for remote in remotes))
    return {"welcome_ms": [t for t in times if t is not None]}


async def _go(**about: Any) -> float:
    """Say the job is ready (with what `about` says, unless None), wait for the shared start;
    returns it on this clock."""
    _write({"ready": True} | {key: value for key, value in about.items() if value is not None})
    message = await _receive()
    if message is None:
        raise EOFError("the bench went away before the start")
    await asyncio.sleep(max(0.0, message["go"] - time.time()))
    return time.perf_counter()


async def _receive() -> dict[str, Any] | None:
    line = await asyncio.to_thread(sys.stdin.readline)
    return json.loads(line) if line.strip() else None


def _write(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def serve(broker: str, fingerprint: str) -> None:
    """Run the bench's jobs, one at a time, until it says no more."""
    with tempfile.TemporaryDirectory() as tmp:
        config_dir = Path(tmp)
        while (job := await _receive()) is not None:
            try:
                if job["op"] == "connect":
                    result = await _connect(broker, fingerprint, config_dir, job["starts"])
                elif job["op"] == "flood":
                    victims = [(cid, bytes.fromhex(pub)) for cid, pub in job["victims"]]
                    result = await flood(broker, victims, job["rate"], job["seconds"], _go)
                elif job.get("lean"):
                    result = await _lean_tables(broker, fingerprint, job["tables"],
                                                job["seconds"], job["rate"],
                                                job.get("seats", SEATS),
                                                job.get("takeovers", False))
                else:
                    result = await _tables(broker, fingerprint, config_dir, job["tables"],
                                           job["seconds"], job["rate"], job["timed"],
                                           job.get("seats", SEATS))
            except EOFError:
                return
            except (RemoteError, TimeoutError, OSError, aiomqtt.MqttError, MqttError) as exc:
                _write({"error": f"{type(exc).__name__} {exc}".strip()})
            else:
                _write({"result": result})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.benchkit.worker",
                                     description="A load worker of `bang bench relay`.")
    parser.add_argument("--broker", required=True, metavar="URL")
    parser.add_argument("--fingerprint", required=True, help="the host's key fingerprint")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    asyncio.run(serve(args.broker, args.fingerprint))
    return 0


if __name__ == "__main__":
    sys.exit(main())
