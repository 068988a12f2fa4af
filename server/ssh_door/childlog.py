"""The client's log pipe: its records and crash reports become lines in the server's log, never
text on the player's screen."""

from __future__ import annotations

import logging
import os

log = logging.getLogger("server.ssh_door.session")

LIMIT = 256 * 1024  # bytes kept per session: a client cannot flood the server's log
_READ_SIZE = 65536


class ChildLog:
    def __init__(self, fd: int, label: str) -> None:
        self.fd = fd  # non-blocking read end
        self.label = label
        self.at_end = False
        self._buffer = bytearray()
        self._kept = 0

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

    def _emit(self, line: bytes) -> None:
        if line.strip():
            log.warning("%s client: %s", self.label, line.decode("utf-8", "replace").rstrip())
