"""The wire: every message between host and clients, as versioned msgspec Structs.

Pure: no I/O. docs/PROTOCOL.md describes the same thing for authors of other clients.

Three layers:
1. Topics under `bang/v2/`.
2. Envelopes, the outer MessagePack object on a topic: `Request` (client -> host, sealed with
   the client's session key), `Sealed` (host -> one client) and `Signed` (host -> anyone).
3. Bodies inside the envelopes: tagged unions keyed by the field `t`.

What travels per room change (v2): one signed `RoomDelta` on the room's topic (the public
events and the changed fields of the public view), and one sealed `SeatUpdate` to each seat
whose private part changed. `shared.wireview` splits views into these parts and puts them
back together; the client writes the log from the typed events itself.

Every decode goes through `decode_*` here: it enforces the 64 KiB limit, the version and
the schema (unknown kinds, and unknown fields of this module's structs, are refused; the
engine's views and events inside them are read leniently) and raises `ProtocolError` with a precise
reason.
"""

from __future__ import annotations

import re
from typing import Any, Literal, TypeVar

import msgspec
from msgspec import UNSET, Struct, UnsetType

from shared import chat, names
from shared.model import Action, Event
from shared.setup import HighNoonOptions, expansions_problem
from shared.views import PendingView, TableView

VERSION = 2
ROOT = f"bang/v{VERSION}"
MAX_BYTES = 64 * 1024
MIN_SEATS, MAX_SEATS = 3, 7
NAME_MAX = names.NAME_MAX
KEY_ID = 8  # characters of a client id shown beside a player's name
MAX_SEATS_HELD = 20  # seats one key may hold in rooms not finished
POOLS = ("all", "base")
MAX_TIMEOUT = 3600
#: Counters, `n` and every other integer on the wire fit in a signed 64-bit MessagePack int.
MAX_INT = 2**63 - 1

_CID = re.compile(r"^[0-9a-f]{24}$")
_ROOM = re.compile(r"^[0-9a-z]{1,16}$")


class ProtocolError(Exception):
    """Input that does not follow the protocol. `code` is machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- topics ----------------------------------------------------------------------------------

HOST_TOPIC = f"{ROOT}/host"  # retained Signed(HostHello), re-published periodically
LOBBY_FILTER = f"{ROOT}/lobby/+"  # retained Signed(LobbyEntry), one topic per room
INBOX_FILTER = f"{ROOT}/c/+/in"  # what the host subscribes to
DISCOVER_FILTER = f"{ROOT}/discover/+"  # "who is the host?": answered on the asker's outbox


def lobby_topic(room: str) -> str:
    """Retained Signed(LobbyEntry) of one room; emptied when the room leaves the lobby."""
    return f"{ROOT}/lobby/{room}"


def room_topic(room: str) -> str:
    """Signed(RoomDelta), not retained: every change of the room, in `seq` order."""
    return f"{ROOT}/room/{room}"


def snapshot_topic(room: str) -> str:
    """Retained Signed(RoomSnapshot): the room's public face, refreshed about once a second."""
    return f"{ROOT}/room/{room}/snap"


def inbox_topic(cid: str) -> str:
    """Client -> host requests of client `cid`."""
    return f"{ROOT}/c/{cid}/in"


def outbox_topic(cid: str) -> str:
    """Host -> client `cid`: replies and seat updates (Sealed), or signed public messages."""
    return f"{ROOT}/c/{cid}/out"


def discover_topic(cid: str) -> str:
    """An empty message here asks the host to send its signed HostHello to `cid`'s outbox."""
    return f"{ROOT}/discover/{cid}"


def cid_between(topic: str, prefix: str, suffix: str) -> str | None:
    """The client id between `prefix` and `suffix` of `topic`, when it is a valid one."""
    if not (topic.startswith(prefix) and topic.endswith(suffix)):
        return None
    value = topic[len(prefix) : len(topic) - len(suffix)]
    return value if _CID.match(value) else None


def cid_from_inbox(topic: str) -> str | None:
    """The client id in an inbox topic, or None when the topic is not a valid inbox."""
    return cid_between(topic, f"{ROOT}/c/", "/in")


