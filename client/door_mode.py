"""Door mode: this client runs on the game server's machine for a player who came in over SSH
(`bang ssh-serve`), so it must never act on that machine on the player's behalf.

The door starts every client with `BANG_DOOR=1` in a freshly built environment. In door mode:

- no screenshots or other files are saved (the disk is the server's, not the player's);
- URLs are never opened (a browser would start on the server): the link is shown instead;
- the app cannot be suspended (there is no shell to resume it from);
- crash reports and log records go to the server's log through the pipe named by
  `BANG_DOOR_LOG_FD`; the player sees one short line, never a traceback with local variables.

Wiring, for the command the door runs (`bang join`): call `door_mode.apply(app)` once the App
instance exists and before `app.run()`. Outside door mode it does nothing and returns False.
Calling `door_mode.install_logging()` at the very start of the command as well keeps even early
warnings and errors off the player's screen.
Seat credentials need no special handling: the door points HOME, the XDG directories and
`BANG_CONFIG_DIR` at a per-player profile directory (one per SSH key fingerprint).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from textual.app import App, SystemCommand
from textual.screen import Screen

DOOR_ENV = "BANG_DOOR"
LOG_FD_ENV = "BANG_DOOR_LOG_FD"
CRASH_MESSAGE = "Sorry, the game client hit an error and closed. It has been reported."
_REFUSED_COMMANDS = frozenset({"Screenshot"})

log = logging.getLogger("client.door")


def is_door() -> bool:
    return os.environ.get(DOOR_ENV) == "1"


def apply(app: App[Any]) -> bool:
    """Harden `app` for door mode (see the module docstring). True if door mode is on."""
    if not is_door():
        return False
    install_logging()
    _harden(app)
    return True


def install_logging() -> None:
    """In door mode, send log records and uncaught exceptions to the door's log pipe, not to
    the screen. Does nothing outside door mode; safe to call more than once."""
    if not is_door():
        return
    root = logging.getLogger()
    if any(getattr(h, "_bang_door", False) for h in root.handlers):
        return
    try:
        stream = os.fdopen(int(os.environ[LOG_FD_ENV]), "w", buffering=1, encoding="utf-8")
    except (KeyError, ValueError, OSError):
        handler: logging.Handler = logging.NullHandler()  # nowhere safe to write: drop
    else:
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler._bang_door = True  # type: ignore[attr-defined]
    for old in list(root.handlers):  # e.g. a StreamHandler on stderr, which is the player's tty
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    sys.excepthook = _log_uncaught
    threading.excepthook = lambda args: _log_uncaught(
        args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback
    )


def _log_uncaught(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    log.critical("uncaught exception", exc_info=(exc_type, exc, tb))
    print(CRASH_MESSAGE, file=sys.stderr)


def _harden(app: App[Any]) -> None:
    # Textual's crash path is private API: fail loudly here (and in the tests) if it moves.
    original_handle = app._handle_exception
    if not callable(getattr(app, "_fatal_error", None)):
        raise RuntimeError("door mode: this Textual version has no App._fatal_error")

    def handle_exception(error: Exception) -> None:
        log.critical("client crashed", exc_info=(type(error), error, error.__traceback__))
        original_handle(error)

    def fatal_error() -> None:  # replaces the traceback-with-locals screen
        app.bell()
        app.panic(CRASH_MESSAGE)

    def open_url(url: str, *, new_tab: bool = True) -> None:
        app.notify(f"Links cannot be opened through the SSH door:\n{url}", markup=False)

    def refuse_file(*args: object, **kwargs: object) -> None:
        app.notify("Saving files is disabled through the SSH door.", severity="warning")

    def suspend() -> None:
        app.notify("Suspending is disabled through the SSH door.", severity="warning")

    original_commands = app.get_system_commands

    def system_commands(screen: Screen[Any]) -> Iterable[SystemCommand]:
        return [c for c in original_commands(screen) if c.title not in _REFUSED_COMMANDS]

    overrides = {
        "_handle_exception": handle_exception,
        "_fatal_error": fatal_error,
        "open_url": open_url,
        "save_screenshot": refuse_file,
        "deliver_screenshot": refuse_file,
        "action_screenshot": refuse_file,
        "_deliver_binary": refuse_file,  # behind deliver_text / deliver_binary
        "action_suspend_process": suspend,
        "get_system_commands": system_commands,
    }
    for name, replacement in overrides.items():
        setattr(app, name, replacement)
