"""What `bang play`, `bang join` and `bang watch` share: display flags and settings."""

from __future__ import annotations

import argparse

import msgspec

from client import door_mode
from client.i18n import LANGUAGES
from client.settings import Settings, default_name, load_settings, save_settings
from shared import names, protocol


def broker_url(text: str) -> str:
    """`--broker`: an mqtt:// or mqtts:// URL, checked before it is saved or used."""
    try:
        protocol.parse_broker_url(text)
    except protocol.ProtocolError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
    return text


def port_number(text: str) -> int:
    """`--port`: a TCP port, 1-65535 (0, any free port, is not one to tell players)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, not {value}")
    return value


def delay_seconds(text: str) -> float:
    """`--bot-delay`: seconds, 0 to a minute."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"must be 0 to 60 seconds, not {text}")
    return value


def decision_seconds(text: str) -> int:
    """`--timeout`: whole seconds for a decision, 0 (no limit) to the host's maximum."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of seconds") from None
    if not 0 <= value <= protocol.MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"must be 0 (no limit) to {protocol.MAX_TIMEOUT} seconds, not {value}")
    return value


def player_name(text: str) -> str:
    """`--name`: the name as the table will show it (see shared.names), or a clear error."""
    try:
        return names.normalize(text)
    except names.BadName as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None


def add_display_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the interface (en, it)")
    parser.add_argument("--theme", choices=("dark", "light"), help="colour theme")
    parser.add_argument(
        "--remember", action="store_true",
        help="keep the language and theme given here as your defaults (the name and broker "
        "are always kept as the last ones used)",
    )


def settings_for(args: argparse.Namespace) -> Settings:
    """Saved settings with this run's flags on top. The name given is kept as the last one
    used, the broker once a connection through it has worked (`remember_broker`); --remember
    also keeps the language and theme. Nothing is written in door mode (the disk is the
    server's)."""
    saved = load_settings()
    settings = msgspec.structs.replace(saved)
    for field in ("name", "broker", "lang", "theme"):
        value = getattr(args, field, None)
        if value:
            setattr(settings, field, value)
    keep = settings if getattr(args, "remember", False) else \
        msgspec.structs.replace(saved, name=settings.name)
    keep = msgspec.structs.replace(keep, broker=saved.broker)
    if keep != saved and not door_mode.is_door():
        save_settings(keep)
    if not settings.name:
        settings.name = default_name()
    return settings


def remember_broker(broker: str) -> None:
    """Keep `broker` as the default: called once it has been reached, so a mistyped or dead
    broker never becomes the default. Nothing is written in door mode."""
    saved = load_settings()
    if saved.broker != broker and not door_mode.is_door():
        save_settings(msgspec.structs.replace(saved, broker=broker))
