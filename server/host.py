"""The host's core: authenticate each inbound message, apply it to a room, persist, publish.

Transport-free: `handle(topic, payload)` takes one MQTT message and queues what must be
published in `outbox`; `server.connection` moves bytes between the broker and this object.
Everything here is synchronous, so one message is handled completely before the next.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
from collections import deque
from typing import Any, NamedTuple

from server import updates
from server.ratelimit import LogOnce, RateLimiter
from server.rooms import Room, RoomError, new_room_id
from server.store import Store
from server.timers import DecisionTimers
from shared import crypto
from shared import protocol as p
from shared.bots import BOT_KINDS, make_bot, tell
from shared.engine import IllegalAction, apply
from shared.model import Action, Event
from shared.record import replay
from shared.views import view

log = logging.getLogger("bang.host")

MAX_ROOMS = 500
MAX_ROOMS_PER_CLIENT = 5
MAX_OUTBOX = 20_000
LOBBY_ROOMS = 100
LOBBY_FINISHED = 10  # finished rooms still listed, the latest first
KEEP_FINISHED = 50  # finished rooms kept in memory for snapshots; older ones only on disk
LOBBY_DELAY = 0.2  # seconds: lobby changes within this window go out together
READ_ONLY = (p.Hello, p.ListRooms, p.Watch, p.Snapshot)


class Outgoing(NamedTuple):
    topic: str
    payload: bytes
    retain: bool = False


class Host:
    def __init__(self, store: Store, *, bot_delay: float = 0.5, rate: float = 50.0,
                 burst: float = 200.0) -> None:
        self.store = store
        self.keys = store.host_keys()
        self.bot_delay = bot_delay
        self.rooms = {room.id: room for room in store.load_rooms(KEEP_FINISHED)}
        self.clients = store.clients()
        self.sessions: dict[str, crypto.Session] = {}
        self.limiter = RateLimiter(rate, burst)
        # Client ids in topics cost nothing to invent: cap clear answers to them all together.
        self.clear_answers = RateLimiter(rate=100.0, burst=200.0)
        self.log_once = LogOnce()
        self.timers = DecisionTimers()
        self.bots: dict[str, dict[int, Any]] = {}  # room -> seat -> bot
        self.outbox: deque[Outgoing] = deque()
        self.has_output = asyncio.Event()
        self._n = 0
        self._lobby_dirty = False

    # --- lifecycle -------------------------------------------------------------------------

    def announce(self) -> None:
        """Publish everything a (re)connected broker needs: the host key, the lobby, each room's
        public face and each seated player's private view. Also (re)arms every timer."""
        hello = p.HostHello(sign_key=self.keys.sign_public, kx_key=self.keys.kx_public,
                            fingerprint=self.keys.fingerprint, n=self._next_n())
        self._signed(p.HOST_TOPIC, hello, retain=True)
        self._publish_lobby()
        for room in self.rooms.values():
            if room.status != "over":  # finished rooms: snapshots on request only
                self._publish_room(room, [])
                self._schedule(room)

    def stop(self) -> None:
        self.timers.cancel_all()

    # --- inbound ---------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> None:
        """One inbound message. Never raises: every refusal goes back to its sender."""
        cid = p.cid_from_inbox(topic)
        if cid is None:
            return
        if not self.limiter.allow(cid):
            self._refuse_clear(cid, "rate_limited", "too many messages: slow down")
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
        ref = request.ctr
        try:
            message: p.ClientMessage | None = p.decode_client_message(plain)
        except p.ProtocolError as exc:
            message, invalid = None, exc
        if isinstance(message, p.Bye):
            self._presence(cid, False)
            return
        known = self.clients.get(cid)
        if known is not None and ref <= known[1]:
            self._refuse(cid, ref, "replay", "request counter is not newer than the last one")
            return
        self.clients[cid] = (request.pub, ref)
        if message is None:
            self._refuse(cid, ref, invalid.code, invalid.message)
            return
        self._presence(cid, True)
        try:
            if not isinstance(message, READ_ONLY):  # replaying those later changes nothing
                self.store.save_client(cid, request.pub, ref)
            self._dispatch(cid, ref, message)
        except RoomError as exc:
            self._refuse(cid, ref, exc.code, exc.message)
        except IllegalAction as exc:
            self._refuse(cid, ref, "stale" if exc.code == "stale" else "illegal", exc.reason)
        except Exception:
            log.exception("internal error on a request from %s", cid)
            self._refuse(cid, ref, "internal", "the host failed on this request")

    def _presence(self, cid: str, online: bool) -> None:
        """Mark the client's seats online or offline; the rooms concerned are re-published."""
        for room in self.rooms.values():
            if room.status == "over" or room.seat_of(cid) is None or \
                    (cid in room.online) == online:
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
            if len(self.sessions) > 10_000:
                self.sessions.clear()
            session = self.sessions[cid] = crypto.Session.for_host(self.keys, pub)
        return session

    def _dispatch(self, cid: str, ref: int, message: p.ClientMessage) -> None:
        if isinstance(message, p.Hello):
            self._hello(cid, ref)
        elif isinstance(message, p.ListRooms):
            infos = [room.info() for room in self.rooms.values()]
            self._reply(cid, p.Rooms(ref=ref, rooms=infos))
        elif isinstance(message, p.CreateRoom):
            self._create(cid, ref, message)
        elif isinstance(message, p.Watch):
            room = self._room(message.room)
            self._reply(cid, p.Ok(ref=ref, room=room.info()))
            self._signed(p.outbox_topic(cid), self._public(room, []))
        elif isinstance(message, p.Snapshot):
            self._snapshot(cid, ref, self._room(message.room))
        else:
            self._room_request(cid, ref, message)

    def _hello(self, cid: str, ref: int) -> None:
        seats = []
        for room in self.rooms.values():
            seat = room.seat_of(cid)
            if seat is not None:
                seats.append(p.SeatRef(room=room.id, seat=seat))
        self._reply(cid, p.Welcome(ref=ref, cid=cid, seats=seats))
        for ref_ in seats:
            self._send_private(self.rooms[ref_.room], ref_.seat, cid, [])

    def _create(self, cid: str, ref: int, message: p.CreateRoom) -> None:
        if message.options.bot not in BOT_KINDS:
            raise RoomError("invalid", f"unknown bot kind; known: {', '.join(BOT_KINDS)}")
        active = [r for r in self.rooms.values() if r.status != "over"]
        if len(active) >= MAX_ROOMS:
            raise RoomError("busy", "this host runs as many rooms as it can")
        if sum(r.record.creator == cid for r in active) >= MAX_ROOMS_PER_CLIENT:
            raise RoomError("too_many_rooms", f"at most {MAX_ROOMS_PER_CLIENT} open rooms each")
        room_id = new_room_id()
        while room_id in self.rooms:
            room_id = new_room_id()
        room = Room.create(room_id, cid, "", message.name, message.options)
        self.rooms[room_id] = room
        log.info("room %s: created %r by %s (%s)", room_id, message.name, cid, message.options)
        self._commit(room, [])
        self._reply(cid, p.Ok(ref=ref, room=room.info()))

    def _room_request(self, cid: str, ref: int, message: p.ClientMessage) -> None:
        room = self._room(message.room)  # type: ignore[union-attr]
        seat: int | None = None
        events: list[Event] = []
        if isinstance(message, p.Join):
            seat = room.join(cid, message.name, message.seat)
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
            log.info("room %s seat %d: left", room.id, seat)
            if room.status == "waiting" and not room.human_seats():
                self._close(room)
                self._reply(cid, p.Ok(ref=ref, seat=seat))
                return
        elif isinstance(message, p.Handover):
            room.handover(cid, message.seat)
            log.info("room %s seat %d: handed to a bot by the creator", room.id, message.seat)
        elif isinstance(message, p.Act):
            self._act(cid, ref, room, message)
            return
        self._commit(room, events)
        self._schedule(room)
        self._reply(cid, p.Ok(ref=ref, room=room.info(), seat=seat))

    def _start(self, room: Room, cid: str | None, bots: bool) -> list[Event]:
        events = room.start(cid, bots, seed=secrets.randbits(62))
        log.info("room %s: game started with %d seats", room.id, len(room.record.seats))
        return events

    def _act(self, cid: str, ref: int, room: Room, message: p.Act) -> None:
        seat = room.seat_of(cid)
        if seat is None:
            raise RoomError("not_seated", "only a seated player may act in this room")
        if room.status != "playing" or room.state is None:
            raise RoomError("not_playing", "the game is not running")
        self._apply(room, seat, message.action, message.decision)
        self._reply(cid, p.Ok(ref=ref, seat=seat))

    # --- game ------------------------------------------------------------------------------

    def _apply(self, room: Room, seat: int, action: Action, decision: int) -> None:
        """Apply, store, then publish. IllegalAction leaves everything unchanged."""
        state = room.state
        assert state is not None
        try:
            events = apply(state, seat, action, decision)
        except IllegalAction:
            raise
        except Exception:
            log.exception("room %s: the engine failed on %s by seat %d", room.id, action, seat)
            self._reload(room)
            raise RoomError("internal", "the host failed on this action; nothing changed") \
                from None
        if state.winner is not None:
            room.record.status = "over"
            self._forget_finished()
            self._lobby_changed()
            log.info("room %s: game over, %s win", room.id, state.winner)
        room.record.seq += 1
        try:
            self.store.save_action(room, state.actions - 1, seat, decision, action)
        except sqlite3.Error:
            log.exception("room %s: could not store an action; rolling back by replay", room.id)
            self._reload(room)
            raise RoomError("storage", "the host could not store that action") from None
        log.debug("room %s seat %d: %s", room.id, seat, action)
        tell(self.bots.get(room.id, {}), events)
        if room.status == "over":
            self.bots.pop(room.id, None)
        self._publish_room(room, events)
        self._schedule(room)

    def _forget_finished(self) -> None:
        finished = [r for r in self.rooms.values() if r.status == "over"]
        for room in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.rooms[room.id]

    def _close(self, room: Room) -> None:
        """The last player left a room that had not started: it goes away."""
        self.timers.cancel(room.id)
        del self.rooms[room.id]
        self.store.delete_room(room.id)
        self._queue(p.room_topic(room.id), b"", retain=True)  # clears the retained update
        self._lobby_changed()
        log.info("room %s: closed (everyone left before the start)", room.id)

    def _reload(self, room: Room) -> None:
        """Back to the last stored state, by replay: for failures after a partial change."""
        fresh = self.store.load_room(self.store.load_record(room.id))
        fresh.online = room.online
        self.rooms[room.id] = fresh
        self._schedule(fresh)

    def _schedule(self, room: Room) -> None:
        """Arm the room's timer for its pending decision: a bot's move or the timeout."""
        self.timers.cancel(room.id)
        state = room.state
        if room.status != "playing" or state is None or state.pending is None:
            return
        decision = state.pending
        if room.record.seats[decision.seat].kind == "bot":
            self.timers.arm(room.id, self.bot_delay,
                            lambda: self._bot_move(room.id, decision.id))
        elif room.record.options.turn_timeout > 0:
            self.timers.arm(room.id, room.record.options.turn_timeout,
                            lambda: self._timeout(room.id, decision.id))

    def _current(self, room_id: str, decision_id: int) -> Room | None:
        room = self.rooms.get(room_id)
        if room is None or room.state is None or room.status != "playing":
            return None
        pending = room.state.pending
        return room if pending is not None and pending.id == decision_id else None

    def _bot_move(self, room_id: str, decision_id: int) -> None:
        room = self._current(room_id, decision_id)
        if room is None:
            return
        decision = room.state.pending  # type: ignore[union-attr]
        bot = self._bot(room, decision.seat)
        try:
            action = bot.choose(view(room.state, decision.seat))  # type: ignore[arg-type]
            self._apply(room, decision.seat, action, decision.id)
        except IllegalAction as exc:
            log.warning("room %s seat %d: bot chose an illegal action (%s); default applied",
                        room.id, decision.seat, exc.reason)
            self._apply(room, decision.seat, decision.default, decision.id)
        except Exception:
            log.exception("room %s: bot move failed", room.id)

    def _bot(self, room: Room, seat: int) -> Any:
        """The bot playing `seat`. A new one (a seat handed over, a host restart, the first
        move) is first told the game so far by replaying the stored record, so it knows what
        a bot that sat there from the start would know (docs/BOTS.md)."""
        bots = self.bots.setdefault(room.id, {})
        bot = bots.get(seat)
        if bot is None:
            setup = room.record.setup
            seed = (setup.seed if setup else 0) * 8 + seat
            bot = make_bot(room.record.options.bot, seed)
            record = self.store.game_record(room.id)
            if record is not None:
                replay(record, on_event=lambda _index, event: tell({seat: bot}, [event]))
            bots[seat] = bot
        return bot

    def _timeout(self, room_id: str, decision_id: int) -> None:
        room = self._current(room_id, decision_id)
        if room is None:
            return
        decision = room.state.pending  # type: ignore[union-attr]
        log.info("room %s seat %d: time is up for %s, default applied", room.id, decision.seat,
                 decision.kind)
        try:
            self._apply(room, decision.seat, decision.default, decision.id)
        except Exception:
            log.exception("room %s: the default action failed", room.id)

    # --- outbound --------------------------------------------------------------------------

    def _room(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError("no_room", f"there is no room {room_id!r}")
        return room

    def _commit(self, room: Room, events: list[Event]) -> None:
        """A lobby-level change: store the room, then publish it."""
        room.record.seq += 1
        self.store.save_room(room)
        self._lobby_changed()
        self._publish_room(room, events)

    def _public(self, room: Room, events: list[Event]) -> p.RoomUpdate:
        return updates.public_update(room.id, room.record.seq, room.info(), room.state, events,
                                     self._next_n())

    def _publish_room(self, room: Room, events: list[Event]) -> None:
        self._signed(p.room_topic(room.id), self._public(room, events), retain=True)
        for seat, cid in room.human_seats():
            self._send_private(room, seat, cid, events)

    def _send_private(self, room: Room, seat: int, cid: str, events: list[Event]) -> None:
        update = updates.private_update(room.id, room.record.seq, seat, room.info(), room.state,
                                        events, self._next_n())
        self._reply(cid, update)

    def _snapshot(self, cid: str, ref: int, room: Room) -> None:
        seat = room.seat_of(cid)
        if seat is None:
            self._signed(p.outbox_topic(cid), self._public(room, []))
        else:
            self._send_private(room, seat, cid, [])
        self._reply(cid, p.Ok(ref=ref, room=room.info(), seat=seat))

    def _lobby_changed(self) -> None:
        """Every client reads the lobby: publish it at most every LOBBY_DELAY seconds."""
        if not self._lobby_dirty:
            self._lobby_dirty = True
            asyncio.get_running_loop().call_later(LOBBY_DELAY, self._publish_lobby)

    def _publish_lobby(self) -> None:
        """Open rooms, then the latest finished ones, as many as fit in one message."""
        self._lobby_dirty = False
        rooms = list(self.rooms.values())  # in creation order
        finished = [r for r in rooms if r.status == "over"][-LOBBY_FINISHED:]
        shown = ([r for r in rooms if r.status != "over"] + finished[::-1])[:LOBBY_ROOMS]
        infos = [room.info() for room in shown]
        while True:
            lobby = p.Lobby(rooms=infos, n=self._next_n())
            try:
                self._signed(p.LOBBY_TOPIC, lobby, retain=True)
                return
            except p.ProtocolError:
                infos = infos[: len(infos) * 3 // 4]

    def _next_n(self) -> int:
        self._n = crypto.next_counter(self._n)
        return self._n

    def _reply(self, cid: str, message: p.HostReply) -> None:
        known = self.clients.get(cid)
        if known is None:
            return
        session = self._session(cid, known[0])
        body = p.encode(message)
        box = crypto.seal(session.to_client, body, p.reply_aad(cid))
        self._queue(p.outbox_topic(cid), p.encode(p.Sealed(v=p.VERSION, box=box)))

    def _signed(self, topic: str, message: p.PublicMessage, retain: bool = False) -> None:
        body = p.encode(message)
        signed = p.Signed(v=p.VERSION, body=body, sig=crypto.sign(self.keys, body))
        self._queue(topic, p.encode(signed), retain)

    def _queue(self, topic: str, payload: bytes, retain: bool = False) -> None:
        if len(self.outbox) >= MAX_OUTBOX:
            self.outbox.popleft()  # snapshots on reconnect make up for what is dropped
        self.outbox.append(Outgoing(topic, payload, retain))
        self.has_output.set()

    def _refuse(self, cid: str, ref: int, code: str, message: str) -> None:
        self._log_refusal(cid, code, message)
        self._reply(cid, p.Error(code=code, message=message, ref=ref))

    def _refuse_clear(self, cid: str, code: str, message: str) -> None:
        """Refuse a message that could not be authenticated: answer in clear, signed."""
        logged = self._log_refusal(cid, code, message)
        if not self.clear_answers.allow("*"):
            return
        if logged or code != "rate_limited":  # one notice per window for a flood
            error = p.PublicError(code=code, message=message, n=self._next_n())
            self._signed(p.outbox_topic(cid), error)

    def _log_refusal(self, cid: str, code: str, message: str) -> bool:
        """Log once per sender and code in a window; True when this one was logged."""
        suppressed = self.log_once.should_log(cid, code)
        if suppressed is None:
            return False
        more = f" (+{suppressed} similar)" if suppressed else ""
        log.info("refused from %s: %s: %s%s", cid, code, message, more)
        return True
