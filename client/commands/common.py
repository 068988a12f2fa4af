"""What `bang play`, `bang join` and `bang watch` share: display flags and settings."""

from __future__ import annotations

import argparse

from client.i18n import LANGUAGES
from client.settings import Settings, default_name, load_settings, save_settings


def add_display_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the interface (en, it)")
    parser.add_argument("--theme", choices=("dark", "light"), help="colour theme")
    parser.add_argument(
        "--remember", action="store_true",
        help="save the name, broker, language and theme given here as your defaults",
    )


def settings_for(args: argparse.Namespace) -> Settings:
    """Saved settings with this run's flags on top (saved back with --remember)."""
    settings = load_settings()
    for field in ("name", "broker", "lang", "theme"):
        value = getattr(args, field, None)
        if value:
            setattr(settings, field, value)
    if not settings.name:
        settings.name = default_name()
    if getattr(args, "remember", False):
        save_settings(settings)
    return settings
