"""The shapes of what one seat (or a spectator) sees of the table; shared.views computes them.

Kept apart from shared.views so that it can be compiled (`bang compile`) while these stay
Python classes: compiled, a Struct's annotations lose their unions, and msgspec then encodes
and decodes them wrongly (docs/ENGINE.md, "Compiled")."""

from __future__ import annotations

from msgspec import Struct

from shared.model import Action


# `gc=False` on plain data (no reference cycles can form in it): a host keeps these by the
# thousand, and the garbage collector need not walk them (tests/server/test_host_load.py).
class PlayerView(Struct, frozen=True, omit_defaults=True, gc=False):
    seat: int
    name: str
    character: str
    life: int
    max_life: int
    alive: bool
    hand_count: int
    in_play: tuple[int, ...]
    role: str | None = None  # known: the Sheriff, 3-player games, yourself, the eliminated
    distance: int | None = None  # from the viewer, for seated viewers
    in_reach: bool = False  # a BANG! from the viewer could reach this player


class PendingView(Struct, frozen=True, omit_defaults=True, gc=False):
    """The public face of the pending decision."""

    id: int
    seat: int
    kind: str
    source: int | None = None
    card: int | None = None
    needed: int = 0
    shown: tuple[int, ...] = ()


class TableView(Struct, frozen=True, omit_defaults=True, gc=False):
    viewer: int | None  # None for a spectator
    players: tuple[PlayerView, ...]
    turn: int
    turn_number: int
    deck_count: int
    discard_count: int
    discard_top: int | None
    three_player: bool
    hand: tuple[int, ...] = ()
    role: str | None = None
    reach: int = 0
    bangs_played: int = 0
    pending: PendingView | None = None
    options: tuple[Action, ...] = ()  # only when the viewer must decide
    default: Action | None = None
    private: tuple[int, ...] = ()  # cards only the viewer sees now (Kit Carlson's look)
    winner: str | None = None
    winners: tuple[int, ...] = ()
    # High Noon (public): the event card in play, the next one (None when hidden by option
    # or when High Noon is in play), how many are left to come; and (private) the viewer's
    # second character for New Identity.
    event_active: str | None = None
    event_next: str | None = None
    events_left: int = 0
    other_character: str | None = None
