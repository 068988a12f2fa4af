"""Who is at the other end of a session: a default name from the SSH user name and, when they
logged in with a key, a stable profile directory so a reconnecting player gets their seat back."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from shared import names

MAX_NAME_LENGTH = 16
FALLBACK_NAME = "guest"
_NAME_PUNCTUATION = "-_."


def sanitize_name(user: str) -> str:
    """A safe display name from an SSH user name: letters, digits and `-_.` only (no control
    characters or escape sequences can reach anyone's screen), never starting with `-` (it would
    read as an option), at most 16 characters, and a name the table accepts (shared.names: one
    alphabet, nothing invisible); "guest" when nothing is left."""
    text = unicodedata.normalize("NFKC", user)
    kept = "".join(ch for ch in text if ch.isalnum() or ch in _NAME_PUNCTUATION)
    kept = kept.lstrip(_NAME_PUNCTUATION)[:MAX_NAME_LENGTH]
    try:
        return names.normalize(kept)
    except names.BadName:
        return FALLBACK_NAME


@dataclass(frozen=True)
class Identity:
    """A logged-in player. `key_fingerprint` is None for guests."""

    name: str
    key_fingerprint: str | None = None
    key_digest: str | None = None  # hex SHA-256 of the public key blob, safe as a directory name

    @classmethod
    def guest(cls, user: str) -> Identity:
        return cls(sanitize_name(user))

    @classmethod
    def from_key(cls, user: str, key: asyncssh.SSHKey) -> Identity:
        return cls(
            sanitize_name(user),
            key.get_fingerprint("sha256"),
            hashlib.sha256(key.public_data).hexdigest(),
        )


class Profile:
    """The client's home for one session: persistent per key, a throw-away directory for guests.

    The client keeps its settings and seat credentials under it (HOME, XDG dirs and
    BANG_CONFIG_DIR all point inside), so a key's profile survives reconnects.
    """

    def __init__(self, path: Path, *, temporary: bool) -> None:
        self.path = path
        self.temporary = temporary

    @classmethod
    def open(cls, identity: Identity, players_dir: Path) -> Profile:
        if identity.key_digest is None:
            return cls(Path(tempfile.mkdtemp(prefix="bang-door-guest-")), temporary=True)
        players_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = players_dir / identity.key_digest
        path.mkdir(mode=0o700, exist_ok=True)
        return cls(path, temporary=False)

    def close(self) -> None:
        if self.temporary:
            shutil.rmtree(self.path, ignore_errors=True)
