"""The host pipeline alone: `server.host.Host` in this process, with a `Store` on a temporary
file (or on the bench's --store, e.g. PostgreSQL), and no broker and no network. Tables of
in-host bots play (bot delay 0: each move is the next event-loop callback, applied, stored,
signed and queued); a task drains the outbox as the broker link would; the figure is the
actions the host applied per second, on the one core this process runs on.

The rooms are created and started by sealed requests through `Host.handle`, as they would
arrive from the broker. Every seat is a bot, so an action makes one signed public update and
no sealed private one: an upper bound for tables of players.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from pathlib import Path

from server.host import Host
from server.ratelimit import RateLimiter
from server.rooms import Room
from server.store import Store, open_store
from shared import crypto
from shared import protocol as p

#: How often the tables are checked for a finished game to replace.
POLL = 0.01


def _request(key: crypto.ClientKey, session: crypto.Session, ctr: int,
             message: p.ClientMessage) -> tuple[str, bytes]:
    """The topic and payload of one client request: the one place here that knows the
    request envelope of the wire."""
    box = crypto.seal(session.to_host, p.pad(p.encode(message), p.REQUEST_CLASS),
                      p.request_aad(key.cid, ctr))
    return p.inbox_topic(key.cid), p.encode(p.Request(v=p.VERSION, pub=key.public, ctr=ctr,
                                                       box=box))


class _Table:
    """A client that keeps one room of bots playing on the host, a new one after each game."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.key = crypto.ClientKey.generate()
        self.session = crypto.Session.for_client(self.key, host.keys.kx_public)
        self.ctr = 0
        self.rooms: list[Room] = []

    @property
    def playing(self) -> bool:
        return bool(self.rooms) and self.rooms[-1].status == "playing"

    def next_game(self) -> bool:
        """Create a room of bots and start it; False when the host refused (it is full)."""
        self._send(p.CreateRoom(name="bots", options=p.RoomOptions(seats=4, turn_timeout=0)))
        room = next(reversed(self.host.rooms.values()), None)
        if room is None or room.record.creator != self.key.cid or room.status != "waiting":
            return False
        self._send(p.Start(room=room.id, bots=True))
        self.rooms.append(room)
        return True

    def _send(self, message: p.ClientMessage) -> None:
        self.ctr = crypto.next_counter(self.ctr)
        self.host.handle(*_request(self.key, self.session, self.ctr, message))


async def _publish(host: Host) -> None:
    """Take what the host queues, as the broker link does before publishing it."""
    while True:
        await host.has_output.wait()
        host.has_output.clear()
        host.outbox.clear()


async def host_actions_per_s(tables: int, seconds: float,
                             store_spec: Path | str | None = None) -> float:
    """`tables` tables of bots for `seconds`: the actions the host applied per second.
    `store_spec`: where the host stores them (`open_store`); default a temporary file."""
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(store_spec) if store_spec is not None \
            else Store(Path(tmp) / "pipeline.sqlite3")
        host = Host(store, bot_delay=0.0, rate=1e6, burst=1e6)
        host.creations = RateLimiter(1e9, 1e9)  # the pipeline, not the room policy
        publisher = asyncio.create_task(_publish(host))
        try:
            live = [_Table(host) for _ in range(tables)]
            everyone = list(live)
            start = time.perf_counter()
            while time.perf_counter() < start + seconds:
                live = [table for table in live if table.playing or table.next_game()]
                await asyncio.sleep(POLL)
            elapsed = time.perf_counter() - start
            actions = sum(room.state.actions for table in everyone for room in table.rooms
                          if room.state is not None)
        finally:
            publisher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await publisher
            host.stop()
            store.close()
    return actions / elapsed
