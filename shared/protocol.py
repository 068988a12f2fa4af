"""The wire: every message between host and clients, as versioned msgspec Structs.

Pure: no I/O. docs/PROTOCOL.md describes the same thing for authors of other clients.

Three layers:
1. Topics under `bang/v1/`.
2. Envelopes, the outer MessagePack object on a topic: `Request` (client -> host, sealed with
   the client's session key), `Sealed` (host -> one client) and `Signed` (host -> anyone).
3. Bodies inside the envelopes: tagged unions keyed by the field `t`.

Every decode goes through `decode_*` here: it enforces the 64 KiB limit, the version and
the schema (unknown fields and kinds are refused) and raises `ProtocolError` with a precise
reason.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import msgspec
from msgspec import Struct

from shared.model import Action, Event
from shared.views import TableView

VERSION = 1
ROOT = f"bang/v{VERSION}"
MAX_BYTES = 64 * 1024
MIN_SEATS, MAX_SEATS = 3, 7
NAME_MAX = 24
POOLS = ("all", "base")

_CID = re.compile(r"^[0-9a-f]{24}$")
_ROOM = re.compile(r"^[0-9a-z]{1,16}$")


class ProtocolError(Exception):
    """Input that does not follow the protocol. `code` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- topics ----------------------------------------------------------------------------------

HOST_TOPIC = f"{ROOT}/host"  # retained Signed(HostHello)
LOBBY_TOPIC = f"{ROOT}/lobby"  # retained Signed(Lobby)
INBOX_FILTER = f"{ROOT}/c/+/in"  # what the host subscribes to


def room_topic(room: str) -> str:
    """Retained Signed(RoomUpdate): the public (spectator) face of a room."""
    return f"{ROOT}/room/{room}"


def inbox_topic(cid: str) -> str:
    """Client -> host requests of client `cid`."""
    return f"{ROOT}/c/{cid}/in"


def outbox_topic(cid: str) -> str:
    """Host -> client `cid`: replies and private updates (Sealed), or errors (Signed)."""
    return f"{ROOT}/c/{cid}/out"


def cid_from_inbox(topic: str) -> str | None:
    """The client id in an inbox topic, or None when the topic is not a valid inbox."""
    prefix, suffix = f"{ROOT}/c/", "/in"
    if not (topic.startswith(prefix) and topic.endswith(suffix)):
        return None
    return _valid_cid(topic[len(prefix) : -len(suffix)])


def _valid_cid(value: str) -> str | None:
    return value if _CID.match(value) else None


def valid_room_id(room: str) -> bool:
    return bool(_ROOM.match(room))


# --- envelopes -------------------------------------------------------------------------------


class Request(Struct, forbid_unknown_fields=True):
    """Client -> host on `bang/v1/c/{cid}/in`. `box` seals a ClientMessage with the client's
    to-host key; aad = b"bang/v1 req|" + cid + b"|" + ctr in decimal."""

    v: int
    pub: bytes  # the client's X25519 public key; cid must equal client_id(pub)
    ctr: int  # strictly increasing per client; replies echo it as `ref`
    box: bytes


class Sealed(Struct, tag="sealed", tag_field="e", forbid_unknown_fields=True):
    """Host -> one client. `box` seals a HostReply with the to-client key;
    aad = b"bang/v1 out|" + cid."""

    v: int
    box: bytes


class Signed(Struct, tag="signed", tag_field="e", forbid_unknown_fields=True):
    """Host -> anyone. `body` is an encoded PublicMessage; `sig` is Ed25519 over `body`."""

    v: int
    body: bytes
    sig: bytes


Outbound = Sealed | Signed


def request_aad(cid: str, ctr: int) -> bytes:
    return f"{ROOT} req|{cid}|{ctr}".encode()


def reply_aad(cid: str) -> bytes:
    return f"{ROOT} out|{cid}".encode()


# --- client -> host bodies -------------------------------------------------------------------


class _Msg(Struct, tag_field="t", forbid_unknown_fields=True, omit_defaults=True):
    pass


