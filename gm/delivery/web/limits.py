"""Rate limits of the web door: a token bucket per key (a client address, a player), in memory.

One server process holds them (`gm serve` runs one worker), so they need no store of their own.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass
class Bucket:
    tokens: float
    stamp: float


class RateLimit:
    """At most ``burst`` at once, refilled at ``per_second``; ``take(key)`` says whether one may go,
    else how many seconds until it may."""

    def __init__(self, burst: int, per_second: float, *, clock=time.monotonic, max_keys: int = 100_000):
        self.burst, self.per_second, self.clock, self.max_keys = burst, per_second, clock, max_keys
        self._buckets: dict[str, Bucket] = {}
        self._guard = threading.Lock()

    def _bucket(self, key: str, now: float) -> Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:  # a flood of new keys cannot fill the memory
                self._buckets = {k: b for k, b in self._buckets.items() if self._level(b, now) < self.burst}
            bucket = self._buckets[key] = Bucket(float(self.burst), now)
        return bucket

    def _level(self, bucket: Bucket, now: float) -> float:
        return min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.per_second)

    def allowed(self, key: str) -> float:
        """0 when one more is allowed now; else the seconds to wait (nothing is taken)."""
        with self._guard:
            now = self.clock()
            level = self._level(self._bucket(key, now), now)
            return 0.0 if level >= 1 else (1 - level) / self.per_second

    def take(self, key: str) -> float:
        """Take one: 0 when allowed (and taken), else the seconds to wait."""
        with self._guard:
            now = self.clock()
            bucket = self._bucket(key, now)
            level = self._level(bucket, now)
            if level < 1:
                return (1 - level) / self.per_second
            bucket.tokens, bucket.stamp = level - 1, now
            return 0.0
