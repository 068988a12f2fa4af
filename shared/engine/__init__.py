"""The rules engine's public API.

    state = new_game(Setup(players=5, seed=7))
    state.pending            # who must decide what: Decision(id, seat, kind, options, default)
    events = apply(state, seat, action)   # IllegalAction(reason) if not allowed; state untouched
"""

from __future__ import annotations

from shared.engine.deal import new_game, start_game
from shared.engine.errors import NOT_AN_OPTION, IllegalAction, Refusal, SetupError
from shared.engine.legality import refusal
from shared.engine.machine import Engine
from shared.model import Action, Event, GameState

__all__ = ["IllegalAction", "Refusal", "SetupError", "apply", "new_game", "refusal", "start_game"]


def apply(state: GameState, seat: int, action: Action,
          decision_id: int | None = None) -> list[Event]:
    """Apply `seat`'s `action` to the pending decision and advance to the next one.

    `decision_id`, when given, must match the pending decision's id, so that a late or
    duplicated answer is refused instead of being applied to a later decision."""
    decision = state.pending
    if decision is None:
        if state.winner:
            raise IllegalAction("the game is over", "game_over")
        raise IllegalAction("nothing to decide now", "no_decision")
    if decision_id is not None and decision_id != decision.id:
        raise IllegalAction(
            f"that answer was for decision {decision_id}, but decision {decision.id} is pending",
            "stale",
        )
    if not _well_formed(seat, action):
        raise IllegalAction("malformed action: expected an Action with integer card, target "
                            "and pick fields", "malformed")
    if seat != decision.seat or action not in decision.options:
        # The options are what the checks allow; the same checks say why this is not one.
        why = refusal(state, seat, action) or NOT_AN_OPTION
        raise IllegalAction(why.text, "not_your_decision" if seat != decision.seat
                            else "not_an_option", why)
    engine = Engine(state)
    engine.resolve(action)
    state.actions += 1
    engine.run()
    return engine.events


def _well_formed(seat: object, action: object) -> bool:
    """Type checks for callers that build actions by hand (decoded ones are already typed)."""
    if type(seat) is not int or not isinstance(action, Action):
        return False
    if not isinstance(action.kind, str) or not isinstance(action.cards, tuple):
        return False
    card, target, pick, cards = action.card, action.target, action.pick, action.cards
    return ((card is None or type(card) is int) and (target is None or type(target) is int)
            and (pick is None or type(pick) is int)
            and (not cards or all(type(c) is int for c in cards)))
