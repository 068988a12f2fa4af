"""A small Textual app standing in for `bang join` in the door tests.

It shows what the tests need to check (its name, size, pid, key, a few environment facts and how
many times this profile has been used) and has keys to quit, crash, and try to open a link.
Run as a script: `python door_app.py --name NAME`.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Footer, Static

from client import door_mode


def count_visit() -> int:
    """Bump a counter kept in HOME, which the door points at the player's profile (persistent
    for a key, thrown away for a guest). 0 when not started by the door."""
    if "BANG_DOOR_PROFILE" not in os.environ:
        return 0
    counter = Path(os.environ["HOME"]) / "visits"
    try:
        visits = int(counter.read_text()) + 1
    except (OSError, ValueError):
        visits = 1
    counter.write_text(str(visits))
    return visits


class Info(Static):
    """Fills the screen, so every window size change resizes it."""

    DEFAULT_CSS = "Info { height: 1fr; }"

    def on_resize(self, event: events.Resize) -> None:
        self.app.call_later(self.app.show)  # type: ignore[attr-defined]


class DoorTestApp(App[None]):
    BINDINGS = [
        ("q", "quit", "Quit"),
        ("x", "crash", "Crash"),
        ("o", "open_link", "Open link"),
    ]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name
        self.visits = count_visit()

    def compose(self) -> ComposeResult:
        yield Info(id="info")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        env = os.environ
        width, height = self.size
        self.query_one("#info", Info).update(
            f"DOOR-APP name={self.player} pid={os.getpid()}\n"
            f"size={width}x{height} visits={self.visits}\n"
            f"door={env.get('BANG_DOOR')} key={env.get('BANG_DOOR_KEY', 'none')}\n"
            f"term={env.get('TERM')} lang={env.get('LANG')} "
            f"colorterm={env.get('COLORTERM', 'none')} leak={env.get('DOOR_TEST_LEAK', 'none')}"
        )

    def action_crash(self) -> None:
        secret_local = "LOCAL-VALUE-ONLY-FOR-THE-LOG"  # noqa: F841 (must not reach the screen)
        raise RuntimeError("deliberate crash for the door tests")

    def action_open_link(self) -> None:
        self.open_url("https://example.invalid/door-test")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    args = parser.parse_args()
    app = DoorTestApp(args.name)
    door_mode.apply(app)
    app.run()
    raise SystemExit(app.return_code or 0)


if __name__ == "__main__":
    main()
