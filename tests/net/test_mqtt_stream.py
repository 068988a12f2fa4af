"""The host's MQTT reader (shared.mqtt) keeps in step with the broker's stream however it is
cut into reads: every PUBLISH reaches the handler once, in order; QoS 1 ones are acknowledged;
one over MAX_PACKET is skipped without being buffered."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from shared import mqtt


class Wire:
    """Stands in for the socket: what the link writes back."""

    def __init__(self) -> None:
        self.written = bytearray()

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return False


def body(topic: str, payload: bytes, packet_id: int | None) -> bytes:
    head = mqtt._string(topic)
    if packet_id is not None:
        head += packet_id.to_bytes(2, "big")
    return head + payload


def publish(topic: str, payload: bytes, packet_id: int | None) -> bytes:
    flags = 0x02 if packet_id is not None else 0
    return mqtt._packet(mqtt.PUBLISH, flags, body(topic, payload, packet_id))


#: The reader's limit during these tests: small, so that oversized packets are cheap to make.
LIMIT = 2000

messages = st.lists(st.tuples(st.sampled_from(["bang/v2/c/ab/in", "t", "x/y"]),
                              st.one_of(st.binary(max_size=300),
                                        st.binary(min_size=LIMIT, max_size=3 * LIMIT)),
                              st.one_of(st.none(), st.integers(1, 0xFFFF))),
                    max_size=8)


@settings(max_examples=200, deadline=None)
@given(messages, st.lists(st.integers(1, 700), min_size=1, max_size=30))
def test_any_cut_of_the_stream_gives_the_same_messages(sent, cuts) -> None:
    async def run() -> tuple[list[tuple[str, bytes]], bytes, int]:
        mqtt.MAX_PACKET = LIMIT
        got: list[tuple[str, bytes]] = []
        link = mqtt.MqttLink(lambda topic, payload: got.append((topic, payload)), 30)
        wire = Wire()
        link.transport = wire  # type: ignore[assignment]
        stream = b"".join(publish(t, p, i) for t, p, i in sent)
        at, step = 0, 0
        while at < len(stream):
            size = cuts[step % len(cuts)]
            link.data_received(stream[at:at + size])
            assert len(link._buffer) <= LIMIT + 700  # an oversized one is never held
            at, step = at + size, step + 1
        return got, bytes(wire.written), len(link._buffer)

    limit = mqtt.MAX_PACKET
    try:
        got, written, left = asyncio.run(run())
    finally:
        mqtt.MAX_PACKET = limit
    small = [(t, p, i) for t, p, i in sent if len(body(t, p, i)) <= LIMIT]
    assert got == [(t, p) for t, p, _ in small]
    assert written == b"".join(mqtt._packet(mqtt.PUBACK, 0, i.to_bytes(2, "big"))
                               for _, _, i in small if i is not None)
    assert left == 0


def test_acknowledgements_go_out_before_the_messages_are_handled() -> None:
    """On a stock broker (Nagle on) the next message to a client waits for its PUBACK of the
    last one: the acknowledgements of what a read completed are written before any handler
    runs, so that they do not wait for the handling."""
    ack = [mqtt._packet(mqtt.PUBACK, 0, i.to_bytes(2, "big")) for i in (7, 8)]

    async def run() -> list[bytes]:
        wire = Wire()
        seen: list[bytes] = []
        link = mqtt.MqttLink(lambda topic, payload: seen.append(bytes(wire.written)), 30)
        link.transport = wire  # type: ignore[assignment]
        link.data_received(publish("t", b"one", 7) + publish("t", b"two", 8))
        return seen

    assert asyncio.run(run()) == [ack[0] + ack[1], ack[0] + ack[1]]
