"""Helpers for the network tests: a real Mosquitto on a free port, a host served over a
broker inside the test's event loop."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from server.connection import serve
from server.host import Host
from server.store import Store
from shared import protocol as p

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
)


def bench_relay(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`bang bench relay --json` (short: 2 tables, 1.5 s, 20 pings, unless `args` say
    otherwise), in a process group of its own, so that a timeout also ends the hosts and the
    workers it started."""
    argv = [sys.executable, "-m", "client.cli", "bench", "relay", "--json", "--seconds", "1.5",
            "--pings", "20", "--tables", "2", *args]
    with subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, start_new_session=True) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


class MosquittoProcess:
    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
            "log_dest stderr\nlog_type error\nset_tcp_nodelay true\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert MOSQUITTO is not None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


class RunningHost:
    """A host core served over a broker inside the test's event loop."""

    def __init__(self, url: str, data: Path, bot_delay: float = 0.0) -> None:
        self.url = url
        self.data = data
        self.bot_delay = bot_delay
        self.host: Host | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> Host:
        self.store = Store(self.data)
        self.host = Host(self.store, bot_delay=self.bot_delay)
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(serve(self.host, p.parse_broker_url(self.url),
                                               self._stop))
        return self.host

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task
        assert self.host is not None
        self.host.stop()
        self.store.close()




class Player:
    """A Remote plus a reader that keeps every update, in order, for tests that step through
    a game. `options` go to the Remote (e.g. `fingerprint=`)."""

    def __init__(self, url: str, config_dir: Path, **options: Any) -> None:
        from client.net import Remote

        self.remote = Remote(url, config_dir=config_dir, **options)
        self.updates: list[Any] = []
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> Player:
        await self.remote.__aenter__()
        self._reader = asyncio.create_task(self._read())
        try:
            await self.remote.wait_connected()
        except BaseException:
            await self.close()
            raise
        return self

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        await self.remote.close()

    async def _read(self) -> None:
        async for update in self.remote.updates():
            self.updates.append(update)
            self._changed.set()

    def last(self, room: str) -> Any:
        from client.net import TableUpdate

        mine = [u for u in self.updates if isinstance(u, TableUpdate) and u.room == room
                and u.seat is not None]
        return mine[-1] if mine else None

    async def next(self, predicate: Callable[[Any], bool], since: int = 0,
                   timeout: float = 20.0) -> tuple[int, Any]:
        """The first update from index `since` on for which `predicate` holds, with its
        index (waits for it)."""
        async with asyncio.timeout(timeout):
            while True:
                for index in range(since, len(self.updates)):
                    if predicate(self.updates[index]):
                        return index, self.updates[index]
                since = len(self.updates)
                self._changed.clear()
                await self._changed.wait()

    async def until(self, predicate: Callable[[Any], bool], timeout: float = 20.0) -> Any:
        """The first update (from now on, or already kept) for which `predicate` is true."""
        return (await self.next(predicate, 0, timeout))[1]


async def seat_table(url: str, tmp: Path, players: int = 4, **options) -> tuple[list[Player], str]:
    """Connect `players` clients, create a room, seat everyone and start the game."""
    table = [await Player(url, tmp / f"client{i}").open() for i in range(players)]
    room = await table[0].remote.create_room("Test table", seats=players, **options)
    for i, player in enumerate(table):
        await player.remote.join(room.id, f"P{i}")
    for player in table[1:]:
        await player.remote.ready(room.id)
    await table[0].remote.start(room.id)
    for player in table:
        await player.until(lambda u: getattr(u, "room", None) == room.id
                           and getattr(u, "view", None) is not None)
    return table, room.id


async def synced(table: list[Player], room: str, seq: int) -> None:
    """Until every player has seen room change `seq`."""
    from client.net import TableUpdate

    for player in table:
        await player.until(lambda u: isinstance(u, TableUpdate) and u.room == room
                           and u.seq >= seq)


async def step(table: list[Player], room: str, bots: list) -> bool:
    """The seat with a pending decision answers with its bot; then everyone sees the result.
    Returns False once the game is over."""
    from client.net import RemoteError, TableUpdate

    latest = [player.last(room) for player in table]
    if any(u is not None and u.info.status == "over" for u in latest):
        return False
    for seat, update in enumerate(latest):
        if update is not None and update.view is not None and update.view.options:
            view = update.view
            try:
                await table[seat].remote.act(room, view.pending.id, bots[seat].choose(view))
            except RemoteError as exc:
                # Only a view made stale by a concurrent room change is acceptable here.
                if exc.code != "stale":
                    raise
                await synced(table, room, update.seq + 1)
                return True
            # The change our action made is not always `update.seq + 1`: presence changes
            # (players greeting a restarted host) may come in between. The actor sees it as
            # the first change where its decision is gone.
            done = await table[seat].until(
                lambda u, was=update: isinstance(u, TableUpdate) and u.room == room
                and u.seq > was.seq and u.view is not None
                and (u.view.pending is None or u.view.pending.id != was.view.pending.id))
            await synced(table, room, done.seq)
            return True
    raise AssertionError("nobody at the table has a decision to make")
