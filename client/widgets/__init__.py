"""Small widgets, each owning one piece of the table."""
