"""The one exception type the engine raises for anything a player may not do, and the record
of why."""

from __future__ import annotations

from msgspec import Struct


class Refusal(Struct, frozen=True, gc=False):
    """Why an action is not allowed: `rule` names the check that refused it (for programs and
    tests: "out_of_reach", "one_bang", "immune", ...); `text` says it to a player. With
    `args`, `sentence` is a `str.format` template for them: the options are computed by the
    same checks, so a refusal is made far more often than it is read: it formats lazily, and is
    a Struct because msgspec builds one in C (a NamedTuple's constructor is Python code)."""

    rule: str
    sentence: str
    args: tuple[object, ...] = ()

    @property
    def text(self) -> str:
        return self.sentence.format(*self.args) if self.args else self.sentence


#: The refusal of an action with the right kind but a form no option has.
NOT_AN_OPTION = Refusal("not_an_option", "that is not one of the legal choices now")
#: An ability's check for a seat without that ability: its action is not possible now (the
#: reader says what the decision asks instead).
WITHOUT_ABILITY = Refusal("no_ability", "")


class IllegalAction(Exception):
    """An action refused by the rules. `reason` is a sentence a player can read; `code` is for
    programs: "stale" (an answer to a decision that is no longer pending), "not_your_decision",
    "malformed", "game_over", "no_decision" or "not_an_option". `refusal`, when the rules
    refused it, is the check's own record (`Refusal.rule` says which check)."""

    def __init__(self, reason: str, code: str = "not_an_option",
                 refusal: Refusal | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.refusal = refusal


class SetupError(ValueError):
    """A setup or rigged scenario that cannot be dealt."""
