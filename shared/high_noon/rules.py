"""High Noon's rules: the state it adds to a game and the rulebook that plays the event cards
(../shared/HIGH_NOON.md). Everything here is a hook of `shared.rulebook.Rulebook`; the base
engine knows nothing of events."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, ClassVar, cast

import msgspec

from shared.cards import KEY, SUIT
from shared.characters import CHARACTERS
from shared.event_kinds import CharacterKey, Suit
from shared.high_noon.cards import EVENT_CARDS, FINAL, EventCardKey
from shared.model import Action, Decision, EventFrame, GameState
from shared.roles import SHERIFF, SIDE_3P
from shared.rulebook import Rulebook
from shared.rules import next_alive, seats_from
from shared.setup import HighNoonOptions

if TYPE_CHECKING:
    from shared.engine.core import EngineCore
    from shared.engine.machine import Engine

#: The suits Handcuffs may name, in the order they are offered (and break ties).
SUITS: tuple[Suit, ...] = ("spades", "hearts", "diamonds", "clubs")
NAME_SUIT = {suit: Action(f"name_{suit}") for suit in SUITS}
SWITCH = Action("new_identity")
KEEP_IDENTITY = Action("pass")


class HighNoonState(GameState):
    """A game with the event cards. `event_deck`: the cards still to come, the next first
    (High Noon last); `event_active`: the card in play (None in the first round);
    `sheriff_turns`: turns the round leader has started; `ghost`: the eliminated seat playing
    a turn as a ghost (Ghost Town); `suit_named`: the suit the turn player named (Handcuffs);
    `other_character`: each seat's second character (New Identity), "" when it has none."""

    RULEBOOK: ClassVar[Rulebook]

    options: HighNoonOptions = msgspec.field(default_factory=HighNoonOptions)
    event_deck: list[str] = []
    event_active: str | None = None
    sheriff_turns: int = 0
    ghost: int | None = None
    suit_named: str | None = None
    other_character: list[str] = []


def _hn(state: GameState) -> HighNoonState:
    return cast(HighNoonState, state)


