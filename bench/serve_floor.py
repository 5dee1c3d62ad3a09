"""bench/serve.ts's Python floors, in the tabular environment, on the release folder a resident
serving process already unpacked and verified (the same predictor, the same row checks):

  python bench/serve_floor.py inline RELEASE_DIR ROW_JSON N   one-row predict N times in this
                                                              process; prints {"ms": [...]}
  python bench/serve_floor.py http RELEASE_DIR                a minimal standard-library HTTP
                                                              server (POST /predict {"rows"});
                                                              prints {"port": P} once listening

Run with PYTHONPATH=<training dir> so serving.tabular_model is the resident process's code.
"""

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from serving.tabular_model import TabularModel


def inline(model: TabularModel, row: dict, n: int) -> None:
    ms = []
    for _ in range(n):
        t = time.perf_counter()
        model.predict([row])
        ms.append((time.perf_counter() - t) * 1000)
    print(json.dumps({"ms": ms}), flush=True)


def http(model: TabularModel) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the public route's clients use

        def do_POST(self):  # noqa: N802 (http.server's name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            out = json.dumps({"predictions": model.predict(body["rows"])}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    mode, folder = sys.argv[1], Path(sys.argv[2])
    loaded = TabularModel(folder)
    if mode == "inline":
        inline(loaded, json.loads(sys.argv[3]), int(sys.argv[4]))
    else:
        http(loaded)
