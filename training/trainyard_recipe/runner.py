"""run_recipe: the one entry point of every recipe module (`python -m recipes.<name>`).

    JOBS = {"profile": profile_job}
    raise SystemExit(run_recipe(JOBS))

Usage: `<job> --input FILE`. The job function gets (JobContext, input dict) and returns a
metrics dict (or None). Outcome -> report status and exit code (docs/dev/contracts.md):
  returned              -> manifest.json written, report "completed", exit 0
  BadInput              -> report "failed" with {"type","code","message"}, exit 2
  Stopped (SIGTERM/^C)  -> partial outputs removed, report "failed" (code "stopped"), exit 130
  any other exception   -> report "failed" with {"type","message"}, traceback on stderr, exit 1
Usage errors (unknown job, no --input) exit 2 and, when the environment is there, are
reported like BadInput.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Mapping, NoReturn, Sequence

from trainyard_recipe.context import JobContext
from trainyard_recipe.errors import BadInput, Stopped
from trainyard_recipe.events import emit
from trainyard_recipe.manifest import write_manifest
from trainyard_recipe.report import write_report

JobFunction = Callable[[JobContext, dict], "dict | None"]

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_STOPPED = 0, 1, 2, 130


def requires(*keys: str) -> Callable[[JobFunction], JobFunction]:
    """Declare the input keys a job needs; run_recipe refuses input without them (exit 2)."""

    def mark(fn: JobFunction) -> JobFunction:
        fn.required_inputs = tuple(keys)  # type: ignore[attr-defined]
        return fn

    return mark


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would sys.exit(2) on its own
        raise _UsageError(message)


def _parse(jobs: Mapping[str, JobFunction], argv: Sequence[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="recipe", description="Run one job of this recipe.")
    parser.add_argument("job", help="one of: " + ", ".join(sorted(jobs)))
    parser.add_argument("--input", required=True, help="path of the job's input JSON")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.job not in jobs:
        raise _UsageError(f"unknown job {args.job!r}; this recipe has: {', '.join(sorted(jobs))}")
    return args


def _load_input(path: str, fn: JobFunction) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            value = json.load(handle)
    except FileNotFoundError:
        raise BadInput(f"input file {path} does not exist", code="invalid_input") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"input file {path} is not valid JSON: {exc}", code="invalid_input") from None
    if not isinstance(value, dict):
        raise BadInput(f"input file {path} must hold a JSON object, got {type(value).__name__}",
                       code="invalid_input")
    missing = [key for key in getattr(fn, "required_inputs", ()) if value.get(key) in (None, "")]
    if missing:
        raise BadInput("input is missing required field(s): " + ", ".join(missing),
                       code="missing_field", details={"fields": missing})
    return value


def _clear_dir(path: Path) -> None:
    """Remove what a stopped job left in its output folder (never the folder itself)."""
    if not path.is_dir():
        return
    for child in path.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


class _StopSignals:
    """While active, SIGTERM (and SIGINT) raise Stopped in the main thread.

    The request is also remembered: Python runs the handler wherever the main thread is,
    and where that is a destructor (LightGBM's Booster.__del__), Python prints the
    Stopped and drops it, and the job would finish as if never asked to stop."""

    def __init__(self) -> None:
        self.previous: dict[int, Any] = {}
        self.armed = False
        self.requested: str | None = None

    def _handler(self, signum: int, _frame: Any) -> None:
        if self.armed:
            self.armed = False  # one Stopped is enough; a second signal must not interrupt cleanup
            self.requested = f"stopped by {signal.Signals(signum).name}"
            raise Stopped(self.requested)

    def raise_if_requested(self) -> None:
        if self.requested is not None:
            raise Stopped(self.requested)

    def __enter__(self) -> "_StopSignals":
        for signum in (signal.SIGTERM, signal.SIGINT):
            self.previous[signum] = signal.signal(signum, self._handler)
        self.armed = True
        return self

    def disarm(self) -> None:
        self.armed = False

    def __exit__(self, *_exc: Any) -> None:
        self.armed = False
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)


def _failed(ctx: JobContext | None, error: dict[str, Any]) -> None:
    if ctx is None:
        return
    try:
        write_report(ctx, "failed", error=error)
        emit(ctx, "log", level="error", message=error.get("message", ""))
    except OSError as exc:  # the report folder itself is broken; stderr is all we have left
        print(f"could not write the failure report: {exc}", file=sys.stderr)


def run_recipe(jobs: Mapping[str, JobFunction], argv: Sequence[str] | None = None,
               env: Mapping[str, str] | None = None) -> int:
    """Run the job named on the command line; return the process exit code."""
    ctx: JobContext | None = None
    try:
        ctx = JobContext.from_env(env)
        ctx.ensure_dirs()
    except (ValueError, OSError) as exc:
        print(f"recipe: {exc}", file=sys.stderr)
        return EXIT_FAILED
    with _StopSignals() as stop:
        try:
            write_report(ctx, "running")
            args = _parse(jobs, argv)
            fn = jobs[args.job]
            emit(ctx, "log", message=f"job {args.job} started", job=args.job, pid=os.getpid())
            job_input = _load_input(args.input, fn)
            metrics = fn(ctx, job_input)
            stop.raise_if_requested()
            stop.disarm()  # the work is done; finish writing outputs even if asked to stop now
            if metrics is not None and not isinstance(metrics, dict):
                raise TypeError(f"job {args.job} returned {type(metrics).__name__}, expected a dict or None")
            write_manifest(ctx.output_dir)
            write_report(ctx, "completed", metrics=metrics or {})
            return EXIT_OK
        except _UsageError as exc:
            print(f"recipe: {exc}", file=sys.stderr)
            _failed(ctx, {"type": "BadInput", "code": "usage", "message": str(exc)})
            return EXIT_BAD_INPUT
        except BadInput as exc:
            stop.disarm()
            print(f"recipe: bad input [{exc.code}]: {exc.message}", file=sys.stderr)
            _failed(ctx, exc.to_error())
            return EXIT_BAD_INPUT
        except (Stopped, KeyboardInterrupt) as exc:
            stop.disarm()
            _clear_dir(ctx.output_dir)
            message = exc.message if isinstance(exc, Stopped) else "stopped by SIGINT"
            _failed(ctx, {"type": "Stopped", "code": "stopped", "message": message})
            return EXIT_STOPPED
        except Exception as exc:  # noqa: BLE001 - every other failure is exit 1 with its type
            stop.disarm()
            traceback.print_exc(file=sys.stderr)
            _failed(ctx, {"type": type(exc).__name__, "message": str(exc) or type(exc).__name__})
            return EXIT_FAILED


def exit_without_teardown(code: int) -> NoReturn:
    """End the process with `code` once run_recipe has written the report and manifest,
    skipping the interpreter's teardown. There, a native library's threads (Arrow's pool,
    OpenMP) can abort the process ("terminate called without an active exception",
    SIGABRT) after the job completed, and the worker would fail a finished job. Only for
    recipes that start no child processes: their clean-up at exit is skipped too."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
