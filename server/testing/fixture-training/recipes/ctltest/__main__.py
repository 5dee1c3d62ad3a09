"""Controller test fixture. Run: python -m recipes.ctltest run --input input.json

Input: {"runLog": path, "pidFile": path, "releaseFile": path, "maxSeconds": n, "logLines": [..]}.
Appends "run <job id>" to runLog (so a test can count real runs), writes its pid, prints
the log lines, then waits until releaseFile exists (tests decide when it ends), at most
maxSeconds, and writes one output with its manifest. SIGTERM is left at Python's default.
"""
import hashlib
import json
import os
import sys
import time


def main(argv):
    job = argv[0]
    if job != "run":
        print(f"unknown job {job}", file=sys.stderr)
        return 2
    inp = json.load(open(argv[argv.index("--input") + 1]))
    job_id = os.environ.get("TRAINYARD_JOB_ID", "?")
    if inp.get("runLog"):
        with open(inp["runLog"], "a") as f:
            f.write(f"run {job_id}\n")
    if inp.get("pidFile"):
        with open(inp["pidFile"] + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(inp["pidFile"] + ".tmp", inp["pidFile"])
    for line in inp.get("logLines", []):
        print(line, flush=True)
    deadline = time.time() + float(inp.get("maxSeconds", 30))
    release = inp.get("releaseFile")
    while release and not os.path.exists(release) and time.time() < deadline:
        time.sleep(0.05)
    out = os.environ["TRAINYARD_OUTPUT_DIR"]
    data = f"done {job_id}\n".encode()
    with open(os.path.join(out, "result.txt"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"files": [{"path": "result.txt", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}]}, f)
    print("finished", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
