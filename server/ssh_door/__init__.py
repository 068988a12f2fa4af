"""The SSH door: `ssh -p 2222 you@host` drops a player into the Textual client, nothing to install.

One asyncssh server; each SSH session gets its own pseudo-terminal and its own client process.
`serve(config)` runs it until stopped; `start_door(config)` starts it inside a running loop.
"""

from server.ssh_door.config import AuthMode, DoorConfig, SessionLimits
from server.ssh_door.server import DoorServer, DoorStartError, serve, start_door

__all__ = [
    "AuthMode", "DoorConfig", "DoorServer", "DoorStartError", "SessionLimits", "serve",
    "start_door",
]
