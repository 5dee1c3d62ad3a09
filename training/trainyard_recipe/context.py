"""The job's environment as the worker gives it (docs/dev/contracts.md, "Recipe run")."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

_PATH_VARS = {
    "work_dir": "TRAINYARD_WORK_DIR",
    "output_dir": "TRAINYARD_OUTPUT_DIR",
    "checkpoint_dir": "TRAINYARD_CHECKPOINT_DIR",
    "events_file": "TRAINYARD_EVENTS_FILE",
    "report_file": "TRAINYARD_REPORT_FILE",
}


@dataclass(frozen=True)
class JobContext:
    job_id: str
    work_dir: Path
    output_dir: Path
    checkpoint_dir: Path
    events_file: Path
    report_file: Path
    cpus: int

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "JobContext":
        """Read the TRAINYARD_* variables; a missing or malformed one is a ValueError
        naming the variable, since a job without them cannot report anything."""
        env = os.environ if env is None else env
        missing = [name for name in ["TRAINYARD_JOB_ID", *_PATH_VARS.values(), "TRAINYARD_CPUS"] if not env.get(name)]
        if missing:
            raise ValueError(
                "recipe job started without the worker's environment: missing " + ", ".join(missing)
            )
        raw_cpus = env["TRAINYARD_CPUS"]
        try:
            cpus = int(raw_cpus)
        except ValueError:
            raise ValueError(f"TRAINYARD_CPUS must be a positive integer, got {raw_cpus!r}") from None
        if cpus < 1:
            raise ValueError(f"TRAINYARD_CPUS must be a positive integer, got {raw_cpus!r}")
        paths = {field: Path(env[var]).absolute() for field, var in _PATH_VARS.items()}
        return cls(job_id=env["TRAINYARD_JOB_ID"], cpus=cpus, **paths)

    def ensure_dirs(self) -> None:
        """Create the folders a job writes into (the worker normally has already)."""
        for path in (self.work_dir, self.output_dir, self.checkpoint_dir):
            path.mkdir(parents=True, exist_ok=True)
        for path in (self.events_file, self.report_file):
            path.parent.mkdir(parents=True, exist_ok=True)
