"""Whether an action is allowed, and why not, written once.

Every check returns None when the action is allowed and a `Refusal` when it is not. The engine
offers a seat exactly the actions that pass these checks (and those of `CARD_RULES` and of the
abilities in `shared.engine.abilities`), and `refusal()` explains a refused action by running
the same checks, so the options and the explanations cannot drift apart. Decisions without
checks of their own (a General Store pick, Kit Carlson's card...) are refused by their list of
options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from shared.cards import CARDS, KEY
from shared.engine.abilities import ACTION_OWNERS
from shared.engine.card_rules import CARD_RULES, ready_bang
from shared.engine.errors import NOT_AN_OPTION, WITHOUT_ABILITY, Refusal
from shared.model import Action, Decision, GameState, ShotFrame
from shared.rulebook import Rulebook, ability, rulebook
from shared.rules import alive_count, barrel_draws

END_TURN: Final = Action("end_turn")

DECISION_TEXT: Final = {
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

Check = Callable[[GameState, int, Action], Refusal | None]


# --- abilities -----------------------------------------------------------------------------

_NOT_AS_BANG: Final = Refusal("as_bang", "only Calamity Janet (Missed!) and Annie Versary "
                                         "may use other cards as BANG!")


def ready_as_bang(state: GameState, seat: int, card: int) -> Refusal | None:
    """Calamity Janet (a Missed!) and Annie Versary (any card) may play a card as a BANG!
    (`Character.plays_as_bang`)."""
    if KEY[card] not in ability(state, seat).plays_as_bang:
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


# --- answers out of turn --------------------------------------------------------------------

BARREL: Final = Action("barrel")
_UNAVOIDABLE: Final = Refusal("unavoidable",
                              "this BANG! cannot be avoided (Colorado Bill drew a Spade)")


def _shot(state: GameState) -> ShotFrame:
    """The BANG! being answered: a `respond_shot` decision is asked by the frame on top."""
    frame = state.stack[-1]
    assert isinstance(frame, ShotFrame)
    return frame


def _usable(state: GameState, seat: int, card: int, as_key: str) -> Refusal | None:
    """Whether the rulebook lets `seat` use `card` now as an `as_key` card."""
    book = rulebook(state)
    if type(book).forbids is Rulebook.forbids:  # the base game forbids nothing
        return None
    forbidden = book.forbids(state, seat, card, None if KEY[card] == as_key else as_key)
    return None if forbidden is None else Refusal("may_not_play", forbidden)


def check_barrel(state: GameState, seat: int, action: Action) -> Refusal | None:
    """A "draw!" for a Barrel (or Jourdonnais's ability) against the BANG! aimed at `seat`:
    once per Barrel against each BANG!."""
    if action != BARREL:
        return NOT_AN_OPTION
    frame = _shot(state)
    if frame.unavoidable:
        return _UNAVOIDABLE
    draws = barrel_draws(state, seat)
    if frame.barrels_used >= draws:
        if draws == 0:
            return Refusal("no_barrel", "you have no Barrel in play")
        return Refusal("barrel_used", "you have already drawn for your Barrel against this "
                                      "BANG!")
    return None


def check_missed(state: GameState, seat: int, action: Action) -> Refusal | None:
    """A Missed! (or a card the character plays as one: `Character.missed_with`) against the
    BANG! aimed at `seat`."""
    card = action.card
    if card is None or action != Action("missed", card=card):
        return NOT_AN_OPTION
    if _shot(state).unavoidable:
        return _UNAVOIDABLE
    character = ability(state, seat)
    if KEY[card] not in character.missed_with:
        if not character.missed_with:
            return Refusal("no_missed", "{} cannot play Missed! cards", (character.name,))
        return Refusal("not_missed", "{} is not a Missed!", (CARDS[card].label,))
    return _usable(state, seat, card, "missed")


def check_discard_bang(state: GameState, seat: int, action: Action) -> Refusal | None:
    """A BANG! (or a card the character uses as one: `Character.bang_with`) discarded in a
    Duel or against Indians!."""
    card = action.card
    if card is None or action != Action("discard_bang", card=card):
        return NOT_AN_OPTION
    if KEY[card] not in ability(state, seat).bang_with:
        return Refusal("not_bang", "{} is not a BANG!", (CARDS[card].label,))
    return _usable(state, seat, card, "bang")


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


def _check_ability(state: GameState, seat: int, action: Action) -> Refusal | None:
    """An ability's own action (Sid Ketchum, Chuck Wengam, José Delgado): its check."""
    return ACTION_OWNERS[action.kind].check(state, seat, action)


#: The checks of the play phase, by action kind.
_PLAY: Final[dict[str, Check]] = {
    "end_turn": _check_end_turn,
    "play": _check_play,
    "play_as_bang": _check_play,
    **dict.fromkeys(ACTION_OWNERS, _check_ability),
}

#: The checks of the answers out of turn, by decision kind and action kind.
_ANSWERS: Final[dict[tuple[str, str], Check]] = {
    ("respond_shot", "barrel"): check_barrel,
    ("respond_shot", "missed"): check_missed,
    ("respond_duel", "discard_bang"): check_discard_bang,
    ("respond_indians", "discard_bang"): check_discard_bang,
    ("dying", "beer"): check_beer_to_survive,
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
    elif action.kind in ACTION_OWNERS and ACTION_OWNERS[action.kind].at_any_time:
        check = _check_ability  # offered at every decision (EngineCore.ask)
    else:
        check = _ANSWERS.get((decision.kind, action.kind))
    if check is None:
        if action in decision.options:
            return None
        if action.kind not in {o.kind for o in decision.options}:
            return _not_now(decision, action)
        return _misplaced(state, seat, action) or NOT_AN_OPTION
    why = _misplaced(state, seat, action) or check(state, seat, action)
    return _not_now(decision, action) if why is WITHOUT_ABILITY else why


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
