"""Whether an action is allowed, and why not, written once.

Every check returns None when the action is allowed and a `Refusal` when it is not. The engine
offers a seat exactly the actions that pass these checks (and those of `CARD_RULES`), and
`refusal()` explains a refused action by running the same checks, so the options and the
explanations cannot drift apart. Decisions without checks of their own (a General Store pick,
Kit Carlson's card...) are refused by their list of options.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.cards import BLUE, CARDS, KEY
from shared.engine.card_rules import CARD_RULES, ready_bang
from shared.engine.errors import Refusal
from shared.model import Action, Decision, GameState
from shared.rulebook import has_ability, rulebook
from shared.rules import alive_count

END_TURN = Action("end_turn")
CHUCK = Action("chuck")

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
    "before_card": "use an ability before the card aimed at you, or let it be",
    # High Noon
    "daltons_discard": "discard a card in front of you (The Daltons)",
    "new_identity": "keep your character or take your new identity",
    "name_suit": "name the suit you will play this turn (Handcuffs)",
    "kit_keep": "choose the card to keep",
}

#: The refusal of an action with the right kind but a form no option has.
NOT_AN_OPTION = Refusal("not_an_option", "that is not one of the legal choices now")
#: A check's answer for a seat without the character's ability: the action is not possible.
_NO_ABILITY = Refusal("no_ability", "")

Check = Callable[[GameState, int, Action], Refusal | None]


# --- abilities -------------------------------------------------------------------------------

def ready_sid(state: GameState, seat: int) -> Refusal | None:
    """Sid Ketchum: two cards from his hand for a life point, below his maximum, any time."""
    p = state.players[seat]
    if not has_ability(state, seat, "sid_ketchum"):
        return _NO_ABILITY
    if p.life >= p.max_life:
        return Refusal("full_life", "Sid Ketchum is at his maximum life")
    if len(p.hand) < 2:
        return Refusal("sid_cards", "Sid Ketchum discards two cards from his hand")
    return None


def check_sid(state: GameState, seat: int, action: Action) -> Refusal | None:
    why = ready_sid(state, seat)
    if why is not None:
        return why
    hand, cards = state.players[seat].hand, action.cards
    if not (len(cards) == 2 and cards[0] < cards[1] and cards[0] in hand and cards[1] in hand
            and action == Action("sid", cards=cards)):
        return Refusal("sid_cards", "Sid Ketchum discards two different cards from his hand "
                                    "(named in card order)")
    return None


def check_chuck(state: GameState, seat: int, action: Action) -> Refusal | None:
    if not has_ability(state, seat, "chuck_wengam"):
        return _NO_ABILITY
    if state.players[seat].life <= 1:
        return Refusal("last_life", "Chuck Wengam cannot give up his last life point")
    return None if action == CHUCK else NOT_AN_OPTION


def ready_jose(state: GameState, seat: int) -> Refusal | None:
    if not has_ability(state, seat, "jose_delgado"):
        return _NO_ABILITY
    if state.jose_uses >= 2:
        return Refusal("twice", "José Delgado uses his ability at most twice per turn")
    return None


def check_jose(state: GameState, seat: int, action: Action) -> Refusal | None:
    why = ready_jose(state, seat)
    if why is not None:
        return why
    card = action.card
    if card is None or KEY[card] not in BLUE or action != Action("jose", card=card):
        return Refusal("blue_card", "José Delgado discards a blue card from his hand")
    return None


_NOT_AS_BANG = Refusal("as_bang", "only Calamity Janet (Missed!) and Annie Versary may use "
                                  "other cards as BANG!")


def ready_as_bang(state: GameState, seat: int, card: int) -> Refusal | None:
    """Calamity Janet (a Missed!) and Annie Versary (any card) may play a card as a BANG!."""
    key = KEY[card]
    if key == "bang" or not (has_ability(state, seat, "annie_versary") or (
            key == "missed" and has_ability(state, seat, "calamity_janet"))):
        return _NOT_AS_BANG  # asked for every card in hand at every play decision
    return ready_bang(state, seat, card)


# --- cards -----------------------------------------------------------------------------------

def _check_play(state: GameState, seat: int, action: Action) -> Refusal | None:
    """A card played on one's turn, as itself or as a BANG!: the card's own checks."""
    card = action.card
    if card is None:
        return NOT_AN_OPTION
    key = KEY[card]
    as_key = "bang" if action.kind == "play_as_bang" else None
    forbidden = rulebook(state).forbids(state, seat, card, as_key)
    if forbidden is not None:
        return Refusal("may_not_play", forbidden)
    if action.kind == "play_as_bang":
        rule = CARD_RULES["bang"]
        why = ready_as_bang(state, seat, card)
    else:
        found = CARD_RULES.get(key)
        if found is None:
            return Refusal("out_of_turn", "Missed! is played only to cancel a BANG! aimed at "
                                          "you, out of turn")
        rule = found
        why = rule.ready(state, seat, card)
    why = why or rule.check(state, seat, action)
    if why is None and action not in rule.shapes(state, seat, card, action.kind):
        return NOT_AN_OPTION
    return why


def check_beer_to_survive(state: GameState, seat: int, action: Action) -> Refusal | None:
    """A Beer played when dying saves a life only while more than two players are left."""
    card = action.card
    if card is None or KEY[card] != "beer" or action != Action("beer", card=card):
        return NOT_AN_OPTION
    if alive_count(state) <= 2:
        return Refusal("two_left", "a Beer does not save a life when only two players are left")
    forbidden = rulebook(state).forbids(state, seat, card)
    if forbidden is not None:
        return Refusal("may_not_play", forbidden)
    return None


def _check_end_turn(state: GameState, seat: int, action: Action) -> Refusal | None:
    return None if action == END_TURN else NOT_AN_OPTION


#: The checks of the play phase, by action kind.
_PLAY: dict[str, Check] = {
    "end_turn": _check_end_turn,
    "play": _check_play,
    "play_as_bang": _check_play,
    "sid": check_sid,
    "chuck": check_chuck,
    "jose": check_jose,
}

# --- the reader ------------------------------------------------------------------------------

def refusal(state: GameState, seat: int, action: Action) -> Refusal | None:
    """Why `seat` may not answer the pending decision with `action` (None: it may): the
    check that decides it, or the decision's options where it has no check of its own."""
    decision = state.pending
    assert decision is not None  # apply() refuses earlier when nothing is pending
    if not 0 <= seat < len(state.players):
        return Refusal("no_seat", "there is no seat {} at this table", (seat,))
    if seat != decision.seat:
        return Refusal("not_your_decision", "it is not your decision: waiting for {} to {}",
                       (state.players[decision.seat].name, DECISION_TEXT[decision.kind]))
    check: Check | None = None
    if decision.kind == "play":
        check = _PLAY.get(action.kind)
    elif action.kind == "sid":  # offered at every decision (PlayMixin.ask)
        check = check_sid
    elif decision.kind == "dying" and action.kind == "beer":
        check = check_beer_to_survive
    if check is None:
        if action in decision.options:
            return None
        if action.kind not in {o.kind for o in decision.options}:
            return _not_now(decision, action)
        return _misplaced(state, seat, action) or NOT_AN_OPTION
    why = _misplaced(state, seat, action) or check(state, seat, action)
    return _not_now(decision, action) if why is _NO_ABILITY else why


def _not_now(decision: Decision, action: Action) -> Refusal:
    kinds = ", ".join(sorted({o.kind for o in decision.options}))
    return Refusal("not_now", "'{}' is not possible now: you must {} ({})",
                   (action.kind, DECISION_TEXT[decision.kind], kinds))


def _misplaced(state: GameState, seat: int, action: Action) -> Refusal | None:
    """A card that is not in the hand, or a target that is not a living player."""
    if action.card is not None:
        if not 0 <= action.card < len(CARDS):
            return Refusal("no_card", "there is no card {}", (action.card,))
        if action.card not in state.players[seat].hand:
            return Refusal("not_in_hand", "{} is not in your hand", (CARDS[action.card].label,))
    target = action.target
    if target is not None and not (0 <= target < len(state.players)
                                   and state.players[target].alive):
        return Refusal("no_player", "seat {} is not a player in the game", (target,))
    return None
