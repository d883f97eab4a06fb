"""``pasch train --ray``: self-play on a real Ray cluster gives the same model as local processes (issue 28).

A local Ray head (2 CPUs, a small object store, its own temporary directory) runs in a process group of its own
for the module and is killed with that group afterwards; the training runs as the ``pasch`` command in a
subprocess, once on the cluster and once locally, and the two model files must hold the same weights.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from pasch.bots._train import ClusterError, check_ray_cluster

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="Ray is not installed (the train extra: pip install 'pasch[train]')",
    ),
]

START_WAIT = 240.0  # seconds for the head to start: a bound on a hang, not a speed requirement
RUN_WAIT = 900.0  # seconds for one tiny training run
PASCH = [sys.executable, "-c", "from pasch.cli import main; main()"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """The address of a local Ray head started for this module (its process group is killed afterwards)."""
    ray_bin = Path(sys.executable).parent / "ray"
    if not ray_bin.is_file():
        pytest.skip(f"no 'ray' command beside {sys.executable}")
    # Ray puts Unix sockets under its temporary directory: keep the path short (pytest's tmp_path is too long).
    temp = tempfile.mkdtemp(prefix="pray", dir="/tmp")
    port = _free_port()
    head = subprocess.Popen(
        [
            str(ray_bin),
            "start",
            "--head",
            "--block",
            "--port",
            str(port),
            "--num-cpus",
            "2",
            "--object-store-memory",
            "200000000",
            "--temp-dir",
            temp,
            "--include-dashboard=false",
            "--disable-usage-stats",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    started = threading.Event()
    output: list[str] = []

    def read() -> None:
        assert head.stdout is not None
        for line in head.stdout:
            output.append(line)
            if "Ray runtime started" in line:
                started.set()
        started.set()  # the head exited: stop waiting

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        started.wait(START_WAIT)
        if head.poll() is not None or not any("Ray runtime started" in line for line in output):
            pytest.fail("the Ray head did not start:\n" + "".join(output[-30:]))
        yield f"127.0.0.1:{port}"
    finally:
        _stop_group(head)
        reader.join(10.0)
        shutil.rmtree(temp, ignore_errors=True)


def _stop_group(head: subprocess.Popen[str]) -> None:
    """SIGTERM the head's process group (the head, the GCS, the raylet and the workers: all started in it), wait
    up to about 15 s for it to empty (Ray does not always finish on SIGTERM), then SIGKILL what is left."""
    with suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGTERM)
        for _ in range(30):
            head.poll()  # reap the head: a zombie still counts as a member of the group
            os.killpg(head.pid, 0)  # ProcessLookupError: the group is empty
            time.sleep(0.5)
        os.killpg(head.pid, signal.SIGKILL)
    with suppress(subprocess.TimeoutExpired):
        head.wait(30.0)


def _train(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [*PASCH, "train", "--rules", "jetsi", "--games", "30", "--generations", "2", "--seed", "11"]
    return subprocess.run(
        [*argv, "--out", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=RUN_WAIT,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_training_on_ray_equals_local_training(ray_head: str, tmp_path: Path) -> None:
    on_ray = _train(tmp_path / "ray.json", "--ray", ray_head)
    assert on_ray.returncode == 0, on_ray.stderr
    local = _train(tmp_path / "local.json")
    assert local.returncode == 0, local.stderr
    a = json.loads((tmp_path / "ray.json").read_text())
    b = json.loads((tmp_path / "local.json").read_text())
    # 30 games are two Ray tasks of 25 and 5 games; every game throws from its own seed, so the same model.
    assert a["weights"] == b["weights"]
    assert a["meta"]["fitted"] == b["meta"]["fitted"]
    assert any(w != 0 for w in a["weights"])
    for ra, rb in zip(a["meta"]["curve"], b["meta"]["curve"], strict=True):
        del ra["seconds"], rb["seconds"]
        assert ra == rb
    assert "--ray" in a["meta"]["command"]
    # The same output: a line per generation on stderr (and nothing of Ray's), the files written on stdout.
    assert len(on_ray.stderr.splitlines()) == len(local.stderr.splitlines()) == 4, on_ray.stderr
    assert [line.split()[:6] for line in on_ray.stderr.splitlines()[2:]] == [
        line.split()[:6] for line in local.stderr.splitlines()[2:]
    ]
    assert on_ray.stdout.startswith(f"wrote {tmp_path / 'ray.json'}, {tmp_path / 'ray.json.curve.csv'}")
    rows = (tmp_path / "ray.json.curve.csv").read_text().splitlines()
    assert len(rows) == 3


def test_a_port_that_is_not_ray_is_refused_in_bounded_time(ray_head: str, tmp_path: Path) -> None:
    """A listening port that is no Ray head: ``ray.init`` itself would retry for minutes; the check gives up."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        address = f"127.0.0.1:{server.getsockname()[1]}"
        with pytest.raises(ClusterError, match=r"no Ray cluster answered|cannot connect"):
            check_ray_cluster(address, timeout=10.0)
    check_ray_cluster(ray_head, timeout=120.0)  # and the real head passes the same check
