"""The routes of contracts/deployments/serving.ts over one loaded release: GET /health,
POST /predict (tabular), /generate and /stream (llm). Inputs and outputs are never logged;
stderr gets one line per refused or cancelled request, with counts only."""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler

from serving.admission import Admission
from serving.errors import ServingError
from serving.limits import Limits
from serving.llm_model import check_generate_request
from serving.sampling import Sampling
from serving.unix_http import peer_gone

PROTOCOL = 1


class Service:
    """What every request handler shares: the model (None while loading) and the caps."""

    def __init__(self, kind: str, release: str, limits: Limits, heartbeat_seconds: float) -> None:
        self.kind = kind
        self.release = release
        self.limits = limits
        self.heartbeat_seconds = heartbeat_seconds
        self.admission = Admission(limits.concurrency, limits.max_queue)
        self.model = None
        self.started = time.monotonic()
        self.last_request = self.started

    def idle_seconds(self) -> float:
        """Seconds since the last request began or ended; 0 while one is computing or waiting."""
        if self.admission.in_flight or self.admission.queued:
            return 0.0
        return time.monotonic() - self.last_request

    def health(self) -> dict:
        return {"protocol": PROTOCOL, "state": "ready" if self.model is not None else "loading", "kind": self.kind,
                "release": self.release, "pid": os.getpid(), "uptimeSeconds": round(time.monotonic() - self.started, 3),
                "inFlight": self.admission.in_flight, "queued": self.admission.queued}


