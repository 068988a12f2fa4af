"""Lean bot seats for the bench: protocol v2 spoken directly over `shared.mqtt`, so
that a thousand tables of load fit beside the host on a small machine and the figures are the
host's.

A lean seat does what any player's client must do with each message: it checks the host's
signature on the public delta (one check per process and message, see `crypto.verify`),
opens and unpads its sealed messages, and follows the room's `seq`. It builds no view: it
decides from its private part (`Mine.options`, present only when the seat must decide) and
the public pending decision of the deltas, picking uniformly among the legal options as
`RandomBot` does. A seat counts as updated by change `seq` once it has the delta and, when
the delta names it in `to`, its own SeatUpdate too: the moment a full client could draw it.

A host may die (the bench's --kill-one): a request that gets no answer goes again, unchanged,
every RESEND seconds (a host that applied it refuses the copy as a `replay`: applied); a game
that stalls makes a seat ask for its snapshot (the decision and its options). An act refused
as `rate_limited` is counted and asked again, and that seat's requests are spaced from then on.
When the bench kills a host, a seat also follows the room's retained snapshot, which a host
that takes the room over publishes at once: one newer than what the seat has seen makes it
ask at once. Otherwise it does not, as a player's client does not (every refresh would reach
every seat, a load that real tables do not put on the broker and that would be taken from the
host on a small machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import time
from typing import Any, Protocol

from msgspec import UNSET

from shared import crypto
from shared import protocol as p
from shared.mqtt import MqttError, MqttLink
from shared.views import PendingView

#: Seconds a lean seat waits for the answer to a request, re-sending it every RESEND: long
#: enough for a dead host's rooms to move to another host of a cluster.
REQUEST_TIMEOUT = 30.0
RESEND = 2.0
#: Seconds between the requests of a seat the host refused as `rate_limited` (a table as fast
#: as it can outruns one client's allowance), from then on: under the host's documented 50 a
#: second, so that the refused act, asked again, and the next ones get through. (The host
#: answers one refusal a second and drops the others unanswered: a seat that kept its pace
#: would wait RESEND seconds for each.)
RATE_LIMITED_SPACING = 1 / 40


class Tally(Protocol):
    """What the worker counts (client.benchkit.worker.Tally)."""

    errors: Any
    actions: int
    games: int
    started: int
    sizes: list[int]
    sealed: set[int]

    def sending(self, room: str, seq: int) -> None: ...
    def unsent(self, room: str, seq: int, error: str) -> None: ...
    def received(self, room: str, seq: int) -> None: ...
    def acknowledged(self, room: str, decision: int) -> None: ...
    def game_on(self, room: str, until: float) -> None: ...
    def game_off(self, room: str) -> None: ...


class Pacer(Protocol):
    async def wait(self) -> None: ...


class HostKeys:
    """The host's public keys, read from its retained signed announce and checked against
    the fingerprint the bench was given."""

    def __init__(self, sign_key: bytes, kx_key: bytes) -> None:
        self.sign_key = sign_key
        self.kx_key = kx_key

    @classmethod
    async def fetch(cls, address: p.BrokerAddress, fingerprint: str) -> HostKeys:
        found: asyncio.Future[HostKeys] = asyncio.get_running_loop().create_future()

        def on_message(topic: str, payload: bytes) -> None:
            try:
                envelope = p.decode_outbound(payload)
                hello = p.decode_public(envelope.body) if isinstance(envelope, p.Signed) \
                    else None
                if not isinstance(hello, p.HostHello) or hello.fingerprint != fingerprint:
                    return
                crypto.verify(hello.sign_key, envelope.sig, envelope.body)  # type: ignore[union-attr]
                if crypto.fingerprint(hello.sign_key, hello.kx_key) == fingerprint \
                        and not found.done():
                    found.set_result(cls(hello.sign_key, hello.kx_key))
            except (p.ProtocolError, crypto.CryptoError):
                pass

        link = await MqttLink.open(address, on_message, username="bench")
        try:
            await link.subscribe(p.HOST_TOPIC)
            return await asyncio.wait_for(found, REQUEST_TIMEOUT)
        finally:
            link.close()


class RequestError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class LeanSeat:
    """One player's key and connection."""

    def __init__(self, host: HostKeys, tally: Tally, takeovers: bool = False) -> None:
        self.host = host
        self.tally = tally
        self.takeovers = takeovers  # follow each room's retained snapshot (see the module)
        self.key = crypto.ClientKey.generate()
        self.cid = self.key.cid
        self.session = crypto.Session.for_client(self.key, host.kx_key)
        self.link: MqttLink | None = None
        self.rng = random.Random(self.cid)
        self._ctr = 0
        self._pending: dict[int, asyncio.Future[p.HostReply]] = {}
        self.spacing = 0.0  # seconds at least between two requests (see RATE_LIMITED_SPACING)
        self._sent_at = 0.0  # when the last request was first sent (perf_counter)
        # The room being played and what this seat knows of it.
        self.room: str | None = None
        self.seat: int | None = None
        self.decision: PendingView | None = None
        self.options: tuple[Any, ...] = ()
        self.finished = False  # the game is over
        self.wake = asyncio.Event()  # set when the game ends or this seat must decide
        self.heard = 0.0  # when the room last changed for this seat (perf_counter)
        self._recovering: asyncio.Task[None] | None = None  # a snapshot asked for
        self._seen = 0  # the last change seq this seat was updated by
        self._deltas: dict[int, p.RoomDelta] = {}  # seq -> delta still waiting for our part
        self._parts: set[int] = set()  # seqs whose SeatUpdate came before the delta

    async def connect(self, address: p.BrokerAddress) -> None:
        self.link = await MqttLink.open(address, self._on_message, username=self.cid)
        await self.link.subscribe(p.outbox_topic(self.cid))

    def close(self) -> None:
        if self._recovering is not None:
            self._recovering.cancel()
        if self.link is not None:
            self.link.close()

    async def follow(self, room: str) -> None:
        """A new game: forget the last one, hear the room's deltas."""
        assert self.link is not None
        self.room, self.seat, self.decision, self.options = room, None, None, ()
        self.finished, self._seen, self.heard = False, 0, time.perf_counter()
        self.wake.clear()
        self._deltas.clear()
        self._parts.clear()
        await self.link.subscribe(p.room_topic(room))
        if self.takeovers:
            await self.link.subscribe(p.snapshot_topic(room))

    async def request(self, message: p.ClientMessage) -> p.HostReply:
        """Seal, send (again every RESEND seconds), and wait for the answer; RequestError on a
        refusal or no answer, `applied` when a copy was refused as one the host had applied."""
        link = self.link
        assert link is not None
        await self.spaced()
        self._sent_at = time.perf_counter()
        self._ctr = crypto.next_counter(self._ctr)
        ctr = self._ctr
        box = crypto.seal(self.session.to_host, p.pad(p.encode(message), p.REQUEST_CLASS),
                          p.request_aad(self.cid, ctr))
        envelope = p.encode(p.Request(v=p.VERSION, pub=self.key.public, ctr=ctr, box=box))
        future: asyncio.Future[p.HostReply] = asyncio.get_running_loop().create_future()
        self._pending[ctr] = future
        sent = 0
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                while not future.done():
                    link.publish(p.inbox_topic(self.cid), envelope)
                    sent += 1
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(asyncio.shield(future), RESEND)
            reply = future.result()
        except TimeoutError:
            raise RequestError("timeout") from None
        except MqttError:
            raise RequestError("disconnected") from None
        finally:
            self._pending.pop(ctr, None)
        if isinstance(reply, p.Error):
            raise RequestError("applied" if reply.code == "replay" and sent > 1 else reply.code)
        return reply

    async def spaced(self) -> None:
        """Wait until `spacing` has passed since the last request was sent."""
        wait = self._sent_at + self.spacing - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)

    async def recover(self) -> None:
        """Ask for the room's snapshot: the game stalled (see `_on_snapshot`)."""
        if self.room is not None:
            with contextlib.suppress(RequestError):
                await self.request(p.Snapshot(room=self.room))

    async def act(self, pacer: Pacer, deadline: float) -> None:
        """Answer the decision in front of us (after the pacer's slot), timing the change."""
        decision, room = self.decision, self.room
        self.wake.clear()
        if decision is None or room is None or not self.options:
            return  # a snapshot came between the wake and now: nothing for us to do
        action = self.options[self.rng.randrange(len(self.options))]
        await pacer.wait()
        if time.perf_counter() >= deadline or self.decision is not decision:
            return
        seq = self._seen
        while True:
            await self.spaced()  # our own pace is not the host's time: the clock starts after
            self.tally.sending(room, seq + 1)
            try:
                await self.request(p.Act(room=room, decision=decision.id, action=action))
                break
            except RequestError as exc:
                if exc.code == "applied":
                    break
                self.tally.unsent(room, seq + 1, exc.code)
                if exc.code != "rate_limited" or time.perf_counter() >= deadline \
                        or self.decision is not decision:
                    return
                self.spacing = RATE_LIMITED_SPACING  # counted above; asked again, slower
        self.tally.actions += 1
        self.tally.acknowledged(room, decision.id)

    # --- inbound -----------------------------------------------------------------------------

    def _on_message(self, topic: str, payload: bytes) -> None:
        if not payload:
            return  # an emptied retained topic (a finished room's snapshot) says nothing
        try:
            envelope = p.decode_outbound(payload)
            if isinstance(envelope, p.Sealed):
                self.tally.sealed.add(len(payload))
                plain = crypto.open_box(self.session.to_client, envelope.box,
                                        p.reply_aad(self.cid))
                self._on_reply(p.decode_reply(p.unpad(plain, p.REPLY_CLASSES)))
            else:
                crypto.verify(self.host.sign_key, envelope.sig, envelope.body)
                message = p.decode_public(envelope.body)
                if isinstance(message, p.RoomDelta) and message.room == self.room:
                    self.tally.sizes.append(len(payload))
                    self._on_delta(message)
                elif isinstance(message, p.RoomSnapshot) and message.room == self.room:
                    if topic == p.snapshot_topic(self.room):
                        self._on_retained(message)
                    else:
                        self._on_snapshot(message)
        except (p.ProtocolError, crypto.CryptoError, ValueError):
            self.tally.errors["bad_message"] += 1

    def _on_reply(self, reply: p.HostReply) -> None:
        if isinstance(reply, p.SeatUpdate) and reply.room == self.room and reply.snapshot:
            self.options = reply.mine.options if reply.mine is not None else ()
            self._wake_if_mine()
        elif isinstance(reply, p.SeatUpdate) and reply.room == self.room:
            self.seat = reply.seat
            if reply.mine is not None:
                self.options = reply.mine.options
            if reply.seq in self._deltas:
                self._updated(self._deltas.pop(reply.seq))
            else:
                self._parts.add(reply.seq)
        ref = getattr(reply, "ref", None)
        future = self._pending.get(ref) if ref is not None else None
        if future is not None and not future.done():
            future.set_result(reply)

    def _on_delta(self, delta: p.RoomDelta) -> None:
        if delta.table is not None and delta.table.pending is not UNSET:
            self.decision = delta.table.pending
        if delta.info is not None and delta.info.status == "over":
            self.decision = None
        mine = self.seat is not None and self.seat in delta.to
        if mine and delta.seq not in self._parts:
            self._deltas[delta.seq] = delta
            return
        self._parts.discard(delta.seq)
        self._updated(delta)

    def _on_retained(self, snapshot: p.RoomSnapshot) -> None:
        """The room's retained snapshot: newer than what we saw, we missed changes (a host
        died before publishing them): ask for ours."""
        if 0 < self._seen < snapshot.seq and self._recovering is None:
            self._recovering = asyncio.get_running_loop().create_task(self.recover())
            self._recovering.add_done_callback(self._recovered)

    def _recovered(self, task: asyncio.Task[None]) -> None:
        self._recovering = None

    def _on_snapshot(self, snapshot: p.RoomSnapshot) -> None:
        """The room as it is (asked for after a stall); our options follow, sealed."""
        self._seen = max(self._seen, snapshot.seq)
        for seq in [seq for seq in self._deltas if seq <= snapshot.seq]:
            del self._deltas[seq]
        self.decision = snapshot.view.pending if snapshot.view is not None else None
        if snapshot.info.status == "over":
            self.finished = True
            self.wake.set()

    def _updated(self, delta: p.RoomDelta) -> None:
        """Change `delta.seq` is complete for this seat."""
        self._seen = max(self._seen, delta.seq)
        self.heard = time.perf_counter()
        self.tally.received(delta.room, delta.seq)
        if delta.info is not None and delta.info.status == "over":
            self.finished = True
            self.wake.set()
        else:
            self._wake_if_mine()

    def _wake_if_mine(self) -> None:
        if self.decision is not None and self.decision.seat == self.seat and self.options:
            self.wake.set()


