"""Views in pieces, for the wire: a seat's view is the spectators' view plus its `Mine` part,
and a change of the spectators' view travels as a `TableDelta`.

    mine = split(view(state, seat))                    # host: the private part
    delta = diff(old_public, view(state, None))        # host: what changed in public
    public = patch(public, delta)                      # client: the public view, updated
    merge(public, seat, mine) == view(state, seat)     # client: its own view, exactly

Pure functions; the property tests in tests/net check the two equalities over whole games.
"""

from __future__ import annotations

from typing import Any

from msgspec import UNSET, structs

from shared.protocol import Mine, PlayerDelta, TableDelta
from shared.views import PlayerView, TableView

#: The TableView fields a TableDelta may carry, besides `players`.
_SCALARS = tuple(f for f in TableDelta.__struct_fields__ if f != "players")
#: Of those, the ones a delta that starts a view may leave out (an older host's, or a game
#: without their expansion): their TableView defaults hold.
_OPTIONAL = frozenset({"event_active", "event_next", "events_left"})
_DEFAULTS = {name: getattr(TableView(viewer=None, players=(), turn=0, turn_number=0,
                                     deck_count=0, discard_count=0, discard_top=None,
                                     three_player=False), name) for name in _OPTIONAL}
#: The PlayerView fields a PlayerDelta may carry, besides `seat`.
_PLAYER = tuple(f for f in PlayerDelta.__struct_fields__ if f != "seat")


def split(seat_view: TableView) -> Mine:
    """The part of a seat's view that the spectators' view does not have."""
    return Mine(
        hand=seat_view.hand, role=seat_view.role, reach=seat_view.reach,
        bangs_played=seat_view.bangs_played, options=seat_view.options,
        default=seat_view.default, private=seat_view.private,
        distances=tuple(p.distance for p in seat_view.players),
        other_character=seat_view.other_character,
    )


def merge(public: TableView, seat: int, mine: Mine) -> TableView:
    """`seat`'s own view, from the spectators' view and the seat's private part."""
    players = []
    for player in public.players:
        distance = mine.distances[player.seat] if player.seat < len(mine.distances) else None
        role = mine.role if player.seat == seat else player.role
        players.append(structs.replace(
            player, role=role, distance=distance,
            in_reach=distance is not None and distance <= mine.reach))
    return structs.replace(
        public, viewer=seat, players=tuple(players), hand=mine.hand, role=mine.role,
        reach=mine.reach, bangs_played=mine.bangs_played, options=mine.options,
        default=mine.default, private=mine.private, other_character=mine.other_character)


# Fields by name, for a Struct's constructor or `structs.replace`: each value has its field's
# type, which a dict cannot say, so the values are `Any`.
def _changed(old: object | None, new: object, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(new, name) for name in names
            if old is None or getattr(new, name) != getattr(old, name)}


def diff(old: TableView | None, new: TableView) -> TableDelta:
    """What changed from `old` to `new` (everything when there is no `old`)."""
    whole = old is None or len(old.players) != len(new.players)
    players = tuple(
        PlayerDelta(seat=player.seat, **_changed(None if whole else old.players[i],  # type: ignore[union-attr]
                                                 player, _PLAYER))
        for i, player in enumerate(new.players)
        if whole or player != old.players[i])  # type: ignore[union-attr]
    fields = _changed(None if whole else old, new, _SCALARS)
    if whole:  # a game without events sends what it always sent (and an older client reads it)
        fields = {name: value for name, value in fields.items()
                  if name not in _OPTIONAL or value != _DEFAULTS[name]}
    return TableDelta(players=players if players else UNSET, **fields)


def patch(old: TableView | None, delta: TableDelta) -> TableView:
    """`old` with the changes of `delta` applied; with no `old`, the delta must be whole."""
    fields = {name: value for name in _SCALARS
              if (value := getattr(delta, name)) is not UNSET}
    if old is None:
        if delta.players is UNSET or set(_SCALARS) - set(fields) - _OPTIONAL:
            raise ValueError("a delta that starts a view must have every field")
        return TableView(viewer=None, players=tuple(_whole(p) for p in delta.players),
                         **fields)
    if delta.players is not UNSET:
        players = list(old.players)
        for change in delta.players:
            if not 0 <= change.seat < len(players):
                raise ValueError(f"a delta names seat {change.seat} of {len(players)}")
            players[change.seat] = structs.replace(players[change.seat], **_set(change))
        fields["players"] = tuple(players)
    return structs.replace(old, **fields)


def _set(change: PlayerDelta) -> dict[str, Any]:
    return {name: value for name in _PLAYER if (value := getattr(change, name)) is not UNSET}


def _whole(change: PlayerDelta) -> PlayerView:
    fields = _set(change)
    if len(fields) < len(_PLAYER):
        raise ValueError(f"seat {change.seat} of a whole delta lacks fields")
    return PlayerView(seat=change.seat, **fields)
