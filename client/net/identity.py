"""What a client keeps on disk: its credential (an X25519 key; the seats it takes are bound to
it) and the fingerprints of the hosts it has met (trust on first use, like SSH)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs
from msgspec import Struct

from shared import crypto

IDENTITY_FILE = "identity.key"
KNOWN_HOSTS_FILE = "known_hosts.json"


def default_config_dir() -> Path:
    return Path(platformdirs.user_config_dir("bang-terminal"))


def load_or_create_key(config_dir: Path) -> crypto.ClientKey:
    """The key in `config_dir`, made on first use. It is the player's credential: the file is
    0600 (made so again if someone loosened it) and a new config directory 0700."""
    path = config_dir / IDENTITY_FILE
    if path.exists():
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return crypto.ClientKey.from_bytes(path.read_bytes())
    key = crypto.ClientKey.generate()
    config_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.to_bytes())
    return key


class HostKey(Struct, frozen=True):
    fingerprint: str
    sign_key: bytes
    kx_key: bytes


class KnownHosts:
    """Pinned host keys by broker URL, in a small JSON file."""

    def __init__(self, config_dir: Path) -> None:
        self.path = config_dir / KNOWN_HOSTS_FILE

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            return json.loads(self.path.read_text())
        except (FileNotFoundError, ValueError):
            return {}

    def get(self, broker: str) -> HostKey | None:
        entry = self._load().get(broker)
        if entry is None:
            return None
        return HostKey(entry["fingerprint"], bytes.fromhex(entry["sign_key"]),
                       bytes.fromhex(entry["kx_key"]))

    def check(self, broker: str, key: HostKey) -> bool:
        """Pin `key` if this broker is new; False when it differs from the pinned one."""
        pinned = self.get(broker)
        if pinned is not None:
            return pinned.fingerprint == key.fingerprint
        data = self._load()
        data[broker] = {"fingerprint": key.fingerprint, "sign_key": key.sign_key.hex(),
                        "kx_key": key.kx_key.hex()}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=2))
        tmp.replace(self.path)
        return True
