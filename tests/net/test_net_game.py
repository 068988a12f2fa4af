"""Full games between networked bot clients, over Mosquitto and the embedded broker."""

from __future__ import annotations

import asyncio
from pathlib import Path

from client.net import LobbyUpdate, Remote
from client.net.bot import play
from shared.bots.random_bot import RandomBot
from shared.invariants import problems


async def test_four_networked_bots_play_a_full_game(running_host, tmp_path: Path) -> None:
    remotes = [Remote(running_host.url, config_dir=tmp_path / f"c{i}") for i in range(4)]
    for remote in remotes:
        await remote.__aenter__()
    try:
        for remote in remotes:
            await remote.wait_connected()
        room = await remotes[0].create_room("Saloon", seats=4, turn_timeout=0)
        for i, remote in enumerate(remotes):
            assert await remote.join(room.id, f"P{i}") == i
        for remote in remotes[1:]:
            await remote.ready(room.id)
        await remotes[0].start(room.id)
        finals = await asyncio.wait_for(
            asyncio.gather(*(play(r, room.id, RandomBot(i)) for i, r in enumerate(remotes))),
            60,
        )
    finally:
        for remote in remotes:
            await remote.close()
    state = running_host.host.rooms[room.id].state
    assert state.winner is not None
    assert problems(state) == []
    for seat, final in enumerate(finals):
        assert final.seat == seat
        assert final.view.winner == state.winner
        assert list(final.view.hand) == state.players[seat].hand


async def test_every_update_loop_sees_every_update(running_host, tmp_path: Path) -> None:
    async with Remote(running_host.url, config_dir=tmp_path / "me") as remote:
        await remote.wait_connected()

        async def lobby_with_room(stream) -> LobbyUpdate:
            async for update in stream:
                if isinstance(update, LobbyUpdate) and update.rooms:
                    return update
            raise AssertionError("stream ended")

        screen = asyncio.create_task(lobby_with_room(remote.updates()))
        game = asyncio.create_task(lobby_with_room(remote.updates()))
        await asyncio.sleep(0.05)  # both loops are listening
        room = await remote.create_room("Two loops")
        first, second = await asyncio.wait_for(asyncio.gather(screen, game), 10)
        assert first == second and first.rooms[0].id == room.id
