"""One catalog per language (en, it, es, hu): adding a language is adding a module here, its
card and role names in shared, and client/help/rules_<code>.md."""
