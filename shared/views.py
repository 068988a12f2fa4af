"""What one seat (or a spectator) may see of the table. Computed, never stored."""

from __future__ import annotations

from typing import cast

from msgspec.structs import astuple

from shared import rules
from shared.high_noon.rules import HighNoonState
from shared.model import Action, GameState
from shared.roles import SHERIFF
from shared.view_types import PendingView, PlayerView, TableView

__all__ = ["PendingView", "PlayerView", "Private", "TableView", "private_part", "view"]


#: What only `viewer` sees of the table, in the order of the wire's `Mine` fields: hand, role,
#: reach, bangs_played, options, default, private, distances, other_character. `distances[i]`
#: is the distance to seat i: None for yourself, the dead, or when you are dead. (A plain
#: tuple, not a NamedTuple: compiled, it is passed as a C struct, and a NamedTuple is built by
#: Python code for every view.)
Private = tuple[tuple[int, ...], str | None, int, int, tuple[Action, ...], Action | None,
                tuple[int, ...], tuple[int | None, ...], str | None]


def private_part(state: GameState, viewer: int) -> Private:
    """The part of `view(state, viewer)` that a spectator does not see; the host sends it
    alone to the seat, so it is computed without the rest of the view."""
    players = state.players
    me = players[viewer]
    alive = me.alive
    reach = rules.reach(state, viewer) if alive else 0
    seen = rules.distances_from(state, viewer) if alive else None
    distances = tuple([
        seen[p.seat] if seen is not None and p.alive and p.seat != viewer else None
        for p in players])
    decision = state.pending
    if decision is not None and decision.seat == viewer:
        options, default, private = decision.options, decision.default, decision.private
    else:
        options, default, private = (), None, ()
    return (
        tuple(me.hand), me.role, reach, state.bangs_played if state.turn == viewer else 0,
        options, default, private, distances,
        (state.other_character[viewer] or None) if isinstance(state, HighNoonState) else None)


#: `Player`'s fields in their order, as `msgspec.structs.astuple` gives them: one call
#: instead of nine attribute reads, each a full lookup compiled (a test holds the order).
PlayerFields = tuple[int, str, str, str, int, int, list[int], list[int], bool]


def view(state: GameState, viewer: int | None) -> TableView:
    """The table as `viewer` sees it; `viewer=None` is a spectator."""
    # Every field is read once, and the Structs are built by position: this runs for every
    # decision of every bot, and compiled (`bang compile`) each attribute read of a Struct or
    # a NamedTuple is a full lookup.
    players = state.players
    seated = viewer is not None and 0 <= viewer < len(players)
    if seated and viewer is not None:
        (hand, role, reach, bangs_played, options, default, private, distances,
         other_character) = private_part(state, viewer)
    else:
        hand, role, reach, bangs_played, options, default, private = (), None, 0, 0, (), None, ()
        distances, other_character = None, None
    # A role is seen in 3-player games and once the game is over, and otherwise for the
    # Sheriff, the eliminated and yourself.
    every_role = state.three_player or state.winner is not None
    seen = []
    for p in players:
        seat, name, character, known, life, max_life, held, in_play, alive = cast(
            PlayerFields, astuple(p))
        distance = distances[seat] if distances is not None else None
        visible = every_role or known == SHERIFF or not alive or seat == viewer
        seen.append(PlayerView(  # by position, in the order of its fields
            seat, name, character, life, max_life, alive, len(held), tuple(in_play),
            known if visible else None, distance, distance is not None and distance <= reach))
    decision = state.pending
    pending = None if decision is None else PendingView(
        decision.id, decision.seat, decision.kind, decision.source, decision.card,
        decision.needed, decision.shown)
    event_active, event_next, events_left = _events(state)
    discard = state.discard
    return TableView(  # by position, in the order of its fields
        viewer if seated else None, tuple(seen), state.turn, state.turn_number, len(state.deck),
        len(discard), discard[-1] if discard else None, state.three_player, hand, role, reach,
        bangs_played, pending, options, default, private, state.winner, tuple(state.winners),
        event_active, event_next, events_left, other_character)


def _events(state: GameState) -> tuple[str | None, str | None, int]:
    """High Noon's public event cards: the one in play, the next one (None when hidden by
    option), how many are left (nothing for a game without them)."""
    if not isinstance(state, HighNoonState):
        return None, None, 0
    shown = state.event_deck and not state.options.next_hidden
    return (state.event_active, state.event_deck[0] if shown else None,
            len(state.event_deck))
