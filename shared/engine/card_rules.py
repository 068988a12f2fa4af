"""Every card kind played on its holder's turn, in one place each: the actions it may take
(`shapes`), whether it may be played at all now (`ready`), whether one of those actions is
allowed (`check`) and what playing it does (`play`). `PlayMixin` asks `CARD_RULES[key]` and
knows no card by name. (Missed! is not here: it is never played on your own turn, except as a
BANG! by a character's ability.)

The checks are the only statement of a card's conditions: the options offered are the shapes
that pass them, and a refused action is explained by the check that refuses it
(`shared.engine.legality`). A check returns None when the action is allowed.

Answers out of turn (Missed!, Beer to survive, BANG! in a Duel or against Indians!) are the
responses' business (shared.engine.responses); equipment that acts later (Barrel, Dynamite,
Jail, weapons, Mustang, Scope) is read where it acts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from shared.cards import BLUE, CARD_NAMES, KEY
from shared.characters import CHARACTERS
from shared.engine.core import is_immune
from shared.engine.errors import Refusal
from shared.model import Action, DuelFrame, GameState, IndiansFrame, MoveFrame, ShotFrame
from shared.roles import SHERIFF
from shared.rules import alive_count, distance, has_in_play, may_bang, reach, seats_from

if TYPE_CHECKING:
    from shared.engine.play import PlayMixin

#: (state, seat, card, kind) -> every action of this card's form, allowed or not, in offer
#: order ("play", or "play_as_bang" for a card played as a BANG!)
Shapes = Callable[[GameState, int, int, str], list[Action]]
#: (state, seat, card) -> why the card may not be played at all now, or None
Ready = Callable[[GameState, int, int], Refusal | None]
#: (state, seat, action) -> why this action (card in hand, target alive) is refused, or None
Check = Callable[[GameState, int, Action], Refusal | None]
#: (engine, seat, action) -> play it: the card leaves the hand and does what it does
Play = Callable[["PlayMixin", int, Action], None]


class CardRule:
    """One card kind's rule: its four parts (above). (A plain class, not a NamedTuple:
    compiled, its fields and `offers` are then read and called directly, not looked up by
    name, and `offers` runs for every card in hand at every play decision.)"""

    def __init__(self, shapes: Shapes, ready: Ready, check: Check, play: Play) -> None:
        self.shapes = shapes
        self.ready = ready
        self.check = check
        self.play = play

    def offers(self, state: GameState, seat: int, card: int,
               kind: str = "play") -> list[Action]:
        """The options this card gives `seat`: its shapes that pass its checks."""
        if self.ready(state, seat, card) is not None:
            return []
        shapes = self.shapes(state, seat, card, kind)
        check = self.check
        if check is _fine:
            return shapes
        return [a for a in shapes if check(state, seat, a) is None]


CARD_RULES: Final[dict[str, CardRule]] = {}


def _name(state: GameState, seat: int) -> str:
    return state.players[seat].name


def _others(state: GameState, seat: int) -> list[int]:
    return seats_from(state, seat)[1:]


# --- the forms of a card's actions -----------------------------------------------------------

def _alone(state: GameState, seat: int, card: int, kind: str = "play") -> list[Action]:
    return [Action(kind, card=card)]


def _at_others(state: GameState, seat: int, card: int, kind: str = "play") -> list[Action]:
    return [Action(kind, card=card, target=t) for t in _others(state, seat)]


def _at_cards(state: GameState, seat: int, card: int, kind: str = "play") -> list[Action]:
    """Panic!/Cat Balou: each other player's hand (a random card, pick=None), then each card
    they have in play."""
    shapes = []
    for t in _others(state, seat):
        shapes.append(Action(kind, card=card, target=t))
        shapes.extend(Action(kind, card=card, target=t, pick=c)
                      for c in state.players[t].in_play)
    return shapes


# --- whether it may be played now ------------------------------------------------------------

def _always(state: GameState, seat: int, card: int) -> Refusal | None:
    return None


def ready_bang(state: GameState, seat: int, card: int) -> Refusal | None:
    if not may_bang(state, seat):
        return Refusal("one_bang",
                       "you have already played a BANG! this turn (only one, unless Volcanic)")
    return None


def _ready_equipment(state: GameState, seat: int, card: int) -> Refusal | None:
    """Blue cards go in front of you; never two with the same name."""
    if has_in_play(state.players[seat], KEY[card]):
        return Refusal("same_name", "you already have a {} in play (no two cards with the "
                                    "same name)", (CARD_NAMES[KEY[card]],))
    return None


# --- whether this action is allowed ----------------------------------------------------------

def _fine(state: GameState, seat: int, action: Action) -> Refusal | None:
    return None


IMMUNE: Final = Refusal("immune", "{} is not affected by Diamond cards",
                        (CHARACTERS["apache_kid"].name,))


def _immune(state: GameState, seat: int, action: Action) -> Refusal | None:
    assert action.card is not None  # a card play always names its card
    if action.target is not None and is_immune(state, action.target, action.card, seat):
        return IMMUNE
    return None


def check_bang(state: GameState, seat: int, action: Action) -> Refusal | None:
    """A BANG! (or a card played as one): another player within reach."""
    target = action.target
    if target is None or target == seat:
        return Refusal("no_target", "a BANG! needs another player as its target")
    d, r = distance(state, seat, target), reach(state, seat)
    if d > r:
        return Refusal("out_of_reach", "{} is at distance {}, but your reach is {}",
                       (_name(state, target), d, r))
    assert action.card is not None  # a card play always names its card
    if is_immune(state, target, action.card, seat):
        return IMMUNE
    return None


def _check_take(near: bool) -> Check:
    """Panic! (near: distance 1) and Cat Balou: a card of another player's, in hand or in play."""
    name = "Panic!" if near else "Cat Balou"

    def check(state: GameState, seat: int, action: Action) -> Refusal | None:
        target = action.target
        if target is None or target == seat:
            return Refusal("no_target", "{} needs another player as its target", (name,))
        immune = _immune(state, seat, action)
        if immune is not None:
            return immune
        if near:
            d = distance(state, seat, target)
            if d > 1:
                return Refusal("out_of_reach", "Panic! reaches only distance 1; {} is at {}",
                               (_name(state, target), d))
        victim = state.players[target]
        if action.pick is not None and action.pick not in victim.in_play:
            return Refusal("no_such_card", "{} has no such card in play",
                           (_name(state, target),))
        if action.pick is None and not victim.hand:
            return Refusal("empty_hand", "{} has no cards in hand", (_name(state, target),))
        return None
    return check


