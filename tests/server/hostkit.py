"""Drive a Host core directly with real protocol messages: no broker, real crypto."""

from __future__ import annotations

from typing import Any

from server.host import Host
from shared import crypto
from shared import protocol as p


class WireClient:
    """A client that seals requests for `host` and opens what the host queued for it."""

    def __init__(self, host: Host, key: crypto.ClientKey | None = None) -> None:
        self.host = host
        self.key = key or crypto.ClientKey.generate()
        self.cid = self.key.cid
        self.session = crypto.Session.for_client(self.key, host.keys.kx_public)
        self.ctr = 0
        self.unread: list[Any] = []  # what `reply` saw besides the answer

    def envelope(self, message: Any, ctr: int | None = None) -> bytes:
        self.ctr = ctr if ctr is not None else crypto.next_counter(self.ctr)
        box = crypto.seal(self.session.to_host, p.encode(message),
                          p.request_aad(self.cid, self.ctr))
        return p.encode(p.Request(v=1, pub=self.key.public, ctr=self.ctr, box=box))

    def send(self, message: Any) -> list[Any]:
        """Send one message; return every message the host queued for this client."""
        self.host.handle(p.inbox_topic(self.cid), self.envelope(message))
        return self.inbox()

    def send_raw(self, payload: bytes) -> list[Any]:
        self.host.handle(p.inbox_topic(self.cid), payload)
        return self.inbox()

    def inbox(self) -> list[Any]:
        """Open (and remove) what the host queued for this client, in order."""
        mine, rest = [], []
        for item in self.host.outbox:
            (mine if item.topic == p.outbox_topic(self.cid) else rest).append(item)
        self.host.outbox.clear()
        self.host.outbox.extend(rest)
        out, self.unread = self.unread, []
        for item in mine:
            envelope = p.decode_outbound(item.payload)
            if isinstance(envelope, p.Sealed):
                body = crypto.open_box(self.session.to_client, envelope.box,
                                       p.reply_aad(self.cid))
                out.append(p.decode_reply(body))
            else:
                crypto.verify(self.host.keys.sign_public, envelope.sig, envelope.body)
                out.append(p.decode_public(envelope.body))
        return out

    def reply(self, message: Any) -> Any:
        """Send and return the direct answer (Ok, Rooms, Welcome or Error)."""
        items = self.send(message)
        for index, item in enumerate(items):
            if isinstance(item, p.Ok | p.Rooms | p.Welcome | p.Error | p.PublicError):
                self.unread = items[:index] + items[index + 1:]
                return item
        raise AssertionError("no answer")


def public_of(host: Host, topic: str) -> list[Any]:
    """Signed messages queued on a public topic, verified and decoded."""
    out = []
    for item in host.outbox:
        if item.topic == topic:
            envelope = p.decode_outbound(item.payload)
            crypto.verify(host.keys.sign_public, envelope.sig, envelope.body)
            out.append(p.decode_public(envelope.body))
    return out
