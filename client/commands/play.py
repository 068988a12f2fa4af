"""`bang play`: the quick start. One command, a table with bots, you at it."""

from __future__ import annotations

import argparse
import sys

from client.commands.common import (
    add_display_flags,
    check_rulings,
    decision_seconds,
    delay_seconds,
    expansion_list,
    player_name,
    port_number,
    rulings,
    settings_for,
)
from client.i18n import I18n
from shared.bots import BOT_KINDS
from shared.roles import MAX_PLAYERS, MIN_PLAYERS

EXAMPLES = """examples:
  bang play                      a 5-player table against bots, on this machine
  bang play --players 7 --lang it
  bang play --lan                friends on the LAN can join: it prints their command
  bang play --offline --seed 42  no broker or host: the engine runs inside the app
  bang play --expansions high_noon   with High Noon's event cards
  bang play --expansions high_noon --rulings bonus,doctor_heals_wounded
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="start a game against bots right now (embedded broker and host)",
        description="Start the embedded MQTT broker and a host in this process, open a room "
        "with bots in the free seats and put you at the table.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=5,
                        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), metavar="N",
                        help=f"players at the table, bots included ({MIN_PLAYERS}-{MAX_PLAYERS})")
    parser.add_argument("--name", type=player_name, help="your name at the table")
    parser.add_argument("--pool", choices=("all", "base"), default="all",
                        help="characters: all 26 or the 16 of the base game")
    parser.add_argument("--expansions", type=expansion_list, default=(), metavar="LIST",
                        help="expansions to play, comma-separated (known: high_noon)")
    parser.add_argument("--rulings", type=rulings, default=None, metavar="LIST",
                        help="with --expansions high_noon: how its disputed rulings go, "
                        "comma-separated: bonus, event_limit=N, next_hidden, "
                        "doctor_heals_wounded, thirst_draws_one, ghost_draw_plus_one, "
                        "ghost_cards_to_vulture, "
                        "suits_in_draws_only, "
                        "hangover_keeps_drawbacks, sermon_blocks_bang_as_missed, "
                        "no_three_players (docs/REPLAY.md says what each does)")
    parser.add_argument("--timeout", type=decision_seconds, default=0,
                        help="seconds for each of your decisions; 0 (default) means no limit")
    parser.add_argument("--bots", choices=sorted(BOT_KINDS), default="normal",
                        help="how the bots play (default: normal)")
    parser.add_argument("--bot-delay", type=delay_seconds, default=0.6,
                        help="seconds each bot waits before acting, so you can follow")
    parser.add_argument("--bot-chat", action="store_true",
                        help="bots say a quick phrase now and then (\"Ouch!\", \"Good game!\")")
    parser.add_argument("--lan", action="store_true",
                        help="let friends on the LAN join (the broker listens on every "
                        "interface); prints the `bang join` line to give them")
    parser.add_argument("--port", type=port_number, default=None,
                        help="broker port (default 1883, or a free one if that is taken)")
    parser.add_argument("--offline", action="store_true",
                        help="no broker and no host: run the engine inside the app")
    parser.add_argument("--seed", type=int, default=None,
                        help="with --offline: deal this seed (the same game again)")
    add_display_flags(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from client import door_mode
    from client.app import BangApp

    problem = check_rulings(args, "play")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    settings = settings_for(args)
    if args.offline:
        app = BangApp(offline_session(args, settings.name), lang=settings.lang,
                      theme=settings.theme)
    elif args.lan:
        app = lan_lobby(args, settings)
    else:
        app = BangApp(hosted_session(args, settings.name, I18n(settings.lang)),
                      lang=settings.lang,
                      theme=settings.theme)
    door_mode.apply(app)
    app.run()
    return 0


def offline_session(args: argparse.Namespace, name: str):
    import random

    from client.session import LocalSession, LocalTable
    from shared.setup import Setup

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    names = [name] + [f"Bot {i}" for i in range(1, args.players)]
    table = LocalTable(
        setup=Setup(players=args.players, seed=seed, names=names, pool=args.pool,
                    expansions=list(args.expansions), high_noon=args.rulings),
        bot_delay=args.bot_delay,
        timeout=args.timeout or None,
        bot=args.bots,
        bot_talk=args.bot_chat,
    )
    return LocalSession(table)


def hosted_session(args: argparse.Namespace, name: str, i18n: I18n):  # noqa: ANN201
    from client.embedded import HostedSession
    from shared import protocol as p

    server = embedded_server(args)
    options = p.RoomOptions(seats=args.players, pool=args.pool, turn_timeout=args.timeout,
                            bot=args.bots, expansions=list(args.expansions),
                            high_noon=args.rulings)
    return HostedSession(server, play_profile(), name, options, i18n.table_name(name))


def embedded_server(args: argparse.Namespace):  # noqa: ANN201
    from platformdirs import user_data_dir

    from client.embedded import DEFAULT_PORT, EmbeddedServer, free_port, port_free
    from client.settings import APP_DIR_NAME

    port = args.port or (DEFAULT_PORT if port_free(DEFAULT_PORT, args.lan) else free_port())
    return EmbeddedServer(f"{user_data_dir(APP_DIR_NAME)}/play.sqlite3", port=port,
                          lan=args.lan, bot_delay=args.bot_delay, bot_talk=args.bot_chat)


def play_profile():  # noqa: ANN201
    """A profile of its own: the pin of the embedded host never clashes with `bang join`'s."""
    from client.settings import config_path

    return config_path().parent / "play"


def lan_lobby(args: argparse.Namespace, settings):  # noqa: ANN001, ANN201
    """The lobby of the embedded host with your room open: friends join, you press Start
    (bots take the seats still free)."""
    from client.app import BangApp
    from client.net import Remote
    from client.screens.create_room import RoomForm
    from client.screens.lobby import LobbyIntent, LobbyScreen
    from server.broker import lan_address

    server = embedded_server(args)
    line = (f"bang join --broker mqtt://{lan_address()}:{server.port} "
            f"--fingerprint {server.fingerprint()}")
    print(f"Friends on your LAN can join with:\n  {line}")

    def lobby(app: BangApp) -> LobbyScreen:
        assert server.host is not None
        app.remote = Remote(server.url, config_dir=play_profile(),
                            fingerprint=server.host.keys.fingerprint)
        form = RoomForm(name=app.i18n.table_name(settings.name), players=args.players,
                        pool=args.pool, timeout=args.timeout, bots=False, bot=args.bots,
                        expansions=args.expansions, rulings=args.rulings)
        return LobbyScreen(app.remote, settings.name, app.i18n,
                           LobbyIntent(create=form, invite=line))

    return BangApp(lang=settings.lang, theme=settings.theme, first_screen=lobby, server=server)
