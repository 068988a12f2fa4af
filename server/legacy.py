"""Version-1 clients: the host announces itself on v1's host topic and answers every v1
request with a signed v1 `error` (code `version`), so an old client tells its player to
upgrade instead of waiting in silence. Nothing else of v1 is spoken."""

from __future__ import annotations

import msgspec

from shared import crypto
from shared import protocol as p

HOST_TOPIC = "bang/v1/host"
INBOX_FILTER = "bang/v1/c/+/in"
UPGRADE = "this host speaks protocol version 2: upgrade your client (pip install -U bang-terminal)"

_enc = msgspec.msgpack.Encoder()


def cid_from_inbox(topic: str) -> str | None:
    return p.cid_between(topic, "bang/v1/c/", "/in")


def outbox_topic(cid: str) -> str:
    return f"bang/v1/c/{cid}/out"


def _signed(keys: crypto.HostKeys, body: dict) -> bytes:
    data = _enc.encode(body)
    return _enc.encode({"e": "signed", "v": 1, "body": data, "sig": crypto.sign(keys, data)})


def hello(keys: crypto.HostKeys, n: int) -> bytes:
    """v1's retained HostHello, so a v1 client finds the host and sends its hello."""
    return _signed(keys, {"t": "host", "sign_key": keys.sign_public, "kx_key": keys.kx_public,
                          "fingerprint": keys.fingerprint, "n": n})


def upgrade_error(keys: crypto.HostKeys, n: int) -> bytes:
    return _signed(keys, {"t": "error", "code": "version", "message": UPGRADE, "n": n})
