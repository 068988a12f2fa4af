"""Game setup: who sits where, which characters and roles, the seed, and rigged scenarios."""

from __future__ import annotations

from msgspec import Struct

#: The expansions a game may be played with.
EXPANSIONS = ("high_noon",)


class HighNoonOptions(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """How a High Noon game settles the rulings the cards leave open (../shared/HIGH_NOON.md,
    section 4; the number is the ruling's). Every default follows the card's text."""

    bonus: bool = False  # 2: Handcuffs and New Identity are shuffled in with the 12 events
    event_limit: int | None = None  # 3: only the first N events after the shuffle
    next_hidden: bool = False  # 1: the next event is not shown
    doctor_heals_wounded: bool = False  # 4: the fewest life points among the wounded
    thirst_draws_one: bool = False  # 5: under Thirst everyone draws exactly 1
    ghost_draw_plus_one: bool = False  # 6: a ghost draws one card more than it would (Pixie 4)
    ghost_cards_to_vulture: bool = False  # 8: a ghost's cards go to Vulture Sam
    suits_in_draws_only: bool = False  # 9: Blessing and Curse change only the "draw!"s
    hangover_keeps_drawbacks: bool = False  # 10: Big Spencer still may not play Missed!
    sermon_blocks_bang_as_missed: bool = False  # 11: Calamity Janet's BANG! as Missed! too
    no_three_players: bool = False  # 14: High Noon is refused at 3 players


def expansions_problem(expansions: list[str] | tuple[str, ...],
                       options: HighNoonOptions | None = None,
                       players: int | None = None) -> str | None:
    """What is wrong with a choice of expansions and their options (None: nothing): the one
    check behind the deal, the host's room options and the command-line flags."""
    unknown = [name for name in expansions if name not in EXPANSIONS]
    if unknown:
        return f"unknown expansion {unknown[0]!r}; known: {', '.join(EXPANSIONS)}"
    if len(set(expansions)) < len(expansions):
        return "an expansion is named twice"
    if options is None:
        return None
    if "high_noon" not in expansions:
        return "High Noon options need high_noon in the expansions"
    if options.event_limit is not None and options.event_limit < 1:
        return f"the High Noon event_limit must be 1 or more, not {options.event_limit}"
    if options.no_three_players and players == 3:
        return "High Noon is not played with 3 players at this table (no_three_players)"
    return None


class Setup(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Everything needed to deal a game. `characters` and `roles` fix them by seat;
    `expansions` names the expansions played (`EXPANSIONS`), and `high_noon` that one's
    options (only with "high_noon" in `expansions`)."""

    players: int = 4
    seed: int = 0
    names: list[str] = []
    pool: str = "all"  # "base": the 16 base characters; "all": all 26
    characters: list[str] | None = None
    roles: list[str] | None = None
    expansions: list[str] = []
    high_noon: HighNoonOptions | None = None


class SeatRig(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's rigged situation. Cards are references such as "BANG! A♠", "barrel" or 17."""

    hand: list[str | int] | None = None
    in_play: list[str | int] = []
    life: int | None = None
    eliminated: bool = False  # at the table, out of the game (no cards; High Noon's ghosts)


class Scenario(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A rigged table for rule tests and bug reports.

    seats:  per-seat hands, cards in play and life (missing seats are dealt normally)
    deck:   cards on top of the draw pile, top first; the rest is shuffled beneath them
    discard: the discard pile, bottom first
    turn:   whose turn it is (default: the Sheriff, or the Deputy with 3 players)
    start:  "start" runs the turn from its beginning (Dynamite, Jail, draw); "play" skips to
            the play phase
    event_active, event_deck, sheriff_turns: High Noon's active event card (a key or null),
            the event deck (keys, the next first; "high_noon" is appended when absent) and the
            Sheriff turns already taken (with 1 or more, a "start" at the Sheriff turns a card)
    """

    seats: list[SeatRig] = []
    deck: list[str | int] = []
    discard: list[str | int] = []
    only_deck: bool = False  # true: the draw pile is exactly `deck`, the rest goes to discard
    turn: int | None = None
    start: str = "start"
    event_active: str | None = None
    event_deck: list[str] | None = None
    sheriff_turns: int | None = None
