"""The private Unix socket: its folder 0700 and the socket 0600 (only the worker's user can
connect), a path Linux can bind (sockaddr_un holds MAX_SOCKET_PATH_BYTES), and a threading
HTTP/1.1 server on it from the standard library."""

from __future__ import annotations

import os
import select
import socket
import socketserver
import stat
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from trainyard_recipe import BadInput

MAX_SOCKET_PATH_BYTES = 107  # contracts/deployments/serving.ts


def check_socket_path(path: Path) -> None:
    size = len(os.fsencode(str(path)))
    if not path.is_absolute():
        raise BadInput(f"socket path {path} must be absolute", code="invalid_input")
    if size > MAX_SOCKET_PATH_BYTES:
        raise BadInput(f"socket path {path} is {size} bytes; Linux binds at most {MAX_SOCKET_PATH_BYTES}. "
                       "Use a worker home with a shorter path.", code="socket_path_too_long",
                       details={"bytes": size, "max": MAX_SOCKET_PATH_BYTES})


def check_private_folder(folder: Path) -> None:
    """The socket's folder may sit under a shared /tmp (a deep worker home), so one that is a
    link or belongs to another user is refused rather than trusted."""
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise BadInput(f"the socket folder {folder} is not a folder of this user; remove it and start again",
                       code="socket_folder_not_private", details={"folder": str(folder)})


class UnixHttpServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    allow_reuse_address = False
    # socketserver's default backlog of 5 made a burst of connections fail at connect with EAGAIN
    # (a Unix socket does not wait like TCP): bench/serve.ts at concurrency 8 through the route.
    # Admission (concurrency + maxQueue -> 429 with Retry-After) is the limit meant to refuse.
    request_queue_size = 128

    def __init__(self, path: Path, handler: type[BaseHTTPRequestHandler]) -> None:
        check_socket_path(path)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        check_private_folder(path.parent)
        os.chmod(path.parent, 0o700)
        if path.exists() or path.is_symlink():
            path.unlink()  # a socket left by an earlier process of this same job
        previous = os.umask(0o177)  # the socket is created 0600, never briefly wider
        try:
            super().__init__(str(path), handler)
        finally:
            os.umask(previous)
        os.chmod(path, 0o600)
        self.path = path

    def close(self) -> None:
        self.server_close()
        self.path.unlink(missing_ok=True)


def peer_gone(connection: socket.socket) -> bool:
    """True once the client closed its end (readable with nothing to read)."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        if not readable:
            return False
        return connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True
