"""The client's log pipe: its records and crash reports become lines in the server's log, never
text on the player's screen."""

from __future__ import annotations

import logging
import os

log = logging.getLogger("server.ssh_door.session")

LIMIT = 256 * 1024  # bytes kept per session: a client cannot flood the server's log
_READ_SIZE = 65536


class LogBudget:
    """Bytes of client log lines the whole door may still write. The per-session cap alone
    leaves the total open: every crash adds about 30 lines, and players may crash or reconnect
    as often as they like, so a door running for weeks could fill the disk."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.left = total
        self.closed = False

    def spend(self, size: int) -> bool:
        """May a line of `size` bytes be written? Once one does not fit, none is any more, and
        the server's log says so in one line."""
        if not self.closed and size <= self.left:
            self.left -= size
            return True
        if not self.closed:
            self.closed = True
            log.warning("client log lines have reached the cap for the whole door (%s): from "
                        "now on the clients' log lines and crash reports are dropped, until the "
                        "door restarts", _size(self.total))
        return False


def _size(count: int) -> str:
    return f"{count / (1 << 20):g} MiB" if count >= 1 << 20 else f"{count} bytes"


class ChildLog:
    def __init__(self, fd: int, label: str, budget: LogBudget | None = None) -> None:
        self.fd = fd  # non-blocking read end
        self.label = label
        self.at_end = False
        self._buffer = bytearray()
        self._kept = 0
        self._budget = budget

    def read(self) -> bool:
        """Take in what the pipe holds; False when nothing more can be read for now."""
        try:
            data = os.read(self.fd, _READ_SIZE)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if not data:
            self.at_end = True
            self._emit(bytes(self._buffer))  # a last line without a newline
            self._buffer.clear()
            return False
        if self._kept < LIMIT:
            self._kept += len(data)
            self._buffer += data
            *lines, rest = self._buffer.split(b"\n")
            self._buffer = bytearray(rest)
            for line in lines:
                self._emit(line)
        return True

    def _emit(self, line: bytes | bytearray) -> None:
        if line.strip() and (self._budget is None or self._budget.spend(len(line))):
            log.warning("%s client: %s", self.label, line.decode("utf-8", "replace").rstrip())
