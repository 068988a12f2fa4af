"""The events' vocabulary: every event kind, the fields each one carries, and the closed sets
of codes its code fields take. Nothing in an event is free text: a line of the log (English in
shared.describe, the other languages in client.log_writer) is written from these alone.

The code types are `Literal`s, so the wire validates them (msgspec refuses an event with a
code outside its set) and mypy checks every place that emits one. Characters and cards are
named by their keys (`suzy_lafayette`, `barrel`), never by their display names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, cast, get_args

from shared.characters import CHARACTERS
from shared.high_noon.cards import EventCardKey

#: Every kind of event: the engine's, then the two a game's driver adds (shared.events).
EventKind = Literal[
    "game_start", "turn_start", "turn_end", "draw", "reshuffle", "flip", "reveal",
    "draw_discard", "play", "equip", "discard", "missed", "barrel_saves", "barrel_fails",
    "hit", "heal", "survives", "eliminated", "vulture", "discard_all", "penalty", "game_over",
    "dynamite_explodes", "dynamite_passes", "jail_escape", "jail_stays", "store_open",
    "store_pick", "lucky_pick", "kit_look", "kit_keep", "give", "steal", "forced_discard",
    "fizzle", "henry_block", "sid", "chuck", "jose",
    "event_flip", "event_effect", "ghost_returns", "ghost_leaves", "suit_named", "new_identity",
    "time_up", "game_stopped",
]

#: `how` of a `play`: a card played other than as itself on the player's turn. as_bang: a card
#: fired as a BANG! (Calamity Janet); as_missed: a BANG! played as a Missed! (Calamity Janet);
#: duel: a BANG! discarded in a Duel; indians: a BANG! discarded against Indians!; survive: a
#: Beer played to survive a fatal hit.
PlayHow = Literal["as_bang", "as_missed", "duel", "indians", "survive"]

#: `source` of a `draw` made outside the draw phase: the reward for eliminating an Outlaw, or
#: the character (key) whose ability draws.
DrawSource = Literal["reward", "bart_cassidy", "black_jack", "chuck_wengam", "jose_delgado",
                     "madam_yto", "suzy_lafayette"]

#: `purpose` of a `flip` (a "draw!") and of Lucky Duke's `lucky_pick`: the card (key) in play
#: it is for, or the character (key) whose ability flips.
FlipPurpose = Literal["barrel", "dynamite", "jail", "colorado_bill"]

#: `zone` of a `steal` or a `forced_discard`: where the card was taken from.
Zone = Literal["hand", "in_play"]

#: `reason` of a `turn_end`: the discard phase is over, or the turn was lost in Jail.
TurnEndReason = Literal["discard", "skipped"]
#: `reason` of a `discard` outside the discard phase: a weapon replaced by a new one, or a card
#: in play given up when The Daltons (High Noon) came into play.
DiscardReason = Literal["replaced_weapon", "the_daltons"]
Reason = Literal[TurnEndReason, DiscardReason]

#: `role` of an `eliminated`: the role the player had (shared.roles).
Role = Literal["sheriff", "deputy", "outlaw", "renegade"]

#: `suit` of a `suit_named` (High Noon's Handcuffs), in the order the options list them.
Suit = Literal["spades", "hearts", "diamonds", "clubs"]

#: `character` of a `new_identity`: every character's key (shared.characters).
CharacterKey = Literal[
    "bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones", "jourdonnais",
    "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez", "rose_doolan", "sid_ketchum",
    "slab_the_killer", "suzy_lafayette", "vulture_sam", "willy_the_kid", "apache_kid",
    "chuck_wengam", "jose_delgado", "pixie_pete", "big_spencer", "youl_grinner", "madam_yto",
    "colorado_bill", "henry_block", "annie_versary",
]

#: `side` of a `game_over`: who won (shared.roles: the 3p_ sides are the 3-player variant's).
Side = Literal["sheriff", "outlaws", "renegade", "3p_deputy", "3p_outlaw", "3p_renegade"]

#: `default` of a `time_up`: the kind of the default action applied. Every kind of action
#: (docs/REPLAY.md), since any decision's default is one.
ActionKind = Literal[
    "play", "play_as_bang", "end_turn", "sid", "chuck", "jose", "barrel", "missed",
    "take_hit", "beer", "die", "discard_bang", "pick", "put_back", "give", "draw_deck",
    "draw_discard", "draw_player", "discard", "pass",
    "discard_in_play", "name_spades", "name_hearts", "name_diamonds", "name_clubs",
    "new_identity", "keep",
]


def codes(kind: object) -> frozenset[str]:
    """The values of a Literal type (nested ones flattened)."""
    found: set[str] = set()
    for arg in get_args(kind):
        if isinstance(arg, str):
            found.add(arg)
        else:
            found |= codes(arg)
    return frozenset(found)


EVENT_KINDS: Final = codes(EventKind)
#: The code fields of an Event and every code each may take.
VOCABULARIES: Final[Mapping[str, frozenset[str]]] = {
    "how": codes(PlayHow),
    "source": codes(DrawSource),
    "purpose": codes(FlipPurpose),
    "zone": codes(Zone),
    "reason": codes(Reason),
    "role": codes(Role),
    "side": codes(Side),
    "default": codes(ActionKind),
    "event_card": codes(EventCardKey),
    "suit": codes(Suit),
    "character": codes(CharacterKey),
}
#: The codes that are character keys (written as the character's name in every language).
CHARACTER_CODES: Final = frozenset(
    code for vocabulary in VOCABULARIES.values() for code in vocabulary if code in CHARACTERS)


@dataclass(frozen=True)
class KindSpec:
    """What an event of one kind carries: `plain` fields (seats, cards, numbers) it may have,
    and its code fields with the codes each may take; those in `required` are always set."""

    plain: frozenset[str] = frozenset()
    codes: Mapping[str, frozenset[str]] = field(default_factory=dict)
    required: frozenset[str] = frozenset()


def _spec(plain: str = "", required: Mapping[str, object] | None = None,
          optional: Mapping[str, object] | None = None) -> KindSpec:
    required = required or {}
    optional = optional or {}
    return KindSpec(
        plain=frozenset(plain.split()),
        codes={name: codes(kind) for name, kind in {**required, **optional}.items()},
        required=frozenset(required),
    )


_CARDS = "cards count private_to"
#: Per kind, the fields it may carry (docs/PROTOCOL.md and docs/REPLAY.md list the same).
SPECS: Final[Mapping[str, KindSpec]] = {
    "game_start": _spec("count"),
    "turn_start": _spec("seat value"),
    # value: the hand's size, count: the life points, when the discard phase is over.
    "turn_end": _spec("seat value count", required={"reason": TurnEndReason}),
    "draw": _spec(f"seat {_CARDS}", optional={"source": DrawSource}),
    "reshuffle": _spec("count"),
    # No card: there was no card left to flip.
    "flip": _spec("seat card", required={"purpose": FlipPurpose}),
    "reveal": _spec("seat card"),  # Black Jack shows his second card
    "draw_discard": _spec("seat card"),
    # value: the card in play picked by a Panic! or a Cat Balou.
    "play": _spec("seat card target value", optional={"how": PlayHow}),
    "equip": _spec("seat card target"),
    "discard": _spec("seat card", optional={"reason": DiscardReason}),
    "missed": _spec("seat target"),
    "barrel_saves": _spec("seat card"),
    "barrel_fails": _spec("seat card"),
    "hit": _spec("seat target count value"),
    "heal": _spec("seat count value"),
    "survives": _spec("seat value"),
    "eliminated": _spec("seat target", required={"role": Role}),
    "vulture": _spec(f"seat target {_CARDS}"),
    "discard_all": _spec(f"seat {_CARDS}"),
    "penalty": _spec(f"seat {_CARDS}"),
    "game_over": _spec("count", required={"side": Side}),
    "dynamite_explodes": _spec("seat card"),
    "dynamite_passes": _spec("seat target card"),
    "jail_escape": _spec("seat card"),
    "jail_stays": _spec("seat card"),
    "store_open": _spec(f"seat {_CARDS}"),
    "store_pick": _spec("seat card"),
    "lucky_pick": _spec("seat card", required={"purpose": FlipPurpose}),
    "kit_look": _spec(f"seat {_CARDS}"),
    "kit_keep": _spec(f"seat {_CARDS}"),
    "give": _spec(f"seat target {_CARDS}"),
    "steal": _spec(f"seat target {_CARDS}", required={"zone": Zone}),
    "forced_discard": _spec("seat target card", required={"zone": Zone}),
    "fizzle": _spec("seat target"),
    "henry_block": _spec("seat target"),
    "sid": _spec(f"seat {_CARDS}"),
    "chuck": _spec("seat value"),
    "jose": _spec("seat card"),
    # High Noon: a card comes into play at the start of a round (`count`: cards left under it).
    "event_flip": _spec("seat count", required={"event_card": EventCardKey}),
    # High Noon: what the active card did to `seat` now (High Noon's life point: a `hit` follows).
    "event_effect": _spec("seat", required={"event_card": EventCardKey}),
    "ghost_returns": _spec("seat"),  # Ghost Town: an eliminated player's turn, as a ghost
    "ghost_leaves": _spec("seat"),  # ... and its end: eliminated again (a discard_all may follow)
    "suit_named": _spec("seat", required={"suit": Suit}),  # Handcuffs
    "new_identity": _spec("seat value", required={"character": CharacterKey}),  # value: life
    "time_up": _spec("seat", required={"default": ActionKind}),
    "game_stopped": _spec(),
}

_ROLES: Final = codes(Role)
_SIDES: Final = codes(Side)
_ACTION_KINDS: Final = codes(ActionKind)


def _unknown(value: str, known: frozenset[str]) -> ValueError:
    return ValueError(f"{value!r} is not one of {sorted(known)}")


def role_code(role: str) -> Role:
    """A player's role as the `role` of an event (ValueError for an unknown one)."""
    if role not in _ROLES:
        raise _unknown(role, _ROLES)
    return cast(Role, role)


def side_code(side: str) -> Side:
    """A winning side as the `side` of an event (ValueError for an unknown one)."""
    if side not in _SIDES:
        raise _unknown(side, _SIDES)
    return cast(Side, side)


def action_code(kind: str) -> ActionKind:
    """An action's kind as the `default` of a `time_up` (ValueError for an unknown one)."""
    if kind not in _ACTION_KINDS:
        raise _unknown(kind, _ACTION_KINDS)
    return cast(ActionKind, kind)