class LeanTable:
    """Four lean seats playing games back to back; seat 0 creates the rooms."""

    def __init__(self, number: int, seats: list[LeanSeat], tally: Tally) -> None:
        self.number = number
        self.seats = seats
        self.tally = tally
        self.created = 0

    async def new_game(self, patient: bool = False) -> bool:
        """Create a room, seat everyone, start; False (the refusal counted) when refused.
        `patient`: while the host says `busy`, wait and try again."""
        creator = self.seats[0]
        options = p.RoomOptions(seats=len(self.seats), turn_timeout=0)
        try:
            while True:
                try:
                    reply = await creator.request(p.CreateRoom(
                        name=f"bench {self.number}.{self.created}", options=options))
                    break
                except RequestError as exc:
                    if not (patient and exc.code == "busy"):
                        raise
                    await asyncio.sleep(1.0)
            assert isinstance(reply, p.Ok) and reply.room is not None
            room = reply.room.id
            for i, seat in enumerate(self.seats):
                await seat.follow(room)
                joined = await seat.request(p.Join(room=room, name=f"bot{i}"))
                assert isinstance(joined, p.Ok)
                seat.seat = joined.seat
            for seat in self.seats[1:]:
                await seat.request(p.Ready(room=room, ready=True))
            await creator.request(p.Start(room=room))
        except RequestError as exc:
            self.tally.errors[exc.code] += 1
            return False
        self.created += 1
        self.tally.started += 1
        return True

    async def play(self, deadline: float, grace: float, pacer: Pacer, stall: float) -> None:
        """Games back to back until the deadline. `stall`: seconds without a change after
        which a game in course has stalled."""
        while True:
            room = self.seats[0].room
            assert room is not None
            self.tally.game_on(room, deadline)
            for seat in self.seats:
                seat.heard = time.perf_counter()
            over = await asyncio.gather(*(self._seat(seat, deadline, grace, pacer, stall)
                                          for seat in self.seats))
            self.tally.game_off(room)
            if not all(over):
                return
            self.tally.games += 1
            if time.perf_counter() >= deadline or not await self.new_game():
                return

    @staticmethod
    async def _seat(seat: LeanSeat, deadline: float, grace: float, pacer: Pacer,
                    stall: float) -> bool:
        """One seat until its game is over (True) or the deadline and the grace pass."""
        while not seat.finished:
            now = time.perf_counter()
            left = deadline + grace - now
            if left <= 0:
                return False
            if now < deadline and now - seat.heard >= stall:
                seat.heard = now
                await seat.recover()
                continue
            try:
                await asyncio.wait_for(seat.wake.wait(), min(left, stall))
            except TimeoutError:
                continue
            if not seat.finished and seat.wake.is_set():
                if time.perf_counter() >= deadline:
                    seat.wake.clear()
                    continue
                await seat.act(pacer, deadline)
        return True


