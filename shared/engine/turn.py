"""A player's turn: Dynamite, Jail, Youl Grinner, the draw phase and the discard phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared.cards import CARDS, KEY
from shared.engine.core import FLIP_NOTHING, EngineCore
from shared.model import (
    Action,
    Decision,
    EventFrame,
    GameState,
    KitFrame,
    MoveFrame,
    TurnFrame,
    YoulFrame,
)
from shared.rulebook import has_ability, rulebook, suit_of
from shared.rules import next_alive, round_leader, seats_from

DRAW_DECK = Action("draw_deck")


def dynamite_explodes(state: GameState, card: int) -> bool:
    return card != FLIP_NOTHING and suit_of(state, card, draw=True) == "spades" \
        and 2 <= CARDS[card].rank_value <= 9


def is_heart(state: GameState, card: int) -> bool:
    return card != FLIP_NOTHING and suit_of(state, card, draw=True) == "hearts"


class TurnMixin(EngineCore):
    if TYPE_CHECKING:  # provided by PlayMixin (shared.engine.play)
        def play_options(self, seat: int) -> list[Action]: ...
        def resolve_play(self, frame: TurnFrame, action: Action) -> None: ...

    def step_turn(self, frame: TurnFrame) -> Decision | None:
        s = self.s
        seat = frame.seat
        p = s.players[seat]
        if not p.alive and not (frame.step == "start" and rulebook(s).dead_turn(self, seat)):
            self.next_turn(seat)
            return None
        step = frame.step
        if step == "start":
            s.turn = seat
            s.turn_number += 1
            s.bangs_played = 0
            s.jose_uses = 0
            self.emit("turn_start", seat=seat, value=s.turn_number)
            book = rulebook(s)
            if seat == round_leader(s):
                book.round_started(self, seat)
            book.turn_started(self, seat)
            frame.step = "dynamite"
            return None
        if step == "dynamite":
            dynamite = next((c for c in p.in_play if KEY[c] == "dynamite"), None)
            if dynamite is None:
                frame.step = "jail"
                return None
            card = self.draw_check(frame, seat, "dynamite")
            if card is None:
                return None
            frame.step = "jail"
            if dynamite_explodes(s, card):
                self.discard_from_play(seat, dynamite)
                self.emit("dynamite_explodes", seat=seat, card=dynamite)
                self.damage(seat, 3, killer=None, card_player=None)
            else:
                p.in_play.remove(dynamite)
                receiver = next_alive(s, seat)
                s.players[receiver].in_play.append(dynamite)
                self.emit("dynamite_passes", seat=seat, target=receiver, card=dynamite)
            return None
        if step == "jail":
            jail = next((c for c in p.in_play if KEY[c] == "jail"), None)
            if jail is None:
                frame.step = "youl"
                return None
            card = self.draw_check(frame, seat, "jail")
            if card is None:
                return None
            self.discard_from_play(seat, jail)
            if is_heart(s, card):
                self.emit("jail_escape", seat=seat, card=jail)
                frame.step = "youl"
            else:
                self.emit("jail_stays", seat=seat, card=jail)
                self.emit("turn_end", seat=seat, reason="skipped")
                self.next_turn(seat)
            return None
        if step == "youl":
            frame.step = "draw"
            if has_ability(s, seat, "youl_grinner"):
                richer = [q for q in seats_from(s, seat)[1:]
                          if len(s.players[q].hand) > len(p.hand)]
                for giver in reversed(richer):
                    s.stack.append(YoulFrame(giver, seat))
            return None
        if step == "draw":
            return self.draw_phase(frame)
        if step == "draw_rest":  # Jesse Jones or Pedro Ramirez took the first card
            self.draw_to_hand(seat, rulebook(s).draw_count(s, seat) - 1)
            self.draw_done(frame)
            return None
        if step == "draw_extra":
            self.draw_to_hand(seat, rulebook(s).draw_extra(s, seat))
            frame.step = "play"
            return None
        if step == "play":
            return self.ask(seat, "play", self.play_options(seat), Action("end_turn"))
        if step == "discard":
            limit = rulebook(s).hand_limit(s, seat)
            if limit is None or len(p.hand) <= limit:
                self.emit("turn_end", seat=seat, reason="discard", value=len(p.hand),
                          count=p.life)
                self.next_turn(seat)
                return None
            options = [Action("discard", card=c) for c in p.hand]
            return self.ask(seat, "discard", options, options[0])
        raise AssertionError(f"unknown turn step {step!r}")

    def draw_done(self, frame: TurnFrame) -> None:
        """Phase 1's own draw is over: the extra cards (`Rulebook.draw_extra`), what ends the
        phase (`Rulebook.draw_phase_over`), then the play phase."""
        book = rulebook(self.s)
        frame.step = "draw_extra" if book.draw_extra(self.s, frame.seat) else "play"
        book.draw_phase_over(self, frame.seat)

    def draw_phase(self, frame: TurnFrame) -> Decision | None:
        """Phase 1: the rulebook's number of cards (`draw_count`: 2), taken the way the
        character takes them."""
        s = self.s
        seat = frame.seat
        count = rulebook(s).draw_count(s, seat)
        if has_ability(s, seat, "jesse_jones"):
            victims = [q for q in seats_from(s, seat)[1:] if s.players[q].hand]
            if victims:
                options = [DRAW_DECK] + [Action("draw_player", target=q) for q in victims]
                return self.ask(seat, "draw_source", options, DRAW_DECK)
        elif has_ability(s, seat, "pedro_ramirez"):
            if s.discard:
                return self.ask(seat, "draw_source", [DRAW_DECK, Action("draw_discard")],
                                DRAW_DECK, card=s.discard[-1])
        elif has_ability(s, seat, "kit_carlson"):
            self.kit_draw(frame, count)
            return None
        elif has_ability(s, seat, "black_jack"):
            drawn = self.draw_to_hand(seat, count)
            if len(drawn) >= 2:
                second = drawn[1]
                self.emit("reveal", seat=seat, card=second)
                if suit_of(s, second) in ("hearts", "diamonds"):
                    self.draw_to_hand(seat, 1, source="black_jack")
            self.draw_done(frame)
            return None
        self.draw_to_hand(seat, count)
        self.draw_done(frame)
        return None

    def kit_draw(self, frame: TurnFrame, count: int) -> None:
        """Kit Carlson looks at one card more than he draws (at least 3) and keeps `count`:
        he puts one back (`KitFrame`), or with a single card to keep chooses it and the
        others go back in the order he drew them (`kit_keep`). When the extra cards of the
        phase would take all he looked at, he simply takes them."""
        s = self.s
        seat = frame.seat
        looked = []
        for _ in range(max(3, count + 1)):
            card = self.draw_card()
            if card is None:
                break
            looked.append(card)
        extra = rulebook(s).draw_extra(s, seat)
        if count + extra >= len(looked):  # nothing to choose: he takes them all
            if looked:
                s.players[seat].hand.extend(looked)
                self.emit("draw", seat=seat, cards=tuple(looked), count=len(looked),
                          private_to=(seat,))
            frame.step = "play"
            rulebook(s).draw_phase_over(self, seat)
            return
        self.draw_done(frame)
        self.emit("kit_look", seat=seat, cards=tuple(looked), count=len(looked),
                  private_to=(seat,))
        if count == len(looked) - 1:
            s.stack.append(KitFrame(seat, looked))
        else:
            s.stack.append(EventFrame("kit_keep", [seat], looked))

    def resolve_draw_source(self, frame: TurnFrame, action: Action) -> None:
        s = self.s
        seat = frame.seat
        if action.kind == "draw_deck":
            self.draw_to_hand(seat, rulebook(s).draw_count(s, seat))
            self.draw_done(frame)
        elif action.kind == "draw_discard":
            card = s.discard.pop()
            s.players[seat].hand.append(card)
            self.emit("draw_discard", seat=seat, card=card)
            frame.step = "draw_rest"
        else:  # draw_player: Jesse Jones takes a random card from that hand
            assert action.target is not None  # every draw_player option names its target
            frame.step = "draw_rest"
            s.stack.append(MoveFrame(seat, action.target, None, "steal"))

    def resolve_turn(self, frame: TurnFrame, action: Action) -> None:
        if frame.step == "draw":
            self.resolve_draw_source(frame, action)
        elif frame.step == "discard":
            assert action.card is not None  # every discard option names its card
            self.discard_from_hand(frame.seat, action.card)
            self.emit("discard", seat=frame.seat, card=action.card)
        else:
            self.resolve_play(frame, action)
