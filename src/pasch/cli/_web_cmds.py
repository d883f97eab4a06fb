"""``pasch serve`` (the web server) and ``pasch verify LOG`` (recompute a served game's dice)."""

from __future__ import annotations

import contextlib
import gc
from pathlib import Path
from typing import Annotated, Any

import typer

from pasch.cli._app import app
from pasch.cli._common import EXIT_BAD_INPUT, fail, guard, print_json

HELP = {
    "serve": "Serve online play in the browser: rooms, bots, spectators, provably fair dice.",
    "host": "address to listen on (default: loopback only)",
    "port": "TCP port",
    "db": "any SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db (default: pasch.sqlite3 in the data directory)",
    "bot_delay": "seconds a bot waits before each action",
    "public_url": "prefix of join links, e.g. https://dice.example.org",
    "allowed_origin": "another origin whose pages may connect (repeatable), e.g. https://dice.example.org",
    "api_docs": "serve the interactive API documentation at /docs (it loads Swagger UI from a CDN)",
    "abandon_days": "days of idleness after which an unfinished room is abandoned (its log is kept)",
    "rooms_per_minute": "rooms one client address may create a minute (0: no limit; beyond: HTTP 429)",
    "open_rooms": "unfinished rooms one client address may hold at once (0: no limit)",
    "conns_per_room": "websocket connections to one room, players and spectators (0: no limit)",
    "conns_per_address": "websocket connections from one client address (0: no limit)",
    "unplayed_minutes": "minutes after which a room nobody played in and nobody is connected to is abandoned",
    "lobby_size": "rows of the lobby (rooms with players present first, one row per creating address)",
    "table_memory_mb": "memory budget of the solver tables kept in memory, MB (least recently used go first; 0: "
    "count only)",
    "misses_per_minute": "room codes naming no room that one address may look up a minute (0: no limit; beyond: 429)",
    "table_disk_mb": "bound of the solver's table cache on disk, MB (least recently used tables go first; 0: none)",
    "message_rate": "websocket messages a second one connection may send on average (beyond: an error frame)",
    "message_burst": "websocket messages one connection may send in a burst",
    "drain_grace": "on SIGTERM, seconds /api/ready answers 503 before the connections are closed (for the proxy)",
    "win_bots": "allow bot:win seats: a rule set's first game with one builds its two win tables (0.74 GB for yahtzee, "
    "1.44 GB for yatzy, minutes of CPU); off, such seats are refused and existing ones play as bot:optimal",
    "forwarded_allow_ips": "addresses of reverse proxies whose X-Forwarded-For header names the client (comma "
    "separated, e.g. 127.0.0.1; default: none, every limit counts the connecting peer; '*' trusts anyone: never on a "
    "public port)",
    "header_timeout": "seconds a request's headers may take from its first byte (0: no limit; slow senders are closed)",
    "sockets_per_address": "open TCP connections one address may hold, before any request (0: no limit; a trusted "
    "proxy of --forwarded-allow-ips is exempt)",
    "max_connections": "connections and requests in progress at once; beyond: HTTP 503 (0: no limit)",
    "win_hints": "hints in games of 2-8 players on one-column sheets also give P(win); the win tables (0.74 GB for "
    "yahtzee, 1.44 GB for yatzy) are built once where not cached, then memory-mapped outside --table-memory-mb",
    "verify": "Recompute every throw of a served game's log from its revealed seed: exit 0 fair, 1 unfair.",
    "log": "a pasch-log JSON file (GET /api/rooms/CODE/log after the game)",
    "seed": "the revealed seed, if the log does not hold it",
    "commitment": "the commitment you saw before the first throw (64 hex digits); default: the log's own",
    "json": "print one JSON object",
    "contribution": "the seed contribution your page made (64 hex digits; the page keeps it): it must be at your seat",
    "player": "your name in the game: your contribution must be at your seat (with --contribution)",
}


