"""Leases in Redis: which process drives a game's timed work, for a few seconds at a time.

Bots' moves and the time limit's ``last-round`` are work nobody asks for: some
process must do it, and only one, or two processes would both think for the
same bot (the version guard would store one move and throw the other away, but
the thinking is wasted and the move drawn twice). So a game's timed work is
done by the process holding the game's lease, a Redis key
``{prefix}:lease:{game}`` set with ``SET NX PX`` to this process's name. The
holder renews its leases every third of their life; a lease it fails to renew
(Redis restarted, the process stalled) is dropped at once. When a process dies
its leases expire within ``ttl`` seconds and the next sweep of another process
(:mod:`alea.server.cluster`) takes them, loads the games and carries on.

Exactly once is not the lease's promise alone: every move still goes through
the version-guarded commit path, so even two holders for a moment (a stalled
process waking after its lease expired) can store a move only once.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("alea.server.cluster")

#: Renew the key only if it is still ours (KEYS[1], ARGV[1] the owner, ARGV[2] the ttl).
RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
#: Delete the key only if it is still ours.
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


class Leases:
    """The leases one process holds, and the Redis calls that take, renew and drop them."""

    def __init__(self, redis: Any, prefix: str, owner: str, ttl: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.owner = owner
        self.ttl_ms = max(100, int(ttl * 1000))
        #: Game ids whose lease this process holds.
        self.held: set[str] = set()
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:lease:{game_id}"

    def holds(self, game_id: str) -> bool:
        """Whether this process held ``game_id``'s lease at its last renewal."""
        return game_id in self.held

    async def acquire(self, game_id: str) -> bool:
        """Take ``game_id``'s lease if nobody holds it; True if this process holds it."""
        if game_id in self.held:
            return True
        try:
            taken = await self.redis.set(self.key(game_id), self.owner, nx=True, px=self.ttl_ms)
        except Exception as err:  # Redis away: nobody new drives; holders keep going
            log.warning("lease of game %s not taken: %s", game_id, err)
            return False
        if taken:
            self.held.add(game_id)
        return bool(taken)

    async def renew(self) -> list[str]:
        """Renew every lease held; returns the game ids whose lease was lost (dropped)."""
        if not self.held:
            return []
        ids = list(self.held)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in ids:
                    key = self.key(game_id)
                    await self._renew(keys=[key], args=[self.owner, self.ttl_ms], client=pipe)
                results = await pipe.execute()
        except Exception as err:
            log.warning("leases not renewed (%s): dropping %d", err, len(ids))
            self.held.clear()
            return ids
        lost = [g for g, ok in zip(ids, results, strict=True) if not ok]
        self.held.difference_update(lost)
        return lost

    async def release(self, game_id: str) -> None:
        """Give ``game_id``'s lease up (the game finished)."""
        if game_id not in self.held:
            return
        self.held.discard(game_id)
        try:
            await self._release(keys=[self.key(game_id)], args=[self.owner])
        except Exception as err:
            log.warning("lease of game %s not released: %s", game_id, err)

    async def free(self, game_ids: list[str]) -> list[str]:
        """Those of ``game_ids`` whose lease nobody holds."""
        if not game_ids:
            return []
        values = await self.redis.mget([self.key(g) for g in game_ids])
        return [g for g, v in zip(game_ids, values, strict=True) if v is None]

    async def release_all(self) -> None:
        """Give every lease up (the process is stopping: others take over at once)."""
        for game_id in list(self.held):
            await self.release(game_id)
