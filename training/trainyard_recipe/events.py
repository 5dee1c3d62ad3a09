"""Progress events: one JSON object per line appended to TRAINYARD_EVENTS_FILE.

Each line is written with one write() on a file opened in append mode and flushed at once,
so the worker tailing the file never sees half a line from us.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

PHASES = ("preparing_data", "training", "evaluating", "comparing", "exporting")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def emit(ctx: Any, type: str, **fields: Any) -> dict[str, Any]:
    """Append {"t": ISO time, "type": type, **fields} to the events file and return it."""
    event = {"t": now_iso(), "type": type, **fields}
    line = json.dumps(event, default=str, ensure_ascii=False) + "\n"
    with open(ctx.events_file, "a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
    return event


def phase(ctx: Any, name: str, **fields: Any) -> dict[str, Any]:
    return emit(ctx, "phase", phase=name, **fields)


def progress(ctx: Any, done: float, total: float | None = None, **fields: Any) -> dict[str, Any]:
    return emit(ctx, "progress", done=done, total=total, **fields)


def log(ctx: Any, message: str, **fields: Any) -> dict[str, Any]:
    return emit(ctx, "log", message=message, **fields)


def warning(ctx: Any, message: str, **fields: Any) -> dict[str, Any]:
    return emit(ctx, "warning", message=message, **fields)
