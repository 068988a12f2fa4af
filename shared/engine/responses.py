"""Everything decided out of turn, and the automatic steps between: shots, Barrels, Duels,
Indians!, fatal hits, General Store picks, card moves. (The decisions of a character's own, such
as Lucky Duke's pick, are its ability's: shared.engine.abilities.)"""

from __future__ import annotations

from typing import Final

from shared.cards import KEY
from shared.engine.legality import (
    BARREL,
    check_barrel,
    check_beer_to_survive,
    check_discard_bang,
    check_missed,
)
from shared.engine.turn import TurnMixin, is_heart
from shared.model import (
    Action,
    Decision,
    DuelFrame,
    DyingFrame,
    IndiansFrame,
    MoveFrame,
    ShotFrame,
    StoreFrame,
)

TAKE_HIT: Final = Action("take_hit")
DIE: Final = Action("die")


class ResponseMixin(TurnMixin):
    # --- a BANG! aimed at someone ------------------------------------------------------

    def step_shot(self, frame: ShotFrame) -> Decision | None:
        s = self.s
        target = frame.target
        if not s.players[target].alive:
            s.stack.pop()
            return None
        if frame.step == "barrel":
            card = self.draw_check(frame, target, "barrel")
            if card is None:
                return None
            frame.step = "ask"
            if is_heart(s, card):
                frame.needed -= 1
                self.emit("barrel_saves", seat=target, card=card)
                if frame.needed <= 0:
                    s.stack.pop()
                    self.emit("missed", seat=target, target=frame.source)
                    return None
            else:
                self.emit("barrel_fails", seat=target, card=card)
        options = [BARREL] if check_barrel(s, target, BARREL) is None else []
        missed = (Action("missed", card=c) for c in s.players[target].hand)
        options.extend(a for a in missed if check_missed(s, target, a) is None)
        options.append(TAKE_HIT)
        return self.ask(target, "respond_shot", options, TAKE_HIT, source=frame.source,
                        card=frame.card, needed=frame.needed)

    def resolve_shot(self, frame: ShotFrame, action: Action) -> None:
        s = self.s
        target = frame.target
        kind = action.kind
        if kind == "barrel":
            frame.barrels_used += 1
            frame.step = "barrel"
        elif kind == "missed":
            assert action.card is not None  # every Missed! option names its card
            self.discard_from_hand(target, action.card)
            self.emit("play", seat=target, card=action.card,
                      how=None if KEY[action.card] == "missed" else "as_missed")
            frame.needed -= 1
            if frame.needed <= 0:
                s.stack.pop()
                self.emit("missed", seat=target, target=frame.source)
        else:
            s.stack.pop()
            self.damage(target, 1, frame.source, frame.card_player)

    # --- a fatal hit ---------------------------------------------------------------------

    def step_dying(self, frame: DyingFrame) -> Decision | None:
        s = self.s
        p = s.players[frame.seat]
        if p.life > 0:
            s.stack.pop()
            self.emit("survives", seat=frame.seat, value=p.life)
            return None
        beers = (Action("beer", card=c) for c in p.hand if KEY[c] == "beer")
        options = [a for a in beers if check_beer_to_survive(s, frame.seat, a) is None]
        default = options[0] if options and options[0].kind == "beer" else DIE
        options.append(DIE)
        return self.ask(frame.seat, "dying", options, default, source=frame.killer,
                        needed=1 - p.life)

    def resolve_dying(self, frame: DyingFrame, action: Action) -> None:
        seat = frame.seat
        if action.kind == "beer":
            assert action.card is not None  # every Beer option names its card
            self.discard_from_hand(seat, action.card)
            self.emit("play", seat=seat, card=action.card, how="survive")
            self.heal(seat)
            self.beer_played()
        else:
            self.s.stack.pop()
            self.eliminate(seat, frame.killer)

    # --- Indians! and Duel ---------------------------------------------------------------

    def discard_bang_options(self, seat: int) -> list[Action]:
        discards = (Action("discard_bang", card=c) for c in self.s.players[seat].hand)
        options = [a for a in discards if check_discard_bang(self.s, seat, a) is None]
        options.append(TAKE_HIT)
        return options

    def step_indians(self, frame: IndiansFrame) -> Decision | None:
        if not self.s.players[frame.target].alive:
            self.s.stack.pop()
            return None
        return self.ask(frame.target, "respond_indians", self.discard_bang_options(frame.target),
                        TAKE_HIT, source=frame.source, card=frame.card)

    def resolve_indians(self, frame: IndiansFrame, action: Action) -> None:
        if action.kind == "discard_bang":
            assert action.card is not None  # every discard_bang option names its card
            self.s.stack.pop()
            self.discard_from_hand(frame.target, action.card)
            self.emit("play", seat=frame.target, card=action.card, how="indians")
        else:
            self.s.stack.pop()
            self.damage(frame.target, 1, frame.source, frame.source)

    def step_duel(self, frame: DuelFrame) -> Decision | None:
        s = self.s
        if not (s.players[frame.challenger].alive and s.players[frame.challenged].alive):
            s.stack.pop()
            return None
        other = frame.challenger if frame.current == frame.challenged else frame.challenged
        return self.ask(frame.current, "respond_duel", self.discard_bang_options(frame.current),
                        TAKE_HIT, source=other, card=frame.card)

    def resolve_duel(self, frame: DuelFrame, action: Action) -> None:
        current = frame.current
        other = frame.challenger if current == frame.challenged else frame.challenged
        if action.kind == "discard_bang":
            assert action.card is not None  # every discard_bang option names its card
            self.discard_from_hand(current, action.card)
            self.emit("play", seat=current, card=action.card, target=other, how="duel")
            frame.current = other
        else:
            # The player who played the Duel caused the damage, even his own (the bounty, the
            # penalty and El Gringo follow from that).
            self.s.stack.pop()
            self.damage(current, 1, frame.challenger, frame.challenger)

    # --- General Store ----------------------------------------------------------------------

    def step_store(self, frame: StoreFrame) -> Decision | None:
        s = self.s
        while frame.order and not s.players[frame.order[0]].alive:
            frame.order.pop(0)
        if not frame.order or not frame.cards:
            s.discard.extend(frame.cards)
            s.stack.pop()
            return None
        picker = frame.order[0]
        if len(frame.cards) == 1:
            self.store_take(frame, frame.cards[0])
            return None
        options = [Action("pick", pick=c) for c in frame.cards]
        return self.ask(picker, "store_pick", options, options[0], shown=tuple(frame.cards))

    def resolve_store(self, frame: StoreFrame, action: Action) -> None:
        assert action.pick is not None  # every store_pick option names its card
        self.store_take(frame, action.pick)

    def store_take(self, frame: StoreFrame, card: int) -> None:
        picker = frame.order.pop(0)
        frame.cards.remove(card)
        self.s.players[picker].hand.append(card)
        self.emit("store_pick", seat=picker, card=card)

    # --- automatic steps -----------------------------------------------------------------

    def step_move(self, frame: MoveFrame) -> None:
        s = self.s
        actor, victim = s.players[frame.actor], s.players[frame.victim]
        if not (actor.alive and victim.alive):
            s.stack.pop()
            return
        if self.ability(frame.victim).card_taken(self, frame):  # Henry Block shoots first
            return
        s.stack.pop()
        if frame.pick is None:
            if not victim.hand:
                self.emit("fizzle", seat=frame.actor, target=frame.victim)
                return
            card = self.random_hand_card(frame.victim)
            victim.hand.remove(card)
            from_hand = True
        else:
            if frame.pick not in victim.in_play:
                self.emit("fizzle", seat=frame.actor, target=frame.victim)
                return
            card = frame.pick
            victim.in_play.remove(card)
            from_hand = False
        if frame.mode == "steal":
            actor.hand.append(card)
            private = (frame.actor, frame.victim) if from_hand else ()
            self.emit("steal", seat=frame.actor, target=frame.victim,
                      cards=(card,), count=1, private_to=private,
                      zone="hand" if from_hand else "in_play")
        else:
            s.discard.append(card)
            self.emit("forced_discard", seat=frame.actor, target=frame.victim, card=card,
                      zone="hand" if from_hand else "in_play")