def _check_duel(state: GameState, seat: int, action: Action) -> Refusal | None:
    if action.target is None or action.target == seat:
        return Refusal("no_target", "challenge another player to the Duel")
    return None


def _check_jail(state: GameState, seat: int, action: Action) -> Refusal | None:
    target = action.target
    if target is None or target == seat:
        return Refusal("no_target", "Jail goes in front of another player")
    immune = _immune(state, seat, action)
    if immune is not None:
        return immune
    if state.players[target].role == SHERIFF and not state.three_player:
        return Refusal("sheriff", "Jail cannot be played on the Sheriff")
    if has_in_play(state.players[target], "jail"):
        return Refusal("jailed", "{} is already in Jail", (_name(state, target),))
    return None


# --- what playing it does --------------------------------------------------------------------

def _brown(effect: Callable[[PlayMixin, int, Action], None]) -> Play:
    """A brown card: discarded and shown (with its target and pick), then its effect."""
    def play(engine: PlayMixin, seat: int, action: Action) -> None:
        assert action.card is not None  # every play option names its card
        engine.discard_from_hand(seat, action.card)
        engine.emit("play", seat=seat, card=action.card, target=action.target,
                    value=action.pick)
        effect(engine, seat, action)
    return play


def _play_bang(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None and action.target is not None  # a BANG! has both
    engine.fire_bang(seat, action.card, action.target, as_bang=False)


def _equip(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None  # every play option names its card
    engine.equip(seat, action.card, action.target)


def _beer(engine: PlayMixin, seat: int, action: Action) -> None:
    if alive_count(engine.s) > 2:
        engine.heal(seat)
    engine.beer_played()


def _saloon(engine: PlayMixin, seat: int, action: Action) -> None:
    for q in seats_from(engine.s, seat):
        engine.heal(q)


def _stagecoach(engine: PlayMixin, seat: int, action: Action) -> None:
    engine.draw_to_hand(seat, 2)


def _wells_fargo(engine: PlayMixin, seat: int, action: Action) -> None:
    engine.draw_to_hand(seat, 3)


def _general_store(engine: PlayMixin, seat: int, action: Action) -> None:
    engine.open_store(seat)


def _take(mode: str) -> Callable[[PlayMixin, int, Action], None]:
    """Panic! ("steal") and Cat Balou ("discard"): a card of the target's, picked or random."""
    def take(engine: PlayMixin, seat: int, action: Action) -> None:
        assert action.target is not None and action.card is not None  # both always have them
        engine.s.stack.append(MoveFrame(seat, action.target, action.pick, mode))
        engine.before_card(action.target, seat, action.card)
    return take


def _gatling(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None
    for t in reversed(_others(engine.s, seat)):
        if not is_immune(engine.s, t, action.card, seat):
            engine.s.stack.append(ShotFrame(t, seat, action.card, seat))


def _indians(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None
    for t in reversed(_others(engine.s, seat)):
        if not is_immune(engine.s, t, action.card, seat):
            engine.s.stack.append(IndiansFrame(seat, t, action.card))


def _duel(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None and action.target is not None  # the Duel has both
    engine.s.stack.append(DuelFrame(seat, action.target, action.target, action.card))


CARD_RULES.update({
    "bang": CardRule(_at_others, ready_bang, check_bang, _play_bang),
    "beer": CardRule(_alone, _always, _fine, _brown(_beer)),
    "saloon": CardRule(_alone, _always, _fine, _brown(_saloon)),
    "stagecoach": CardRule(_alone, _always, _fine, _brown(_stagecoach)),
    "wells_fargo": CardRule(_alone, _always, _fine, _brown(_wells_fargo)),
    "general_store": CardRule(_alone, _always, _fine, _brown(_general_store)),
    "panic": CardRule(_at_cards, _always, _check_take(near=True), _brown(_take("steal"))),
    "cat_balou": CardRule(_at_cards, _always, _check_take(near=False),
                          _brown(_take("discard"))),
    "gatling": CardRule(_alone, _always, _fine, _brown(_gatling)),
    "indians": CardRule(_alone, _always, _fine, _brown(_indians)),
    "duel": CardRule(_at_others, _always, _check_duel, _brown(_duel)),
    "jail": CardRule(_at_others, _always, _check_jail, _equip),
    **{key: CardRule(_alone, _ready_equipment, _fine, _equip) for key in BLUE if key != "jail"},
})
