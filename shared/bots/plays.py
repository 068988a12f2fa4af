"""Scores for the play phase: each legal play gets a number, ending the turn scores 0.

`careful` scorers (the normal bot) weigh hit chances, kills, reach and what to keep; the plain
ones (the easy bot) only know friend from foe and play what looks useful."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from shared.bots.evaluate import (
    Situation,
    harm_value,
    has,
    keep_value,
    shot_lands,
    traits,
)
from shared.cards import KEY, WEAPON_REACH
from shared.model import Action
from shared.roles import OUTLAW, RENEGADE
from shared.views import PlayerView

FOE: Final = 0.25  # enmity above which a seat counts as a foe
#: What taking a card in play away from its owner costs that owner.
IN_PLAY_LOSS: Final = {"barrel": 4.0, "mustang": 3.0, "scope": 2.0, "volcanic": 2.5,
                       "jail": -4.0, "dynamite": -1.5}
DRAW_CARDS: Final = {"stagecoach": 9.0, "wells_fargo": 9.5}


def score_play(sit: Situation, action: Action, careful: bool) -> float:
    kind = action.kind
    if kind == "end_turn":
        return 0.0
    if kind == "sid":
        return sid_value(sit, action.cards) if careful else -1.0
    if kind == "chuck":
        return _chuck(sit) if careful else -1.0
    assert action.card is not None  # jose, play and play_as_bang name their card
    if kind == "jose":
        return 4.0 - keep_value(sit, action.card) if careful else -1.0
    key = KEY[action.card]
    if kind == "play_as_bang" or key == "bang":
        assert action.target is not None  # a BANG! always has a target
        target = sit.seat(action.target)
        cost = 0.4 * keep_value(sit, action.card) if kind == "play_as_bang" else 0.0
        return _shot(sit, target, careful) - cost
    if key in DRAW_CARDS:
        return DRAW_CARDS[key]
    scorer = _SCORERS.get(key)
    if scorer is not None:
        return scorer(sit, action, careful)
    if key in WEAPON_REACH:
        return _weapon(sit, action.card, careful)
    return -1.0


def _shot(sit: Situation, target: PlayerView, careful: bool) -> float:
    if not careful:
        return 4.0 * sit.enmity.get(target.seat, 0.0)
    return 5.0 * harm_value(sit, target) * shot_lands(sit.me, target, sit.view.event_active)


def sid_value(sit: Situation, cards: tuple[int, ...]) -> float:
    """Sid Ketchum's ability: a life point for two cards, worth more the lower he is."""
    me = sit.me
    if me.life >= me.max_life:
        return -1.0
    heal = {1: 8.0, 2: 5.0}.get(me.life, 2.5)
    return heal - 0.6 * sum(keep_value(sit, c) for c in cards)


def _chuck(sit: Situation) -> float:
    life = sit.me.life
    if life >= 4:
        return 2.5
    if life == 3 and (len(sit.view.hand) <= 1 or "beer" in sit.hand_keys):
        return 1.0
    return -1.0


def _beer(sit: Situation, action: Action, careful: bool) -> float:
    me = sit.me
    if me.life >= me.max_life or len(sit.others) < 2:
        return -1.0
    if not careful:
        return 5.0
    if sit.low:
        return 7.0
    if len(sit.view.hand) - 1 > me.life or me.life <= me.max_life - 2:
        return 3.0
    return -1.0


def _saloon(sit: Situation, action: Action, careful: bool) -> float:
    me = sit.me
    mine = (6.0 if sit.low else 3.0) if me.life < me.max_life else 0.0
    if not careful:
        return mine or 1.0
    theirs = sum(-1.5 * sit.enmity.get(p.seat, 0.0) for p in sit.others if p.life < p.max_life)
    return mine + theirs


def _general_store(sit: Situation, action: Action, careful: bool) -> float:
    if not careful:
        return 3.0
    return 2.5 - 0.4 * sum(sit.enmity.get(p.seat, 0.0) for p in sit.others)


def _equipment(value: float) -> Callable[[Situation, Action, bool], float]:
    return lambda sit, action, careful: value


def _scope(sit: Situation, action: Action, careful: bool) -> float:
    gained = sum(1 for p in sit.others if p.distance is not None
                 and p.distance - 1 <= sit.view.reach < p.distance
                 and sit.enmity.get(p.seat, 0.0) > FOE)
    return 5.0 + 2.0 * gained