def cid_from_discover(topic: str) -> str | None:
    return cid_between(topic, f"{ROOT}/discover/", "")


def valid_room_id(room: str) -> bool:
    return bool(_ROOM.match(room))


# --- envelopes -------------------------------------------------------------------------------


class Request(Struct, forbid_unknown_fields=True):
    """Client -> host on `bang/v2/c/{cid}/in`. `box` seals a padded ClientMessage with the
    client's to-host key; aad = b"bang/v2 req|" + cid + b"|" + ctr in decimal."""

    v: int
    pub: bytes  # the client's X25519 public key; cid must equal client_id(pub)
    ctr: int  # strictly increasing per client; replies echo it as `ref`
    box: bytes


class Sealed(Struct, tag="sealed", tag_field="e", forbid_unknown_fields=True):
    """Host -> one client. `box` seals a padded HostReply with the to-client key;
    aad = b"bang/v2 out|" + cid."""

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
    """First message after (re)connecting: the reply lists the seats this client holds.
    `will` is the counter of the Bye registered as this connection's MQTT will: the host
    accepts that one Bye once, whatever requests came in between."""

    will: int | None = None


class Bye(_Msg, tag="bye"):
    """Going away: sent on a clean close (a fresh counter), or as the MQTT will (the counter
    announced in the connection's Hello). Marks the client offline until its next request."""


class ListRooms(_Msg, tag="list"):
    """One page of rooms, from `offset` in the host's order."""

    offset: int = 0


