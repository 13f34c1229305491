"""The live server's look at whether a viewer left: it never waits, and it works for a
descriptor past 1,024 (a big crowd's), which ``select`` cannot watch."""

from __future__ import annotations

import os
import resource
import socket
from collections.abc import Iterator

import pytest

from tournaments.live.server import _closed_by_peer

HIGH_FD = 1500


@pytest.fixture
def high_pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A connected pair whose server side has a descriptor number above ``HIGH_FD``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= HIGH_FD:
        pytest.skip(f"the open-file limit ({hard}) is below {HIGH_FD}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, HIGH_FD + 1), hard))
    server, viewer = socket.socketpair()
    high = os.dup2(server.fileno(), HIGH_FD)
    server.close()
    connection = socket.socket(fileno=high)
    try:
        yield connection, viewer
    finally:
        connection.close()
        viewer.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_viewer_still_there_is_not_gone_and_the_look_does_not_wait(
    high_pair: tuple[socket.socket, socket.socket],
) -> None:
    connection, _viewer = high_pair
    connection.settimeout(30)  # a look that waited would take this long
    assert connection.fileno() >= 1024
    assert not _closed_by_peer(connection)


def test_a_viewer_that_sent_bytes_is_not_gone(
    high_pair: tuple[socket.socket, socket.socket],
) -> None:
    connection, viewer = high_pair
    viewer.sendall(b"x")
    assert not _closed_by_peer(connection)
    assert connection.recv(1) == b"x"  # only peeked


def test_a_viewer_that_closed_is_gone(high_pair: tuple[socket.socket, socket.socket]) -> None:
    connection, viewer = high_pair
    viewer.close()
    assert _closed_by_peer(connection)
