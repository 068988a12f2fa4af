"""Rooms and seats before and around a game: create, join, ready, start, bots, leave.

No I/O here. Every method either changes the room or raises RoomError and changes nothing;
the host persists and publishes afterwards.
"""

from __future__ import annotations

import secrets
import string
import time
from collections.abc import Iterable

from msgspec import Struct

from shared.engine import start_game
from shared.model import Event, GameState
from shared.protocol import KEY_ID, RoomInfo, RoomOptions, SeatInfo
from shared.setup import Setup


class RoomError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# `gc=False` on plain data (no reference cycles can form in it): a host keeps these by the
# thousand, and the garbage collector need not walk them (tests/server/test_host_load.py).
class SeatState(Struct, omit_defaults=True, gc=False):
    kind: str = "empty"  # "empty" | "human" | "bot"
    name: str = ""
    cid: str | None = None
    ready: bool = False


class RoomRecord(Struct, omit_defaults=True):
    """What is stored for a room besides its actions."""

    id: str
    name: str
    creator: str  # creator's client id
    creator_name: str
    options: RoomOptions
    seats: list[SeatState]
    status: str = "waiting"  # "waiting" | "playing" | "over"
    setup: Setup | None = None
    seq: int = 0
    created: int = 0  # milliseconds since the epoch
    # The pending decision's id and when it times out (seconds since the epoch), so that a
    # restarted host gives the player the time that was left, not a fresh timeout.
    deadline: tuple[int, float] | None = None
    # The rules revision the game plays by (shared.model.STATE_VERSION): a room stored by an
    # older host goes on by the rules it started with.
    rules: int = 1


_ALPHABET = string.ascii_lowercase + string.digits


def new_room_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


