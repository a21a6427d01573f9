"""Page load time of the browser client, measured in headless Chromium.

Run: ``.venv/bin/python bench/page_load.py [--runs N] [--src DIR]``

Starts ``alea serve`` on 127.0.0.1 (a child process, SQLite in a temporary
directory), then opens each page ``--runs`` times in a fresh browser context (an
empty cache, as a first visit) and once more after a reload (a warm cache):

* the lobby ``/`` until its "play now" form is drawn;
* the game ``/game/{id}`` of a seat in a new game against a bot, until its dice
  are drawn (the page connects its WebSocket and receives the view first);
* the table-top scorer ``/score`` until its pieces are drawn (after ``GET
  /api/score/box``);
* the rules page ``/rules`` until its sections are drawn.

It prints, per page, the median and the worst time from navigation start to the
page's content drawn, and the browser's own ``load`` event time. The target:
every page's median is under 1 s on loopback (the game page took 0.3-0.8 s
before the scorer existed; ``--src`` runs the server from another source tree,
e.g. an exported older commit, to compare).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

from serving import start_alea_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
TARGET_MEDIAN_S = 1.0

#: Each page: its path (``{game}`` is a new game's id) and what shows it is drawn.
PAGES = {
    "lobby": ("/", "#quick"),
    "game": ("/game/{game}", ".tray .die.pick"),
    "score": ("/score", ".piece-btn"),
    "rules": ("/rules", ".help-item"),
}

LOAD_EVENT = "performance.getEntriesByType('navigation')[0].loadEventEnd / 1000"


def start_server(data_dir: Path, src: str | None) -> tuple[Any, str]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    return start_alea_server(
        "--data-dir", str(data_dir), "--log-level", "warning", "--bot-delay", "0.8", env=env
    )


def seat(base: str) -> tuple[str, str]:
    """A new game of a seated human against a bot: its id and the seat's token."""
    answer = httpx.post(
        f"{base}/api/games",
        json={"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}], "public": False},
        timeout=30,
    )
    answer.raise_for_status()
    body = answer.json()
    return body["game"]["id"], body["token"]


def measure(browser: Any, base: str, page_name: str, runs: int) -> dict[str, list[float]]:
    path, drawn = PAGES[page_name]
    times: dict[str, list[float]] = {"cold": [], "load": [], "warm": []}
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        url = base + path
        if "{game}" in path:
            game, token = seat(base)
            url = url.format(game=game)
            page.add_init_script(
                "localStorage.setItem('alea.tokens', JSON.stringify("
                f"{{'{game}': {{token: '{token}', seat: 0, at: 1}}}}))"
            )
        page.goto(url)
        page.wait_for_selector(drawn, timeout=30000)
        times["cold"].append(page.evaluate("performance.now() / 1000"))
        page.wait_for_load_state("load")
        times["load"].append(page.evaluate(LOAD_EVENT))
        page.reload()
        page.wait_for_selector(drawn, timeout=30000)
        times["warm"].append(page.evaluate("performance.now() / 1000"))
        context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh contexts per page")
    parser.add_argument("--src", default=None, help="run the server from this source tree")
    args = parser.parse_args()
    if not 1 <= args.runs <= 50:
        raise SystemExit("bounded benchmark: 1 to 50 runs")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp), args.src)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                print(
                    f"{'page':8} {'drawn median':>13} {'worst':>7} {'load median':>12}"
                    f" {'warm median':>12}   (seconds, {args.runs} runs)"
                )
                for name in PAGES:
                    if args.src and name in ("score", "rules"):
                        answer = httpx.get(base + PAGES[name][0], timeout=30)
                        if answer.status_code == 404:
                            continue  # an older tree without these pages
                    t = measure(browser, base, name, args.runs)
                    median = statistics.median(t["cold"])
                    ok = ok and median <= TARGET_MEDIAN_S
                    print(
                        f"{name:8} {median:13.3f} {max(t['cold']):7.3f}"
                        f" {statistics.median(t['load']):12.3f}"
                        f" {statistics.median(t['warm']):12.3f}"
                    )
                browser.close()
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    print("RESULT", "PASS" if ok else "FAIL", f"(target: every median <= {TARGET_MEDIAN_S} s)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
