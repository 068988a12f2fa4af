"""The compiled engine (`bang compile`, client.compiled_engine): built from the sources, it plays
the same games to the byte; it is used only while it matches the sources exactly; a damaged one
is not used, and a failed build says why in one line.

The rest of the suite runs the sources (tests/conftest.py turns the compiled engine off)."""

from __future__ import annotations

import ast
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from games_fingerprint import fingerprint

from client import compiled_engine

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))


def python(args: list[str], cache: Path, *, engine: str | None = None,
           **env: str) -> subprocess.CompletedProcess[str]:
    """`python ARGS` from the checkout, with `cache` as the user's cache directory."""
    environ = dict(os.environ, XDG_CACHE_HOME=str(cache), **env)
    environ.pop(compiled_engine.ENV, None)
    if engine is not None:
        environ[compiled_engine.ENV] = engine
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=environ, capture_output=True,
                          text=True, timeout=900, check=False)


def bang(args: list[str], cache: Path, *, engine: str | None = None,
         **env: str) -> subprocess.CompletedProcess[str]:
    return python(["-m", "client.cli", *args], cache, engine=engine, **env)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory holding the compiled engine of these sources (about a minute)."""
    path = tmp_path_factory.mktemp("cache")
    built = bang(["compile"], path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "done" in built.stdout
    return path


@pytest.fixture
def cache_copy(cache: Path, tmp_path: Path) -> Path:
    """A copy of `cache` that a test may damage."""
    return Path(shutil.copytree(cache, tmp_path / "cache"))


def test_the_compiled_engine_plays_the_same_games_to_the_byte(cache: Path) -> None:
    assert not compiled_engine.active()  # so the hashes below are the sources' own
    done = python(["tests/engine/games_fingerprint.py"], cache)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["compiled"] is True
    assert result["hashes"] == fingerprint()


def test_simulate_says_which_engine_ran_and_the_results_are_the_same(cache: Path) -> None:
    command = ["simulate", "--games", "150", "--players", "3-7", "--seed", "5", "--bots",
               "normal,easy,random", "--json"]
    compiled = json.loads(bang(command, cache).stdout)
    interpreted = json.loads(bang(command, cache, engine="interpreted").stdout)
    assert (compiled["engine"], interpreted["engine"]) == ("compiled", "interpreted")
    timed = {"engine", "seconds", "games_per_s", "actions_per_s"}
    assert {k: v for k, v in compiled.items() if k not in timed} \
        == {k: v for k, v in interpreted.items() if k not in timed}
    plain = bang(command[:-1], cache)
    assert "engine: compiled" in plain.stdout.splitlines()


def test_every_example_record_replays_the_same_compiled(cache: Path) -> None:
    assert EXAMPLES
    for record in EXAMPLES:
        for extra in ([], ["--json"]):
            compiled = bang(["replay", str(record), *extra], cache)
            interpreted = bang(["replay", str(record), *extra], cache, engine="interpreted")
            assert compiled.returncode == interpreted.returncode == 0, compiled.stderr
            assert compiled.stdout == interpreted.stdout, (record, extra)
            assert compiled.stderr == interpreted.stderr == ""


EXTEND = """
from client import compiled_engine
assert compiled_engine.activate()
from shared.bots.policy import EasyBot, NormalBot, ScoringBot
from shared.bots.random_bot import RandomBot
from shared.engine.abilities import Ability
from shared.rulebook import Rulebook
for base in (Rulebook, Ability, RandomBot, ScoringBot, NormalBot, EasyBot):
    type("Mine", (base,), {})
print("extended")
"""


def test_plain_python_may_extend_the_compiled_classes_made_for_it(cache: Path) -> None:
    """Expansions extend the rulebook; tests, abilities and bots of one's own the others."""
    done = python(["-c", EXTEND], cache)
    assert done.stdout == "extended\n", done.stderr


def test_no_compiled_module_defines_a_msgspec_struct() -> None:
    """Compiled, a Struct's annotations lose their unions and msgspec gets its fields wrong."""
    for name in compiled_engine.COMPILED:
        module = importlib.import_module(name)
        structs = [key for key, value in vars(module).items() if isinstance(value, type)
                   and issubclass(value, msgspec.Struct) and value.__module__ == name]
        assert not structs, f"{name} defines {structs}: move them to a module not compiled"


