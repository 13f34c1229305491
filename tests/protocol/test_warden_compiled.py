"""The compiled warden: built once per cache, checked before use, refused or replaced by
the Python warden whenever it cannot be had; its orders are parsed as warden.py's are."""

from __future__ import annotations

import os
import shutil
import stat
import struct
import subprocess
from pathlib import Path

import pytest

from protocol.sandbox import compiled
from protocol.sandbox.host import SandboxUnavailable, check_sandbox
from tests.hostile import ROOT


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of its own, and a process that has not looked for the warden yet."""
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(compiled.CHOICE_VARIABLE, raising=False)
    monkeypatch.setattr(compiled, "_built", compiled._UNKNOWN)
    monkeypatch.setattr(compiled, "_off", False)
    return tmp_path / "cache"


needs_compiler = pytest.mark.skipif(
    compiled._compiler() is None, reason="no C compiler on this machine"
)


@needs_compiler
def test_built_once_into_the_cache_and_checked(cache: Path) -> None:
    first = compiled.path()
    assert first is not None and Path(first).parent == cache
    assert os.stat(first).st_mode & 0o777 == 0o755  # nobody runs it, in root mode
    built_at = os.stat(first).st_mtime_ns
    # Outside a sandbox it refuses, as it must (its kill(-1) would reach the host).
    done = subprocess.run([first, "report=2", "max_processes=4", "--", "/bin/true"],
                          capture_output=True, timeout=30)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == b"warden: not process 1 of a sandbox; refusing to run\n"
    assert compiled.build() == first and os.stat(first).st_mtime_ns == built_at
    assert [p.name for p in cache.iterdir()] == [Path(first).name]  # no scratch file left


def has_interpreter(binary: str) -> bool:
    """Whether the 64-bit ELF ``binary`` asks for a dynamic loader (a ``PT_INTERP`` header)."""
    data = Path(binary).read_bytes()
    assert data[:5] == b"\x7fELF\x02"
    (offset,) = struct.unpack_from("<Q", data, 0x20)
    size, count = struct.unpack_from("<HH", data, 0x36)
    return any(struct.unpack_from("<I", data, offset + i * size)[0] == 3 for i in range(count))


def links_statically(tmp_path: Path) -> bool:
    compiler = compiled._compiler()
    source = tmp_path / "hello.c"
    source.write_text("int main(void) { return 0; }\n")
    done = subprocess.run([str(compiler), "-static", "-o", str(tmp_path / "hello"), str(source)],
                          capture_output=True, timeout=120, check=False)  # fmt: skip
    return done.returncode == 0


@needs_compiler
def test_linked_statically_where_the_system_can(cache: Path, tmp_path: Path) -> None:
    """No dynamic loader runs at each sandbox's start (its share of a small program's)."""
    if not links_statically(tmp_path):
        pytest.skip("no static C library here")
    binary = compiled.path()
    assert binary is not None and not has_interpreter(binary)


@needs_compiler
def test_without_a_static_library_it_is_linked_dynamically(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = shutil.which(str(compiled._compiler()))
    wrapper = cache.parent / "cc-no-static"
    wrapper.write_text(
        "#!/bin/sh\nfor a; do [ \"$a\" = -static ] && { echo 'ld: cannot find -lc' >&2; exit 1; };"
        f' done\nexec {real} "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("CC", str(wrapper))
    binary = compiled.path()
    assert binary is not None and has_interpreter(binary)
    assert [p.name for p in cache.iterdir()] == [Path(binary).name]  # the failed link left nothing


def test_no_compiler_means_the_python_warden(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(cache.parent / "empty"))
    monkeypatch.delenv("CC", raising=False)
    assert compiled.path() is None
    assert not cache.exists() or list(cache.iterdir()) == []


def test_a_failed_build_means_the_python_warden(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = cache.parent / "cc"
    broken.write_text("#!/bin/sh\necho 'cc: internal error' >&2\nexit 1\n")
    broken.chmod(broken.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("CC", str(broken))
    assert compiled.path() is None
    assert [p.name for p in cache.iterdir()] == []  # nothing half-built left behind


def test_an_unwritable_cache_means_the_python_warden(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache.parent.joinpath("file").write_text("not a directory\n")
    monkeypatch.setenv("REFEREE_CACHE", str(cache.parent / "file" / "cache"))
    assert compiled.path() is None


@needs_compiler
def test_the_python_warden_on_request(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.CHOICE_VARIABLE, "python")
    assert compiled.path() is None
    monkeypatch.delenv(compiled.CHOICE_VARIABLE)
    assert compiled.path() is not None


def test_a_compiled_warden_that_fails_in_the_sandbox_gives_way_to_the_python_one(
    bwrap: None, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = cache.parent / "warden-broken"
    fake.write_text("#!/bin/sh\necho 'broken warden' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(compiled, "_built", str(fake))
    check_sandbox()  # no error: the Python warden works here
    assert compiled.path() is None  # and it is the one used from now on


def test_when_no_warden_works_the_error_stands(
    bwrap: None, cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\n"
                    "exit 1\n")  # fmt: skip
    fake.chmod(0o755)
    monkeypatch.setattr(compiled, "_built", shutil.which("true"))
    with pytest.raises(SandboxUnavailable, match="No permissions to create a new namespace"):
        check_sandbox(str(fake))
    assert compiled.path() == shutil.which("true")  # not turned off for a failure of bwrap's


@needs_compiler
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["max_processes=4", "--", "/bin/true"], "no report"),
        (["report=x", "max_processes=4", "--", "/bin/true"], "bad value in 'report=x'"),
        (["report=2", "max_processes=4", "colour=red", "--", "/bin/true"], "unknown key 'colour'"),
        (["report=2", "max_processes=4", "rlimit.BOGUS=1", "--", "/bin/true"],
         "unknown resource limit 'rlimit.BOGUS'"),
        (["report=2", "max_processes=4", "/bin/true"], "'--' is not in list"),
        (["report=2", "max_processes=4", "bare", "--", "/bin/true"], "not key=value: 'bare'"),
        (["report=2", "max_processes=4", "--"], "no engine command"),
        (["report=2", "max_processes=4", "keep=3", "hold=4", "scratch=8192", "--", "/bin/true"],
         "both keep and hold"),
        (["report=2", "max_processes=4", "keep=3", "--", "/bin/true"], "keep without scratch"),
        (["report=2", "max_processes=4", "keep=3", "scratch=10", "--", "/bin/true"],
         "bad value in 'scratch=10'"),
    ],
)  # fmt: skip
def test_bad_orders_are_refused_as_process_1(bwrap: None, args: list[str], words: str) -> None:
    binary = compiled.build()  # the cache's, built once for all these
    assert binary is not None
    done = subprocess.run(
        ["bwrap", "--unshare-pid", "--as-pid-1", "--die-with-parent", "--ro-bind", "/", "/",
         "--proc", "/proc", "--dev", "/dev", binary, *args],
        capture_output=True, text=True, timeout=30, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == f"warden: bad arguments: {words}\n"
