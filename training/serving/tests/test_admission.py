"""The concurrency cap and its bounded queue: beyond the queue a request is refused at once
(overloaded, with a Retry-After); a queued request waits for a slot until its own deadline."""

import threading
import time

import pytest

from serving.admission import Admission
from serving.errors import ServingError


def test_a_full_queue_refuses_at_once_with_retry_after():
    gate = Admission(concurrency=1, max_queue=1)
    gate.acquire(time.monotonic() + 5)
    waiting = threading.Thread(target=lambda: (gate.acquire(time.monotonic() + 5), gate.release(0.1)))
    waiting.start()
    while gate.queued == 0:
        time.sleep(0.01)
    with pytest.raises(ServingError) as refused:
        gate.acquire(time.monotonic() + 5)
    assert refused.value.code == "overloaded" and refused.value.status == 429 and refused.value.retry_after >= 1
    gate.release(2.5)
    waiting.join(5)
    assert (gate.in_flight, gate.queued) == (0, 0)
    assert gate.retry_after() == 1  # the last request computed 0.1 s


def test_a_queued_request_gives_up_at_its_deadline():
    gate = Admission(concurrency=1, max_queue=4)
    gate.acquire(time.monotonic() + 5)
    started = time.monotonic()
    with pytest.raises(ServingError) as late:
        gate.acquire(time.monotonic() + 0.3)
    assert late.value.code == "deadline" and late.value.status == 504
    assert 0.25 <= time.monotonic() - started < 3
    assert gate.queued == 0
