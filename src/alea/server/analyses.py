"""Game analysis and hints on the server: in a bounded pool of worker processes.

An analysis (:mod:`alea.analysis`) plays thousands of playouts: seconds of CPU per
game. It must never run on the event loop nor in the threads the request path
needs, so, like the bots (:mod:`alea.server.botpool`), it runs in worker
processes of its own (``Settings.analysis_processes``; 0 runs it in one dedicated
thread, for tests and embedding):

* **One analysis per game at a time.** Asking for another seat of the same game
  while one runs is refused (``analysis_busy``); asking again for the same seat
  answers its progress.
* **Progress.** Each decision is its own task in the pool, so the progress is the
  number of decisions assessed out of the seat's decisions, and games analysed at
  once share the workers decision by decision.
* **Computed once.** The finished analysis is stored with the game
  (:mod:`alea.server.analysis_store`) and served from there afterwards, after a
  restart too. Analyses are seeded, so two processes computing the same one agree.
* **Only the seat's view.** The workers receive each decision's view of the
  analysed seat, its legal moves and the move played (as notation), never the
  state. Hints get the view of the seat to move, and only that seat may ask.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

import alea.analysis as analysis
from alea.server import analysis_store
from alea.server.config import Settings
from alea.server.errors import ServerError
from alea.server.room import ACTIVE, FINISHED, OVER, Game

log = logging.getLogger("alea.server")

#: The seed of every analysis the server computes (so that each is computed once).
SEED = 0


@dataclass
class Job:
    """One analysis under way: its seat, progress and task."""

    seat: int
    total: int = 0
    done: int = 0
    task: asyncio.Task[None] | None = None
    decisions: list[dict[str, Any]] = field(default_factory=list)


class Analyses:
    """The analyses and hints of one server process."""

    def __init__(self, settings: Settings, engine: Engine) -> None:
        self.settings = settings
        self.engine = engine
        self.jobs: dict[str, Job] = {}
        #: Failures of the last attempt by (game, seat), shown until asked again.
        self.failed: dict[tuple[str, int], str] = {}
        #: The last hint of each game, by the position it was computed at: the version and
        #: the log epoch (an undo and another move bring a game back to a version with
        #: another position; the epoch tells them apart).
        self._hints: dict[str, tuple[tuple[int, int], int, asyncio.Future[dict[str, Any]]]] = {}
        self._executor: Executor | None = None

    # ------------------------------------------------------------ workers

    def _pool(self) -> Executor:
        if self._executor is None:
            processes = max(0, self.settings.analysis_processes)
            if processes:
                methods = multiprocessing.get_all_start_methods()
                method = "forkserver" if "forkserver" in methods else "spawn"
                context = multiprocessing.get_context(method)
                if method == "forkserver":
                    context.set_forkserver_preload(["alea.analysis"])
                self._executor = ProcessPoolExecutor(processes, mp_context=context)
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="alea-analysis")
        return self._executor

    async def close(self) -> None:
        """Cancel the analyses under way and stop the workers."""
        for job in list(self.jobs.values()):
            if job.task is not None:
                job.task.cancel()
        self.jobs.clear()
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------ analyses

    def _check(self, game: Game, seat: int) -> None:
        if game.status != FINISHED:
            raise ServerError("not_finished", 409)
        if not analysis.supports(game.game_name):
            raise ServerError("analysis_unavailable", 409)
        if not 0 <= seat < game.players:
            raise ServerError("bad_request", 422, detail=f"seat is 0 to {game.players - 1}")

    async def status(self, game: Game, seat: int) -> dict[str, Any]:
        """Where the analysis of ``seat`` stands: ``none``, ``running``, ``done`` or ``failed``."""
        self._check(game, seat)
        job = self.jobs.get(game.id)
        if job is not None and job.seat == seat:
            return {"status": "running", "seat": seat, "done": job.done, "total": job.total}
        stored = await asyncio.to_thread(analysis_store.load, self.engine, game.id, seat)
        if stored is not None:
            total = len(stored["decisions"])
            return {
                "status": "done",
                "seat": seat,
                "done": total,
                "total": total,
                "analysis": stored,
            }
        error = self.failed.get((game.id, seat))
        if error is not None:
            return {"status": "failed", "seat": seat, "done": 0, "total": 0, "detail": error}
        return {"status": "none", "seat": seat, "done": 0, "total": 0}

    async def start(self, game: Game, seat: int) -> dict[str, Any]:
        """Start analysing ``seat`` of ``game`` (or say where it stands if it has begun)."""
        found = await self.status(game, seat)
        if found["status"] in ("running", "done"):
            return found
        busy = self.jobs.get(game.id)
        if busy is not None:
            if busy.seat == seat:
                return {"status": "running", "seat": seat, "done": busy.done, "total": busy.total}
            raise ServerError("analysis_busy", 409, detail=f"seat {busy.seat} is being analysed")
        self.failed.pop((game.id, seat), None)
        record = game.state.record()
        name = game.game_name
        job = self.jobs[game.id] = Job(seat)  # reserved before any await: one per game
        try:
            points = await asyncio.to_thread(lambda: list(analysis.points(name, record, seat)))
        except BaseException:
            del self.jobs[game.id]
            raise
        job.total = len(points)
        job.task = asyncio.create_task(self._run(game.id, name, job, points))
        return {"status": "running", "seat": seat, "done": 0, "total": job.total}

    async def _run(self, game_id: str, name: str, job: Job, points: list[analysis.Point]) -> None:
        loop = asyncio.get_running_loop()
        samples = self.settings.analysis_samples
        threshold = analysis.THRESHOLD

        async def one(point: analysis.Point) -> dict[str, Any]:
            data = analysis.point_data(point)
            found: dict[str, Any] = await loop.run_in_executor(
                self._pool(), analysis.assess_remote, name, data, samples, threshold, SEED
            )
            job.done += 1
            return found

        try:
            decisions = await asyncio.gather(*(one(p) for p in points))
            result = {
                "game": name,
                "seat": job.seat,
                "samples": samples,
                "threshold": threshold,
                "seed": SEED,
                "decisions": list(decisions),
            }
            await asyncio.to_thread(analysis_store.save, self.engine, game_id, job.seat, result)
        except asyncio.CancelledError:
            raise
        except BrokenExecutor:
            log.error("the analysis workers broke; starting new ones")
            self.failed[(game_id, job.seat)] = "the analysis workers stopped"
            executor, self._executor = self._executor, None
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        except Exception as err:  # an engine error is reported, not swallowed
            log.exception("analysis of %s seat %d failed", game_id, job.seat)
            self.failed[(game_id, job.seat)] = type(err).__name__
        finally:
            if self.jobs.get(game_id) is job:
                del self.jobs[game_id]

    # ---------------------------------------------------------------- hints

    async def hint(self, game: Game, seat: int) -> dict[str, Any]:
        """The move the analyser would play for ``seat`` now, with its figures.

        Only the seat to move may ask, only while the game is played, never in a
        rated game; one hint per game and version is computed (asking again waits
        for it or gets it).
        """
        if game.rated:
            raise ServerError("hint_unavailable", 403)
        if game.status != ACTIVE or not game.decides(seat):
            raise ServerError("not_your_turn", 409)
        if not analysis.supports(game.game_name):
            raise ServerError("analysis_unavailable", 409)
        version = game.version
        position = (version, game.log_epoch)
        cached = self._hints.get(game.id)
        if cached is not None and cached[0] == position and cached[1] == seat:
            return {**await asyncio.shield(cached[2]), "version": version, "seat": seat}
        view = game.state.view(seat)
        legal = [str(a) for a in game.state.legal_actions()]
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(
            self._pool(),
            analysis.hint_remote,
            game.game_name,
            view,
            legal,
            self.settings.hint_samples,
            version,
        )
        self._hints[game.id] = (position, seat, asyncio.ensure_future(future))
        verdict = await asyncio.shield(self._hints[game.id][2])
        return {**verdict, "version": version, "seat": seat}

    def forget(self, game_id: str) -> None:
        """Drop the hint kept for a game (it left memory or ended)."""
        self._hints.pop(game_id, None)

    def follow(self, game: Game) -> None:
        """A game changed (one of the commit path's followers): once it is over, its
        hint goes. Kept until then, every game ever hinted held one (with its verdict)
        for the life of the process."""
        if game.status in OVER:
            self._hints.pop(game.id, None)
