"""Phase 2: which cards and abilities a player may use on their turn, and what they do."""

from __future__ import annotations

from shared.cards import KEY, WEAPON_REACH
from shared.engine.abilities import ACTION_OWNERS
from shared.engine.card_rules import CARD_RULES
from shared.engine.core import EngineCore
from shared.engine.legality import END_TURN, ready_as_bang
from shared.model import Action, BeforeCardFrame, ShotFrame, StoreFrame, TurnFrame
from shared.rulebook import Rulebook, ability, rulebook
from shared.rules import Unchanged, seats_from, weapon_of


class PlayMixin(EngineCore):
    # --- what may be done ----------------------------------------------------------------

    def before_card(self, seat: int, source: int, card: int) -> None:
        """An ability usable at any moment may be used before a card aimed at `seat` takes
        one of their cards (state version 2 on; the question is put only when it could)."""
        if self.s.version >= 2 and self.ability(seat).any_time(self.s, seat):
            self.s.stack.append(BeforeCardFrame(seat, source, card))

    def play_options(self, seat: int) -> list[Action]:
        """Every card and ability `seat` may use on their turn: the actions that pass the
        checks of `shared.engine.legality` and `CARD_RULES`."""
        with Unchanged(self.s):  # the checks ask the same distances again and again
            return self._play_options(seat)

    def _play_options(self, seat: int) -> list[Action]:
        s = self.s
        p = s.players[seat]
        book = rulebook(s)
        # Shortcuts for what is asked for every card in hand: the base rulebook lets every
        # card be played, and most characters play no other card as a BANG!.
        every_card = type(book).forbids is Rulebook.forbids
        as_bang = ability(s, seat).plays_as_bang
        bang = CARD_RULES["bang"]
        options: list[Action] = []
        for card in p.hand:
            key = KEY[card]
            if as_bang and key != "bang" and ready_as_bang(s, seat, card) is None and (
                    every_card or book.forbids(s, seat, card, "bang") is None):
                options.extend(bang.offers(s, seat, card, "play_as_bang"))
            rule = CARD_RULES.get(key)
            if rule is not None and (every_card or book.forbids(s, seat, card) is None):
                options.extend(rule.offers(s, seat, card))
        options.extend(self.ability(seat).turn_options(s, seat))
        options.append(END_TURN)
        return options

    # --- doing it ------------------------------------------------------------------------

    def fire_bang(self, seat: int, card: int, target: int, as_bang: bool) -> None:
        s = self.s
        self.discard_from_hand(seat, card)
        s.bangs_played += 1
        self.emit("play", seat=seat, card=card, target=target, how="as_bang" if as_bang else None)
        unavoidable = self.ability(seat).bang_fired(self, seat)
        needed = ability(s, seat).shot_needs
        s.stack.append(ShotFrame(target, seat, card, seat, needed=needed, unavoidable=unavoidable))

    def resolve_play(self, frame: TurnFrame, action: Action) -> None:
        seat = frame.seat
        kind = action.kind
        if kind == "end_turn":
            frame.step = "discard"
            return
        owner = ACTION_OWNERS.get(kind)
        if owner is not None:  # an ability's own action (Chuck Wengam, José Delgado)
            owner.use(self, seat, action)
            return
        card = action.card
        assert card is not None  # every play and play_as_bang option names its card
        if kind == "play_as_bang":
            assert action.target is not None  # a BANG! always has a target
            self.fire_bang(seat, card, action.target, as_bang=True)
            return
        CARD_RULES[KEY[card]].play(self, seat, action)

    def equip(self, seat: int, card: int, target: int | None) -> None:
        s = self.s
        holder = target if KEY[card] == "jail" else seat
        assert holder is not None  # Jail always has a target
        s.players[seat].hand.remove(card)
        if KEY[card] in WEAPON_REACH:
            old = weapon_of(s.players[seat])
            if old is not None:
                self.discard_from_play(seat, old)
                self.emit("discard", seat=seat, card=old, reason="replaced_weapon")
        s.players[holder].in_play.append(card)
        self.emit("equip", seat=seat, card=card, target=holder)

    def open_store(self, seat: int) -> None:
        s = self.s
        order = seats_from(s, seat)
        shown = []
        for _ in order:
            card = self.draw_card()
            if card is None:
                break
            shown.append(card)
        self.emit("store_open", seat=seat, cards=tuple(shown), count=len(shown))
        s.stack.append(StoreFrame(order, shown))
