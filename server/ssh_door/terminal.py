"""Pseudo-terminal helpers: window sizes, and putting the player's terminal back the way it was
however the client ended (a crash or a kill leaves mouse reporting and the alternate screen on)."""

from __future__ import annotations

import fcntl
import re
import struct
import termios

DEFAULT_SIZE = (80, 24)
#: The largest window a client is given (columns, rows). No screen shows more, and a client
#: asked to draw 10,000 x 10,000 cells ran into its memory limit.
MAX_SIZE = (500, 250)


def usable_size(width: int, height: int) -> tuple[int, int]:
    """Some clients report 0x0 (or nothing sensible): fall back to 80x24. A window past
    MAX_SIZE is clamped to it."""
    if width <= 0 or height <= 0:
        return DEFAULT_SIZE
    return min(width, MAX_SIZE[0]), min(height, MAX_SIZE[1])


def set_window_size(
    fd: int, width: int, height: int, pixwidth: int = 0, pixheight: int = 0
) -> None:
    """Set the pty's size (as `usable_size` makes it); the kernel then sends SIGWINCH to the
    foreground process group."""
    cols, rows = usable_size(width, height)
    if (cols, rows) != (width, height) or not (0 <= pixwidth <= 0xFFFF
                                               and 0 <= pixheight <= 0xFFFF):
        pixwidth = pixheight = 0
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, pixwidth, pixheight))


#: DEC private modes a full-screen app may leave behind, with the terminal's default state.
_MODE_DEFAULTS: dict[int, bool] = {
    1: False,  # application cursor keys
    7: True,  # auto-wrap
    25: True,  # cursor visible
    47: False, 1047: False, 1049: False,  # alternate screen
    1000: False, 1002: False, 1003: False, 1005: False, 1006: False,  # mouse reporting
    1015: False, 1016: False,
    1004: False,  # focus events
    2004: False,  # bracketed paste
    2048: False,  # in-band resize notifications
}
_ALT_SCREEN = (1049, 1047, 47)
_DEC_MODE = re.compile(rb"\x1b\[\?([0-9;]+)([hl])")
_KITTY_PUSH = re.compile(rb"\x1b\[>[0-9]*u")
_KITTY_POP = re.compile(rb"\x1b\[<([0-9]*)u")
_TAIL = 32  # longer than any sequence above, so one split across two reads is still seen


class ModeTracker:
    """Follows the terminal modes set by the output stream, to undo what is left at the end."""

    def __init__(self) -> None:
        self._modes: dict[int, bool] = {}
        self._kitty_depth = 0
        self._tail = b""

    def feed(self, data: bytes) -> None:
        buf = self._tail + data
        # Sequences wholly inside the old tail were counted last time: only take matches that
        # end inside the new data.
        old = len(self._tail)
        for match in _DEC_MODE.finditer(buf):
            if match.end() > old:
                on = match.group(2) == b"h"
                for number in match.group(1).split(b";"):
                    if number and int(number) in _MODE_DEFAULTS:
                        self._modes[int(number)] = on
        for match in _KITTY_PUSH.finditer(buf):
            if match.end() > old:
                self._kitty_depth += 1
        for match in _KITTY_POP.finditer(buf):
            if match.end() > old:
                self._kitty_depth = max(0, self._kitty_depth - int(match.group(1) or 1))
        self._tail = buf[-_TAIL:]

    def reset_sequence(self) -> bytes:
        """Bytes that restore every mode left changed; the alternate screen is left last, so the
        cursor lands back where the player's shell had it."""
        out = [b"\x1b[0m"]
        if self._kitty_depth:
            out.append(b"\x1b[<%du" % self._kitty_depth)
        for number, on in self._modes.items():
            if on != _MODE_DEFAULTS[number] and number not in _ALT_SCREEN:
                out.append(b"\x1b[?%d%s" % (number, b"h" if _MODE_DEFAULTS[number] else b"l"))
        for number in _ALT_SCREEN:
            if self._modes.get(number):
                out.append(b"\x1b[?%dl" % number)
        return b"".join(out)
