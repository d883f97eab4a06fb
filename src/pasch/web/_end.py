"""The end of a game and its moves, in the protocol's JSON, from the application layer.

- :func:`end_report`: each player's sections and total and the ranking (:func:`pasch.app.game_summary`,
  with their earlier games from :meth:`pasch.storage.Repository.player_stats`), and for single-column rule
  sets "your play vs optimal" (:func:`pasch.app.review`: expected points lost, luck, accuracy, and every
  decision for the move-by-move review).
- :func:`move_list`: who played which action, for the move log of a page that joins a game under way.

Both replay the log and :func:`end_report` may load (or build) a solver table: the server calls them in a
worker thread, never on the event loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pasch.app import Review, game_summary, review, reviewable
from pasch.engine import Action, GameLog, State, new_game
from pasch.errors import PaschError
from pasch.storage import PlayerStats
from pasch.web._manners import played_by

__all__ = ["end_report", "move_list"]


def _review_view(rev: Review) -> dict[str, Any]:
    players = []
    for p, name in enumerate(rev.players):
        luck = rev.luck(p)
        accuracy = rev.accuracy(p)
        players.append(
            {
                "seat": p,
                "name": name,
                "lost": round(rev.lost[p], 2),
                "luck": None if luck is None else round(luck, 2),
                "accuracy": None if accuracy is None else round(accuracy, 3),
                "decisions": len(rev.of(p)),
            }
        )
    return {
        "estimated": rev.estimated,
        "expected_start": round(rev.expected_start, 2),
        "players": players,
        "decisions": [
            {
                "index": d.index,
                "player": d.player,
                "turn": d.turn,
                "dice": list(d.dice),
                "throws_left": d.throws_left,
                "played": d.played,
                "best": d.best,
                "value_played": round(d.value_played, 2),
                "value_best": round(d.value_best, 2),
                "loss": round(d.loss, 2),
            }
            for d in rev.decisions
        ],
    }


def end_report(log: GameLog, state: State, history: Iterable[PlayerStats] = ()) -> dict[str, Any]:
    """The end-of-game screen's content.

    Args:
        log: the game's log.
        state: the game's (usually final) state.
        history: the players' earlier finished games (this game left out).

    Returns:
        ``{"finished", "solo", "winners", "tie", "players": [{seat, name, rank, total, upper, bonus, lower,
        extra, games_before, best_before, average_before, personal_best}] (best first), "review": null or
        {expected_start, players: [{seat, name, lost, luck, accuracy, decisions}], decisions: [...]}}``.
        ``review`` is null where the rules have no exact solver (several columns, Knaster) or the game is
        not over.
    """
    summary = game_summary(state, history)
    players = [
        {
            "seat": p.seat,
            "name": p.name,
            "rank": p.rank,
            "total": p.total,
            "upper": p.upper,
            "bonus": p.bonus,
            "lower": p.lower,
            "extra": p.extra,
            "games_before": p.games_before,
            "best_before": p.best_before,
            "average_before": None if p.average_before is None else round(p.average_before, 1),
            "personal_best": p.personal_best,
        }
        for p in summary.standings()
    ]
    # No percentile: the page does not show it, and its exact score distribution is far more CPU than the
    # review (the first game of a rule set waited for it; issue 25).
    # Multi-column games get the review against the strongest bot's estimate (``estimated``: not exact; the page
    # labels it so); Knaster has none.
    rev = review(log, percentile=False) if summary.finished and reviewable(state.rules, estimated=True) else None
    return {
        "finished": summary.finished,
        "solo": summary.solo,
        "winners": list(summary.winners),
        "tie": summary.is_tie,
        "players": players,
        "review": None if rev is None else _review_view(rev),
    }


def move_list(log: GameLog, stand_ins: Sequence[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
    """Every event of the log with the seat that made it: ``[{"seq", "player", "action", "by"}]`` (``seq`` is
    the 1-based position after the event; a server ``throw`` counts as the thrower's; ``by`` names the stand-in
    bot that played it for an away player, from the room's ``stand_ins``, else None).

    Raises:
        PaschError: the log does not replay.
    """
    state = new_game(log.rules, log.players, keeper=log.keeper)
    out: list[dict[str, Any]] = []
    for n, text in enumerate(log.actions):
        player = state.current_player
        out.append({"seq": n + 1, "player": player, "action": text, "by": played_by(stand_ins, player, n + 1)})
        try:
            state = state.apply(Action.parse(text))
        except (PaschError, ValueError) as exc:
            raise PaschError(f"move {n + 1} ({text!r}) does not replay: {exc}") from None
    return out
