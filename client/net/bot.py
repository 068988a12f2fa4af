"""A networked bot: any object with `choose(view) -> Action` playing one seat over a Remote."""

from __future__ import annotations

import logging
from typing import Any

from client.net.remote import Remote, RemoteError
from client.net.tables import TableUpdate

log = logging.getLogger("bang.netbot")

#: Refusals a bot may meet in normal play: its answer raced a timeout or a newer snapshot.
BENIGN = {"illegal", "stale"}


async def play(remote: Remote, room: str, bot: Any) -> TableUpdate:
    """Answer every decision of this client's seat in `room` until the game is over;
    returns the final update."""
    answered: int | None = None
    async for update in remote.updates():
        if not isinstance(update, TableUpdate) or update.room != room:
            continue
        if update.info.status == "over":
            return update
        view = update.view
        if view is None or view.pending is None or not view.options:
            continue
        if view.pending.id == answered:
            continue
        answered = view.pending.id
        try:
            await remote.act(room, view.pending.id, bot.choose(view))
        except RemoteError as exc:
            if exc.code not in BENIGN and exc.code not in ("disconnected", "unreachable",
                                                            "applied"):
                raise
            log.debug("room %s: answer refused (%s)", room, exc)
    raise RuntimeError("the update stream ended")
