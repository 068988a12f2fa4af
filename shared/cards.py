"""The 80-card deck as data: every physical card with its own id, name, suit and rank."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SUIT_SYMBOL: Final = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

#: Weapon reach by card name; the Colt .45 on every board has reach 1 and is never lost.
WEAPON_REACH: Final = {
    "volcanic": 1,
    "schofield": 2,
    "remington": 3,
    "carabine": 4,
    "winchester": 5,
}

BLUE: Final = frozenset(
    {"barrel", "dynamite", "jail", "mustang", "scope", *WEAPON_REACH}
)

#: English display names, by card key.
CARD_NAMES: Final = {
    "bang": "BANG!",
    "missed": "Missed!",
    "beer": "Beer",
    "saloon": "Saloon",
    "stagecoach": "Stagecoach",
    "wells_fargo": "Wells Fargo",
    "general_store": "General Store",
    "panic": "Panic!",
    "cat_balou": "Cat Balou",
    "duel": "Duel",
    "gatling": "Gatling",
    "indians": "Indians!",
    "barrel": "Barrel",
    "dynamite": "Dynamite",
    "jail": "Jail",
    "mustang": "Mustang",
    "scope": "Scope",
    "volcanic": "Volcanic",
    "schofield": "Schofield",
    "remington": "Remington",
    "carabine": "Rev. Carabine",
    "winchester": "Winchester",
}

#: Display names by language code, then card key. Italian: the rulebook's own (seed 000).
CARD_NAMES_BY_LANG: Final[dict[str, dict[str, str]]] = {"en": CARD_NAMES}
CARD_NAMES_BY_LANG["it"] = {
    "bang": "BANG!",
    "missed": "Mancato!",
    "beer": "Birra",
    "saloon": "Saloon",
    "stagecoach": "Diligenza",
    "wells_fargo": "Wells Fargo",
    "general_store": "Emporio",
    "panic": "Panico!",
    "cat_balou": "Cat Balou",
    "duel": "Duello",
    "gatling": "Gatling",
    "indians": "Indiani!",
    "barrel": "Barile",
    "dynamite": "Dinamite",
    "jail": "Prigione",
    "mustang": "Mustang",
    "scope": "Mirino",
    "volcanic": "Volcanic",
    "schofield": "Schofield",
    "remington": "Remington",
    "carabine": "Rev. Carabine",
    "winchester": "Winchester",
}

#: Spanish names as the Spanish summary gives them (seed 004).
CARD_NAMES_BY_LANG["es"] = {
    "bang": "¡BANG!",
    "missed": "¡Rate!",
    "beer": "Cerveza",
    "saloon": "Taberna",
    "stagecoach": "Convoy",
    "wells_fargo": "Diligencia",
    "general_store": "Tienda",
    "panic": "Robo",
    "cat_balou": "Rayo",
    "duel": "Duelo",
    "gatling": "Gatling",
    "indians": "¡Indios!",
    "barrel": "Escondite",
    "dynamite": "Dinamita",
    "jail": "Prisión",
    "mustang": "Mustang",
    "scope": "Gafas",
    "volcanic": "Volcánica",
    "schofield": "Schofield",
    "remington": "Remington",
    "carabine": "Rev. Carabine",
    "winchester": "Winchester",
}

#: Hungarian names: the summary's (seed 003: Ne talált!, Sör, Börtön, Dinamit, Cat Balou,
#: Gatling), the others in plain Hungarian.
CARD_NAMES_BY_LANG["hu"] = {
    "bang": "BANG!",
    "missed": "Ne talált!",
    "beer": "Sör",
    "saloon": "Saloon",
    "stagecoach": "Postakocsi",
    "wells_fargo": "Wells Fargo",
    "general_store": "Szatócsbolt",
    "panic": "Pánik!",
    "cat_balou": "Cat Balou",
    "duel": "Párbaj",
    "gatling": "Gatling",
    "indians": "Indiánok!",
    "barrel": "Hordó",
    "dynamite": "Dinamit",
    "jail": "Börtön",
    "mustang": "Musztáng",
    "scope": "Távcső",
    "volcanic": "Volcanic",
    "schofield": "Schofield",
    "remington": "Remington",
    "carabine": "Rev. Carabine",
    "winchester": "Winchester",
}

# Suit and rank of every copy, exactly as printed on the cards of the 10th Anniversary box.
_DECK_SPEC: Final[dict[str, str]] = {
    "bang": "A♠ Q♥ K♥ A♥ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣",
    "missed": "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 10♣ J♣ Q♣ K♣ A♣",
    "beer": "6♥ 7♥ 8♥ 9♥ 10♥ J♥",
    "saloon": "5♥",
    "stagecoach": "9♠ 9♠",
    "wells_fargo": "3♥",
    "general_store": "Q♠ 9♣",
    "panic": "J♥ Q♥ A♥ 8♦",
    "cat_balou": "K♥ 9♦ 10♦ J♦",
    "duel": "J♠ Q♦ 8♣",
    "gatling": "10♥",
    "indians": "K♦ A♦",
    "barrel": "Q♠ K♠",
    "dynamite": "2♥",
    "jail": "10♠ J♠ 4♥",
    "mustang": "8♥ 9♥",
    "scope": "A♠",
    "volcanic": "10♠ 10♣",
    "schofield": "K♠ J♣ Q♣",
    "remington": "K♣",
    "carabine": "A♣",
    "winchester": "8♠",
}

_SUIT_BY_SYMBOL: Final = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. Suit and rank are not an identity (both Stagecoaches are 9♠)."""

    id: int
    key: str
    suit: str
    rank: str

    @property
    def name(self) -> str:
        return CARD_NAMES[self.key]

    @property
    def rank_value(self) -> int:
        """2..14 (J=11, Q=12, K=13, A=14)."""
        return RANKS.index(self.rank) + 2

    @property
    def label(self) -> str:
        """Name with suit and rank, e.g. 'BANG! A♠'."""
        return f"{self.name} {self.rank}{SUIT_SYMBOL[self.suit]}"


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for key, spec in _DECK_SPEC.items():
        for token in spec.split():
            rank, symbol = token[:-1], token[-1]
            cards.append(Card(len(cards), key, _SUIT_BY_SYMBOL[symbol], rank))
    return tuple(cards)


#: Every card, indexed by its id (0..79).
CARDS: Final[tuple[Card, ...]] = _build_deck()
DECK_SIZE: Final = len(CARDS)
ALL_CARD_IDS: Final[tuple[int, ...]] = tuple(range(DECK_SIZE))

# Plain per-id lookups for the engine's hot paths.
KEY: Final[tuple[str, ...]] = tuple(c.key for c in CARDS)
SUIT: Final[tuple[str, ...]] = tuple(c.suit for c in CARDS)

