"""A warm runner: one per recipe environment on a computer, owned by the worker.

    python -m trainyard_recipe.warm_runner --socket S --lock L --preload pandas,sklearn \
        --idle-seconds 300 --failed-file F

It imports the recipe's heavy modules once, freezes them out of the garbage collector
(`gc.freeze()`, so forked children keep sharing those pages), and then forks one job per
connection: a job starts in milliseconds instead of paying an interpreter and its imports.
It never runs compute itself, and before each fork checks that it still has one thread
(OpenBLAS with libgomp and GNU OpenMP pools are not fork-safe).

A connection is one job (docs/dev/warm-start.md):
  supervisor -> runner   one JSON line {"module","args","cwd","env","statusFile","cpus"}
  leader     -> sup.     one JSON line {"pid": <leader pid>}   (or {"error": "..."})
  supervisor -> leader   "go\\n"  (anything else, or EOF: the leader exits, nothing ran)
  then the connection carries the job's stdout and stderr until every writer closed it.

The leader is a forked child in its own session and process group (the job's group: the
supervisor's cancel and deadline signal it as they signal a cold job). It ignores SIGTERM
and SIGINT, forks the job itself, waits for it and writes its exit status to statusFile
(atomically), so the status is recorded even when this runner is killed meanwhile.
"""

from __future__ import annotations

import argparse
import fcntl
import gc
import importlib
import json
import os
import signal
import socket
import sys
import time
import traceback

REQUEST_LIMIT = 4 * 1024 * 1024


def thread_count() -> int:
    return len(os.listdir("/proc/self/task"))


def _read_line(conn: socket.socket, limit: int) -> bytes:
    data = b""
    while b"\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            raise ValueError(f"request over {limit} bytes")
    return data.split(b"\n", 1)[0]


def _write_atomic(path: str, payload: dict) -> None:
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


def _name_process(name: str) -> None:
    """What top and `ps -o comm` show (15 bytes); the command line stays the runner's."""
    try:
        with open("/proc/self/comm", "w", encoding="utf-8") as handle:
            handle.write(name[:15])
    except OSError:
        pass


def _run_job(request: dict) -> int:
    """In the job's process: become the job `python -m <module> <args>` would have been."""
    _name_process(f"{request['module'].rsplit('.', 1)[-1]}.{(request['args'] or ['job'])[0]}")
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


def _lead(conn: socket.socket, request: dict) -> None:
    """The forked leader: own session, handshake, fork the job, record how it ended."""
    os.setsid()
    _name_process("trainyard-lead")
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    conn.settimeout(None)
    conn.sendall(json.dumps({"pid": os.getpid()}).encode() + b"\n")
    conn.settimeout(30)
    try:
        answer = _read_line(conn, 16)
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
        _write_atomic(status_file, outcome)
    finally:
        os._exit(0)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _serve(listener: socket.socket, socket_path: str, inode: int, idle_seconds: float) -> None:
    last_used = time.monotonic()
    listener.settimeout(1.0)
    while True:
        _reap()
        try:
            if os.stat(socket_path).st_ino != inode:
                return  # replaced or removed (its home is gone): a newer runner or none
        except FileNotFoundError:
            return
        if time.monotonic() - last_used > idle_seconds:
            return
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        last_used = time.monotonic()
        with conn:
            conn.settimeout(10)
            try:
                request = json.loads(_read_line(conn, REQUEST_LIMIT))
            except (OSError, ValueError) as exc:
                _answer_error(conn, f"unreadable request: {exc}")
                continue
            threads = thread_count()
            if threads != 1:
                # Forking now could copy a lock held by another thread; refuse, and leave
                # so that the next job starts a fresh runner.
                _answer_error(conn, f"the warm runner has {threads} threads; it forks only with one")
                return
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                try:
                    listener.close()
                    _lead(conn, request)
                finally:
                    os._exit(70)


def _answer_error(conn: socket.socket, message: str) -> None:
    try:
        conn.sendall(json.dumps({"error": message}).encode() + b"\n")
    except OSError:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="warm_runner")
    parser.add_argument("--socket", required=True)
    parser.add_argument("--lock", required=True)
    parser.add_argument("--failed-file", required=True)
    parser.add_argument("--preload", default="")
    parser.add_argument("--idle-seconds", type=float, default=300)
    args = parser.parse_args(argv)

    lock = open(args.lock, "a+")  # noqa: SIM115 - held for this runner's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0  # another runner for this environment is alive
    started = time.monotonic()
    modules = [m for m in args.preload.split(",") if m]
    for name in modules:
        try:
            importlib.import_module(name)
        except BaseException as exc:  # noqa: BLE001 - any failure: the worker starts jobs cold
            _write_atomic(args.failed_file, {"module": name, "error": f"{type(exc).__name__}: {exc}"})
            print(f"warm runner: importing {name} failed: {exc}", file=sys.stderr)
            return 3
    gc.collect()
    gc.freeze()
    threads = thread_count()
    if threads != 1:
        message = f"after importing {', '.join(modules)} this process has {threads} threads; forking it is unsafe"
        _write_atomic(args.failed_file, {"module": None, "error": message})
        print(f"warm runner: {message}", file=sys.stderr)
        return 3
    # Listen on a private name first and rename it into place: a job that finds the socket
    # finds a runner that accepts.
    tmp = f"{args.socket}.{os.getpid()}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(tmp)
    os.chmod(tmp, 0o600)
    listener.listen(64)
    os.replace(tmp, args.socket)
    inode = os.stat(args.socket).st_ino
    _name_process("trainyard-warm")
    print(f"warm runner {os.getpid()}: {', '.join(modules) or 'nothing'} imported in "
          f"{time.monotonic() - started:.2f} s; listening on {args.socket}", flush=True)
    try:
        _serve(listener, args.socket, inode, args.idle_seconds)
    finally:
        try:
            if os.stat(args.socket).st_ino == inode:
                os.unlink(args.socket)
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
