"""The 26 characters as data: life points, which box they come from, their ability's text,
and the numbers and card uses their ability changes.

What an ability does at a moment of the game (a hit, an empty hand, phase 1, an action of its
own) is the character's `Ability` in shared/engine/abilities.py; the rules read the numbers
below through `shared.rulebook.ability(state, seat)`, which gives a seat whose ability does
not work now (High Noon's Hangover) the plain `NO_ABILITY`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shared.cards import CARD_NAMES

_MISSED: Final = frozenset({"missed"})
_BANG: Final = frozenset({"bang"})


@dataclass(frozen=True, slots=True)
class Character:
    """One character. The fields after `ability` are what the ability changes; their
    defaults are a character without one."""

    key: str
    name: str
    life: int
    base: bool
    ability: str
    #: cards drawn from the deck in phase 1 (`Rulebook.draw_count`)
    draws: int = 2
    #: BANG! cards allowed per turn, None for no limit (`Rulebook.bang_limit`)
    bangs: int | None = 1
    #: added to every distance at which others see this character (a Mustang's +1)
    cover: int = 0
    #: taken off every distance at which this character sees others (a Scope's -1)
    sight: int = 0
    #: Barrel "draw!"s against a BANG! besides a Barrel in play
    barrels: int = 0
    #: Missed! cards needed to cancel this character's BANG! cards
    shot_needs: int = 1
    #: cards in hand at the start; None: as many as the life points
    hand: int | None = None
    #: the cards this character may play as a Missed!
    missed_with: frozenset[str] = _MISSED
    #: the cards this character may discard as a BANG! (in a Duel, against Indians!)
    bang_with: frozenset[str] = _BANG
    #: other cards this character may play as a BANG! on their turn
    plays_as_bang: frozenset[str] = frozenset()
    #: the suit of other players' cards that have no effect on this character (not a Duel)
    immune_to: str | None = None


#: The ability of a character without one, or whose ability does not work now.
NO_ABILITY: Final = Character("", "", 0, True, "")


_CHARACTERS: Final = (
    Character("bart_cassidy", "Bart Cassidy", 4, True,
              "Each time he loses a life point, he draws a card from the deck."),
    Character("black_jack", "Black Jack", 4, True,
              "In phase 1 he shows his second card: on Hearts or Diamonds he draws one more."),
    Character("calamity_janet", "Calamity Janet", 4, True,
              "Uses BANG! cards as Missed! and Missed! cards as BANG!.",
              missed_with=frozenset({"missed", "bang"}), bang_with=frozenset({"bang", "missed"}),
              plays_as_bang=_MISSED),
    Character("el_gringo", "El Gringo", 3, True,
              "Each time a card played by another player costs him a life point, he draws a "
              "random card from that player's hand."),
    Character("jesse_jones", "Jesse Jones", 4, True,
              "In phase 1 he may draw his first card at random from another player's hand."),
    Character("jourdonnais", "Jourdonnais", 4, True,
              "A permanent Barrel; with a real Barrel he may \"draw!\" twice.", barrels=1),
    Character("kit_carlson", "Kit Carlson", 4, True,
              "In phase 1 he looks at the top 3 cards, keeps 2 and puts the other back."),
    Character("lucky_duke", "Lucky Duke", 4, True,
              "Each time he must \"draw!\", he flips 2 cards and chooses the result."),
    Character("paul_regret", "Paul Regret", 3, True,
              "A permanent Mustang: others see him at distance +1.", cover=1),
    Character("pedro_ramirez", "Pedro Ramirez", 4, True,
              "In phase 1 he may draw his first card from the top of the discard pile."),
    Character("rose_doolan", "Rose Doolan", 4, True,
              "A permanent Scope: she sees others at distance -1.", sight=1),
    Character("sid_ketchum", "Sid Ketchum", 4, True,
              "At any time he may discard 2 cards to regain 1 life point."),
    Character("slab_the_killer", "Slab the Killer", 4, True,
              "His BANG! cards need 2 Missed! to cancel.", shot_needs=2),
    Character("suzy_lafayette", "Suzy Lafayette", 4, True,
              "As soon as she has no cards in hand, she draws one."),
    Character("vulture_sam", "Vulture Sam", 4, True,
              "Whenever a character is eliminated, he takes all of that player's cards."),
    Character("willy_the_kid", "Willy the Kid", 4, True,
              "He may play any number of BANG! cards per turn.", bangs=None),
    Character("apache_kid", "Apache Kid", 3, False,
              "Diamond cards played by other players have no effect on him (except in a Duel).",
              immune_to="diamonds"),
    Character("chuck_wengam", "Chuck Wengam", 4, False,
              "On his turn he may lose 1 life point to draw 2 cards, but not his last one."),
    Character("jose_delgado", "José Delgado", 4, False,
              "On his turn he may discard a blue card from his hand to draw 2 cards, twice per "
              "turn."),
    Character("pixie_pete", "Pixie Pete", 3, False,
              "In phase 1 he draws 3 cards instead of 2.", draws=3),
    Character("big_spencer", "Big Spencer", 9, False,
              "Starts with 5 cards in hand. He cannot play Missed!.", hand=5,
              missed_with=frozenset()),
    Character("youl_grinner", "Youl Grinner", 4, False,
              "Before he draws, each player with more cards in hand gives him one of their "
              "choice."),
    Character("madam_yto", "Madam Yto", 4, False,
              "Whenever a Beer is played, by anyone, she draws a card."),
    Character("colorado_bill", "Colorado Bill", 4, False,
              "Each time he plays a BANG! card he \"draws!\": on Spades it cannot be avoided."),
    Character("henry_block", "Henry Block", 4, False,
              "Whoever draws or discards one of his cards is first the target of a BANG!."),
    Character("annie_versary", "Annie Versary", 4, False,
              "She may play any card as a BANG! card.",
              plays_as_bang=frozenset(CARD_NAMES) - _BANG),
)

CHARACTERS: Final[dict[str, Character]] = {c.key: c for c in _CHARACTERS}
BASE_CHARACTERS: Final[tuple[str, ...]] = tuple(c.key for c in _CHARACTERS if c.base)
ALL_CHARACTERS: Final[tuple[str, ...]] = tuple(c.key for c in _CHARACTERS)
CHARACTER_POOLS: Final[dict[str, tuple[str, ...]]] = {
    "base": BASE_CHARACTERS, "all": ALL_CHARACTERS}
