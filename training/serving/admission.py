"""Concurrency cap with a bounded queue: `concurrency` requests compute at once, up to
`max_queue` more wait (each until its own deadline), and beyond that a request is refused at
once with 429 and a Retry-After, so a burst never piles up unbounded threads on the model."""

from __future__ import annotations

import math
import threading
import time

from serving.errors import ServingError


class Admission:
    def __init__(self, concurrency: int, max_queue: int) -> None:
        self.concurrency = concurrency
        self.max_queue = max_queue
        self.in_flight = 0
        self.queued = 0
        self._cond = threading.Condition()
        self._recent_seconds = 1.0  # how long the last request computed: the Retry-After hint

    def retry_after(self) -> int:
        return max(1, math.ceil(self._recent_seconds))

    def acquire(self, deadline: float) -> None:
        """Take one compute slot, waiting in the queue until `deadline`; refuses `overloaded`
        (queue full) or `deadline`. Every acquire is paired with one release()."""
        with self._cond:
            if self.in_flight >= self.concurrency:
                if self.queued >= self.max_queue:
                    raise ServingError("overloaded", f"{self.in_flight} request(s) computing and {self.queued} "
                                       f"waiting (the queue holds {self.max_queue}); retry later",
                                       retry_after=self.retry_after())
                self.queued += 1
                try:
                    while self.in_flight >= self.concurrency:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            raise ServingError("deadline", "the request's deadline passed while it waited in the queue")
                        self._cond.wait(left)
                finally:
                    self.queued -= 1
            self.in_flight += 1

    def release(self, computed_seconds: float) -> None:
        with self._cond:
            self.in_flight -= 1
            self._recent_seconds = computed_seconds
            self._cond.notify()
