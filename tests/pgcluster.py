"""A throwaway PostgreSQL cluster for the tests: `initdb` into a temporary directory, a server
on a free port of 127.0.0.1 with its Unix socket in that directory, one database per test,
and everything stopped and deleted at the end.

initdb refuses to run as root: as root, the cluster belongs to the `postgres` system user
(the Debian package creates it) and its commands run through `runuser`.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

PASSWORD = "test-only"  # the superuser's: TCP connections authenticate with scram-sha-256


def _version(path: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", path.parent.name))


def bindir() -> Path | None:
    """Where initdb and pg_ctl are: pg_config's bindir, Debian's newest
    /usr/lib/postgresql/<version>/bin, or the PATH."""
    candidates = []
    if pg_config := shutil.which("pg_config"):
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        candidates.append(Path(out.stdout.strip()))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version, reverse=True)
    if initdb := shutil.which("initdb"):
        candidates.append(Path(initdb).parent)
    for directory in candidates:
        if all(os.access(directory / tool, os.X_OK) for tool in ("initdb", "pg_ctl")):
            return directory
    return None


def unavailable() -> str | None:
    """Why the PostgreSQL tests cannot run here, or None."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]')"
    if bindir() is None:
        return "PostgreSQL is not installed (Debian package `postgresql`: no initdb/pg_ctl)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no `postgres` user to run initdb as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.dir = Path(tempfile.mkdtemp(prefix="bang-pg-"))
        self.port = _free_port()
        self.user = "postgres"
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        else:
            self._as = []
        self.running = False

    def _run(self, *command: str) -> None:
        done = subprocess.run([*self._as, *command], capture_output=True, text=True)
        if done.returncode != 0:
            log = self.dir / "log"
            raise RuntimeError(f"{' '.join(command)} failed: {done.stderr}"
                               + (log.read_text() if log.exists() else ""))

    def start(self) -> None:
        pwfile = self.dir / "pw"
        self._run("sh", "-c", f"umask 077 && echo {PASSWORD} > {pwfile}")
        self._run(str(self.bin / "initdb"), "-D", str(self.dir / "data"), "-U", self.user,
                  f"--pwfile={pwfile}", "--auth-local=trust", "--auth-host=scram-sha-256",
                  "--no-sync", "-E", "UTF8", "--locale=C")
        # Durability is not under test here: no fsync makes each test's database cheap.
        options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-o", options,
                  "-l", str(self.dir / "log"), "-w", "start")
        self.running = True

    def stop(self) -> None:
        if self.running:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate",
                      "-w", "stop")
            self.running = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, dbname: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{self.user}:{password}@127.0.0.1:{self.port}/{dbname}"

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(sql)

    def create_database(self) -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        self._admin(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        self._admin(f"DROP DATABASE {name} WITH (FORCE)")
