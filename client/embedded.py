"""`bang play`'s background: the embedded broker and a host, in this process and event loop."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from pathlib import Path

from client.net import Remote
from client.remote_session import RemoteSession
from client.session import StatusChanged
from server.broker import EmbeddedBroker
from server.connection import serve
from server.host import Host
from server.store import Store
from shared import protocol as p

DEFAULT_PORT = 1883


def port_free(port: int, lan: bool = False) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("0.0.0.0" if lan else "127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class EmbeddedServer:
    """Broker + host. Without a port: the standard MQTT port (so `bang join` finds it
    without flags), or a free one if that is taken."""

    def __init__(self, data: Path | str, *, port: int | None = None, lan: bool = False,
                 bot_delay: float = 0.6, bot_talk: bool = False) -> None:
        self.data = data
        self.bot_talk = bot_talk
        self.port = port
        self.lan = lan
        self.bot_delay = bot_delay
        self.broker: EmbeddedBroker | None = None
        self.host: Host | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._store: Store | None = None

    def fingerprint(self) -> str:
        """The host's key fingerprint (its keys are made on first use and kept in `data`)."""
        if self.host is not None:
            return self.host.keys.fingerprint
        store = Store(self.data)
        try:
            return store.host_keys().fingerprint
        finally:
            store.close()

    @property
    def url(self) -> str:
        assert self.broker is not None
        return self.broker.url

    async def start(self) -> None:
        self._store = Store(self.data)
        self.host = Host(self._store, bot_delay=self.bot_delay, bot_talk=self.bot_talk)
        port = self.port or (DEFAULT_PORT if port_free(DEFAULT_PORT, self.lan) else free_port())
        self.broker = EmbeddedBroker(port=port, lan=self.lan)
        await self.broker.start()
        self._task = asyncio.create_task(serve(self.host, p.parse_broker_url(self.url),
                                               self._stop))

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 3)
        if self.host is not None:
            self.host.stop()
        if self._store is not None:
            self._store.close()
        if self.broker is not None:
            await self.broker.stop()


class HostedSession(RemoteSession):
    """`bang play`: boot the embedded server, open a room with bots, sit the player down."""

    outlives_app = False  # the host lives in this app

    def __init__(self, server: EmbeddedServer, config_dir: Path, name: str,
                 options: p.RoomOptions, room_name: str) -> None:
        super().__init__(None, "", 0, own_remote=True)
        self.server = server
        self.config_dir = config_dir
        self.name = name
        self.options = options
        self.room_name = room_name

    async def start(self) -> None:
        self.emit(StatusChanged("connecting"))
        await self.server.start()
        assert self.server.host is not None
        # Both ends live in this process: require exactly the host we started.
        self._remote = Remote(self.server.url, config_dir=self.config_dir,
                              fingerprint=self.server.host.keys.fingerprint)
        await self._remote.__aenter__()
        await self._remote.wait_connected()
        o = self.options
        room = await self._remote.create_room(
            self.room_name, seats=o.seats, pool=o.pool, turn_timeout=o.turn_timeout,
            bot=o.bot, expansions=o.expansions, high_noon=o.high_noon,
        )
        self.room = room.id
        self.seat = await self._remote.join(room.id, self.name)
        await self._remote.start(room.id, bots=True)
        await super().start()

    async def close(self) -> None:
        """A solo table ends with its app: nobody could come back to it (each `bang play`
        deals a new one), and it must not linger as "playing" in a later LAN lobby."""
        if self.room and self.server.host is not None:
            self.server.host.abandon(self.room)
        await super().close()
        await self.server.stop()
