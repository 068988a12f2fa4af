"""What a door operator can tune: listening address, authentication, caps, timeouts, limits."""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_data_dir

APP_DIR_NAME = "bang-terminal"


class AuthMode(enum.Enum):
    """How players log in.

    guest:  anybody, no key needed; nobody can reclaim a seat after a disconnect.
    pubkey: an SSH key is required; its fingerprint identifies the player.
    hybrid: a key is used when the client offers one, otherwise the player is a guest.
    """

    GUEST = "guest"
    PUBKEY = "pubkey"
    HYBRID = "hybrid"


@dataclass(frozen=True)
class SessionLimits:
    """Kernel limits (setrlimit) and priority for each client process."""

    address_space: int = 1 << 30  # bytes of virtual memory
    open_files: int = 256
    file_size: int = 64 << 20  # bytes any single file may grow to
    cpu_seconds: int = 4 * 3600  # generous: a whole evening of play
    nice: int = 5  # keep the host and its broker ahead of the clients


@dataclass(frozen=True)
class ChildRequest:
    """What the door knows about a session when it builds the client's command line."""

    broker_url: str
    name: str


def join_command(request: ChildRequest) -> list[str]:
    """The real client: `bang join` in door mode (door mode is signalled by the environment)."""
    return [
        sys.executable, "-m", "client.cli", "join",
        "--broker", request.broker_url, "--name", request.name,
    ]


def default_data_dir() -> Path:
    return Path(user_data_dir(APP_DIR_NAME)) / "ssh-door"


@dataclass(frozen=True)
class DoorConfig:
    broker_url: str
    port: int = 2222
    bind: str = ""  # all interfaces, IPv4 and IPv6
    auth: AuthMode = AuthMode.HYBRID
    data_dir: Path = field(default_factory=default_data_dir)
    host_key_path: Path | None = None  # default: <data_dir>/ssh_host_ed25519_key
    max_sessions: int = 50
    max_per_ip: int = 4
    idle_timeout: float = 1800.0  # seconds without a keystroke; 0 disables
    login_timeout: float = 30.0
    keepalive_interval: float = 30.0
    limits: SessionLimits = field(default_factory=SessionLimits)
    #: Bytes of client log lines (crash reports) kept in all while the door runs; each session
    #: is also capped at `childlog.LIMIT`.
    client_log_total: int = 32 << 20
    #: Builds the client's argument list; tests swap in a small Textual app of their own.
    child_command: Callable[[ChildRequest], list[str]] = join_command

    @property
    def host_key_file(self) -> Path:
        return self.host_key_path or self.data_dir / "ssh_host_ed25519_key"

    @property
    def players_dir(self) -> Path:
        """One profile directory per key fingerprint: where a player's seat credentials live."""
        return self.data_dir / "players"
