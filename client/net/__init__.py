"""The client's network library: see `client.net.remote` for the API."""

from client.net.remote import Remote, RemoteError, Status, Update

__all__ = ["Remote", "RemoteError", "Status", "Update"]