# The defaults of the limits are pasch.web.Limits()'s (a test holds them equal; pasch.web is not imported here
# so that every other command starts without loading the web stack).
@app.command("serve", help=HELP["serve"])
def serve_cmd(
    host: Annotated[str, typer.Option("--host", help=HELP["host"])] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help=HELP["port"])] = 8000,
    db: Annotated[str | None, typer.Option("--db", metavar="URL", help=HELP["db"])] = None,
    bot_delay: Annotated[float, typer.Option("--bot-delay", min=0.0, help=HELP["bot_delay"])] = 0.4,
    public_url: Annotated[str, typer.Option("--public-url", help=HELP["public_url"])] = "",
    abandon_days: Annotated[
        float, typer.Option("--abandon-days", min=0.01, metavar="DAYS", help=HELP["abandon_days"])
    ] = 7.0,
    allowed_origin: Annotated[
        list[str] | None, typer.Option("--allowed-origin", metavar="ORIGIN", help=HELP["allowed_origin"])
    ] = None,
    api_docs: Annotated[bool, typer.Option("--api-docs", help=HELP["api_docs"])] = False,
    rooms_per_minute: Annotated[
        int, typer.Option("--rooms-per-minute", min=0, max=100_000, help=HELP["rooms_per_minute"])
    ] = 10,
    open_rooms: Annotated[int, typer.Option("--open-rooms", min=0, max=1_000_000, help=HELP["open_rooms"])] = 20,
    conns_per_room: Annotated[
        int, typer.Option("--conns-per-room", min=0, max=1_000_000, help=HELP["conns_per_room"])
    ] = 32,
    conns_per_address: Annotated[
        int, typer.Option("--conns-per-address", min=0, max=1_000_000, help=HELP["conns_per_address"])
    ] = 16,
    unplayed_minutes: Annotated[
        float, typer.Option("--unplayed-minutes", min=0.1, max=1e6, metavar="MIN", help=HELP["unplayed_minutes"])
    ] = 15.0,
    lobby_size: Annotated[int, typer.Option("--lobby-size", min=1, max=10_000, help=HELP["lobby_size"])] = 50,
    table_memory_mb: Annotated[
        int, typer.Option("--table-memory-mb", min=0, max=1_000_000, metavar="MB", help=HELP["table_memory_mb"])
    ] = 64,
    misses_per_minute: Annotated[
        int, typer.Option("--misses-per-minute", min=0, max=1_000_000, help=HELP["misses_per_minute"])
    ] = 30,
    table_disk_mb: Annotated[
        int, typer.Option("--table-disk-mb", min=0, max=10_000_000, metavar="MB", help=HELP["table_disk_mb"])
    ] = 4096,
    message_rate: Annotated[
        float, typer.Option("--message-rate", min=0.1, max=1e9, metavar="N", help=HELP["message_rate"])
    ] = 20.0,
    message_burst: Annotated[
        float, typer.Option("--message-burst", min=1.0, max=1e9, metavar="N", help=HELP["message_burst"])
    ] = 40.0,
    drain_grace: Annotated[
        float, typer.Option("--drain-grace", min=0.0, max=300.0, metavar="SECONDS", help=HELP["drain_grace"])
    ] = 0.0,
    win_hints: Annotated[bool, typer.Option("--win-hints", help=HELP["win_hints"])] = False,
    win_bots: Annotated[bool, typer.Option("--win-bots", help=HELP["win_bots"])] = False,
    forwarded_allow_ips: Annotated[
        str, typer.Option("--forwarded-allow-ips", metavar="IPS", help=HELP["forwarded_allow_ips"])
    ] = "",
    header_timeout: Annotated[
        float, typer.Option("--header-timeout", min=0.0, max=3600.0, metavar="SECONDS", help=HELP["header_timeout"])
    ] = 10.0,
    sockets_per_address: Annotated[
        int, typer.Option("--sockets-per-address", min=0, max=1_000_000, help=HELP["sockets_per_address"])
    ] = 64,
    max_connections: Annotated[
        int, typer.Option("--max-connections", min=0, max=10_000_000, help=HELP["max_connections"])
    ] = 4000,
) -> None:
    """Run the web server until interrupted."""
    import uvicorn

    from pasch.web import (
        Limits,
        TransportGuard,
        check_database,
        create_app,
        default_url,
        direct_websocket_protocol,
        guarded_protocol,
    )

    with guard():
        check_database(db or default_url())  # a bad --db in one line, before anything else starts
        limits = Limits(
            rooms_per_minute=rooms_per_minute,
            open_rooms=open_rooms,
            conns_per_room=conns_per_room,
            conns_per_address=conns_per_address,
            unplayed_minutes=unplayed_minutes,
            lobby_size=lobby_size,
            table_memory_mb=table_memory_mb,
            table_disk_mb=table_disk_mb,
            misses_per_minute=misses_per_minute,
            message_rate=message_rate,
            message_burst=message_burst,
        )
        web = create_app(
            db,
            bot_delay=bot_delay,
            public_url=public_url.rstrip("/"),
            abandon_after=abandon_days * 86400.0,
            allowed_origins=tuple(allowed_origin or ()),
            api_docs=api_docs,
            limits=limits,
            drain_grace=drain_grace,
            win_hints=win_hints,
            win_bots=win_bots,
        )
        # The client's address is the connecting peer's unless a trusted proxy names it: uvicorn's own default
        # trusts X-Forwarded-For from 127.0.0.1, so a visitor behind a proxy that passes their header on (or a
        # script on the same host) would choose the address every per-address limit counts.
        proxies = forwarded_allow_ips.strip()
        trusted = frozenset(p.strip() for p in proxies.split(",") if p.strip() and p.strip() != "*")
        everyone = "*" in (p.strip() for p in proxies.split(","))  # every peer a proxy: no peer to count
        _announce(host, port, db or default_url(), public_url.rstrip("/"), limits, proxies, table_disk_mb)
        transport = TransportGuard(header_timeout, 0 if everyone else sockets_per_address, trusted)
        _raise_file_limit(max_connections)
        _tune_collector()
        uvicorn.run(
            web,
            host=host,
            port=port,
            log_level="warning",
            http=guarded_protocol(transport),
            ws=direct_websocket_protocol(),  # the hub writes frames without the ASGI send where it can
            limit_concurrency=max_connections or None,
            # Frames are not compressed, so a frame costs what it measures: a 1 MiB compressed frame was inflated
            # before the app's 4 KiB check. Up to the 1 MiB transport cap the app answers an error frame.
            ws_per_message_deflate=False,
            ws_max_size=1 << 20,
            ws_ping_interval=20,
            proxy_headers=bool(proxies),
            forwarded_allow_ips=proxies or None,
        )


