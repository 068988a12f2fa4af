"""MQTT 3.1.1 spoken directly on an asyncio Protocol: the host's link to the broker, and the
bench's lean load clients.

Why not paho/aiomqtt here: measured on a 2-vCPU VM against a stock Mosquitto, aiomqtt spends
120-400 µs of CPU per QoS 1 publish (a task, a future and a packet-by-packet send each) and
~150 µs per message received; this module spends ~5 µs, and writes everything a host flush
releases in one system call. The host publishes ~5 messages per action, so this is most of
its cost per action. Players' clients keep aiomqtt (`client.net.remote`): they receive a few
messages a second and need its reconnection and wills.

What it does: connect (user name, password, TLS), subscribe (refusals raise), publish at QoS
0 or 1 (acknowledgements are not awaited: a lost link loses what was in flight, and the
protocol above re-sends what matters), receive at QoS 0 or 1 (acknowledged at once), ping to
keep the link alive and notice a dead one. `closed` completes when the link is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import ssl
import struct
from collections.abc import Callable, Iterable
from typing import Any

from shared.protocol import BrokerAddress

CONNECT, CONNACK, PUBLISH, PUBACK = 1, 2, 3, 4
SUBSCRIBE, SUBACK, PINGREQ, PINGRESP, DISCONNECT = 8, 9, 12, 13, 14
#: Seconds to wait for the broker's CONNACK or SUBACK.
TIMEOUT = 10.0
#: A PUBLISH larger than this is skipped unread (nothing of ours comes near it); the broker
#: may relay anything a stranger sends.
MAX_PACKET = 1 << 20
#: The write buffer above which `drain` waits for the socket.
HIGH_WATER = 1 << 20

Handler = Callable[[str, bytes], None]
CONNACK_CODES = {1: "unacceptable protocol version", 2: "identifier rejected",
                 3: "server unavailable", 4: "bad user name or password", 5: "not authorized"}


class MqttError(Exception):
    """The broker refused us, or the link is gone."""


def _length(n: int) -> bytes:
    """MQTT's variable-length "remaining length"."""
    out = bytearray()
    while True:
        n, digit = divmod(n, 128)
        out.append(digit | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("!H", len(data)) + data


def _packet(kind: int, flags: int, body: bytes) -> bytes:
    return bytes([kind << 4 | flags]) + _length(len(body)) + body


class MqttLink(asyncio.Protocol):
    """One MQTT connection; `on_message(topic, payload)` is called for every PUBLISH, from
    the event loop, in arrival order."""

    def __init__(self, on_message: Handler, keepalive: int) -> None:
        self.on_message = on_message
        self.keepalive = keepalive
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.closed: asyncio.Future[None] = loop.create_future()  # its exception: why
        self._buffer = bytearray()
        self._skip = 0  # bytes of an oversized packet still to discard
        self._acks: dict[int, asyncio.Future[bytes]] = {}  # packet id (-CONNACK) -> answer
        self._next_id = 0
        self._heard = loop.time()  # when the broker last sent anything
        self._writable = asyncio.Event()
        self._writable.set()
        self._pinger: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, address: BrokerAddress, on_message: Handler, *,
                   username: str | None = None, keepalive: int = 30,
                   will: tuple[str, bytes] | None = None) -> MqttLink:
        """Connected and accepted, with a random client identifier (a known one would let
        anyone take the connection over). `username` defaults to the URL's. `will`: (topic,
        payload) the broker publishes, at QoS 1, if the connection ends without `close`."""
        loop = asyncio.get_running_loop()
        tls = ssl.create_default_context() if address.tls else None
        try:
            _, link = await asyncio.wait_for(loop.create_connection(
                lambda: cls(on_message, keepalive), address.host, address.port, ssl=tls),
                TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise MqttError(f"cannot reach the broker at {address.host}:{address.port}: "
                            f"{exc or 'timed out'}") from None
        try:
            await link._connect(address.username or username, address.password, will)
        except BaseException:
            link.abort()
            raise
        link._pinger = loop.create_task(link._keep_alive())
        return link

    async def _connect(self, username: str | None, password: str | None,
                       will: tuple[str, bytes] | None = None) -> None:
        flags = 0x02 | (0x80 if username else 0) | (0x40 if username and password else 0)
        if will is not None:
            flags |= 0x04 | 0x08  # a will, at QoS 1
        body = (_string("MQTT") + bytes([4, flags]) + struct.pack("!H", self.keepalive)
                + _string(secrets.token_hex(12)))
        if will is not None:
            body += _string(will[0]) + struct.pack("!H", len(will[1])) + will[1]
        if username:
            body += _string(username)
            if password:
                body += _string(password)
        answer = await self._ask(-CONNACK, _packet(CONNECT, 0, body))
        code = answer[1] if len(answer) >= 2 else 255
        if code:
            raise MqttError(f"the broker refused the connection: "
                            f"{CONNACK_CODES.get(code, f'code {code}')}")

    async def subscribe(self, topic: str, qos: int = 1) -> None:
        body = struct.pack("!H", self._packet_id()) + _string(topic) + bytes([qos])
        answer = await self._ask(self._next_id, _packet(SUBSCRIBE, 0x02, body))
        if answer[2:] == b"\x80" or len(answer) < 3:
            raise MqttError(f"the broker refused the subscription {topic}")

    def publish(self, topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> None:
        self.publish_many([(topic, payload, retain)], qos)

    def publish_many(self, messages: Iterable[tuple[str, bytes, bool]], qos: int = 0) -> None:
        """Every message in one write."""
        packets = []
        for topic, payload, retain in messages:
            head = _string(topic)
            if qos:
                head += struct.pack("!H", self._packet_id())
            packets.append(_packet(PUBLISH, qos << 1 | retain, head + payload))
        self._write(b"".join(packets))

    @property
    def writable(self) -> bool:
        """The socket keeps up: what is written now is not piling up in memory."""
        return self._writable.is_set() and not self.closed.done()

    async def drain(self) -> None:
        """Until the socket has taken most of what was written (or the link is gone)."""
        if not self._writable.is_set():
            waiting: asyncio.Future[Any] = asyncio.ensure_future(self._writable.wait())
            await asyncio.wait({waiting, self.closed}, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
        if self.closed.done():
            self.closed.result()

    def close(self) -> None:
        """Disconnect cleanly (no will fires)."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(_packet(DISCONNECT, 0, b""))
            self.transport.close()
        self._stop_pinger()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()
        self._stop_pinger()

    def _stop_pinger(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()

    def _packet_id(self) -> int:
        self._next_id = self._next_id % 0xFFFF + 1
        return self._next_id

    def _write(self, data: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            raise MqttError("the connection to the broker is closed")
        self.transport.write(data)

    async def _ask(self, key: int, packet: bytes) -> bytes:
        future = asyncio.get_running_loop().create_future()
        self._acks[key] = future
        try:
            self._write(packet)
            return await asyncio.wait_for(future, TIMEOUT)
        except TimeoutError:
            raise MqttError("the broker did not answer") from None
        finally:
            self._acks.pop(key, None)

    async def _keep_alive(self) -> None:
        """Ping at half the keepalive; a broker silent for 1.5 keepalives is gone."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.keepalive / 2)
            if loop.time() - self._heard > self.keepalive * 1.5:
                self._lose(MqttError("the broker stopped answering"))
                return
            with contextlib.suppress(MqttError):
                self._write(_packet(PINGREQ, 0, b""))

    def _lose(self, error: MqttError) -> None:
        if not self.closed.done():
            self.closed.set_exception(error)
            self.closed.exception()  # retrieved: nobody need await it
        for future in self._acks.values():
            if not future.done():
                future.set_exception(error)
        self._writable.set()
        self.abort()

    # --- asyncio.Protocol ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.set_write_buffer_limits(high=HIGH_WATER)
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lose(MqttError(f"the broker closed the connection{f': {exc}' if exc else ''}"))

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    def data_received(self, data: bytes) -> None:
        """Every packet the data completes; their acknowledgements go out before any is
        handled. On a stock broker (Nagle on) the next message to us waits for our PUBACK of
        the last one: sent first, it overlaps the handling instead of following it."""
        self._heard = asyncio.get_running_loop().time()
        if self._skip:
            skipped = min(self._skip, len(data))
            self._skip -= skipped
            data = data[skipped:]
        buffer = self._buffer
        buffer += data
        packets = []
        acks = []
        while buffer:
            header = _header(buffer)
            if header is None:
                break
            start, size = header
            if size > MAX_PACKET:
                skipped = min(len(buffer), start + size)
                self._skip = start + size - skipped
                del buffer[:skipped]
                continue
            if len(buffer) < start + size:
                break
            first, body = buffer[0], bytes(buffer[start:start + size])
            del buffer[:start + size]
            kind, flags = first >> 4, first & 0x0F
            if kind == PUBLISH and flags & 0x06 and len(body) >= 2:  # QoS 1 (we ask no more)
                at = 2 + struct.unpack_from("!H", body)[0]
                acks.append(_packet(PUBACK, 0, body[at:at + 2]))
            packets.append((kind, flags, body))
        if acks and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(acks))
        for kind, flags, body in packets:
            self._packet_in(kind, flags, body)

    def _packet_in(self, kind: int, flags: int, body: bytes) -> None:
        """Handle one packet (its acknowledgement, if any, has gone out)."""
        if kind == PUBLISH and len(body) >= 2:
            length = struct.unpack_from("!H", body)[0]
            at = 2 + length + (2 if flags & 0x06 else 0)
            try:
                topic = body[2:2 + length].decode()
            except UnicodeDecodeError:
                return
            self.on_message(topic, body[at:])
        elif kind == CONNACK:
            self._answer(-CONNACK, body)
        elif kind == SUBACK and len(body) >= 2:
            self._answer(struct.unpack_from("!H", body)[0], body)
        # PUBACK, PINGRESP: hearing them is enough

    def _answer(self, key: int, body: bytes) -> None:
        future = self._acks.get(key)
        if future is not None and not future.done():
            future.set_result(body)


def _header(buffer: bytearray) -> tuple[int, int] | None:
    """(where the body starts, its length), or None until the fixed header is complete."""
    size, shift = 0, 0
    for i in range(1, min(len(buffer), 5)):
        size |= (buffer[i] & 0x7F) << shift
        if not buffer[i] & 0x80:
            return i + 1, size
        shift += 7
    return None
