"""How a seat weighs the table: whom it wants to hurt, how likely a shot lands, what a card in
hand is worth. Everything is computed from the seat's view and its beliefs only."""

from __future__ import annotations

from typing import Final

from shared.bots.beliefs import Beliefs
from shared.cards import KEY, WEAPON_REACH
from shared.characters import CHARACTERS, NO_ABILITY, Character
from shared.roles import DEPUTY, OUTLAW, RENEGADE, SHERIFF, TARGET_3P
from shared.views import PlayerView, TableView

Probs = dict[str, float]

#: Whom each role wants to hurt, by the other's role (negative: wants to protect).
HOSTILE: Final = {
    SHERIFF: {DEPUTY: -1.0, OUTLAW: 1.0, RENEGADE: 0.7},
    DEPUTY: {SHERIFF: -2.0, DEPUTY: -0.6, OUTLAW: 1.0, RENEGADE: 0.6},
    OUTLAW: {SHERIFF: 1.5, DEPUTY: 0.7, OUTLAW: -0.8, RENEGADE: 0.4},
}

#: What a card in hand is worth when nothing special applies.
BASE_VALUE: Final = {
    "bang": 3.5, "missed": 4.0, "beer": 3.0, "saloon": 3.0, "stagecoach": 4.5,
    "wells_fargo": 5.5, "general_store": 2.5, "panic": 4.5, "cat_balou": 4.0, "duel": 3.0,
    "gatling": 4.5, "indians": 3.5, "jail": 3.5, "dynamite": 0.8, "barrel": 6.0,
    "mustang": 4.5, "scope": 3.5,
}
MISSED_IN_DECK: Final = 0.15  # share of Missed! cards: the chance a hidden hand card is one


def has(player: PlayerView, key: str) -> bool:
    return any(KEY[c] == key for c in player.in_play)


def traits(player: PlayerView) -> Character:
    """What the player's character changes (shared.characters): the numbers and card uses
    the rules read, so that a bot never restates them."""
    return CHARACTERS.get(player.character, NO_ABILITY)


class Situation:
    """One decision's worth of facts, computed once. (A plain class: compiled, a dataclass's
    generated `__init__` would run as Python.)"""

    def __init__(self, view: TableView, me: PlayerView, others: list[PlayerView],
                 in_play: frozenset[str], hand_keys: tuple[str, ...], beliefs: Beliefs,
                 infer: bool) -> None:
        self.view = view
        self.me = me
        self.others = others  # living, clockwise order kept
        self.in_play = in_play
        self.hand_keys = hand_keys
        self._beliefs = beliefs
        self._infer = infer
        self._enmity: dict[int, float] | None = None

    @property
    def enmity(self) -> dict[int, float]:
        """How much I want each living other seat hurt (see `enmity`). Worked out when first
        asked: the role inference behind it is the costliest part of a decision, and many
        decisions (dodging a shot, a lucky draw) never ask."""
        if self._enmity is None:
            roles = self._beliefs.roles(self.view, self._infer)
            self._enmity = enmity(self.view, roles, self.others)
        return self._enmity

    @property
    def low(self) -> bool:
        return self.me.life <= 2

    def count(self, key: str) -> int:
        return self.hand_keys.count(key)

    def seat(self, seat: int) -> PlayerView:
        return self.view.players[seat]


def situation(view: TableView, beliefs: Beliefs, infer: bool) -> Situation:
    """The facts of `view`'s decision; `beliefs` reads roles from behaviour if `infer`."""
    viewer = view.viewer
    assert viewer is not None  # a bot decides from a seat's view
    players = view.players
    me = players[viewer]
    others = [p for p in players if p.alive and p.seat != viewer]
    return Situation(view, me, others, frozenset([KEY[c] for c in me.in_play]),
                     tuple([KEY[c] for c in view.hand]), beliefs, infer)


def enmity(view: TableView, roles: dict[int, Probs], others: list[PlayerView]) -> dict[int, float]:
    """How much the viewer wants each living other seat hurt: > 0 foe, < 0 friend."""
    assert view.role is not None  # a seat's view has the seat's role
    if view.three_player:
        return _enmity_3p(view, others)
    # Loops rather than generators: this runs for every decision of a scoring bot.
    role = view.role
    weights = HOSTILE.get(role) or _renegade_weights(view, roles, others)
    if role in (SHERIFF, DEPUTY):
        for p in others:
            probs = roles.get(p.seat)
            if probs is not None and probs.get(OUTLAW, 0) > 0:
                break
        else:
            weights = {**weights, RENEGADE: 1.0}  # no Outlaw left: the Renegade is the enemy
    wanted: dict[int, float] = {}
    for p in others:
        total = 0.0
        for held, prob in roles[p.seat].items():
            total += prob * weights.get(held, 0.0)
        wanted[p.seat] = total
    return wanted


