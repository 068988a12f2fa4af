"""Card references for people: "BANG! A♠", "barrel", "Missed! 10♣", "bang 4D", or an id."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from shared.cards import CARD_NAMES, CARD_NAMES_BY_LANG, CARDS, SUIT_SYMBOL
from shared.engine.errors import SetupError

_SUIT_LETTERS: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_LETTERS.update({symbol: suit for suit, symbol in SUIT_SYMBOL.items()})
_RANK_SUIT: Final = re.compile(r"^(10|[2-9JQKA])([♠♥♦♣SHDC])$", re.IGNORECASE)


def _simplify(text: str) -> str:
    """Letters and digits only, accents dropped: "Prisión" and "prision" are the same name."""
    plain = unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", plain)


_KEY_BY_NAME: Final[dict[str, str]] = {}
for _key in CARD_NAMES:
    for _name in (_key, *(names[_key] for names in CARD_NAMES_BY_LANG.values())):
        _KEY_BY_NAME[_simplify(_name)] = _key
_KEY_BY_NAME["carabine"] = "carabine"


def parse_ref(ref: str) -> tuple[str, str | None, str | None]:
    """Return (card key, suit or None, rank or None)."""
    text = ref.strip()
    suit = rank = None
    parts = text.rsplit(None, 1)
    if len(parts) == 2 and (m := _RANK_SUIT.match(parts[1])):
        text = parts[0]
        rank, suit = m.group(1).upper(), _SUIT_LETTERS[m.group(2).upper()]
    key = _KEY_BY_NAME.get(_simplify(text))
    if key is None:
        raise SetupError(f"unknown card {ref!r}: use a card name such as 'BANG! A♠' or 'barrel'")
    return key, suit, rank


def matches(card_id: int, ref: str | int) -> bool:
    if isinstance(ref, int):
        return card_id == ref
    key, suit, rank = parse_ref(ref)
    card = CARDS[card_id]
    return card.key == key and suit in (None, card.suit) and rank in (None, card.rank)


def resolve(ref: str | int, candidates: list[int] | range) -> int:
    """The first card among `candidates` that `ref` names."""
    if isinstance(ref, int) and not 0 <= ref < len(CARDS):
        raise SetupError(f"card id {ref} is out of range 0..{len(CARDS) - 1}")
    for card_id in candidates:
        if matches(card_id, ref):
            return card_id
    raise SetupError(f"no card {ref!r} is available there")
