"""Warm-start test fixture jobs (worker/integration/warm.integration.test.ts).

whoami   record what the job process is: pid, parent, group, session, cwd, argv, env
threads  run a BLAS matrix product and record the thread caps and the most threads seen
sleepy   start a child in its group, print its pid, sleep `seconds`, write one output
"""
import json
import os
import subprocess
import sys
import threading
import time



def emit(kind, **fields):
    with open(os.environ["TRAINYARD_EVENTS_FILE"], "a") as f:
        f.write(json.dumps({"t": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "type": kind, **fields}) + "\n")


def output(name, data):
    out = os.environ["TRAINYARD_OUTPUT_DIR"]
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    import hashlib

    entry = {"path": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"files": [entry]}, f)


def whoami():
    seen = {
        "pid": os.getpid(),
        "ppid": os.getppid(),
        "pgid": os.getpgid(0),
        "sid": os.getsid(0),
        "cwd": os.getcwd(),
        "argv": sys.argv[1:],
        "jobId": os.environ.get("TRAINYARD_JOB_ID"),
        "omp": os.environ.get("OMP_NUM_THREADS"),
        "stdinIsDevNull": os.path.realpath(f"/proc/self/fd/0") == "/dev/null",
        "warmModules": sorted(m for m in ("json", "decimal", "numpy") if m in sys.modules),
    }
    print(json.dumps(seen), flush=True)
    print("to stderr too", file=sys.stderr, flush=True)
    output("whoami.json", json.dumps(seen).encode())


def threads():
    import numpy as np
    from threadpoolctl import threadpool_info

    peak = [len(os.listdir("/proc/self/task"))]
    done = threading.Event()

    def watch():
        while not done.is_set():
            peak[0] = max(peak[0], len(os.listdir("/proc/self/task")))
            time.sleep(0.002)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    a = np.random.default_rng(0).random((1200, 1200))
    for _ in range(6):
        a = a @ a
        a /= np.abs(a).max()
    done.set()
    watcher.join()
    seen = {
        "cpus": int(os.environ["TRAINYARD_CPUS"]),
        "pools": sorted({(i["internal_api"], i["num_threads"]) for i in threadpool_info()}),
        # The main thread and the watcher are two of them.
        "peakThreads": peak[0],
    }
    output("threads.json", json.dumps(seen).encode())


def sleepy(inp):
    child = subprocess.Popen(["sleep", "300"])
    print(f"child {child.pid}", flush=True)
    emit("phase", phase="sleeping")
    time.sleep(float(inp.get("seconds", 1)))
    child.kill()
    child.wait()
    output("slept.json", json.dumps({"seconds": inp.get("seconds", 1)}).encode())


def main():
    job = sys.argv[1]
    with open(sys.argv[3]) as f:
        inp = json.load(f)
    if job == "whoami":
        whoami()
    elif job == "threads":
        threads()
    elif job == "sleepy":
        sleepy(inp)
    else:
        print(f"unknown job {job}", file=sys.stderr)
        sys.exit(2)


main()
