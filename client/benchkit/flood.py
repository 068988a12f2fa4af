"""The stranger of `bang bench relay --flood`: junk on the broker at an even rate, sent by a
load worker of its own, so that making it costs neither the host nor the honest clients.

It knows what anyone on the broker can learn: the honest clients' ids and public keys (both
travel in clear in every request). Its messages go round `KINDS`, one of each in turn:

- a forged `Request` with a victim's real key and a random box, on the victim's inbox (twice
  in the round: the host must try to open each one, and must not hold it against the victim);
- random bytes on a victim's inbox;
- a `Request` from a fresh key, on that key's own inbox (the host does the key exchange);
- random bytes on a random room topic, the host topic, a victim's outbox or `junk/N`
  (twice in the round: only the broker and the victims' clients see these).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from client.net.remote import mqtt_client
from shared import crypto
from shared import protocol as p

#: An honest client as a stranger sees it: its client id and its public key.
Victim = tuple[str, bytes]
#: The junk is the same from run to run, so that two runs flood alike.
SEED = 13
#: A sealed request's box: the nonce, the padded request, the tag.
BOX = 12 + p.REQUEST_CLASS + 16


class Junk:
    """One junk message after another: (topic, payload)."""

    def __init__(self, victims: list[Victim], rng: random.Random) -> None:
        self.victims = victims
        self.rng = rng
        self.count = 0

    def next(self) -> tuple[str, bytes]:
        kind = KINDS[self.count % len(KINDS)]
        victim = self.victims[(self.count // len(KINDS)) % len(self.victims)]
        self.count += 1
        return kind(self, victim)

    def forged_request(self, victim: Victim) -> tuple[str, bytes]:
        cid, pub = victim
        forged = p.Request(v=p.VERSION, pub=pub, ctr=self.rng.randrange(1, 2**62),
                           box=self.rng.randbytes(BOX))
        return p.inbox_topic(cid), p.encode(forged)

    def garbage_on_inbox(self, victim: Victim) -> tuple[str, bytes]:
        return p.inbox_topic(victim[0]), self.rng.randbytes(self.rng.randrange(1, 300))

    def fresh_request(self, victim: Victim) -> tuple[str, bytes]:
        pub = self.rng.randbytes(32)  # any 32 bytes are an X25519 public key
        forged = p.Request(v=p.VERSION, pub=pub, ctr=1, box=self.rng.randbytes(BOX))
        return p.inbox_topic(crypto.client_id(pub)), p.encode(forged)

    def garbage_anywhere(self, victim: Victim) -> tuple[str, bytes]:
        topic = self.rng.choice([p.room_topic("x" + self.rng.randbytes(4).hex()),
                                 p.HOST_TOPIC, p.outbox_topic(victim[0]),
                                 f"junk/{self.rng.randrange(1000)}"])
        return topic, self.rng.randbytes(self.rng.randrange(1, 200))


KINDS: list[Callable[[Junk, Victim], tuple[str, bytes]]] = [
    Junk.forged_request, Junk.garbage_on_inbox, Junk.garbage_anywhere,
    Junk.forged_request, Junk.fresh_request, Junk.garbage_anywhere,
]


async def flood(broker: str, victims: list[Victim], rate: float, seconds: float,
                go: Callable[[], Awaitable[float]]) -> dict[str, Any]:
    """Connect, wait for the go, then send message i at go + i / rate (QoS 0, not retained)
    until `seconds` have passed. Behind time, it sends as fast as it can; what is still due
    at the end is not sent. Returns the messages sent and the seconds they took."""
    junk = Junk(victims, random.Random(SEED))
    async with mqtt_client(p.parse_broker_url(broker)) as stranger:
        start = await go()
        end = start + seconds
        sent = 0
        while (now := time.perf_counter()) < end:
            due = int((now - start) * rate) + 1
            while sent < due and time.perf_counter() < end:
                await stranger.publish(*junk.next(), qos=0)
                sent += 1
            await asyncio.sleep(max(0.0, min(end, start + sent / rate) - time.perf_counter()))
        elapsed = time.perf_counter() - start
    return {"sent": sent, "seconds": round(elapsed, 3)}
