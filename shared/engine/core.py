"""The engine's machinery: the resolution loop, card movement, damage and elimination.

The state holds a stack of frames; the top frame is resolved until it needs a decision from a
seat. `Engine.run()` advances automatic work and stores the next decision in `state.pending`.
"""

from __future__ import annotations

from typing import TypedDict, Unpack

import msgspec

from shared import rng
from shared.cards import KEY
from shared.engine.abilities import Ability, ability_of
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
    role_code,
    side_code,
)
from shared.high_noon.cards import EventCardKey
from shared.model import (
    FLIP_NOTHING,
    Action,
    Decision,
    DyingFrame,
    Event,
    Frame,
    GameState,
    Player,
    ShotFrame,
    TurnFrame,
)
from shared.roles import (
    DEPUTY,
    OUTLAW,
    RENEGADE,
    SHERIFF,
    SIDE_3P,
    SIDE_OUTLAWS,
    SIDE_RENEGADE,
    SIDE_SHERIFF,
    TARGET_3P,
)
from shared.rulebook import ability, rulebook, suit_of


class EventFields(TypedDict, total=False):
    """The fields of an Event besides its kind (see shared.model.Event)."""

    seat: int | None
    target: int | None
    card: int | None
    cards: tuple[int, ...]
    count: int
    private_to: tuple[int, ...]
    value: int | None
    how: PlayHow | None
    source: DrawSource | None
    purpose: FlipPurpose | None
    zone: Zone | None
    reason: Reason | None
    role: Role | None
    side: Side | None
    default: ActionKind | None
    event_card: EventCardKey | None
    suit: Suit | None
    character: CharacterKey | None


class DecisionContext(TypedDict, total=False):
    """The optional fields of a Decision (see shared.model.Decision)."""

    source: int | None
    card: int | None
    needed: int
    shown: tuple[int, ...]
    private: tuple[int, ...]


