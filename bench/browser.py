"""How fast the game page feels in a real browser: page load and move-to-board update.

Serves the app in-process (SQLite in a temporary directory), starts games of Alea Iacta
Est between the page's seat and bots, and drives Debian's Chromium with Playwright:

* page load: from the start of navigation to the first drawing of the board with the
  page's dice in the tray (``performance.now()`` in the page, so the server's start-up
  and the browser's own start are not counted);
* move to board: from the click on "Place … in …" to the moment the table is drawn from
  the server's answer (the log, drawn with the board, holds the move), seen by a
  ``MutationObserver`` in the page, so no polling interval is counted.

    .venv/bin/python bench/browser.py --loads 8 --moves 20 [--width 390 --height 844]

Prints the median, minimum and maximum of each figure in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from alea.server import Settings, create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

#: Resolves with the milliseconds from a click on the first "Place" button to the table
#: drawn from the server's answer (the log, redrawn with the board, has grown).
MOVE_JS = """() => new Promise((resolve, reject) => {
  const board = document.querySelector('.game');
  const log = () => document.querySelectorAll('#log li[data-i]').length;
  const before = log();
  const button = document.querySelector('.tray .actions button.place');
  if (!button) { reject(new Error('no place button')); return; }
  const observer = new MutationObserver(() => {
    if (log() > before) {
      observer.disconnect();
      resolve(performance.now() - t0);
    }
  });
  observer.observe(board, { childList: true, subtree: true });
  const t0 = performance.now();
  button.click();
  setTimeout(() => { observer.disconnect(); reject(new Error('no update in 10 s')); }, 10000);
})"""

#: Notes the first moment the page shows the board and its own dice.
LOAD_JS = """(() => {
  const seen = () => document.querySelector('#board .buildings') &&
    document.querySelector('.tray .die.pick');
  const observer = new MutationObserver(() => {
    if (!window.__ready && seen()) { window.__ready = performance.now(); observer.disconnect(); }
  });
  document.addEventListener('DOMContentLoaded', () =>
    observer.observe(document.body, { childList: true, subtree: true }));
})();"""


class Server:
    """The app served by uvicorn on a free loopback port, in a background thread."""

    def __init__(self, database_url: str) -> None:
        settings = Settings(database_url=database_url, bot_delay=0.05, idle_timeout=600)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(create_app(settings), log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.time() + 30
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()


def new_game(base: str, players: int) -> tuple[str, str]:
    """A game of the page's seat against ``players - 1`` easy bots: its id and the token."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    answer = httpx.post(
        f"{base}/api/games", json={"seats": seats, "public": False, "name": "Bench"}, timeout=30
    )
    answer.raise_for_status()
    body = answer.json()
    return body["game"]["id"], body["token"]


def open_game(browser: Any, base: str, game_id: str, token: str, size: dict[str, int]) -> Any:
    context = browser.new_context(viewport=size)
    tokens = json.dumps({game_id: {"token": token, "seat": 0, "at": 1}})
    context.add_init_script(
        f"localStorage.setItem('alea.tokens', {json.dumps(tokens)});"
        "localStorage.setItem('alea.auto', '1');" + LOAD_JS
    )
    page = context.new_page()
    page.goto(f"{base}/game/{game_id}")
    return context, page


def pick_placement(page: Any, rng: random.Random) -> bool:
    """Selects a random non-Latrine placement from the list; False when there is none."""
    chips = [
        c
        for c in page.query_selector_all(".tray [data-select]")
        if not (c.get_attribute("data-select") or "").startswith("L:")
    ]
    if not chips:
        return False
    rng.choice(chips).evaluate("chip => chip.click()")  # the list is folded on phones
    page.wait_for_selector(".tray .actions button.place")
    return True


def summary(name: str, values: list[float]) -> str:
    return (
        f"{name}: median {statistics.median(values):.0f} ms, "
        f"min {min(values):.0f}, max {max(values):.0f} (n={len(values)})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=8)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=768)
    args = parser.parse_args(argv)
    size = {"width": args.width, "height": args.height}
    from playwright.sync_api import sync_playwright

    rng = random.Random(1)
    loads: list[float] = []
    moves: list[float] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        Server(f"sqlite:///{Path(tmp) / 'b.sqlite'}") as srv,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        game_id, token = new_game(srv.base, args.players)
        for _ in range(args.loads):
            context, page = open_game(browser, srv.base, game_id, token, size)
            page.wait_for_function("window.__ready", timeout=30000)
            loads.append(float(page.evaluate("window.__ready")))
            context.close()
        context, page = open_game(browser, srv.base, game_id, token, size)
        deadline = time.time() + 300
        while len(moves) < args.moves and time.time() < deadline:
            if page.query_selector(".overlay .results"):
                context.close()
                game_id, token = new_game(srv.base, args.players)
                context, page = open_game(browser, srv.base, game_id, token, size)
            try:
                page.wait_for_selector(
                    ".tray [data-select], .tray .choices", state="attached", timeout=20000
                )
            except Exception:  # the game ended meanwhile: look again
                continue
            choices = page.query_selector_all(".tray .choices [data-action]")
            if choices:
                choices[0].click()
                page.wait_for_timeout(100)
                continue
            if not pick_placement(page, rng):
                page.eval_on_selector(".tray [data-select]", "chip => chip.click()")
                page.click(".tray .actions button.place")
                page.wait_for_timeout(100)
                continue
            moves.append(float(page.evaluate(MOVE_JS)))
        context.close()
        browser.close()
    print(f"viewport {args.width}x{args.height}, {args.players} players")
    print(summary("page load", loads))
    print(summary("move to board", moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
