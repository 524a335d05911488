"""Django's SQLite backend with SQLite's writers served in turn (see config.sqlite.base)."""
