"""The random bot: a uniform pick among the legal actions. It proves the rules, not the play."""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from shared.model import Action
from shared.views import TableView


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot of your own may extend it
class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: TableView) -> Action:
        return self.choose_among(view.options)

    def choose_among(self, options: tuple[Action, ...]) -> Action:
        """The choice from the options alone (see `shared.bots`): the driver calls this
        instead of `choose`, and spares itself building a whole view the bot would not read."""
        if not options:
            raise ValueError("the bot has nothing to decide")
        return options[self._random.randrange(len(options))]
