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
        self._text = ""

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)
        self._tick()

    def watch_deadline(self) -> None:
        self._tick()

    def _tick(self) -> None:
        if self.deadline is None:
            text, urgent = self.i18n.t("no_timeout"), False
        else:
            left = max(0, math.ceil(self.deadline - time.time()))
            text, urgent = f"⏱ {self.i18n.t('seconds_left', n=left)}", left <= 5
        if text != self._text:  # one line that never changes size: no layout pass
            self._text = text
            self.update(text, layout=False)
        self.set_class(urgent, "-urgent")
