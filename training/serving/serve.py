"""Job `serve`: load one release once and answer contracts/deployments/serving.ts on a private
Unix socket until the worker stops the job (cancel = SIGTERM, or the absolute lifetime as its
deadline). Input:

    {"release": "<the controller's release id>", "export": "<export.tar.gz or its job folder>",
     "base": "<import_base output or model folder>"   (llm only),
     "limits": {ZServingLimits}, "heartbeatSeconds": 10, "device": "cpu", "socket": "<path>",
     "idleUnloadSeconds": 900}

The socket is `socket` when given, else $TRAINYARD_SERVE_SOCKET (the worker sets
<worker home>/run/<job id>/serve.sock), else <work dir>/serve.sock. Events: `serving`
{state: "loading"} when the socket listens, then `serving` {state: "ready", socket, kind,
release, pid} once the model answers (the health route says `loading` until then), and
`serving` {state: "unloaded", reason: "idle"} when idleUnloadSeconds passed without a request
(health checks do not count): the process then ends and the job succeeds.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from trainyard_recipe import BadInput, emit

from serving.limits import parse_limits
from serving.release import archive_path, unpack
from serving.service import Service, handler_for, note
from serving.unix_http import UnixHttpServer

KINDS = ("tabular", "llm")


def socket_path(job_input: dict, work_dir: Path) -> Path:
    given = job_input.get("socket") or os.environ.get("TRAINYARD_SERVE_SOCKET")
    return Path(given) if given else work_dir / "serve.sock"


def load(kind: str, folder: Path, job_input: dict):
    if kind == "tabular":
        from serving.tabular_model import TabularModel

        return TabularModel(folder)
    from serving.llm_model import LlmModel

    return LlmModel(folder, job_input.get("base"), device=job_input.get("device", "cpu"))


INPUT_FIELDS = {"release", "export", "base", "limits", "heartbeatSeconds", "device", "socket",
                "idleUnloadSeconds"}  # ZServeJobInput


def serve(kind: str, ctx, job_input: dict) -> dict:
    unknown = sorted(set(job_input) - INPUT_FIELDS)
    if unknown:
        raise BadInput(f"unknown input field(s): {', '.join(unknown)}", code="invalid_input")
    if job_input.get("device", "cpu") not in ("cpu", "cuda", "mps") or (kind == "tabular" and "device" in job_input
                                                                       and job_input["device"] != "cpu"):
        raise BadInput(f"device {job_input.get('device')!r} is not one this release can use", code="invalid_input")
    release = job_input.get("release")
    if not isinstance(release, str) or not release:
        raise BadInput("input field 'release' (the release id this process serves) is required", code="missing_field")
    heartbeat = job_input.get("heartbeatSeconds", 10)
    if isinstance(heartbeat, bool) or not isinstance(heartbeat, (int, float)) or not 0.05 <= heartbeat <= 300:
        raise BadInput("heartbeatSeconds must be a number in [0.05, 300]", code="invalid_input")
    idle_unload = job_input.get("idleUnloadSeconds")
    if idle_unload is not None and (isinstance(idle_unload, bool) or not isinstance(idle_unload, (int, float))
                                    or idle_unload <= 0):
        raise BadInput("idleUnloadSeconds must be a positive number", code="invalid_input")
    limits = parse_limits(job_input.get("limits"))
    archive = archive_path(job_input.get("export"))
    service = Service(kind, release, limits, float(heartbeat))
    path = socket_path(job_input, Path(ctx.work_dir))
    server = UnixHttpServer(path, handler_for(service))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    try:
        emit(ctx, "serving", state="loading", socket=str(path), kind=kind, release=release, pid=os.getpid())
        folder = unpack(archive, Path(ctx.work_dir))
        service.model = load(kind, folder, job_input)
        emit(ctx, "serving", state="ready", socket=str(path), kind=kind, release=release, pid=os.getpid(),
             model=service.model.name)
        note(f"ready on {path}")
        service.last_request = time.monotonic()  # idle time counts from ready, not from the start
        while idle_unload is None or service.idle_seconds() < idle_unload:  # or until SIGTERM raises Stopped
            time.sleep(0.5 if idle_unload is not None else 3600)
        emit(ctx, "serving", state="unloaded", socket=str(path), kind=kind, release=release, pid=os.getpid(),
             reason="idle")
    finally:
        server.shutdown()
        server.close()
    # Unloaded after idleUnloadSeconds without a request: the job completes (exit 0).
    return {"unloaded": "idle", "idleUnloadSeconds": idle_unload}


def job(kind: str):
    def run(ctx, job_input: dict) -> dict:
        return serve(kind, ctx, job_input)

    return run
