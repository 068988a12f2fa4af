"""A person who leaves a game is replaced by a bot with the same name; the others are told."""

from __future__ import annotations

from pathlib import Path

from client_helpers import Player, lobby_app, table_of, until
from test_networked import seat_ann_with


async def test_the_table_is_told_when_a_bot_takes_a_seat_over(host, config_dir: Path,
                                                              tmp_path: Path) -> None:
    app = lobby_app(host.url, config_dir, "Ann")
    async with Player(host.url, tmp_path / "bob") as bob, \
            app.run_test(size=(100, 30), notifications=True) as pilot:
        room = await seat_ann_with(bob, pilot, app)
        table = table_of(app)
        assert table is not None

        def told() -> list[str]:
            return [str(n.message) for n in app._notifications if "left the game" in
                    str(n.message)]

        assert told() == []
        await bob.remote.leave(room)
        await until(pilot, told, what="the notice")
        assert told() == ["Bob left the game: a bot plays in their seat"]
