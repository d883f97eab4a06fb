"""The server's solver tables: one build at a time, in a queue, off the shared worker threads.

A room with an optimal bot and a hint both need the exact table of their rule set. Loading one from disk
takes a fraction of a second, but building a new variant (every ``+bonus=N`` is one) takes seconds and
megabytes. If each room built its own in the event loop's worker threads, a few variant rooms would hold
every worker (room creation and database reads wait on the same pool) and memory would grow with every
variant. So the server prepares tables in ONE dedicated thread, first come first served: a bot waits (in
the event loop, holding no thread) until its table is ready, and a hint asked for meanwhile answers at once
with ``status: "preparing"``. The tables in memory are bounded by :func:`pasch.solver.set_shared_budget`
(least recently used first); a table evicted and needed again is loaded again from disk through the queue.

The multi-column games (jetsi, kniffel-3, kniffel-4) have no exact table, but their bot and hints read a
dozen per-column tables (:meth:`pasch.bots.MultiColumnBot.prepare`: about 20 s to build kniffel-4's on a fresh
machine, a fraction of a second from the cache): the queue prepares them too, once per process for every
room, so a bot seat waits for them without a thread and a hint answers ``preparing`` meanwhile (in a thread of
their own at the normal priority: a bot seat waits for them, and at the table thread's lower priority a busy
machine left them waiting for minutes).

With ``pasch serve --win-hints`` the same queue prepares the **win tables** of hints in games of several players
(:func:`pasch.app.prepare_win_tables`: the threshold and survival tables, 2 x 368 MB for ``yahtzee``, built
once at low priority where they are not stored yet). They are memory-mapped read-only from the cache, so they
do not count against ``--table-memory-mb``; a hint asked meanwhile answers with its exact values and
``win: "preparing"``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import threading
from collections.abc import Callable

from pasch.app import bot_tables_ready, prepare_bot_tables, prepare_win_tables, uses_bot_tables, win_tables_ready
from pasch.errors import PaschError
from pasch.rules import GameKind, RuleSet
from pasch.solver import is_shared, shared_solver, table_path, warm_up

__all__ = ["TableQueue"]

LOG = logging.getLogger("pasch.web")


def _solvable(rules: RuleSet) -> bool:
    """Whether the exact solver may handle these rules (one column; the solver itself has the last word)."""
    return rules.kind is GameKind.SHEET and rules.n_columns == 1


def _lower_priority() -> None:
    """Run the table thread at a lower CPU priority (Linux: a thread is a task with its own nice value), so
    that a build on a busy machine takes its time from the builds, not from the players' requests."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


def _warm_up() -> None:
    try:
        warm_up(("build", "options", "best"))
    except Exception:  # only a missed speed-up: the first table compiles them instead
        LOG.exception("the solver kernels could not be warmed up")


