"""Several host processes as one host (`bang host --cluster GROUP`), sharing one store and one
broker (../docs/HOSTING.md, "Scaling").

- One identity: the host keys are in the store, so every process signs and seals as the
  same host and clients pin one fingerprint.
- Work sharing: the hosts subscribe to the clients' inboxes through an MQTT shared
  subscription (`$share/GROUP/…`), so each request reaches one of them. A room is run by the
  host holding its lease (a row in the store, renewed every LEASE / 3 seconds); a request for a
  room another host runs is forwarded to it, untouched (it is sealed by its client, so the
  owner checks it as if it had come straight from the broker).
- Failover: a room whose lease ran out (its host died, or lost the store) is taken over by
  the first host to claim it: replayed from the store, its timers re-armed, its retained
  topics published again. A host that failed to renew a lease drops the room; the store's
  `(room, n)` key refuses an action written twice.
- Counters: a request's counter is accepted by one statement in the store (`advance_client`),
  so a request replayed to another host is refused there too.
- Notes between hosts (a client greeted by one host is online in the rooms another runs, or
  has gone) are signed with the hosts' shared key.
- One `link`: the hosts announce the same `link` in their HostHello (kept in the store). It
  changes when a host (re)connects or another host is found gone, and a client re-sends its
  unanswered requests and greets again when it changes, as after a single host's restart.

Clocks: leases and the signed messages' counters use the wall clock, so the machines of a
cluster keep theirs synchronized (NTP).
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass, field

import msgspec

from shared import crypto
from shared import protocol as p

#: Seconds a room's lease lasts; its host renews it every LEASE / 3 seconds.
LEASE = 6.0
#: Seconds between two looks for rooms nobody holds, and between lease renewals.
CHECK = 1.0
#: A forwarded request is forwarded at most this many times (a lease may move meanwhile).
MAX_HOPS = 2

_GROUP = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Forward(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """What one host sends another on its forward topic: a client's request as it came
    (`topic`, `payload`), or a signed note about a client (`note`)."""

    topic: str = ""
    payload: bytes = b""
    hops: int = 0
    note: bytes = b""  # a signed Note


class Note(msgspec.Struct, forbid_unknown_fields=True):
    """A client's presence, for the host running `rooms`: `online` after a request reached
    another host (a snapshot of each room goes to it too), not after its `bye` or will. To
    every host (`everyone_topic`), `will`: the counter of the will the client registered
    with its hello, which may reach any host when its link dies."""

    cid: str
    rooms: list[str]
    online: bool
    at: int  # ms since the epoch: a note older than LEASE is ignored
    will: int | None = None


def group_name(text: str) -> str:
    """`--cluster`: 1-64 letters, digits, `_` or `-` (it is part of MQTT topics)."""
    if not _GROUP.fullmatch(text):
        raise ValueError(f"{text!r} is not a cluster group name: use 1-64 letters, digits, "
                         "'_' or '-'")
    return text


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Cluster:
    """This host's place in its cluster: the group (shared by every host of the deployment,
    and a secret of it: see docs/HOSTING.md) and this process's own id."""

    group: str
    host_id: str = field(default_factory=lambda: secrets.token_hex(6))

    def forward_topic(self, host_id: str | None = None) -> str:
        return f"{p.ROOT}/hosts/{self.group}/{host_id or self.host_id}"

    @property
    def gone_topic(self) -> str:
        """Where a host's will says it is gone (the broker publishes it when its link dies)."""
        return f"{p.ROOT}/hosts/{self.group}/gone"

    @property
    def everyone_topic(self) -> str:
        """Notes for every host of the cluster."""
        return f"{p.ROOT}/hosts/{self.group}/all"

    def filters(self) -> list[str]:
        """What a host of the cluster subscribes to: the clients' inboxes and the discovery
        requests shared with the other hosts, its own forward topic, the other hosts' wills,
        and the lobby (to list the rooms the other hosts run)."""
        shared = [f"$share/{self.group}/{topic}" for topic in (p.INBOX_FILTER, p.DISCOVER_FILTER)]
        return [*shared, self.forward_topic(), self.gone_topic, self.everyone_topic,
                p.LOBBY_FILTER]

    def lease_until(self) -> int:
        return now_ms() + int(LEASE * 1000)


_forward_dec = msgspec.msgpack.Decoder(Forward)
_note_dec = msgspec.msgpack.Decoder(Note)
_enc = msgspec.msgpack.Encoder()


def forward(topic: str, payload: bytes, hops: int) -> bytes:
    return _enc.encode(Forward(topic=topic, payload=payload, hops=hops))


def note(keys: crypto.HostKeys, message: Note) -> bytes:
    body = _enc.encode(message)
    return _enc.encode(Forward(note=crypto.sign(keys, body) + body))


def gone(keys: crypto.HostKeys, host_id: str) -> bytes:
    """A host's will: its id, signed (a replayed old will names a host long gone)."""
    body = f"gone|{host_id}".encode()
    return crypto.sign(keys, body) + body


def read_gone(keys: crypto.HostKeys, payload: bytes) -> str | None:
    """The id of the host whose will this is, if a host of the cluster signed it."""
    signature, body = payload[:64], payload[64:]
    try:
        crypto.verify(keys.sign_public, signature, body)
    except crypto.CryptoError:
        return None
    kind, _, host_id = body.decode(errors="replace").partition("|")
    return host_id if kind == "gone" and host_id else None


def read_forward(payload: bytes) -> Forward | None:
    try:
        return _forward_dec.decode(payload)
    except msgspec.MsgspecError:
        return None


def read_note(keys: crypto.HostKeys, signed: bytes) -> Note | None:
    """A note signed by a host of this cluster (the shared key), recent; None otherwise."""
    signature, body = signed[:64], signed[64:]
    try:
        crypto.verify(keys.sign_public, signature, body)
        found = _note_dec.decode(body)
    except (crypto.CryptoError, msgspec.MsgspecError):
        return None
    return found if now_ms() - found.at <= LEASE * 1000 else None
