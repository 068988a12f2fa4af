"""The host's link to the broker: connect, subscribe, pump messages both ways, keep house
(re-announce, sweep rooms) and reconnect with backoff when the broker goes away. While the
link is down, decision clocks stand still.

Two connections, on purpose. On a stock broker (Mosquitto's default leaves Nagle on for its
sockets), a socket that carries data both ways stalls: the broker holds a small message until
its previous one is acknowledged, and the receiver delays that acknowledgement by up to 40 ms
when it has nothing to send back. So requests come in on a connection that never publishes
(its acknowledgements go out at once), and everything the host says goes out on another one,
at QoS 1 (clients then acknowledge what they receive), without waiting for each PUBACK.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import ssl

import aiomqtt

from server import legacy
from server.host import TICK, Host
from shared import protocol as p

#: Small request/response messages: Nagle + delayed ACKs would add ~40 ms to each.
NO_DELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)
#: Publishes in flight at once (waiting for their PUBACK) on the outbound connection.
IN_FLIGHT = 4000
#: Seconds a decision gets at least after the host's broker link comes back.
GRACE = 5.0

log = logging.getLogger("bang.connection")


def mqtt_client(address: p.BrokerAddress, identifier: str | None = None,
                **options: object) -> aiomqtt.Client:
    """An MQTT 3.1.1 client for `address` (both brokers we support speak 3.1.1). The client
    identifier is random unless given: a known identifier would let anyone take the
    connection over."""
    return aiomqtt.Client(
        address.host, address.port, username=address.username, password=address.password,
        identifier=identifier or secrets.token_hex(12),
        protocol=aiomqtt.ProtocolVersion.V311, clean_session=True,
        tls_context=ssl.create_default_context() if address.tls else None, keepalive=30,
        socket_options=NO_DELAY, **options,  # type: ignore[arg-type]
    )


async def serve(host: Host, address: p.BrokerAddress, stop: asyncio.Event) -> None:
    """Run until `stop` is set, reconnecting forever with capped exponential backoff."""
    backoff = 0.2
    while not stop.is_set():
        try:
            async with mqtt_client(address) as inbound, \
                    mqtt_client(address, max_inflight_messages=IN_FLIGHT) as outbound:
                outbound.pending_calls_threshold = IN_FLIGHT  # they are meant to pile up
                for topic in (p.INBOX_FILTER, p.DISCOVER_FILTER, legacy.INBOX_FILTER):
                    granted = await inbound.subscribe(topic, qos=1)
                    if any(getattr(code, "value", code) >= 0x80 for code in granted):
                        raise RuntimeError(f"the broker refused the subscription {topic}: "
                                           f"check its ACLs for the host's user")
                log.info("connected to the broker at %s:%d", address.host, address.port)
                backoff = 0.2
                host.announce()
                host.timers.resume(GRACE)
                await _pump(inbound, outbound, host, stop)
        except aiomqtt.MqttError as exc:
            host.timers.pause()
            if stop.is_set():
                break
            log.warning("broker connection lost (%s); retrying in %.1fs", exc, backoff)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), backoff)
            backoff = min(backoff * 2, 10.0)


async def _pump(inbound: aiomqtt.Client, outbound: aiomqtt.Client, host: Host,
                stop: asyncio.Event) -> None:
    async def receive() -> None:
        async for message in inbound.messages:
            payload = message.payload
            if isinstance(payload, bytes | bytearray):
                host.handle(message.topic.value, bytes(payload))
            # host.handle staged its output; host.flush (scheduled by the first message of a
            # burst) commits once for the burst and releases it.

    async def send() -> None:
        in_flight: set[asyncio.Task[None]] = set()
        failed: list[BaseException] = []

        def done(task: asyncio.Task[None]) -> None:
            in_flight.discard(task)
            if not task.cancelled() and task.exception() is not None:
                failed.append(task.exception())  # type: ignore[arg-type]
                host.has_output.set()

        try:
            while True:
                await host.has_output.wait()
                host.has_output.clear()
                while host.outbox and not failed:
                    item = host.outbox.popleft()
                    # paho queues the packet when the task starts: tasks start in order, so
                    # each client's messages keep their order.
                    task = asyncio.create_task(outbound.publish(
                        item.topic, item.payload, qos=1, retain=item.retain))
                    in_flight.add(task)
                    task.add_done_callback(done)
                    if len(in_flight) >= IN_FLIGHT:
                        await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
                if failed:
                    raise failed[0]
        finally:
            for task in in_flight:
                task.cancel()

    async def keep_house() -> None:
        while True:
            await asyncio.sleep(TICK)
            host.tick()

    tasks = [asyncio.create_task(receive()), asyncio.create_task(send()),
             asyncio.create_task(keep_house()), asyncio.create_task(stop.wait())]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()  # re-raise MqttError from a pump
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if stop.is_set():
            await _drain(outbound, host)


async def _drain(client: aiomqtt.Client, host: Host) -> None:
    """On shutdown, publish what is queued (best effort, bounded in time)."""
    host.flush()
    try:
        async with asyncio.timeout(2):
            while host.outbox:
                item = host.outbox.popleft()
                await client.publish(item.topic, item.payload, qos=1, retain=item.retain)
    except (TimeoutError, aiomqtt.MqttError):
        pass
