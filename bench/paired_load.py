"""Two builds of the server under the same load at the same time: CPU per action, paired.

On a shared machine the CPU a server spends per action drifts by a fifth from
one minute to the next (one build measured 0.61 to 1.00 ms per action in runs
a few minutes apart), far more than most changes save. Runs of two builds taken
one after the other therefore compare the minutes more than the builds. This
bench runs ``bench/server_load.py`` for both builds *side by side*: each its
own server process, database and clients, started together, so both meet the
same machine: the two builds of one round differed by 0.00-0.02 ms while the
rounds ranged from 0.64 to 0.82 ms (docs/deploy.md).

``--base`` and ``--new`` are the ``src`` directories of two checkouts (``--new``
defaults to this one's), each with its compiled parts built (``pip install -e .``
in it, or ``python setup.py build_ext --inplace``): a checkout whose engine
sources differ from its compiled modules runs its pure-Python engine, and the
comparison would be of that. Each build's server is started with its ``src``
first on ``PYTHONPATH``. Everything after ``--`` goes to ``server_load.py``
unchanged for both.

    python bench/paired_load.py --base ../base/src --rounds 3 -- --games 250 \\
        --duration 25 --warmup 8 --think 1.0 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test

It prints each round's CPU per action (user / system) and p99 for both builds,
and the median over the rounds of the new build's CPU per action relative to the
base's. Two servers and two sets of clients load both cores: the figures are
higher than one run's alone; the ratio is what the bench is for.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: What ``server_load.py`` prints that the pairs are made of.
CPU = re.compile(r"([0-9.]+) ms per action \(")
SPLIT = re.compile(r"user / system\s+([0-9.]+) / ([0-9.]+)")
P99 = re.compile(r"latency p99\s+([0-9.]+) ms")


def start(src: Path, seed: int, load_args: list[str]) -> subprocess.Popen[str]:
    """``server_load.py`` with ``src`` first on the path of it and of its server."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    command = [sys.executable, str(HERE / "server_load.py"), "--seed", str(seed), *load_args]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def figures(output: str) -> tuple[float, float, float, float]:
    """CPU per action, its user and system parts, and the mover's p99 (ms)."""
    cpu, split, p99 = CPU.search(output), SPLIT.search(output), P99.search(output)
    if cpu is None or split is None or p99 is None:
        raise SystemExit(f"server_load.py did not print its figures:\n{output[-2000:]}")
    return float(cpu[1]), float(split[1]), float(split[2]), float(p99[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the base build's src")
    parser.add_argument("--new", type=Path, default=HERE.parent / "src", help="the new build's")
    parser.add_argument("--rounds", type=int, default=3)
    args, rest = parser.parse_known_args()
    load_args = [a for a in rest if a != "--"]
    ratios: list[float] = []
    for number in range(1, args.rounds + 1):
        runs = {
            name: start(src.resolve(), number, load_args)
            for name, src in (("base", args.base), ("new", args.new))
        }
        shown: dict[str, tuple[float, float, float, float]] = {}
        for name, run in runs.items():
            output, _ = run.communicate()
            shown[name] = figures(output)
        for name, (cpu, user, system, p99) in shown.items():
            print(
                f"round {number} {name:<4} {cpu:.2f} ms per action "
                f"(user {user:.2f} / system {system:.2f}), p99 {p99:.1f} ms"
            )
        ratios.append(shown["new"][0] / shown["base"][0])
    median = statistics.median(ratios)
    print(
        f"new / base, CPU per action: median {median:.3f} ({median - 1:+.1%}) over "
        f"{len(ratios)} rounds: {', '.join(f'{r:.3f}' for r in ratios)}"
    )


if __name__ == "__main__":
    main()
