"""The host's link to the broker: connect, subscribe, pump messages both ways, keep house
(re-announce, sweep rooms) and reconnect with backoff when the broker goes away. While the
link is down, decision clocks stand still.

Two connections, on purpose. On a stock broker (Mosquitto's default leaves Nagle on for its
sockets), a socket that carries data both ways stalls: the broker holds a small message until
its previous one is acknowledged, and the receiver delays that acknowledgement by up to 40 ms
when it has nothing to send back. So requests come in on a connection that never publishes
(its acknowledgements go out at once), and everything the host says goes out on another one,
at QoS 1 (clients then acknowledge what they receive), each flush in one write. Both speak
MQTT through `shared.mqtt` (see there why not aiomqtt).

QoS 1 is on purpose too, though with clean sessions it protects little: a client's PUBACK
carries the TCP acknowledgement the broker's Nagle waits for, so the second message of an
action (a delta, then a seat update, to one client) leaves at once. At QoS 0 the client sends
nothing back, and that second message waited for a delayed ACK: measured, the default
`bang bench relay` went from ~4 ms to 44 ms p50.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from server.host import Host
from server.store import StoreError
from shared import protocol as p
from shared.mqtt import MqttError, MqttLink

#: Seconds a decision gets at least after the host's broker link comes back.
GRACE = 5.0
#: Messages the host publishes in one write at most.
BATCH = 500

log = logging.getLogger("bang.connection")


async def keep_house(every: float, chore: Callable[[], None]) -> None:
    """`chore` every `every` seconds. One the store fails (it cannot be reached) is tried
    again next time: it must not end the task, which would stop the host."""
    while True:
        await asyncio.sleep(every)
        try:
            chore()
        except StoreError as exc:
            log.error("%s: the store failed (%s); tried again in %g s",
                      getattr(chore, "__name__", "a chore"), exc, every)


async def serve(host: Host, address: p.BrokerAddress, stop: asyncio.Event) -> None:
    """Run until `stop` is set, reconnecting forever with capped exponential backoff."""
    backoff = 0.2
    while not stop.is_set():
        links: list[MqttLink] = []
        try:
            inbound = await MqttLink.open(address, host.handle, will=host.will())
            links.append(inbound)
            outbound = await MqttLink.open(address, _ignore)
            links.append(outbound)
            for topic in host.subscriptions():
                try:
                    await inbound.subscribe(topic, qos=1)
                except MqttError:
                    raise RuntimeError(f"the broker refused the subscription {topic}: check "
                                       f"its ACLs for the host's user") from None
            log.info("connected to the broker at %s:%d", address.host, address.port)
            backoff = 0.2
            host.announce()
            host.timers.resume(GRACE)
            await _pump(inbound, outbound, host, stop)
        except MqttError as exc:
            host.timers.pause()
            if stop.is_set():
                break
            log.warning("broker connection lost (%s); retrying in %.1fs", exc, backoff)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), backoff)
            backoff = min(backoff * 2, 10.0)
        finally:
            for link in links:
                link.close()


def _ignore(topic: str, payload: bytes) -> None:
    """The outbound connection subscribes to nothing."""


async def _pump(inbound: MqttLink, outbound: MqttLink, host: Host, stop: asyncio.Event) -> None:
    """Requests reach `host.handle` straight from the inbound link (it stages its output;
    `host.flush`, scheduled by the first message of a burst, commits once for the burst and
    releases it). What is released is published at once, in the same turn of the event loop
    (a turn under load handles many requests: waiting for the next one cost as much again);
    when the socket falls behind, a task publishes it as the socket drains. This also keeps
    house."""

    def publish_batch() -> None:
        batch = [host.outbox.popleft() for _ in range(min(BATCH, len(host.outbox)))]
        outbound.publish_many(((item.topic, item.payload, item.retain) for item in batch),
                              qos=1)

    def publish_now() -> None:
        with contextlib.suppress(MqttError):  # the link is gone: `_pump` ends on that
            while host.outbox and outbound.writable:
                publish_batch()

    async def send() -> None:
        while True:
            await host.has_output.wait()
            host.has_output.clear()
            while host.outbox:
                publish_batch()
                await outbound.drain()

    ours: list[asyncio.Future[Any]] = [asyncio.create_task(send()),
                                       asyncio.create_task(stop.wait())]
    ours += [asyncio.create_task(keep_house(every, chore)) for every, chore in host.chores()]
    tasks = [*ours, inbound.closed, outbound.closed]
    host.on_output = publish_now
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()  # re-raise MqttError from a link
    finally:
        host.on_output = None
        for task in ours:
            task.cancel()
        await asyncio.gather(*ours, return_exceptions=True)
        if stop.is_set():
            await _drain(outbound, host)


async def _drain(link: MqttLink, host: Host) -> None:
    """On shutdown, publish what is queued (best effort, bounded in time)."""
    host.flush()
    try:
        async with asyncio.timeout(2):
            while host.outbox:
                item = host.outbox.popleft()
                link.publish(item.topic, item.payload, qos=1, retain=item.retain)
                await link.drain()
    except (TimeoutError, MqttError):
        pass