# `gc=False` on plain data (no reference cycles can form in it): a host keeps these by the
# thousand, and the garbage collector need not walk them (tests/server/test_host_load.py).
class RoomOptions(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    seats: int = 4
    pool: str = "all"
    turn_timeout: int = 60  # whole seconds per decision; 0 means no timeout
    bot: str = "random"  # the bot kind that fills empty seats
    expansions: list[str] = []  # shared.setup.EXPANSIONS, each at most once
    high_noon: HighNoonOptions | None = None  # only with "high_noon" in `expansions`


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
    """Follow a room without a seat. `name`: how your chat lines are signed (optional)."""

    room: str
    name: str = ""


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


class Kick(_Msg, tag="kick"):
    """Creator only, before the game: free another player's seat."""

    room: str
    seat: int


class Ping(_Msg, tag="ping"):
    """Still here: a player waiting in a room sends one every few minutes, or loses the
    seat after SEAT_IDLE (server.host) without a request. Answered with `ok`."""


class Act(_Msg, tag="act"):
    room: str
    decision: int  # the id of the pending decision being answered
    action: Action


class Snapshot(_Msg, tag="snapshot"):
    room: str


class History(_Msg, tag="history"):
    """The game's events so far, from event number `start` (0: the deal's first), one page
    at a time; answered by a `HistoryPage`. A seated asker also gets its own private cards."""

    room: str
    start: int = 0


class Handover(_Msg, tag="handover"):
    """Creator only: give a seat whose player is gone to a bot."""

    room: str
    seat: int


class Say(_Msg, tag="say"):
    """Talk in a room where you sit or that you watch: free `text` or a quick `phrase` (a
    code of `shared.chat.PHRASES`), exactly one of them. The channel follows from who you
    are (`shared.chat`). Padded to CHAT_REQUEST_CLASS. Answered by the `chat` itself, with
    `ref`, as everyone on the channel gets it."""

    room: str
    text: str = ""
    phrase: str = ""


ClientMessage = (
    Hello | Bye | Ping | ListRooms | CreateRoom | Join | Watch | Ready | Start | FillBots | Leave
    | Kick | Act | Snapshot | Handover | Say | History
)


# --- shared shapes ---------------------------------------------------------------------------


class SeatInfo(Struct, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """`key`: a human seat's key id (KEY_ID characters of its client id), so that players can
    tell two people of the same name apart; "" for bots and empty seats."""

    seat: int
    kind: Literal["empty", "human", "bot"] = "empty"
    name: str = ""
    ready: bool = False
    online: bool = False
    key: str = ""


class RoomInfo(Struct, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    id: str
    name: str
    status: Literal["waiting", "playing", "over"]
    options: RoomOptions
    seats: list[SeatInfo]
    creator: str = ""  # the creator's display name
    winner: str | None = None
    created: int = 0  # when, in milliseconds since the epoch (the lobby's order)


class SeatRef(Struct, forbid_unknown_fields=True):
    room: str
    seat: int


class Mine(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The private part of one seat's view: everything `view(state, seat)` has that the
    spectators' view has not. `distances[i]` is the distance to seat i (None: yourself, the
    dead, or when you are dead); a seat is in reach when its distance <= `reach`."""

    hand: tuple[int, ...] = ()
    role: str | None = None
    reach: int = 0
    bangs_played: int = 0
    options: tuple[Action, ...] = ()
    default: Action | None = None
    private: tuple[int, ...] = ()
    distances: tuple[int | None, ...] = ()
    other_character: str | None = None  # High Noon's New Identity: your second character


class PlayerDelta(Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The fields of one public PlayerView that changed (all of them in a whole delta)."""

    seat: int
    name: str | UnsetType = UNSET
    character: str | UnsetType = UNSET
    life: int | UnsetType = UNSET
    max_life: int | UnsetType = UNSET
    alive: bool | UnsetType = UNSET
    hand_count: int | UnsetType = UNSET
    in_play: tuple[int, ...] | UnsetType = UNSET
    role: str | None | UnsetType = UNSET


class TableDelta(Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """The fields of the public TableView that changed; absent fields did not. `players`
    holds only the players that changed, with only their changed fields. The first delta of
    a game (the deal) has every field."""

    players: tuple[PlayerDelta, ...] | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    turn_number: int | UnsetType = UNSET
    deck_count: int | UnsetType = UNSET
    discard_count: int | UnsetType = UNSET
    discard_top: int | None | UnsetType = UNSET
    three_player: bool | UnsetType = UNSET
    pending: PendingView | None | UnsetType = UNSET
    winner: str | None | UnsetType = UNSET
    winners: tuple[int, ...] | UnsetType = UNSET
    event_active: str | None | UnsetType = UNSET
    event_next: str | None | UnsetType = UNSET
    events_left: int | UnsetType = UNSET


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
    """A page of rooms: `rooms` from `offset`, of `total`."""

    ref: int
    rooms: list[RoomInfo] = []
    offset: int = 0
    total: int = 0


class Error(_Msg, tag="error"):
    """A refused request. `ref` is the request's counter when it could be read."""

    code: str
    message: str
    ref: int | None = None


class Shown(Struct, frozen=True, forbid_unknown_fields=True, array_like=True, gc=False):
    """The cards of event number `index` of a RoomDelta's `events`, for this seat's eyes
    (the public event carries none). On the wire: `[index, [card, ...]]`."""

    index: int
    cards: tuple[int, ...]


class SeatUpdate(_Msg, tag="seat"):
    """The private side of room change `seq` for `seat`: sent when `mine` changed, when an
    event shows this seat private cards (`shown`), as the answer to an `act` (`ref`), and as
    a snapshot (`snapshot`: after hello, snapshot or a restart; the public side then comes
    as a RoomSnapshot)."""

    room: str
    seq: int
    seat: int
    n: int
    mine: Mine | None = None  # None before the game starts
    shown: list[Shown] = []
    ref: int | None = None
    snapshot: bool = False


class Chat(_Msg, tag="chat"):
    """Something said in `room` on `channel` ("table" or "spectators"), sealed to each
    reader. `seat` is the speaker's seat (None: a spectator), `key` their key id (KEY_ID
    characters of the client id, "" for a bot), `name` as shown. Exactly one of `text` and
    `phrase` is set. `ref`: the speaker's own copy answers their `say`."""

    room: str
    channel: Literal["table", "spectators"]
    name: str
    key: str = ""
    seat: int | None = None
    text: str = ""
    phrase: str = ""
    ref: int | None = None


class HistoryPage(_Msg, tag="history"):
    """Events `start` to `start + len(events)` of the game in `room`, of `total` so far, as of
    room change `seq`, redacted for the asker (its own private cards only). The events are the
    rules engine's, as a game record replays them, and the host's `time_up` before the events
    of a default it applied (not `game_stopped`). An asker whose `start + len(events)` is below
    `total` asks for the next page."""

    ref: int
    room: str
    seq: int
    start: int = 0
    total: int = 0
    events: list[Event] = []


HostReply = Welcome | Ok | Rooms | Error | SeatUpdate | Chat | HistoryPage


# --- host -> anyone (inside Signed) ----------------------------------------------------------


class HostHello(_Msg, tag="host"):
    """The host's keys. `link` changes whenever the host restarts or reconnects to the
    broker (requests in flight may then be lost): a client that sees a new `link` re-sends
    its unanswered requests and greets again."""

    sign_key: bytes
    kx_key: bytes
    fingerprint: str
    n: int
    link: int


class LobbyEntry(_Msg, tag="entry"):
    """One room as the lobby lists it (retained on `bang/v2/lobby/{room}`). `gone`: the room
    left the lobby (sent once, not retained; the retained topic is then emptied)."""

    room: RoomInfo
    n: int
    gone: bool = False


class RoomDelta(_Msg, tag="delta"):
    """Public room change `seq`: its events (private cards as counts), what changed in the
    spectators' view, the room's info when it changed, and `to`: the seats that also get a
    SeatUpdate with this `seq`."""

    room: str
    seq: int
    n: int
    events: list[Event] = []
    table: TableDelta | None = None
    info: RoomInfo | None = None
    to: list[int] = []


class RoomSnapshot(_Msg, tag="snap"):
    """The room's whole public face at `seq` (the spectators' view)."""

    room: str
    seq: int
    n: int
    info: RoomInfo
    view: TableView | None = None


class PublicError(_Msg, tag="error"):
    """Sent signed, in clear, to a sender whose request could not be authenticated."""

    code: str
    message: str
    n: int


PublicMessage = HostHello | LobbyEntry | RoomDelta | RoomSnapshot | PublicError


# --- padding ---------------------------------------------------------------------------------

#: Every sealed request is padded to this many bytes, but a `say`.
REQUEST_CLASS = 256
#: A `say` is padded to this many bytes, whatever its length.
CHAT_REQUEST_CLASS = 1024
REQUEST_CLASSES = (REQUEST_CLASS, CHAT_REQUEST_CLASS)
#: Sealed host messages are padded to one of these; the class comes from public facts only.
REPLY_CLASSES = (1024, 4096, 16384)
#: A seat update's class: 4096 when it carries options (a public fact: the pending seat) and
#: the hand is at most this many cards (public: hand_count); 16384 past that; 1024 otherwise.
OPTIONS_HAND_LIMIT = 12


def pad(body: bytes, size: int) -> bytes:
    """`size` bytes: the body's length (2 bytes, big-endian), the body, then zeros."""
    if len(body) + 2 > size:
        raise ProtocolError("too_large", f"{len(body)} bytes do not fit a {size}-byte class")
    return len(body).to_bytes(2, "big") + body + bytes(size - 2 - len(body))


def unpad(padded: bytes, sizes: tuple[int, ...]) -> bytes:
    if len(padded) not in sizes:
        raise ProtocolError("padding", f"a sealed body of {len(padded)} bytes is not one of "
                            f"the size classes {sizes}")
    length = int.from_bytes(padded[:2], "big")
    if length + 2 > len(padded) or any(padded[2 + length :]):
        raise ProtocolError("padding", "bad padding in a sealed body")
    return padded[2 : 2 + length]


def request_class(message: ClientMessage) -> int:
    """The padded size of a request: its kind is all a stranger learns from it."""
    return CHAT_REQUEST_CLASS if isinstance(message, Say) else REQUEST_CLASS


def seat_update_class(update: SeatUpdate, hand_count: int) -> int:
    """The size class of a seat update, from what a stranger may know: whether the seat is
    the one deciding (it then carries options) and its hand size."""
    if update.mine is None or not update.mine.options:
        return REPLY_CLASSES[0]
    return REPLY_CLASSES[1] if hand_count <= OPTIONS_HAND_LIMIT else REPLY_CLASSES[2]


def smallest_class(size: int) -> int:
    """The smallest reply class that holds a body of `size` bytes (the largest past that)."""
    return next((c for c in REPLY_CLASSES if size + 2 <= c), REPLY_CLASSES[-1])


def reply_class(message: HostReply) -> int:
    """The class of a reply that is not a seat update, by its kind: an error and a chat line
    fit 1024; an answer that may carry rooms or seats gets 4096 (pages of rooms are trimmed to
    fit, and a key holds at most MAX_SEATS_HELD seats)."""
    return REPLY_CLASSES[0] if isinstance(message, Error | Chat) else REPLY_CLASSES[1]


# --- encode / decode -------------------------------------------------------------------------

_T = TypeVar("_T")

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


def _decode(decoder: msgspec.msgpack.Decoder[_T], data: bytes, what: str) -> _T:
    if len(data) > MAX_BYTES:
        raise ProtocolError("too_large", f"{what} of {len(data)} bytes exceeds {MAX_BYTES}")
    try:
        message = decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError("invalid", f"{what}: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise ProtocolError("malformed", f"{what} is not valid MessagePack: {exc}") from exc
    version = getattr(message, "v", VERSION)
    if version != VERSION:
        raise ProtocolError("version", f"{what} has version {version}; this host speaks "
                            f"version {VERSION}: upgrade your client")
    return message


def decode_request(data: bytes) -> Request:
    request = _decode(_request_dec, data, "request envelope")
    if not 0 < request.ctr <= MAX_INT:
        raise ProtocolError("invalid", f"the counter must be 1-{MAX_INT}")
    return request


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
    """Checks beyond types: identifiers, names, option ranges and integer ranges."""
    room = getattr(message, "room", None)
    if room is not None and not valid_room_id(room):
        raise ProtocolError("invalid", f"room id {room!r} is not 1-16 of [0-9a-z]")
    if isinstance(message, Join | CreateRoom):  # names as they will be shown (NFKC)
        message.name = check_name(message.name, person=isinstance(message, Join))
    if isinstance(message, Watch) and message.name:
        message.name = check_name(message.name)
    if isinstance(message, Say):
        check_say(message)
    if isinstance(message, CreateRoom):
        opts = message.options
        if not MIN_SEATS <= opts.seats <= MAX_SEATS:
            raise ProtocolError("invalid", f"seats must be {MIN_SEATS}-{MAX_SEATS}")
        if opts.pool not in POOLS:
            raise ProtocolError("invalid", f"pool must be one of {', '.join(POOLS)}")
        if not 0 <= opts.turn_timeout <= MAX_TIMEOUT:
            raise ProtocolError("invalid", f"turn_timeout must be 0-{MAX_TIMEOUT} seconds")
        check_expansions(opts)
    seat = getattr(message, "seat", None)
    if seat is not None and not 0 <= seat < MAX_SEATS:
        raise ProtocolError("invalid", f"seat must be 0-{MAX_SEATS - 1}")
    for field in ("offset", "decision", "will", "start"):
        value = getattr(message, field, None)
        if value is not None and not 0 <= value <= MAX_INT:
            raise ProtocolError("invalid", f"{field} must be 0-{MAX_INT}")


def check_expansions(opts: RoomOptions) -> None:
    """Only known expansions, each once, and options only for one that is played (what
    shared.engine's deal would refuse, refused before the room exists)."""
    problem = expansions_problem(opts.expansions, opts.high_noon, opts.seats)
    if problem is None and opts.high_noon is not None and \
            (opts.high_noon.event_limit or 0) > MAX_INT:
        problem = f"the High Noon event_limit must be at most {MAX_INT}"
    if problem is not None:
        raise ProtocolError("invalid", problem)


def check_say(message: Say) -> None:
    """Exactly one of text and phrase; the text as it will be shown (`shared.chat`)."""
    try:
        message.text, message.phrase = chat.check_line(message.text, message.phrase)
    except chat.BadMessage as exc:
        raise ProtocolError("invalid", str(exc)) from None


def check_name(name: str, *, person: bool = True) -> str:
    """The name normalized (see `shared.names`); ProtocolError `invalid` saying why not."""
    try:
        return names.normalize(name, person=person)
    except names.BadName as exc:
        raise ProtocolError("invalid", str(exc)) from None


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
