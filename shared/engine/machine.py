"""The whole engine: the mixins put together, and dispatch from frames to their handlers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.engine.play import PlayMixin
from shared.engine.responses import ResponseMixin
from shared.engine.turn import TurnMixin
from shared.model import (
    Action,
    BeforeCardFrame,
    Decision,
    DuelFrame,
    DyingFrame,
    EventFrame,
    Frame,
    GringoFrame,
    IndiansFrame,
    KitFrame,
    LuckyFrame,
    MoveFrame,
    ShotFrame,
    StoreFrame,
    TurnFrame,
    YoulFrame,
)
from shared.rulebook import rulebook


class Engine(TurnMixin, PlayMixin, ResponseMixin):
    def step(self, frame: Frame) -> Decision | None:
        return _STEP[type(frame)](self, frame)

    def resolve(self, action: Action) -> None:
        """Answer the pending decision. Sid Ketchum's ability answers none: he heals, and the
        same decision is asked again (his cards and life changed)."""
        if action.kind == "sid":
            assert self.s.pending is not None  # apply() refuses earlier when nothing is pending
            self.resolve_sid(self.s.pending.seat, action)
            return
        frame = self.s.stack[-1]
        _RESOLVE[type(frame)](self, frame, action)

    def step_event(self, frame: EventFrame) -> Decision | None:
        return rulebook(self.s).step_frame(self, frame)

    def resolve_event(self, frame: EventFrame, action: Action) -> None:
        rulebook(self.s).resolve_frame(self, frame, action)


# Each handler takes the frame type it is keyed by, which a dict's type cannot say: `Any`.
_STEP: dict[type[Frame], Callable[[Engine, Any], Decision | None]] = {
    TurnFrame: Engine.step_turn,
    ShotFrame: Engine.step_shot,
    DyingFrame: Engine.step_dying,
    IndiansFrame: Engine.step_indians,
    DuelFrame: Engine.step_duel,
    StoreFrame: Engine.step_store,
    LuckyFrame: Engine.step_lucky,
    KitFrame: Engine.step_kit,
    MoveFrame: Engine.step_move,
    GringoFrame: Engine.step_gringo,
    YoulFrame: Engine.step_youl,
    BeforeCardFrame: Engine.step_before_card,
    EventFrame: Engine.step_event,
}

_RESOLVE: dict[type[Frame], Callable[[Engine, Any, Action], None]] = {
    TurnFrame: Engine.resolve_turn,
    ShotFrame: Engine.resolve_shot,
    DyingFrame: Engine.resolve_dying,
    IndiansFrame: Engine.resolve_indians,
    DuelFrame: Engine.resolve_duel,
    StoreFrame: Engine.resolve_store,
    LuckyFrame: Engine.resolve_lucky,
    KitFrame: Engine.resolve_kit,
    YoulFrame: Engine.resolve_youl,
    BeforeCardFrame: Engine.resolve_before_card,
    EventFrame: Engine.resolve_event,
}