def note(message: str) -> None:
    print(f"serving: {message}", file=sys.stderr, flush=True)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 300  # an idle keep-alive connection is closed instead of holding its thread forever
    service: Service  # set on the subclass made by handler_for

    def log_message(self, *_args) -> None:  # the default logs request lines; we log nothing of them
        pass

    # -- plumbing ------------------------------------------------------------------------
    def _send_json(self, status: int, body: dict, headers: dict | None = None) -> None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _refuse(self, error: ServingError) -> None:
        headers = {"Retry-After": str(error.retry_after)} if error.retry_after is not None else {}
        if error.code in ("too_large", "bad_input") and not getattr(self, "_body_read", True):
            self.close_connection = True  # the unread body would be taken for the next request
            headers["Connection"] = "close"
        note(f"{self.path} refused {error.status} {error.code}")
        self._send_json(error.status, error.body(), headers)

    def _read_json(self):
        self._body_read = False
        if self.headers.get("Transfer-Encoding"):
            raise ServingError("bad_input", "send the body with a Content-Length (no transfer encoding)")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise ServingError("bad_input", "a Content-Length header is required") from None
        cap = self.service.limits.max_request_bytes
        if length < 0 or length > cap:
            raise ServingError("too_large", f"the body has {length} bytes; at most {cap} are accepted")
        raw = self.rfile.read(length)
        self._body_read = True
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ServingError("bad_input", f"the body is not JSON: {error}") from None

    def _model(self, kind: str):
        model = self.service.model
        if model is None:
            raise ServingError("not_ready", "the release is still loading", retry_after=1)
        if model.kind != kind:
            raise ServingError("wrong_kind", f"this release is {model.kind}; {self.path} serves {kind} releases")
        return model

    def _deadline(self) -> float:
        return time.monotonic() + self.service.limits.request_deadline_seconds

    # -- routes --------------------------------------------------------------------------
    def handle_one_request(self) -> None:
        super().handle_one_request()
        if getattr(self, "path", "/health") != "/health":  # a health check is not use: it must not keep the model loaded
            self.service.last_request = time.monotonic()

    def do_GET(self) -> None:
        if self.path != "/health":
            return self._refuse(ServingError("wrong_kind", f"no route GET {self.path}"))
        self._send_json(200, self.service.health())

    def do_POST(self) -> None:
        routes = {"/predict": self._predict, "/generate": self._generate, "/stream": self._stream}
        route = routes.get(self.path)
        try:
            if route is None:
                raise ServingError("wrong_kind", f"no route POST {self.path}")
            route()
        except ServingError as error:
            self._refuse(error)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # noqa: BLE001 - one request must not take the process down
            note(f"{self.path} failed: {type(error).__name__}")
            self._refuse(ServingError("internal", f"{type(error).__name__} while answering"))

    def _predict(self) -> None:
        deadline = self._deadline()
        model = self._model("tabular")
        body = self._read_json()
        if not isinstance(body, dict) or set(body) != {"rows"} or not isinstance(body["rows"], list) or not body["rows"]:
            raise ServingError("bad_input", "the body must be {\"rows\": [{column: value, ...}, ...]}",
                               fields=[{"path": "rows", "message": "expected a non-empty list of objects"}])
        rows = body["rows"]
        if len(rows) > self.service.limits.max_rows:
            raise ServingError("too_large", f"{len(rows)} rows; at most {self.service.limits.max_rows} per request",
                               fields=[{"path": "rows", "message": f"at most {self.service.limits.max_rows} rows"}])
        result = self._compute(deadline, lambda: model.predict(rows))
        self._send_json(200, {"predictions": result, "release": self.service.release})

    def _compute(self, deadline: float, fn):
        """fn() in its own thread under one slot; past the deadline the request gets 504 while
        the slot stays held until fn really ends (the CPU is still busy with it)."""
        admission = self.service.admission
        admission.acquire(deadline)
        started = time.monotonic()
        outcome: dict = {}
        done = threading.Event()

        def work() -> None:
            try:
                outcome["value"] = fn()
            except BaseException as error:  # noqa: BLE001 - handed to the request thread
                outcome["error"] = error
            finally:
                admission.release(time.monotonic() - started)
                done.set()

        threading.Thread(target=work, daemon=True, name="serving-compute").start()
        if not done.wait(max(0.0, deadline - time.monotonic())):
            raise ServingError("deadline", f"no answer within {self.service.limits.request_deadline_seconds} s")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    def _generation_request(self):
        model = self._model("llm")
        body = check_generate_request(self._read_json())
        limits = self.service.limits
        max_new = body.get("maxNewTokens", limits.max_new_tokens)
        if max_new > limits.max_new_tokens:
            raise ServingError("too_large", f"maxNewTokens {max_new} is over this deployment's {limits.max_new_tokens}",
                               fields=[{"path": "maxNewTokens", "message": f"at most {limits.max_new_tokens}"}])
        ids = model.prompt_ids(body)
        if len(ids) > limits.max_prompt_tokens:
            raise ServingError("too_large", f"the prompt is {len(ids)} tokens; at most {limits.max_prompt_tokens}")
        return model, ids, max_new, Sampling.of_request(body)

    def _generate(self) -> None:
        deadline = self._deadline()
        model, ids, max_new, sampling = self._generation_request()
        cancelled = threading.Event()
        admission = self.service.admission
        admission.acquire(deadline)
        started = time.monotonic()
        watcher = threading.Thread(target=self._watch_peer, args=(cancelled,), daemon=True)
        watcher.start()
        try:
            result = model.generate(ids, max_new, deadline, cancelled, sampling=sampling)
        finally:
            admission.release(time.monotonic() - started)
            finished_at = time.monotonic()
            cancelled.set()  # also ends the watcher
        if getattr(self, "_peer_left", False):
            note(f"/generate cancelled: client disconnected after {result.generated_tokens} tokens "
                 f"({finished_at - started:.2f} s)")
            self.close_connection = True
            return
        self._send_json(200, {"text": result.text, "promptTokens": result.prompt_tokens,
                              "generatedTokens": result.generated_tokens, "finishReason": result.finish_reason,
                              "release": self.service.release})

    def _watch_peer(self, cancelled: threading.Event) -> None:
        while not cancelled.wait(0.1):
            if peer_gone(self.connection):
                self._peer_left = True
                cancelled.set()

    def _stream(self) -> None:
        deadline = self._deadline()
        model, ids, max_new, sampling = self._generation_request()
        admission = self.service.admission
        admission.acquire(deadline)  # a full queue is an ordinary 429, before the stream starts
        started = time.monotonic()
        cancelled = threading.Event()
        events: queue.Queue = queue.Queue()

        def work() -> None:
            try:
                events.put(("done", model.generate(ids, max_new, deadline, cancelled,
                                                   on_delta=lambda text: events.put(("delta", text)), sampling=sampling)))
            except BaseException as error:  # noqa: BLE001 - reported as the terminal error event
                events.put(("failed", error))
            finally:
                admission.release(time.monotonic() - started)

        self.close_connection = True  # the stream ends when the connection does
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        thread = threading.Thread(target=work, daemon=True, name="serving-generate")
        delivered = 0
        try:
            self._event("metadata", {"release": self.service.release, "model": model.name})
            thread.start()
            while True:
                try:
                    kind, value = events.get(timeout=self.service.heartbeat_seconds)
                except queue.Empty:
                    if peer_gone(self.connection):
                        raise BrokenPipeError("client left")
                    self._event("heartbeat", {})
                    continue
                if kind == "delta":
                    self._event("delta", {"text": value})
                    delivered += 1
                    if peer_gone(self.connection):
                        raise BrokenPipeError("client left")
                elif kind == "done":
                    self._event("result", {"promptTokens": value.prompt_tokens, "generatedTokens": value.generated_tokens,
                                           "finishReason": value.finish_reason})
                    return
                else:
                    note(f"/stream failed: {type(value).__name__}")
                    self._event("error", {"code": "internal", "message": f"{type(value).__name__} while generating"})
                    return
        except (BrokenPipeError, ConnectionResetError, OSError):
            cancelled.set()
            if thread.ident is None:
                admission.release(0.0)  # the client left before generation began
            else:
                thread.join()
            note(f"/stream cancelled: client disconnected after {delivered} deltas "
                 f"({time.monotonic() - started:.2f} s)")

    def _event(self, kind: str, data: dict) -> None:
        payload = json.dumps(data, ensure_ascii=False)
        self.wfile.write(f"event: {kind}\ndata: {payload}\n\n".encode("utf-8"))
        self.wfile.flush()


def handler_for(service: Service) -> type[Handler]:
    return type("BoundHandler", (Handler,), {"service": service})
