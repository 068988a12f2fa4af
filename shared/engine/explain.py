"""Why an action is refused, in words a player understands."""

from __future__ import annotations

from shared.cards import BLUE, CARD_NAMES, CARDS, KEY
from shared.characters import CHARACTERS
from shared.engine.core import is_immune
from shared.model import Action, GameState
from shared.roles import SHERIFF
from shared.rulebook import has_ability
from shared.rules import distance, has_in_play, may_bang, reach

DECISION_TEXT = {
    "play": "play a card or end the turn",
    "discard": "discard down to the hand limit",
    "respond_shot": "answer a BANG!",
    "dying": "play a Beer or be eliminated",
    "respond_indians": "answer the Indians!",
    "respond_duel": "answer the Duel",
    "store_pick": "pick a card from the General Store",
    "lucky_pick": "choose which \"draw!\" counts",
    "kit_put_back": "choose the card to put back on the deck",
    "draw_source": "choose where to draw the first card from",
    "youl_give": "give Youl Grinner a card",
}

#: Action kinds that are a character's ability, by that character.
_ABILITIES = {"sid": "sid_ketchum", "chuck": "chuck_wengam", "jose": "jose_delgado"}


def _name(state: GameState, seat: int) -> str:
    return state.players[seat].name


def explain(state: GameState, seat: int, action: Action) -> str:
    decision = state.pending
    assert decision is not None
    if not 0 <= seat < len(state.players):
        return f"there is no seat {seat} at this table"
    if seat != decision.seat:
        return (f"it is not your decision: waiting for {_name(state, decision.seat)} to "
                f"{DECISION_TEXT[decision.kind]}")
    kinds = {o.kind for o in decision.options}
    # A card play or an ability of one's own is explained below, even when none is possible now.
    playing = decision.kind == "play" and action.kind in ("play", "play_as_bang")
    owner = _ABILITIES.get(action.kind)
    ability = owner is not None and has_ability(state, seat, owner) and (
        action.kind == "sid" or decision.kind == "play")
    if action.kind not in kinds and not (playing or ability):
        return (f"'{action.kind}' is not possible now: you must "
                f"{DECISION_TEXT[decision.kind]} ({', '.join(sorted(kinds))})")
    player = state.players[seat]
    if action.card is not None:
        if not 0 <= action.card < len(CARDS):
            return f"there is no card {action.card}"
        if action.card not in player.hand:
            return f"{CARDS[action.card].label} is not in your hand"
    if action.target is not None and not (
        0 <= action.target < len(state.players) and state.players[action.target].alive
    ):
        return f"seat {action.target} is not a player in the game"
    if decision.kind == "play" and action.card is not None:
        reason = _explain_play(state, seat, action)
        if reason:
            return reason
    if action.kind == "sid":
        return "Sid Ketchum discards two different cards from his hand, below his maximum life"
    if action.kind == "chuck":
        return "Chuck Wengam cannot give up his last life point"
    if action.kind == "jose":
        return "José Delgado discards a blue card from his hand, at most twice per turn"
    return "that is not one of the legal choices now"


def _explain_play(state: GameState, seat: int, action: Action) -> str | None:
    assert action.card is not None  # explain() calls this only for an action with a card
    player = state.players[seat]
    key = KEY[action.card]
    name = CARD_NAMES[key]
    target = action.target
    as_bang = action.kind == "play_as_bang" or key == "bang"
    if key == "missed" and not as_bang:
        return "Missed! is played only to cancel a BANG! aimed at you, out of turn"
    if action.kind == "play_as_bang" and not (has_ability(state, seat, "calamity_janet")
                                              or has_ability(state, seat, "annie_versary")):
        return "only Calamity Janet (Missed!) and Annie Versary may use other cards as BANG!"
    if as_bang:
        if not may_bang(state, seat):
            return "you have already played a BANG! this turn (only one, unless Volcanic)"
        if target is None or target == seat:
            return "a BANG! needs another player as its target"
        d, r = distance(state, seat, target), reach(state, seat)
        if d > r:
            return f"{_name(state, target)} is at distance {d}, but your reach is {r}"
    if target is not None and is_immune(state, target, action.card, seat):
        return f"{CHARACTERS['apache_kid'].name} is not affected by Diamond cards"
    if key == "jail":
        if target is None or target == seat:
            return "Jail goes in front of another player"
        if state.players[target].role == SHERIFF and not state.three_player:
            return "Jail cannot be played on the Sheriff"
        if has_in_play(state.players[target], "jail"):
            return f"{_name(state, target)} is already in Jail"
    elif key in BLUE and any(KEY[c] == key for c in player.in_play):
        return f"you already have a {name} in play (no two cards with the same name)"
    if key == "panic" and target is not None and distance(state, seat, target) > 1:
        return (f"Panic! reaches only distance 1; {_name(state, target)} is at "
                f"{distance(state, seat, target)}")
    if key in ("panic", "cat_balou") and target is not None:
        victim = state.players[target]
        if action.pick is not None and action.pick not in victim.in_play:
            return f"{_name(state, target)} has no such card in play"
        if action.pick is None and not victim.hand:
            return f"{_name(state, target)} has no cards in hand"
    if key == "duel" and (target is None or target == seat):
        return "challenge another player to the Duel"
    return None
