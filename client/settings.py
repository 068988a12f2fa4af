"""The user's settings (name, last broker, language, theme), kept as JSON in the user config
dir. Command-line flags override them for one run; `--remember` writes them back.

The seat credential lives beside them: `identity.key` in the same directory is the key that
client.net.Remote uses to reclaim a seat after a dropped connection (see client/net/identity.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
from platformdirs import user_config_dir

APP_DIR_NAME = "bang-terminal"
DEFAULT_BROKER = "mqtt://127.0.0.1:1883"


class Settings(msgspec.Struct, omit_defaults=True):
    name: str = ""
    broker: str = DEFAULT_BROKER
    lang: str = "en"
    theme: str = "dark"  # "dark" | "light"


def config_path() -> Path:
    """`BANG_CONFIG_DIR` (tests, several profiles on one machine) or the platform config dir."""
    base = os.environ.get("BANG_CONFIG_DIR") or user_config_dir(APP_DIR_NAME)
    return Path(base) / "settings.json"


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings; defaults when there are none or the file is unreadable."""
    path = path or config_path()
    try:
        return msgspec.json.decode(path.read_bytes(), type=Settings)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return Settings()


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(msgspec.json.format(msgspec.json.encode(settings)))
    os.chmod(tmp, 0o600)
    tmp.replace(path)


def default_name(fallback: str = "Player") -> str:
    """The account's user name, else `fallback` (the word "Player" in the player's language)."""
    return os.environ.get("USER") or os.environ.get("USERNAME") or fallback