class EngineCore:
    def __init__(self, state: GameState) -> None:
        self.s = state
        self.events: list[Event] = []

    # --- events and decisions -----------------------------------------------------------

    def emit(self, kind: EventKind, **fields: Unpack[EventFields]) -> None:
        self.events.append(Event(kind, **fields))

    def ask(self, seat: int, kind: str, options: list[Action], default: Action | None = None,
            **context: Unpack[DecisionContext]) -> Decision:
        """Every decision (its default: the last option unless given), with the actions of
        an ability usable at any moment after its own options (Sid Ketchum's, seed 000:
        whenever he holds a decision)."""
        if default is None:
            default = options[-1]
        extra = self.ability(seat).any_time(self.s, seat)
        return Decision(self.s.actions, seat, kind, tuple([*options, *extra] if extra else options),
                        default, **context)

    def player(self, seat: int) -> Player:
        return self.s.players[seat]

    def ability(self, seat: int) -> Ability:
        """What `seat`'s character's ability does at the moments it acts (the plain rule
        when it has none, or it does not work now)."""
        return ability_of(self.s, seat)

    # --- cards ---------------------------------------------------------------------------

    def draw_card(self) -> int | None:
        """Take the top card of the deck, reshuffling the discard pile when the deck is empty."""
        s = self.s
        if not s.deck:
            if not s.discard:
                return None
            s.deck, s.discard = s.discard, []
            s.rng = rng.shuffle(s.rng, s.deck)
            self.emit("reshuffle", count=len(s.deck))
        return s.deck.pop()

    def draw_to_hand(self, seat: int, n: int, source: DrawSource | None = None) -> list[int]:
        hand = self.s.players[seat].hand
        got = []
        for _ in range(n):
            card = self.draw_card()
            if card is None:
                break
            hand.append(card)
            got.append(card)
        if got:
            self.emit("draw", seat=seat, cards=tuple(got), count=len(got), private_to=(seat,),
                      source=source)
        return got

    def flip(self, seat: int, purpose: FlipPurpose) -> int:
        """'Draw!': turn the top card onto the discard pile (a flip event without a card: there
        was no card left anywhere)."""
        card = self.draw_card()
        if card is None:
            self.emit("flip", seat=seat, purpose=purpose)
            return FLIP_NOTHING
        self.s.discard.append(card)
        self.emit("flip", seat=seat, card=card, purpose=purpose)
        return card

    def draw_check(self, frame: TurnFrame | ShotFrame, seat: int,
                   purpose: FlipPurpose) -> int | None:
        """The card a "draw!" shows, or None while Lucky Duke is choosing between two.

        The chosen card comes back through `frame.drawn`."""
        if frame.drawn is not None:
            card, frame.drawn = frame.drawn, None
            return card
        return self.ability(seat).flip_for(self, seat, purpose)

    def random_hand_card(self, seat: int) -> int:
        hand = self.s.players[seat].hand
        self.s.rng, index = rng.below(self.s.rng, len(hand))
        return hand[index]

    def discard_from_hand(self, seat: int, card: int) -> None:
        self.s.players[seat].hand.remove(card)
        self.s.discard.append(card)

    def discard_from_play(self, seat: int, card: int) -> None:
        self.s.players[seat].in_play.remove(card)
        self.s.discard.append(card)

    def empty_hands(self) -> None:
        """Abilities that act on an empty hand (Suzy Lafayette's), checked before every step."""
        for p in self.s.players:
            if not p.hand and p.alive:
                self.ability(p.seat).hand_emptied(self, p.seat)

    # --- phase 1 -------------------------------------------------------------------------

    def draw_done(self, frame: TurnFrame) -> None:
        """Phase 1's own draw is over: the extra cards (`Rulebook.draw_extra`), what ends the
        phase (`Rulebook.draw_phase_over`), then the play phase."""
        book = rulebook(self.s)
        frame.step = "draw_extra" if book.draw_extra(self.s, frame.seat) else "play"
        book.draw_phase_over(self, frame.seat)

    # --- life ----------------------------------------------------------------------------

    def heal(self, seat: int, amount: int = 1) -> None:
        p = self.s.players[seat]
        gained = min(rulebook(self.s).heal_amount(self.s, seat, amount), p.max_life - p.life)
        if gained > 0:
            p.life += gained
            self.emit("heal", seat=seat, value=p.life, count=gained)

    def damage(self, seat: int, amount: int, killer: int | None, card_player: int | None) -> None:
        """`seat` loses `amount` life. `killer` caused it (None for Dynamite); `card_player`
        played the card that caused it (El Gringo draws from that player's hand)."""
        p = self.s.players[seat]
        if not rulebook(self.s).can_lose_life(self.s, seat):
            return
        self.lose_life(seat, amount, Event(kind="hit", seat=seat, target=killer, count=amount))
        self.ability(seat).hit(self, seat, amount, card_player)
        if p.life <= 0:
            self.s.stack.append(DyingFrame(seat, killer))

    def lose_life(self, seat: int, amount: int, shown: Event) -> None:
        """Every loss of life: `seat` loses `amount`, the event `shown` tells it (with the
        life left as its value), and the rulebook hears of it."""
        p = self.s.players[seat]
        p.life -= amount
        self.events.append(msgspec.structs.replace(shown, value=p.life))
        rulebook(self.s).life_lost(self, seat, amount)

    def beer_played(self) -> None:
        for p in self.s.players:
            if p.alive:
                self.ability(p.seat).beer_played(self, p.seat)

    # --- elimination and the end of the game --------------------------------------------

    def eliminate(self, seat: int, killer: int | None) -> None:
        s = self.s
        p = s.players[seat]
        p.alive = False
        self.emit("eliminated", seat=seat, target=killer, role=role_code(p.role))
        self.give_up_cards(seat)
        if self.check_game_over(seat, killer):
            return
        if killer is None or killer == seat or not s.players[killer].alive:
            return
        if s.three_player or p.role == OUTLAW:
            self.draw_to_hand(killer, 3, source="reward")
        elif p.role == DEPUTY and s.players[killer].role == SHERIFF:
            sheriff = s.players[killer]
            lost = sheriff.hand + sheriff.in_play
            sheriff.hand, sheriff.in_play = [], []
            s.discard.extend(lost)
            self.emit("penalty", seat=killer, cards=tuple(lost), count=len(lost))

    def give_up_cards(self, seat: int, to_vulture: bool = True) -> None:
        """Everything `seat` holds leaves it, its player being out: to the first living player
        whose ability takes such cards (Vulture Sam; nobody unless `to_vulture`), or onto
        the discard pile."""
        s = self.s
        p = s.players[seat]
        left = p.hand + p.in_play
        if not left:
            return
        p.hand, p.in_play = [], []
        if to_vulture:
            for q in s.players:
                if q.alive and self.ability(q.seat).inherit(self, q.seat, seat, left):
                    return
        s.discard.extend(left)
        self.emit("discard_all", seat=seat, cards=tuple(left), count=len(left))

    def check_game_over(self, dead: int, killer: int | None) -> bool:
        s = self.s
        alive = [p for p in s.players if p.alive]
        if s.three_player:
            if (killer is not None and s.players[killer].alive and not s.last_alive_goal
                    and TARGET_3P[s.players[killer].role] == s.players[dead].role):
                return self.end_game(SIDE_3P[s.players[killer].role], [killer])
            s.last_alive_goal = True
            if len(alive) == 1:
                return self.end_game(SIDE_3P[alive[0].role], [alive[0].seat])
            return False
        roles_alive = {p.role for p in alive}
        if SHERIFF not in roles_alive:
            if len(alive) == 1 and alive[0].role == RENEGADE:
                return self.end_game(SIDE_RENEGADE, [alive[0].seat])
            return self.end_game(SIDE_OUTLAWS, [p.seat for p in s.players if p.role == OUTLAW])
        if OUTLAW not in roles_alive and RENEGADE not in roles_alive:
            return self.end_game(
                SIDE_SHERIFF, [p.seat for p in s.players if p.role in (SHERIFF, DEPUTY)]
            )
        return False

    def end_game(self, side: str, winners: list[int]) -> bool:
        self.s.winner = side
        self.s.winners = winners
        self.s.stack = []
        self.emit("game_over", side=side_code(side), count=len(winners))
        return True

    # --- the loop ------------------------------------------------------------------------

    def step(self, frame: Frame) -> Decision | None:  # pragma: no cover - provided by the Engine
        raise NotImplementedError

    def run(self) -> None:
        """Advance automatic work until a seat must decide (or the game is over)."""
        s = self.s
        while s.winner is None:
            self.empty_hands()
            decision = self.step(s.stack[-1])
            if decision is not None:
                s.pending = decision
                return
        s.pending = None

    def next_turn(self, after: int) -> None:
        """End the turn of `after`: the next player (by the rulebook) starts, once whatever
        the end of a turn brings (`Rulebook.turn_ended`) has resolved."""
        book = rulebook(self.s)
        self.s.stack = [TurnFrame(book.next_turn(self.s, after))]
        book.turn_ended(self, after)


def is_immune(state: GameState, target: int, card: int, player: int) -> bool:
    """Whether `card`, played by `player`, has no effect on `target`: a card of the suit
    their ability ignores (Apache Kid: Diamonds) played by someone else; a Duel is handled
    apart."""
    suit = ability(state, target).immune_to
    return (
        suit is not None
        and target != player
        and suit_of(state, card) == suit
        and KEY[card] != "duel"
    )
