"""The client's network library: see `client.net.remote` for the API."""

from client.net.remote import LobbyUpdate, Remote, RemoteError, Status, Update
from client.net.tables import TableUpdate

__all__ = ["LobbyUpdate", "Remote", "RemoteError", "Status", "TableUpdate", "Update"]