def test_the_constants_of_compiled_modules_are_final() -> None:
    """Compiled, a module constant that is not `Final` is a dictionary lookup at every use
    (docs/ENGINE.md, "Compiled"): an UPPER_CASE name assigned at module level must be `Final`,
    unless it is a type alias."""
    missing = []
    for name in compiled_engine.COMPILED:
        path = Path(importlib.import_module(name).__file__ or "")
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                target, annotation = node.target.id, ast.unparse(node.annotation)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name):
                target, annotation = node.targets[0].id, ""
            else:
                continue
            alias = isinstance(node.value, ast.Subscript | ast.Call) and ast.unparse(
                node.value).startswith(("Callable[", "dict[", "tuple[", "TypeVar("))
            if target.lstrip("_").isupper() and "Final" not in annotation and not alias:
                missing.append(f"{name}.{target}")
    assert not missing, f"not Final: {missing}"


def test_any_change_to_the_sources_makes_another_build(tmp_path: Path) -> None:
    sources = Path(shutil.copytree(compiled_engine.SOURCES, tmp_path / "shared",
                                   ignore=shutil.ignore_patterns("__pycache__", "*.so")))
    first = compiled_engine.digest(sources)
    rules = sources / "rules.py"
    rules.write_text(rules.read_text() + "\n")
    edited = compiled_engine.digest(sources)
    (sources / "new_module.py").write_text("")
    added = compiled_engine.digest(sources)
    assert len({first, edited, added}) == 3
    assert compiled_engine.digest(compiled_engine.SOURCES) == compiled_engine.digest()


def test_status_says_whether_the_build_is_used_and_why_not(cache: Path) -> None:
    assert "compiled, in use" in bang(["compile", "--status"], cache).stdout
    off = bang(["compile", "--status"], cache, engine="interpreted").stdout
    assert "not in use: BANG_ENGINE=interpreted turns it off" in off
    again = bang(["compile"], cache)
    assert again.returncode == 0 and "already compiled" in again.stdout


def test_a_damaged_build_is_not_used_and_says_so_in_one_line(cache_copy: Path) -> None:
    (build,) = cache_copy.glob("bang/engine-*")
    (library,) = build.glob(f"*__mypyc{compiled_engine.SUFFIX}")  # the code of every module
    library.write_bytes(b"not a shared library")
    done = bang(["simulate", "--games", "3", "--json"], cache_copy)
    assert done.returncode == 0
    assert json.loads(done.stdout)["engine"] == "interpreted"
    (line,) = done.stderr.splitlines()
    assert "is not used: it does not load" in line and "Traceback" not in done.stderr
    library.unlink()
    status = bang(["compile", "--status"], cache_copy)
    assert "not in use: files of the build are missing" in status.stdout


def test_remove_leaves_the_sources_running(cache_copy: Path) -> None:
    removed = bang(["compile", "--remove"], cache_copy)
    assert removed.returncode == 0 and "removed 1 build" in removed.stdout
    assert "not compiled for these sources" in bang(["compile", "--status"], cache_copy).stdout
    done = bang(["simulate", "--games", "3", "--json"], cache_copy)
    assert json.loads(done.stdout)["engine"] == "interpreted"


def test_a_cache_it_may_not_read_leaves_the_sources_running(tmp_path: Path) -> None:
    """Another user's cache directory (the SSH door runs players as their own users)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and `setpriv` (util-linux), to run as another user")
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                 sys.executable, "-m", "client.cli"]
    tmp_path.chmod(0o700)  # root's: nobody may not look inside
    environ = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    environ.pop(compiled_engine.ENV, None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*as_nobody, *args], cwd=ROOT, env=environ, capture_output=True,
                              text=True, timeout=300, check=False)

    played = run("simulate", "--games", "2", "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["engine"] == "interpreted" and played.stderr == ""
    status = run("compile", "--status")
    assert status.returncode == 1 and status.stdout == ""
    assert status.stderr.startswith("bang compile: cannot read ") \
        and "Permission denied" in status.stderr and len(status.stderr.splitlines()) == 1


def test_a_failed_build_says_why_in_one_line_and_keeps_nothing(tmp_path: Path) -> None:
    done = bang(["compile"], tmp_path, CC="/bin/false")  # no working C compiler
    assert done.returncode == 1
    (line,) = [line for line in done.stderr.splitlines() if "mypyc (about" not in line]
    assert line.startswith("bang compile: the build failed") and "Traceback" not in done.stderr
    assert not list(tmp_path.glob("bang/engine-*"))
    assert (tmp_path / "bang" / "compile.log").stat().st_size > 0
