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

The leader and the job it forks are in warm_job.py: the leader is in its own session and
process group (the job's group), ignores SIGTERM and SIGINT, and records the job's exit
status in statusFile, so it is recorded even when this runner is killed meanwhile.
"""

from __future__ import annotations

import argparse
import fcntl
import gc
import importlib
import json
import os
import socket
import sys
import time

from trainyard_recipe.warm_job import lead, name_process, read_line, write_atomic

REQUEST_LIMIT = 4 * 1024 * 1024


def thread_count() -> int:
    return len(os.listdir("/proc/self/task"))


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
                request = json.loads(read_line(conn, REQUEST_LIMIT))
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
                    lead(conn, request)
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
            write_atomic(args.failed_file, {"module": name, "error": f"{type(exc).__name__}: {exc}"})
            print(f"warm runner: importing {name} failed: {exc}", file=sys.stderr)
            return 3
    gc.collect()
    gc.freeze()
    threads = thread_count()
    if threads != 1:
        message = f"after importing {', '.join(modules)} this process has {threads} threads; forking it is unsafe"
        write_atomic(args.failed_file, {"module": None, "error": message})
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
    name_process("trainyard-warm")
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
