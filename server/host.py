"""The host's core: authenticate each inbound message, apply it to a room, persist, publish.

Transport-free: `handle(topic, payload)` takes one MQTT message; what must be published is
staged and released to `outbox` by `flush()`, after the store has committed every write the
staged messages speak of (one commit for a whole burst of requests). `server.connection`
moves bytes between the broker and this object and calls `flush` after each burst; timers
(bot moves, timeouts) schedule a flush themselves. Everything here is synchronous, so one
message is handled completely before the next.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from server import legacy
from server.broadcast import Broadcast
from server.chat import Speaker, TableTalk
from server.clients import Clients, Lru
from server.ratelimit import LogBudget, RateLimiter
from server.rooms import Room, RoomError, RoomTable, new_room_id
from server.store import Store, StoreError
from server.timers import DecisionTimers
from shared import chat, crypto
from shared import protocol as p
from shared.bots import BOT_KINDS, Bot, make_bot, tell
from shared.driver import GameDriver, GameFailed
from shared.engine import IllegalAction
from shared.events import NOT_IN_HISTORY, game_stopped, redact
from shared.model import Action, Event
from shared.record import replay

log = logging.getLogger("bang.host")

MAX_ROOMS = 2000  # rooms not finished, in all
MAX_WAITING = 300  # rooms waiting for players: cheap to make, so fewer
MAX_ROOMS_PER_CLIENT = 5
CREATE_RATE, CREATE_BURST = 20.0, 200.0  # new rooms per second, from everyone together
WAITING_TTL = 300.0  # seconds a waiting room with no ready player lives after its last change
EVICT_IDLE = 60.0  # seconds without a change before such a room may make way for a new one
EMPTY_GRACE = 60.0  # seconds a waiting room nobody has joined yet lives after its last change
SEAT_IDLE = 600.0  # seconds a player may hold a seat in a waiting room without a request
KEEP_DAYS = 30.0  # finished games are deleted from the store after this many days
RESTART_GRACE = 5.0  # seconds a decision gets at least after the host restarted
MAX_OUTBOX = 20_000
KEEP_FINISHED = 50  # finished rooms kept in memory for snapshots; older ones only on disk
FINISHED_LINGER = 600.0  # seconds a finished room stays in the lobby and on the broker
BURST_FLUSH = 0.004  # seconds of handling in one burst before what it staged goes out
LOBBY_DELAY = 0.2  # seconds: a room's lobby changes within this window go out together
SNAPSHOT_EVERY = 1.0  # seconds between refreshes of a playing room's retained snapshot
STORE_RETRY = 1.0  # seconds between tries to read back rooms the store could not give
STORE_AWAY = "the host cannot reach its store right now: try again in a moment"
HELLO_EVERY = 45.0  # seconds between re-publications of the signed host announce
TICK = 15.0  # seconds between housekeeping rounds (see `tick`)
PRUNE_EVERY = 3600.0  # seconds between looks for finished games older than keep_days
ROOMS_PAGE = 16  # rooms per `list` page, fewer when they do not fit the page's size class
# `history` pages: per client, and from everyone together (a page may be 16 KiB).
HISTORY_RATE, HISTORY_BURST = 5.0, 20.0
HISTORY_ALL_RATE, HISTORY_ALL_BURST = 200.0, 1000.0
# What a page's events add to its encoding besides the events: the key `events` (7 bytes)
# and the array's header (at most 3).
HISTORY_FRAMING = 10


class Outgoing(NamedTuple):
    topic: str
    payload: bytes
    retain: bool = False


class Host:
    def __init__(self, store: Store, *, bot_delay: float = 0.5, rate: float = 50.0,
                 burst: float = 200.0, keep_days: float = KEEP_DAYS,
                 bot_talk: bool = False) -> None:
        self.store = store
        self.keys = store.host_keys()
        self.bot_delay = bot_delay
        self.keep_days = keep_days
        self._prune()
        self.rooms = RoomTable(self._load_rooms())
        # Rooms dropped at start (their lobby info): their `gone` and empty topics go out with
        # the first announce.
        self._dropped: dict[str, p.RoomInfo] = {}
        self._drop_unready_rooms()
        self.clients = Clients(store)
        self.sessions: Lru[str, crypto.Session] = Lru(20_000)
        self.wills: Lru[str, int] = Lru(50_000)  # cid -> the counter of its registered will
        self.limiter = RateLimiter(rate, burst)  # per authenticated client
        self.creations = RateLimiter(CREATE_RATE, CREATE_BURST)  # key "*": everyone
        self.notices = RateLimiter(rate=1.0, burst=1.0)  # one `rate_limited` a second each
        self.history_pages = RateLimiter(HISTORY_RATE, HISTORY_BURST)  # per client
        self.history_all = RateLimiter(HISTORY_ALL_RATE, HISTORY_ALL_BURST)  # key "*"
        # Anything unauthenticated shares these: keys cost nothing to invent.
        self.new_keys = RateLimiter(rate=500.0, burst=3000.0)
        self.clear_answers = RateLimiter(rate=100.0, burst=200.0)
        self.log_budget = LogBudget()
        self.timers = DecisionTimers()
        self.drivers: dict[str, GameDriver] = {}  # room -> its game's driver (and bots)
        self.broadcasts: dict[str, Broadcast] = {}
        self.talk = TableTalk(bot_talk)
        self.outbox: deque[Outgoing] = deque()  # ready to publish
        self.has_output = asyncio.Event()
        # Called when something was released, to publish it in the same turn of the event
        # loop (set by `server.connection` while linked; tests read `outbox` instead).
        self.on_output: Callable[[], None] | None = None
        self._staged: list[Outgoing] = []  # waits for the store's commit
        # When the first message since the last flush was staged (None: none was, and no
        # flush is due).
        self._staged_since: float | None = None
        # Finished rooms out of memory but still in the lobby (see `_evict`): their lobby info.
        self._lingering: dict[str, p.RoomInfo] = {}
        self._online: set[str] = set()  # clients with a seat marked online somewhere
        self._n = 0
        self._lobby_dirty: set[str] = set()
        # room -> the timer of its next retained snapshot: one timer per room, so that the
        # refreshes of many tables spread over the second instead of coming all at once.
        self._snapshot_due: dict[str, asyncio.TimerHandle] = {}
        # Rooms whose stored state could not be read back (the store is away): they wait,
        # untouched and refusing requests, until it is read (`_reload`, `_read_back`).
        self.unread: set[str] = set()
        self._read_back_due: asyncio.TimerHandle | None = None
        self._hello: bytes = b""
        self._hello_at = 0.0
        self._link = 0
        self.last_seen: Lru[str, float] = Lru(50_000)  # cid -> monotonic time of its request
        self._started = self._pruned_at = time.monotonic()  # (pruned just above)
        self._changed: dict[str, float] = {}  # room -> monotonic time of its last change

    # --- lifecycle -------------------------------------------------------------------------

    def _load_rooms(self) -> list[Room]:
        """The rooms this host runs from the start: every stored one (a cluster's host takes
        only those nobody holds, server.cluster_host)."""
        return self.store.load_rooms(KEEP_FINISHED)

    def announce(self) -> None:
        """Publish everything a (re)connected broker needs: the host key, the lobby entries
        and each room's public snapshot. Seated clients greet the new announce and get their
        seats back. Also re-arms every timer (a decision keeps its deadline)."""
        self._link = self._next_n()
        self.publish_hello()
        self._queue(legacy.HOST_TOPIC, legacy.hello(self.keys, self._next_n()), retain=True)
        for room_id, info in self._dropped.items():
            self._retire(room_id, info)
        self._dropped.clear()
        for room in self.rooms.values():
            if room.status == "over":
                self._retire(room.id)
            else:
                self._lobby_changed(room)
                self._publish_snapshot(room)
                self._schedule(room)
        self.flush()

    def subscriptions(self) -> list[str]:
        """The topics this host takes requests from."""
        return [p.INBOX_FILTER, p.DISCOVER_FILTER, legacy.INBOX_FILTER]

    def will(self) -> tuple[str, bytes] | None:
        """What the broker says for this host if its link dies (nothing, alone)."""
        return None

    def chores(self) -> list[tuple[float, Callable[[], None]]]:
        """What the host does on its own, and every how many seconds."""
        return [(TICK, self.tick)]

    def publish_hello(self) -> None:
        """The signed host announce, retained; re-published every HELLO_EVERY seconds so a
        cleared or forged retained message costs nothing."""
        hello = p.HostHello(sign_key=self.keys.sign_public, kx_key=self.keys.kx_public,
                            fingerprint=self.keys.fingerprint, n=self._next_n(),
                            link=self._link)
        self._hello = self._sign(hello)
        self._hello_at = time.monotonic()
        self._queue(p.HOST_TOPIC, self._hello, retain=True)

    def tick(self) -> None:
        """Housekeeping, every TICK seconds: re-announce the host, and sweep rooms."""
        now = time.monotonic()
        if now - self._hello_at >= HELLO_EVERY:
            self.publish_hello()
        self.sweep(now)
        self.rooms.reindex()

    def sweep(self, now: float) -> None:
        """Free seats held by players long silent in waiting rooms, and close waiting rooms
        where nobody is ready and nothing happened for WAITING_TTL, those that freeing seats
        left empty, and those nobody joined within EMPTY_GRACE of their last change (a room is
        created empty: its creator joins next): a room costs nothing to make, so an abandoned
        one must not keep its place."""
        for room in [r for r in self.rooms.values() if r.status == "waiting"]:
            freed = False
            for seat, cid in room.human_seats():
                seen = self.last_seen.get(cid) or self._started
                if now - seen >= SEAT_IDLE:
                    room.free_seat(seat)
                    self._broadcast(room).forget_seat(seat)
                    log.info("room %s seat %d: freed after %d s without a word", room.id, seat,
                             SEAT_IDLE)
                    freed = True
            quiet = now - self._changed.get(room.id, self._started)
            if not room.human_seats() and (freed or quiet >= EMPTY_GRACE):
                self._close(room, "nobody left")
            elif not room.anyone_ready() and quiet >= WAITING_TTL:
                self._close(room, "nobody ready")
            elif freed:
                self._commit(room, [])
        if now - self._pruned_at >= PRUNE_EVERY:
            self._pruned_at = now
            self._prune()

    def _prune(self) -> None:
        """Delete finished games older than `keep_days` (0 keeps them forever)."""
        if not self.keep_days:
            return
        cutoff = int((time.time() - self.keep_days * 86400) * 1000)
        for room_id in self.store.finished_before(cutoff):
            self.store.delete_room(room_id)
            log.info("room %s: finished game deleted (older than %g days)", room_id,
                     self.keep_days)

    def _drop_unready_rooms(self) -> None:
        """Waiting rooms where nobody is ready do not survive a restart."""
        for room in [r for r in self.rooms.values() if r.status == "waiting"]:
            if not room.anyone_ready():
                del self.rooms[room.id]
                self.store.delete_room(room.id)
                self._dropped[room.id] = room.info()
        self.store.commit()

    def stop(self) -> None:
        self.timers.cancel_all()
        self.flush()

    def flush(self) -> None:
        """Commit the store, then release what was staged. A failed commit rolls everything
        back: the rooms are rebuilt from the store and nothing about them is published."""
        self._staged_since = None
        try:
            self.store.commit()
        except StoreError:
            log.exception("could not commit; the last requests are dropped and rolled back")
            self.store.rollback()
            self._staged.clear()
            self.clients.forget_cached()
            for room in list(self.rooms.values()):
                self._reload(room)
            return
        if self._staged:
            for item in self._staged:
                if len(self.outbox) >= MAX_OUTBOX:
                    self.outbox.popleft()  # snapshots on reconnect make up for what is dropped
                self.outbox.append(item)
            self._staged.clear()
            self.has_output.set()
            if self.on_output is not None:
                self.on_output()

    # --- inbound ---------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> None:
        """One inbound message. Never raises: every refusal goes back to its sender, and a
        message the store failed on (it cannot be reached) is dropped, its sender asking
        again (an exception here would cut the host's link to the broker)."""
        try:
            self._handle(topic, payload)
        except StoreError as exc:
            log.error("a message on %s was dropped: the store failed (%s)", topic, exc)
        since = self._staged_since
        if since is not None and time.perf_counter() - since >= BURST_FLUSH:
            self.flush()

    def _handle(self, topic: str, payload: bytes) -> None:
        cid = p.cid_from_inbox(topic)
        if cid is None:
            self._handle_other(topic)
            return
        try:
            request = p.decode_request(payload)
            if crypto.client_id(request.pub) != cid:
                raise p.ProtocolError("bad_key", "the public key does not match the topic's id")
            session = self._session(cid, request.pub)
            plain = crypto.open_box(session.to_host, request.box, p.request_aad(cid, request.ctr))
        except p.ProtocolError as exc:
            self._refuse_clear(cid, exc.code, exc.message)
            return
        except crypto.CryptoError as exc:
            self._refuse_clear(cid, "bad_box", str(exc))
            return
        self._authenticated(cid, request, plain)

    def _handle_other(self, topic: str) -> None:
        """Discovery requests and v1 clients: answered in clear, from the shared budget."""
        asker = p.cid_from_discover(topic)
        if asker is not None:
            if self.clear_answers.allow("*"):
                self._queue(p.outbox_topic(asker), self._hello)
            return
        old = legacy.cid_from_inbox(topic)
        if old is not None and self.clear_answers.allow("*"):
            self._queue(legacy.outbox_topic(old), legacy.upgrade_error(self.keys, self._next_n()))

    def _authenticated(self, cid: str, request: p.Request, plain: bytes) -> None:
        """A request whose box opened: from here on, answers are sealed."""
        ref = request.ctr
        self.last_seen.put(cid, time.monotonic())
        if not self.limiter.allow(cid):
            if self.notices.allow(cid):
                self._refuse(cid, ref, "rate_limited", "too many requests: slow down")
            return
        try:
            message: p.ClientMessage | None = p.decode_client_message(
                p.unpad(plain, p.REQUEST_CLASSES))
        except p.ProtocolError as exc:
            message, invalid = None, exc
        if isinstance(message, p.Bye) and self.wills.get(cid) == ref:
            self.wills.pop(cid)  # the will registered by this connection's hello, once
            self._presence(cid, False)
            return
        if message is not None and not self._runs_here(cid, message):
            return  # forwarded to the host that runs the room
        try:
            fresh = self.clients.advance(cid, request.pub, ref)
        except StoreError:  # its counter cannot be checked: nothing is done (and the key the
            refusal = p.Error(code="storage", ref=ref,  # answer is sealed to is the request's)
                              message=STORE_AWAY)
            self._log_refusal(cid, refusal.code, refusal.message)
            self._seal_to(cid, request.pub, refusal, p.reply_class(refusal))
            return
        if not fresh:
            if not isinstance(message, p.Bye):  # a late will of an old connection: no answer
                self._refuse(cid, ref, "replay", "request counter is not newer than the last "
                             "one")
            return
        if message is None:
            self._refuse(cid, ref, invalid.code, invalid.message)
            return
        if isinstance(message, p.Bye):
            self._presence(cid, False)
            return
        self._presence(cid, True)
        try:
            self._dispatch(cid, ref, message)
        except RoomError as exc:
            self._refuse(cid, ref, exc.code, exc.message)
        except IllegalAction as exc:
            self._refuse(cid, ref, "stale" if exc.code == "stale" else "illegal", exc.reason)
        except Exception:
            log.exception("internal error on a request from %s", cid)
            self._refuse(cid, ref, "internal", "the host failed on this request")

    def _runs_here(self, cid: str, message: p.ClientMessage) -> bool:
        """Whether this host answers the request (a cluster's host may forward it to the host
        that runs its room, server.cluster_host): always, alone."""
        return True

    def _presence(self, cid: str, online: bool) -> None:
        """Mark the client's seats online or offline; the rooms concerned are re-published.
        Only a change of presence looks at the rooms."""
        if online == (cid in self._online):
            return
        if online:
            self._online.add(cid)
        else:
            self._online.discard(cid)
        for room in self.rooms.held_by(cid):
            if room.status == "over" or (cid in room.online) == online:
                continue
            if online:
                room.online.add(cid)
            else:
                room.online.discard(cid)
                log.info("room %s seat %d: went away", room.id, room.seat_of(cid))
            self._commit(room, [])

    def _session(self, cid: str, pub: bytes) -> crypto.Session:
        session = self.sessions.get(cid)
        if session is None:
            if self.clients.get(cid) is None and not self.new_keys.allow("*"):
                raise p.ProtocolError("busy", "too many new clients at once: try again soon")
            try:
                session = crypto.Session.for_host(self.keys, pub)
            except crypto.CryptoError as exc:
                raise p.ProtocolError("bad_key", f"the public key is not usable: {exc}") \
                    from None
            self.sessions.put(cid, session)
        return session

    def _dispatch(self, cid: str, ref: int, message: p.ClientMessage) -> None:
        if isinstance(message, p.Hello):
            self._greet(cid, ref, message.will)
        elif isinstance(message, p.Ping):
            self._reply(cid, p.Ok(ref=ref))
        elif isinstance(message, p.ListRooms):
            self._list(cid, ref, message.offset)
        elif isinstance(message, p.CreateRoom):
            self._create(cid, ref, message)
        elif isinstance(message, p.Watch):
            room = self._room(message.room)
            if room.seat_of(cid) is None:
                self.talk.watch(room.id, cid, message.name)
            self._send_snapshot(cid, room)
            self._reply(cid, p.Ok(ref=ref, room=room.info()))
        elif isinstance(message, p.Snapshot):
            self._snapshot(cid, ref, self._room(message.room))
        elif isinstance(message, p.History):
            self._history(cid, ref, self._room(message.room), message.start)
        elif isinstance(message, p.Say):
            room = self._room(message.room)
            self._say(room, self.talk.speaker(room, cid), message.text, message.phrase,
                      (cid, ref))
        else:
            self._room_request(cid, ref, message)

    def _greet(self, cid: str, ref: int, will: int | None) -> None:
        if will is not None:
            self._register_will(cid, will)
        seats = self._seats_of(cid)
        self._reply(cid, p.Welcome(ref=ref, cid=cid, seats=seats))
        self._send_snapshots(cid, [held.room for held in seats])

    def _register_will(self, cid: str, will: int) -> None:
        """The counter of the `bye` the client's MQTT will carries (accepted once)."""
        self.wills.put(cid, will)

    def _seats_of(self, cid: str) -> list[p.SeatRef]:
        """Where the client sits (a cluster's host asks the store: server.cluster_host)."""
        return [p.SeatRef(room=room.id, seat=seat) for room in self.rooms.held_by(cid)
                if (seat := room.seat_of(cid)) is not None]

    def _send_snapshots(self, cid: str, room_ids: list[str]) -> None:
        """Each of those rooms that this host runs, as the client sees it."""
        for room_id in room_ids:
            room = self.rooms.get(room_id)
            if room is not None:
                self._send_snapshot(cid, room)

    def _history(self, cid: str, ref: int, room: Room, start: int) -> None:
        """One page of the room's game so far, for this reader's eyes: the public events, and
        a seat's own private cards. The page's length and size class follow from public facts
        only: each event counts as long as it is with every card shown (a card id is one
        byte), so a seat and a spectator get the same pages."""
        if not (self.history_pages.allow(cid) and self.history_all.allow("*")):
            raise RoomError("history_limited", "history asked too fast: try again in a second")
        seat = room.seat_of(cid)
        page = p.HistoryPage(ref=ref, room=room.id, seq=room.record.seq, start=start,
                             total=len(room.events))
        size = len(p.encode(page)) + HISTORY_FRAMING
        shown: list[Event] = []
        for event in room.events[start:]:
            full = len(p.encode(event))
            if size + full + 2 > p.REPLY_CLASSES[-1]:
                break
            shown.append(redact(event, seat))
            size += full
        page.events = shown
        self._seal(cid, page, p.smallest_class(size))

    def _list(self, cid: str, ref: int, offset: int) -> None:
        rooms = self._listed()
        page = rooms[offset : offset + ROOMS_PAGE]
        while True:
            reply = p.Rooms(ref=ref, rooms=page, offset=offset, total=len(rooms))
            if len(p.encode(reply)) + 2 <= p.reply_class(reply):
                break
            page.pop()
        self._reply(cid, reply)

    def _listed(self) -> list[p.RoomInfo]:
        """The lobby's order: open rooms by creation, then finished ones, the latest first."""
        rooms = [room.info() for room in self.rooms.values()]
        return [r for r in rooms if r.status != "over"] + \
            [r for r in reversed(rooms) if r.status == "over"]

    def _create(self, cid: str, ref: int, message: p.CreateRoom) -> None:
        if message.options.bot not in BOT_KINDS:
            raise RoomError("invalid", f"unknown bot kind; known: {', '.join(BOT_KINDS)}")
        active = [r for r in self.rooms.values() if r.status != "over"]
        if sum(r.record.creator == cid for r in active) >= MAX_ROOMS_PER_CLIENT:
            raise RoomError("too_many_rooms", f"at most {MAX_ROOMS_PER_CLIENT} open rooms each")
        waiting = [r for r in active if r.status == "waiting"]
        if len(waiting) >= MAX_WAITING:  # make room: the oldest one nobody is ready in, idle
            now = time.monotonic()      # for a while (not one people are joining right now)
            idle = next((r for r in waiting if not r.anyone_ready() and
                         now - self._changed.get(r.id, self._started) >= EVICT_IDLE), None)
            if idle is not None:
                self._close(idle, "the host needed room for a new one")
                active.remove(idle)
                waiting.remove(idle)
        if len(active) >= MAX_ROOMS or len(waiting) >= MAX_WAITING:
            raise RoomError("busy", "this host runs as many rooms as it can: join one, or "
                            "try again in a few minutes")
        if not self.creations.allow("*"):
            raise RoomError("busy", "many rooms are being made right now: try again in a "
                            "minute")
        room_id = new_room_id()
        while room_id in self.rooms:
            room_id = new_room_id()
        room = Room.create(room_id, cid, "", message.name, message.options)
        self.rooms[room_id] = room
        self._created(room)
        log.info("room %s: created %r by %s (%s)", room_id, message.name, cid, message.options)
        self._commit(room, [])
        self._reply(cid, p.Ok(ref=ref, room=room.info()))

    def _created(self, room: Room) -> None:
        """A room was just made here (a cluster's host takes its lease)."""

    def _room_request(self, cid: str, ref: int, message: p.ClientMessage) -> None:
        room = self._room(message.room)  # type: ignore[union-attr]
        seat: int | None = None
        events: list[Event] = []
        if room.status == "over":  # nothing changes a finished room any more
            self._finished_room_request(cid, ref, room, message)
            return
        if isinstance(message, p.Join):
            if room.seat_of(cid) is None and self._seats_held(cid) >= p.MAX_SEATS_HELD:
                raise RoomError("too_many_seats", f"at most {p.MAX_SEATS_HELD} seats each in "
                                "rooms not finished")
            seat = room.join(cid, message.name, message.seat)
            self.rooms.seated(cid, room)
            room.online.add(cid)
            if cid == room.record.creator:
                room.record.creator_name = room.record.seats[seat].name
            log.info("room %s seat %d: %s joined", room.id, seat, message.name)
        elif isinstance(message, p.Ready):
            room.ready(cid, message.ready)
            if room.can_autostart():
                events = self._start(room, None, bots=False)
        elif isinstance(message, p.Start):
            events = self._start(room, cid, message.bots)
        elif isinstance(message, p.FillBots):
            room.fill_bots(cid)
        elif isinstance(message, p.Leave):
            seat = room.leave(cid)
            self._broadcast(room).forget_seat(seat)
            self.timers.cancel(room.id)  # a bot may take the pending decision over
            log.info("room %s seat %d: left", room.id, seat)
            if room.status == "waiting" and not room.human_seats():
                self._close(room)
                self._reply(cid, p.Ok(ref=ref, seat=seat))
                return
        elif isinstance(message, p.Kick):
            room.kick(cid, message.seat)
            self._broadcast(room).forget_seat(message.seat)
            log.info("room %s seat %d: freed by the creator", room.id, message.seat)
        elif isinstance(message, p.Handover):
            room.handover(cid, message.seat)
            self._broadcast(room).forget_seat(message.seat)
            self.timers.cancel(room.id)  # the bot answers the pending decision at once
            log.info("room %s seat %d: handed to a bot by the creator", room.id, message.seat)
        elif isinstance(message, p.Act):
            self._act(cid, ref, room, message)
            return
        self._commit(room, events)
        self._schedule(room)
        self._reply(cid, p.Ok(ref=ref, room=room.info(), seat=seat))

    def _finished_room_request(self, cid: str, ref: int, room: Room,
                               message: p.ClientMessage) -> None:
        seat = room.seat_of(cid)
        if isinstance(message, p.Join | p.Leave) and seat is not None:
            self._reply(cid, p.Ok(ref=ref, room=room.info(), seat=seat))  # nothing to do
            return
        raise RoomError("over", "the game in this room is over")

    def _seats_held(self, cid: str) -> int:
        return sum(room.status != "over" for room in self.rooms.held_by(cid))

    def _start(self, room: Room, cid: str | None, bots: bool) -> list[Event]:
        events = room.start(cid, bots, seed=secrets.randbits(62))
        log.info("room %s: game started with %d seats", room.id, len(room.record.seats))
        return events

    def _act(self, cid: str, ref: int, room: Room, message: p.Act) -> None:
        """The answer to an `act` is the actor's SeatUpdate of the change, with `ref`."""
        seat = room.seat_of(cid)
        if seat is None:
            raise RoomError("not_seated", "only a seated player may act in this room")
        if room.status != "playing" or room.state is None:
            raise RoomError("not_playing", "the game is not running")
        self._apply(room, seat, message.action, message.decision, answer=(cid, ref))

    # --- game ------------------------------------------------------------------------------

    def _apply(self, room: Room, seat: int, action: Action, decision: int,
               answer: tuple[str, int] | None = None, timed_out: bool = False) -> None:
        """Apply, store, then stage the change. IllegalAction leaves everything unchanged.
        `timed_out`: the default of a decision whose time ran out (the players are told)."""
        state = room.state
        assert state is not None
        try:
            told = self._driver(room).answer(seat, action, decision, timed_out)
        except GameFailed as failure:
            log.error("room %s: %s, on %s by seat %d", room.id, failure.reason, action, seat,
                      exc_info=failure.__cause__)
            self._stop_game(room)
            raise RoomError("internal", "the host's rules engine failed on this action: the "
                            "game is stopped") from None
        room.events += [e for e in told if e.kind not in NOT_IN_HISTORY]
        if state.winner is not None:
            room.record.status = "over"
            log.info("room %s: game over, %s win", room.id, state.winner)
        room.record.seq += 1
        room.record.deadline = self._deadline(room)
        try:
            self.store.save_action(room, state.actions - 1, seat, decision, action, timed_out)
        except StoreError:
            log.exception("room %s: could not store an action; rolling back by replay", room.id)
            self._reload(room)
            raise RoomError("storage", "the host could not store that action") from None
        log.debug("room %s seat %d: %s", room.id, seat, action)
        self._publish_change(room, told, answer)
        if room.status == "over":
            self._game_over(room)
        self._schedule(room)

    def _stop_game(self, room: Room) -> None:
        """The engine failed: back to the last stored state, where the game ends, and the
        table is told. Never retried: the same move would fail again."""
        self._reload(room)
        fresh = self.rooms.get(room.id)
        if fresh is None:
            return
        fresh.record.status = "over"
        self._commit(fresh, [game_stopped()])
        self._game_over(fresh)

    def _game_over(self, room: Room) -> None:
        self.drivers.pop(room.id, None)
        self.timers.cancel(room.id)
        asyncio.get_running_loop().call_later(FINISHED_LINGER, self._retire, room.id)
        finished = [r for r in self.rooms.values() if r.status == "over"]
        for old in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            self._evict(old)

    def _evict(self, room: Room) -> None:
        """A finished room leaves memory, not the lobby or the broker: until its
        FINISHED_LINGER is over, `_room` reads it back from the store when it is asked for
        (many games end on a busy host, and KEEP_FINISHED would otherwise cut that short)."""
        self._lingering[room.id] = room.info()
        del self.rooms[room.id]
        self.broadcasts.pop(room.id, None)
        self._changed.pop(room.id, None)

    def _retire(self, room_id: str, info: p.RoomInfo | None = None) -> None:
        """A room leaves the lobby and the broker (a finished one stays on disk). Clients
        believe only signed messages: a signed `gone` entry first, then the retained topics
        are emptied. `info`: the lobby info of a room no longer held anywhere else."""
        room = self.rooms.get(room_id)
        lingering = self._lingering.pop(room_id, None)
        if info is None:
            info = room.info() if room is not None else lingering
        if info is not None:
            gone = p.LobbyEntry(room=info, n=self._next_n(), gone=True)
            self._queue(p.lobby_topic(room_id), self._sign(gone))
        self._queue(p.lobby_topic(room_id), b"", retain=True)
        self._queue(p.snapshot_topic(room_id), b"", retain=True)
        self._lobby_dirty.discard(room_id)
        self._snapshot_cancel(room_id)
        self.talk.forget_room(room_id)

    def abandon(self, room_id: str) -> None:
        """The only player of a solo table (`bang play`) quit: nobody will come back to it, so
        it goes away, unless it is finished (then it stays on disk like any other game)."""
        room = self.rooms.get(room_id)
        if room is not None and room.status != "over":
            self._close(room, "its only player quit")
            self.flush()

    def _close(self, room: Room, why: str = "everyone left before the start") -> None:
        """A room that had not started goes away: the last player left, or it expired."""
        self.timers.cancel(room.id)
        self._retire(room.id)
        del self.rooms[room.id]
        self.broadcasts.pop(room.id, None)
        self.store.delete_room(room.id)
        self._changed.pop(room.id, None)
        log.info("room %s: closed (%s)", room.id, why)

    def _reload(self, room: Room) -> None:
        """Back to the last stored state, by replay: for failures after a partial change.
        While the store cannot be read, the room waits as it is: its state may hold changes
        the store does not, so nothing is done with it until it is read back."""
        try:
            fresh = self.store.load_room(self.store.load_record(room.id))
        except KeyError:  # created in a batch that was rolled back
            self.rooms.pop(room.id, None)
            self.broadcasts.pop(room.id, None)
            self.timers.cancel(room.id)
            self.unread.discard(room.id)
            return
        except StoreError as exc:
            if room.id not in self.unread:
                log.error("room %s: cannot be read back from the store (%s); it waits",
                          room.id, exc)
            self.unread.add(room.id)
            self.timers.cancel(room.id)
            if self._read_back_due is None:
                self._read_back_due = asyncio.get_running_loop().call_later(
                    STORE_RETRY, self._read_back)
            return
        if room.id in self.unread:
            self.unread.discard(room.id)
            log.info("room %s: read back from the store; it goes on", room.id)
        fresh.online = room.online
        self.rooms[room.id] = fresh
        self.broadcasts.pop(room.id, None)  # the next change is sent whole
        self.drivers.pop(room.id, None)  # its bots heard what was undone: re-briefed
        self._schedule(fresh)

    def _read_back(self) -> None:
        self._read_back_due = None
        for room_id in list(self.unread):
            room = self.rooms.get(room_id)
            if room is None:
                self.unread.discard(room_id)
            else:
                self._reload(room)

    def _schedule(self, room: Room) -> None:
        """Arm the room's timer for its pending decision: a bot's move or the timeout. The
        same decision keeps its deadline when this runs again (after a broker reconnect)."""
        restored, room.restored = room.restored, False
        state = room.state
        if room.status != "playing" or state is None or state.pending is None:
            self.timers.cancel(room.id)
            return
        decision = state.pending
        if room.record.seats[decision.seat].kind == "bot":
            self.timers.arm(room.id, decision.id, self.bot_delay,
                            lambda: self._bot_move(room.id, decision.id))
        elif room.record.options.turn_timeout > 0:
            kept = room.record.deadline
            deadline = None
            if restored and kept is not None and kept[0] == decision.id:
                deadline = max(kept[1], time.time() + RESTART_GRACE)
            self.timers.arm(room.id, decision.id, room.record.options.turn_timeout,
                            lambda: self._timeout(room.id, decision.id), deadline_at=deadline)
        else:
            self.timers.cancel(room.id)

    def _deadline(self, room: Room) -> tuple[int, float] | None:
        """The pending decision's deadline, kept with the room: the one already running, or
        a fresh one for a new decision of a human with a clock."""
        state = room.state
        timeout = room.record.options.turn_timeout
        if room.status != "playing" or state is None or state.pending is None or not timeout \
                or room.record.seats[state.pending.seat].kind != "human":
            return None
        kept = room.record.deadline
        if kept is not None and kept[0] == state.pending.id:
            return kept
        return (state.pending.id, time.time() + timeout)

    def _current(self, room_id: str, decision_id: int) -> Room | None:
        room = self.rooms.get(room_id)
        if room is None or room.state is None or room.status != "playing" or \
                room_id in self.unread:
            return None
        pending = room.state.pending
        return room if pending is not None and pending.id == decision_id else None

    def _bot_move(self, room_id: str, decision_id: int) -> None:
        room = self._current(room_id, decision_id)
        if room is None:
            return
        try:
            decision, action = self._driver(room).bot_choice()
            self._apply(room, decision.seat, action, decision.id)
        except Exception:
            log.exception("room %s: bot move failed", room.id)

    def _driver(self, room: Room) -> GameDriver:
        """The driver of the room's game; a new one after a reload or a new game."""
        driver = self.drivers.get(room.id)
        if driver is None or driver.state is not room.state:
            assert room.state is not None
            driver = self.drivers[room.id] = GameDriver(
                room.state, make_bot=lambda seat: self._new_bot(room.id, seat),
                on_bot_refused=lambda seat, problem: log.warning(
                    "room %s seat %d: %s; default applied", room.id, seat, problem))
        return driver

    def _new_bot(self, room_id: str, seat: int) -> Bot:
        """A bot for `seat` (a seat handed over, a host restart, the first move), first told
        the game so far by replaying the stored record, so it knows what a bot that sat
        there from the start would know (docs/BOTS.md)."""
        room = self.rooms[room_id]
        setup = room.record.setup
        seed = (setup.seed if setup else 0) * 8 + seat
        bot = make_bot(room.record.options.bot, seed)
        record = self.store.game_record(room_id)
        if record is not None:
            replay(record, on_event=lambda _index, event: tell({seat: bot}, [event]))
        return bot

    def _timeout(self, room_id: str, decision_id: int) -> None:
        room = self._current(room_id, decision_id)
        if room is None:
            return
        assert room.state is not None and room.state.pending is not None  # checked by _current
        decision = room.state.pending
        log.info("room %s seat %d: time is up for %s, default applied", room.id, decision.seat,
                 decision.kind)
        try:
            self._apply(room, decision.seat, decision.default, decision.id, timed_out=True)
        except Exception:
            log.exception("room %s: the default action failed", room.id)

    # --- outbound --------------------------------------------------------------------------

    def _room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None and room_id in self._lingering:
            room = self._read_finished(room_id)
        if room is None:
            raise RoomError("no_room", f"there is no room {room_id!r}")
        if room_id in self.unread:
            raise RoomError("storage", STORE_AWAY)
        return room

    def _read_finished(self, room_id: str) -> Room | None:
        """A finished room `_evict` took out of memory, back from the store (None: deleted)."""
        try:
            room = self.store.load_room(self.store.load_record(room_id))
        except KeyError:
            self._lingering.pop(room_id, None)
            return None
        del self._lingering[room_id]
        self.rooms[room_id] = room
        return room

    def _broadcast(self, room: Room) -> Broadcast:
        broadcast = self.broadcasts.get(room.id)
        if broadcast is None:
            broadcast = self.broadcasts[room.id] = Broadcast()
        return broadcast

    def _commit(self, room: Room, events: list[Event]) -> None:
        """A lobby-level change: store the room, then publish it."""
        room.record.seq += 1
        room.record.deadline = self._deadline(room)
        self.store.save_room(room)
        self._publish_change(room, events)

    def _publish_change(self, room: Room, events: list[Event],
                        answer: tuple[str, int] | None = None) -> None:
        """One RoomDelta for the room, one SeatUpdate per seat whose private part changed."""
        self._changed[room.id] = time.monotonic()
        change = self._broadcast(room).change(
            room.id, room.record.seq, self._next_n(), room.info(), room.state,
            room.human_seats(), events, answer)
        self._queue(p.room_topic(room.id), self._sign(change.delta))
        for cid, update, size in change.seats:
            self._seal(cid, update, size)
        if change.info_changed:
            self._lobby_changed(room)
            self._publish_snapshot(room)
        else:
            self._snapshot_later(room)
        for seat, phrase in self.talk.bot_lines(room, events):
            name = room.record.seats[seat].name
            self._say(room, Speaker(chat.TABLE, name, "", seat), "", phrase)

    def _say(self, room: Room, speaker: Speaker, text: str, phrase: str,
             answer: tuple[str, int] | None = None) -> None:
        """One chat line, sealed to each reader of its channel; the speaker's copy answers
        their request."""
        for reader in self.talk.readers(room, speaker.channel):
            ref = answer[1] if answer is not None and answer[0] == reader else None
            self._reply(reader, p.Chat(room=room.id, channel=speaker.channel,
                                       name=speaker.name, key=speaker.key, seat=speaker.seat,
                                       text=text, phrase=phrase, ref=ref))

    def _send_snapshot(self, cid: str, room: Room) -> None:
        """A room's public snapshot to one client, then its seat's private part if it holds
        one."""
        self._queue(p.outbox_topic(cid), self._sign(self._public_snapshot(room)))
        seat = room.seat_of(cid)
        if seat is not None:
            update, size = self._broadcast(room).seat_snapshot(
                room.id, room.record.seq, self._next_n(), room.state, seat)
            self._seal(cid, update, size)

    def _snapshot(self, cid: str, ref: int, room: Room) -> None:
        self._send_snapshot(cid, room)
        self._reply(cid, p.Ok(ref=ref, room=room.info(), seat=room.seat_of(cid)))

    def _public_snapshot(self, room: Room) -> p.RoomSnapshot:
        return self._broadcast(room).snapshot(room.id, room.record.seq, self._next_n(),
                                              room.info(), room.state)

    def _publish_snapshot(self, room: Room) -> None:
        self._snapshot_cancel(room.id)
        self._queue(p.snapshot_topic(room.id), self._sign(self._public_snapshot(room)),
                    retain=True)

    def _snapshot_later(self, room: Room) -> None:
        """The retained snapshot follows the game at most every SNAPSHOT_EVERY seconds."""
        if room.id not in self._snapshot_due:
            self._snapshot_due[room.id] = asyncio.get_running_loop().call_later(
                SNAPSHOT_EVERY, self._refresh_snapshot, room.id)

    def _refresh_snapshot(self, room_id: str) -> None:
        self._snapshot_due.pop(room_id, None)
        room = self.rooms.get(room_id)
        if room is not None:
            self._publish_snapshot(room)

    def _snapshot_cancel(self, room_id: str) -> None:
        due = self._snapshot_due.pop(room_id, None)
        if due is not None:
            due.cancel()

    def _lobby_changed(self, room: Room) -> None:
        """The room's lobby entry, at most every LOBBY_DELAY seconds."""
        if not self._lobby_dirty:
            asyncio.get_running_loop().call_later(LOBBY_DELAY, self._publish_lobby)
        self._lobby_dirty.add(room.id)

    def _publish_lobby(self) -> None:
        rooms = [room for room_id in self._lobby_dirty
                 if (room := self.rooms.get(room_id)) is not None]
        self._lobby_dirty.clear()
        for room in rooms:
            entry = p.LobbyEntry(room=room.info(), n=self._next_n())
            self._queue(p.lobby_topic(room.id), self._sign(entry), retain=True)

    def _next_n(self) -> int:
        self._n = crypto.next_counter(self._n)
        return self._n

    def _reply(self, cid: str, message: p.HostReply) -> None:
        self._seal(cid, message, p.reply_class(message))

    def _seal(self, cid: str, message: p.HostReply, size: int) -> None:
        known = self.clients.get(cid)
        if known is not None:
            self._seal_to(cid, known[0], message, size)

    def _seal_to(self, cid: str, pub: bytes, message: p.HostReply, size: int) -> None:
        body = p.encode(message)
        if len(body) + 2 > size:  # never seen in tests; bigger, but still a class
            log.error("a %s of %d bytes outgrew its %d-byte class", type(message).__name__,
                      len(body), size)
            size = next(c for c in p.REPLY_CLASSES if len(body) + 2 <= c)
        session = self._session(cid, pub)
        box = crypto.seal(session.to_client, p.pad(body, size), p.reply_aad(cid))
        self._queue(p.outbox_topic(cid), p.encode(p.Sealed(v=p.VERSION, box=box)))

    def _sign(self, message: p.PublicMessage) -> bytes:
        body = p.encode(message)
        return p.encode(p.Signed(v=p.VERSION, body=body, sig=crypto.sign(self.keys, body)))

    def _queue(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Stage a message; it is published after the next commit."""
        self._staged.append(Outgoing(topic, payload, retain))
        if self._staged_since is None:
            self._staged_since = time.perf_counter()
            asyncio.get_running_loop().call_soon(self.flush)

    def _refuse(self, cid: str, ref: int, code: str, message: str) -> None:
        self._log_refusal(cid, code, message)
        self._reply(cid, p.Error(code=code, message=message[:300], ref=ref))

    def _refuse_clear(self, cid: str, code: str, message: str) -> None:
        """Refuse a message that could not be authenticated: answer in clear, signed, from
        the budget every unauthenticated sender shares."""
        self._log_refusal(cid, code, message)
        if self.clear_answers.allow("*"):
            error = p.PublicError(code=code, message=message[:300], n=self._next_n())
            self._queue(p.outbox_topic(cid), self._sign(error))

    def _log_refusal(self, cid: str, code: str, message: str) -> None:
        """A bounded number of lines per window, whoever sends."""
        suppressed = self.log_budget.take()
        if suppressed is not None:
            more = f" (+{suppressed} refusals not logged)" if suppressed else ""
            log.info("refused from %s: %s: %s%s", cid, code, message[:200], more)
