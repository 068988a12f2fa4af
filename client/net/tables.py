"""A client's picture of one room, rebuilt from the wire's pieces (protocol v2): a public
snapshot, then the RoomDelta chain, merged with this seat's SeatUpdates.

Pure bookkeeping, no I/O: `RoomMirror` takes messages in arrival order and returns the
complete room changes (`TableUpdate`) it can now show, in `seq` order, and says when it
needs a snapshot (a gap, or a seat update that never came)."""

from __future__ import annotations

from dataclasses import dataclass, field

from msgspec import Struct, structs

from shared import protocol as p
from shared.model import Event
from shared.views import TableView
from shared.wireview import merge, patch

#: Deltas kept while a snapshot is awaited.
BUFFER = 64


class TableUpdate(Struct, frozen=True):
    """Room change `seq` as this client sees it: `view` is the seat's own view (the
    spectators' one when `seat` is None; None before the game starts), `events` what
    happened, as this client may see it. `snapshot`: the room as a snapshot showed it, whose
    changes since the last update (if any came before) are not in `events`."""

    room: str
    seq: int
    seat: int | None
    info: p.RoomInfo
    view: TableView | None
    events: tuple[Event, ...] = ()
    snapshot: bool = False


@dataclass
class RoomMirror:
    room: str
    seat: int | None = None
    seq: int = -1  # the last complete change; -1: no snapshot yet
    info: p.RoomInfo | None = None
    public: TableView | None = None
    mine: p.Mine | None = None
    waiting: p.RoomDelta | None = None  # applied in public; our SeatUpdate has not come
    early: dict[int, p.SeatUpdate] = field(default_factory=dict)
    deltas: dict[int, p.RoomDelta] = field(default_factory=dict)  # ahead of `seq`
    needs_snapshot: bool = False

    # --- inbound ---------------------------------------------------------------------------

    def on_snapshot(self, snap: p.RoomSnapshot) -> list[TableUpdate]:
        """The public face at `snap.seq`. A seated client shows it once its own part at the
        same `seq` is there too."""
        if snap.seq < self.seq:
            return []
        self.seq, self.info, self.public = snap.seq, snap.info, snap.view
        self.waiting = None
        self.needs_snapshot = False
        self.deltas = {s: d for s, d in self.deltas.items() if s > snap.seq}
        out: list[TableUpdate] = []
        if self.seat is None or self.public is None:
            out.append(self._update((), snapshot=True))
        elif (mine := self.early.pop(snap.seq, None)) is not None:
            self.mine = mine.mine
            out.append(self._update((), snapshot=True))
        self.early = {s: u for s, u in self.early.items() if s > snap.seq}
        return out + self._drain()

    def on_delta(self, delta: p.RoomDelta) -> list[TableUpdate]:
        out: list[TableUpdate] = []
        if delta.seq <= self.seq:
            return out
        if self.waiting is not None:  # our update for the previous change never came
            out.append(self._finish(None))
            self.needs_snapshot = True
        if len(self.deltas) < BUFFER:
            self.deltas[delta.seq] = delta
        if self.seq < 0 or delta.seq > self.seq + 1:
            self.needs_snapshot = True
        return out + self._drain()

    def on_seat(self, update: p.SeatUpdate) -> list[TableUpdate]:
        self.seat = update.seat
        if update.snapshot:
            if update.seq == self.seq:
                self.mine = update.mine
                self.waiting = None
                return [self._update((), snapshot=True)]
            if update.seq > self.seq:
                self.early[update.seq] = update
            return []
        if self.waiting is not None and self.waiting.seq == update.seq:
            self.mine = update.mine
            return [self._finish(update)] + self._drain()
        if update.seq > self.seq:
            self.early[update.seq] = update
        elif update.seq == self.seq:  # late, after its change was shown without it
            self.mine = update.mine
            return [self._update(())]
        return []

    def overdue(self) -> list[TableUpdate]:
        """Our SeatUpdate for the last change is taking too long: show the change without
        it and ask for a snapshot."""
        if self.waiting is None:
            return []
        self.needs_snapshot = True
        return [self._finish(None)]

    # --- internals -------------------------------------------------------------------------

    def _drain(self) -> list[TableUpdate]:
        """Apply buffered deltas that continue the chain."""
        out: list[TableUpdate] = []
        while self.waiting is None and self.seq >= 0 and (self.seq + 1) in self.deltas:
            delta = self.deltas.pop(self.seq + 1)
            self.seq = delta.seq
            if delta.info is not None:
                self.info = delta.info
            if delta.table is not None:
                try:
                    self.public = patch(self.public, delta.table)
                except ValueError:
                    self.needs_snapshot = True
                    return out
            if self.seat is not None and self.seat in delta.to:
                seat_update = self.early.pop(delta.seq, None)
                if seat_update is None:
                    self.waiting = delta
                    return out
                self.mine = seat_update.mine
                out.append(self._shown(delta, seat_update))
            else:
                out.append(self._shown(delta, None))
        return out

    def _finish(self, seat_update: p.SeatUpdate | None) -> TableUpdate:
        delta, self.waiting = self.waiting, None
        assert delta is not None
        return self._shown(delta, seat_update)

    def _shown(self, delta: p.RoomDelta, seat_update: p.SeatUpdate | None) -> TableUpdate:
        events = list(delta.events)
        for shown in seat_update.shown if seat_update is not None else ():
            if 0 <= shown.index < len(events):
                events[shown.index] = structs.replace(events[shown.index], cards=shown.cards)
        return self._update(tuple(events))

    def _update(self, events: tuple[Event, ...], snapshot: bool = False) -> TableUpdate:
        assert self.info is not None
        shown = self.public
        if shown is not None and self.seat is not None and self.mine is not None:
            shown = merge(shown, self.seat, self.mine)
        return TableUpdate(self.room, self.seq, self.seat, self.info, shown, events, snapshot)
