"""`bang compile`: build the engine and the bots with mypyc (see client.compiled_engine)."""

from __future__ import annotations

import argparse
import sys

from client import compiled_engine

EXAMPLES = """examples:
  bang compile             build it (about a minute), then every bang command uses it
  bang compile --status    say whether this checkout's engine is compiled
  bang compile --remove    remove every build: the engine runs interpreted again
  BANG_ENGINE=interpreted bang simulate --games 100    one command without it
Editing any file under shared/ makes the build stale: the edited sources run until the next
`bang compile`. See docs/ENGINE.md, "Compiled".
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "compile",
        help="compile the rules engine and the bots with mypyc (about twice as fast)",
        description="Compile the rules engine, the views and the bots from this checkout's "
        "sources with mypyc (part of mypy; a C compiler and Python's headers are needed). The "
        "build goes to your cache directory and is used by every bang command while the "
        "sources under shared/ stay exactly as they were compiled. Games play the same, "
        "about twice as fast.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--status", action="store_true",
                      help="say whether a build matches the sources, and where it is")
    what.add_argument("--remove", action="store_true", help="remove every build")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.remove:
        removed = compiled_engine.remove_builds()
        print(f"bang compile: removed {removed} build(s); the engine runs interpreted")
        return 0
    try:
        build = compiled_engine.build_dir()
        built = (build / compiled_engine.COMPLETE).is_file()
    except OSError as error:
        print(f"bang compile: cannot read {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    if args.status:
        if not built:
            print("bang compile: not compiled for these sources (run `bang compile`)")
        elif compiled_engine.active():
            print(f"bang compile: compiled, in use ({build})")
        else:
            print(f"bang compile: compiled ({build}), but not in use: "
                  f"{compiled_engine.why_off}")
        return 0
    if built:
        print(f"bang compile: already compiled for these sources ({build})")
        return 0
    log = compiled_engine.cache_dir() / "compile.log"
    print("bang compile: compiling the engine and the bots with mypyc (about a minute)...",
          file=sys.stderr)
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        compiled_engine.compile_engine(build, log)
    except compiled_engine.CompileError as error:
        print(f"bang compile: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"bang compile: cannot write to {compiled_engine.cache_dir()}: {error.strerror}",
              file=sys.stderr)
        return 1
    print(f"bang compile: done ({build}); every bang command now uses it")
    return 0
