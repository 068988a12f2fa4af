"""Starting one client process on its own pseudo-terminal, and ending it with everything it
started. The child is a session leader with the pty as its controlling terminal, so it gets
SIGWINCH on resize and SIGHUP when the player goes away."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import resource
import signal
import termios
from dataclasses import dataclass
from pathlib import Path

from server.ssh_door.config import SessionLimits
from server.ssh_door.terminal import set_window_size


@dataclass
class Child:
    process: asyncio.subprocess.Process
    master_fd: int  # the door's end of the pty (non-blocking)
    log_fd: int  # read end of the pipe the client writes its log and crash reports to

    @property
    def pid(self) -> int:
        return self.process.pid


def _apply_limits(limits: SessionLimits) -> None:
    """Runs in the child between fork and exec: only plain system calls here."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    for which, value in (
        (resource.RLIMIT_AS, limits.address_space),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_FSIZE, limits.file_size),
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_CORE, 0),  # no core files full of other players' game state
    ):
        _, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))
    os.nice(limits.nice)


async def spawn_child(
    argv: list[str],
    env: dict[str, str],
    cwd: Path,
    size: tuple[int, int],
    limits: SessionLimits,
) -> Child:
    """Start `argv` (never through a shell) on a fresh pty of `size` (columns, rows)."""
    master, slave = os.openpty()
    log_read, log_write = os.pipe()
    try:
        set_window_size(master, *size)
        os.set_blocking(master, False)
        os.set_blocking(log_read, False)
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**env, "BANG_DOOR_LOG_FD": str(log_write)},
            cwd=cwd,
            start_new_session=True,
            pass_fds=(log_write,),
            preexec_fn=lambda: _apply_limits(limits),
        )
    except BaseException:
        os.close(master)
        os.close(log_read)
        raise
    finally:
        os.close(slave)
        os.close(log_write)
    return Child(process, master, log_read)


def signal_group(child: Child, sig: signal.Signals) -> None:
    """Signal the child and anything it started (they share its process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, sig)


async def stop_child(child: Child, grace: float = 3.0) -> int:
    """Hang up on the child, then kill it if it has not gone within `grace` seconds."""
    if child.process.returncode is None:
        signal_group(child, signal.SIGHUP)
        try:
            await asyncio.wait_for(child.process.wait(), grace)
        except TimeoutError:
            signal_group(child, signal.SIGKILL)
    code = await child.process.wait()
    signal_group(child, signal.SIGKILL)  # stragglers that ignored the hangup
    return code
