"""The job report (TRAINYARD_REPORT_FILE), written atomically at start and end."""

from __future__ import annotations

from typing import Any

from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import now_iso

STATUSES = ("running", "completed", "failed")


def write_report(ctx: Any, status: str, error: dict[str, Any] | None = None,
                 metrics: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """Write {"status", "error", "metrics", "jobId", "updatedAt", **extra} via temp+rename."""
    if status not in STATUSES:
        raise ValueError(f"report status must be one of {STATUSES}, got {status!r}")
    report = {
        "status": status,
        "error": error,
        "metrics": metrics or {},
        "jobId": ctx.job_id,
        "updatedAt": now_iso(),
        **extra,
    }
    write_json_atomic(ctx.report_file, report)
    return report
