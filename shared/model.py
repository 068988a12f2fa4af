"""The data the engine keeps and exchanges: actions, decisions, events and the game state.

Everything here is a msgspec Struct, so the whole state round-trips through MessagePack and
JSON, and inbound actions are validated by type on decode.
"""

from __future__ import annotations

from msgspec import Struct

from shared.event_kinds import (
    ActionKind,
    CharacterKey,
    DrawSource,
    EventKind,
    FlipPurpose,
    PlayHow,
    Reason,
    Role,
    Side,
    Suit,
    Zone,
)
from shared.high_noon.cards import EventCardKey

#: The rules a game plays by, kept in its state (and a record's `version`): 2 asks Sid Ketchum
#: before a Panic! or Cat Balou aimed at him resolves (`BeforeCardFrame`); a version-1 game,
#: such as a version-1 record replayed, plays on without asking.
STATE_VERSION = 2


# `gc=False` on plain data (no reference cycles can form in it): a host keeps these by the
# thousand, and the garbage collector need not walk them (tests/server/test_host_load.py).
class Action(Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True, gc=False):
    """What a seat does. Which fields matter depends on `kind` (see docs/REPLAY.md).

    card:   the card from the acting seat's hand that is used
    target: the seat aimed at
    pick:   a card chosen among shown ones, or a card in play in front of the target
    cards:  several cards from the hand (Sid Ketchum discards two)
    """

    kind: str
    card: int | None = None
    target: int | None = None
    pick: int | None = None
    cards: tuple[int, ...] = ()


class Decision(Struct, frozen=True, omit_defaults=True, gc=False):
    """Who must decide what, now. `options` are all the legal actions; `default` is the
    rules-safe choice applied when the seat's time runs out."""

    id: int
    seat: int
    kind: str
    options: tuple[Action, ...]
    default: Action
    source: int | None = None  # the seat that caused this decision (the shooter, the duellist)
    card: int | None = None  # the card being answered
    needed: int = 0  # Missed! still needed against this shot
    shown: tuple[int, ...] = ()  # face-up cards to choose from (General Store, Lucky Duke)
    private: tuple[int, ...] = ()  # cards only this seat sees (Kit Carlson's look)


class Event(Struct, frozen=True, omit_defaults=True, gc=False):
    """Something that happened. `cards` are visible only to the seats in `private_to` when that
    is not empty; everyone else learns just `count`.

    The last fields are codes from closed sets, never free text: which kinds carry which
    fields, and every code, are in shared.event_kinds (and docs/PROTOCOL.md)."""

    kind: EventKind
    seat: int | None = None
    target: int | None = None
    card: int | None = None
    cards: tuple[int, ...] = ()
    count: int = 0
    private_to: tuple[int, ...] = ()
    value: int | None = None
    how: PlayHow | None = None  # play
    source: DrawSource | None = None  # draw
    purpose: FlipPurpose | None = None  # flip, lucky_pick
    zone: Zone | None = None  # steal, forced_discard
    reason: Reason | None = None  # turn_end, discard
    role: Role | None = None  # eliminated
    side: Side | None = None  # game_over
    default: ActionKind | None = None  # time_up
    event_card: EventCardKey | None = None  # event_flip, event_effect (High Noon)
    suit: Suit | None = None  # suit_named (High Noon's Handcuffs)
    character: CharacterKey | None = None  # new_identity (High Noon)


class Player(Struct, gc=False):
    seat: int
    name: str
    character: str
    role: str
    life: int
    max_life: int
    hand: list[int]
    in_play: list[int]
    alive: bool = True


# --- Frames: the resolution stack. The top frame is what is being resolved now. ---------------

#: What a "draw!" shows when there is no card left anywhere: it fails.
FLIP_NOTHING = -1


class TurnFrame(Struct, tag="turn"):
    """A player's turn, from the Dynamite check to the discard phase."""

    seat: int
    step: str = "start"
    drawn: int | None = None  # result of a "draw!" made for this frame


class ShotFrame(Struct, tag="shot"):
    """A BANG! (card, Gatling, Henry Block's automatic shot) aimed at `target`."""

    target: int
    source: int | None  # who shoots (gets the bounty)
    card: int | None  # the card fired, if any
    card_player: int | None  # who played that card (El Gringo's trigger)
    needed: int = 1
    barrels_used: int = 0
    unavoidable: bool = False
    step: str = "ask"  # "ask": waiting for the target; "barrel": a Barrel "draw!" is under way
    drawn: int | None = None


class DyingFrame(Struct, tag="dying"):
    seat: int
    killer: int | None


class IndiansFrame(Struct, tag="indians"):
    source: int
    target: int
    card: int


class DuelFrame(Struct, tag="duel"):
    challenger: int
    challenged: int
    current: int
    card: int


class StoreFrame(Struct, tag="store"):
    order: list[int]
    cards: list[int]


class LuckyFrame(Struct, tag="lucky"):
    """Lucky Duke flipped two cards for a "draw!" and picks the result."""

    seat: int
    cards: list[int]
    purpose: FlipPurpose


class KitFrame(Struct, tag="kit"):
    seat: int
    cards: list[int]


class MoveFrame(Struct, tag="move"):
    """Take (steal) or discard a card from `victim`; `pick` None means a random hand card.
    Henry Block shoots first when he is the victim."""

    actor: int
    victim: int
    pick: int | None
    mode: str  # "steal" | "discard"
    henry_checked: bool = False


class GringoFrame(Struct, tag="gringo"):
    seat: int
    source: int
    count: int


class YoulFrame(Struct, tag="youl"):
    giver: int
    receiver: int


class BeforeCardFrame(Struct, tag="before_card"):
    """`seat` may use an ability that works at any moment (Sid Ketchum's) before the `card`
    that `source` aimed at them takes one of their cards."""

    seat: int
    source: int
    card: int


class EventFrame(Struct, tag="event"):
    """An expansion's own step, resolved by the game's rulebook (`Rulebook.step_frame`):
    `kind` says which (High Noon: "daltons", "new_identity", "name_suit", "kit_keep"), `seats`
    who is still to decide, `cards` any cards it holds meanwhile (counted by the invariants)."""

    kind: str
    seats: list[int]
    cards: list[int] = []


Frame = (
    TurnFrame | ShotFrame | DyingFrame | IndiansFrame | DuelFrame | StoreFrame | LuckyFrame
    | KitFrame | MoveFrame | GringoFrame | YoulFrame | BeforeCardFrame | EventFrame
)


class GameState(Struct):
    version: int
    rng: int
    players: list[Player]
    deck: list[int]  # the top of the deck is the END of the list
    discard: list[int]  # the top of the pile is the END of the list
    stack: list[Frame]
    turn: int
    turn_number: int = 0
    bangs_played: int = 0
    jose_uses: int = 0
    actions: int = 0  # accepted actions so far; also the id of the pending decision
    three_player: bool = False
    last_alive_goal: bool = False  # 3 players: a target fell to the wrong hand
    winner: str | None = None
    winners: list[int] = []
    pending: Decision | None = None
