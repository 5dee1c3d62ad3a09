"""One job of a warm runner (trainyard_recipe/warm_runner.py; docs/dev/warm-start.md).

The leader is forked by the runner per connection: it starts its own session (it leads the
job's process group), answers its pid, waits for the supervisor's "go", forks the job and
records how the job ended in the job's status file. The job becomes what
`python -m <module> <args>` would have been: its signals, cwd, environment, thread caps,
stdio, and at its end what interpreter shutdown does.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import traceback


def read_line(conn: socket.socket, limit: int) -> bytes:
    data = b""
    while b"\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            raise ValueError(f"request over {limit} bytes")
    return data.split(b"\n", 1)[0]


def write_atomic(path: str, payload: dict) -> None:
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(payload, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)

def _cap_threads(cpus: int) -> None:
    """The job's thread caps, set in the child: its native libraries were loaded in the
    runner with one thread, so the environment variables alone no longer reach them."""
    try:
        from threadpoolctl import threadpool_limits  # scikit-learn's own dependency

        threadpool_limits(limits=cpus)
    except ImportError:
        pass
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(cpus)


def name_process(name: str) -> None:
    """What top and `ps -o comm` show (15 bytes); the command line stays the runner's."""
    try:
        with open("/proc/self/comm", "w", encoding="utf-8") as handle:
            handle.write(name[:15])
    except OSError:
        pass


def _run_job(request: dict) -> int:
    """In the job's process: become the job `python -m <module> <args>` would have been."""
    name_process(f"{request['module'].rsplit('.', 1)[-1]}.{(request['args'] or ['job'])[0]}")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    _cap_threads(max(1, int(request.get("cpus") or 1)))
    sys.argv = [request["module"], *request["args"]]
    sys.path[0] = request["cwd"]
    import runpy

    code = 0
    try:
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        if stop.code is None:
            code = 0
        elif isinstance(stop.code, int):
            code = stop.code
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except KeyboardInterrupt:
        traceback.print_exc()
        code = 130
    except BaseException:  # noqa: BLE001 - the job's own failure, reported as a cold run would
        traceback.print_exc()
        code = 1
    return code


def _finish_job(code: int) -> None:
    """What interpreter shutdown would do for the job: join its threads, run atexit, flush."""
    import atexit
    import threading

    try:
        threading._shutdown()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001
        pass
    try:
        atexit._run_exitfuncs()
    except Exception:  # noqa: BLE001
        traceback.print_exc()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    os._exit(code & 0xFF)


def lead(conn: socket.socket, request: dict) -> None:
    """The forked leader: own session, handshake, fork the job, record how it ended."""
    os.setsid()
    name_process("trainyard-lead")
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    conn.settimeout(None)
    conn.sendall(json.dumps({"pid": os.getpid()}).encode() + b"\n")
    conn.settimeout(30)
    try:
        answer = read_line(conn, 16)
    except OSError:
        answer = b""
    if answer != b"go":
        os._exit(0)  # the supervisor gave up on this start (it runs the job cold): run nothing
    conn.settimeout(None)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(conn.fileno(), 1)
    os.dup2(conn.fileno(), 2)
    conn.close()
    status_file = request["statusFile"]
    pid = os.fork()
    if pid == 0:
        try:
            code = _run_job(request)
        except BaseException:  # noqa: BLE001 - e.g. its folder vanished before it started
            traceback.print_exc()
            code = 1
        _finish_job(code)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except ChildProcessError:
            status = None
            break
        except InterruptedError:
            continue
    if status is None:
        outcome = {"pid": pid, "lost": True}
    elif os.WIFSIGNALED(status):
        outcome = {"pid": pid, "signal": os.WTERMSIG(status)}
    else:
        outcome = {"pid": pid, "code": os.WEXITSTATUS(status)}
    try:
        write_atomic(status_file, outcome)
    finally:
        os._exit(0)
