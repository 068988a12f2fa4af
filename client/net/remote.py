"""The client side of the wire (protocol v2), for the Textual app and for networked bots.

    async with Remote("mqtt://127.0.0.1:1883") as remote:     # connects in the background
        await remote.wait_connected()
        rooms = await remote.list_rooms()                      # list[RoomInfo]
        room = await remote.create_room("Saloon", seats=4)     # RoomInfo
        seat = await remote.join(room.id, "Ann")               # int
        await remote.start(room.id, bots=True)                 # creator only
        async for update in remote.updates():
            match update:
                case TableUpdate(view=view) if view and view.options:
                    await remote.act(update.room, view.pending.id, view.options[0])
                case LobbyUpdate() | Status() | Error() | PublicError():
                    ...

Updates, in arrival order, to every `updates()` loop running (the first loop also gets what
arrived before any was running):
- `TableUpdate` (room, seq, seat, info, view, events): room change `seq` of a room you sit in
  or watch, rebuilt from the host's public delta and your seat's private part (see
  `client.net.tables`); `view` is None before the game starts. Every message is checked
  (signature, seal, size class) before use.
- `LobbyUpdate`: the list of rooms changed (only while `follow_lobby` is on).
- `Error` / `PublicError`: a refusal that answers no pending request (requests raise
  `RemoteError` instead).
- `Status(connected, reason)`: the link went down or came back. On the way back the client
  re-sends the requests that got no answer, then Hello; the host re-sends every seat's view
  (the seat is reclaimed with the key in `config_dir/identity.key`).
A sequence gap in a room's updates triggers a snapshot request on its own.

Requests (`list_rooms`, `create_room`, `join`, `watch`, `ready`, `start`, `fill_bots`, `leave`,
`kick`, `act`, `snapshot`, `history`, `handover`) wait for the host's answer and raise
`RemoteError(code, message)`: a refusal by the host, `unreachable` (no answer in
`request_timeout` seconds: the request may never have reached the host) or `applied` (the host
had applied it, but its answer was lost in a disconnection). `act(..., patient=True)` is not
refused for a link that is down: it waits for the link and is sent (or re-sent) then.

State kept for the UI: `cid` (this identity), `seats` (room -> my seat), `lobby` (room id ->
RoomInfo), `host` (the trusted host key, with its `fingerprint`). `close()` tells the host we
left (seats stay ours, shown offline); a dropped connection does the same through the MQTT will.

Trust: the host's key is pinned per broker URL in `config_dir/known_hosts.json` on first use;
a host with a different key later is never talked to (a `Status(False, reason)` says so and
the client keeps waiting for the trusted one). Pass `fingerprint=` to require a specific host.
Nothing unsigned is believed, and a signed message older than the last one seen on its topic
is dropped.

The MQTT client identifier is random for every connection: knowing a player's client id does
not let anyone take their connection over. The MQTT username is the client id (when the broker
URL names no user), so that broker ACLs can confine each client to its own topics.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import ssl
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiomqtt
from msgspec import Struct, structs

from client.net.identity import HostKey, KnownHosts, default_config_dir, load_or_create_key
from client.net.stopping import stop_task
from client.net.tables import RoomMirror, TableUpdate
from shared import crypto
from shared import protocol as p
from shared.model import Action, Event
from shared.setup import HighNoonOptions

#: Small request/response messages: Nagle + delayed ACKs would add ~40 ms to each.
NO_DELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)
#: Requests go at QoS 0: a broker's PUBACK would reach us just before the answer and, with
#: Nagle on the broker's socket (Mosquitto's default), hold the answer up to 40 ms. A request
#: lost with the connection is re-sent after it (see `_resend`).
REQUEST_QOS = 0
#: Updates kept for the first `updates()` loop when none was running yet.
BACKLOG = 1000
#: Seconds to wait for our seat's part of a change before showing the change without it.
SEAT_WAIT = 2.0
#: Seconds between lobby updates while many entries arrive (a fresh subscription).
LOBBY_BATCH = 0.1
#: Seconds between pings while we hold a seat: the host frees a waiting room's seat after
#: ten silent minutes.
KEEPALIVE = 240.0

log = logging.getLogger("bang.remote")


class Status(Struct, frozen=True):
    connected: bool
    reason: str = ""


class LobbyUpdate(Struct, frozen=True):
    rooms: list[p.RoomInfo]


class RemoteError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    @classmethod
    def of(cls, problem: RemoteError | TimeoutError) -> RemoteError:
        """A request's failure as a RemoteError: a timeout is `unreachable`."""
        if isinstance(problem, RemoteError):
            return problem
        return cls("unreachable", "the host did not answer in time")


