"""The one exception type the engine raises for anything a player may not do."""


class IllegalAction(Exception):
    """An action refused by the rules. `reason` is a sentence a player can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SetupError(ValueError):
    """A setup or rigged scenario that cannot be dealt."""
