"""The High Noon event cards, as data: keys, names and texts (English; the client's catalogs
hold the other languages). Texts follow the cards (../shared/HIGH_NOON.md, section 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

#: Every event card, by key: the 12 events, the final card and the 2 bonus cards.
EventCardKey = Literal[
    "blessing", "curse", "ghost_town", "gold_rush", "hangover", "shootout", "the_daltons",
    "the_doctor", "the_reverend", "the_sermon", "thirst", "train_arrival", "high_noon",
    "handcuffs", "new_identity",
]


@dataclass(frozen=True, slots=True)
class EventCard:
    key: EventCardKey
    name: str
    text: str
    bonus: bool = False  # in the deck only with the option `high_noon_bonus`


_CARDS = (
    EventCard("blessing", "Blessing", "The suit of all cards is Hearts for the whole round."),
    EventCard("curse", "Curse", "The suit of all cards is Spades for the whole round."),
    EventCard("ghost_town", "Ghost Town",
              "During their turns, eliminated players return to the game as ghosts. They draw "
              "3 cards instead of 2, and cannot die. At the end of their turn, they are "
              "eliminated again."),
    EventCard("gold_rush", "Gold Rush",
              "The game proceeds counter-clockwise for one whole round, always starting with "
              "the Sheriff. All card effects proceed clockwise."),
    EventCard("hangover", "Hangover",
              "All characters lose their special abilities for the whole round."),
    EventCard("shootout", "Shootout",
              "Each player can play a second BANG! card during his turn."),
    EventCard("the_daltons", "The Daltons",
              "When The Daltons enters play, each player who has any cards in front of him "
              "chooses one of them and discards it."),
    EventCard("the_doctor", "The Doctor",
              "When The Doctor enters play, the player(s) still in the game with the fewest "
              "life points regain 1 life point."),
    EventCard("the_reverend", "The Reverend",
              "Players cannot play any Beer cards for the whole round."),
    EventCard("the_sermon", "The Sermon",
              "Each player cannot use BANG! cards during his turn."),
    EventCard("thirst", "Thirst",
              "Each player only draws his first card, not the second one, during phase 1 of "
              "his turn."),
    EventCard("train_arrival", "Train Arrival",
              "Each player draws one extra card at the end of phase 1 of his turn."),
    EventCard("high_noon", "High Noon",
              "Each player loses 1 life point at the start of his turn."),
    EventCard("handcuffs", "Handcuffs",
              "After drawing his cards in phase 1, the player whose turn it is names a suit: "
              "he can only play cards of that suit during his turn.", bonus=True),
    EventCard("new_identity", "New Identity",
              "At the beginning of his turn, each player may switch to his other character "
              "for the rest of the game, starting with 2 life points.", bonus=True),
)

EVENT_CARDS: Final = {card.key: card for card in _CARDS}
EVENT_KEYS: Final[tuple[EventCardKey, ...]] = get_args(EventCardKey)
#: The final card: always the last of the event deck, never covered.
FINAL: Final = "high_noon"
#: The 12 events of the box, then the 2 bonus cards.
EVENTS: Final = tuple(c.key for c in _CARDS if c.key != FINAL and not c.bonus)
BONUS: Final = tuple(c.key for c in _CARDS if c.bonus)