Update = TableUpdate | LobbyUpdate | p.Error | p.PublicError | Status | p.Chat


class _Pending:
    """A request waiting for its answer, with its sealed envelope for a re-send."""

    def __init__(self, envelope: bytes, future: asyncio.Future[Any]) -> None:
        self.envelope = envelope
        self.future = future
        self.resent = False


class Remote:
    def __init__(self, broker: str, *, config_dir: Path | None = None,
                 key: crypto.ClientKey | None = None, fingerprint: str | None = None,
                 request_timeout: float = 10.0, follow_lobby: bool = True) -> None:
        self.broker = broker
        self.address = p.parse_broker_url(broker)
        config_dir = config_dir or default_config_dir()
        self.key = key or load_or_create_key(config_dir)
        self.cid = self.key.cid
        self.known_hosts = KnownHosts(config_dir)
        self.required_fingerprint = fingerprint
        self.request_timeout = request_timeout
        self.follow_lobby = follow_lobby
        self.host: HostKey | None = None
        self.seats: dict[str, int] = {}  # room -> my seat
        self.watching: dict[str, str] = {}  # room -> the name our chat lines carry there
        self.lobby: dict[str, p.RoomInfo] = {}
        self._mirrors: dict[str, RoomMirror] = {}
        self._asked: set[str] = set()  # rooms whose snapshot is on its way
        self._last_n: dict[str, int] = {}  # topic -> the newest signed `n` seen on it
        self._background: set[asyncio.Task[None]] = set()
        self._session: crypto.Session | None = None
        self._ctr = 0
        self._pending: dict[int, _Pending] = {}
        self._listeners: list[asyncio.Queue[Update]] = []
        self._backlog: deque[Update] = deque(maxlen=BACKLOG)  # before anyone listened
        self._client: aiomqtt.Client | None = None
        self._connected = asyncio.Event()
        self._host_known = asyncio.Event()
        self._send_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._refused: set[str] = set()
        self._lobby_due: asyncio.TimerHandle | None = None
        self._seat_due: dict[str, asyncio.TimerHandle] = {}
        self._sent: deque[int] = deque(maxlen=64)  # counters of our latest requests
        self._pinger: asyncio.Task[None] | None = None
        self._link = 0  # the host's `link` when we last greeted it
        self._will: int | None = None  # the counter of this connection's will

    # --- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> Remote:
        self._task = asyncio.create_task(self._run())
        self._pinger = asyncio.create_task(self._keep_alive())
        return self

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(KEEPALIVE)
            if self.seats and self._connected.is_set():
                with contextlib.suppress(RemoteError):
                    await self._request(p.Ping())

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Say goodbye (the seats stay ours, marked offline) and disconnect."""
        self._closing = True
        client = self._client
        if client is not None and self._session is not None:
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                async with asyncio.timeout(2):
                    await client.publish(p.inbox_topic(self.cid), self._seal(p.Bye())[1], qos=1)
        for task in (self._task, self._pinger):
            await stop_task(task)
        for handle in (self._lobby_due, *self._seat_due.values()):
            if handle is not None:
                handle.cancel()

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Until the broker link is up and the host is known and greeted."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def updates(self) -> AsyncIterator[Update]:
        """Every update from now on; several loops may iterate at once, each sees all."""
        queue: asyncio.Queue[Update] = asyncio.Queue()
        for update in self._backlog:
            queue.put_nowait(update)
        self._backlog.clear()
        self._listeners.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._listeners.remove(queue)

    def _emit(self, update: Update) -> None:
        if not self._listeners:
            self._backlog.append(update)
        for queue in self._listeners:
            queue.put_nowait(update)

    async def _run(self) -> None:
        pinned = self.known_hosts.get(self.broker)
        if pinned is not None:  # known before connecting: the will can be sealed
            self._trust(pinned)
        backoff = 0.2
        while not self._closing:
            if self._session is None:  # first meeting: learn the key, so the will can be set
                with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                    await self._probe()
            try:
                will_ctr, will = self._seal(p.Bye()) if self._session is not None else (0, None)
                async with _player_client(self.address, self.cid, will) as client:
                    self._client = client
                    await self._subscribe(client, *self._topics())
                    reader = asyncio.create_task(self._read(client))
                    try:
                        self._will = will_ctr if will else None
                        await self._greet(reader)
                        backoff = 0.2
                        await reader
                    finally:
                        reader.cancel()
            except (aiomqtt.MqttError, TimeoutError, RemoteError) as exc:
                self._link_down(str(exc))
            if self._closing:
                return
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 10.0)

    def _topics(self) -> list[str]:
        rooms = set(self.seats) | set(self.watching)
        return [p.outbox_topic(self.cid), p.HOST_TOPIC,
                *([p.LOBBY_FILTER] if self.follow_lobby else []),
                *(p.room_topic(room) for room in sorted(rooms))]

    async def _probe(self) -> None:
        """A short side connection that asks for the host's announce (and reads the retained
        one), so that the real connection can register a sealed will."""
        async with _player_client(self.address, self.cid, None) as client:
            await self._subscribe(client, p.outbox_topic(self.cid), p.HOST_TOPIC)
            await client.publish(p.discover_topic(self.cid), b"", qos=REQUEST_QOS)
            async with asyncio.timeout(self.request_timeout):
                async for message in client.messages:
                    if isinstance(message.payload, bytes | bytearray):
                        with contextlib.suppress(p.ProtocolError, crypto.CryptoError):
                            self._on_hello(p.decode_outbound(bytes(message.payload)))
                    if self._host_known.is_set():
                        return

    async def _subscribe(self, client: aiomqtt.Client, *topics: str) -> None:
        for topic in topics:
            granted = await client.subscribe(topic, qos=1)
            if any(getattr(code, "value", code) >= 0x80 for code in granted):
                raise RemoteError("refused", f"the broker refused the subscription {topic}")

    async def _greet(self, reader: asyncio.Task[None]) -> None:
        if not self._host_known.is_set():  # wait for the host's signed announce
            assert self._client is not None
            await self._client.publish(p.discover_topic(self.cid), b"", qos=REQUEST_QOS)
            known = asyncio.create_task(self._host_known.wait())
            await asyncio.wait({known, reader}, timeout=self.request_timeout,
                               return_when=asyncio.FIRST_COMPLETED)
            known.cancel()
            if reader.done():
                reader.result()  # the link's error
            if not self._host_known.is_set():
                raise TimeoutError("no trusted host announced itself on this broker")
        await self._resend()
        subscribed = set(self._topics())
        welcome = await self._request(p.Hello(will=self._will))
        self.seats = {ref.room: ref.seat for ref in welcome.seats}
        for room, seat in self.seats.items():
            self._mirror(room).seat = seat
        if self._client is not None:  # the rooms of seats we learn of only now
            await self._subscribe(self._client, *(t for t in self._topics()
                                                  if t not in subscribed))
        await self._rewatch()
        self._connected.set()
        self._emit(Status(True))

    async def _resend(self) -> None:
        """Requests that got no answer go again, unchanged and before anything newer: the
        host applies one it never saw, and refuses one it applied (`replay`: see `_answer`)."""
        client = self._client
        assert client is not None
        for pending in list(self._pending.values()):
            if not pending.future.done():
                pending.resent = True
                await client.publish(p.inbox_topic(self.cid), pending.envelope, qos=REQUEST_QOS)

    def _link_down(self, reason: str) -> None:
        self._client = None
        was_up = self._connected.is_set()
        self._connected.clear()
        self._asked.clear()
        if was_up or not self._closing:
            self._emit(Status(False, reason))

    # --- trust -----------------------------------------------------------------------------

    def _trust(self, key: HostKey) -> None:
        """Adopt `key` if it is the required one, the pinned one, or the first one seen.
        Any other key is reported (once) and ignored: it may be a stale retained announce
        from an earlier host, or an impostor; either way we never talk to it."""
        if self.required_fingerprint:
            trusted = key.fingerprint == self.required_fingerprint
            if trusted:
                self.known_hosts.check(self.broker, key)
        else:
            trusted = self.known_hosts.check(self.broker, key)
        if not trusted:
            if key.fingerprint not in self._refused:
                self._refused.add(key.fingerprint)
                self._emit(Status(False, f"ignoring a host with key {key.fingerprint}: not "
                                         f"the trusted one"))
            return
        if self.host is None or self.host.fingerprint != key.fingerprint:
            self.host = key
            self._session = crypto.Session.for_client(self.key, key.kx_key)
        self._host_known.set()

    # --- inbound ---------------------------------------------------------------------------

    async def _read(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload
            if not isinstance(payload, bytes | bytearray) or not payload:
                continue  # an emptied retained topic says nothing (it is not signed)
            try:
                self._dispatch(message.topic.value, bytes(payload))
            except (p.ProtocolError, crypto.CryptoError, ValueError) as exc:
                log.debug("ignored a message on %s: %s", message.topic.value, exc)

    def _dispatch(self, topic: str, payload: bytes) -> None:
        envelope = p.decode_outbound(payload)
        hello_topics = (p.HOST_TOPIC, p.outbox_topic(self.cid))
        if isinstance(envelope, p.Signed) and topic in hello_topics and self._on_hello(envelope):
            return
        if self.host is None:
            return
        if isinstance(envelope, p.Sealed):
            if topic != p.outbox_topic(self.cid) or self._session is None:
                return
            plain = crypto.open_box(self._session.to_client, envelope.box, p.reply_aad(self.cid))
            self._on_reply(p.decode_reply(p.unpad(plain, p.REPLY_CLASSES)))
        else:
            crypto.verify(self.host.sign_key, envelope.sig, envelope.body)
            message = p.decode_public(envelope.body)
            if not self._fresh_n(topic, message.n):
                return
            self._on_public(topic, message)

    def _fresh_n(self, topic: str, n: int) -> bool:
        """Signed messages only move forward on each topic: an old one re-published by
        someone else is dropped."""
        if n < self._last_n.get(topic, 0):
            return False
        self._last_n[topic] = n
        return True

    def _on_hello(self, envelope: p.Sealed | p.Signed) -> bool:
        """True when `envelope` was a host announce (handled here, trusted or not)."""
        if not isinstance(envelope, p.Signed):
            return False
        hello = p.decode_public(envelope.body)
        if not isinstance(hello, p.HostHello):
            return False
        crypto.verify(hello.sign_key, envelope.sig, envelope.body)
        if crypto.fingerprint(hello.sign_key, hello.kx_key) != hello.fingerprint:
            return True
        key = HostKey(hello.fingerprint, hello.sign_key, hello.kx_key)
        self._trust(key)
        if self.host != key:
            return True
        if not self._fresh_n(p.HOST_TOPIC, hello.n):
            return True
        relinked, self._link = self._link not in (0, hello.link), hello.link
        if relinked and self._connected.is_set():
            # The host restarted or reconnected while we stayed on the broker: requests in
            # flight may be lost, and it may not know we are here. Re-send, greet again (it
            # re-sends our seats).
            self._spawn(self._regreet())
        return True

    async def _regreet(self) -> None:
        if self._client is not None:
            await self._resend()
            await self._request(p.Hello(will=self._will))
            await self._rewatch()

    async def _rewatch(self) -> None:
        """Watch again: the answer brings the room's snapshot, and a host that restarted
        learns that we listen to the room's talk."""
        for room, name in list(self.watching.items()):
            await self._request(p.Watch(room=room, name=name))

    def _on_reply(self, reply: p.HostReply) -> None:
        if isinstance(reply, p.SeatUpdate):
            self._show(reply.room, self._mirror(reply.room).on_seat(reply))
            if reply.ref is None:
                return
        elif isinstance(reply, p.Chat):
            self._emit(reply)
            if reply.ref is None:
                return
        ref = reply.ref
        pending = self._pending.pop(ref, None) if ref is not None else None
        if pending is None:
            if isinstance(reply, p.Error) and ref in self._sent:  # not an old one replayed
                self._emit(reply)
            return
        if pending.future.done():
            return
        if isinstance(reply, p.Error):
            if reply.code == "replay" and pending.resent:
                pending.future.set_exception(RemoteError(
                    "applied", "the host had applied this request; its answer was lost"))
            else:
                pending.future.set_exception(RemoteError(reply.code, reply.message))
        else:
            pending.future.set_result(reply)

    def _on_public(self, topic: str, message: p.PublicMessage) -> None:
        if isinstance(message, p.LobbyEntry):
            if topic == p.lobby_topic(message.room.id):
                self._on_lobby(message)
        elif isinstance(message, p.RoomDelta):
            if topic == p.room_topic(message.room) and self._follows(message.room):
                self._show(message.room, self._mirror(message.room).on_delta(message))
        elif isinstance(message, p.RoomSnapshot):
            if topic in (p.outbox_topic(self.cid), p.snapshot_topic(message.room)) \
                    and self._follows(message.room):
                self._asked.discard(message.room)
                self._show(message.room, self._mirror(message.room).on_snapshot(message))
        elif isinstance(message, p.PublicError) and topic == p.outbox_topic(self.cid):
            self._emit(message)

    def _follows(self, room: str) -> bool:
        return room in self.seats or room in self.watching or room in self._mirrors

    def _on_lobby(self, entry: p.LobbyEntry) -> None:
        if entry.gone:
            self.lobby.pop(entry.room.id, None)
        else:
            self.lobby[entry.room.id] = entry.room
        if self._lobby_due is None:
            self._lobby_due = asyncio.get_running_loop().call_later(
                LOBBY_BATCH, self._emit_lobby)

    def _emit_lobby(self) -> None:
        self._lobby_due = None
        self._emit(LobbyUpdate(lobby_order(self.lobby.values())))

    def _mirror(self, room: str) -> RoomMirror:
        mirror = self._mirrors.get(room)
        if mirror is None:
            mirror = self._mirrors[room] = RoomMirror(room, seat=self.seats.get(room))
        return mirror

    def _show(self, room: str, updates: list[TableUpdate]) -> None:
        """Emit what a room's mirror completed; chase what it still lacks."""
        mirror = self._mirrors[room]
        for update in updates:
            if update.seat is not None:
                self.seats[room] = update.seat
            self._emit(update)
        due = self._seat_due.pop(room, None)
        if due is not None:
            due.cancel()
        if mirror.waiting is not None:
            self._seat_due[room] = asyncio.get_running_loop().call_later(
                SEAT_WAIT, self._overdue, room)
        if mirror.needs_snapshot and room not in self._asked and self._connected.is_set():
            self._asked.add(room)
            log.info("room %s: updates missed; asking for a snapshot", room)
            self._spawn(self.snapshot(room))

    def _overdue(self, room: str) -> None:
        self._seat_due.pop(room, None)
        self._show(room, self._mirrors[room].overdue())

    def _spawn(self, request: Any) -> None:
        """Send a request in the background; a failure is harmless (the next one retries)."""

        async def quietly() -> None:
            with contextlib.suppress(RemoteError, TimeoutError):
                await request

        task = asyncio.get_running_loop().create_task(quietly())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- outbound --------------------------------------------------------------------------

    def _seal(self, message: p.ClientMessage) -> tuple[int, bytes]:
        assert self._session is not None
        self._ctr = crypto.next_counter(self._ctr)
        body = p.pad(p.encode(message), p.request_class(message))
        box = crypto.seal(self._session.to_host, body, p.request_aad(self.cid, self._ctr))
        envelope = p.Request(v=p.VERSION, pub=self.key.public, ctr=self._ctr, box=box)
        return self._ctr, p.encode(envelope)

    async def _request(self, message: p.ClientMessage, patient: bool = False) -> Any:
        """Send and wait for the answer. `patient`: when the link is down at the deadline, wait
        for it to come back (the request is re-sent then, see `_resend`) and for the answer."""
        client, session = self._client, self._session
        if client is None or session is None:
            raise RemoteError("disconnected", "not connected to the host")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        async with self._send_lock:
            ctr, envelope = self._seal(message)
            self._pending[ctr] = _Pending(envelope, future)
            self._sent.append(ctr)
            with contextlib.suppress(aiomqtt.MqttError):  # kept: it goes again when the
                await client.publish(p.inbox_topic(self.cid), envelope,  # link is back
                                     qos=REQUEST_QOS)
        try:
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(future), self.request_timeout)
                except TimeoutError:
                    if not patient or self._connected.is_set():
                        raise RemoteError("unreachable", "the host did not answer: it may be "
                                          "down, or the connection is lost") from None
                    await self._connected.wait()
        finally:
            self._pending.pop(ctr, None)

    @property
    def connected(self) -> bool:
        """The broker link is up and the host greeted: a request goes out at once."""
        return self._connected.is_set()

    async def request(self, message: p.ClientMessage) -> Any:
        """Send any client message once connected; returns the host's reply."""
        try:
            await self.wait_connected(self.request_timeout)
        except TimeoutError:
            raise RemoteError("unreachable", "not connected to the host") from None
        return await self._request(message)

    async def set_follow_lobby(self, on: bool) -> None:
        """Receive lobby entries (the lobby screen) or not (at a table)."""
        if on == self.follow_lobby:
            return
        self.follow_lobby = on
        client = self._client
        with contextlib.suppress(aiomqtt.MqttError):
            if client is not None and on:
                await self._subscribe(client, p.LOBBY_FILTER)
            elif client is not None:
                await client.unsubscribe(p.LOBBY_FILTER)

    async def list_rooms(self) -> list[p.RoomInfo]:
        """Every room the host lists, page after page."""
        rooms: list[p.RoomInfo] = []
        while True:
            page = await self.request(p.ListRooms(offset=len(rooms)))
            rooms.extend(page.rooms)
            if not page.rooms or len(rooms) >= page.total:
                return lobby_order(rooms)

    async def create_room(self, name: str, *, seats: int = 4, pool: str = "all",
                          turn_timeout: int = 60, bot: str = "random",
                          expansions: Sequence[str] = (),
                          high_noon: HighNoonOptions | None = None) -> p.RoomInfo:
        options = p.RoomOptions(seats=seats, pool=pool, turn_timeout=int(turn_timeout),
                                bot=bot, expansions=list(expansions), high_noon=high_noon)
        return (await self.request(p.CreateRoom(name=name, options=options))).room

    async def _follow(self, room: str) -> None:
        """Hear the room's deltas before asking anything about it. The caller asks for the
        room's snapshot next, so deltas that come first do not ask for one themselves."""
        self._asked.add(room)
        self._mirror(room)
        client = self._client
        if client is not None:
            with contextlib.suppress(aiomqtt.MqttError):
                await self._subscribe(client, p.room_topic(room))

    async def join(self, room: str, name: str, seat: int | None = None) -> int:
        """Take a seat; the room's state follows as a TableUpdate."""
        await self._follow(room)
        try:
            reply = await self.request(p.Join(room=room, name=name, seat=seat))
        finally:
            self._asked.discard(room)
        self.seats[room] = reply.seat
        self._mirror(room).seat = reply.seat
        await self.snapshot(room)
        return reply.seat

    async def watch(self, room: str, name: str = "") -> p.RoomInfo:
        """Follow a room without a seat; `name` signs what we say there."""
        self.watching[room] = name
        await self._follow(room)
        try:
            return (await self.request(p.Watch(room=room, name=name))).room
        finally:
            self._asked.discard(room)  # the snapshot came with the answer, or ask again

    async def ready(self, room: str, ready: bool = True) -> p.RoomInfo:
        return (await self.request(p.Ready(room=room, ready=ready))).room

    async def start(self, room: str, bots: bool = False) -> p.RoomInfo:
        return (await self.request(p.Start(room=room, bots=bots))).room

    async def fill_bots(self, room: str) -> p.RoomInfo:
        return (await self.request(p.FillBots(room=room))).room

    async def leave(self, room: str) -> None:
        await self.request(p.Leave(room=room))
        self.seats.pop(room, None)
        self._mirrors.pop(room, None)
        client = self._client
        if client is not None and room not in self.watching:
            with contextlib.suppress(aiomqtt.MqttError):
                await client.unsubscribe(p.room_topic(room))

    async def kick(self, room: str, seat: int) -> None:
        await self.request(p.Kick(room=room, seat=seat))

    async def act(self, room: str, decision: int, action: Action,
                  patient: bool = False) -> None:
        """Answer a decision; the answer is our seat's part of the change it made.
        `patient`: a link that is down does not refuse it: it is sent when the link is back
        (however long that takes), and a link lost before the answer sends it again."""
        message = p.Act(room=room, decision=decision, action=action)
        if not patient:
            await self.request(message)
            return
        await self._connected.wait()
        await self._request(message, patient=True)

    async def say(self, room: str, text: str = "", phrase: str = "") -> None:
        """Talk in a room where we sit or watch: free text or a quick phrase code."""
        await self.request(p.Say(room=room, text=text, phrase=phrase))

    async def history(self, room: str, start: int = 0) -> p.HistoryPage:
        """The game's events from number `start` on, page after page, as one page: `seq` and
        `total` of the last one, every event asked for (public ones, and our seat's own
        private cards)."""
        events: list[Event] = []
        while True:
            page = await self.request(p.History(room=room, start=start + len(events)))
            events += page.events
            if not page.events or start + len(events) >= page.total:
                return structs.replace(page, start=start, events=events)

    async def snapshot(self, room: str) -> None:
        self._asked.add(room)
        try:
            await self.request(p.Snapshot(room=room))
        finally:
            self._asked.discard(room)

    async def handover(self, room: str, seat: int) -> None:
        await self.request(p.Handover(room=room, seat=seat))


