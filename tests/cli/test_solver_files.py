"""The solver commands and their files: damaged or unwritable caches, impossible sheets, local logs in verify."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pasch.errors import InvalidActionError
from pasch.rules import get
from pasch.solver import Solver, check_sheet, table_path

from ._helpers import Invoke, assert_bad_input

SMALL = "yahtzee+forced"  # a tiny table, built in milliseconds


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache directory of the test's own (these tests damage its files)."""
    path = tmp_path / "pasch-cache"
    monkeypatch.setenv("PASCH_CACHE_DIR", str(path))
    return path


@pytest.mark.parametrize("sidecar", ["[]", "3", '"x"', '{"shape": "x", "crc32": "y"}'])
def test_solve_with_a_damaged_sidecar_rebuilds_with_one_notice(
    invoke: Invoke, private_cache: Path, sidecar: str
) -> None:
    Solver.load(SMALL, force=True)
    side = table_path(get(SMALL)).with_suffix(".json")
    side.write_text(sidecar)
    result = invoke(["solve", "--rules", SMALL, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["from_cache"] is False
    notices = [line for line in result.stderr.splitlines() if line.startswith("pasch: notice: ")]
    assert len(notices) == 1 and "damaged" in notices[0], result.stderr
    assert "Traceback" not in result.stderr
    assert json.loads(invoke(["solve", "--rules", SMALL, "--json"]).stdout)["from_cache"] is True


def test_an_unwritable_cache_still_answers_with_one_notice(tmp_path: Path) -> None:
    """A fresh process (the test run's solver loader takes lock files in the cache directory)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    env = {**os.environ, "PASCH_CACHE_DIR": str(blocker / "cache")}
    got = subprocess.run(
        [sys.executable, "-c", "import pasch.cli; pasch.cli.main()", "advise", "--rules", SMALL, "--dice", "66666"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert got.returncode == 0, got.stderr
    assert "best: score" in got.stdout
    lines = [line for line in got.stderr.splitlines() if line.strip()]
    notices = [line for line in lines if "cannot write" in line]
    assert len(notices) == 1 and notices[0].startswith("pasch: notice: "), got.stderr
    assert all(line.startswith("pasch: ") for line in lines), got.stderr
    assert "Traceback" not in got.stderr


# -- advise: impossible sheets ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "sheet", "needles"),
    [
        ("yacht+forced", "twos=4", ["top to bottom", "twos", "ones"]),
        ("yacht+forced", "ones=3 threes=9", ["threes", "twos"]),
        ("yacht+upward", "ones=3", ["bottom to top", "ones", "yahtzee"]),
        ("yacht+upward", "yahtzee=50 full_house=26", ["full_house", "chance"]),
        ("kniffel-classic", "chance=100", ["chance=100", "yahtzee", "hold a score", "open"]),
        ("kniffel-classic", "chance=100 yahtzee=0", ["chance=100", "(it is 0)"]),
        ("kniffel-classic", "full_house=100 ones=3", ["full_house=100"]),
        ("yahtzee", "chance=0", ["chance=0", "yahtzee", "filled"]),
        ("yacht", "ones=7", ["ones=7", "no throw scores"]),
    ],
)
def test_advise_refuses_impossible_sheets(invoke: Invoke, rules: str, sheet: str, needles: list[str]) -> None:
    result = invoke(["advise", "--rules", rules, "--dice", "12345", "--sheet", sheet])
    assert_bad_input(result, *needles)


@pytest.mark.parametrize(
    ("rules", "sheet"),
    [
        ("yacht+forced", "ones=3 twos=4"),
        ("yacht+upward", "yahtzee=50 chance=20"),
        ("kniffel-classic", "chance=100 yahtzee=50"),
        ("yahtzee", "chance=0 yahtzee=50"),
        ("yahtzee", "chance=0 yahtzee=0"),
        ("kniffel-classic", "ones=3 twos=6 full_house=25"),
    ],
)
def test_advise_answers_for_possible_sheets(invoke: Invoke, rules: str, sheet: str) -> None:
    result = invoke(["advise", "--rules", rules, "--dice", "12345", "--sheet", sheet, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"]


def test_check_sheet_under_strict_order() -> None:
    solver = Solver.load("kniffel-classic+strict")
    upper = [3, 6, 9, 12, 15, 18]
    check_sheet(solver, [*upper, 20, 0, 25, None, None, None, None])
    # chance=100 needs the Kniffel box holding a score before chance: under strict order it comes first
    check_sheet(solver, [*upper, 20, 0, 25, 30, 40, 50, 100])
    with pytest.raises(InvalidActionError, match=r"chance=100 needs the yahtzee box to hold a score"):
        check_sheet(solver, [*upper, 20, 0, 25, 30, 40, 0, 100])
    with pytest.raises(InvalidActionError, match="top to bottom"):
        check_sheet(solver, [*upper, None, 0, 25, None, None, None, None])


# -- verify on a local game's log ---------------------------------------------------------------------------
def test_verify_explains_a_seeded_local_log(invoke: Invoke, tmp_path: Path) -> None:
    log = tmp_path / "local.json"
    played = invoke(["play", "--plain", "--seed", "5", "--save", str(log)], input="roll\nquit\n")
    assert played.exit_code == 0, played.output
    assert json.loads(log.read_text())["meta"]["seed"] == 5
    result = invoke(["verify", str(log)])
    assert_bad_input(result, "local game", "meta.seed 5")
    assert "no dice seed" not in result.stderr


def test_a_first_compilation_says_so_once(tmp_path: Path) -> None:
    """Kernels not in Numba's cache: one line on stderr says that they compile and that it happens once.

    The simulation compiles for seconds on a fresh cache (far beyond the notice's half second); the
    question whether a quick load stays silent is :func:`tests.solver.test_solver_jit`'s.
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PASCH_CACHE_DIR": str(tmp_path / "tables")}
    argv = [sys.executable, "-c", "from pasch.cli import main; main()", "simulate", "--rules", "yacht", "--games", "10"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("pasch: compiling the solver's")]
    assert len(lines) == 1, done.stderr
    assert "(once; Numba keeps it in its cache)" in lines[0]
    assert "mean" in done.stdout


def test_an_absurd_target_is_refused_before_any_table_is_built(invoke: Invoke, private_cache: Path) -> None:
    """It ran three minutes, wrote 368 MB and ended in a traceback (issue 26)."""
    argv = ["advise", "--rules", "yahtzee", "--dice", "13356", "--rolls-left", "2", "--objective", "target"]
    result = invoke([*argv, "--target", "99999999999999999999"])
    assert_bad_input(result, "--target 99999999999999999999", "answers targets up to 511")
    assert not list(private_cache.glob("target-*"))  # nothing built
    sheet = ["--sheet", "chance=30"]  # the reach counts from the sheet's points
    assert_bad_input(invoke([*argv, *sheet, "--target", "542"]), "up to 541")


def test_a_big_table_build_is_announced_with_its_size_once(
    invoke: Invoke, private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pasch.cli._solving as cmds

    monkeypatch.setattr(cmds, "ANNOUNCE_BYTES", 0)  # yacht's tables are small: announce them all the same
    argv = ["advise", "--rules", "yacht", "--dice", "13356", "--rolls-left", "2", "--objective", "target"]
    first = invoke([*argv, "--target", "150"])
    assert first.exit_code == 0, first.output
    assert "pasch: building the threshold table of yacht once:" in first.stderr and "MB on disk" in first.stderr
    again = invoke([*argv, "--target", "150"])
    assert again.exit_code == 0 and "building" not in again.stderr  # stored now
    duel = invoke(["duel", "--rules", "yacht", "--bots", "win,optimal", "--games", "2"])
    assert duel.exit_code == 0, duel.output
    assert "pasch: building the survival table of yacht once:" in duel.stderr  # the one still missing
