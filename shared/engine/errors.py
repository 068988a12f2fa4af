"""The one exception type the engine raises for anything a player may not do."""


class IllegalAction(Exception):
    """An action refused by the rules. `reason` is a sentence a player can read; `code` is for
    programs: "stale" (an answer to a decision that is no longer pending), "not_your_decision",
    "malformed", "game_over", "no_decision" or "not_an_option"."""

    def __init__(self, reason: str, code: str = "not_an_option") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class SetupError(ValueError):
    """A setup or rigged scenario that cannot be dealt."""
