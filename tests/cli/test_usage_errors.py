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
