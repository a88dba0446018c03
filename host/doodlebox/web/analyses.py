"""The coach's analyses for the page (issue 32): made in a process of their own, queued within
bounds, kept while a game's record is the same; a request never waits on one for long.

An analysis is CPU work of 2 to 25 s (web/coach.py). Made in the request's worker, eight of them
held all eight of the server's workers and the page with them. Here it is handed to a process of
its own (a `spawn`ed ProcessPoolExecutor of WORKERS, made on the first analysis, its process niced
and deaf to Ctrl-C, stopped by close()): it takes one core and never the server's GIL. A request
waits for its analysis at most WAIT s (and only WAITING requests at a time wait at all: the others
are answered at once), then is answered "under way" (NotReady 202, with when to ask again). Two
requests for the same record share one analysis. A new one is queued only within the bounds: at
most PER_CLIENT queued or running for one client (by its address: NotReady 429) and QUEUED in all
(NotReady 503). `refused`, the page's reason when this request may not start one (a page on the
network without its token: server.py), is NotReady 403, and is never asked of an analysis already
made or under way. KEPT analyses are kept, the least recently asked dropped first."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_for
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from doodlebox.errors import DoodleboxError
from doodlebox.web import coach
from doodlebox.web.coach import analysis

KEPT = 64            # analyses kept (small dicts: a few KB each)
WORKERS = 1          # processes making analyses (the machine has 2 cores: one stays the page's)
NICE = 10            # their niceness: the page's own requests come first
PER_CLIENT = 3       # analyses queued or running for one client address
QUEUED = 8           # analyses queued or running in all (at 10-25 s each: a few minutes of work)
WAIT = 0.5           # s a request waits for its analysis before it is answered "under way"
WAITING = 2          # requests waiting on an analysis at once (of the server's 8 workers)
RETRY_UNDER_WAY = 2  # s: Retry-After of "under way" (202)
RETRY_FULL = 10      # s: Retry-After of a bound reached (429, 503)


class NotReady(DoodleboxError):
    """No analysis to give now: its HTTP status (202 under way, 403 may not start one, 429 this
    client's bound, 503 the queue's), one line, and `retry_after` (s; 0: asking again will not help)."""
    def __init__(self, status: int, text: str, retry_after: int = 0):
        super().__init__(text)
        self.status = status
        self.retry_after = retry_after


@dataclass
class _Job:
    client: str
    future: Future


class Analyses:
    """The page's analyses: get() one; close() at the end. Safe to call from any thread. The
    tunables above are plain attributes too (`playouts`: None for analysis.WEB_PLAYOUTS)."""
    def __init__(self) -> None:
        self.kept, self.per_client, self.queued, self.wait = KEPT, PER_CLIENT, QUEUED, WAIT
        self.playouts: int | None = None
        self.started = 0                   # analyses handed to the process (a figure for tests)
        self._lock = threading.Lock()
        self._waiting = threading.BoundedSemaphore(WAITING)
        self._kept: OrderedDict[str, dict | BaseException] = OrderedDict()
        self._jobs: dict[str, _Job] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def get(self, record: dict, client: str = "", refused: str | None = None) -> dict:
        """The analysis of `record` (web/coach.analysis's) for `client` (its address); NotReady
        when it is not made yet (and why); the analysis's own exception if it failed."""
        if record.get("edition") in coach.UNANALYSED:
            return coach.analysis(record)          # says so at once: no search
        key = json.dumps([record, self.playouts], sort_keys=True)
        with self._lock:
            made = self._kept.get(key)
            if made is not None:
                self._kept.move_to_end(key)
                return _outcome(made)
            job = self._jobs.get(key)
            if job is None:
                job = self._start(key, record, client, refused)
                new = True
            else:
                new = False
        if new:      # outside the lock: a future already done calls back at once
            job.future.add_done_callback(lambda f: self._done(key, f))
        if self._waiting.acquire(blocking=False):
            try:
                wait_for([job.future], timeout=self.wait)
            finally:
                self._waiting.release()
        if job.future.done() and not job.future.cancelled():
            exc = job.future.exception()
            if not isinstance(exc, BrokenProcessPool):
                return _outcome(exc if exc is not None else job.future.result())
        raise NotReady(202, "analysis under way, try again: the coach is analysing this game", RETRY_UNDER_WAY)

    def _start(self, key: str, record: dict, client: str, refused: str | None) -> _Job:
        """A new analysis queued (under the lock), or NotReady saying why not."""
        if refused is not None:
            raise NotReady(403, refused)
        mine = sum(1 for j in self._jobs.values() if j.client == client)
        if mine >= self.per_client:
            raise NotReady(429, f"analysis not queued, try again in {RETRY_FULL} s: this client has {mine} "
                                f"analyses queued (at most {self.per_client})", RETRY_FULL)
        if len(self._jobs) >= self.queued:
            raise NotReady(503, f"analysis not queued, try again in {RETRY_FULL} s: the coach's queue is full "
                                f"({len(self._jobs)} analyses queued)", RETRY_FULL)
        if self._closed:
            raise NotReady(503, "the page is stopping")
        if self._pool is not None and getattr(self._pool, "_broken", False):   # its process died
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_in_the_process)

        job = _Job(client, self._pool.submit(analysis, record, self.playouts))
        self._jobs[key] = job
        self.started += 1
        return job

    def _done(self, key: str, future: Future) -> None:
        """An analysis ended (in the pool's thread): kept, with its failure if it failed; a process
        that died (killed, out of memory) keeps nothing, and the next analysis makes a new one."""
        with self._lock:
            self._jobs.pop(key, None)
            if future.cancelled():
                return
            exc = future.exception()
            if isinstance(exc, BrokenProcessPool):
                return           # _start makes a new pool
            self._kept[key] = exc if exc is not None else future.result()
            self._kept.move_to_end(key)
            while len(self._kept) > self.kept:
                self._kept.popitem(last=False)

    def busy(self) -> int:
        """Analyses queued or running now."""
        with self._lock:
            return len(self._jobs)

    def close(self) -> None:
        """The queue cancelled, the process stopped (an analysis half made is dropped)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:          # Python 3.14 has pool.terminate_workers(); 3.11 does not
            p.terminate()
        for p in processes:
            p.join(5)


def _outcome(made: dict | BaseException) -> dict:
    if isinstance(made, BaseException):
        raise made.with_traceback(None)      # as it was raised in the process: the page's 500, each time
    return made


def _in_the_process() -> None:
    """The analyses' process: behind the page's requests, and deaf to a terminal's Ctrl-C (the
    server stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICE)
    except OSError:
        pass
