"""The wire format and its crypto: round trips, and precise refusals of bad input."""

from __future__ import annotations

import msgspec
import pytest

from shared import crypto
from shared import protocol as p
from shared.model import Action

MESSAGES = [
    p.Hello(), p.ListRooms(), p.CreateRoom(name="Saloon", options=p.RoomOptions(seats=7)),
    p.Join(room="abc123", name="Ann", seat=2), p.Watch(room="abc123"),
    p.Ready(room="abc123", ready=False), p.Start(room="abc123", bots=True),
    p.FillBots(room="abc123"), p.Leave(room="abc123"),
    p.Act(room="abc123", decision=7, action=Action(kind="play", card=3, target=1)),
    p.Snapshot(room="abc123"), p.Handover(room="abc123", seat=1),
    p.Kick(room="abc123", seat=3), p.Hello(will=12345), p.ListRooms(offset=16),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_client_message_round_trips(message: p.ClientMessage) -> None:
    assert p.decode_client_message(p.encode(message)) == message


def raw(obj: object) -> bytes:
    return msgspec.msgpack.encode(obj)


@pytest.mark.parametrize(("data", "code", "words"), [
    (b"\xc1", "malformed", "not valid MessagePack"),
    (raw({"t": "dance"}), "invalid", "$.t"),
    (raw({"t": "watch", "room": "abc", "spy": 1}), "invalid", "spy"),
    (raw({"t": "watch", "room": 5}), "invalid", "Expected `str`"),
    (raw({"t": "watch"}), "invalid", "missing required field `room`"),
    (raw({"t": "watch", "room": "../#"}), "invalid", "room id"),
    (raw({"t": "join", "room": "abc", "name": ""}), "invalid", "name"),
    (raw({"t": "join", "room": "abc", "name": "x\x1b[2J"}), "invalid", "control"),
    (raw({"t": "join", "room": "abc", "name": "\u0430lice"}), "invalid", "one alphabet"),
    (raw({"t": "create", "name": "a\u202eb"}), "invalid", "U+202E"),
    (raw({"t": "create", "name": "x", "options": {"seats": 8}}), "invalid", "seats"),
    (raw({"t": "create", "name": "x", "options": {"pool": "dlc"}}), "invalid", "pool"),
    (raw({"t": "act", "room": "abc", "decision": 1, "action": {"kind": "x", "z": 1}}),
     "invalid", "z"),
    (b"\x91" + b"\x00" * (p.MAX_BYTES + 1), "too_large", "exceeds"),
    (b"", "malformed", "truncated"),
    (raw({"t": "create", "name": "x", "options": {"turn_timeout": 2.5}}), "invalid", "int"),
    (raw({"t": "create", "name": "x", "options": {"turn_timeout": 3601}}), "invalid",
     "turn_timeout"),
    (raw({"t": "list", "offset": -1}), "invalid", "offset"),
    (raw({"t": "hello", "will": 2**63}), "invalid", "will"),
    (raw({"t": "act", "room": "abc", "decision": -5, "action": {"kind": "x"}}), "invalid",
     "decision"),
])
def test_bad_client_messages_are_refused_precisely(data: bytes, code: str, words: str) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.decode_client_message(data)
    assert info.value.code == code
    assert words in info.value.message


def test_request_envelope_checks_version_and_fields() -> None:
    good = p.Request(v=2, pub=b"k" * 32, ctr=1, box=b"b")
    assert p.decode_request(p.encode(good)) == good
    with pytest.raises(p.ProtocolError, match="upgrade") as info:
        p.decode_request(p.encode(p.Request(v=1, pub=b"k", ctr=1, box=b"")))
    assert info.value.code == "version"
    with pytest.raises(p.ProtocolError, match="extra"):
        p.decode_request(raw({"v": 2, "pub": b"", "ctr": 1, "box": b"", "extra": 1}))


@pytest.mark.parametrize("ctr", [0, -1, 2**63, 2**64 - 1])
def test_counters_out_of_range_are_refused(ctr: int) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.decode_request(raw({"v": 2, "pub": b"k" * 32, "ctr": ctr, "box": b"b"}))
    assert info.value.code == "invalid" and "counter" in info.value.message


def test_padding_hides_the_length_and_is_checked() -> None:
    short, longer = p.pad(b"\x81\xa1t\xa2ok", 1024), p.pad(b"x" * 900, 1024)
    assert len(short) == len(longer) == 1024
    assert p.unpad(short, p.REPLY_CLASSES) == b"\x81\xa1t\xa2ok"
    with pytest.raises(p.ProtocolError):
        p.pad(b"x" * 1023, 1024)
    for bad in (short[:-1], short + b"\x00", short[:-1] + b"\x01",
                (5000).to_bytes(2, "big") + short[2:]):
        with pytest.raises(p.ProtocolError) as info:
            p.unpad(bad, p.REPLY_CLASSES)
        assert info.value.code == "padding"


def test_encode_refuses_oversized_messages() -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.encode(p.Error(code="x", message="y" * p.MAX_BYTES))
    assert info.value.code == "too_large"


def test_topics() -> None:
    cid = "0123456789abcdef01234567"
    assert p.cid_from_inbox(p.inbox_topic(cid)) == cid
    assert p.cid_from_inbox(f"bang/v2/c/{cid}/out") is None
    assert p.cid_from_inbox("bang/v2/c/not-a-cid/in") is None
    assert p.cid_from_inbox(f"bang/v1/c/{cid}/in") is None
    assert p.cid_from_discover(p.discover_topic(cid)) == cid
    assert p.cid_from_discover(f"bang/v2/discover/{cid}/x") is None


@pytest.mark.parametrize(("url", "expected"), [
    ("mqtt://localhost", p.BrokerAddress("localhost", 1883)),
    ("mqtts://b.example", p.BrokerAddress("b.example", 8883, tls=True)),
    ("mqtt://u%40x:p%3Aw@10.0.0.1:1999", p.BrokerAddress("10.0.0.1", 1999, "u@x", "p:w")),
])
def test_broker_urls(url: str, expected: p.BrokerAddress) -> None:
    assert p.parse_broker_url(url) == expected


@pytest.mark.parametrize("url", ["http://x", "mqtt://", "mqtt://h:port"])
def test_bad_broker_urls(url: str) -> None:
    with pytest.raises(p.ProtocolError):
        p.parse_broker_url(url)


def test_sealed_boxes_open_only_for_their_pair() -> None:
    host = crypto.HostKeys.generate()
    ann, bob = crypto.ClientKey.generate(), crypto.ClientKey.generate()
    ann_side = crypto.Session.for_client(ann, host.kx_public)
    host_side = crypto.Session.for_host(host, ann.public)
    box = crypto.seal(host_side.to_client, b"hand: 3 cards", b"aad")
    assert crypto.open_box(ann_side.to_client, box, b"aad") == b"hand: 3 cards"
    bob_side = crypto.Session.for_client(bob, host.kx_public)
    for key, aad in [(bob_side.to_client, b"aad"), (ann_side.to_host, b"aad"),
                     (ann_side.to_client, b"other")]:
        with pytest.raises(crypto.CryptoError):
            crypto.open_box(key, box, aad)
    tampered = box[:-1] + bytes([box[-1] ^ 1])
    with pytest.raises(crypto.CryptoError):
        crypto.open_box(ann_side.to_client, tampered, b"aad")


def test_signatures_and_fingerprints() -> None:
    host = crypto.HostKeys.generate()
    sig = crypto.sign(host, b"lobby")
    crypto.verify(host.sign_public, sig, b"lobby")
    with pytest.raises(crypto.CryptoError):
        crypto.verify(host.sign_public, sig, b"lobby!")
    other = crypto.HostKeys.generate()
    with pytest.raises(crypto.CryptoError):
        crypto.verify(other.sign_public, sig, b"lobby")
    again = crypto.HostKeys.from_bytes(host.to_bytes())
    assert again.fingerprint == host.fingerprint != other.fingerprint


def test_a_remembered_signature_vouches_only_for_its_own_key_and_bytes() -> None:
    """Signatures checked once are remembered (several clients in one process get the same
    bytes); the memory must never let through another key, other bytes or another
    signature, and it stays bounded."""
    host, other = crypto.HostKeys.generate(), crypto.HostKeys.generate()
    sig = crypto.sign(host, b"delta")
    crypto.verify(host.sign_public, sig, b"delta")
    crypto.verify(host.sign_public, sig, b"delta")  # remembered
    forged = sig[:-1] + bytes([sig[-1] ^ 1])
    for key, signature, data in [(other.sign_public, sig, b"delta"),
                                 (host.sign_public, forged, b"delta"),
                                 (host.sign_public, sig, b"delta!")]:
        with pytest.raises(crypto.CryptoError):
            crypto.verify(key, signature, data)
    for i in range(crypto.VERIFIED_MEMO + 10):
        data = b"n%d" % i
        crypto.verify(host.sign_public, crypto.sign(host, data), data)
    assert len(crypto._verified) == crypto.VERIFIED_MEMO


def test_degenerate_client_key_is_refused() -> None:
    host = crypto.HostKeys.generate()
    with pytest.raises(crypto.CryptoError):
        crypto.Session.for_host(host, bytes(32))
    with pytest.raises(crypto.CryptoError):
        crypto.Session.for_host(host, b"short")


def test_counters_increase() -> None:
    a = crypto.next_counter(0)
    assert crypto.next_counter(a) > a
    assert crypto.next_counter(10**20) == 10**20 + 1