def _tune_collector() -> None:
    """The cyclic garbage collector's thresholds for a long-running server (this process is the server's own).

    A server holds a few hundred thousand long-lived objects (every connection's protocol, tasks and buffers;
    the rooms' states) and creates hundreds per action that live until the room's next action. At Python's
    default (a young collection every 700 allocations) most of those outlive two young collections, so the
    oldest generation fills and is walked in full every 20 s or so (0.2-0.3 s each at 2,000 players): 3-4 % of
    the server's CPU (0.5 % after) and its worst pauses. Collecting the young generation every 50,000 allocations lets a
    room's state die young; measured by ``bench/web_load.py`` (docs/deploy.md).
    """
    gc.set_threshold(50_000, 20, 10)


def _announce(host: str, port: int, db: str, public_url: str, limits: Any, proxies: str, disk_mb: int) -> None:
    """What the server is about to serve, where, and within which bounds (stdout, before it starts)."""
    from sqlalchemy.engine import make_url

    from pasch._version import __version__
    from pasch.solver import cache_dir

    shown = "[" + host + "]" if ":" in host else host
    lines = [
        f"pasch {__version__} serving on http://{shown}:{port}/"
        + (f" (links: {public_url}/r/CODE)" if public_url else ""),
        f"  database: {make_url(db).render_as_string(hide_password=True)}",
        f"  per address: {limits.rooms_per_minute} rooms a minute, {limits.open_rooms} open rooms, "
        f"{limits.conns_per_address} websockets; {limits.conns_per_room} websockets per room (0: no limit)",
        f"  solver tables: {cache_dir()} (at most {disk_mb} MB on disk, {limits.table_memory_mb} MB in memory)",
        "  client addresses: " + (f"from X-Forwarded-For of {proxies}" if proxies else "the connecting peer's"),
    ]
    print("\n".join(lines), flush=True)


