"""Everything decided out of turn, and the automatic steps between: shots, Barrels, Duels,
Indians!, fatal hits, General Store picks, Lucky Duke, Kit Carlson, Youl Grinner, card moves."""

from __future__ import annotations

from shared.cards import KEY
from shared.engine.core import EngineCore
from shared.engine.legality import check_beer_to_survive, ready_sid
from shared.engine.turn import is_heart
from shared.model import (
    Action,
    BeforeCardFrame,
    Decision,
    DuelFrame,
    DyingFrame,
    GringoFrame,
    IndiansFrame,
    KitFrame,
    LuckyFrame,
    MoveFrame,
    ShotFrame,
    StoreFrame,
    TurnFrame,
    YoulFrame,
)
from shared.rulebook import Rulebook, has_ability, rulebook
from shared.rules import barrel_draws

TAKE_HIT = Action("take_hit")
DIE = Action("die")
PASS = Action("pass")  # let the card aimed at you resolve


class ResponseMixin(EngineCore):
    def bang_cards_for_discard(self, seat: int) -> list[int]:
        """Cards that count as a BANG! card when discarded (Duel, Indians!)."""
        return self._cards_as(seat, "bang", "missed")

    def missed_cards(self, seat: int) -> list[int]:
        if has_ability(self.s, seat, "big_spencer"):
            return []
        return self._cards_as(seat, "missed", "bang")

    def _cards_as(self, seat: int, key: str, calamity_key: str) -> list[int]:
        """The cards in hand `seat` may use as a `key` card: those cards, and for Calamity
        Janet the `calamity_key` ones too, as far as the rulebook lets them be used now."""
        s = self.s
        calamity = has_ability(s, seat, "calamity_janet")
        cards = [c for c in s.players[seat].hand
                 if KEY[c] == key or (calamity and KEY[c] == calamity_key)]
        book = rulebook(s)
        if type(book).forbids is Rulebook.forbids:
            return cards
        return [c for c in cards
                if book.forbids(s, seat, c, None if KEY[c] == key else key) is None]

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
        options = []
        if not frame.unavoidable:
            if frame.barrels_used < barrel_draws(s, target):
                options.append(Action("barrel"))
            options.extend(Action("missed", card=c) for c in self.missed_cards(target))
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
        options = [Action("discard_bang", card=c) for c in self.bang_cards_for_discard(seat)]
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
            # RULES.md: the player who played the Duel caused the damage, even his own.
            self.s.stack.pop()
            self.damage(current, 1, frame.challenger, frame.challenger)

    # --- General Store, Lucky Duke, Kit Carlson, Youl Grinner ------------------------------

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

    def step_lucky(self, frame: LuckyFrame) -> Decision | None:
        options = [Action("pick", pick=c) for c in frame.cards]
        return self.ask(frame.seat, "lucky_pick", options, options[0], shown=tuple(frame.cards))

    def resolve_lucky(self, frame: LuckyFrame, action: Action) -> None:
        s = self.s
        s.stack.pop()
        below = s.stack[-1]  # the frame that asked for the "draw!" (see EngineCore.draw_check)
        assert isinstance(below, (TurnFrame, ShotFrame))
        below.drawn = action.pick
        self.emit("lucky_pick", seat=frame.seat, card=action.pick, purpose=frame.purpose)

    def step_kit(self, frame: KitFrame) -> Decision | None:
        options = [Action("put_back", pick=c) for c in frame.cards]
        return self.ask(frame.seat, "kit_put_back", options, options[-1],
                        private=tuple(frame.cards))

    def resolve_kit(self, frame: KitFrame, action: Action) -> None:
        assert action.pick is not None  # every put_back option names its card
        s = self.s
        s.stack.pop()
        kept = tuple(c for c in frame.cards if c != action.pick)
        s.players[frame.seat].hand.extend(kept)
        s.deck.append(action.pick)
        self.emit("kit_keep", seat=frame.seat, cards=kept, count=len(kept),
                  private_to=(frame.seat,))

    def step_youl(self, frame: YoulFrame) -> Decision | None:
        s = self.s
        giver = s.players[frame.giver]
        if not giver.alive or not giver.hand:
            s.stack.pop()
            return None
        options = [Action("give", card=c) for c in giver.hand]
        return self.ask(frame.giver, "youl_give", options, options[0], source=frame.receiver)

    def resolve_youl(self, frame: YoulFrame, action: Action) -> None:
        assert action.card is not None  # every give option names its card
        s = self.s
        s.stack.pop()
        s.players[frame.giver].hand.remove(action.card)
        s.players[frame.receiver].hand.append(action.card)
        self.emit("give", seat=frame.giver, target=frame.receiver, cards=(action.card,), count=1,
                  private_to=(frame.giver, frame.receiver))

    # --- before a card aimed at you ---------------------------------------------------

    def step_before_card(self, frame: BeforeCardFrame) -> Decision | None:
        if ready_sid(self.s, frame.seat) is not None:  # healed to the maximum, or out of cards
            self.s.stack.pop()
            return None
        return self.ask(frame.seat, "before_card", [PASS], PASS, source=frame.source,
                        card=frame.card)

    def resolve_before_card(self, frame: BeforeCardFrame, action: Action) -> None:
        self.s.stack.pop()  # "pass": the only answer besides the ability (Engine.resolve)

    # --- automatic steps -----------------------------------------------------------------

    def step_move(self, frame: MoveFrame) -> None:
        s = self.s
        actor, victim = s.players[frame.actor], s.players[frame.victim]
        if not (actor.alive and victim.alive):
            s.stack.pop()
            return
        if has_ability(s, frame.victim, "henry_block") and frame.actor != frame.victim \
                and not frame.henry_checked:
            frame.henry_checked = True
            self.emit("henry_block", seat=frame.victim, target=frame.actor)
            s.stack.append(ShotFrame(frame.actor, frame.victim, None, None))
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

    def step_gringo(self, frame: GringoFrame) -> None:
        s = self.s
        s.stack.pop()
        if not s.players[frame.seat].alive:
            return
        for _ in range(frame.count):
            s.stack.append(MoveFrame(frame.seat, frame.source, None, "steal"))
