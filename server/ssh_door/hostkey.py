"""The server's ed25519 host key, generated once and kept (mode 0600) so that players never see
"REMOTE HOST IDENTIFICATION HAS CHANGED" after a restart."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh


class HostKeyError(Exception):
    """The host key file exists but cannot be used safely."""


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """Load the key at `path`, creating it (and its directory, mode 0700) if missing.

    Like sshd, refuse a key file that other users can read: it may have been copied.
    """
    if not path.exists():
        return _create(path)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise HostKeyError(
            f"host key {path} is readable by other users (mode {mode:o}); "
            f"run `chmod 600 {path}` or delete it to make a new one"
        )
    try:
        key = asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError) as exc:
        raise HostKeyError(f"cannot read host key {path}: {exc}") from exc
    if key.algorithm != b"ssh-ed25519":
        raise HostKeyError(f"host key {path} is {key.algorithm.decode()}, expected ssh-ed25519")
    return key


def _create(path: Path) -> asyncssh.SSHKey:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="bang-terminal ssh door")
    # O_EXCL: two servers starting at once must not overwrite each other's key.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """The SHA256 fingerprint as OpenSSH prints it (`ssh-keygen -lf`)."""
    return key.get_fingerprint("sha256")
