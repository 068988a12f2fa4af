"""UI benchmarks: `python -m client.uibench` prints two figures.

1. Update to redraw: a 7-player table receives the views of real games (random bots, seat 0's
   view after every action; a rematch when one ends) one at a time; for each, the time from
   the update arriving at the client (put in the session's queue) to the first frame and to
   the last frame of the redraw.
   Frames are rendered to the ANSI text a terminal would receive (headless Textual skips only
   the final write).
2. Start-up: `bang play` (and `bang play --offline`) in a pseudo-terminal, from spawning the
   process to the table's hand appearing on the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import math
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from fcntl import ioctl

from client.app import BangApp
from client.embedded import free_port
from client.screens.game_over import GameOverScreen
from client.session import Session, ViewUpdate
from shared.bots.random_bot import RandomBot
from shared.describe import describe
from shared.driver import GameDriver
from shared.engine import start_game
from shared.events import redact
from shared.model import Action, Event, GameState
from shared.setup import Setup
from shared.views import view


class FeedSession(Session):
    """Updates come from the benchmark, one at a time."""

    def __init__(self) -> None:
        super().__init__()
        self.seat = 0
        self.room = "bench"

    async def start(self) -> None:
        return None

    async def act(self, action: Action, decision_id: int) -> None:
        return None

    async def rematch(self) -> None:
        return None

    async def say(self, text: str = "", phrase: str = "") -> None:
        return None

    async def close(self) -> None:
        return None


def _seen_after(seen: Callable[[GameState, list[Event]], None], state: GameState,
                _seat: int, _action: Action, events: list[Event]) -> None:
    seen(state, events)


def game_updates(players: int, seed: int, limit: int) -> list[ViewUpdate]:
    """Seat 0's view after each action of random-bot games (a new one when one ends)."""
    updates: list[ViewUpdate] = []

    def seen(state: GameState, events: list[Event]) -> None:
        lines = tuple(describe(e, state, 0) for e in (redact(e, 0) for e in events))
        updates.append(ViewUpdate(view(state, 0), lines))

    while len(updates) < limit:
        state, events = start_game(Setup(players=players, seed=seed + len(updates)))
        seen(state, events)
        driver = GameDriver(state, {s: RandomBot(seed + s) for s in range(players)})
        driver.observers.append(functools.partial(_seen_after, seen, state))
        while driver.bot_to_move() and len(updates) < limit:
            driver.play_bot()
    return updates


async def redraw_times(
    size: tuple[int, int], updates: list[ViewUpdate]
) -> dict[str, tuple[list[float], list[float]]]:
    """First- and last-frame latencies, for plain table updates and for those that bring a
    decision of yours (its choices drawn in the list; "prompt")."""
    session = FeedSession()
    app = BangApp(session)
    frames: list[float] = []
    frame_seen = asyncio.Event()
    async with app.run_test(size=size) as pilot:
        original = app._display

        def display(screen, renderable) -> None:  # noqa: ANN001
            original(screen, renderable)
            if renderable is not None:
                renderable.render_segments(app.console)  # the ANSI a terminal would get
                frames.append(time.perf_counter())
                frame_seen.set()

        app._display = display  # type: ignore[method-assign]
        session.emit(updates[0])
        await pilot.pause(0.3)
        times: dict[str, tuple[list[float], list[float]]] = {
            "table": ([], []), "prompt": ([], []),
        }
        for update in updates[1:]:
            frame_seen.clear()
            frames.clear()
            start = time.perf_counter()
            session.emit(update)
            await asyncio.wait_for(frame_seen.wait(), 5)
            await asyncio.sleep(0.05)  # let the redraw settle: later frames count to "last"
            drawn = [f for f in frames if f >= start]
            prompted = bool(update.view.options)
            first, last = times["prompt" if prompted else "table"]
            first.append(drawn[0] - start)
            last.append(drawn[-1] - start)
            if isinstance(app.screen, GameOverScreen):  # a rematch, as the player would
                app.screen.dismiss(True)  # (the next view is the next game's)
                await pilot.pause(0.1)
            await pilot.pause()
    return times


def ranks(samples: list[float]) -> dict[str, float]:
    """Nearest-rank p50 and p95 and the maximum of `samples` (seconds), in milliseconds."""
    ms = sorted(s * 1000 for s in samples)

    def rank(p: float) -> float:
        return ms[max(0, math.ceil(p / 100 * len(ms)) - 1)]

    return {"p50": rank(50), "p95": rank(95), "max": ms[-1]}


def percentiles(samples: list[float]) -> str:
    r = ranks(samples)
    return (f"p50 {r['p50']:.1f} ms  p95 {r['p95']:.1f} ms  max {r['max']:.1f} ms  "
            f"(n={len(samples)})")


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def startup_time(extra: list[str], size: tuple[int, int] = (80, 24),
                 timeout: float = 30) -> float:
    """Seconds from spawning `bang play` in a pty to the hand being drawn."""
    master, slave = pty.openpty()
    ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, BANG_CONFIG_DIR=f"{tmp}/config", XDG_DATA_HOME=f"{tmp}/data",
                   TERM="xterm-256color", COLUMNS=str(size[0]), LINES=str(size[1]))
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "play", "--name", "Bench", *extra],
            stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
        )
        os.close(slave)
        seen = b""
        try:
            while time.perf_counter() - start < timeout:
                ready, _, _ = select.select([master], [], [], 0.05)
                if ready:
                    try:
                        seen += os.read(master, 65536)
                    except OSError:
                        break
                    if b"Your hand" in seen:
                        return time.perf_counter() - start
            raise RuntimeError("the table was not drawn in time:\n" + seen[-2000:].decode(
                errors="replace"))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
            os.close(master)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.uibench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--updates", type=positive, default=300,
                        help="views fed per table size")
    parser.add_argument("--starts", type=positive, default=5,
                        help="start-ups measured per mode")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead: KIND_WxH_FRAME_p50_ms, _p95_ms, "
                        "_max_ms and _n (KIND table or prompt, FRAME first or last), and "
                        "startup_play_median_ms, startup_offline_median_ms")
    args = parser.parse_args(argv)

    figures: dict[str, float] = {}
    updates = game_updates(players=7, seed=1, limit=args.updates)
    for width, height in ((80, 24), (160, 50)):
        times = asyncio.run(redraw_times((width, height), updates))
        if not args.json:
            print(f"update -> redraw, 7 players, {width}x{height}")
        for kind, frames in times.items():
            for frame, samples in zip(("first", "last"), frames, strict=True):
                if not samples:  # no update of this kind among those fed
                    continue
                if not args.json:
                    print(f"  {kind:6} {frame} frame:{' ' * (6 - len(frame))}"
                          f"{percentiles(samples)}")
                prefix = f"{kind}_{width}x{height}_{frame}"
                figures.update({f"{prefix}_{name}_ms": round(value, 2)
                                for name, value in ranks(samples).items()})
                figures[f"{prefix}_n"] = len(samples)
    for label, key, extra in (("bang play", "play", ["--port", str(free_port())]),
                              ("bang play --offline", "offline", ["--offline"])):
        ms = sorted(startup_time(extra) * 1000 for _ in range(args.starts))
        figures[f"startup_{key}_median_ms"] = round(statistics.median(ms), 1)
        if not args.json:
            print(f"start-up to a drawn table, {label}: median {statistics.median(ms):.0f} ms, "
                  f"min {ms[0]:.0f} ms, max {ms[-1]:.0f} ms (n={len(ms)})")
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