class TableQueue:
    """Prepares solver tables one at a time in a dedicated thread; asking for a queued table joins its entry.

    Args:
        max_pending: tables waiting at most; a request beyond is refused with :class:`PaschError` until the
            queue shortens (every open room needs at most one).
    """

    def __init__(self, max_pending: int = 64) -> None:
        self.max_pending = max_pending
        self._pool = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix="pasch-tables", initializer=_lower_priority
        )
        # The multi-column games' bot tables in a thread of their own at the normal priority, as when the bot
        # built them itself: the table thread's lower priority left them starving for minutes on a busy machine
        # (a bot seat waits for them), and they are built once per machine, then only loaded.
        self._bot_pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pasch-bot-tables")
        self._pending: dict[str, concurrent.futures.Future[bool]] = {}
        self._unsupported: set[str] = set()
        self._guard = threading.Lock()
        self.built = 0
        """Tables prepared so far (loaded or built)."""

    def warm_up(self) -> concurrent.futures.Future[None]:
        """Load the solver's compiled kernels in the table thread, first in the queue (at server start): the
        first table a room needs would otherwise pay for it, holding the interpreter for about a second while
        players wait."""
        return self._pool.submit(_warm_up)

    def ready(self, rules: RuleSet) -> bool:
        """Whether asking for this table now would not wait (in memory, or no exact table applies)."""
        if rules.id in self._unsupported:
            return True
        if uses_bot_tables(rules):
            return bot_tables_ready(rules)
        if not _solvable(rules):
            return True
        return is_shared(rules)

    def on_disk(self, rules: RuleSet) -> bool:
        """Whether the table of ``rules`` is in the cache directory (getting it is a load, not a build)."""
        if uses_bot_tables(rules):
            return False  # several tables; a load of them from the cache takes a fraction of a second
        with contextlib.suppress(Exception):
            return table_path(rules).is_file()
        return False

    def pending(self) -> int:
        """Tables queued or being prepared now."""
        with self._guard:
            return len(self._pending)

    def request(self, rules: RuleSet) -> concurrent.futures.Future[bool]:
        """Queue the table of ``rules`` (or join its queued entry); the future's value says whether an exact
        table exists for these rules.

        Raises:
            PaschError: the queue is full.
        """
        with self._guard:
            got = self._pending.get(rules.id)
            if got is not None:
                return got
            if len(self._pending) >= self.max_pending:
                raise PaschError(f"{len(self._pending)} solver tables are being prepared; try again in a moment")
            if uses_bot_tables(rules):
                future = self._bot_pool.submit(self._prepare, rules, rules.id, "bot tables", prepare_bot_tables)
            else:
                future = self._pool.submit(self._prepare, rules, rules.id, "solver table", shared_solver)
            self._pending[rules.id] = future
        return future

    def win_ready(self, rules: RuleSet) -> bool:
        """Whether the win tables of ``rules`` are open (a hint shows P(win) at once)."""
        return _solvable(rules) and rules.id not in self._unsupported and win_tables_ready(rules)

    def request_win(self, rules: RuleSet) -> concurrent.futures.Future[bool]:
        """Queue the win tables of ``rules`` (or join their queued entry); the future's value says whether
        they are open now.

        Raises:
            PaschError: the queue is full.
        """
        key = f"win:{rules.id}"
        with self._guard:
            got = self._pending.get(key)
            if got is not None:
                return got
            if len(self._pending) >= self.max_pending:
                raise PaschError(f"{len(self._pending)} solver tables are being prepared; try again in a moment")
            future = self._pool.submit(self._prepare, rules, key, "win tables", prepare_win_tables)
            self._pending[key] = future
        return future

    def _prepare(self, rules: RuleSet, key: str, what: str, prepare: Callable[[RuleSet], object]) -> bool:
        """Run ``prepare(rules)`` in a queue's thread: True when it did; a rule set it refuses with a
        :class:`PaschError` is marked unsupported (no exact table, no P(win), no bot tables: the bots and hints
        use their own policy); any other failure (disk or memory full) is logged and retried by the next
        request. ``key`` leaves the pending requests at the end."""
        try:
            prepare(rules)
            self.built += 1
            return True
        except PaschError:
            self._unsupported.add(rules.id)
            return False
        except Exception:
            LOG.exception("the %s of %s could not be prepared", what, rules.id)
            return False
        finally:
            with self._guard:
                self._pending.pop(key, None)

    async def ensure(self, rules: RuleSet) -> None:
        """Wait (without holding a worker thread) until the table of ``rules`` is in memory or known not to
        apply; a full queue is waited out too."""
        while not self.ready(rules):
            try:
                future = self.request(rules)
            except PaschError:
                await asyncio.sleep(1.0)
                continue
            await asyncio.wrap_future(future)
            if not self.ready(rules):  # evicted at once by a later table (a tiny budget), or failed: no busy loop
                return

    def close(self) -> None:
        """Stop preparing (queued tables are dropped; the one being built finishes)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
