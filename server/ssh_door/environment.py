"""The client's environment, built from scratch: nothing the SSH client sends is passed on except
a whitelisted, validated few colour settings."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from server.ssh_door.identity import Identity

DEFAULT_TERM = "xterm-256color"
_TERM_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
_COLORTERM_VALUES = frozenset({"truecolor", "24bit"})
#: The directory holding the `client` and `server` packages (one distribution), so that
#: `python -m client.cli` in the child runs the same code as this server.
_CODE_ROOT = str(Path(__file__).resolve().parents[2])


def safe_term(term_type: str | None) -> str:
    return term_type if term_type and _TERM_RE.fullmatch(term_type) else DEFAULT_TERM


def build_env(
    term_type: str | None,
    client_env: Mapping[str, str],
    profile: Path,
    identity: Identity,
) -> dict[str, str]:
    """The complete environment of one client process (`spawn_child` adds BANG_DOOR_LOG_FD).

    OpenSSH forwards only LANG/LC_* by default, so most players get 256 colours; COLORTERM and
    NO_COLOR are honoured when their client sends them (`SendEnv COLORTERM NO_COLOR`).
    """
    env = {
        "TERM": safe_term(term_type),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(profile),
        "XDG_CONFIG_HOME": str(profile / "config"),
        "XDG_DATA_HOME": str(profile / "data"),
        "XDG_STATE_HOME": str(profile / "state"),
        "XDG_CACHE_HOME": str(profile / "cache"),
        "BANG_CONFIG_DIR": str(profile / "config" / "bang-terminal"),
        "PYTHONPATH": _CODE_ROOT,
        "PYTHONSAFEPATH": "1",  # never import from the (player-writable) working directory
        "PYTHONDONTWRITEBYTECODE": "1",
        # Fewer glibc malloc arenas: less address space reserved per thread, so the client
        # stays well inside its RLIMIT_AS on machines with many cores.
        "MALLOC_ARENA_MAX": "2",
        "BANG_DOOR": "1",
        "BANG_DOOR_PROFILE": str(profile),
    }
    if identity.key_fingerprint:
        env["BANG_DOOR_KEY"] = identity.key_fingerprint
    if client_env.get("COLORTERM") in _COLORTERM_VALUES:
        env["COLORTERM"] = client_env["COLORTERM"]
    if "NO_COLOR" in client_env:
        env["NO_COLOR"] = "1"
    return env
