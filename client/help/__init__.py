"""Help texts (Markdown) shown by the help screen."""
