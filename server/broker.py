"""The embedded broker: amqtt in the same process, so one command starts everything.

It binds to loopback unless the user asks for the LAN: amqtt pushes retained messages without
checking ACLs, which is harmless here only because nothing secret is ever retained.
"""

from __future__ import annotations

import errno
import logging
import socket

from amqtt.broker import Broker

log = logging.getLogger("bang.broker")


class PortInUse(Exception):
    pass


class _SnapshotDict(dict):
    """amqtt 0.12 iterates its subscription table across `await`s (when a client connects,
    and for every broadcast); a client subscribing meanwhile raises "dictionary changed size
    during iteration", which kills that connection or drops that message. Iterating over a
    snapshot makes the race harmless."""

    def __iter__(self):  # type: ignore[override]
        return iter(list(super().__iter__()))

    def items(self):  # type: ignore[override]
        return list(super().items())

    def keys(self):  # type: ignore[override]
        return list(super().keys())

    def values(self):  # type: ignore[override]
        return list(super().values())


def _check_free(address: str, port: int) -> None:
    """Fail early and clearly: amqtt's own error for a taken port is a long traceback."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise PortInUse(
                    f"port {port} on {address} is already in use: is another broker or "
                    f"`bang host` running? Use --port to pick another, or --broker "
                    f"mqtt://127.0.0.1:{port} to use the broker that is there."
                ) from None
            raise


def lan_address() -> str:
    """This machine's address on the LAN (the interface of the default route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


class EmbeddedBroker:
    def __init__(self, port: int = 1883, lan: bool = False) -> None:
        self.address = "0.0.0.0" if lan else "127.0.0.1"
        self.port = port
        self._broker: Broker | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.address == "0.0.0.0" else self.address
        return f"mqtt://{host}:{self.port}"

    async def start(self) -> None:
        _check_free(self.address, self.port)
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.address}:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin":
                        {"allow_anonymous": True}},
        }
        for noisy in ("amqtt", "transitions"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
        self._broker = Broker(config)
        self._broker._subscriptions = _SnapshotDict()  # see _SnapshotDict
        await self._broker.start()
        log.info("embedded MQTT broker listening on %s:%d%s", self.address, self.port,
                 " (all interfaces: reachable from the LAN)" if self.address == "0.0.0.0"
                 else " (this machine only; --lan to open it)")

    async def stop(self) -> None:
        if self._broker is not None:
            await self._broker.shutdown()
            self._broker = None
