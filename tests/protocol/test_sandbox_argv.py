"""The sandbox's command line and the warden's orders, built from settings (pure)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from protocol.sandbox import (
    ADDRESS_SPACE_FACTOR,
    COMPILED_WARDEN,
    DEFAULT_MAX_CPU_SECONDS,
    DEFAULT_MAX_MEMORY_MB,
    DEVICE_LINKS,
    DEVICES,
    MIB,
    SANDBOX_UID,
    SCRATCH,
    WRITABLE,
    Layout,
    SandboxSettings,
    bwrap_argv,
    environment,
    masks,
    parents,
    shown_in_scratch,
    warden_config,
)
from protocol.sandbox.warden import Config

LAYOUT = Layout(
    system=(("/usr", None), ("/etc", None), ("/bin", "usr/bin")),
    visible=("/opt/referee", "/opt/py", "/home/alice/engines/mine"),
    masked=("/opt/referee/out",),
    masked_files=("/opt/referee/games.tgn",),
    python="/opt/py/bin/python3",
    warden="/opt/referee/protocol/sandbox/warden.py",
    code_root="/opt/referee",
    cwd=SCRATCH,
    as_root=False,
)


def build(layout: Layout = LAYOUT, **kwargs: object) -> list[str]:
    settings = SandboxSettings(max_processes=9, max_scratch_mb=3)
    config = warden_config(
        settings, report_fd=5, max_memory_mb=100, max_cpu_seconds=7, as_root=layout.as_root
    )
    env = environment(layout, {"MINE": "1"})
    return bwrap_argv(layout, settings, config, ["./engine", "--fast"], env, **kwargs)  # type: ignore[arg-type]


def pairs(argv: list[str], option: str) -> list[tuple[str, str]]:
    return [(argv[i + 1], argv[i + 2]) for i, a in enumerate(argv) if a == option]


def singles(argv: list[str], option: str) -> list[str]:
    return [argv[i + 1] for i, a in enumerate(argv) if a == option]


def test_every_namespace_is_new_and_the_sandbox_dies_with_the_referee() -> None:
    argv = build()
    options = argv[: argv.index("--")]
    flags = ["--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
             "--as-pid-1", "--disable-userns"]  # fmt: skip
    for flag in flags:
        assert flag in options, flag
    assert "--share-net" not in argv


def test_the_host_is_shown_read_only_and_only_what_the_layout_names() -> None:
    argv = build()
    assert pairs(argv, "--ro-bind") == [
        ("/usr", "/usr"), ("/etc", "/etc"),
        ("/opt/referee", "/opt/referee"), ("/opt/py", "/opt/py"),
        ("/home/alice/engines/mine", "/home/alice/engines/mine"),
        ("/dev/null", "/opt/referee/games.tgn"),  # a hidden file, covered
    ]  # fmt: skip
    assert pairs(argv, "--symlink") == [("usr/bin", "/bin"), *DEVICE_LINKS]
    # The only writable binds are the few devices of /dev (no terminal, no devpts).
    assert pairs(argv, "--bind") == []
    assert pairs(argv, "--dev-bind") == [(d, d) for d in DEVICES]
    assert set(DEVICES) == {"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"}
    assert "--dev" not in argv
    # The root is read-only once everything is mounted.
    assert singles(argv, "--remount-ro")[-1] == "/"


def test_parents_of_mount_points_are_made_reachable() -> None:
    argv = build()
    made = [argv[i + 3] for i, a in enumerate(argv) if a == "--perms" and argv[i + 2] == "--dir"]
    # /dev first: the devices' folder, made reachable as the shown directories' parents.
    assert made == ["/dev", "/home", "/opt", "/home/alice", "/home/alice/engines"]
    assert parents(["/a/b/c", "/a/d"]) == ["/a", "/a/b"]


def test_a_hidden_path_inside_a_visible_one_is_covered_read_only() -> None:
    argv = build()
    start = argv.index("/opt/referee/out") - 5
    assert argv[start : start + 6] == [
        "--perms", "0555", "--size", "4096", "--tmpfs", "/opt/referee/out",
    ]  # fmt: skip
    assert "/opt/referee/out" in singles(argv, "--remount-ro")


def test_a_hidden_file_inside_a_visible_directory_is_covered_by_an_empty_one() -> None:
    assert ("/dev/null", "/opt/referee/games.tgn") in pairs(build(), "--ro-bind")


def test_masks_keep_only_hidden_paths_inside_visible_ones() -> None:
    visible = ["/srv/event", "/root/.pyenv/versions/3.11"]
    hidden = ["/srv/event/out", "/root", "/srv/other", "/srv/event"]
    # /root contains a visible directory but is not itself mounted: nothing to cover.
    assert masks(visible, hidden) == ("/srv/event", "/srv/event/out")


def test_a_visible_directory_inside_a_mask_comes_back() -> None:
    layout = replace(LAYOUT, visible=("/srv", "/srv/out/mine"), masked=("/srv/out",))
    argv = build(layout)
    mask = argv.index("/srv/out")
    assert argv[mask - 1] == "--tmpfs"
    assert argv[mask + 1 : mask + 4] == ["--ro-bind", "/srv/out/mine", "/srv/out/mine"]
    assert argv[mask + 4 : mask + 6] == ["--remount-ro", "/srv/out"]


def test_a_directory_under_tmp_is_shown_over_the_sandbox_s_own_tmp() -> None:
    argv = build(replace(LAYOUT, visible=("/tmp/event/engine",)))
    assert argv.index("/tmp") < argv.index("/tmp/event/engine")
    made = [argv[i + 3] for i, a in enumerate(argv) if a == "--perms" and argv[i + 2] == "--dir"]
    assert made == ["/dev", "/tmp/event"]  # /tmp itself stays the sandbox's, mode 1777


def test_writable_places_are_size_limited_tmpfs() -> None:
    argv = build()
    for path in WRITABLE:
        at = argv.index(path)
        assert argv[at - 5 : at] == ["--perms", "1777", "--size", str(3 * MIB), "--tmpfs"]


def test_the_environment_is_the_sandbox_s_own() -> None:
    argv = build()
    assert "--clearenv" in argv
    env = dict(pairs(argv, "--setenv"))
    assert env == {
        "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": SCRATCH, "TMPDIR": "/tmp",
        "LANG": "C.UTF-8", "PYTHONPATH": "/opt/referee", "PYTHONDONTWRITEBYTECODE": "1",
        "MINE": "1",
    }  # fmt: skip
    assert singles(argv, "--chdir") == [SCRATCH]


def test_the_warden_runs_the_engine_with_its_orders() -> None:
    argv = build()
    first = argv.index("--")
    assert argv[first + 1 : first + 5] == [
        "/opt/py/bin/python3", "-I", "-S", "/opt/referee/protocol/sandbox/warden.py",
    ]  # fmt: skip
    second = argv.index("--", first + 1)
    assert argv[second + 1 :] == ["./engine", "--fast"]
    config = Config.from_args(argv[first + 5 : second])
    assert config.report == 5 and config.drop is None
    assert config.max_processes == 9 and config.rlimits["NPROC"] == 10  # and the warden
    assert config.max_memory == 100 * MIB
    assert config.rlimits["AS"] == 100 * MIB * ADDRESS_SPACE_FACTOR
    assert config.rlimits["CPU"] == 7 and config.max_cpu == 7.0
    assert config.rlimits["FSIZE"] == 3 * MIB and config.rlimits["CORE"] == 0
    assert config.watch == WRITABLE


def test_the_compiled_warden_is_shown_alone_and_runs_in_place_of_python() -> None:
    binary = "/home/alice/.cache/referee/warden-0123"
    argv = build(replace(LAYOUT, compiled_warden=binary))
    first = argv.index("--")
    assert (binary, COMPILED_WARDEN) in pairs(argv[:first], "--ro-bind")  # the file, not its folder
    assert "/home/alice/.cache/referee" not in argv[:first]
    second = argv.index("--", first + 1)
    assert argv[first + 1] == COMPILED_WARDEN and argv[second + 1 :] == ["./engine", "--fast"]
    config = Config.from_args(argv[first + 2 : second])
    assert config.report == 5 and config.max_processes == 9


def test_a_compiled_warden_in_a_shown_directory_runs_from_there_without_a_bind_of_its_own() -> None:
    binary = "/home/alice/engines/mine/warden-0123"  # shown: the engines' cache, say
    argv = build(replace(LAYOUT, compiled_warden=binary))
    first = argv.index("--")
    assert COMPILED_WARDEN not in argv and binary not in argv[:first]
    shown = "/home/alice/engines/mine"
    assert (shown, shown) in pairs(argv[:first], "--ro-bind")
    assert argv[first + 1] == binary
    # Under a hidden path inside a shown directory, or hidden itself: shown alone, as before.
    for hidden in (
        replace(LAYOUT, compiled_warden="/opt/referee/out/warden"),
        replace(LAYOUT, compiled_warden=binary, masked_files=(binary,)),
    ):
        argv = build(hidden)
        first = argv.index("--")
        assert (hidden.compiled_warden, COMPILED_WARDEN) in pairs(argv[:first], "--ro-bind")
        assert argv[first + 1] == COMPILED_WARDEN


def test_root_mode_maps_users_itself_and_drops_to_an_unprivileged_one() -> None:
    layout = replace(LAYOUT, as_root=True)
    with pytest.raises(ValueError, match="root mode"):
        build(layout)
    argv = build(layout, info_fd=6, block_fd=7)
    options = argv[: argv.index("--")]
    assert "--disable-userns" not in options  # bwrap cannot with a block fd: the warden does
    assert singles(options, "--userns-block-fd") == ["7"]
    assert singles(options, "--info-fd") == ["6"]
    assert singles(options, "--cap-drop") == ["ALL"]
    assert singles(options, "--cap-add") == ["CAP_SETUID", "CAP_SETGID", "CAP_SYS_RESOURCE"]
    first = argv.index("--")
    config = Config.from_args(argv[first + 5 : argv.index("--", first + 1)])
    assert config.drop == (SANDBOX_UID, SANDBOX_UID)


@pytest.mark.parametrize("as_root", [True, False], ids=["root", "user"])
def test_a_kept_sandbox_keeps_only_the_capability_to_make_namespaces(as_root: bool) -> None:
    """Its warden makes each game's namespaces and file systems (``CAP_SYS_ADMIN`` in the
    sandbox's user namespace), and gets its orders on the control socket; an ordinary
    user's sandbox gets no other capability, and counts the keeper in its process limit."""
    inside = ("/tmp/engines/mine", "/tmp/engines/mine/lib", "/dev/shm/other")
    layout = replace(LAYOUT, as_root=as_root, compiled_warden="/cache/warden-1",
                     visible=(*LAYOUT.visible, *inside))  # fmt: skip
    settings = SandboxSettings(max_processes=9, max_scratch_mb=3)
    config = warden_config(settings, report_fd=5, max_memory_mb=100, max_cpu_seconds=7,
                           as_root=as_root, keep_fd=8, shown=shown_in_scratch(layout))  # fmt: skip
    fds = {"info_fd": 6, "block_fd": 7} if as_root else {}
    argv = bwrap_argv(layout, settings, config, ["./engine"], {}, kept=True, **fds)  # type: ignore[arg-type]
    options = argv[: argv.index("--")]
    assert singles(options, "--cap-drop") == ["ALL"]
    added = ["CAP_SETUID", "CAP_SETGID", "CAP_SYS_RESOURCE"] if as_root else []
    assert singles(options, "--cap-add") == [*added, "CAP_SYS_ADMIN", "CAP_NET_ADMIN"]
    first = argv.index("--")
    orders = Config.from_args(argv[first + 2 : argv.index("--", first + 1)])
    assert (orders.keep, orders.scratch, orders.hold) == (8, 3 * MIB, None)
    # Shown again over each game's fresh scratch: the outermost shown folders inside it.
    assert orders.show == ("/tmp/engines/mine", "/dev/shm/other")
    assert orders.rlimits["NPROC"] == (10 if as_root else 11)
    if not as_root:  # a sandbox of its own: no capability at all
        assert "--cap-add" not in build(layout)[: build(layout).index("--")]


def test_default_memory_and_cpu_limits_when_the_spec_has_none() -> None:
    config = warden_config(
        SandboxSettings(), report_fd=3, max_memory_mb=None, max_cpu_seconds=None, as_root=False
    )
    assert config.max_memory == DEFAULT_MAX_MEMORY_MB * MIB
    assert config.max_cpu == DEFAULT_MAX_CPU_SECONDS
    assert config.rlimits["CPU"] == DEFAULT_MAX_CPU_SECONDS
    assert "AS" not in config.rlimits  # no address-space backstop for a default
    assert config.max_processes == 64  # the default under the sandbox
    given = warden_config(
        SandboxSettings(), report_fd=3, max_memory_mb=300, max_cpu_seconds=7, as_root=False
    )
    assert given.max_memory == 300 * MIB and given.max_cpu == 7
    assert given.rlimits["AS"] == 600 * MIB and given.rlimits["CPU"] == 7


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_processes": 0}, "process limit must be positive"),
        ({"max_scratch_mb": 0}, "scratch size must be positive"),
        ({"hidden": ("relative/out",)}, "must be absolute"),
    ],
)
def test_settings_are_checked(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SandboxSettings(**kwargs)  # type: ignore[arg-type]
