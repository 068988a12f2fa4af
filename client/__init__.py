"""The terminal client and the `bang` command."""