def _dynamite(sit: Situation, action: Action, careful: bool) -> float:
    if not careful:
        return 1.0
    if sit.view.event_active in ("curse", "blessing"):  # it explodes on any 2-9, or never
        return -3.0
    risky_role = sit.view.role in (OUTLAW, RENEGADE)
    return 1.0 if risky_role and sit.me.life >= 3 and len(sit.others) >= 3 else -1.0


def _jail(sit: Situation, action: Action, careful: bool) -> float:
    assert action.target is not None  # Jail always has a target
    foe = sit.enmity.get(action.target, 0.0)
    if not careful:
        return 4.0 * foe
    target = sit.seat(action.target)
    return 4.0 * foe * (1.0 + 0.1 * min(target.hand_count, 5)) if foe > FOE else -1.0


def _take(sit: Situation, action: Action, careful: bool) -> float:
    """Panic! and Cat Balou: a random hand card, or a chosen card in play."""
    assert action.card is not None and action.target is not None
    target = sit.seat(action.target)
    foe = sit.enmity.get(action.target, 0.0)
    steals = KEY[action.card] == "panic"
    if action.pick is None:
        value = 1.5 * foe + (1.2 if steals else 0.0)
    else:
        picked = KEY[action.pick]
        loss = IN_PLAY_LOSS.get(picked)
        if loss is None:  # a weapon
            loss = 1.0 + 0.8 * WEAPON_REACH.get(picked, 0)
        value = loss * foe  # a negative loss (Jail) is a gift: good for friends only
        if steals:
            value += 0.3 * keep_value(sit, action.pick)
    if not careful:
        return 2.0 * foe + 0.5
    if target.character == "henry_block":
        value -= 1.5  # he shoots back first
    return value


def _duel(sit: Situation, action: Action, careful: bool) -> float:
    assert action.target is not None  # the Duel always has a target
    target = sit.seat(action.target)
    if not careful:
        return 3.0 * sit.enmity.get(target.seat, 0.0)
    mine = sum(sit.count(key) for key in sorted(traits(sit.me).bang_with))
    if sit.view.event_active == "the_sermon":  # no BANG! of mine on my own turn: I lose
        mine = 0
    per_card = 0.45 if "missed" in traits(target).bang_with else 0.3  # Calamity Janet
    theirs = per_card * target.hand_count
    win = min(0.9, max(0.1, 0.5 + 0.25 * (mine - theirs)))
    my_loss = 2.0 if sit.low else 1.0
    return 4.0 * (win * harm_value(sit, target) - (1 - win) * my_loss)


def _gatling(sit: Situation, action: Action, careful: bool) -> float:
    if not careful:
        return 3.0 * sum(sit.enmity.get(p.seat, 0.0) for p in sit.others)
    return 4.0 * sum(harm_value(sit, p) * shot_lands(sit.me, p, sit.view.event_active)
                     for p in sit.others)


def _indians(sit: Situation, action: Action, careful: bool) -> float:
    if not careful:
        return 3.0 * sum(sit.enmity.get(p.seat, 0.0) for p in sit.others)
    return 4.0 * sum(harm_value(sit, p) * 0.7 ** p.hand_count for p in sit.others)


def _weapon(sit: Situation, card: int, careful: bool) -> float:
    key = KEY[card]
    reach = sit.view.reach
    if key == "volcanic":
        if not careful:
            return 2.0 if reach <= 1 else -1.0
        close_foe = any(p.distance == 1 and sit.enmity.get(p.seat, 0.0) > FOE
                        for p in sit.others)
        extra = sit.count("bang") - 1
        if close_foe and extra > 0:
            return 3.0 + 1.5 * extra
        return 2.0 if reach <= 1 and not has(sit.me, "volcanic") else -1.0
    new_reach = WEAPON_REACH[key]
    if new_reach <= reach:
        return -1.0
    if not careful:
        return 4.0
    def foes_within(r: int) -> int:
        return sum(1 for p in sit.others if p.distance is not None and p.distance <= r
                   and sit.enmity.get(p.seat, 0.0) > FOE)
    return 3.0 + 2.0 * (foes_within(new_reach) - foes_within(reach)) + 0.3 * (new_reach - reach)


_SCORERS: Final[dict[str, Callable[[Situation, Action, bool], float]]] = {
    "beer": _beer,
    "saloon": _saloon,
    "general_store": _general_store,
    "barrel": _equipment(8.0),
    "mustang": _equipment(7.0),
    "scope": _scope,
    "dynamite": _dynamite,
    "jail": _jail,
    "panic": _take,
    "cat_balou": _take,
    "duel": _duel,
    "gatling": _gatling,
    "indians": _indians,
}
