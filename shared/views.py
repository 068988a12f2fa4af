"""What one seat (or a spectator) may see of the table. Computed, never stored."""

from __future__ import annotations

from msgspec import Struct

from shared import rules
from shared.model import Action, GameState
from shared.roles import SHERIFF


class PlayerView(Struct, frozen=True, omit_defaults=True):
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


class PendingView(Struct, frozen=True, omit_defaults=True):
    """The public face of the pending decision."""

    id: int
    seat: int
    kind: str
    source: int | None = None
    card: int | None = None
    needed: int = 0
    shown: tuple[int, ...] = ()


class TableView(Struct, frozen=True, omit_defaults=True):
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


def _role_visible(state: GameState, seat: int, viewer: int | None) -> bool:
    player = state.players[seat]
    return (
        state.three_player
        or player.role == SHERIFF
        or not player.alive
        or seat == viewer
        or state.winner is not None
    )


def view(state: GameState, viewer: int | None) -> TableView:
    """The table as `viewer` sees it; `viewer=None` is a spectator."""
    seated = viewer is not None and 0 <= viewer < len(state.players)
    me = state.players[viewer] if seated else None
    reach = rules.reach(state, viewer) if me and me.alive else 0
    players = []
    for p in state.players:
        distance = None
        in_reach = False
        if me is not None and me.alive and p.alive and p.seat != viewer:
            distance = rules.distance(state, viewer, p.seat)
            in_reach = distance <= reach
        players.append(
            PlayerView(
                seat=p.seat,
                name=p.name,
                character=p.character,
                life=p.life,
                max_life=p.max_life,
                alive=p.alive,
                hand_count=len(p.hand),
                in_play=tuple(p.in_play),
                role=p.role if _role_visible(state, p.seat, viewer) else None,
                distance=distance,
                in_reach=in_reach,
            )
        )
    decision = state.pending
    pending = None
    options: tuple[Action, ...] = ()
    default = None
    private: tuple[int, ...] = ()
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
        if seated and decision.seat == viewer:
            options = decision.options
            default = decision.default
            private = decision.private
    return TableView(
        viewer=viewer if seated else None,
        players=tuple(players),
        turn=state.turn,
        turn_number=state.turn_number,
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        discard_top=state.discard[-1] if state.discard else None,
        three_player=state.three_player,
        hand=tuple(me.hand) if me else (),
        role=me.role if me else None,
        reach=reach,
        bangs_played=state.bangs_played if seated and state.turn == viewer else 0,
        pending=pending,
        options=options,
        default=default,
        private=private,
        winner=state.winner,
        winners=tuple(state.winners),
    )
