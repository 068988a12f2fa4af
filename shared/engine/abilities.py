"""What each character's ability does, in one place per character.

A character is its data in shared/characters.py (life points, text, and the numbers and card
uses its ability changes, which the rules read through `shared.rulebook.ability`), plus, when
its ability acts at a moment of the game, one `Ability` subclass here that overrides the hooks
of those moments, the way a python-chess variant overrides a few methods of its board.
`Ability` itself is the plain rule at every moment: what happens for a character without such
an ability, or whose ability does not work now (`EngineCore.ability` gives it then).

The moments: a "draw!" (`flip_for`), a hand left empty (`hand_emptied`), a hit (`hit`), a Beer
played by anyone (`beer_played`), a player's elimination (`inherit`), the start of phase 1
(`before_draw`) and phase 1 itself (`draw`, `draw_from`), a BANG! fired (`bang_fired`), a card
about to be taken from the character (`card_taken`); and the character's own actions: on its
turn (`turn_options`) or at any decision (`any_time`), each with its `check` (None: allowed, or
the `Refusal` a player reads) and its `use`. A character with a decision of its own (Lucky
Duke's pick, Kit Carlson's card, Youl Grinner's gift...) resolves the frame that asks it
(`frames`, `step`, `resolve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from shared.cards import BLUE, KEY
from shared.engine.errors import NOT_AN_OPTION, WITHOUT_ABILITY, Refusal
from shared.event_kinds import FlipPurpose
from shared.model import (
    FLIP_NOTHING,
    Action,
    BeforeCardFrame,
    Decision,
    Event,
    EventFrame,
    Frame,
    GameState,
    GringoFrame,
    KitFrame,
    LuckyFrame,
    MoveFrame,
    ShotFrame,
    TurnFrame,
    YoulFrame,
)
from shared.rulebook import has_ability, rulebook, suit_of
from shared.rules import seats_from

if TYPE_CHECKING:
    from shared.engine.core import EngineCore

DRAW_DECK: Final = Action("draw_deck")
PASS: Final = Action("pass")  # let the card aimed at you resolve
_NONE: Final[tuple[Action, ...]] = ()


# Tests subclass it in plain Python, also when this module is compiled.
@mypyc_attr(allow_interpreted_subclasses=True)
class Ability:
    """The plain rule at every moment an ability may change. Subclasses set `key` (the
    character's) and override the hooks their ability changes."""

    key: ClassVar[str] = ""
    #: the action kinds this ability adds (answered by `check` and `use`)
    actions: ClassVar[frozenset[str]] = frozenset()
    #: whether those actions may answer any decision, not only the play phase
    at_any_time: ClassVar[bool] = False
    #: the frames of the ability's own decisions or steps (resolved by `step`/`resolve`)
    frames: ClassVar[tuple[type[Frame], ...]] = ()

    # --- moments ---------------------------------------------------------------------------

    def flip_for(self, engine: EngineCore, seat: int, purpose: FlipPurpose) -> int | None:
        """A "draw!" for `seat`: the card it shows (FLIP_NOTHING when there is none), or None
        while the character chooses between several (the choice comes back through the
        frame's `drawn`, see `EngineCore.draw_check`)."""
        return engine.flip(seat, purpose)

    def hand_emptied(self, engine: EngineCore, seat: int) -> None:
        """`seat`'s hand is empty (checked before every step of the game)."""

    def hit(self, engine: EngineCore, seat: int, amount: int, card_player: int | None) -> None:
        """`seat` has just lost `amount` life to a hit, from a card `card_player` played
        (None: Dynamite), before a fatal hit is answered."""

    def beer_played(self, engine: EngineCore, seat: int) -> None:
        """Somebody (maybe `seat`) played a Beer; called for every living seat in order."""

    def inherit(self, engine: EngineCore, seat: int, dead: int, cards: list[int]) -> bool:
        """`dead` is out and leaves `cards`: whether `seat` takes them (the first living seat
        that does gets them all; nobody: they are discarded)."""
        return False

    def before_draw(self, engine: EngineCore, seat: int) -> None:
        """`seat`'s phase 1 is about to start (after Dynamite and Jail)."""

    def draw(self, engine: EngineCore, frame: TurnFrame, count: int) -> Decision | None:
        """Phase 1: draw `count` cards (the rulebook's number) from the deck."""
        engine.draw_to_hand(frame.seat, count)
        engine.draw_done(frame)
        return None

    def draw_from(self, engine: EngineCore, frame: TurnFrame, action: Action) -> None:
        """Phase 1's first card taken elsewhere than the deck, as `draw` offered."""
        raise AssertionError(f"{action.kind!r} is not a way to draw without an ability")

    def bang_fired(self, engine: EngineCore, seat: int) -> bool:
        """`seat` has just played a BANG! card: whether it can be avoided no more."""
        return False

    def card_taken(self, engine: EngineCore, frame: MoveFrame) -> bool:
        """A card of this character's is about to be taken (Panic!, Cat Balou, Jesse Jones,
        El Gringo): True when something was stacked to resolve first."""
        return False

    # --- actions of its own ----------------------------------------------------------------

    def turn_options(self, state: GameState, seat: int) -> Sequence[Action]:
        """The ability's actions `seat` may take in the play phase."""
        return _NONE

    def any_time(self, state: GameState, seat: int) -> Sequence[Action]:
        """The ability's actions `seat` may take at any decision they hold."""
        return _NONE

    def check(self, state: GameState, seat: int, action: Action) -> Refusal | None:
        """Why `seat` may not take `action`, one of `actions` (None: they may)."""
        return WITHOUT_ABILITY

    def use(self, engine: EngineCore, seat: int, action: Action) -> None:
        """Do `action`, which `check` allowed."""
        raise AssertionError(f"no ability does {action.kind!r}")

    # --- its own frames --------------------------------------------------------------------

    def step(self, engine: EngineCore, frame: Any) -> Decision | None:
        raise AssertionError(f"{type(self).__name__} has no frames")

    def resolve(self, engine: EngineCore, frame: Any, action: Action) -> None:
        raise AssertionError(f"{type(self).__name__} has no decisions")


PLAIN: Final = Ability()


# --- "draw!" --------------------------------------------------------------------------------

class LuckyDuke(Ability):
    """Each time he must "draw!", he flips two cards and chooses which one counts."""

    key = "lucky_duke"
    frames = (LuckyFrame,)

    def flip_for(self, engine: EngineCore, seat: int, purpose: FlipPurpose) -> int | None:
        s = engine.s
        # Both cards are taken before either is discarded, so that a reshuffle between the
        # two cannot put the first one back into the deck.
        shown = [c for c in (engine.draw_card(), engine.draw_card()) if c is not None]
        s.discard.extend(shown)
        for card in shown:
            engine.emit("flip", seat=seat, card=card, purpose=purpose)
        if len(shown) == 2:
            s.stack.append(LuckyFrame(seat, shown, purpose))
            return None
        return shown[0] if shown else FLIP_NOTHING

    def step(self, engine: EngineCore, frame: LuckyFrame) -> Decision | None:
        options = [Action("pick", pick=c) for c in frame.cards]
        return engine.ask(frame.seat, "lucky_pick", options, options[0], shown=tuple(frame.cards))

    def resolve(self, engine: EngineCore, frame: LuckyFrame, action: Action) -> None:
        s = engine.s
        s.stack.pop()
        below = s.stack[-1]  # the frame that asked for the "draw!" (EngineCore.draw_check)
        assert isinstance(below, (TurnFrame, ShotFrame))
        below.drawn = action.pick
        engine.emit("lucky_pick", seat=frame.seat, card=action.pick, purpose=frame.purpose)


# --- life, cards and elimination ------------------------------------------------------------

class BartCassidy(Ability):
    """Each time he loses a life point, he draws a card from the deck."""

    key = "bart_cassidy"

    def hit(self, engine: EngineCore, seat: int, amount: int, card_player: int | None) -> None:
        engine.draw_to_hand(seat, amount, source="bart_cassidy")


class ElGringo(Ability):
    """Each life point a card played by another player costs him, he draws a random card
    from that player's hand (after the hit, before a fatal hit is answered)."""

    key = "el_gringo"
    frames = (GringoFrame,)

    def hit(self, engine: EngineCore, seat: int, amount: int, card_player: int | None) -> None:
        if card_player is not None and card_player != seat:
            engine.s.stack.append(GringoFrame(seat, card_player, amount))

    def step(self, engine: EngineCore, frame: GringoFrame) -> None:
        s = engine.s
        s.stack.pop()
        if not s.players[frame.seat].alive:
            return
        for _ in range(frame.count):
            s.stack.append(MoveFrame(frame.seat, frame.source, None, "steal"))


class SuzyLafayette(Ability):
    """As soon as she has no cards in hand, she draws one."""

    key = "suzy_lafayette"

    def hand_emptied(self, engine: EngineCore, seat: int) -> None:
        engine.draw_to_hand(seat, 1, source="suzy_lafayette")


class MadamYto(Ability):
    """Whenever a Beer is played, by anyone, she draws a card."""

    key = "madam_yto"

    def beer_played(self, engine: EngineCore, seat: int) -> None:
        engine.draw_to_hand(seat, 1, source="madam_yto")


class VultureSam(Ability):
    """Whenever a character is eliminated, he takes all of that player's cards."""

    key = "vulture_sam"

    def inherit(self, engine: EngineCore, seat: int, dead: int, cards: list[int]) -> bool:
        engine.s.players[seat].hand.extend(cards)
        engine.emit("vulture", seat=seat, target=dead, cards=tuple(cards), count=len(cards),
                    private_to=(seat,))
        return True


class HenryBlock(Ability):
    """Whoever draws or discards one of his cards is first the target of a BANG!."""

    key = "henry_block"

    def card_taken(self, engine: EngineCore, frame: MoveFrame) -> bool:
        if frame.actor == frame.victim or frame.henry_checked:
            return False
        frame.henry_checked = True
        engine.emit("henry_block", seat=frame.victim, target=frame.actor)
        engine.s.stack.append(ShotFrame(frame.actor, frame.victim, None, None))
        return True


# --- phase 1 --------------------------------------------------------------------------------

class YoulGrinner(Ability):
    """Before he draws, each player with more cards in hand gives him one of their choice."""

    key = "youl_grinner"
    frames = (YoulFrame,)

    def before_draw(self, engine: EngineCore, seat: int) -> None:
        s = engine.s
        mine = len(s.players[seat].hand)
        richer = [q for q in seats_from(s, seat)[1:] if len(s.players[q].hand) > mine]
        for giver in reversed(richer):
            s.stack.append(YoulFrame(giver, seat))

    def step(self, engine: EngineCore, frame: YoulFrame) -> Decision | None:
        s = engine.s
        giver = s.players[frame.giver]
        if not giver.alive or not giver.hand:
            s.stack.pop()
            return None
        options = [Action("give", card=c) for c in giver.hand]
        return engine.ask(frame.giver, "youl_give", options, options[0], source=frame.receiver)

    def resolve(self, engine: EngineCore, frame: YoulFrame, action: Action) -> None:
        assert action.card is not None  # every give option names its card
        s = engine.s
        s.stack.pop()
        s.players[frame.giver].hand.remove(action.card)
        s.players[frame.receiver].hand.append(action.card)
        engine.emit("give", seat=frame.giver, target=frame.receiver, cards=(action.card,),
                    count=1, private_to=(frame.giver, frame.receiver))


class JesseJones(Ability):
    """In phase 1 he may draw his first card at random from another player's hand."""

    key = "jesse_jones"

    def draw(self, engine: EngineCore, frame: TurnFrame, count: int) -> Decision | None:
        s = engine.s
        victims = [q for q in seats_from(s, frame.seat)[1:] if s.players[q].hand]
        if not victims:
            return super().draw(engine, frame, count)
        options = [DRAW_DECK] + [Action("draw_player", target=q) for q in victims]
        return engine.ask(frame.seat, "draw_source", options, DRAW_DECK)

    def draw_from(self, engine: EngineCore, frame: TurnFrame, action: Action) -> None:
        assert action.target is not None  # every draw_player option names its target
        frame.step = "draw_rest"
        engine.s.stack.append(MoveFrame(frame.seat, action.target, None, "steal"))


class PedroRamirez(Ability):
    """In phase 1 he may draw his first card from the top of the discard pile."""

    key = "pedro_ramirez"

    def draw(self, engine: EngineCore, frame: TurnFrame, count: int) -> Decision | None:
        s = engine.s
        if not s.discard:
            return super().draw(engine, frame, count)
        return engine.ask(frame.seat, "draw_source", [DRAW_DECK, Action("draw_discard")],
                          DRAW_DECK, card=s.discard[-1])

    def draw_from(self, engine: EngineCore, frame: TurnFrame, action: Action) -> None:
        s = engine.s
        card = s.discard.pop()
        s.players[frame.seat].hand.append(card)
        engine.emit("draw_discard", seat=frame.seat, card=card)
        frame.step = "draw_rest"


class KitCarlson(Ability):
    """In phase 1 he looks at one card more than he draws (at least 3) and keeps as many as
    he draws: he puts one back (`KitFrame`), or with a single card to keep chooses it and the
    others go back in the order he drew them (High Noon's `kit_keep`). When the extra cards
    of the phase would take all he looked at, he simply takes them."""

    key = "kit_carlson"
    frames = (KitFrame,)

    def draw(self, engine: EngineCore, frame: TurnFrame, count: int) -> Decision | None:
        s = engine.s
        seat = frame.seat
        looked = []
        for _ in range(max(3, count + 1)):
            card = engine.draw_card()
            if card is None:
                break
            looked.append(card)
        book = rulebook(s)
        if count + book.draw_extra(s, seat) >= len(looked):  # nothing to choose
            if looked:
                s.players[seat].hand.extend(looked)
                engine.emit("draw", seat=seat, cards=tuple(looked), count=len(looked),
                            private_to=(seat,))
            frame.step = "play"
            book.draw_phase_over(engine, seat)
            return None
        engine.draw_done(frame)
        engine.emit("kit_look", seat=seat, cards=tuple(looked), count=len(looked),
                    private_to=(seat,))
        if count == len(looked) - 1:
            s.stack.append(KitFrame(seat, looked))
        else:
            s.stack.append(EventFrame("kit_keep", [seat], looked))
        return None

    def step(self, engine: EngineCore, frame: KitFrame) -> Decision | None:
        options = [Action("put_back", pick=c) for c in frame.cards]
        return engine.ask(frame.seat, "kit_put_back", options, options[-1],
                          private=tuple(frame.cards))

    def resolve(self, engine: EngineCore, frame: KitFrame, action: Action) -> None:
        assert action.pick is not None  # every put_back option names its card
        s = engine.s
        s.stack.pop()
        kept = tuple(c for c in frame.cards if c != action.pick)
        s.players[frame.seat].hand.extend(kept)
        s.deck.append(action.pick)
        engine.emit("kit_keep", seat=frame.seat, cards=kept, count=len(kept),
                    private_to=(frame.seat,))


class BlackJack(Ability):
    """In phase 1 he shows his second card: on Hearts or Diamonds he draws one more."""

    key = "black_jack"

    def draw(self, engine: EngineCore, frame: TurnFrame, count: int) -> Decision | None:
        s = engine.s
        seat = frame.seat
        drawn = engine.draw_to_hand(seat, count)
        if len(drawn) >= 2:
            second = drawn[1]
            engine.emit("reveal", seat=seat, card=second)
            if suit_of(s, second) in ("hearts", "diamonds"):
                engine.draw_to_hand(seat, 1, source="black_jack")
        engine.draw_done(frame)
        return None


# --- BANG! ----------------------------------------------------------------------------------

class ColoradoBill(Ability):
    """Each time he plays a BANG! card he "draws!": on Spades it cannot be avoided."""

    key = "colorado_bill"

    def bang_fired(self, engine: EngineCore, seat: int) -> bool:
        flipped = engine.flip(seat, "colorado_bill")
        return flipped != FLIP_NOTHING and suit_of(engine.s, flipped, draw=True) == "spades"


# --- actions of their own -------------------------------------------------------------------

class SidKetchum(Ability):
    """At any moment he may discard two cards from his hand to regain one life point: at
    every decision he holds, and before a card aimed at him takes one of his cards
    (`BeforeCardFrame`, rules version 2 on)."""

    key = "sid_ketchum"
    actions = frozenset({"sid"})
    at_any_time = True
    frames = (BeforeCardFrame,)

    def ready(self, state: GameState, seat: int) -> Refusal | None:
        p = state.players[seat]
        if not has_ability(state, seat, self.key):
            return WITHOUT_ABILITY
        if p.life >= p.max_life:
            return Refusal("full_life", "Sid Ketchum is at his maximum life")
        if len(p.hand) < 2:
            return Refusal("sid_cards", "Sid Ketchum discards two cards from his hand")
        return None

    def any_time(self, state: GameState, seat: int) -> Sequence[Action]:
        if self.ready(state, seat) is not None:
            return _NONE
        return [Action("sid", cards=pair)
                for pair in combinations(sorted(state.players[seat].hand), 2)]

    def check(self, state: GameState, seat: int, action: Action) -> Refusal | None:
        why = self.ready(state, seat)
        if why is not None:
            return why
        hand, cards = state.players[seat].hand, action.cards
        if not (len(cards) == 2 and cards[0] < cards[1] and cards[0] in hand
                and cards[1] in hand and action == Action("sid", cards=cards)):
            return Refusal("sid_cards", "Sid Ketchum discards two different cards from his "
                                        "hand (named in card order)")
        return None

    def use(self, engine: EngineCore, seat: int, action: Action) -> None:
        for card in action.cards:
            engine.discard_from_hand(seat, card)
        engine.emit("sid", seat=seat, cards=action.cards, count=2)
        engine.heal(seat)

    def step(self, engine: EngineCore, frame: BeforeCardFrame) -> Decision | None:
        if self.ready(engine.s, frame.seat) is not None:  # healed to the maximum, or no cards
            engine.s.stack.pop()
            return None
        return engine.ask(frame.seat, "before_card", [PASS], PASS, source=frame.source,
                          card=frame.card)

    def resolve(self, engine: EngineCore, frame: BeforeCardFrame, action: Action) -> None:
        engine.s.stack.pop()  # "pass": the only answer besides the ability (Engine.resolve)


CHUCK: Final = Action("chuck")


class ChuckWengam(Ability):
    """On his turn he may lose a life point to draw two cards, but not his last one."""

    key = "chuck_wengam"
    actions = frozenset({"chuck"})

    def ready(self, state: GameState, seat: int) -> Refusal | None:
        if not has_ability(state, seat, self.key):
            return WITHOUT_ABILITY
        if state.players[seat].life <= 1:
            return Refusal("last_life", "Chuck Wengam cannot give up his last life point")
        return None

    def turn_options(self, state: GameState, seat: int) -> Sequence[Action]:
        return (CHUCK,) if self.ready(state, seat) is None else _NONE

    def check(self, state: GameState, seat: int, action: Action) -> Refusal | None:
        return self.ready(state, seat) or (None if action == CHUCK else NOT_AN_OPTION)

    def use(self, engine: EngineCore, seat: int, action: Action) -> None:
        engine.lose_life(seat, 1, Event(kind="chuck", seat=seat))
        engine.draw_to_hand(seat, 2, source="chuck_wengam")


class JoseDelgado(Ability):
    """On his turn he may discard a blue card from his hand to draw two cards, twice per
    turn."""

    key = "jose_delgado"
    actions = frozenset({"jose"})

    def ready(self, state: GameState, seat: int) -> Refusal | None:
        if not has_ability(state, seat, self.key):
            return WITHOUT_ABILITY
        if state.jose_uses >= 2:
            return Refusal("twice", "José Delgado uses his ability at most twice per turn")
        return None

    def turn_options(self, state: GameState, seat: int) -> Sequence[Action]:
        if self.ready(state, seat) is not None:
            return _NONE
        return [Action("jose", card=c) for c in state.players[seat].hand if KEY[c] in BLUE]

    def check(self, state: GameState, seat: int, action: Action) -> Refusal | None:
        why = self.ready(state, seat)
        if why is not None:
            return why
        card = action.card
        if card is None or KEY[card] not in BLUE or action != Action("jose", card=card):
            return Refusal("blue_card", "José Delgado discards a blue card from his hand")
        return None

    def use(self, engine: EngineCore, seat: int, action: Action) -> None:
        assert action.card is not None  # every jose option names its card
        engine.s.jose_uses += 1
        engine.discard_from_hand(seat, action.card)
        engine.emit("jose", seat=seat, card=action.card)
        engine.draw_to_hand(seat, 2, source="jose_delgado")


#: Every ability that acts at a moment of the game, by character key. Characters whose
#: ability only changes numbers or card uses (shared/characters.py) have none.
ABILITIES: Final[dict[str, Ability]] = {ability.key: ability for ability in (
    LuckyDuke(), BartCassidy(), ElGringo(), SuzyLafayette(), MadamYto(), VultureSam(),
    HenryBlock(), YoulGrinner(), JesseJones(), PedroRamirez(), KitCarlson(), BlackJack(),
    ColoradoBill(), SidKetchum(), ChuckWengam(), JoseDelgado(),
)}

#: The ability each ability action belongs to, by action kind.
ACTION_OWNERS: Final[dict[str, Ability]] = {
    kind: ability for ability in ABILITIES.values() for kind in ability.actions}

#: The ability each ability frame belongs to, by frame type.
FRAME_OWNERS: Final[dict[type[Frame], Ability]] = {
    frame: ability for ability in ABILITIES.values() for frame in ability.frames}


def ability_of(state: GameState, seat: int) -> Ability:
    """What `seat`'s ability does now: its character's, or the plain rule when it has none
    that acts, or its ability does not work now (`Rulebook.has_ability`)."""
    key = state.players[seat].character
    found = ABILITIES.get(key)
    if found is None:
        return PLAIN
    if type(state) is GameState or rulebook(state).has_ability(state, seat, key):
        return found
    return PLAIN
