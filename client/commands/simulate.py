"""`bang simulate`: complete games between bots, invariants checked after every action."""

from __future__ import annotations

import argparse
import json
import sys

from client import compiled_engine
from client.commands.common import check_rulings, expansion_list, rulings
from shared.bots import BOT_KINDS
from shared.record import dump_record
from shared.setup import EXPANSIONS
from shared.simulate import InvariantBreach, simulate

EXAMPLES = """examples:
  bang simulate --games 1000 --players 4
  bang simulate --games 500 --players 3-7 --seed 42 --json
  bang simulate --games 2000 --players 4-7 --bots random --no-check --json
  bang simulate --games 1000 --players 5 --bots normal,easy,random,normal,easy --json
  bang simulate --games 200 --players 4-7 --bots normal,easy,random --timing
  bang simulate --games 1000 --players 3-7 --expansions high_noon --json
"""


def player_range(text: str) -> tuple[int, int]:
    try:
        low, _, high = text.partition("-")
        lo, hi = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a player count like 4 or 3-7") \
            from None
    if not 3 <= lo <= hi <= 7:
        raise argparse.ArgumentTypeError("player counts run from 3 to 7, low-high")
    return lo, hi


def bot_list(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot kind(s) {', '.join(unknown)}; choose from {', '.join(BOT_KINDS)}"
        )
    return kinds


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play complete games between bots and report speed and results",
        description="Play N complete games between bots, checking every rule invariant after "
        "every action (unless --no-check). Prints games/s and actions/s. Exits 1 and prints "
        "the game record on the first broken invariant or a game that does not end.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--players", type=player_range, default=(4, 4),
                        help="players per game: a number or a range such as 3-7 (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the whole run")
    parser.add_argument("--pool", choices=("all", "base"), default="all",
                        help="character pool: all 26 or the 16 base characters")
    parser.add_argument("--bots", type=bot_list, default=None,
                        help="comma-separated bot kinds, dealt to the seats in a random order "
                        "each game (missing seats get 'random'; default: all random); "
                        f"kinds: {', '.join(BOT_KINDS)}")
    parser.add_argument("--expansions", type=expansion_list, default=(),
                        help="comma-separated expansions to play with "
                        f"({', '.join(EXPANSIONS)}; default: none)")
    parser.add_argument("--rulings", type=rulings, default=None, metavar="LIST",
                        help="with --expansions high_noon: its options, as for bang play")
    parser.add_argument("--no-check", dest="check", action="store_false",
                        help="skip the invariant checks after every action (to time the "
                        "engine and the bots alone)")
    parser.add_argument("--timing", action="store_true",
                        help="measure every bot decision and report median/p99/max ms per kind")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    problem = check_rulings(args, "simulate")
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if args.games < 1:
        print("bang simulate: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        result = simulate(args.games, args.players, args.seed, args.bots, args.pool,
                          check=args.check, timing=args.timing, expansions=list(args.expansions),
                          high_noon=args.rulings)
    except InvariantBreach as breach:
        print(f"bang simulate: invariant broken: {breach}", file=sys.stderr)
        print("game record (replay it with `bang replay FILE`):", file=sys.stderr)
        sys.stdout.write(dump_record(breach.record).decode() + "\n")
        return 1
    data = result.as_json()
    data["engine"] = "compiled" if compiled_engine.active() else "interpreted"
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"{data['games']} games ({data['completed']} completed) in {data['seconds']:.2f} s: "
          f"{data['games_per_s']} games/s, {data['actions_per_s']} actions/s "
          f"({data['actions']} actions)")
    print("wins: " + ", ".join(f"{side} {n}" for side, n in sorted(data["wins"].items())))
    print("engine: compiled" if data["engine"] == "compiled" else
          "engine: interpreted (`bang compile` makes it about twice as fast)")
    print(f"longest game: {data['longest_game_turns']} turns, "
          f"{data['longest_game_actions']} actions")
    for kind, roles in data["by_kind"].items():
        print(f"{kind}: " + ", ".join(f"{role} {r['wins']}/{r['games']} ({r['rate']:.0%})"
                                      for role, r in roles.items()))
    for kind, t in data.get("decision_ms", {}).items():
        print(f"{kind} decisions: {t['decisions']}, median {t['median']:.3f} ms, "
              f"p99 {t['p99']:.3f} ms, max {t['max']:.3f} ms")
    return 0
