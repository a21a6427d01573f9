"""``alea serve`` under ``cProfile`` timed by the CPU of its own thread.

    python bench/profiled_serve.py OUT.prof serve --port 0 ...

The profile is written to OUT.prof when the server stops (SIGINT). Why not
``python -m cProfile``: its clock is the wall clock, so every function that
happens to be running while the database writer thread holds the GIL is charged
for the wait; ``time.thread_time`` charges only the event loop thread's own CPU,
which is what the server spends per action on that thread.

With ``ALEA_PROFILE_ON_SIGNAL=1`` in the environment the profile starts only at
``SIGUSR1`` (send it once the load is warm: the profile is then the steady
state, without start-up, game creation and the opening handshakes).
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys
import time

from alea.cli import main

if __name__ == "__main__":
    out = sys.argv[1]
    sys.argv = ["alea", *sys.argv[2:]]
    profiler = cProfile.Profile(time.thread_time)
    if os.environ.get("ALEA_PROFILE_ON_SIGNAL") == "1":
        signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    else:
        profiler.enable()
    try:
        main()
    except SystemExit:
        pass
    finally:
        profiler.disable()
        profiler.dump_stats(out)
