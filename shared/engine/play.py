"""Phase 2: which cards and abilities a player may use on their turn, and what they do."""

from __future__ import annotations

from itertools import combinations
from typing import Unpack

from shared.cards import BLUE, KEY, WEAPON_REACH
from shared.engine.card_rules import CARD_RULES
from shared.engine.core import DecisionContext, EngineCore
from shared.engine.legality import (
    CHUCK,
    END_TURN,
    check_chuck,
    ready_as_bang,
    ready_jose,
    ready_sid,
)
from shared.model import (
    Action,
    BeforeCardFrame,
    Decision,
    Event,
    ShotFrame,
    StoreFrame,
    TurnFrame,
)
from shared.rulebook import Rulebook, has_ability, rulebook, suit_of
from shared.rules import Unchanged, seats_from, weapon_of


class PlayMixin(EngineCore):
    # --- what may be done ----------------------------------------------------------------

    def ask(self, seat: int, kind: str, options: list[Action], default: Action | None = None,
            **context: Unpack[DecisionContext]) -> Decision:
        """Every decision, with Sid Ketchum's ability after its own options: he may use it at
        any moment (seed 000), so whenever he holds a decision."""
        default = default if default is not None else options[-1]
        return super().ask(seat, kind, [*options, *self.sid_options(seat)], default, **context)

    def before_card(self, seat: int, source: int, card: int) -> None:
        """Sid Ketchum may heal at any moment: also before a card aimed at him takes one of
        his cards (state version 2 on; the question is put only when he could)."""
        if self.s.version >= 2 and ready_sid(self.s, seat) is None:
            self.s.stack.append(BeforeCardFrame(seat, source, card))

    def sid_options(self, seat: int) -> list[Action]:
        if ready_sid(self.s, seat) is not None:
            return []
        return [Action("sid", cards=pair)
                for pair in combinations(sorted(self.s.players[seat].hand), 2)]

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
        # card be played, and without these two characters no other card is ever a BANG!.
        every_card = type(book).forbids is Rulebook.forbids
        as_bang = has_ability(s, seat, "annie_versary") or has_ability(s, seat, "calamity_janet")
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
        if check_chuck(s, seat, CHUCK) is None:
            options.append(CHUCK)
        if ready_jose(s, seat) is None:
            options.extend(Action("jose", card=c) for c in p.hand if KEY[c] in BLUE)
        options.append(END_TURN)
        return options

    # --- doing it ------------------------------------------------------------------------

    def resolve_sid(self, seat: int, action: Action) -> None:
        for card in action.cards:
            self.discard_from_hand(seat, card)
        self.emit("sid", seat=seat, cards=action.cards, count=2)
        self.heal(seat)

    def fire_bang(self, seat: int, card: int, target: int, as_bang: bool) -> None:
        s = self.s
        self.discard_from_hand(seat, card)
        s.bangs_played += 1
        self.emit("play", seat=seat, card=card, target=target, how="as_bang" if as_bang else None)
        unavoidable = False
        if has_ability(s, seat, "colorado_bill"):
            flipped = self.flip(seat, "colorado_bill")
            unavoidable = flipped >= 0 and suit_of(s, flipped, draw=True) == "spades"
        needed = 2 if has_ability(s, seat, "slab_the_killer") else 1
        s.stack.append(ShotFrame(target, seat, card, seat, needed=needed, unavoidable=unavoidable))

    def resolve_play(self, frame: TurnFrame, action: Action) -> None:
        s = self.s
        seat = frame.seat
        kind = action.kind
        if kind == "end_turn":
            frame.step = "discard"
            return
        if kind == "chuck":
            self.lose_life(seat, 1, Event(kind="chuck", seat=seat))
            self.draw_to_hand(seat, 2, source="chuck_wengam")
            return
        if kind == "jose":
            assert action.card is not None  # every jose option names its card
            s.jose_uses += 1
            self.discard_from_hand(seat, action.card)
            self.emit("jose", seat=seat, card=action.card)
            self.draw_to_hand(seat, 2, source="jose_delgado")
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
