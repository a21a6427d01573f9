"""Alembic migrations of the server's database (run by :func:`alea.server.tables.migrate`)."""