class Hello(_Msg, tag="hello"):
    """First message after (re)connecting: the reply lists the seats this client holds."""


class Bye(_Msg, tag="bye"):
    """Going away: sent on a clean close, and set as the MQTT will so the broker sends it when
    the connection drops. Exempt from the counter order (a will is sealed when connecting):
    it only marks the client offline until its next request."""


class ListRooms(_Msg, tag="list"):
    pass


class RoomOptions(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    seats: int = 4
    pool: str = "all"
    turn_timeout: float = 60.0  # seconds per decision; 0 means no timeout
    bot: str = "random"  # the bot kind that fills empty seats


class CreateRoom(_Msg, tag="create"):
    name: str
    options: RoomOptions = RoomOptions()


class Join(_Msg, tag="join"):
    """Take a seat (any free one when `seat` is None). Joining a room where this client
    already sits reclaims that seat."""

    room: str
    name: str
    seat: int | None = None


class Watch(_Msg, tag="watch"):
    room: str


class Ready(_Msg, tag="ready"):
    room: str
    ready: bool = True


class Start(_Msg, tag="start"):
    """Creator only. With `bots`, empty seats are filled with bots first."""

    room: str
    bots: bool = False


class FillBots(_Msg, tag="fill"):
    room: str


class Leave(_Msg, tag="leave"):
    room: str


class Act(_Msg, tag="act"):
    room: str
    decision: int  # the id of the pending decision being answered
    action: Action


class Snapshot(_Msg, tag="snapshot"):
    room: str


class Handover(_Msg, tag="handover"):
    """Creator only: give a seat whose player is gone to a bot."""

    room: str
    seat: int


ClientMessage = (
    Hello | Bye | ListRooms | CreateRoom | Join | Watch | Ready | Start | FillBots | Leave | Act
    | Snapshot | Handover
)


# --- shared shapes ---------------------------------------------------------------------------


class SeatInfo(Struct, forbid_unknown_fields=True, omit_defaults=True):
    seat: int
    kind: Literal["empty", "human", "bot"] = "empty"
    name: str = ""
    ready: bool = False
    online: bool = False


class RoomInfo(Struct, forbid_unknown_fields=True, omit_defaults=True):
    id: str
    name: str
    status: Literal["waiting", "playing", "over"]
    options: RoomOptions
    seats: list[SeatInfo]
    creator: str = ""  # the creator's display name
    seq: int = 0
    winner: str | None = None


class SeatRef(Struct, forbid_unknown_fields=True):
    room: str
    seat: int


# --- host -> one client (inside Sealed) ------------------------------------------------------


class Welcome(_Msg, tag="welcome"):
    ref: int
    cid: str
    seats: list[SeatRef] = []


class Ok(_Msg, tag="ok"):
    ref: int
    room: RoomInfo | None = None
    seat: int | None = None


class Rooms(_Msg, tag="rooms"):
    ref: int
    rooms: list[RoomInfo] = []


class Error(_Msg, tag="error"):
    """A refused request. `ref` is the request's counter when it could be read."""

    code: str
    message: str
    ref: int | None = None


class PrivateUpdate(_Msg, tag="private"):
    """A seat's view after room change `seq`; `events` are redacted for that seat."""

    room: str
    seq: int
    seat: int
    info: RoomInfo
    view: TableView | None = None
    events: list[Event] = []
    log: list[str] = []
    n: int = 0  # host message counter (replay guard)


HostReply = Welcome | Ok | Rooms | Error | PrivateUpdate


# --- host -> anyone (inside Signed) ----------------------------------------------------------


class HostHello(_Msg, tag="host"):
    sign_key: bytes
    kx_key: bytes
    fingerprint: str
    n: int


class Lobby(_Msg, tag="lobby"):
    rooms: list[RoomInfo]
    n: int


class RoomUpdate(_Msg, tag="room"):
    """The spectator face of room change `seq`."""

    room: str
    seq: int
    info: RoomInfo
    n: int
    view: TableView | None = None
    events: list[Event] = []
    log: list[str] = []


class PublicError(_Msg, tag="error"):
    """Sent signed, in clear, to a sender whose request could not be authenticated."""

    code: str
    message: str
    n: int


PublicMessage = HostHello | Lobby | RoomUpdate | PublicError


# --- encode / decode -------------------------------------------------------------------------

_enc = msgspec.msgpack.Encoder()
_request_dec = msgspec.msgpack.Decoder(Request)
_outbound_dec = msgspec.msgpack.Decoder(Outbound)
_client_msg_dec = msgspec.msgpack.Decoder(ClientMessage)
_reply_dec = msgspec.msgpack.Decoder(HostReply)
_public_dec = msgspec.msgpack.Decoder(PublicMessage)


def encode(message: Any) -> bytes:
    data = _enc.encode(message)
    if len(data) > MAX_BYTES:
        raise ProtocolError("too_large", f"message of {len(data)} bytes exceeds {MAX_BYTES}")
    return data


def _decode(decoder: msgspec.msgpack.Decoder, data: bytes, what: str) -> Any:
    if len(data) > MAX_BYTES:
        raise ProtocolError("too_large", f"{what} of {len(data)} bytes exceeds {MAX_BYTES}")
    try:
        message = decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError("invalid", f"{what}: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise ProtocolError("malformed", f"{what} is not valid MessagePack: {exc}") from exc
    if getattr(message, "v", VERSION) != VERSION:
        raise ProtocolError("version", f"{what} has version {message.v}, this host speaks "
                            f"{VERSION}")
    return message


def decode_request(data: bytes) -> Request:
    return _decode(_request_dec, data, "request envelope")


def decode_outbound(data: bytes) -> Sealed | Signed:
    return _decode(_outbound_dec, data, "host envelope")


def decode_client_message(data: bytes) -> ClientMessage:
    message = _decode(_client_msg_dec, data, "request")
    check_client_message(message)
    return message


def decode_reply(data: bytes) -> HostReply:
    return _decode(_reply_dec, data, "reply")


def decode_public(data: bytes) -> PublicMessage:
    return _decode(_public_dec, data, "public message")


def check_client_message(message: ClientMessage) -> None:
    """Checks beyond types: identifiers, names and option ranges."""
    room = getattr(message, "room", None)
    if room is not None and not valid_room_id(room):
        raise ProtocolError("invalid", f"room id {room!r} is not 1-16 of [0-9a-z]")
    name = getattr(message, "name", None)
    if name is not None:
        check_name(name)
    if isinstance(message, CreateRoom):
        opts = message.options
        if not MIN_SEATS <= opts.seats <= MAX_SEATS:
            raise ProtocolError("invalid", f"seats must be {MIN_SEATS}-{MAX_SEATS}")
        if opts.pool not in POOLS:
            raise ProtocolError("invalid", f"pool must be one of {', '.join(POOLS)}")
        if not 0 <= opts.turn_timeout <= 3600:
            raise ProtocolError("invalid", "turn_timeout must be 0-3600 seconds")
    seat = getattr(message, "seat", None)
    if seat is not None and not 0 <= seat < MAX_SEATS:
        raise ProtocolError("invalid", f"seat must be 0-{MAX_SEATS - 1}")


def check_name(name: str) -> None:
    if not name.strip() or len(name) > NAME_MAX or not name.isprintable():
        raise ProtocolError("invalid", f"a name is 1-{NAME_MAX} printable characters")


# --- broker addresses ------------------------------------------------------------------------


class BrokerAddress(Struct, frozen=True):
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False


def parse_broker_url(url: str) -> BrokerAddress:
    """`mqtt://[user[:password]@]host[:port]`, or `mqtts://` for TLS (default ports 1883/8883)."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ProtocolError("invalid", f"broker URL {url!r} is not mqtt://host[:port] or mqtts://")
    tls = parts.scheme == "mqtts"
    try:
        port = parts.port or (8883 if tls else 1883)
    except ValueError as exc:
        raise ProtocolError("invalid", f"broker URL {url!r} has a bad port") from exc
    return BrokerAddress(
        host=parts.hostname,
        port=port,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        tls=tls,
    )
