"""``pasch keep`` (score keeper in the terminal app) and ``pasch history`` (saved games and records).

``pasch play`` (in ``_basic``) starts :func:`pasch.tui.run` by default; these are the app's other doors.
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from pasch.cli._app import app
from pasch.cli._common import console, guard, print_json
from pasch.errors import PaschError
from pasch.i18n import _, set_language

if TYPE_CHECKING:
    from pasch.storage import Repository

__all__ = ["history_cmd", "keep_cmd"]

HELP = {
    "keep": "Keep score for a table playing with real dice: enter each turn's final dice and the box.",
    "history": "List saved games (terminal and web), winners, high scores and averages per rule set and player.",
    "rules": "Rule set, e.g. kniffel, yahtzee, kniffel-classic+sharp (see 'pasch rules').",
    "players": "Comma-separated player names in seat order.",
    "lang": "Language: de, en, es or it (default: the locale's).",
    "resume": "Continue the latest unfinished score-keeper game.",
    "data_dir": "Directory of the games database (default: $PASCH_DATA_DIR or the user data directory).",
    "json": "Print one JSON object on stdout.",
    "limit": "How many games and high scores to list (1 to 10000).",
    "abandon": "Give up the unfinished game ID (--resume no longer offers it; its log stays).",
    "delete": "Delete the unfinished (or abandoned) game ID from the database.",
    "db": "Database to read: any SQLAlchemy URL, e.g. a server's postgresql+psycopg://user@host/db "
    "(default: pasch.sqlite3 in the data directory); an older pasch's database is upgraded first.",
}


@app.command("keep", help=HELP["keep"])
def keep_cmd(
    rules_text: Annotated[str, typer.Option("--rules", "-r", metavar="ID", help=HELP["rules"])] = "kniffel",
    players: Annotated[str | None, typer.Option("--players", "-p", metavar="NAMES", help=HELP["players"])] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=HELP["lang"])] = None,
    resume: Annotated[bool, typer.Option("--resume", help=HELP["resume"])] = False,
    data_dir: Annotated[Path | None, typer.Option("--data-dir", metavar="DIR", help=HELP["data_dir"])] = None,
) -> None:
    """Open the score-keeper screen."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):  # a pipe or a file: the line-based keeper, which ends at EOF
        from pasch.cli._basic import play_cmd

        play_cmd(rules_text=rules_text, players=players, keeper=True, plain=True, lang=lang, resume=resume)
        return
    from pasch.tui import run

    with guard():
        run(
            rules=rules_text,
            players=players or _("Player 1"),
            lang=lang,
            resume=resume,
            keeper=True,
            data_dir=data_dir,
        )


def _when(dt: datetime | None) -> str:
    return dt.strftime("%Y-%m-%d %H:%M") if dt is not None else ""


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt is not None else None


def _status(status: str) -> str:
    names = {
        "finished": _("finished"),
        "unfinished": _("unfinished"),
        "playing": _("playing"),
        "abandoned": _("abandoned"),
    }
    return names.get(status, status)


def _source(source: str, code: str | None) -> str:
    name = {"terminal": _("terminal"), "web": _("web")}.get(source, source)
    return f"{name} {code}" if code else name


MAX_LIMIT = 10_000
"""The most games and high scores ``pasch history --limit`` lists."""


def _db_problem(exc: BaseException, where: str) -> str:
    """One line saying why the database ``where`` cannot be used (a lock held too long said as such)."""
    from pasch.storage import busy_timeout

    reason = " ".join(str(getattr(exc, "orig", None) or exc).split()) or type(exc).__name__
    if "locked" in reason.lower() or "busy" in reason.lower():
        reason += f" (another program held it longer than the {busy_timeout():g} s busy timeout; try again later)"
    return f"{where}: {reason}"


def _open_repository(db: str | None, data_dir: Path | None) -> Repository:
    """The repository of ``--db`` or of the data directory.

    Raises:
        ValueError: both were given, or the database cannot be opened (garbage file, a directory, no
            permission, locked, a schema this pasch does not know); the message names the URL.
    """
    from pasch.storage import Repository

    if db is not None and data_dir is not None:
        raise ValueError("give --db URL or --data-dir DIR, not both")
    where = "cannot open the database" + (f" {db!r}" if db is not None else "")
    try:
        return Repository(db) if db is not None else Repository(directory=data_dir)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:  # SQLAlchemy, Alembic, sqlite3, OSError: each is "this database is unusable"
        raise ValueError(_db_problem(exc, where)) from None