def _raise_file_limit(wanted: int) -> None:
    """Let this process open as many files as its hard limit allows, up to what ``--max-connections`` needs (plus
    the database, tables and logs): a default soft limit of 1,024 locked every new client out at about a
    thousand sockets."""
    try:
        import resource
    except ImportError:  # not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, (wanted or 4000) + 256)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


@app.command("verify", help=HELP["verify"])
def verify_cmd(
    log: Annotated[Path, typer.Argument(metavar="LOG", help=HELP["log"])],
    seed: Annotated[str | None, typer.Option("--seed", help=HELP["seed"])] = None,
    commitment: Annotated[str | None, typer.Option("--commitment", metavar="HEX", help=HELP["commitment"])] = None,
    contribution: Annotated[
        str | None, typer.Option("--contribution", metavar="HEX", help=HELP["contribution"])
    ] = None,
    player: Annotated[str | None, typer.Option("--player", metavar="NAME", help=HELP["player"])] = None,
    as_json: Annotated[bool, typer.Option("--json", help=HELP["json"])] = False,
) -> None:
    """Say whether every throw of the log follows from the seed (and the seed from the commitment)."""
    from pasch.engine import GameLog
    from pasch.web import verify

    with guard():
        try:
            game = GameLog.load(log)
            report = verify(game, seed=seed, commitment=commitment, contribution=contribution, player=player)
        except typer.Exit:
            raise
        except Exception as exc:
            fail(str(exc))
    if as_json:
        print_json(
            {
                "fair": report.fair,
                "throws": report.throws,
                "problems": report.problems,
                "commitment": report.commitment,
                "commitment_source": report.commitment_source,
                "seed": report.seed,
                "dice": report.version,
                "contributions": report.contributions,
                "contribution_included": report.mine,
                "contribution_seat": report.seat,
                "notes": report.notes,
            }
        )
    else:
        typer.echo(f"{'fair' if report.fair else 'UNFAIR'}: {report.throws} throws checked")
        if report.commitment is None:
            typer.echo("  no commitment known: the seed itself was not checked (give --commitment HEX)")
        else:
            where = "the one you gave" if report.commitment_source == "given" else "the log's own"
            typer.echo(f"  commitment {report.commitment} ({where}); seed {report.seed}")
        given = sum(1 for c in report.contributions if c)
        if report.version == "pasch-dice-v1":
            typer.echo(f"  dice {report.version}: the server's seed alone (no player contribution mixed in)")
        else:
            typer.echo(f"  dice {report.version}; {given} player contribution(s) mixed in")
        if report.mine is not None:
            where = f" (at {game.players[report.seat]}'s seat)" if report.mine and report.seat is not None else ""
            typer.echo(f"  your contribution is {'included' + where if report.mine else 'MISSING'}")
        for line in report.notes:
            typer.echo(f"  note: {line}")
        for line in report.problems:
            typer.echo(f"  {line}")
    raise typer.Exit(0 if report.fair else 1)


__all__ = ["EXIT_BAD_INPUT", "serve_cmd", "verify_cmd"]
