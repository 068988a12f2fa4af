"""What the commands share: flag types (names, brokers, numbers), display flags and settings."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

import msgspec

from client import door_mode
from client.i18n import LANGUAGES, I18n
from client.settings import Settings, default_name, load_settings, save_settings
from shared import names, protocol
from shared.setup import HighNoonOptions, expansions_problem

Number = TypeVar("Number", int, float)


def broker_url(text: str) -> str:
    """`--broker`: an mqtt:// or mqtts:// URL, checked before it is saved or used."""
    try:
        protocol.parse_broker_url(text)
    except protocol.ProtocolError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
    return text


def unreachable(broker: str) -> str | None:
    """Why the broker cannot be reached now (refused, no answer, a refused login), or None.
    Commands ask it once before they start, so a wrong address is one line, not a screen or
    a benchmark that waits; once the table is up, the lobby reports a lost broker and tries
    again."""
    import asyncio

    from shared.mqtt import MqttError, MqttLink

    async def connect() -> None:
        link = await MqttLink.open(protocol.parse_broker_url(broker), lambda topic, data: None)
        link.close()

    try:
        asyncio.run(connect())
    except MqttError as exc:
        return str(exc)
    return None


def bounded(convert: Callable[[str], Number], low: Number, high: Number | None, what: str,
            span: str) -> Callable[[str], Number]:
    """An argparse type for a number flag: `convert` it, then `low` <= it (<= `high`), else one
    line saying it is not `what`, or what it `span`s."""

    def parse(text: str) -> Number:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not (low <= value and (high is None or value <= high)):  # NaN fails both
            raise argparse.ArgumentTypeError(f"must be {span}, not {text}")
        return value

    return parse


#: `--port`: a TCP port players are told (0, any free port, is not one).
port_number = bounded(int, 1, 65535, "a port number", "1-65535")
#: `--bot-delay`: seconds a bot waits before acting.
delay_seconds = bounded(float, 0.0, 60.0, "a number of seconds", "0 to 60 seconds")
#: `--timeout`: whole seconds for a decision, 0 (no limit) to the host's maximum.
decision_seconds = bounded(int, 0, protocol.MAX_TIMEOUT, "a whole number of seconds",
                           f"0 (no limit) to {protocol.MAX_TIMEOUT} seconds")


def player_name(text: str) -> str:
    """`--name`: the name as the table will show it (see shared.names), or a clear error."""
    try:
        return names.normalize(text)
    except names.BadName as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None


def expansion_list(text: str) -> tuple[str, ...]:
    """`--expansions`: a comma-separated list of known expansions, each once ("" for none)."""
    chosen = tuple(name.strip() for name in text.split(",") if name.strip())
    problem = expansions_problem(chosen)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return chosen


def rulings(text: str) -> HighNoonOptions:
    """`--rulings`: High Noon's options, comma-separated: a name switches it on
    ("doctor_heals_wounded"), name=value sets it ("event_limit=6", "bonus=false")."""
    fields: dict[str, object] = {}
    for item in (part.strip() for part in text.split(",") if part.strip()):
        name, equals, value = item.partition("=")
        name = name.strip()
        if name not in HighNoonOptions.__struct_fields__:
            raise argparse.ArgumentTypeError(
                f"unknown ruling {name!r}; known: {', '.join(HighNoonOptions.__struct_fields__)}")
        fields[name] = value.strip() if equals else True
    try:
        return msgspec.convert(fields, HighNoonOptions, strict=False)
    except msgspec.ValidationError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None


def check_rulings(args: argparse.Namespace, command: str) -> str | None:
    """The one-line error when `--rulings` does not go with `--expansions` or `--players`
    (None: they go together); the command prints it and exits with 2."""
    players = args.players if isinstance(args.players, int) else args.players[0]  # a range
    problem = expansions_problem(list(args.expansions), args.rulings, players)
    return f"bang {command}: {problem}" if problem else None


def add_display_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES,
                        help=f"language of the interface ({', '.join(LANGUAGES)})")
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
        settings.name = default_name(I18n(settings.lang).t("default_player"))
    return settings


def remember_broker(broker: str) -> None:
    """Keep `broker` as the default: called once it has been reached, so a mistyped or dead
    broker never becomes the default. Nothing is written in door mode."""
    saved = load_settings()
    if saved.broker != broker and not door_mode.is_door():
        save_settings(msgspec.structs.replace(saved, broker=broker))
