"""What one seat (or a spectator) may see of the table. Computed, never stored."""

from __future__ import annotations

from typing import Any, NamedTuple

from shared import rules
from shared.high_noon.rules import HighNoonState
from shared.model import Action, GameState
from shared.roles import SHERIFF
from shared.view_types import PendingView, PlayerView, TableView

__all__ = ["PendingView", "PlayerView", "Private", "TableView", "private_part", "view"]


class Private(NamedTuple):
    """What only `viewer` sees of the table (the fields of the wire's `Mine`, in its order).
    `distances[i]` is the distance to seat i: None for yourself, the dead, or when you are
    dead."""

    hand: tuple[int, ...]
    role: str | None
    reach: int
    bangs_played: int
    options: tuple[Action, ...]
    default: Action | None
    private: tuple[int, ...]
    distances: tuple[int | None, ...]
    other_character: str | None


def private_part(state: GameState, viewer: int) -> Private:
    """The part of `view(state, viewer)` that a spectator does not see; the host sends it
    alone to the seat, so it is computed without the rest of the view."""
    me = state.players[viewer]
    reach = rules.reach(state, viewer) if me.alive else 0
    seen = rules.distances_from(state, viewer) if me.alive else None
    distances = tuple(
        seen[p.seat] if seen is not None and p.alive and p.seat != viewer else None
        for p in state.players)
    decision = state.pending if state.pending is not None and state.pending.seat == viewer \
        else None
    return Private(
        hand=tuple(me.hand), role=me.role, reach=reach,
        bangs_played=state.bangs_played if state.turn == viewer else 0,
        options=decision.options if decision else (),
        default=decision.default if decision else None,
        private=decision.private if decision else (),
        distances=distances,
        other_character=(state.other_character[viewer] or None)
        if isinstance(state, HighNoonState) else None)


def view(state: GameState, viewer: int | None) -> TableView:
    """The table as `viewer` sees it; `viewer=None` is a spectator."""
    seated = viewer is not None and 0 <= viewer < len(state.players)
    mine = private_part(state, viewer) if seated and viewer is not None else None
    # A role is seen in 3-player games and once the game is over, and otherwise for the
    # Sheriff, the eliminated and yourself.
    every_role = state.three_player or state.winner is not None
    players = []
    for p in state.players:
        distance = mine.distances[p.seat] if mine is not None else None
        in_reach = mine is not None and distance is not None and distance <= mine.reach
        visible = every_role or p.role == SHERIFF or not p.alive or p.seat == viewer
        players.append(PlayerView(  # by position, in the order of its fields
            p.seat, p.name, p.character, p.life, p.max_life, p.alive, len(p.hand),
            tuple(p.in_play), p.role if visible else None, distance, in_reach))
    decision = state.pending
    pending = None
    if decision is not None:
        pending = PendingView(
            id=decision.id,
            seat=decision.seat,
            kind=decision.kind,
            source=decision.source,
            card=decision.card,
            needed=decision.needed,
            shown=decision.shown,
        )
    return TableView(
        viewer=viewer if seated else None,
        players=tuple(players),
        turn=state.turn,
        turn_number=state.turn_number,
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        discard_top=state.discard[-1] if state.discard else None,
        three_player=state.three_player,
        hand=mine.hand if mine else (),
        role=mine.role if mine else None,
        reach=mine.reach if mine else 0,
        bangs_played=mine.bangs_played if mine else 0,
        pending=pending,
        options=mine.options if mine else (),
        default=mine.default if mine else None,
        private=mine.private if mine else (),
        winner=state.winner,
        winners=tuple(state.winners),
        other_character=mine.other_character if mine else None,
        **_events(state),
    )


def _events(state: GameState) -> dict[str, Any]:
    """High Noon's public event cards (nothing for a game without them)."""
    if not isinstance(state, HighNoonState):
        return {}
    shown = state.event_deck and not state.options.next_hidden
    return {"event_active": state.event_active,
            "event_next": state.event_deck[0] if shown else None,
            "events_left": len(state.event_deck)}
