"""Per-seat visibility of events."""

from __future__ import annotations

import msgspec

from shared.event_kinds import action_code
from shared.model import Action, Event

#: Whoever drives a game adds two kinds of events to the engine's, not in game records:
#: `time_up` and `game_stopped`. A room's `history` leaves the second out: it ends a game the
#: host could not go on with, and a restarted host would not know of it (the host stores a
#: `time_up` with its action).
NOT_IN_HISTORY = frozenset({"game_stopped"})


def time_up(seat: int, default: Action) -> Event:
    """Not an engine event: whoever drives the game (the host, an offline session) puts it
    before the events of the default answer applied because `seat`'s time ran out; `default` is
    that answer's kind (its own events say the rest; ending the turn may have none yet)."""
    return Event(kind="time_up", seat=seat, default=action_code(default.kind))


def game_stopped() -> Event:
    """Not an engine event: the engine failed on the last answer, and this game cannot go on
    (whoever drives it says so to the table, and does not retry)."""
    return Event(kind="game_stopped")


def visible_to(event: Event, viewer: int | None) -> bool:
    """Whether `viewer` (None: a spectator) may see the event's `cards`."""
    return not event.private_to or viewer in event.private_to


def redact(event: Event, viewer: int | None) -> Event:
    """The event as `viewer` may see it: private cards replaced by their count."""
    if visible_to(event, viewer) or not event.cards:
        return event
    return msgspec.structs.replace(event, cards=())