def _tidy(db: str | None, data_dir: Path | None, abandon: int | None, delete: int | None) -> None:
    """``--abandon ID`` / ``--delete ID``: give up or remove an unfinished game (never a finished one).

    Raises:
        ValueError: both given, or no such unfinished game.
    """
    from pasch.storage import ABANDONED, UNFINISHED

    if abandon is not None and delete is not None:
        raise ValueError(_("give --abandon ID or --delete ID, not both"))
    game_id = abandon if abandon is not None else delete
    assert game_id is not None
    with _open_repository(db, data_dir) as repo:
        try:
            rec = repo.get(game_id)
        except PaschError:
            rec = None
        allowed = (UNFINISHED,) if abandon is not None else (UNFINISHED, ABANDONED)
        if rec is None or rec.source != "terminal" or rec.status not in allowed:
            raise ValueError(_("no unfinished game with id {id} (see 'pasch history')").format(id=game_id))
        if abandon is not None:
            repo.abandon(game_id)
            print(_("Game {id} abandoned.").format(id=game_id))
        else:
            repo.delete(game_id)
            print(_("Game {id} deleted.").format(id=game_id))


@app.command("history", help=HELP["history"])
def history_cmd(
    as_json: Annotated[bool, typer.Option("--json", help=HELP["json"])] = False,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=MAX_LIMIT, help=HELP["limit"])] = 20,
    lang: Annotated[str | None, typer.Option("--lang", metavar="LANG", help=HELP["lang"])] = None,
    data_dir: Annotated[Path | None, typer.Option("--data-dir", metavar="DIR", help=HELP["data_dir"])] = None,
    db: Annotated[str | None, typer.Option("--db", metavar="URL", help=HELP["db"])] = None,
    abandon: Annotated[int | None, typer.Option("--abandon", metavar="ID", help=HELP["abandon"])] = None,
    delete: Annotated[int | None, typer.Option("--delete", metavar="ID", help=HELP["delete"])] = None,
) -> None:
    """Print saved games (of the terminal app and the web server), high scores and per-player averages."""
    with guard():
        set_language(lang)
        if abandon is not None or delete is not None:
            _tidy(db, data_dir, abandon, delete)
            return
        with _open_repository(db, data_dir) as repo:
            try:
                games = repo.games(limit=limit)
                highs = repo.high_scores(limit=limit)
                stats = repo.player_stats()
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception as exc:  # a damaged row (bad JSON, date or type) makes the database unreadable
                where = "cannot read the database" + (f" {db!r}" if db is not None else "")
                raise ValueError(_db_problem(exc, where)) from None
        if as_json:
            print_json(
                {
                    "games": [
                        {
                            "id": g.id,
                            "rules": g.rules,
                            "mode": g.mode,
                            "status": g.status,
                            "updated": g.updated_at.isoformat(),
                            "players": [
                                {
                                    "name": p.name,
                                    "kind": p.kind,
                                    "total": p.total,
                                    "seat": p.seat,
                                    "rank": p.rank,
                                    "winner": p.winner,
                                }
                                for p in g.players
                            ],
                            "winners": list(g.winners),
                            "source": g.source,
                            "code": g.code,
                            "uid": g.uid,
                            "created": _iso(g.created_at),
                            "finished": _iso(g.finished_at),
                            "actions": len(g.log.actions),
                        }
                        for g in games
                    ],
                    "high_scores": [
                        {"rules": h.rules, "name": h.name, "total": h.total, "game": h.game_id} for h in highs
                    ],
                    "players": [
                        {
                            "rules": s.rules,
                            "name": s.name,
                            "games": s.games,
                            "wins": s.wins,
                            "best": s.best,
                            "average": round(s.average, 2),
                        }
                        for s in stats
                    ],
                }
            )
            return
        out = console(width=120)
        if not games:
            out.print(_("No saved games yet. Play one with 'pasch play'."))
            return
        t = Table(title=_("Games"), title_justify="left")
        for col in (_("id"), _("when"), _("source"), _("rule set"), _("status"), _("players"), _("winner")):
            t.add_column(col)
        for g in games:
            players = ", ".join(f"{p.name} {p.total}" for p in g.players)
            t.add_row(
                str(g.id),
                _when(g.updated_at),
                _source(g.source, g.code),
                g.rules,
                _status(g.status),
                players,
                ", ".join(g.winners),
            )
        out.print(t)
        if highs:
            h = Table(title=_("High scores"), title_justify="left")
            for col in (_("rule set"), _("player"), _("total"), _("when")):
                h.add_column(col)
            for row in highs:
                h.add_row(row.rules, row.name, str(row.total), _when(row.finished_at))
            out.print(h)
        if stats:
            s = Table(title=_("Averages per rule set and player"), title_justify="left")
            for col in (_("rule set"), _("player"), _("games"), _("wins"), _("best"), _("average")):
                s.add_column(col)
            for st in stats:
                s.add_row(st.rules, st.name, str(st.games), str(st.wins), str(st.best), f"{st.average:.1f}")
            out.print(s)
