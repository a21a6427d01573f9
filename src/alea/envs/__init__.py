"""Research interfaces: Alea Iacta Est in PettingZoo, Gymnasium and OpenSpiel.

These need the optional ``rl`` extra (``pip install alea[rl]``): numpy,
gymnasium, pettingzoo and open-spiel. The core engine :mod:`alea.iacta`
imports none of them. Import the submodule you need:

* :mod:`alea.envs.encoding`: the fixed integer action space and legal-action mask;
* :mod:`alea.envs.observation`: the per-seat observation tensor and text;
* :mod:`alea.envs.pettingzoo`: ``env(players=4)``, a PettingZoo AEC environment;
* :mod:`alea.envs.gymnasium`: a single-agent environment against :mod:`alea.bots`;
* :mod:`alea.envs.openspiel`: the game registered with ``pyspiel`` as a Python game.

This package imports nothing heavy itself, so ``import alea.envs`` is cheap
and each interface pulls in only its own library.
"""
