"""Sub-commands of the ``alea`` command line, one module each (see :mod:`alea.cli`)."""
