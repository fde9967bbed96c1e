"""Which executors a parallel run takes, how they are made, and how their faults look.

Any :class:`concurrent.futures.Executor` runs the tasks:

* ``ThreadPoolExecutor(n)``: the compiled core releases the GIL while it
  searches, so threads run in parallel (the pure engine does not).
* ``ProcessPoolExecutor(n)``, or :func:`executor` (``jobs=n``), which also makes
  the workers ignore Ctrl-C (only the caller handles it) and exit when the
  process that made them dies.
* a Dask cluster: ``distributed.Client(address).get_executor(pure=False)`` (no
  hashing of the arguments: every task differs), or :func:`executor`
  (``scheduler=address``), which gives up within ``connect_timeout`` seconds (5)
  when the scheduler cannot be reached or has no worker, and closes its client on
  shutdown.  Dask is the optional extra ``dancing-links-dlx[dask]``.
* :func:`inline`: each task at once, in the calling thread.  A checkpointed search
  without an executor runs on it: the same driver, one worker, no other process.

A task whose worker dies is a *fault* (:func:`is_fault`): a broken process pool
(``BrokenProcessPool``), a lost Dask worker (``KilledWorker``, a closed comm), a
cancelled future.  The driver runs the task's pieces again, on a fresh pool of
the same shape when the pool broke (:func:`fresh_pool`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..errors import ExactCoverError, shown
from ..options import check_positive
from .worker import quiet

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["executor", "width", "is_fault", "fresh_pool", "inline", "is_inline", "MAX_JOBS",
           "CONNECT_TIMEOUT"]

#: The most worker processes :func:`executor` starts: more than a few per core only
#: costs memory and start-up time (the search is CPU-bound).
MAX_JOBS = max(32, 4 * (os.cpu_count() or 1))

#: Seconds :func:`executor` tries to reach a Dask scheduler (and to see a worker there).
CONNECT_TIMEOUT = 5.0


def executor(jobs: int | None = None, *, scheduler: str | None = None,
             connect_timeout: float | None = None) -> Executor:
    """An Executor for the command line: ``jobs`` worker processes on this machine
    (default: one per core; at most :data:`MAX_JOBS`), or the Dask cluster whose
    scheduler is at ``scheduler`` (``"tcp://host:8786"``; needs the ``dask`` extra).
    A scheduler that cannot be reached within ``connect_timeout`` seconds (default
    :data:`CONNECT_TIMEOUT`), or that has no worker by then, raises OSError (a
    ``ConnectionRefusedError`` at once when nothing listens there).

    Use it in a ``with`` block: leaving it shuts the pool down (or closes the Dask
    client).  The processes ignore Ctrl-C, which the caller handles: every piece
    still queued is cancelled and KeyboardInterrupt propagates.  They exit within
    a fraction of a second when the process that made them dies (even by SIGKILL).

    >>> import dlx
    >>> with dlx.parallel.executor(jobs=1) as ex:
    ...     dlx.parallel.count(dlx.ExactCover({"x": ["a"], "y": ["a"]}), ex)
    2
    """
    if connect_timeout is not None and (isinstance(connect_timeout, bool) or not isinstance(
            connect_timeout, (int, float)) or not 0 < connect_timeout < 1e9):
        raise ExactCoverError(f"connect_timeout must be a positive number of seconds, not"
                              f" {shown(connect_timeout)}")
    if scheduler is not None:
        if jobs is not None:
            raise ExactCoverError("give jobs= or scheduler=, not both")
        return _dask(scheduler, CONNECT_TIMEOUT if connect_timeout is None
                     else float(connect_timeout))
    check_positive(jobs, "jobs")
    if jobs is not None and jobs > MAX_JOBS:
        raise ExactCoverError(f"jobs must be at most {MAX_JOBS} ({os.cpu_count() or 1} cores"
                              f" here), not {shown(jobs)}")
    pool: Executor = _pool_class()(max_workers=jobs or os.cpu_count() or 1,
                                   initializer=quiet, initargs=(os.getpid(),))
    return pool


def _pool_class() -> Any:
    """A ProcessPoolExecutor that, left by an error or Ctrl-C, does not wait for the
    tasks still running: it cancels the queued ones and stops its workers at once
    (their answers are lost anyway), so that an interrupted run ends within a
    moment even on a loaded machine."""
    from concurrent.futures import ProcessPoolExecutor

    class Pool(ProcessPoolExecutor):
        def __exit__(self, kind: Any, error: Any, trace: Any) -> bool | None:
            if kind is None:
                return super().__exit__(kind, error, trace)
            workers = list((getattr(self, "_processes", None) or {}).values())
            manager = getattr(self, "_executor_manager_thread", None)
            self.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()
            if manager is not None:
                # let the pool's manager thread see its workers gone and close its
                # wake-up pipe: Python's exit wakes every pool's manager, and one
                # closing that pipe at the same moment printed "Exception ignored
                # ... Bad file descriptor" (a race in concurrent.futures)
                manager.join(2.0)
            return None

    return Pool


def _reachable(address: str, timeout: float) -> None:
    """Raise OSError unless something listens at a ``tcp://host:port`` (or ``host:port``)
    ``address``, within ``timeout`` seconds (name lookup included): a refused
    connection says so at once, before Dask is even imported (which takes a second or
    two), instead of after Dask's retries.  Other addresses are left to Dask."""
    import socket
    import threading

    rest = address[len("tcp://"):] if address.startswith("tcp://") else address
    if "://" in rest:
        return
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        # Dask would fail too, but only after leaving a half-made client whose
        # finalizer prints a traceback at exit
        raise OSError(f"{address!r} is not an address HOST:PORT (e.g. tcp://127.0.0.1:8786)")
    host = host.strip("[]")
    outcome: list[BaseException | None] = []

    def attempt() -> None:
        try:
            socket.create_connection((host, int(port)), timeout=timeout).close()
            outcome.append(None)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            outcome.append(e)

    probe = threading.Thread(target=attempt, name="dlx-scheduler-probe", daemon=True)
    probe.start()
    probe.join(timeout)
    if not outcome:
        raise TimeoutError(f"no answer within {timeout:g} s")
    if outcome[0] is not None:
        e = outcome[0]
        raise OSError(e.strerror or str(e)) if isinstance(e, OSError) else OSError(str(e))


