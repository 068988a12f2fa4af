"""The rules engine and the bots compiled with mypyc: built once by `bang compile`, used by every
`bang` command whose sources they match exactly.

Why: the engine is plain typed Python, and mypyc (the compiler that comes with mypy) turns the
same source into C extension modules that play the same games about twice as fast. Nothing of
the source changes; only the modules in `COMPILED` are compiled, into the user's cache:
`<cache>/engine-<digest>/`, beside nothing in the checkout.

When: `activate()` (called first by `bang`) looks for the build whose digest is that of every
`.py` file under `shared/` now, for this Python. Edit one line of the game and the digest
changes: the edited sources run, interpreted, until `bang compile` is run again. A stale build
can therefore never run. `BANG_ENGINE=interpreted` turns the compiled engine off.

How: a finder first in `sys.meta_path` answers for the compiled modules only (each is a small
extension that loads its code from the build's one shared library); every other module of
`shared` comes from the sources as usual.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

import platformdirs

import shared

#: The modules compiled: the engine, the rules it asks, the cards and characters it reads, the
#: driver, the views and the bots, where the time of a game goes. None of them defines a
#: msgspec Struct: compiled, a Struct's annotations lose their unions (`int | None` becomes
#: `type`), so msgspec encodes and decodes it wrongly (shared.model, shared.view_types and
#: shared.engine.errors stay Python for that). Not shared.simulate: its timing wrapper sets
#: attributes a compiled class cannot have. Not shared.engine, the public API: compiled, a call
#: with an argument of a wrong type raises TypeError at the call, before `apply` can refuse it
#: as malformed (IllegalAction).
COMPILED = (
    "shared.engine.abilities",
    "shared.engine.card_rules",
    "shared.engine.core",
    "shared.engine.deal",
    "shared.engine.legality",
    "shared.engine.machine",
    "shared.engine.play",
    "shared.engine.refs",
    "shared.engine.responses",
    "shared.engine.turn",
    "shared.rules",
    "shared.rulebook",
    "shared.driver",
    "shared.views",
    "shared.invariants",
    "shared.rng",
    "shared.cards",
    "shared.characters",
    "shared.bots",
    "shared.bots.beliefs",
    "shared.bots.evaluate",
    "shared.bots.plays",
    "shared.bots.policy",
    "shared.bots.random_bot",
)
#: Set to "interpreted" to run the sources even where a matching build exists.
ENV = "BANG_ENGINE"
COMPLETE = "complete"  # written last in a build: a build without it is not used
SOURCES = Path(shared.__file__).resolve().parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # ".cpython-311-x86_64-linux-gnu.so"

#: The script a fresh interpreter runs in the build directory (setuptools keeps global state).
_BUILD_SCRIPT = """
import sys
from mypyc.build import mypycify
from setuptools import setup
setup(name="bang-engine", ext_modules=mypycify(sys.argv[1:], opt_level="3"),
      script_args=["build_ext", "--inplace"])
"""


class CompileError(Exception):
    """The build failed: the message says why in one line."""


def digest(root: Path = SOURCES) -> str:
    """What a build is of: every `.py` file under `root` (names and bytes), the modules
    compiled, and the Python and platform that can load it."""
    h = hashlib.sha256(f"{sys.implementation.cache_tag} {SUFFIX} {' '.join(COMPILED)}\n".encode())
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:24]


def cache_dir() -> Path:
    return platformdirs.user_cache_path("bang")


def build_dir(root: Path = SOURCES) -> Path:
    return cache_dir() / f"engine-{digest(root)}"


def _stem(name: str) -> Path:
    """The module `name` (dotted) as a path without suffix, relative to the sources' parent."""
    path = Path(*name.split("."))
    return path / "__init__" if (SOURCES.parent / path).is_dir() else path


def module_file(build: Path, name: str) -> Path:
    """Where the compiled module `name` lies in `build`."""
    stem = _stem(name)
    return build / stem.parent / (stem.name + SUFFIX)


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules, and the shared library they load their code from."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        # A compiled package still finds its plain submodules in the sources.
        stem = _stem(fullname)
        search = [str(SOURCES.parent / stem.parent)] if stem.name == "__init__" else None
        return importlib.util.spec_from_file_location(fullname, file,
                                                      submodule_search_locations=search)


