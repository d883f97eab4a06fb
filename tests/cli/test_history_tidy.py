"""``pasch history --abandon ID`` and ``--delete ID``: unfinished games only, clear errors otherwise."""

from __future__ import annotations

from pathlib import Path

from pasch.app import Match, parse_seats
from pasch.engine import Score
from pasch.storage import Repository

from ._helpers import Invoke


def _save(tmp_path: Path, finish: bool) -> int:
    match = Match.new("kniffel", parse_seats("Ada"), seed=1)
    while True:
        match.act("roll")
        match.act(next(a for a in match.state.legal_actions() if isinstance(a, Score)))
        if match.finished or not finish:
            break
    with Repository(directory=tmp_path) as repo:
        return repo.save(match.log, match.kinds, None, match.state)


def test_abandon_then_delete_an_unfinished_game(invoke: Invoke, tmp_path: Path) -> None:
    gid = _save(tmp_path, finish=False)
    res = invoke(["history", "--data-dir", str(tmp_path), "--abandon", str(gid)])
    assert res.exit_code == 0 and f"Game {gid} abandoned." in res.output
    with Repository(directory=tmp_path) as repo:
        assert repo.get(gid).status == "abandoned" and repo.latest_unfinished() is None
    res = invoke(["history", "--data-dir", str(tmp_path), "--abandon", str(gid)])  # not unfinished any more
    assert res.exit_code == 2 and "no unfinished game" in res.output
    res = invoke(["history", "--data-dir", str(tmp_path), "--delete", str(gid)])
    assert res.exit_code == 0 and f"Game {gid} deleted." in res.output
    with Repository(directory=tmp_path) as repo:
        assert repo.games() == []


def test_a_finished_game_is_neither_abandoned_nor_deleted(invoke: Invoke, tmp_path: Path) -> None:
    gid = _save(tmp_path, finish=True)
    for opt in ("--abandon", "--delete"):
        res = invoke(["history", "--data-dir", str(tmp_path), opt, str(gid)])
        assert res.exit_code == 2 and "no unfinished game" in res.output and "Traceback" not in res.output
    res = invoke(["history", "--data-dir", str(tmp_path), "--abandon", "1", "--delete", "1"])
    assert res.exit_code == 2
    with Repository(directory=tmp_path) as repo:
        assert repo.get(gid).finished


def test_an_id_beyond_64_bits_is_a_clear_error(invoke: Invoke, tmp_path: Path) -> None:
    """Found by the command-line fuzzer: SQLite's driver cannot take such an id, so none is sent."""
    gid = _save(tmp_path, finish=False)
    for opt in ("--abandon", "--delete"):
        res = invoke(["history", "--data-dir", str(tmp_path), opt, str(2**64)])
        assert res.exit_code == 2 and "no unfinished game" in res.output and "Traceback" not in res.output
    with Repository(directory=tmp_path) as repo:
        assert repo.get(gid).status == "unfinished"
