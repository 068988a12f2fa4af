"""The questions the rules keep asking, answered in one place: the seams an expansion plugs
into.

`Rulebook` gives the base game's answers. An expansion (or a test) subclasses it, overrides
the few hooks it changes, and makes a game use it through the state's type, the way a
python-chess variant is a board subclass:

    class HeartsState(GameState):
        RULEBOOK: ClassVar[Rulebook] = AllHearts()

The base game's `GameState` names no rulebook and gets `BASE`, so its records, states and
encodings stay exactly as they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from shared.cards import KEY, SUIT
from shared.characters import CHARACTERS, NO_ABILITY, Character
from shared.model import Action, Decision, EventFrame, GameState, Player

if TYPE_CHECKING:
    from shared.engine.core import EngineCore


#: `type(state) is _BASE_GAME`: the base game's state, asked for every distance. Held in a
#: Final so that compiled code reads it from a C static, not from the module's dict.
_BASE_GAME: Final = GameState
#: The card ids of the Volcanic (one set operation per question: asked for every BANG!).
_VOLCANIC: Final = frozenset(i for i, key in enumerate(KEY) if key == "volcanic")


# Expansions and tests subclass it in plain Python, also when this module is compiled.
@mypyc_attr(allow_interpreted_subclasses=True)
class Rulebook:
    """The base game. Every method takes the state, so that a hook may depend on it (an
    event card in play, say); the engine, the views and the explanations ask only here."""

    def has_ability(self, state: GameState, seat: int, character: str) -> bool:
        """Whether `seat` plays `character` and its ability works now. (The module's
        `has_ability` gives this answer itself for the base game's state, without the call.)"""
        return state.players[seat].character == character

    def suit_of(self, state: GameState, card: int, draw: bool = False) -> str:
        """The suit a card counts as: for "draw!"s (`draw`: Barrel, Jail, Dynamite, Colorado
        Bill), Apache Kid and Black Jack."""
        return SUIT[card]

    def draw_count(self, state: GameState, seat: int) -> int:
        """Cards drawn from the deck in phase 1 by a player without a drawing choice."""
        return ability(state, seat).draws

    def bang_limit(self, state: GameState, seat: int) -> int | None:
        """How many BANG! cards `seat` may play in a turn: one, or no limit (None) for Willy
        the Kid or with a Volcanic in play."""
        if not _VOLCANIC.isdisjoint(state.players[seat].in_play):
            return None
        return ability(state, seat).bangs

    def forbids(self, state: GameState, seat: int, card: int,
                as_key: str | None = None) -> str | None:
        """Why `seat` may not use a card from the hand now (None: it may), as a sentence a
        player reads: played on a turn, a Beer to survive, a Missed!, a BANG! discarded in a
        Duel or against Indians!. `as_key`: the card kind it is used as (Calamity Janet,
        Annie Versary), None for itself. Its own conditions (targets, reach) are checked
        where it is played."""
        return None

    def hand_limit(self, state: GameState, seat: int) -> int | None:
        """How many cards `seat` may keep at the end of the turn (None: no discard phase)."""
        return state.players[seat].life

    def draw_extra(self, state: GameState, seat: int) -> int:
        """Cards drawn at the end of phase 1, after the draw itself (none in the base game)."""
        return 0

    def draw_phase_over(self, engine: EngineCore, seat: int) -> None:
        """Anything that happens when `seat`'s phase 1 is over, before the cards are played
        (nothing in the base game). Frames it stacks resolve after a pending Kit Carlson
        choice and before the play phase."""

    def dead_turn(self, engine: EngineCore, seat: int) -> bool:
        """Whether an eliminated player whose seat the turn reaches plays that turn (never in
        the base game: `next_turn` skips them)."""
        return False

    def can_lose_life(self, state: GameState, seat: int) -> bool:
        """Whether a hit or any loss of life counts for `seat` (always, in the base game)."""
        return True

    def min_life(self, state: GameState, seat: int) -> int:
        """The fewest life points a living player outside a fatal hit may have (1)."""
        return 1

    def problems(self, state: GameState) -> list[str]:
        """Broken invariants of what an expansion adds to the state (shared.invariants)."""
        return []

    def step_frame(self, engine: EngineCore, frame: EventFrame) -> Decision | None:
        """Resolve an expansion's own frame (none in the base game)."""
        raise AssertionError(f"no rule resolves a {frame.kind!r} frame in this game")

    def resolve_frame(self, engine: EngineCore, frame: EventFrame, action: Action) -> None:
        """Apply the answer to the decision `step_frame` asked."""
        raise AssertionError(f"no rule resolves a {frame.kind!r} frame in this game")

    def turn_started(self, engine: EngineCore, seat: int) -> None:
        """Anything that happens at the very start of a turn, before Dynamite (nothing in
        the base game). Runs in the engine, so it may emit events, deal damage, draw."""

    def turn_ended(self, engine: EngineCore, seat: int) -> None:
        """Anything that happens when `seat`'s turn is over (nothing in the base game): after
        the discard phase, a turn lost in Jail, or its player's death during it. The next turn
        is already stacked, so what this does (damage, say) resolves before it starts."""

    def round_started(self, engine: EngineCore, seat: int) -> None:
        """Anything that happens when a round starts (nothing in the base game): at the start
        of the first living player's turn from the Sheriff (3 players: the Deputy), before
        `turn_started`; where High Noon would turn an event card."""

    def heal_amount(self, state: GameState, seat: int, amount: int) -> int:
        """How many life points `seat` regains from a heal of `amount` (a Beer, the Saloon,
        Sid Ketchum), before the cap at the maximum."""
        return amount

    def life_lost(self, engine: EngineCore, seat: int, amount: int) -> None:
        """Anything that happens when `seat` has just lost `amount` life (a hit, Dynamite or
        Chuck Wengam's ability), after the event that shows it and before a fatal hit is
        answered (nothing in the base game)."""

    def next_turn(self, state: GameState, seat: int) -> int:
        """Who plays after `seat`: the next living player clockwise. (Dynamite passes
        clockwise whatever the turn order: `shared.rules.next_alive`.)"""
        n = len(state.players)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if state.players[candidate].alive:
                return candidate
        return seat


#: The base game's rulebook.
BASE: Final = Rulebook()


def rulebook(state: GameState) -> Rulebook:
    """The rulebook of the game `state` belongs to."""
    kind = type(state)
    if kind is _BASE_GAME:  # the base game: asked for every distance, so no attribute lookup
        return BASE
    book: Rulebook = getattr(kind, "RULEBOOK", BASE)
    return book


def has_ability(state: GameState, seat: int, character: str) -> bool:
    if type(state) is _BASE_GAME:  # the base game's answer, without two calls: asked all the time
        return state.players[seat].character == character
    return rulebook(state).has_ability(state, seat, character)


def ability(state: GameState, seat: int) -> Character:
    """The character whose ability `seat` has now: the seat's own, or `NO_ABILITY` when its
    ability does not work (`Rulebook.has_ability`). The rules read what an ability changes
    (draws, distances, Missed! needed...) from here, never from the character's name."""
    return player_ability(state, state.players[seat])


def player_ability(state: GameState, player: Player) -> Character:
    """`ability(state, player.seat)`, for a caller that holds the player already."""
    key = player.character
    if type(state) is _BASE_GAME or rulebook(state).has_ability(state, player.seat, key):
        return CHARACTERS.get(key, NO_ABILITY)
    return NO_ABILITY


def suit_of(state: GameState, card: int, draw: bool = False) -> str:
    return rulebook(state).suit_of(state, card, draw)
