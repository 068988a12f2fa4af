"""A visible countdown to the moment the host applies the default answer."""

from __future__ import annotations

import math
import time

from textual.reactive import reactive
from textual.widgets import Static

from client.i18n import I18n


class Countdown(Static):
    deadline: reactive[float | None] = reactive(None)

    def __init__(self, i18n: I18n, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.i18n = i18n

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)
        self._tick()

    def watch_deadline(self) -> None:
        self._tick()

    def _tick(self) -> None:
        if self.deadline is None:
            self.update(self.i18n.t("no_timeout"))
            self.remove_class("-urgent")
            return
        left = max(0, math.ceil(self.deadline - time.time()))
        self.update(f"⏱ {self.i18n.t('seconds_left', n=left)}")
        self.set_class(left <= 5, "-urgent")