class Room:
    """A room: its record, the live game state, its game's events so far, and who is online.

    `events` are the rules engine's events from the deal on (a replay of the stored actions
    gives the same list after a restart), for the `history` a late comer asks for."""

    def __init__(self, record: RoomRecord, state: GameState | None = None) -> None:
        self.record = record
        self.state = state
        self.events: list[Event] = []
        self.online: set[str] = set()
        # Read back from the store (a restart, a takeover, a rollback): its stored deadline
        # is honoured, with a grace, the first time its clock is armed.
        self.restored = False

    @classmethod
    def create(cls, room_id: str, cid: str, creator_name: str, name: str,
               options: RoomOptions) -> Room:
        seats = [SeatState() for _ in range(options.seats)]
        return cls(RoomRecord(room_id, name, cid, creator_name, options, seats,
                              created=int(time.time() * 1000)))

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def status(self) -> str:
        return self.record.status

    def seat_of(self, cid: str) -> int | None:
        for index, seat in enumerate(self.record.seats):
            if seat.kind == "human" and seat.cid == cid:
                return index
        return None

    def human_seats(self) -> list[tuple[int, str]]:
        return [(i, s.cid) for i, s in enumerate(self.record.seats)
                if s.kind == "human" and s.cid is not None]

    def info(self) -> RoomInfo:
        rec = self.record
        seats = [
            SeatInfo(seat=i, kind=s.kind, name=s.name, ready=s.ready,  # type: ignore[arg-type]
                     online=s.kind == "bot" or (s.cid in self.online),
                     key=s.cid[:KEY_ID] if s.kind == "human" and s.cid else "")
            for i, s in enumerate(rec.seats)
        ]
        winner = self.state.winner if self.state is not None else None
        return RoomInfo(id=rec.id, name=rec.name, status=rec.status,  # type: ignore[arg-type]
                        options=rec.options, seats=seats, creator=rec.creator_name,
                        winner=winner, created=rec.created)

    # --- lobby operations ----------------------------------------------------------------

    def join(self, cid: str, name: str, seat: int | None) -> int:
        """Take a seat, or reclaim the one this client already holds."""
        mine = self.seat_of(cid)
        if mine is not None:
            return mine
        if self.status != "waiting":
            raise RoomError("started", "the game has started: you can watch it")
        seats = self.record.seats
        if any(s.kind == "human" and s.name.casefold() == name.casefold() for s in seats):
            raise RoomError("name_taken", f"the name {name!r} is taken in this room")
        if seat is None:
            free = [i for i, s in enumerate(seats) if s.kind == "empty"]
            if not free:
                raise RoomError("full", "the room is full")
            seat = free[0]
        if not 0 <= seat < len(seats):
            raise RoomError("bad_seat", f"this room has seats 0-{len(seats) - 1}")
        if seats[seat].kind != "empty":
            raise RoomError("seat_taken", f"seat {seat} is taken")
        seats[seat] = SeatState(kind="human", name=name, cid=cid)
        return seat

    def ready(self, cid: str, flag: bool) -> None:
        seat = self._my_seat(cid)
        if self.status != "waiting":
            raise RoomError("started", "the game has already started")
        self.record.seats[seat].ready = flag

    def fill_bots(self, cid: str) -> None:
        self._creator_only(cid)
        if self.status != "waiting":
            raise RoomError("started", "the game has already started")
        for index, seat in enumerate(self.record.seats):
            if seat.kind == "empty":
                self.record.seats[index] = SeatState(kind="bot", name=f"Bot {index + 1}",
                                                     ready=True)

    def leave(self, cid: str) -> int:
        """Before the game the seat is freed; during it, a bot takes over."""
        seat = self._my_seat(cid)
        if self.status == "waiting":
            self.record.seats[seat] = SeatState()
        else:
            self._to_bot(seat)
        self.online.discard(cid)
        return seat

    def anyone_ready(self) -> bool:
        return any(s.kind == "human" and s.ready for s in self.record.seats)

    def free_seat(self, seat: int) -> None:
        """Before the game: the seat's player is gone (idle too long, or kicked)."""
        self.online.discard(self.record.seats[seat].cid or "")
        self.record.seats[seat] = SeatState()

    def kick(self, cid: str, seat: int) -> None:
        """The creator frees another player's seat before the game (a squatter, someone
        gone)."""
        self._creator_only(cid)
        if self.status != "waiting":
            raise RoomError("started", "the game has started: hand the seat to a bot instead")
        self._someone_elses(cid, seat, "free")
        self.free_seat(seat)

    def handover(self, cid: str, seat: int) -> None:
        self._creator_only(cid)
        if self.status != "playing":
            raise RoomError("not_playing", "seats are handed to bots only during a game")
        self._someone_elses(cid, seat, "hand over")
        self._to_bot(seat)

    def can_autostart(self) -> bool:
        seats = self.record.seats
        return self.status == "waiting" and all(
            s.kind == "bot" or (s.kind == "human" and s.ready) for s in seats
        )

    def start(self, cid: str | None, bots: bool, seed: int) -> list[Event]:
        """Deal the game; returns the events of the deal (first turn, first draws).
        `cid` None is the automatic start once everyone is ready."""
        if cid is not None:
            self._creator_only(cid)
        if self.status != "waiting":
            raise RoomError("started", "the game has already started")
        seats = self.record.seats
        waiting = [s.name for s in seats if s.kind == "human" and not s.ready and s.cid != cid]
        if waiting:
            raise RoomError("not_ready", "not ready yet: " + ", ".join(waiting))
        if any(s.kind == "empty" for s in seats):
            if not (bots and cid is not None):
                raise RoomError("not_full", "empty seats left: start with bots, or wait")
            self.fill_bots(cid)
        options = self.record.options
        setup = Setup(players=len(seats), seed=seed, names=[s.name for s in seats],
                      pool=options.pool, expansions=list(options.expansions),
                      high_noon=options.high_noon)
        self.state, events = start_game(setup)
        self.record.rules = self.state.version
        self.events = list(events)
        self.record.setup = setup
        self.record.status = "playing"
        return events

    # --- helpers ---------------------------------------------------------------------------

    def _to_bot(self, seat: int) -> None:
        old = self.record.seats[seat]
        self.record.seats[seat] = SeatState(kind="bot", name=old.name, ready=True)

    def _someone_elses(self, cid: str, seat: int, verb: str) -> None:
        """`seat` is held by a player other than `cid`, or RoomError."""
        if not 0 <= seat < len(self.record.seats) or self.record.seats[seat].kind != "human":
            raise RoomError("bad_seat", f"seat {seat} is not held by a player")
        if self.record.seats[seat].cid == cid:
            raise RoomError("bad_seat", f"use leave to {verb} your own seat")

    def _my_seat(self, cid: str) -> int:
        seat = self.seat_of(cid)
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        return seat

    def _creator_only(self, cid: str) -> None:
        if cid != self.record.creator:
            raise RoomError("not_creator", "only the room's creator may do that")


class RoomTable(dict[str, Room]):
    """The rooms a host runs, by id, and where each client sits: a client's seats are found
    without looking at every room (a hello, a join and a change of presence ask, and a host
    runs a thousand rooms). The index may name rooms a client has left or that are gone:
    `held_by` checks, and `reindex` (at each housekeeping round) drops them."""

    def __init__(self, rooms: Iterable[Room] = ()) -> None:
        super().__init__()
        self._seated: dict[str, dict[str, None]] = {}  # cid -> room ids, in seating order
        for room in rooms:
            self[room.id] = room

    def __setitem__(self, room_id: str, room: Room) -> None:
        super().__setitem__(room_id, room)
        for _, cid in room.human_seats():
            self.seated(cid, room)

    def seated(self, cid: str, room: Room) -> None:
        """`cid` took a seat in `room` (the only way in besides a room coming in whole)."""
        self._seated.setdefault(cid, {})[room.id] = None

    def held_by(self, cid: str) -> list[Room]:
        """The rooms where `cid` holds a seat, finished ones included."""
        return [room for room_id in self._seated.get(cid, ())
                if (room := self.get(room_id)) is not None and room.seat_of(cid) is not None]

    def reindex(self) -> None:
        """Forget what `held_by` would skip."""
        self._seated = {}
        for room in self.values():
            for _, cid in room.human_seats():
                self.seated(cid, room)
