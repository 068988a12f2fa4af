"""Drive a Host core directly with real protocol messages: no broker, real crypto.

`Bus` stands in for the broker: everything the host publishes (after its commit) is kept in
order, and each `WireClient` reads what a subscriber to its outbox and to every room topic
would get, rebuilding its rooms with the real client's `RoomMirror`."""

from __future__ import annotations

import logging
from typing import Any

from client.net.tables import RoomMirror, TableUpdate
from server.host import Host, Outgoing
from shared import crypto
from shared import protocol as p

_buses: dict[int, Bus] = {}


class Bus:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.published: list[Outgoing] = []

    @classmethod
    def of(cls, host: Host) -> Bus:
        bus = _buses.get(id(host))
        if bus is None or bus.host is not host:
            bus = _buses[id(host)] = cls(host)
        return bus

    def pump(self) -> list[Outgoing]:
        self.host.flush()
        self.published.extend(self.host.outbox)
        self.host.outbox.clear()
        return self.published


class WireClient:
    """A client that seals requests for `host` and opens what the host published for it."""

    def __init__(self, host: Host, key: crypto.ClientKey | None = None) -> None:
        self.host = host
        self.bus = Bus.of(host)
        self.key = key or crypto.ClientKey.generate()
        self.cid = self.key.cid
        self.session = crypto.Session.for_client(self.key, host.keys.kx_public)
        self.ctr = 0
        self.cursor = len(self.bus.pump())  # a new subscriber hears from now on
        self.unread: list[Any] = []  # what `reply` saw besides the answer
        self.mirrors: dict[str, RoomMirror] = {}
        self.updates: list[TableUpdate] = []  # every room change shown, in order

    def move_to(self, host: Host) -> None:
        """The same client, talking to another host process (a restart)."""
        self.host, self.bus = host, Bus.of(host)
        self.cursor = len(self.bus.pump())
        self.session = crypto.Session.for_client(self.key, host.keys.kx_public)

    def envelope(self, message: Any, ctr: int | None = None) -> bytes:
        self.ctr = ctr if ctr is not None else crypto.next_counter(self.ctr)
        padded = p.pad(p.encode(message), p.request_class(message))
        box = crypto.seal(self.session.to_host, padded, p.request_aad(self.cid, self.ctr))
        return p.encode(p.Request(v=p.VERSION, pub=self.key.public, ctr=self.ctr, box=box))

    def send(self, message: Any) -> list[Any]:
        """Send one message; return every message published for this client since the last
        read (its outbox, and the room deltas of rooms it follows)."""
        if isinstance(message, p.Join | p.Watch):
            self.mirrors.setdefault(message.room, RoomMirror(message.room))
        return self.send_raw(self.envelope(message))

    def send_raw(self, payload: bytes) -> list[Any]:
        self.host.handle(p.inbox_topic(self.cid), payload)
        return self.inbox()

    def inbox(self) -> list[Any]:
        """Open what was published for this client since the last read, in order."""
        published = self.bus.pump()
        items, self.cursor = published[self.cursor :], len(published)
        out, self.unread = self.unread, []
        for item in items:
            message = self.open(item)
            if message is not None:
                out.append(message)
                self._mirror(message)
        return out

    def open(self, item: Outgoing) -> Any:
        if item.topic == p.outbox_topic(self.cid):
            envelope = p.decode_outbound(item.payload)
            if isinstance(envelope, p.Sealed):
                body = crypto.open_box(self.session.to_client, envelope.box,
                                       p.reply_aad(self.cid))
                return p.decode_reply(p.unpad(body, p.REPLY_CLASSES))
            return verified(self.host, item.payload)
        if item.topic.startswith(f"{p.ROOT}/room/") and not item.topic.endswith("/snap"):
            delta = verified(self.host, item.payload)
            return delta if delta.room in self.mirrors else None
        return None

    def _mirror(self, message: Any) -> None:
        shown: list[TableUpdate] = []
        if isinstance(message, p.SeatUpdate):
            mirror = self.mirrors.setdefault(message.room, RoomMirror(message.room))
            shown = mirror.on_seat(message)
        elif isinstance(message, p.RoomSnapshot) and message.room in self.mirrors:
            shown = self.mirrors[message.room].on_snapshot(message)
        elif isinstance(message, p.RoomDelta):
            shown = self.mirrors[message.room].on_delta(message)
        self.updates.extend(shown)

    def reply(self, message: Any) -> Any:
        """Send and return the direct answer (Ok, Rooms, Welcome, Error, the SeatUpdate
        that answers an act, or the speaker's own Chat that answers a say)."""
        items = self.send(message)
        for index, item in enumerate(items):
            if isinstance(item, p.Ok | p.Rooms | p.Welcome | p.HistoryPage | p.Error
                          | p.PublicError) or \
                    (isinstance(item, p.SeatUpdate | p.Chat) and item.ref is not None):
                self.unread = items[:index] + items[index + 1:]
                if isinstance(message, p.Join) and isinstance(item, p.Ok):
                    self.mirrors[message.room].seat = item.seat
                    self.unread.extend(self.send(p.Snapshot(room=message.room)))
                return item
        raise AssertionError("no answer")

    def view_of(self, room: str) -> TableUpdate:
        """This client's latest complete picture of `room` (reads what is new first)."""
        self.unread.extend(self.inbox())
        return [u for u in self.updates if u.room == room][-1]


def verified(host: Host, payload: bytes) -> Any:
    envelope = p.decode_outbound(payload)
    assert isinstance(envelope, p.Signed)
    crypto.verify(host.keys.sign_public, envelope.sig, envelope.body)
    return p.decode_public(envelope.body)


def public_of(host: Host, topic: str) -> list[Any]:
    """Signed messages published on a public topic so far, verified and decoded (an emptied
    retained topic is left out)."""
    return [verified(host, item.payload) for item in Bus.of(host).pump()
            if item.topic == topic and item.payload]


def raw_of(host: Host, topic: str) -> list[Outgoing]:
    """Everything published on `topic` so far, as it went out."""
    return [item for item in Bus.of(host).pump() if item.topic == topic]


def host_errors(records: list[logging.LogRecord]) -> list[logging.LogRecord]:
    """The errors the host (the `bang.*` loggers) logged: an earlier test's leftover asyncio
    future may be collected, and logged by asyncio, at any time."""
    return [r for r in records if r.levelno >= logging.ERROR and r.name.startswith("bang")]
