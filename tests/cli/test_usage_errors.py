"""Usage errors follow the command-line contract: one ``pasch: error:`` line on stderr, exit status 2."""

from __future__ import annotations

import pytest

from pasch.cli import main


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "--games", "x"], "--games"),
        (["simulate", "--bogus"], "--bogus"),
        (["nosuch"], "nosuch"),
        (["score", "--rules", "kniffel"], "CATEGORY"),
        (["solve", "--rules"], "--rules"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("pasch: error: ") and needle in lines[0]
    assert "Traceback" not in err and "╭" not in err


def test_no_arguments_shows_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 0
    assert "Usage: pasch" in capsys.readouterr().out


def test_a_good_command_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "--rules", "kniffel", "chance", "1", "2", "3", "4", "5"])
    assert exc.value.code == 0
    assert "15" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["simulate", "--games", str(10**12)], "--games"),
        (["simulate", "--games", "5", "--seed", str(2**63)], "--seed"),
        (["play", "--plain", "--seed", "-1"], "--seed"),
    ],
)
def test_out_of_range_numbers_are_usage_errors(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


def test_plot_to_a_directory_is_refused_and_a_bare_name_gets_png(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    base = Path(str(tmp_path))
    args = ["simulate", "--rules", "yacht", "--bot", "greedy", "--games", "20"]
    with pytest.raises(SystemExit) as exc:
        main([*args, "--plot", str(base)])
    assert exc.value.code == 2 and "directory" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main([*args, "--plot", str(base / "dist"), "--json"])
    assert exc.value.code == 0
    assert '"plot": "' + str(base / "dist.png") in capsys.readouterr().out
    assert (base / "dist.png").stat().st_size > 1000
