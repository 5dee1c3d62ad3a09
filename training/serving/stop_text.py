"""Stop sequences over streamed text: the text handed out never contains a stop string nor
anything after it. A delta that ends with the beginning of a stop string ("Answ" of a stop
"Answer:") is held back until the next delta decides whether the stop string follows, so a
client never sees text that a later delta would have to take back."""

from __future__ import annotations

from typing import Sequence


class StopText:
    def __init__(self, stops: Sequence[str] = ()) -> None:
        self._stops = [s for s in stops if s]
        self._pending = ""
        self._out: list[str] = []
        self.stopped = False

    def push(self, delta: str) -> str:
        """Add decoded text; return what may be handed out now (possibly ""). Once a stop
        string appeared, `stopped` is true and nothing more is handed out."""
        if self.stopped or not delta:
            return ""
        self._pending += delta
        found = [i for i in (self._pending.find(s) for s in self._stops) if i >= 0]
        if found:
            ready, self._pending, self.stopped = self._pending[:min(found)], "", True
        else:
            held = self._held_back()
            ready = self._pending[:len(self._pending) - held]
            self._pending = self._pending[len(self._pending) - held:]
        if ready:
            self._out.append(ready)
        return ready

    def finish(self) -> str:
        """At the end of generation: the held-back tail (it never became a stop string)."""
        rest, self._pending = ("" if self.stopped else self._pending), ""
        if rest:
            self._out.append(rest)
        return rest

    def text(self) -> str:
        return "".join(self._out)

    def _held_back(self) -> int:
        """Length of the longest tail of the pending text that begins some stop string."""
        for size in range(min(len(self._pending), max((len(s) for s in self._stops), default=1) - 1), 0, -1):
            tail = self._pending[-size:]
            if any(s.startswith(tail) for s in self._stops):
                return size
        return 0