class HighNoonRules(Rulebook):
    """The base game's answers, changed by the event card in play."""

    def has_ability(self, state: GameState, seat: int, character: str) -> bool:
        if _hn(state).event_active == "hangover":  # every character is a plain one
            return (_hn(state).options.hangover_keeps_drawbacks and character == "big_spencer"
                    and super().has_ability(state, seat, character))
        return super().has_ability(state, seat, character)

    def suit_of(self, state: GameState, card: int, draw: bool = False) -> str:
        s = _hn(state)
        active = s.event_active
        if s.options.suits_in_draws_only and not draw:
            return SUIT[card]
        if active == "blessing":
            return "hearts"
        if active == "curse":
            return "spades"
        return SUIT[card]

    def draw_count(self, state: GameState, seat: int) -> int:
        s = _hn(state)
        count = super().draw_count(state, seat)
        if s.ghost == seat:  # 3 instead of 2 (by default Pixie Pete's 3 already are)
            return count + 1 if s.options.ghost_draw_plus_one else max(count, 3)
        if s.event_active == "thirst":
            return 1 if s.options.thirst_draws_one else count - 1
        return count

    def draw_extra(self, state: GameState, seat: int) -> int:
        return 1 if _hn(state).event_active == "train_arrival" else 0

    def bang_limit(self, state: GameState, seat: int) -> int | None:
        limit = super().bang_limit(state, seat)
        if limit is not None and _hn(state).event_active == "shootout":
            return 2
        return limit

    def forbids(self, state: GameState, seat: int, card: int,
                as_key: str | None = None) -> str | None:
        s = _hn(state)
        used_as = as_key or KEY[card]
        if s.event_active == "the_reverend" and used_as == "beer":
            return "The Reverend: no Beer can be played this round"
        if seat != state.turn:
            return None
        if s.event_active == "the_sermon" and (used_as == "bang" or (
                s.options.sermon_blocks_bang_as_missed and KEY[card] == "bang")):
            return "The Sermon: no BANG! on your own turn this round"
        if s.suit_named is not None and SUIT[card] != s.suit_named:
            return f"Handcuffs: only {s.suit_named} this turn"
        return None

    def next_turn(self, state: GameState, seat: int) -> int:
        active = _hn(state).event_active
        if active == "ghost_town":  # the eliminated come back at their turn
            return (seat + 1) % len(state.players)
        if active == "gold_rush":  # counter-clockwise for the round
            return next_alive(state, seat, step=-1)
        return super().next_turn(state, seat)

    # --- the round and the turn --------------------------------------------------------

    def round_started(self, engine: EngineCore, seat: int) -> None:
        """From the round leader's second turn on, the next event card comes into play."""
        s = _hn(engine.s)
        s.sheriff_turns += 1
        if s.sheriff_turns < 2 or s.event_active == FINAL or not s.event_deck:
            return
        card = cast(EventCardKey, s.event_deck.pop(0))
        s.event_active = card
        engine.emit("event_flip", seat=seat, event_card=card, count=len(s.event_deck))
        if card == "the_daltons":
            order = [q for q in seats_from(s, seat) if s.players[q].in_play]
            if order:
                s.stack.append(EventFrame("daltons", order))
        elif card == "the_doctor":
            self._doctor(engine)

    def _doctor(self, engine: EngineCore) -> None:
        s = _hn(engine.s)
        living = [p for p in s.players if p.alive]
        if s.options.doctor_heals_wounded:
            living = [p for p in living if p.life < p.max_life]
        if not living:
            return
        fewest = min(p.life for p in living)
        for p in living:
            if p.life == fewest:
                engine.heal(p.seat)

    def turn_started(self, engine: EngineCore, seat: int) -> None:
        s = _hn(engine.s)
        s.suit_named = None
        if s.event_active == FINAL:
            engine.emit("event_effect", seat=seat, event_card=FINAL)
            engine.damage(seat, 1, killer=None, card_player=None)
        elif s.event_active == "new_identity" and s.other_character[seat]:
            s.stack.append(EventFrame("new_identity", [seat]))

    def draw_phase_over(self, engine: EngineCore, seat: int) -> None:
        if _hn(engine.s).event_active == "handcuffs":
            engine.s.stack.append(EventFrame("name_suit", [seat]))

    def turn_ended(self, engine: EngineCore, seat: int) -> None:
        s = _hn(engine.s)
        s.suit_named = None
        if s.ghost == seat:
            self._ghost_leaves(engine, seat)

    # --- Ghost Town ----------------------------------------------------------------------

    def dead_turn(self, engine: EngineCore, seat: int) -> bool:
        s = _hn(engine.s)
        if s.event_active != "ghost_town" or s.winner is not None:
            return False
        p = s.players[seat]
        p.alive, p.life, s.ghost = True, 0, seat
        engine.emit("ghost_returns", seat=seat)
        return True

    def _ghost_leaves(self, engine: EngineCore, seat: int) -> None:
        """The ghost is eliminated again: not a kill (no reward, no penalty); its cards go to
        the discard pile (or, by option, to Vulture Sam)."""
        s = _hn(engine.s)
        p = s.players[seat]
        p.alive, s.ghost = False, None
        engine.emit("ghost_leaves", seat=seat)
        engine.give_up_cards(seat, to_vulture=s.options.ghost_cards_to_vulture)
        alive = [q for q in s.players if q.alive]
        if s.three_player:  # the ghost may have left a single survivor
            if len(alive) == 1:
                engine.end_game(SIDE_3P[alive[0].role], [alive[0].seat])
        else:
            engine.check_game_over(seat, None)

    def hand_limit(self, state: GameState, seat: int) -> int | None:
        # A ghost has no discard phase: everything goes at the end of its turn anyway.
        return None if _hn(state).ghost == seat else super().hand_limit(state, seat)

    def heal_amount(self, state: GameState, seat: int, amount: int) -> int:
        # A ghost's life stays at 0: it can neither die nor heal.
        return 0 if _hn(state).ghost == seat else amount

    def can_lose_life(self, state: GameState, seat: int) -> bool:
        return _hn(state).ghost != seat  # a ghost cannot die: nothing is lost

    def min_life(self, state: GameState, seat: int) -> int:
        return 0 if _hn(state).ghost == seat else 1

    # --- the decisions the events ask ------------------------------------------------------

    def step_frame(self, engine: EngineCore, frame: EventFrame) -> Decision | None:
        s = _hn(engine.s)
        game = cast("Engine", engine)
        if frame.kind == "daltons":
            while frame.seats:
                seat = frame.seats[0]
                p = s.players[seat]
                if p.alive and len(p.in_play) >= 2:
                    options = [Action("discard_in_play", pick=c) for c in p.in_play]
                    return game.ask(seat, "daltons_discard", options, options[0])
                frame.seats.pop(0)
                if p.alive and p.in_play:  # a single card goes without asking
                    self._daltons_discard(engine, seat, p.in_play[0])
            s.stack.pop()
            return None
        seat = frame.seats[0]
        if frame.kind == "new_identity":
            # Keeping comes first: a stray Enter on the first choice changes nothing.
            return game.ask(seat, "new_identity", [KEEP_IDENTITY, SWITCH], KEEP_IDENTITY)
        if frame.kind == "name_suit":
            held = Counter(SUIT[c] for c in s.players[seat].hand)
            most = max(SUITS, key=lambda suit: (held[suit], -SUITS.index(suit)))
            return game.ask(seat, "name_suit", list(NAME_SUIT.values()), NAME_SUIT[most])
        if frame.kind == "kit_keep":
            options = [Action("keep", pick=c) for c in frame.cards]
            return game.ask(seat, "kit_keep", options, options[0], private=tuple(frame.cards))
        raise AssertionError(f"unknown High Noon frame {frame.kind!r}")

    def resolve_frame(self, engine: EngineCore, frame: EventFrame, action: Action) -> None:
        s = _hn(engine.s)
        seat = frame.seats[0]
        if frame.kind == "daltons":
            assert action.pick is not None  # every option names a card in play
            frame.seats.pop(0)
            self._daltons_discard(engine, seat, action.pick)
            return
        s.stack.pop()
        if frame.kind == "new_identity":
            if action == SWITCH:
                self._switch(engine, seat)
        elif frame.kind == "name_suit":
            suit = next(suit for suit, named in NAME_SUIT.items() if named == action)
            s.suit_named = suit
            engine.emit("suit_named", seat=seat, suit=suit)
        else:  # kit_keep: the others go back in the order he drew them, the first on top
            assert action.pick is not None  # every keep option names its card
            s.players[seat].hand.append(action.pick)
            back = [c for c in frame.cards if c != action.pick]
            s.deck.extend(reversed(back))
            engine.emit("kit_keep", seat=seat, cards=(action.pick,), count=1,
                        private_to=(seat,))

    def _daltons_discard(self, engine: EngineCore, seat: int, card: int) -> None:
        engine.discard_from_play(seat, card)
        engine.emit("discard", seat=seat, card=card, reason="the_daltons")

    def _switch(self, engine: EngineCore, seat: int) -> None:
        """New Identity: the other character for the rest of the game, with 2 life points."""
        s = _hn(engine.s)
        p = s.players[seat]
        new = cast(CharacterKey, s.other_character[seat])
        s.other_character[seat] = ""
        p.character = new
        p.max_life = CHARACTERS[new].life + (p.role == SHERIFF)
        p.life = min(2, p.max_life)
        engine.emit("new_identity", seat=seat, character=new, value=p.life)

    # --- invariants ----------------------------------------------------------------------

    def problems(self, state: GameState) -> list[str]:
        s = _hn(state)
        found = []
        cards = s.event_deck + ([s.event_active] if s.event_active else [])
        unknown = [c for c in cards if c not in EVENT_CARDS]
        if unknown:
            found.append(f"unknown event cards {unknown}")
        if len(set(cards)) < len(cards):
            found.append("an event card is in two places")
        if s.event_deck and s.event_deck[-1] != FINAL:
            found.append("High Noon is not the last event card")
        if s.ghost is not None and (s.turn != s.ghost or not s.players[s.ghost].alive):
            found.append(f"seat {s.ghost} is a ghost outside its own turn")
        return found


HIGH_NOON_RULES = HighNoonRules()
HighNoonState.RULEBOOK = HIGH_NOON_RULES
