"""IS-MCTS greedy playouts per CPU second: this checkout against another source tree.

Issue 14 asks for four times the IS-MCTS playouts per second of the engine before
it was compiled. A figure measured on another day, on another load, says little;
this bench runs both trees side by side on the benchmark position of
``bench/strength.py --only speed`` (the same seeded mid-game position in both, checked
by its legal actions), alternating short searches of each so a change in the
machine's load falls on both, and counts playouts per **CPU** second of the
searching process. Usage, with a worktree of the commit before the compiled engine::

    git worktree add --detach /tmp/before 5bf15e9~1
    python bench/ismcts_against.py /tmp/before --rounds 5 --seconds 4

Each tree runs in its own child process (``PYTHONPATH`` its ``src``, its own
``bench/strength.py`` for the position), warmed by one search first, as the speed
bench of this checkout does; ``--cold`` leaves the warm-up out.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: Run in the child: one search of ``seconds`` on the benchmark position, timed by CPU.
CHILD = """
import gc, json, random, sys, time
sys.path.insert(0, sys.argv[1])
from strength import midgame_position
from alea.bots import ISMCTSBot
import alea.iacta as iacta
seconds, warm = float(sys.argv[2]), sys.argv[3] == "1"
state = midgame_position()
view, legal = state.view(state.current_player()), state.legal_actions()
if warm:
    ISMCTSBot(iterations=None, steps=None, seconds=1.0, playout="greedy").act(
        view, legal, random.Random(0))
    gc.freeze()
bot = ISMCTSBot(iterations=None, steps=None, seconds=seconds, playout="greedy")
cpu = time.process_time()
bot.act(view, legal, random.Random(1))
cpu = time.process_time() - cpu
print(json.dumps({"legal": sorted(map(str, legal)), "playouts": bot.last_iterations,
                  "cpu": cpu, "compiled": bool(getattr(iacta, "COMPILED", False))}))
"""


def search(tree: Path, seconds: float, warm: bool) -> dict[str, object]:
    """One search in a child process running ``tree``'s sources."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree / "bench"), str(seconds), "1" if warm else "0"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the other source tree (holds src/ and bench/)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--cold", action="store_true", help="no warm-up search")
    parser.add_argument("--target", type=float, default=4.0, help="the ratio asked for")
    args = parser.parse_args()
    trees = {"this": HERE, "other": args.other.resolve()}
    rates: dict[str, list[float]] = {name: [] for name in trees}
    legal: dict[str, object] = {}
    compiled: dict[str, object] = {}
    for round_ in range(args.rounds):
        for name, tree in trees.items():
            answer = search(tree, args.seconds, not args.cold)
            legal[name], compiled[name] = answer["legal"], answer["compiled"]
            rate = float(answer["playouts"]) / float(answer["cpu"])  # type: ignore[arg-type]
            rates[name].append(rate)
            print(f"round {round_ + 1} {name:>5}: {rate:7.1f} greedy playouts per CPU second")
    if legal["this"] != legal["other"]:
        raise SystemExit("the two trees reached different positions: not comparable")
    this, other = statistics.median(rates["this"]), statistics.median(rates["other"])
    print(
        f"\nthis checkout ({'compiled' if compiled['this'] else 'pure Python'}): median "
        f"{this:.1f}; {trees['other']} ({'compiled' if compiled['other'] else 'pure Python'}): "
        f"median {other:.1f}; ratio {this / other:.2f}× (target ≥ {args.target:g}×: "
        f"{'met' if this / other >= args.target else 'not met'}); load average "
        f"{os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
