"""One host of a cluster (`bang host --cluster GROUP`): the single host (server.host) plus
leases on rooms, forwarding, failover and notes between hosts. How a cluster works, and why:
server.cluster."""

from __future__ import annotations

import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable

from server import cluster as c
from server import legacy
from server.host import KEEP_FINISHED, Host
from server.rooms import Room
from server.store import ReplayError, Store, StoreError, kept
from shared import crypto
from shared import protocol as p

log = logging.getLogger("bang.cluster")


class ClusterHost(Host):
    def __init__(self, store: Store, cluster: c.Cluster, **options: float | bool) -> None:
        self.cluster = cluster
        self._inbound: tuple[str, bytes, int] = ("", b"", 0)  # the message being handled
        self._others: dict[str, p.RoomInfo] = {}  # rooms the other hosts run, from the lobby
        # (when, to which host, topic, payload, hops) of the requests forwarded lately
        self._in_flight: deque[tuple[float, str, str, bytes, int]] = deque(maxlen=10_000)
        self._again = False  # handling those again, after their host's will
        super().__init__(store, **options)  # type: ignore[arg-type]
        log.info("cluster %s: host %s runs %d room(s)", cluster.group, cluster.host_id,
                 len(self.rooms))

    def subscriptions(self) -> list[str]:
        return [*self.cluster.filters(), f"$share/{self.cluster.group}/{legacy.INBOX_FILTER}"]

    def chores(self) -> list[tuple[float, Callable[[], None]]]:
        return [*super().chores(), (c.CHECK, self.cluster_tick)]

    def announce(self) -> None:
        """This host (re)connected: its new `link` becomes every host's, so that clients
        re-send what may have been lost with it, and greet again."""
        super().announce()
        self._share_link()

    def _share_link(self) -> None:
        self.store.set_cluster_link(self._link)
        self.store.commit()

    def will(self) -> tuple[str, bytes]:
        return self.cluster.gone_topic, c.gone(self.keys, self.cluster.host_id)

    def stop(self) -> None:
        """A host that stops lets its rooms go at once (the others take them within CHECK)."""
        super().stop()
        self.store.expire(self.cluster.host_id)
        self.store.commit()

    # --- which rooms this host runs --------------------------------------------------------

    def _load_rooms(self) -> list[Room]:
        """At start, the rooms nobody holds (all of them, for the first host up)."""
        return self._adopt(self.store.orphans(c.now_ms()))

    def _adopt(self, room_ids: list[str]) -> list[Room]:
        """Claim the rooms' leases, and replay those this host got: every open one, and the
        latest KEEP_FINISHED finished ones (it keeps the leases of older finished games, which
        stay on disk only, as a single host leaves them)."""
        until, now = self.cluster.lease_until(), c.now_ms()
        claimed = [r for r in room_ids if self.store.claim(r, self.cluster.host_id, until, now)]
        self.store.commit()
        records = []
        for room_id in claimed:
            with contextlib.suppress(KeyError):  # deleted meanwhile
                records.append(self.store.load_record(room_id))
        rooms = []
        for record in kept(records, KEEP_FINISHED):
            try:
                rooms.append(self.store.load_room(record))
            except ReplayError:
                log.exception("room %s: cannot take it over", record.id)
        return rooms

    def _created(self, room: Room) -> None:
        self.store.claim(room.id, self.cluster.host_id, self.cluster.lease_until(), c.now_ms())

    def cluster_tick(self) -> None:
        """Every CHECK seconds: renew this host's leases (dropping the rooms it lost), and
        take over the rooms nobody holds. While the store fails, it tries again next time
        (its leases run out meanwhile, and a host that can reach the store takes over)."""
        try:
            self._keep_leases()
        except StoreError as exc:
            log.warning("cluster %s: the store failed (%s); trying again in %g s",
                        self.cluster.group, exc, c.CHECK)
            self.store.rollback()

    def _keep_leases(self) -> None:
        me = self.cluster.host_id
        while self._in_flight and time.monotonic() - self._in_flight[0][0] > c.LEASE:
            self._in_flight.popleft()
        self.flush()  # what this host wrote is durable before it says it still holds rooms
        held = self.store.renew(me, self.cluster.lease_until())
        self.store.commit()
        link = self.store.cluster_link()
        if link and link != self._link:  # another host announced itself: the same link here
            self._link = link
            self.publish_hello()
        for room_id in [r for r in self.rooms if r not in held]:
            self._lost(room_id)
        adopted = self._adopt(self.store.orphans(c.now_ms()))
        for room in adopted:
            if room.id in self.rooms:
                continue
            log.info("room %s: taken over (%s)", room.id, room.status)
            self.rooms[room.id] = room
            self._others.pop(room.id, None)
            if room.status != "over":
                self._lobby_changed(room)
                self._publish_snapshot(room)
                self._schedule(room)
        self.flush()

    def _host_gone(self, host_id: str) -> None:
        """Another host's will: its rooms are taken over now, and the requests forwarded to
        it lately are handled again (its counters in the store tell which it had taken)."""
        log.warning("cluster %s: host %s is gone", self.cluster.group, host_id)
        self.store.expire(host_id)
        self.store.commit()
        self._link = self._next_n()  # its requests in flight are lost: clients re-send them
        self._share_link()
        self.publish_hello()
        self.cluster_tick()
        now = time.monotonic()
        again = [item for item in self._in_flight if item[1] == host_id and
                 now - item[0] <= c.LEASE]
        self._in_flight = deque((item for item in self._in_flight if item[1] != host_id),
                                maxlen=self._in_flight.maxlen)
        self._again = True
        try:
            for _, _, topic, payload, hops in again:
                self._inbound = (topic, payload, hops)
                super()._handle(topic, payload)
        finally:
            self._again = False

    def _refuse(self, cid: str, ref: int, code: str, message: str) -> None:
        if self._again and code == "replay":
            return  # the gone host had taken it: its effect is in the store, its answer lost
        super()._refuse(cid, ref, code, message)

    def _lost(self, room_id: str) -> None:
        """Another host holds the room now: forget it without a word (it publishes)."""
        log.warning("room %s: lease lost to another host; dropped here", room_id)
        self.timers.cancel(room_id)
        self.rooms.pop(room_id, None)
        self.broadcasts.pop(room_id, None)
        self.drivers.pop(room_id, None)
        self._snapshot_cancel(room_id)
        self._lobby_dirty.discard(room_id)
        self.talk.forget_room(room_id)

    # --- inbound ---------------------------------------------------------------------------

    def _handle(self, topic: str, payload: bytes) -> None:
        if topic in (self.cluster.forward_topic(), self.cluster.everyone_topic):
            self._forwarded(payload)
        elif topic == self.cluster.gone_topic:
            host_id = c.read_gone(self.keys, payload)
            if host_id is not None and host_id != self.cluster.host_id:
                self._host_gone(host_id)
        elif topic.startswith(p.LOBBY_FILTER[:-1]):
            self._lobby_entry(topic, payload)
        else:
            self._inbound = (topic, payload, 0)
            super()._handle(topic, payload)

    def _forwarded(self, payload: bytes) -> None:
        message = c.read_forward(payload)
        if message is None:
            return
        if message.note:
            found = c.read_note(self.keys, message.note)
            if found is not None:
                self._noted(found)
            return
        if p.cid_from_inbox(message.topic) is None:
            return  # only requests are forwarded
        self._inbound = (message.topic, message.payload, message.hops)
        super()._handle(message.topic, message.payload)

    def _runs_here(self, cid: str, message: p.ClientMessage) -> bool:
        room_id = getattr(message, "room", None)
        if room_id is None or room_id in self.rooms:
            return True
        try:
            owner = self.store.owner(room_id, c.now_ms())
        except StoreError:
            return True  # answered here: refused, or by the room if this host runs it
        topic, payload, hops = self._inbound
        if owner is not None and owner != self.cluster.host_id and hops < c.MAX_HOPS:
            self._queue(self.cluster.forward_topic(owner), c.forward(topic, payload, hops + 1))
            self._in_flight.append((time.monotonic(), owner, topic, payload, hops + 1))
            return False
        if owner is None and self._exists(room_id):  # its host is gone: take it over
            for room in self._adopt([room_id]):
                self.rooms[room.id] = room
                self._others.pop(room.id, None)
                log.info("room %s: taken over on a request", room.id)
                self._schedule(room)
        return True  # here, or refused here (`no_room`)

    def _exists(self, room_id: str) -> bool:
        """Whether the store has the room (no lease is ever taken on a name a client made up)."""
        try:
            self.store.load_record(room_id)
        except KeyError:
            return False
        return True

    # --- clients whose rooms other hosts run -------------------------------------------------

    def _register_will(self, cid: str, will: int) -> None:
        """Its will may reach any host: every host learns of it."""
        super()._register_will(cid, will)
        self._queue(self.cluster.everyone_topic, c.note(self.keys, c.Note(
            cid=cid, rooms=[], online=True, at=c.now_ms(), will=will)))

    def _seats_of(self, cid: str) -> list[p.SeatRef]:
        return [p.SeatRef(room=room, seat=seat) for room, seat in self.store.seats_of(cid)]

    def _send_snapshots(self, cid: str, room_ids: list[str]) -> None:
        """The rooms this host runs, here; the others' hosts are told to (a signed note)."""
        super()._send_snapshots(cid, room_ids)
        self._tell(cid, room_ids, online=True)

    def _presence(self, cid: str, online: bool) -> None:
        if not online:  # its bye or its will reached this host: the others run rooms too
            self._tell(cid, [room for room, _ in self.store.seats_of(cid)], online=False)
        super()._presence(cid, online)

    def _tell(self, cid: str, room_ids: list[str], online: bool) -> None:
        """Tell the hosts running those of `room_ids` that this host does not whether the
        client came or went."""
        by_host: dict[str, list[str]] = {}
        now = c.now_ms()
        for room_id in room_ids:
            if room_id not in self.rooms:
                owner = self.store.owner(room_id, now)
                if owner is not None and owner != self.cluster.host_id:
                    by_host.setdefault(owner, []).append(room_id)
        for owner, rooms in by_host.items():
            signed = c.note(self.keys, c.Note(cid=cid, rooms=rooms, online=online, at=now))
            self._queue(self.cluster.forward_topic(owner), signed)

    def _noted(self, note: c.Note) -> None:
        """Another host greeted the client (a snapshot of each of its rooms here goes to it),
        or heard it leave; or the client registered a will there."""
        if note.will is not None:
            self.wills.put(note.cid, note.will)
        for room_id in note.rooms:
            room = self.rooms.get(room_id)
            if room is None or room.seat_of(note.cid) is None:
                continue
            if note.online:
                self._send_snapshot(note.cid, room)
            if (note.cid in room.online) != note.online and room.status != "over":
                (room.online.add if note.online else room.online.discard)(note.cid)
                self._commit(room, [])

    # --- the lobby of the whole cluster ------------------------------------------------------

    def _lobby_entry(self, topic: str, payload: bytes) -> None:
        """A lobby entry: the other hosts' rooms, for `list`."""
        room_id = topic.rsplit("/", 1)[-1]
        if room_id in self.rooms:
            return
        if not payload:
            self._others.pop(room_id, None)
            return
        try:
            signed = p.decode_outbound(payload)
            if not isinstance(signed, p.Signed):
                return
            crypto.verify(self.keys.sign_public, signed.sig, signed.body)
            entry = p.decode_public(signed.body)
        except (p.ProtocolError, crypto.CryptoError):
            return
        if isinstance(entry, p.LobbyEntry) and entry.room.id == room_id:
            if entry.gone:
                self._others.pop(room_id, None)
            else:
                self._others[room_id] = entry.room

    def _listed(self) -> list[p.RoomInfo]:
        """Every host's rooms, in the lobby's order (by creation; finished ones last)."""
        rooms = [room.info() for room in self.rooms.values()] + list(self._others.values())
        open_rooms = sorted((r for r in rooms if r.status != "over"), key=lambda r: r.created)
        over = sorted((r for r in rooms if r.status == "over"), key=lambda r: -r.created)
        return open_rooms + over