def _renegade_weights(view: TableView, roles: dict[int, Probs],
                      others: list[PlayerView]) -> dict[str, float]:
    """The Renegade keeps the balance: he hits the stronger side and spares the Sheriff until
    the last duel."""
    if len(others) == 1:
        return {SHERIFF: 1.5, DEPUTY: 1.0, OUTLAW: 1.0}
    law = sum(p.life * roles[p.seat].get(SHERIFF, 0) + p.life * roles[p.seat].get(DEPUTY, 0)
              for p in others)
    outlaws = sum(p.life * roles[p.seat].get(OUTLAW, 0) for p in others)
    sheriff = next((p for p in others if roles[p.seat].get(SHERIFF)), None)
    spare = -1.0 if sheriff is not None and sheriff.life <= 2 else -0.3
    if outlaws >= law:
        return {SHERIFF: spare, DEPUTY: 0.3, OUTLAW: 1.0}
    return {SHERIFF: spare, DEPUTY: 1.0, OUTLAW: 0.4}


def _enmity_3p(view: TableView, others: list[PlayerView]) -> dict[int, float]:
    """Three players: my target first; after any elimination, the last one standing wins."""
    if len(others) == 1:
        return {others[0].seat: 1.5}
    assert view.role is not None  # a seat's view has the seat's role
    target = TARGET_3P.get(view.role)
    return {p.seat: 1.5 if p.role == target else 0.3 for p in others}


# --- shots -----------------------------------------------------------------------------


def shot_lands(shooter: PlayerView, target: PlayerView, event: str | None = None) -> float:
    """The chance a BANG! from `shooter` costs `target` a life point. `event`: High Noon's
    card in play (Blessing: every Barrel saves; Curse: none does)."""
    defends = traits(target)
    draws = has(target, "barrel") + defends.barrels
    barrel_fails = {"blessing": 0.0 if draws else 1.0, "curse": 1.0}.get(event or "",
                                                                          0.75 ** draws)
    if not defends.missed_with:  # Big Spencer
        no_missed = 1.0
    else:
        per_card = 0.45 if "bang" in defends.missed_with else MISSED_IN_DECK  # Calamity Janet
        no_missed = (1 - per_card) ** target.hand_count
    lands = barrel_fails * (1 - (1 - no_missed) * 0.9)
    needs = traits(shooter).shot_needs
    if needs > 1:  # Slab the Killer: each Missed! needed is another chance the shot lands
        lands = 1 - (1 - lands) ** needs
    if shooter.character == "colorado_bill":
        lands = 0.25 + 0.75 * lands
    return lands


def harm_value(sit: Situation, target: PlayerView, amount: float = 1.0) -> float:
    """What costing `target` a life point is worth to me; a kill weighs double."""
    foe = sit.enmity.get(target.seat, 0.0)
    if target.life <= 1:
        kill = 1.0
        if foe > 0 and sit.view.role in (SHERIFF, DEPUTY):
            kill += 0.3  # the bounty: three cards
    else:
        kill = 0.25 if target.life == 2 else 0.0
    return foe * amount * (1.0 + kill)


# --- cards in hand -----------------------------------------------------------------------


def keep_value(sit: Situation, card: int) -> float:
    """What keeping `card` in hand is worth to me now."""
    key = KEY[card]
    me = sit.me
    if key == "missed":
        if key not in traits(me).missed_with:  # Big Spencer cannot play it
            return 0.5
        return 6.0 if sit.low else 4.0
    if key == "beer":
        if sit.view.event_active == "the_reverend":  # unplayable for this round
            return 1.5
        if me.life < me.max_life or sit.view.event_active == "high_noon":  # a life a turn
            return 6.0 if sit.low else 4.0
        return 2.5
    if key == "bang":
        reachable = any(p.in_reach and sit.enmity.get(p.seat, 0) > 0.2 for p in sit.others)
        if "bang" in traits(me).missed_with:  # Calamity Janet: a Missed! as well
            return 4.5
        return 3.5 + 0.8 * reachable
    if key in WEAPON_REACH:
        return weapon_value(sit, card)
    if key in ("barrel", "mustang", "scope") and key in sit.in_play:
        return 0.5
    return BASE_VALUE.get(key, 2.0)


def weapon_value(sit: Situation, card: int) -> float:
    key = KEY[card]
    if key in sit.in_play:
        return 0.5
    if key == "volcanic":
        return 1.5 + 0.8 * sit.count("bang") if sit.view.reach <= 1 else 1.0
    gain = WEAPON_REACH[key] - sit.view.reach
    return 1.0 + 1.2 * gain if gain > 0 else 0.6

