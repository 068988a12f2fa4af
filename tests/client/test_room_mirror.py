"""The client's picture of a room from the wire's pieces (client.net.tables.RoomMirror): in
order or not, with pieces missing, it shows each change once and exactly as the host sees it,
or asks for a snapshot."""

from __future__ import annotations

from client.net.tables import RoomMirror
from server.broadcast import Broadcast
from server.rooms import Room
from shared import protocol as p
from shared.bots import make_bot
from shared.engine import apply
from shared.views import view


def game(seats: int = 4, changes: int = 12):
    """A room of `seats` humans and the wire messages of its first `changes` changes, with
    the state after each."""
    room = Room.create("r1", "c0", "Ann", "Test", p.RoomOptions(seats=seats))
    for seat in range(seats):
        room.join(f"c{seat}", f"P{seat}", seat)
        room.ready(f"c{seat}", True)
    broadcast = Broadcast()
    events = room.start(None, False, seed=7)
    snap = Broadcast().snapshot(room.id, 0, 1, room.info(), None)
    steps = []
    bots = [make_bot("random", seat) for seat in range(seats)]
    for seq in range(1, changes + 1):
        change = broadcast.change(room.id, seq, seq + 1, room.info(), room.state,
                                  room.human_seats(), events)
        steps.append((change, view(room.state, 0)))
        decision = room.state.pending
        events = apply(room.state, decision.seat,
                       bots[decision.seat].choose(view(room.state, decision.seat)), decision.id)
    return snap, steps


def mine_for(change, seat: int) -> p.SeatUpdate | None:
    return next((u for cid, u, _ in change.seats if u.seat == seat), None)


def test_in_order_every_change_is_shown_once_and_exactly() -> None:
    snap, steps = game()
    mirror = RoomMirror("r1", seat=0)
    assert [u.view for u in mirror.on_snapshot(snap)] == [None]
    for change, expected in steps:
        shown = mirror.on_delta(change.delta)
        update = mine_for(change, 0)
        if update is not None:
            assert shown == []  # waits for its seat's part
            shown = mirror.on_seat(update)
        assert [u.seq for u in shown] == [change.delta.seq]
        assert shown[0].view == expected
    assert not mirror.needs_snapshot


def test_seat_updates_that_come_first_wait_for_their_delta() -> None:
    snap, steps = game()
    mirror = RoomMirror("r1", seat=0)
    mirror.on_snapshot(snap)
    for change, expected in steps:
        update = mine_for(change, 0)
        if update is not None:
            assert mirror.on_seat(update) == []
        shown = mirror.on_delta(change.delta)
        assert [u.view for u in shown] == [expected]


def test_a_gap_asks_for_a_snapshot_and_a_lost_first_snapshot_too() -> None:
    snap, steps = game()
    mirror = RoomMirror("r1", seat=0)
    assert mirror.on_delta(steps[0][0].delta) == []  # no snapshot yet: kept, and asked for
    assert mirror.needs_snapshot
    mirror = RoomMirror("r1", seat=None)  # a spectator
    mirror.on_snapshot(snap)
    for change, _ in steps[:3]:
        mirror.on_delta(change.delta)
    assert mirror.on_delta(steps[5][0].delta) == [] and mirror.needs_snapshot
    assert mirror.seq == 3


def test_a_seat_update_that_never_comes_is_overdue() -> None:
    snap, steps = game()
    mirror = RoomMirror("r1", seat=0)
    mirror.on_snapshot(snap)
    for change, _ in steps:
        shown = mirror.on_delta(change.delta)
        if mine_for(change, 0) is not None:  # lost
            assert shown == []
            late = mirror.overdue()
            assert [u.seq for u in late] == [change.delta.seq] and mirror.needs_snapshot
            return
    raise AssertionError("seat 0 never had a private part to lose")