def lobby_order(rooms: Iterable[p.RoomInfo]) -> list[p.RoomInfo]:
    """Rooms as the host lists them: open ones by creation, then finished ones, the latest
    first."""
    return sorted(rooms, key=lambda r: (r.status == "over",
                                        -r.created if r.status == "over" else r.created, r.id))


def mqtt_client(address: p.BrokerAddress, *, username: str | None = None,
                identifier: str | None = None, will: aiomqtt.Will | None = None,
                **options: Any) -> aiomqtt.Client:
    """An aiomqtt client for `address` (MQTT 3.1.1, which both brokers we support speak).
    The identifier is random unless given: a known one would let anyone take the connection
    over. The URL's account, if it names one, wins over `username`."""
    return aiomqtt.Client(
        address.host, address.port, username=address.username or username,
        password=address.password, identifier=identifier or secrets.token_hex(12), will=will,
        protocol=aiomqtt.ProtocolVersion.V311, clean_session=True, keepalive=30,
        socket_options=NO_DELAY,
        tls_context=ssl.create_default_context() if address.tls else None, **options,
    )


def _player_client(address: p.BrokerAddress, cid: str, will: bytes | None) -> aiomqtt.Client:
    """A player's connection: the MQTT username is the client id (unless the broker URL names
    an account), for ACLs (docs/mosquitto/bang.acl); the will is our sealed Bye."""
    return mqtt_client(address, username=cid,
                       will=aiomqtt.Will(p.inbox_topic(cid), will, qos=1) if will else None)