def active() -> bool:
    """Whether the compiled engine runs in this process."""
    return any(isinstance(finder, _CompiledFinder) for finder in sys.meta_path)


#: Why `activate` left the compiled engine off, when a build was there (for `bang compile
#: --status`).
why_off = ""


def _build_files(build: Path) -> dict[str, Path] | None:
    """The files of `build` by the module each is, None when some are missing."""
    files = {name: module_file(build, name) for name in COMPILED}
    libraries = list(build.glob(f"*__mypyc{SUFFIX}"))  # one, with the code of every module
    files.update({lib.name.removesuffix(SUFFIX): lib for lib in libraries})
    if len(libraries) != 1 or not all(file.is_file() for file in files.values()):
        return None
    return files


def activate() -> bool:
    """Use the build that matches the sources, if there is one and nothing of `shared` that it
    compiles was imported yet. Returns whether the compiled engine is on."""
    global why_off
    if active():
        return True
    if os.environ.get(ENV) == "interpreted":
        why_off = f"{ENV}=interpreted turns it off"
        return False
    if any(name in sys.modules for name in COMPILED):
        why_off = "the engine was imported before the compiled one could be turned on"
        return False
    try:
        build = build_dir()
        if not (build / COMPLETE).is_file():
            return False
        files = _build_files(build)
    except OSError as error:  # a source, or a cache of another user's, unreadable
        why_off = f"it cannot be read ({error})"
        return False
    if files is None:
        why_off = "files of the build are missing (`bang compile --remove`, then `bang compile`)"
        return False
    finder = _CompiledFinder(files)
    sys.meta_path.insert(0, finder)
    before = set(sys.modules)
    try:
        for name in COMPILED:
            importlib.import_module(name)
    except (ImportError, OSError) as error:  # a damaged build: the sources still work
        sys.meta_path.remove(finder)
        for name in set(sys.modules) - before:
            del sys.modules[name]
        why_off = (f"it does not load ({error}); `bang compile --remove`, then `bang compile`, "
                   f"builds it again")
        print(f"bang: the compiled engine in {build} is not used: {why_off}", file=sys.stderr)
        return False
    return True


def compile_engine(build: Path, log: Path) -> None:
    """Build the compiled engine of the sources as they are into `build` (their `build_dir()`;
    the compiler's output goes to `log`), and remove the builds of other sources."""
    if importlib.util.find_spec("mypyc") is None:
        raise CompileError("the compiler is part of mypy, which is not installed: "
                           "pip install 'bang-terminal[fast]'")
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix="building-") as tmp:
        work = Path(tmp) / "src"
        shutil.copytree(SOURCES, work / "shared",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        files = [str(_stem(name)) + ".py" for name in COMPILED]
        with log.open("w") as out:
            done = subprocess.run([sys.executable, "-c", _BUILD_SCRIPT, *files], cwd=work,
                                  stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  check=False)
        if done.returncode != 0:
            raise CompileError(f"the build failed (a C compiler and Python's headers are "
                               f"needed); what it printed is in {log}")
        staged = Path(tmp) / "build"
        for lib in [*work.glob(f"*{SUFFIX}"), *(work / "shared").rglob(f"*{SUFFIX}")]:
            target = staged / lib.relative_to(work)
            target.parent.mkdir(parents=True, exist_ok=True)
            lib.replace(target)
        (staged / COMPLETE).write_text(" ".join(COMPILED) + "\n")
        with contextlib.suppress(OSError):  # another build got there first
            staged.rename(build)
    if not (build / COMPLETE).is_file():
        raise CompileError(f"the build could not be stored in {cache}")
    remove_builds(keep=build)


def remove_builds(keep: Path | None = None) -> int:
    """Remove every compiled engine from the cache but `keep`; how many were removed."""
    builds = [build for build in cache_dir().glob("engine-*") if build != keep]
    for build in builds:
        shutil.rmtree(build, ignore_errors=True)
    return len(builds)
