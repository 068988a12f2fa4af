"""One SSH session: refuse everything but an interactive terminal, then pump bytes between the
SSH channel and the client's pty until either side ends, and put the player's terminal back."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import time
from collections.abc import Mapping

import asyncssh

from server.ssh_door.caps import SessionCaps
from server.ssh_door.childlog import ChildLog, LogBudget
from server.ssh_door.config import ChildRequest, DoorConfig
from server.ssh_door.environment import build_env
from server.ssh_door.identity import Identity, Profile
from server.ssh_door.spawn import Child, spawn_child, stop_child
from server.ssh_door.terminal import ModeTracker, set_window_size, usable_size

log = logging.getLogger(__name__)

NO_PTY_MESSAGE = (
    "This is a BANG! game server: it only offers the game, which needs a terminal.\r\n"
    "Connect from a terminal with plain `ssh -p PORT HOST`: no -T, no command.\r\n"
)
_READ_SIZE = 65536
_DRAIN_TIMEOUT = 3.0  # seconds to wait for the last output after the client exits


def _duration(seconds: float) -> str:
    return f"{seconds / 60:g} minutes" if seconds >= 60 else f"{seconds:g} seconds"


class DoorSession(asyncssh.SSHServerSession[bytes]):
    """Callbacks from asyncssh for one session channel (see `asyncssh.SSHServerSession`)."""

    def __init__(
        self,
        config: DoorConfig,
        caps: SessionCaps,
        sessions: set[DoorSession],
        address: str,
        identity: Identity,
        log_budget: LogBudget,
    ) -> None:
        self._config = config
        self._log_budget = log_budget  # shared by every session of the door
        self._caps = caps
        self._sessions = sessions
        self._address = address
        self.identity = identity
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._term_type: str | None = None
        self._size = (80, 24)
        self._clamped = False  # a too large window was logged
        self._client_env: Mapping[str, str] = {}
        self.child: Child | None = None
        # True while the child's descriptors are open. Once closed, their numbers may be reused
        # by another session's pty: nothing may touch them after that.
        self._live = False
        self._task: asyncio.Task[None] | None = None  # held here so it is not collected
        self._channel_open = False
        self._tracker = ModeTracker()
        self._pending_input = bytearray()
        self._input_blocked = False
        self._reading_output = False
        self._output_done = asyncio.Event()
        self._stop_requested = asyncio.Event()
        self._child_log: ChildLog | None = None
        self._last_input = time.monotonic()
        self._farewell = ""
        #: Set when the channel is closed: the goodbye and exit status have reached the client.
        self.closed = asyncio.Event()

    # --- asyncssh callbacks -------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan
        self._channel_open = True

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        self._term_type = term_type
        self._size = self._window(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        log.info("%s: refused exec request", self._address)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("%s: refused subsystem %r", self._address, subsystem[:40])
        return False

    def session_started(self) -> None:
        assert self._chan is not None
        if self._term_type is None:
            self._refuse(NO_PTY_MESSAGE)
            return
        refusal = self._caps.try_acquire(self._address)
        if refusal:
            log.info("%s: refused, %s", self._address, refusal)
            self._refuse(refusal + "\r\n")
            return
        self._client_env = dict(self._chan.get_environment())
        self._chan.pause_reading()  # keystrokes wait in the SSH window until the child runs
        self._sessions.add(self)
        self._task = asyncio.create_task(self._run())

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._last_input = time.monotonic()
        if self.child is not None and not self._live:
            return  # the client has ended: nobody will read it
        self._pending_input += data
        self._flush_input()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = self._window(width, height)
        if self._live and self.child is not None:
            with contextlib.suppress(OSError):
                set_window_size(self.child.master_fd, width, height, pixwidth, pixheight)

    def _window(self, width: int, height: int) -> tuple[int, int]:
        """The size the client gets; a clamped one is logged, once per session."""
        size = usable_size(width, height)
        if size != (width, height) and width > 0 and height > 0 and not self._clamped:
            self._clamped = True
            log.info("%s: a %dx%d window is served as %dx%d", self._address, width, height,
                     *size)
        return size

    def eof_received(self) -> bool:
        return True  # keep the channel half-open; the game ends when the client exits

    def pause_writing(self) -> None:
        if self._reading_output and self.child is not None:
            asyncio.get_running_loop().remove_reader(self.child.master_fd)

    def resume_writing(self) -> None:
        if self._reading_output and self.child is not None:
            asyncio.get_running_loop().add_reader(self.child.master_fd, self._on_output)

    def connection_lost(self, exc: Exception | None) -> None:
        self._channel_open = False
        self.closed.set()
        self.end("")

    # --- the session ---------------------------------------------------------------------------

    @property
    def live(self) -> bool:
        """A game runs on this channel (a refused request never starts one)."""
        return self._task is not None and not self.closed.is_set()

    async def finished(self) -> None:
        """Until the client and everything it started are gone and the channel is closed."""
        if self._task is not None:
            await asyncio.shield(self._task)
        await self.closed.wait()

    def end(self, farewell: str) -> None:
        """Stop the client (the player left, idled out, or the server is stopping)."""
        if farewell and not self._farewell:
            self._farewell = farewell
        self._stop_requested.set()

    def _refuse(self, message: str) -> None:
        assert self._chan is not None
        self._chan.write_stderr(message.encode())
        self._chan.exit(1)

    async def _run(self) -> None:
        profile: Profile | None = None
        code = 255
        try:
            profile = Profile.open(self.identity, self._config.players_dir)
            self.child = await self._start(profile)
            await self._wait_for_end(self.child)
        except Exception:
            log.exception("%s: session failed", self._address)
            self._farewell = self._farewell or "Sorry, the game could not start; try again later."
        finally:
            code = await self._cleanup(profile)
        if code < 0 and not self._stop_requested.is_set():
            self._farewell = self._farewell or "The game client stopped unexpectedly."
        self._say_goodbye(code)

    async def _wait_for_end(self, child: Child) -> None:
        """Until the client exits (then let its last output through) or the session must end."""
        exited = asyncio.ensure_future(child.process.wait())
        stop = asyncio.ensure_future(self._stop_requested.wait())
        idle = asyncio.ensure_future(self._watch_idle())
        try:
            await asyncio.wait({exited, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (exited, stop, idle):
                task.cancel()
        if not self._stop_requested.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._output_done.wait(), _DRAIN_TIMEOUT)

    async def _start(self, profile: Profile) -> Child:
        env = build_env(self._term_type, self._client_env, profile.path, self.identity)
        argv = self._config.child_command(
            ChildRequest(self._config.broker_url, self.identity.name)
        )
        child = await spawn_child(argv, env, profile.path, self._size, self._config.limits)
        log.info(
            "%s: session for %r (%s) started, pid %d",
            self._address, self.identity.name, self.identity.key_fingerprint or "guest", child.pid,
        )
        loop = asyncio.get_running_loop()
        loop.add_reader(child.master_fd, self._on_output)
        self._reading_output = True
        self._child_log = ChildLog(child.log_fd, f"{self._address} [{self.identity.name}]",
                                   self._log_budget)
        loop.add_reader(child.log_fd, self._on_child_log)
        self.child = child
        self._live = True
        self._flush_input()
        if self._channel_open and self._chan is not None:
            self._chan.resume_reading()
        return child

    async def _cleanup(self, profile: Profile | None) -> int:
        """Stop the client and everything it started, release the slot; the exit status."""
        code = 255
        child = self.child
        if child is not None:
            code = await stop_child(child)
            self._stop_output()
            self._input_blocked = False
            loop = asyncio.get_running_loop()
            loop.remove_writer(child.master_fd)
            loop.remove_reader(child.log_fd)
            while self._child_log is not None and self._child_log.read():
                pass
            self._live = False
            os.close(child.master_fd)
            os.close(child.log_fd)
            log.info("%s: session for %r ended, exit status %d",
                     self._address, self.identity.name, code)
        if profile is not None:
            profile.close()
        self._caps.release(self._address)
        self._sessions.discard(self)
        return code

    def _say_goodbye(self, code: int) -> None:
        if not self._channel_open or self._chan is None:
            return
        message = self._tracker.reset_sequence()
        if self._farewell:
            message += b"\r\n" + self._farewell.encode() + b"\r\n"
        self._chan.write(message)
        self._chan.exit(code if 0 <= code < 256 else 1)

    async def _watch_idle(self) -> None:
        idle = self._config.idle_timeout
        if idle <= 0:
            return
        while True:
            remaining = self._last_input + idle - time.monotonic()
            if remaining <= 0:
                log.info("%s: idle for %.0f s, closing", self._address, idle)
                self.end(f"Disconnected: no keystroke for {_duration(idle)}.")
                return
            await asyncio.sleep(remaining)

    # --- byte pumps ----------------------------------------------------------------------------

    def _on_output(self) -> None:
        assert self.child is not None
        try:
            data = os.read(self.child.master_fd, _READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: every holder of the pty's other end has closed it
            if exc.errno != errno.EIO:
                log.warning("%s: pty read failed: %s", self._address, exc)
            data = b""
        if not data:
            self._stop_output()
            return
        self._tracker.feed(data)
        if self._channel_open and self._chan is not None:
            self._chan.write(data)

    def _stop_output(self) -> None:
        if self._reading_output and self.child is not None:
            asyncio.get_running_loop().remove_reader(self.child.master_fd)
        self._reading_output = False
        self._output_done.set()

    def _flush_input(self) -> None:
        """Write pending keystrokes to the pty; when it is full, stop reading the channel
        until it drains, so a stuck client cannot make the door buffer without bound."""
        child = self.child
        if not self._live or child is None:
            return
        loop = asyncio.get_running_loop()
        while self._pending_input:
            try:
                written = os.write(child.master_fd, self._pending_input)
            except BlockingIOError:
                break
            except OSError:
                self._pending_input.clear()  # the client is gone; nobody will read it
                break
            del self._pending_input[:written]
        if self._pending_input and not self._input_blocked:
            self._input_blocked = True
            loop.add_writer(child.master_fd, self._flush_input)
            if self._chan is not None:
                self._chan.pause_reading()
        elif not self._pending_input and self._input_blocked:
            self._input_blocked = False
            loop.remove_writer(child.master_fd)
            if self._chan is not None and self._channel_open:
                self._chan.resume_reading()

    def _on_child_log(self) -> None:
        assert self._child_log is not None
        self._child_log.read()
        if self._child_log.at_end:
            asyncio.get_running_loop().remove_reader(self._child_log.fd)
