"""The whole engine, and dispatch from frames to their handlers.

The engine's parts are stacked, one file each: `EngineCore` (core.py) < `PlayMixin` (play.py,
what may be played) < `TurnMixin` (turn.py, the turn's steps) < `ResponseMixin` (responses.py,
everything out of turn) < `Engine`. A single line of inheritance, not mixins side by side,
so that mypyc can compile the engine (see docs/ENGINE.md, "Compiled")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from shared.engine.abilities import ACTION_OWNERS, FRAME_OWNERS
from shared.engine.responses import ResponseMixin
from shared.model import (
    Action,
    Decision,
    DuelFrame,
    DyingFrame,
    EventFrame,
    Frame,
    IndiansFrame,
    MoveFrame,
    ShotFrame,
    StoreFrame,
    TurnFrame,
)
from shared.rulebook import rulebook


class Engine(ResponseMixin):
    def step(self, frame: Frame) -> Decision | None:
        return _STEP[type(frame)](self, frame)

    def resolve(self, action: Action) -> None:
        """Answer the pending decision. An ability used at any moment (Sid Ketchum's) answers
        none: it is used, and the same decision is asked again (cards and life changed)."""
        owner = ACTION_OWNERS.get(action.kind)
        if owner is not None and owner.at_any_time:
            assert self.s.pending is not None  # apply() refuses earlier when nothing is pending
            owner.use(self, self.s.pending.seat, action)
            return
        frame = self.s.stack[-1]
        _RESOLVE[type(frame)](self, frame, action)

    def step_event(self, frame: EventFrame) -> Decision | None:
        return rulebook(self.s).step_frame(self, frame)

    def resolve_event(self, frame: EventFrame, action: Action) -> None:
        rulebook(self.s).resolve_frame(self, frame, action)


# Each handler takes the frame type it is keyed by, which a dict's type cannot say: `Any`.
# The frames of a character's own decisions are resolved by its ability (FRAME_OWNERS).
_STEP: Final[dict[type[Frame], Callable[[Engine, Any], Decision | None]]] = {
    TurnFrame: Engine.step_turn,
    ShotFrame: Engine.step_shot,
    DyingFrame: Engine.step_dying,
    IndiansFrame: Engine.step_indians,
    DuelFrame: Engine.step_duel,
    StoreFrame: Engine.step_store,
    MoveFrame: Engine.step_move,
    EventFrame: Engine.step_event,
    **{frame: owner.step for frame, owner in FRAME_OWNERS.items()},
}

_RESOLVE: Final[dict[type[Frame], Callable[[Engine, Any, Action], None]]] = {
    TurnFrame: Engine.resolve_turn,
    ShotFrame: Engine.resolve_shot,
    DyingFrame: Engine.resolve_dying,
    IndiansFrame: Engine.resolve_indians,
    DuelFrame: Engine.resolve_duel,
    StoreFrame: Engine.resolve_store,
    EventFrame: Engine.resolve_event,
    **{frame: owner.resolve for frame, owner in FRAME_OWNERS.items()},
}
