"""Events as readable log lines: "Rosa plays BANG! Q♥ on Carlo"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, Protocol

from shared.cards import CARDS
from shared.characters import CHARACTERS
from shared.event_kinds import CHARACTER_CODES
from shared.events import visible_to
from shared.high_noon.cards import EVENT_CARDS
from shared.model import Event
from shared.roles import ROLE_NAMES

ALL: Final = "all"  # a viewer who sees everything (replays, the host's own log)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class _Table(Protocol):
    """A game state or a view: anything with the players by seat."""

    @property
    def players(self) -> Sequence[_Named]: ...


def _label(card: int | None) -> str:
    return CARDS[card].label if card is not None and card >= 0 else "nothing"


def _cards(event: Event, viewer: int | None | Literal["all"]) -> str:
    if event.cards and (viewer == ALL or visible_to(event, viewer)):
        return ", ".join(_label(c) for c in event.cards)
    n = event.count
    return f"{n} card{'s' if n != 1 else ''}"


#: What a timed-out player was given, by the default action's kind (the `time_up` default).
_DEFAULT_CHOSEN = {"end_turn": "the turn ends", "take_hit": "takes the hit",
                   "die": "no Beer to save them", "draw_deck": "draws from the deck"}
#: Who won, by the side a `game_over` event names (shared.roles).
_WINNERS = {"sheriff": "the Sheriff and the Deputies win", "outlaws": "the Outlaws win",
            "renegade": "the Renegade wins", "3p_deputy": "the Deputy wins",
            "3p_outlaw": "the Outlaw wins", "3p_renegade": "the Renegade wins"}
#: How a card was played, when not as itself on its player's turn (a `play`'s `how`).
HOW = {"as_bang": "as BANG!", "as_missed": "as Missed!", "duel": "in the Duel",
       "indians": "against Indians!", "survive": "to survive"}
#: What a "draw!" is for (a `flip`'s and a `lucky_pick`'s `purpose`), but a character's.
PURPOSES = {"barrel": "Barrel", "dynamite": "Dynamite", "jail": "Jail"}
#: Why cards are drawn (a `draw`'s `source`), but a character's ability.
SOURCES = {"reward": "reward"}
#: Where a card was taken from (the `zone` of a `steal` or a `forced_discard`).
ZONES = {"hand": "hand", "in_play": "in play"}
#: Why a card is discarded outside the discard phase (a `discard`'s `reason`).
DISCARD_REASONS = {"replaced_weapon": "replaced weapon", "the_daltons": "The Daltons"}
#: A suit named with High Noon's Handcuffs (a `suit_named`'s `suit`).
SUITS = {"spades": "Spades", "hearts": "Hearts", "diamonds": "Diamonds", "clubs": "Clubs"}
#: High Noon's event cards by key (an `event_card`).
EVENT_NAMES: Final[dict[str, str]] = {key: card.name for key, card in EVENT_CARDS.items()}


def _word(code: str | None, words: dict[str, str]) -> str:
    """A code as its English word; a character's code as the character's name."""
    if code in CHARACTER_CODES:
        return CHARACTERS[code].name
    return words.get(code or "", "")


def describe(event: Event, table: _Table | Sequence[str],
             viewer: int | None | Literal["all"] = ALL) -> str:
    """One line for `event`. `table` is a state, a view, or the players' names by seat;
    `viewer` is the seat the line is for (None: a spectator, "all": everything shown)."""
    names = [p.name for p in table.players] if hasattr(table, "players") else list(table)

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None else "nobody"

    e = event
    k = e.kind
    seat, target = who(e.seat), who(e.target)
    card = _label(e.card)
    if k == "game_start":
        return f"A game for {e.count} players begins"
    if k == "turn_start":
        return f"— Turn {e.value}: {seat} —"
    if k == "turn_end":
        return f"{seat} ends the turn" + (" (in Jail)" if e.reason == "skipped" else "")
    if k == "draw":
        source = f" ({_word(e.source, SOURCES)})" if e.source else ""
        return f"{seat} draws {_cards(e, viewer)}{source}"
    if k == "reshuffle":
        return f"The discard pile is shuffled into a new deck ({e.count} cards)"
    if k == "flip":
        purpose = _word(e.purpose, PURPOSES) + (": no card left" if e.card is None else "")
        return f"{seat} draws! {card} for {purpose}"
    if k == "reveal":
        return f"{seat} shows the second card: {card}"
    if k == "draw_discard":
        return f"{seat} takes {card} from the discard pile"
    if k == "play":
        on = f" on {target}" if e.target is not None and e.target != e.seat else ""
        how = f" {_word(e.how, HOW)}" if e.how else ""
        return f"{seat} plays {card}{how}{on}"
    if k == "equip":
        where = f" in front of {target}" if e.target != e.seat else ""
        return f"{seat} puts {card} in play{where}"
    if k == "discard":
        return f"{seat} discards {card}" + (f" ({_word(e.reason, DISCARD_REASONS)})"
                                            if e.reason in DISCARD_REASONS else "")
    if k == "missed":
        return f"{seat} avoids the shot"
    if k == "barrel_saves":
        return f"{seat}'s Barrel works ({card})"
    if k == "barrel_fails":
        return f"{seat}'s Barrel fails ({card})"
    if k == "hit":
        by = f" (by {target})" if e.target is not None else ""
        by = " (own Duel)" if e.target is not None and e.target == e.seat else by
        return f"{seat} loses {e.count} life{by}: {e.value} left"
    if k == "heal":
        return f"{seat} regains {e.count} life: {e.value}"
    if k == "survives":
        return f"{seat} survives with {e.value} life"
    if k == "eliminated":
        by = f" by {target}" if e.target is not None and e.target != e.seat else ""
        return f"{seat} is eliminated{by}: was the {ROLE_NAMES.get(e.role or '', '')}"
    if k == "vulture":
        return f"{seat} (Vulture Sam) takes {_cards(e, viewer)} from {target}"
    if k == "discard_all":
        return f"{seat}'s cards are discarded: {_cards(e, ALL)}"
    if k == "penalty":
        return f"{seat} killed a Deputy and discards every card ({e.count})"
    if k == "game_over":
        return f"Game over: {_WINNERS.get(e.side or '', '')}"
    if k == "dynamite_explodes":
        return f"Dynamite explodes in front of {seat}!"
    if k == "dynamite_passes":
        return f"Dynamite passes from {seat} to {target}"
    if k == "jail_escape":
        return f"{seat} escapes from Jail"
    if k == "jail_stays":
        return f"{seat} stays in Jail and skips the turn"
    if k == "store_open":
        return f"General Store: {_cards(e, ALL)}"
    if k == "store_pick":
        return f"{seat} takes {card} from the General Store"
    if k == "lucky_pick":
        return f"{seat} (Lucky Duke) chooses {card} for {_word(e.purpose, PURPOSES)}"
    if k == "kit_look":
        return f"{seat} (Kit Carlson) looks at {_cards(e, viewer)}"
    if k == "kit_keep":
        return f"{seat} (Kit Carlson) keeps {_cards(e, viewer)}"
    if k == "give":
        return f"{seat} gives {_cards(e, viewer)} to {target} (Youl Grinner)"
    if k == "steal":
        return f"{seat} takes {_cards(e, viewer)} from {target} ({_word(e.zone, ZONES)})"
    if k == "forced_discard":
        return f"{seat} makes {target} discard {card} ({_word(e.zone, ZONES)})"
    if k == "fizzle":
        return f"{seat} finds nothing to take from {target}"
    if k == "henry_block":
        return f"{seat} (Henry Block) shoots at {target} first"
    if k == "sid":
        return f"{seat} (Sid Ketchum) discards {_cards(e, ALL)} to regain a life point"
    if k == "chuck":
        return f"{seat} (Chuck Wengam) gives up a life point for 2 cards: {e.value} left"
    if k == "jose":
        return f"{seat} (José Delgado) discards {card} for 2 cards"
    if k == "event_flip":
        return f"{seat} turns the event card {_word(e.event_card, EVENT_NAMES)} ({e.count} left)"
    if k == "event_effect":
        return f"{_word(e.event_card, EVENT_NAMES)} strikes {seat}"
    if k == "ghost_returns":
        return f"{seat} returns as a ghost (Ghost Town)"
    if k == "ghost_leaves":
        return f"{seat}'s ghost leaves the game again"
    if k == "suit_named":
        return f"{seat} names {_word(e.suit, SUITS)}: only cards of that suit this turn"
    if k == "new_identity":
        return f"{seat} takes a New Identity: {_word(e.character, {})}, with {e.value} life"
    if k == "time_up":
        chosen = _DEFAULT_CHOSEN.get(e.default or "", "the default is chosen")
        return f"Time ran out for {seat}: {chosen}"
    if k == "game_stopped":
        return "The game stopped: the rules engine failed on the last move. Nothing more can " \
            "be played at this table."
    return f"{k}: {seat} {target}"
