"""``python -m alea`` runs the ``alea`` command."""

from alea.cli import main

main()