def _dask(address: str, timeout: float) -> Executor:
    """The executor of a Dask cluster, closing its client when shut down."""
    import time
    from concurrent.futures import Executor

    began = time.monotonic()
    _reachable(address, timeout)
    try:
        import distributed
    except ImportError:
        raise ExactCoverError("a Dask scheduler needs the dask extra:"
                              " pip install 'dancing-links-dlx[dask]'") from None
    make: Any = distributed.Client                 # (distributed is not typed)
    left = max(1.0, timeout - (time.monotonic() - began))
    # Dask's own timeout misses a peer that accepts the connection and never answers
    # (its handshake waits for ever): connect in a thread, and give up after ``left``
    box: list[Any] = []

    def connect() -> None:
        try:
            box.append(make(address, timeout=left, set_as_default=False))
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box.append(e)

    import threading

    attempt = threading.Thread(target=connect, name="dlx-dask-connect", daemon=True)
    attempt.start()
    attempt.join(left + 0.5)
    if not box:
        raise OSError(f"no answer within {timeout:g} s")
    if isinstance(box[0], BaseException):
        raise OSError(str(box[0])) from None
    client = box[0]
    try:
        client.wait_for_workers(1, timeout=max(1.0, timeout - (time.monotonic() - began)))
    except Exception:
        client.close()
        raise OSError(f"the scheduler has no worker (waited {timeout:g} s)") from None

    class DaskExecutor(Executor):
        """Dask's ``Client.get_executor()``, which also closes the client on shutdown."""

        def __init__(self) -> None:
            self._client = client
            # pure=False: no hashing of the arguments (every task differs anyway)
            self._inner = client.get_executor(pure=False)

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            return self._inner.submit(fn, *args, **kwargs)

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            self._inner.shutdown(wait=wait)
            self._client.close()

    return DaskExecutor()


def width(executor: Executor) -> int:
    """How many tasks ``executor`` runs at once (its workers), as far as it tells."""
    n = getattr(executor, "_max_workers", None)
    if isinstance(n, int) and n > 0:
        return n
    client = getattr(executor, "_client", None)         # Dask's ClientExecutor
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # noqa: BLE001 - a cluster that cannot say: guess
            pass
    return os.cpu_count() or 1


def is_fault(e: BaseException) -> bool:
    """Did the task fail because its worker was lost (rather than by an error of its own)?"""
    import errno
    from concurrent.futures import BrokenExecutor, CancelledError
    if isinstance(e, (BrokenExecutor, CancelledError, EOFError, ConnectionError)):
        return True
    if isinstance(e, OSError) and e.errno in (errno.EBADF, errno.EPIPE):
        # a process pool's feeder thread writing to the pipe of workers that died: the
        # pool hands the task that error instead of BrokenProcessPool
        return True
    return type(e).__name__ in ("KilledWorker", "CommClosedError", "FutureCancelledError")


def fresh_pool(old: Executor) -> Executor | None:
    """A new process pool of the same shape as the broken ``old`` (None when ``old``
    is not a process pool: then nothing can be done here)."""
    from concurrent.futures import ProcessPoolExecutor

    if not isinstance(old, ProcessPoolExecutor):
        return None
    return ProcessPoolExecutor(max_workers=getattr(old, "_max_workers", None),
                               mp_context=getattr(old, "_mp_context", None),
                               initializer=getattr(old, "_initializer", None),
                               initargs=getattr(old, "_initargs", ()))



_INLINE: Any = None


def inline() -> Executor:
    """An executor that runs each task at once, in the calling thread, and hands back a
    finished future (an error or KeyboardInterrupt of the task is the future's
    exception): the executor of a checkpointed search in this process.

    >>> import dlx
    >>> dlx.parallel.count(dlx.ExactCover({"x": ["a"], "y": ["a"]}), inline())
    2
    """
    global _INLINE
    if _INLINE is None:
        from concurrent.futures import Executor, Future

        class Inline(Executor):
            inline = True                 # (what the driver looks for)
            _max_workers = 1

            def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
                fut: Future[Any] = Future()
                try:
                    fut.set_result(fn(*args, **kwargs))
                except BaseException as e:  # noqa: BLE001 - the future carries it
                    fut.set_exception(e)
                return fut

        _INLINE = Inline
    made: Executor = _INLINE()
    return made


def is_inline(ex: Any) -> bool:
    """Does ``ex`` run its tasks in the calling thread (:func:`inline`)?"""
    return getattr(ex, "inline", False) is True
