"""A player's turn: Dynamite, Jail, the draw phase and the discard phase."""

from __future__ import annotations

from shared.cards import CARDS, KEY
from shared.engine.legality import END_TURN
from shared.engine.play import PlayMixin
from shared.model import FLIP_NOTHING, Action, Decision, GameState, TurnFrame
from shared.rulebook import rulebook, suit_of
from shared.rules import next_alive, round_leader


def dynamite_explodes(state: GameState, card: int) -> bool:
    return card != FLIP_NOTHING and suit_of(state, card, draw=True) == "spades" \
        and 2 <= CARDS[card].rank_value <= 9


def is_heart(state: GameState, card: int) -> bool:
    return card != FLIP_NOTHING and suit_of(state, card, draw=True) == "hearts"


class TurnMixin(PlayMixin):
    def step_turn(self, frame: TurnFrame) -> Decision | None:
        s = self.s
        seat = frame.seat
        p = s.players[seat]
        if not p.alive and not (frame.step == "start" and rulebook(s).dead_turn(self, seat)):
            self.next_turn(seat)
            return None
        step = frame.step
        if step == "play":  # phase 2, the step asked most often: first
            return self.ask(seat, "play", self.play_options(seat), END_TURN)
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
        # With no Dynamite (no Jail), the step goes straight on to the next in the same call:
        # nothing changed, so the loop would find nothing new in between.
        if step == "dynamite":
            dynamite = next((c for c in p.in_play if KEY[c] == "dynamite"), None)
            if dynamite is not None:
                self.check_dynamite(frame, dynamite)
                return None
            step = frame.step = "jail"
        if step == "jail":
            jail = next((c for c in p.in_play if KEY[c] == "jail"), None)
            if jail is not None:
                self.check_jail(frame, jail)
                return None
            step = frame.step = "youl"
        if step == "youl":  # before phase 1 (Youl Grinner's gifts)
            frame.step = "draw"
            self.ability(seat).before_draw(self, seat)
            return None
        if step == "draw":  # phase 1: the rulebook's number of cards, as the ability draws them
            return self.ability(seat).draw(self, frame, rulebook(s).draw_count(s, seat))
        if step == "draw_rest":  # Jesse Jones or Pedro Ramirez took the first card
            self.draw_to_hand(seat, rulebook(s).draw_count(s, seat) - 1)
            self.draw_done(frame)
            return None
        if step == "draw_extra":
            self.draw_to_hand(seat, rulebook(s).draw_extra(s, seat))
            frame.step = "play"
            return None
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

    def check_dynamite(self, frame: TurnFrame, dynamite: int) -> None:
        """The "draw!" for the Dynamite in front of the player: it explodes or passes on."""
        s = self.s
        seat = frame.seat
        card = self.draw_check(frame, seat, "dynamite")
        if card is None:
            return
        frame.step = "jail"
        if dynamite_explodes(s, card):
            self.discard_from_play(seat, dynamite)
            self.emit("dynamite_explodes", seat=seat, card=dynamite)
            self.damage(seat, 3, killer=None, card_player=None)
        else:
            s.players[seat].in_play.remove(dynamite)
            receiver = next_alive(s, seat)
            s.players[receiver].in_play.append(dynamite)
            self.emit("dynamite_passes", seat=seat, target=receiver, card=dynamite)

    def check_jail(self, frame: TurnFrame, jail: int) -> None:
        """The "draw!" for the Jail: a Heart escapes, anything else loses the turn."""
        seat = frame.seat
        card = self.draw_check(frame, seat, "jail")
        if card is None:
            return
        self.discard_from_play(seat, jail)
        if is_heart(self.s, card):
            self.emit("jail_escape", seat=seat, card=jail)
            frame.step = "youl"
        else:
            self.emit("jail_stays", seat=seat, card=jail)
            self.emit("turn_end", seat=seat, reason="skipped")
            self.next_turn(seat)

    def resolve_draw_source(self, frame: TurnFrame, action: Action) -> None:
        """Phase 1's first card: from the deck, or where the ability offered."""
        s = self.s
        seat = frame.seat
        if action.kind == "draw_deck":
            self.draw_to_hand(seat, rulebook(s).draw_count(s, seat))
            self.draw_done(frame)
        else:
            self.ability(seat).draw_from(self, frame, action)

    def resolve_turn(self, frame: TurnFrame, action: Action) -> None:
        if frame.step == "draw":
            self.resolve_draw_source(frame, action)
        elif frame.step == "discard":
            assert action.card is not None  # every discard option names its card
            self.discard_from_hand(frame.seat, action.card)
            self.emit("discard", seat=frame.seat, card=action.card)
        else:
            self.resolve_play(frame, action)
