"""The host's link to the broker: connect, subscribe, pump messages both ways, and reconnect
with backoff when the broker goes away."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl

import aiomqtt

from server.host import Host
from shared import protocol as p

#: Small request/response messages: Nagle + delayed ACKs would add ~40 ms to each.
NO_DELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)
#: Publishes in flight at once (aiomqtt warns above 10 pending calls).
PIPELINE = 10

log = logging.getLogger("bang.connection")


def mqtt_client(address: p.BrokerAddress, identifier: str | None = None) -> aiomqtt.Client:
    """An MQTT 3.1.1 client for `address` (both brokers we support speak 3.1.1)."""
    return aiomqtt.Client(
        address.host, address.port, username=address.username, password=address.password,
        identifier=identifier, protocol=aiomqtt.ProtocolVersion.V311, clean_session=True,
        tls_context=ssl.create_default_context() if address.tls else None, keepalive=30,
        socket_options=NO_DELAY,
    )


async def serve(host: Host, address: p.BrokerAddress, stop: asyncio.Event) -> None:
    """Run until `stop` is set, reconnecting forever with capped exponential backoff."""
    backoff = 0.2
    while not stop.is_set():
        try:
            async with mqtt_client(address, f"bang-host-{host.keys.fingerprint[7:26]}") as client:
                granted = await client.subscribe(p.INBOX_FILTER, qos=1)
                if any(getattr(code, "value", code) >= 0x80 for code in granted):
                    raise RuntimeError(f"the broker refused the subscription {p.INBOX_FILTER}: "
                                       f"check its ACLs for the host's user")
                log.info("connected to the broker at %s:%d", address.host, address.port)
                backoff = 0.2
                host.announce()
                await _pump(client, host, stop)
        except aiomqtt.MqttError as exc:
            if stop.is_set():
                break
            log.warning("broker connection lost (%s); retrying in %.1fs", exc, backoff)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), backoff)
            backoff = min(backoff * 2, 10.0)


async def _pump(client: aiomqtt.Client, host: Host, stop: asyncio.Event) -> None:
    async def inbound() -> None:
        async for message in client.messages:
            payload = message.payload
            if isinstance(payload, bytes | bytearray):
                host.handle(message.topic.value, bytes(payload))

    async def outbound() -> None:
        while True:
            await host.has_output.wait()
            host.has_output.clear()
            batch = list(host.outbox)
            host.outbox.clear()
            # Pipelined: paho sends in call order, so one seat's updates stay in order, and
            # each group waits for its acknowledgements once instead of once per message.
            for start in range(0, len(batch), PIPELINE):
                await asyncio.gather(*(client.publish(item.topic, item.payload, qos=1,
                                                      retain=item.retain)
                                       for item in batch[start : start + PIPELINE]))

    tasks = [asyncio.create_task(inbound()), asyncio.create_task(outbound()),
             asyncio.create_task(stop.wait())]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()  # re-raise MqttError from a pump
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if stop.is_set():
            await _drain(client, host)


async def _drain(client: aiomqtt.Client, host: Host) -> None:
    """On shutdown, publish what is queued (best effort, bounded in time)."""
    try:
        async with asyncio.timeout(2):
            while host.outbox:
                item = host.outbox.popleft()
                await client.publish(item.topic, item.payload, qos=1, retain=item.retain)
    except (TimeoutError, aiomqtt.MqttError):
        pass
