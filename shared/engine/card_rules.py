"""Every card kind played on its holder's turn, in one place each: what it offers and what
playing it does. `PlayMixin` asks `CARD_RULES[key]` and knows no card by name. (Missed! is
not here: it is never played on your own turn, except as a BANG! by a character's ability.)

Answers out of turn (Missed!, Beer to survive, BANG! in a Duel or against Indians!) are the
responses' business (shared.engine.responses); equipment that acts later (Barrel, Dynamite,
Jail, weapons, Mustang, Scope) is read where it acts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from shared.cards import BLUE, KEY
from shared.engine.core import is_immune
from shared.model import Action, DuelFrame, IndiansFrame, MoveFrame, ShotFrame
from shared.roles import SHERIFF
from shared.rules import alive_count, distance, has_in_play, may_bang, seats_from

if TYPE_CHECKING:
    from shared.engine.play import PlayMixin

#: (engine, seat, card) -> the options this card in `seat`'s hand gives on their turn
Offers = Callable[["PlayMixin", int, int], list[Action]]
#: (engine, seat, action) -> play it: the card leaves the hand and does what it does
Play = Callable[["PlayMixin", int, Action], None]


class CardRule(NamedTuple):
    offers: Offers
    play: Play


CARD_RULES: dict[str, CardRule] = {}


def _others(engine: PlayMixin, seat: int) -> list[int]:
    return seats_from(engine.s, seat)[1:]


# --- what a card offers ----------------------------------------------------------------------

def _offers_itself(engine: PlayMixin, seat: int, card: int) -> list[Action]:
    return [Action("play", card=card)]


def _offers_bang(engine: PlayMixin, seat: int, card: int) -> list[Action]:
    if not may_bang(engine.s, seat):
        return []
    return [Action("play", card=card, target=t) for t in engine.bang_targets(seat, card)]


def _offers_panic(engine: PlayMixin, seat: int, card: int) -> list[Action]:
    near = [t for t in _others(engine, seat) if distance(engine.s, seat, t) <= 1]
    return engine.take_options(seat, card, near)


def _offers_cat_balou(engine: PlayMixin, seat: int, card: int) -> list[Action]:
    return engine.take_options(seat, card, _others(engine, seat))


def _offers_duel(engine: PlayMixin, seat: int, card: int) -> list[Action]:
    return [Action("play", card=card, target=t) for t in _others(engine, seat)]


def _offers_jail(engine: PlayMixin, seat: int, card: int) -> list[Action]:
    s = engine.s
    return [Action("play", card=card, target=t) for t in _others(engine, seat)
            if (s.three_player or s.players[t].role != SHERIFF)
            and not has_in_play(s.players[t], "jail")
            and not is_immune(s, t, card, seat)]


def _offers_equipment(engine: PlayMixin, seat: int, card: int) -> list[Action]:
    """Blue cards go in front of you; never two with the same name."""
    if has_in_play(engine.s.players[seat], KEY[card]):
        return []
    return [Action("play", card=card)]


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
        assert action.target is not None  # Panic! and Cat Balou always have a target
        engine.s.stack.append(MoveFrame(seat, action.target, action.pick, mode))
    return take


def _gatling(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None
    for t in reversed(_others(engine, seat)):
        if not is_immune(engine.s, t, action.card, seat):
            engine.s.stack.append(ShotFrame(t, seat, action.card, seat))


def _indians(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None
    for t in reversed(_others(engine, seat)):
        if not is_immune(engine.s, t, action.card, seat):
            engine.s.stack.append(IndiansFrame(seat, t, action.card))


def _duel(engine: PlayMixin, seat: int, action: Action) -> None:
    assert action.card is not None and action.target is not None  # the Duel has both
    engine.s.stack.append(DuelFrame(seat, action.target, action.target, action.card))


CARD_RULES.update({
    "bang": CardRule(_offers_bang, _play_bang),
    "beer": CardRule(_offers_itself, _brown(_beer)),
    "saloon": CardRule(_offers_itself, _brown(_saloon)),
    "stagecoach": CardRule(_offers_itself, _brown(_stagecoach)),
    "wells_fargo": CardRule(_offers_itself, _brown(_wells_fargo)),
    "general_store": CardRule(_offers_itself, _brown(_general_store)),
    "panic": CardRule(_offers_panic, _brown(_take("steal"))),
    "cat_balou": CardRule(_offers_cat_balou, _brown(_take("discard"))),
    "gatling": CardRule(_offers_itself, _brown(_gatling)),
    "indians": CardRule(_offers_itself, _brown(_indians)),
    "duel": CardRule(_offers_duel, _brown(_duel)),
    "jail": CardRule(_offers_jail, _equip),
    **{key: CardRule(_offers_equipment, _equip) for key in BLUE if key != "jail"},
})
