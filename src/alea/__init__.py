"""alea: the open-source digital edition of *Alea Iacta Est*.

The rules engines (:mod:`alea.iacta`, :mod:`alea.romano`) are pure and use the
standard library only; every other layer (command line, bots, server, research
environments) builds on them and never the other way round.
"""

__version__ = "0.1.0"
