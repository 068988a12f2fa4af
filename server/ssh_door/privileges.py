"""Started as root, serving as someone else: `bang ssh-serve --user NAME`.

Design: the whole door drops to NAME right after binding its port, before it reads its host
key, starts the host or accepts a connection. The other design, a door that stays root and
starts each client as NAME, keeps a root process parsing SSH from the Internet and needs a
privileged step in every spawn; dropping everything once is simpler and leaves nothing to
regain. The price is that the door's own files (host key, player profiles, the host's games)
must be usable by NAME: root creates the `--data` directory for it when missing, and
`check_usable` says in one line what NAME cannot use, before anything is served.

Linux only (prctl, /proc): the door's clients are Linux processes on ptys anyway.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pwd
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

# <linux/prctl.h>
PR_SET_NO_NEW_PRIVS = 38
PR_GET_NO_NEW_PRIVS = 39
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
#: Capability sets that must be empty once the door runs as its user (/proc/self/status).
_CAPABILITY_SETS = ("CapPrm", "CapEff", "CapAmb")


class UsageError(Exception):
    """`--user` cannot be honoured as given: a one-line message, exit status 2."""


class PrivilegeError(Exception):
    """The switch did not fully happen: the door must not serve anybody."""


@dataclass(frozen=True)
class Account:
    name: str
    uid: int
    gid: int  # the user's primary group; supplementary groups are all dropped


def find_account(name: str) -> Account:
    """The unprivileged user to become. Checked before anything else starts, so a typo costs
    one line of error and no half-started server."""
    if sys.platform != "linux":
        raise UsageError("--user needs Linux")
    try:
        entry = pwd.getpwnam(name)
    except (KeyError, ValueError):  # ValueError: a NUL in the name
        raise UsageError(f"--user {name!r}: no such user on this machine") from None
    if entry.pw_uid == 0:
        raise UsageError(f"--user {name}: that is root; name an unprivileged user, "
                         "for example a dedicated `bang` user (see docs/SSH.md)")
    if os.geteuid() != 0:
        raise UsageError(f"--user {name}: only a door started as root can switch users "
                         f"(this one runs as uid {os.geteuid()}); leave --user out")
    return Account(entry.pw_name, entry.pw_uid, entry.pw_gid)


def prepare_directory(path: Path, account: Account) -> None:
    """As root, before the switch: create `path` (mode 0700) for `account` when it is missing,
    so `--data /var/lib/bang` works on a fresh machine. Root changes nothing that exists, and
    creates only inside an existing directory that root owns (so the door's user cannot swap in
    a symlink under it); anything else is left for the user to create after the switch."""
    path = path.absolute()
    try:
        parent = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        if os.fstat(parent).st_uid != 0:
            return
        try:
            os.mkdir(path.name, 0o700, dir_fd=parent)
        except OSError:  # it exists (left as it is), or root cannot make it here
            return
        made = os.open(path.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent)
        try:
            os.fchown(made, account.uid, account.gid)
        finally:
            os.close(made)
    finally:
        os.close(parent)


def drop_privileges(account: Account) -> None:
    """Become `account` for good: no supplementary groups, its group, its uid (real, effective
    and saved, so root cannot be regained), then no_new_privs (no setuid program or file
    capability can raise it again, in the door or in any client). In this order: each step
    needs the privilege the next one gives up. Then prove it took."""
    os.setgroups([])
    os.setgid(account.gid)
    os.setuid(account.uid)
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    problems = switch_problems(account)
    if problems:
        raise PrivilegeError(f"could not switch to user {account.name}: {'; '.join(problems)}")
    tempfile.tempdir = None  # guests' profiles: choose again, as the user


def switch_problems(account: Account) -> list[str]:
    """What is still privileged about this process; empty when the switch is complete."""
    problems = []
    if os.getresuid() != (account.uid,) * 3:
        problems.append(f"uids are {os.getresuid()}")
    if os.getresgid() != (account.gid,) * 3:
        problems.append(f"gids are {os.getresgid()}")
    if os.getgroups():
        problems.append(f"supplementary groups {os.getgroups()} remain")
    try:
        os.setuid(0)
    except PermissionError:
        pass
    else:
        problems.append("root can be regained")
    if _prctl(PR_GET_NO_NEW_PRIVS) != 1:
        problems.append("no_new_privs is not set")
    # no_new_privs is set per thread: a thread started earlier (by a library) would lack it.
    for task in Path("/proc/self/task").iterdir():
        if "NoNewPrivs:\t1" not in (task / "status").read_text():
            problems.append(f"thread {task.name} lacks no_new_privs")
    problems += [f"{name} is {value:x}" for name, value in capabilities().items() if value]
    return problems


def capabilities() -> dict[str, int]:
    """This process's permitted, effective and ambient capability sets, as bit masks."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in _CAPABILITY_SETS:
            found[name] = int(value, 16)
    return found


def clear_ambient_capabilities() -> None:
    """Once the port is bound, nobody needs a capability: a door started with an ambient one
    (systemd's AmbientCapabilities=CAP_NET_BIND_SERVICE, for port 22) would otherwise hand it
    to every client it starts. Old kernels without ambient capabilities have nothing to clear."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError):
            _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)


def _prctl(option: int, arg: int = 0) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    args = (ctypes.c_ulong(arg), ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0))
    result = int(libc.prctl(ctypes.c_int(option), *args))
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))
    return result


def check_usable(account: Account, directories: list[Path], read: list[Path],
                 read_write: list[Path]) -> None:
    """As the user, after the switch: each of `directories` exists (or can be created) and can
    be written to; each file of `read` (the host key) can be read, of `read_write` (the host's
    games) read and written; a missing file's directory can be created. One UsageError names
    the first that cannot, rather than a traceback when the first player arrives."""
    for directory in directories:
        _usable_directory(account, directory)
    for files, access, verb in ((read, os.R_OK, "read"),
                                (read_write, os.R_OK | os.W_OK, "read and write")):
        for file in files:
            try:
                file.stat()
            except FileNotFoundError:
                _usable_directory(account, file.parent)
                continue
            except OSError as exc:
                raise UsageError(_cannot(account, verb, file, exc.strerror)) from None
            if not os.access(file, access):
                raise UsageError(_cannot(account, verb, file))
    try:
        tempfile.gettempdir()  # where guests' throw-away profiles go
    except FileNotFoundError as exc:
        raise UsageError(f"--user {account.name}: {exc}") from None


def _usable_directory(account: Account, directory: Path) -> None:
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(_cannot(account, "create", directory, exc.strerror)) from None
    if not os.access(directory, os.R_OK | os.W_OK | os.X_OK):
        raise UsageError(_cannot(account, "write to", directory))


def _cannot(account: Account, verb: str, path: Path, why: str | None = None) -> str:
    reason = f" ({why})" if why else ""
    return (f"--user {account.name}: that user cannot {verb} {path}{reason}; run "
            f"`chown -R {account.name}: {path}`, or choose a directory it owns with --data")
