"""What each audience learns from a room change, as v2 messages: one public RoomDelta for the
room and a SeatUpdate for each human seat whose private part changed. Secrets leave the host
only inside the SeatUpdate of the seat they belong to.

Pure: `Broadcast` remembers what was last sent for one room, so that the next change sends
only what differs; the host signs, seals and publishes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared import protocol as p
from shared.events import redact
from shared.model import Event, GameState
from shared.views import TableView, private_part, view
from shared.wireview import diff


@dataclass
class Change:
    """The messages of one room change: `delta` for the room topic, and per seat
    (client id, update, its size class) for the seats' outboxes."""

    delta: p.RoomDelta
    seats: list[tuple[str, p.SeatUpdate, int]]
    info_changed: bool


@dataclass
class Broadcast:
    """What the clients of one room were last sent."""

    public: TableView | None = None
    info: p.RoomInfo | None = None
    mine: dict[int, p.Mine | None] = field(default_factory=dict)

    def change(self, room_id: str, seq: int, n: int, info: p.RoomInfo,
               state: GameState | None, humans: list[tuple[int, str]], events: list[Event],
               answer: tuple[str, int] | None = None) -> Change:
        """The messages for room change `seq`. `answer` (client id, request counter) is the
        `act` this change answers: that seat's update carries its `ref`."""
        public = view(state, None) if state is not None else None
        table = diff(self.public, public) if public is not None else None
        if table == p.TableDelta():
            table = None
        info_changed = info != self.info
        seats = []
        for seat, cid in humans:
            mine = p.Mine(*private_part(state, seat)) if state is not None else None
            shown = [p.Shown(index, e.cards) for index, e in enumerate(events)
                     if e.cards and e.private_to and seat in e.private_to]
            ref = answer[1] if answer is not None and answer[0] == cid else None
            if mine == self.mine.get(seat) and not shown and ref is None:
                continue
            self.mine[seat] = mine
            update = p.SeatUpdate(room=room_id, seq=seq, seat=seat, n=n, mine=mine, ref=ref,
                                  shown=shown)
            hand = len(state.players[seat].hand) if state is not None else 0
            seats.append((cid, update, p.seat_update_class(update, hand)))
        delta = p.RoomDelta(room=room_id, seq=seq, n=n, events=[redact(e, None) for e in events],
                            table=table, info=info if info_changed else None,
                            to=[update.seat for _, update, _ in seats])
        self.public, self.info = public, info
        return Change(delta, seats, info_changed)

    def seat_snapshot(self, room_id: str, seq: int, n: int, state: GameState | None,
                      seat: int) -> tuple[p.SeatUpdate, int]:
        """A seat's whole private part (after hello, snapshot or a restart), and its class."""
        mine = p.Mine(*private_part(state, seat)) if state is not None else None
        self.mine[seat] = mine
        update = p.SeatUpdate(room=room_id, seq=seq, seat=seat, n=n, mine=mine, snapshot=True)
        hand = len(state.players[seat].hand) if state is not None else 0
        return update, p.seat_update_class(update, hand)

    def snapshot(self, room_id: str, seq: int, n: int, info: p.RoomInfo,
                 state: GameState | None) -> p.RoomSnapshot:
        """The room's whole public face now: the spectators' view made for the last change,
        or a fresh one when nothing was sent yet."""
        public = self.public if self.info is not None else None
        if public is None and state is not None:
            public = view(state, None)
        return p.RoomSnapshot(room=room_id, seq=seq, n=n, info=info, view=public)

    def forget_seat(self, seat: int) -> None:
        """The seat changed hands: its next owner starts from a snapshot."""
        self.mine.pop(seat, None)

