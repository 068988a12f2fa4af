"""What each audience learns from a room change: a seat's private update, the spectators'
public one. Secrets leave the host only inside the private update of the seat they belong to."""

from __future__ import annotations

from shared.describe import describe
from shared.events import redact
from shared.model import Event, GameState
from shared.protocol import PrivateUpdate, RoomInfo, RoomUpdate
from shared.views import view


def _log(events: list[Event], state: GameState | None, viewer: int | None) -> list[str]:
    if state is None:
        return []
    return [line for e in events if (line := describe(e, state, viewer))]


def public_update(room_id: str, seq: int, info: RoomInfo, state: GameState | None,
                  events: list[Event], n: int) -> RoomUpdate:
    shown = [redact(e, None) for e in events]
    return RoomUpdate(
        room=room_id, seq=seq, info=info, n=n,
        view=view(state, None) if state is not None else None,
        events=shown, log=_log(shown, state, None),
    )


def private_update(room_id: str, seq: int, seat: int, info: RoomInfo,
                   state: GameState | None, events: list[Event], n: int) -> PrivateUpdate:
    shown = [redact(e, seat) for e in events]
    return PrivateUpdate(
        room=room_id, seq=seq, seat=seat, info=info, n=n,
        view=view(state, seat) if state is not None else None,
        events=shown, log=_log(shown, state, seat),
    )
