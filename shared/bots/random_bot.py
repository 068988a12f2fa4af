"""The random bot: a uniform pick among the legal actions. It proves the rules, not the play."""

from __future__ import annotations

import random

from shared.model import Action
from shared.views import TableView


class RandomBot:
    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: TableView) -> Action:
        if not view.options:
            raise ValueError("the bot has nothing to decide")
        return view.options[self._random.randrange(len(view.options))]
