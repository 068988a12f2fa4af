"""The Remote of the bench's load clients."""

from __future__ import annotations

from client.net.remote import Remote
from shared import protocol as p


class BenchRemote(Remote):
    """A Remote that notes the size of what it receives: each public RoomDelta in `sizes`,
    and the distinct lengths of the sealed messages on its outbox in `sealed`. Load clients
    are made with `follow_lobby=False`, as seated players are."""

    sizes: list[int] | None = None
    sealed: set[int] | None = None

    def _dispatch(self, topic: str, payload: bytes) -> None:
        if self.sizes is not None and topic.startswith(f"{p.ROOT}/room/") \
                and not topic.endswith("/snap"):
            self.sizes.append(len(payload))
        elif self.sealed is not None and topic == p.outbox_topic(self.cid) \
                and isinstance(p.decode_outbound(payload), p.Sealed):
            self.sealed.add(len(payload))
        super()._dispatch(topic, payload)
