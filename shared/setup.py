"""Game setup: who sits where, which characters and roles, the seed, and rigged scenarios."""

from __future__ import annotations

from msgspec import Struct


class Setup(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Everything needed to deal a game. `characters` and `roles` fix them by seat."""

    players: int = 4
    seed: int = 0
    names: list[str] = []
    pool: str = "all"  # "base": the 16 base characters; "all": all 26
    characters: list[str] | None = None
    roles: list[str] | None = None


class SeatRig(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's rigged situation. Cards are references such as "BANG! A♠", "barrel" or 17."""

    hand: list[str | int] | None = None
    in_play: list[str | int] = []
    life: int | None = None


class Scenario(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A rigged table for rule tests and bug reports.

    seats:  per-seat hands, cards in play and life (missing seats are dealt normally)
    deck:   cards on top of the draw pile, top first; the rest is shuffled beneath them
    discard: the discard pile, bottom first
    turn:   whose turn it is (default: the Sheriff, or the Deputy with 3 players)
    start:  "start" runs the turn from its beginning (Dynamite, Jail, draw); "play" skips to
            the play phase
    """

    seats: list[SeatRig] = []
    deck: list[str | int] = []
    discard: list[str | int] = []
    only_deck: bool = False  # true: the draw pile is exactly `deck`, the rest goes to discard
    turn: int | None = None
    start: str = "start"