async def lean_tables(broker: str, fingerprint: str, numbers: list[int], seconds: float,
                      tally: Tally, go: Any, pacer: Any, seats: int, grace: float,
                      setup_at_once: int, stall: float, takeovers: bool = False) -> None:
    """The tables step with lean seats: connect, seat the first games, then play from `go()`
    (the shared start) for `seconds`; `pacer(number, start)` paces one table; `stall`: see
    `LeanTable.play`; `takeovers`: see `LeanSeat`."""
    address = p.parse_broker_url(broker)
    host = await HostKeys.fetch(address, fingerprint)
    everyone = [LeanSeat(host, tally, takeovers) for _ in range(seats * len(numbers))]
    try:
        gate = asyncio.Semaphore(setup_at_once)

        async def connect(seat: LeanSeat) -> None:
            async with gate:
                await seat.connect(address)

        await asyncio.gather(*(connect(seat) for seat in everyone))
        tables = [LeanTable(number, everyone[seats * i: seats * i + seats], tally)
                  for i, number in enumerate(numbers)]

        async def first_game(table: LeanTable) -> None:
            async with gate:
                await table.new_game(patient=True)

        await asyncio.gather(*(first_game(table) for table in tables))
        start = await go()
        gc.freeze()  # the seats live until the end: out of the collector's way while timed
        tally.sizes.clear()
        await asyncio.gather(*(table.play(start + seconds, grace, pacer(table.number, start),
                                          stall)
                               for table in tables))
    finally:
        for seat in everyone:
            seat.close()
