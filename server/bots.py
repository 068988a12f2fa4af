"""Bot kinds a room may ask for. A kind names a class with `__init__(seed)` and
`choose(view) -> Action`; more kinds are added here as `shared/bots/` grows."""

from __future__ import annotations

import importlib
from typing import Any

BOT_KINDS = {
    "random": "shared.bots.random_bot:RandomBot",
}


def make_bot(kind: str, seed: int) -> Any:
    try:
        module_name, class_name = BOT_KINDS[kind].split(":")
    except KeyError:
        raise ValueError(f"unknown bot kind {kind!r}; known: {', '.join(BOT_KINDS)}") from None
    return getattr(importlib.import_module(module_name), class_name)(seed)
