"""The client side of the wire, for the Textual app and for networked bots.

    async with Remote("mqtt://127.0.0.1:1883") as remote:     # connects in the background
        await remote.wait_connected()
        rooms = await remote.list_rooms()                      # list[RoomInfo]
        room = await remote.create_room("Saloon", seats=4)     # RoomInfo
        seat = await remote.join(room.id, "Ann")               # int
        await remote.start(room.id, bots=True)                 # creator only
        async for update in remote.updates():
            match update:
                case PrivateUpdate(view=view) if view and view.options:
                    await remote.act(update.room, view.pending.id, view.options[0])
                case RoomUpdate() | Lobby() | Status() | Error() | PublicError():
                    ...

Updates, in arrival order, to every `updates()` loop running (the first loop also gets what
arrived before any was running):
- `PrivateUpdate` (room, seq, seat, info, view, events, log): your seat's view after room
  change `seq`; `view` is None before the game starts. Decrypted and checked.
- `RoomUpdate`: the public view of a room you `watch` (spectators).
- `Lobby`: the list of rooms, whenever it changes.
- `Error` / `PublicError`: a refusal that answers no pending request (requests raise
  `RemoteError` instead).
- `Status(connected, reason)`: the link went down or came back. On the way back the client
  re-sends Hello, the host re-sends every seat's view (the seat is reclaimed with the key in
  `config_dir/identity.key`), and watched rooms are re-snapshotted.
A sequence gap in a room's updates triggers a snapshot request on its own.

Requests (`list_rooms`, `create_room`, `join`, `watch`, `ready`, `start`, `fill_bots`, `leave`,
`act`, `snapshot`, `handover`) wait for the host's answer and raise `RemoteError(code,
message)` on refusal or `TimeoutError`.

State kept for the UI: `cid` (this identity), `seats` (room -> my seat), `lobby` (the latest
room list), `host` (the trusted host key, with its `fingerprint`). `close()` tells the host we
left (seats stay ours, shown offline); a dropped connection does the same through the MQTT will.

Trust: the host's key is pinned per broker URL in `config_dir/known_hosts.json` on first use;
a host with a different key later is never talked to (a `Status(False, reason)` says so and
the client keeps waiting for the trusted one). Pass `fingerprint=` to require a specific host.

Use one Remote per identity at a time: the MQTT client identifier is the client id, so a
second connection with the same key takes over the first one's (that is how a seat moves to
a new process after a drop).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiomqtt
from msgspec import Struct

from client.net.identity import HostKey, KnownHosts, default_config_dir, load_or_create_key
from shared import crypto
from shared import protocol as p
from shared.model import Action

#: Small request/response messages: Nagle + delayed ACKs would add ~40 ms to each.
NO_DELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)
#: Updates kept for the first `updates()` loop when none was running yet.
BACKLOG = 1000

log = logging.getLogger("bang.remote")


class Status(Struct, frozen=True):
    connected: bool
    reason: str = ""


class RemoteError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


Update = p.PrivateUpdate | p.RoomUpdate | p.Lobby | p.Error | p.PublicError | Status


class Remote:
    def __init__(self, broker: str, *, config_dir: Path | None = None,
                 key: crypto.ClientKey | None = None, fingerprint: str | None = None,
                 request_timeout: float = 10.0) -> None:
        self.broker = broker
        self.address = p.parse_broker_url(broker)
        config_dir = config_dir or default_config_dir()
        self.key = key or load_or_create_key(config_dir)
        self.cid = self.key.cid
        self.known_hosts = KnownHosts(config_dir)
        self.required_fingerprint = fingerprint
        self.request_timeout = request_timeout
        self.host: HostKey | None = None
        self.seats: dict[str, int] = {}  # room -> my seat
        self.watching: set[str] = set()
        self.lobby: list[p.RoomInfo] = []
        self._seq: dict[str, int] = {}
        self._lobby_n = 0
        self._hello_n = 0
        self._background: set[asyncio.Task[None]] = set()
        self._session: crypto.Session | None = None
        self._ctr = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._listeners: list[asyncio.Queue[Update]] = []
        self._backlog: deque[Update] = deque(maxlen=BACKLOG)  # before anyone listened
        self._client: aiomqtt.Client | None = None
        self._connected = asyncio.Event()
        self._host_known = asyncio.Event()
        self._send_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._refused: set[str] = set()

    # --- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> Remote:
        self._task = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Say goodbye (the seats stay ours, marked offline) and disconnect."""
        self._closing = True
        client = self._client
        if client is not None and self._session is not None:
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                async with asyncio.timeout(2):
                    await client.publish(p.inbox_topic(self.cid), self._bye(), qos=1)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

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
                will = self._bye() if self._session is not None else None
                async with _mqtt_client(self.address, self.cid, will) as client:
                    self._client = client
                    await self._subscribe(client, p.outbox_topic(self.cid), p.HOST_TOPIC,
                                          p.LOBBY_TOPIC,
                                          *(p.room_topic(r) for r in self.watching))
                    reader = asyncio.create_task(self._read(client))
                    try:
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

    async def _probe(self) -> None:
        """A short side connection that only reads the retained host announce."""
        async with _mqtt_client(self.address, f"{self.cid}-probe", None) as client:
            await self._subscribe(client, p.HOST_TOPIC)
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
        if not self._host_known.is_set():  # wait for the retained HostHello
            known = asyncio.create_task(self._host_known.wait())
            await asyncio.wait({known, reader}, timeout=self.request_timeout,
                               return_when=asyncio.FIRST_COMPLETED)
            known.cancel()
            if reader.done():
                reader.result()  # the link's error
            if not self._host_known.is_set():
                raise TimeoutError("no trusted host announced itself on this broker")
        welcome = await self._request(p.Hello())
        self.seats = {ref.room: ref.seat for ref in welcome.seats}
        for room in self.watching:
            await self._request(p.Snapshot(room=room))
        self._connected.set()
        self._emit(Status(True))

    def _link_down(self, reason: str) -> None:
        self._client = None
        was_up = self._connected.is_set()
        self._connected.clear()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(RemoteError("disconnected", reason))
        self._pending.clear()
        if was_up or not self._closing:
            self._emit(Status(False, reason))

    # --- trust -----------------------------------------------------------------------------

    def _trust(self, key: HostKey) -> None:
        """Adopt `key` if it is the required one, the pinned one, or the first one seen.
        Any other key is reported (once) and ignored: it may be a stale retained announce
        from an earlier host, or an impostor; either way we never talk to it."""
        if self.required_fingerprint:
            trusted = key.fingerprint == self.required_fingerprint
        else:
            trusted = self.known_hosts.check(self.broker, key)
        if not trusted:
            if key.fingerprint not in self._refused:
                self._refused.add(key.fingerprint)
                self._emit(Status(False, f"ignoring a host with key "
                                                     f"{key.fingerprint}: not the trusted one"))
            return
        if self.host is None or self.host.fingerprint != key.fingerprint:
            self.host = key
            self._session = crypto.Session.for_client(self.key, key.kx_key)
        self._host_known.set()

    # --- inbound ---------------------------------------------------------------------------

    async def _read(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload
            if not isinstance(payload, bytes | bytearray):
                continue
            try:
                self._dispatch(message.topic.value, bytes(payload))
            except (p.ProtocolError, crypto.CryptoError) as exc:
                log.debug("ignored a message on %s: %s", message.topic.value, exc)

    def _dispatch(self, topic: str, payload: bytes) -> None:
        envelope = p.decode_outbound(payload)
        if topic == p.HOST_TOPIC:
            self._on_hello(envelope)
            return
        if self.host is None:
            return
        if isinstance(envelope, p.Sealed):
            if topic != p.outbox_topic(self.cid) or self._session is None:
                return
            body = crypto.open_box(self._session.to_client, envelope.box, p.reply_aad(self.cid))
            self._on_reply(p.decode_reply(body))
        else:
            crypto.verify(self.host.sign_key, envelope.sig, envelope.body)
            self._on_public(topic, p.decode_public(envelope.body))

    def _on_hello(self, envelope: p.Sealed | p.Signed) -> None:
        if not isinstance(envelope, p.Signed):
            return
        hello = p.decode_public(envelope.body)
        if not isinstance(hello, p.HostHello):
            return
        crypto.verify(hello.sign_key, envelope.sig, envelope.body)
        if crypto.fingerprint(hello.sign_key, hello.kx_key) != hello.fingerprint:
            return
        key = HostKey(hello.fingerprint, hello.sign_key, hello.kx_key)
        self._trust(key)
        restarted = hello.n > self._hello_n and self._connected.is_set()
        self._hello_n = max(self._hello_n, hello.n)
        if restarted and self.host == key:
            # The host (re)connected while we stayed on the broker: greet it again, so that
            # it knows we are here and re-sends our seats.
            self._spawn(self._request(p.Hello()))

    def _on_reply(self, reply: p.HostReply) -> None:
        if isinstance(reply, p.PrivateUpdate):
            if self._fresh(reply.room, reply.seq):
                self.seats[reply.room] = reply.seat
                self._emit(reply)
            return
        ref = reply.ref
        future = self._pending.pop(ref, None) if ref is not None else None
        if future is None:
            if isinstance(reply, p.Error):
                self._emit(reply)
        elif not future.done():
            if isinstance(reply, p.Error):
                future.set_exception(RemoteError(reply.code, reply.message))
            else:
                future.set_result(reply)

    def _on_public(self, topic: str, message: p.PublicMessage) -> None:
        if isinstance(message, p.Lobby):
            if topic == p.LOBBY_TOPIC and message.n > self._lobby_n:
                self._lobby_n = message.n
                self.lobby = message.rooms
                self._emit(message)
        elif isinstance(message, p.RoomUpdate):
            mine = topic in (p.room_topic(message.room), p.outbox_topic(self.cid))
            if mine and message.room in self.watching and self._fresh(message.room, message.seq):
                self._emit(message)
        elif isinstance(message, p.PublicError) and topic == p.outbox_topic(self.cid):
            self._emit(message)

    def _fresh(self, room: str, seq: int) -> bool:
        """Drop stale updates; ask for a snapshot when some were missed."""
        last = self._seq.get(room)
        if last is not None and seq < last:
            return False
        if last is not None and seq > last + 1:
            log.info("room %s: updates %d-%d missed; asking for a snapshot", room, last + 1,
                     seq - 1)
            self._spawn(self.snapshot(room))
        self._seq[room] = seq
        return True

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
        box = crypto.seal(self._session.to_host, p.encode(message),
                          p.request_aad(self.cid, self._ctr))
        envelope = p.Request(v=p.VERSION, pub=self.key.public, ctr=self._ctr, box=box)
        return self._ctr, p.encode(envelope)

    def _bye(self) -> bytes:
        """The sealed Bye, also registered as the MQTT will (host key known beforehand)."""
        return self._seal(p.Bye())[1]

    async def _request(self, message: p.ClientMessage) -> Any:
        client, session = self._client, self._session
        if client is None or session is None:
            raise RemoteError("disconnected", "not connected to the host")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        async with self._send_lock:
            ctr, envelope = self._seal(message)
            self._pending[ctr] = future
            try:
                await client.publish(p.inbox_topic(self.cid), envelope, qos=1)
            except aiomqtt.MqttError as exc:
                self._pending.pop(ctr, None)
                raise RemoteError("disconnected", str(exc)) from exc
        try:
            return await asyncio.wait_for(future, self.request_timeout)
        finally:
            self._pending.pop(ctr, None)

    async def request(self, message: p.ClientMessage) -> Any:
        """Send any client message once connected; returns the host's reply."""
        await self.wait_connected(self.request_timeout)
        return await self._request(message)

    async def list_rooms(self) -> list[p.RoomInfo]:
        return (await self.request(p.ListRooms())).rooms

    async def create_room(self, name: str, *, seats: int = 4, pool: str = "all",
                          turn_timeout: float = 60.0, bot: str = "random") -> p.RoomInfo:
        options = p.RoomOptions(seats=seats, pool=pool, turn_timeout=turn_timeout, bot=bot)
        return (await self.request(p.CreateRoom(name=name, options=options))).room

    async def join(self, room: str, name: str, seat: int | None = None) -> int:
        reply = await self.request(p.Join(room=room, name=name, seat=seat))
        self.seats[room] = reply.seat
        return reply.seat

    async def watch(self, room: str) -> p.RoomInfo:
        self.watching.add(room)
        client = self._client
        if client is not None:
            await self._subscribe(client, p.room_topic(room))
        return (await self.request(p.Watch(room=room))).room

    async def ready(self, room: str, ready: bool = True) -> p.RoomInfo:
        return (await self.request(p.Ready(room=room, ready=ready))).room

    async def start(self, room: str, bots: bool = False) -> p.RoomInfo:
        return (await self.request(p.Start(room=room, bots=bots))).room

    async def fill_bots(self, room: str) -> p.RoomInfo:
        return (await self.request(p.FillBots(room=room))).room

    async def leave(self, room: str) -> None:
        await self.request(p.Leave(room=room))
        self.seats.pop(room, None)

    async def act(self, room: str, decision: int, action: Action) -> None:
        await self.request(p.Act(room=room, decision=decision, action=action))

    async def snapshot(self, room: str) -> None:
        await self.request(p.Snapshot(room=room))

    async def handover(self, room: str, seat: int) -> None:
        await self.request(p.Handover(room=room, seat=seat))


def _mqtt_client(address: p.BrokerAddress, cid: str, will: bytes | None) -> aiomqtt.Client:
    """The MQTT client identifier is the client id, so that broker ACLs can confine each
    client to its own topics (docs/mosquitto/bang.acl)."""
    return aiomqtt.Client(
        address.host, address.port, username=address.username, password=address.password,
        identifier=cid, will=aiomqtt.Will(p.inbox_topic(cid), will, qos=1) if will else None,
        protocol=aiomqtt.ProtocolVersion.V311, clean_session=True, keepalive=30,
        socket_options=NO_DELAY,
        tls_context=ssl.create_default_context() if address.tls else None,
    )
