"""Helpers for the SSH door tests: a door running in a background thread (its own event loop) in
front of a small Textual app, the real OpenSSH client, and a private tmux server to drive it.

Every wait polls with a generous upper bound: slow machines make the tests slower, not red.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from server.ssh_door import DoorConfig, DoorServer, start_door
from server.ssh_door.config import ChildRequest

DOOR_APP = Path(__file__).with_name("door_app.py")
WAIT = 30.0  # upper bound for anything the tests wait for; normally well under a second
#: The last item the test app shows: once it is on the screen, all the rest is too.
APP_SHOWN = "leak="

T = TypeVar("T")

def door_app_command(request: ChildRequest) -> list[str]:
    return [sys.executable, str(DOOR_APP), "--name", request.name]


def wait_until(check: Callable[[], T], what: str, timeout: float = WAIT) -> T:
    """Poll `check` until it returns something truthy; fail saying `what` never happened."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children_of(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except (OSError, ValueError):
            continue
        if entry.isdigit() and int(stat.rpartition(")")[2].split()[1]) == parent:
            found.append(int(entry))
    return found


def proc_status(pid: int) -> dict[str, str]:
    """/proc/PID/status as a dict: "Uid" -> "0\t0\t0\t0", "NoNewPrivs" -> "1", ..."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {name: value.strip() for name, _, value in (line.partition(":") for line in lines)}


@dataclass
class Served:
    """`bang ssh-serve` running in a subprocess, its output collected in a file."""

    process: subprocess.Popen[bytes]
    port: int
    mqtt_port: int
    output: Path

    def text(self) -> str:
        return self.output.read_text()


#: The interpreter that runs `bang ssh-serve` and, through it, the door's clients: this one,
#: unless a test needs one that another user may run (see test_ssh_serve_user.py).
PYTHON = sys.executable


def serve_argv(port: int, data: Path, *options: str) -> list[str]:
    return [PYTHON, "-m", "client.cli", "ssh-serve", "--bind", "127.0.0.1",
            "--port", str(port), "--data", str(data), *options]


def run_cli(tmp_path: Path, *options: str, data: Path | None = None,
            **popen: Any) -> subprocess.CompletedProcess[str]:
    """`bang ssh-serve` expected to stop by itself (a startup error): its exit status and
    output. `popen` goes to subprocess.run (e.g. user= to start it as someone else)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    argv = serve_argv(free_port(), data or tmp_path / "door", "--mqtt-port", str(free_port()),
                      *options)
    return subprocess.run(argv, capture_output=True, text=True, timeout=WAIT, env=env, **popen)


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class LogRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def text(self) -> str:
        return "\n".join(self.lines)


class RunningDoor:
    """A door serving on 127.0.0.1 from a background thread."""

    def __init__(self, config: DoorConfig) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: DoorServer = self.call(start_door(config))
        self.port = self.call(self._port())

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(WAIT)

    async def _port(self) -> int:
        return self.server.port

    async def _children(self) -> list[tuple[int, str, str | None]]:
        return [
            (s.child.pid, s.identity.name, s.identity.key_fingerprint)
            for s in self.server.sessions
            if s.child is not None
        ]

    def children(self) -> list[tuple[int, str, str | None]]:
        """(pid, player name, key fingerprint) of every running client process."""
        return self.call(self._children())

    async def _connections(self) -> int:
        return self.server.connections.active

    def connections(self) -> int:
        """Connections open, logged in or not."""
        return self.call(self._connections())

    async def _active(self) -> int:
        return self.server.caps.active

    def active(self) -> int:
        return self.call(self._active())

    def close(self) -> None:
        if self.loop.is_closed():
            return
        self.call(self.server.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()


class Ssh:
    """Argument lists for the OpenSSH client, isolated from the user's own ssh setup."""

    def __init__(self, tmp_path: Path) -> None:
        self.known_hosts = tmp_path / "known_hosts"
        self.tmp_path = tmp_path

    def argv(self, port: int, user: str = "alice", *extra: str,
             key: Path | None = None, strict: bool = False) -> list[str]:
        argv = [
            "ssh", "-F", "/dev/null", "-p", str(port),
            "-o", f"UserKnownHostsFile={self.known_hosts}",
            "-o", "StrictHostKeyChecking=" + ("yes" if strict else "accept-new"),
            "-o", "IdentityAgent=none",
            "-o", "ConnectTimeout=20",
        ]
        if key is None:
            argv += ["-o", "PubkeyAuthentication=no"]
        else:
            argv += ["-o", "IdentitiesOnly=yes", "-i", str(key)]
        return [*argv, *extra, "-l", user, "127.0.0.1"]

    def run(self, port: int, *extra: str, user: str = "alice", command: list[str] | None = None,
            key: Path | None = None, strict: bool = False) -> subprocess.CompletedProcess[str]:
        """Run ssh without a terminal (stdin from /dev/null) and collect what it printed."""
        argv = self.argv(port, user, "-o", "BatchMode=yes", *extra, key=key, strict=strict)
        return subprocess.run(argv + (command or []), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=WAIT)

    def keygen(self, name: str = "id_ed25519") -> Path:
        key = self.tmp_path / name
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
                       check=True, timeout=WAIT)
        return key


class Tmux:
    """A private tmux server; each window runs one ssh client in a real terminal."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket
        self.env = {**os.environ, "TERM": "xterm-256color"}

    def cmd(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-S", str(self.socket), "-f", "/dev/null", *args],
            check=True, capture_output=True, text=True, timeout=WAIT, env=self.env,
        ).stdout

    def open(self, name: str, argv: list[str], width: int = 100, height: int = 30,
             keep_shell: bool = True) -> None:
        """Run `argv` in a new window. With `keep_shell`, a shell prints `SSH-EXIT=<status>`
        afterwards and stays, so the terminal's state after the session can be inspected."""
        command = shlex.join(argv)
        if keep_shell:
            command = f"sh -c {shlex.quote(command + '; echo SSH-EXIT=$?; exec sleep 600')}"
        self.cmd("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), command)

    def screen(self, name: str) -> str:
        return self.cmd("capture-pane", "-p", "-t", name)

    def wait_for(self, name: str, text: str) -> str:
        last = [""]

        def shown() -> str:
            last[0] = self.screen(name)
            return last[0] if text in last[0] else ""

        try:
            return wait_until(shown, f"{text!r} on the screen of {name}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the screen shows:\n{last[0].rstrip()}") from None

    def send(self, name: str, *keys: str) -> None:
        self.cmd("send-keys", "-t", name, *keys)

    def resize(self, name: str, width: int, height: int) -> None:
        self.cmd("resize-window", "-t", name, "-x", str(width), "-y", str(height))

    def state(self, name: str) -> dict[str, str]:
        """The terminal modes tmux sees in the pane (1 = on)."""
        names = ["alternate_on", "mouse_any_flag", "mouse_sgr_flag", "cursor_flag",
                 "keypad_cursor_flag"]
        values = self.cmd("display", "-p", "-t", name, " ".join(f"#{{{n}}}" for n in names))
        return dict(zip(names, values.split(), strict=True))

    def pane_pid(self, name: str) -> int:
        return int(self.cmd("display", "-p", "-t", name, "#{pane_pid}"))

    def kill(self) -> None:
        subprocess.run(["tmux", "-S", str(self.socket), "kill-server"],
                       capture_output=True, timeout=WAIT)
