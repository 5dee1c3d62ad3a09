"""The socket's folder: a deep worker home puts it under the shared /tmp, so the server makes
it private and refuses a folder it does not control (a link planted by someone else)."""

from __future__ import annotations

import os
import stat
from http.server import BaseHTTPRequestHandler

import pytest

from trainyard_recipe import BadInput
from serving.unix_http import UnixHttpServer


def test_a_new_folder_is_made_private_and_the_socket_0600(tmp_path):
    sock = tmp_path / "run" / "job" / "serve.sock"
    server = UnixHttpServer(sock, BaseHTTPRequestHandler)
    try:
        assert stat.S_IMODE(os.lstat(sock.parent).st_mode) == 0o700
        assert stat.S_IMODE(os.lstat(sock).st_mode) == 0o600
    finally:
        server.close()
    assert not sock.exists()


def test_a_folder_that_is_a_link_is_refused_and_nothing_is_bound_behind_it(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    planted = tmp_path / "planted"
    planted.symlink_to(elsewhere)
    with pytest.raises(BadInput) as refused:
        UnixHttpServer(planted / "serve.sock", BaseHTTPRequestHandler)
    assert refused.value.code == "socket_folder_not_private"
    assert list(elsewhere.iterdir()) == []
