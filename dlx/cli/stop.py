"""What SIGINT (Ctrl-C) and SIGTERM do to a ``dlx`` command: :data:`STOP`.

It imports nothing Python has not loaded already when the command starts (the
builtin under the signal module; annotations in quotes), so that :func:`dlx.cli.main`
can put its handlers in place before anything else is imported.
"""

import os
import sys

# Only what Python has loaded already when the command starts, so that the handlers are
# in place as early as can be: the builtin under the signal module (the module adds
# enums, half a millisecond), and annotations in quotes (no __future__, no typing).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from types import FrameType
    from typing import Any
else:
    try:
        import _signal as signal
    except ImportError:             # not CPython
        import signal

__all__ = ["STOP", "Stop", "Terminated"]


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C raises KeyboardInterrupt: every ``except
    KeyboardInterrupt`` stops the same way, and the exit code is 143."""


class Stop:
    """What SIGINT (Ctrl-C) and SIGTERM do to a ``dlx`` command: the one :data:`STOP`.

    Outside a search a signal raises at once (KeyboardInterrupt; :class:`Terminated`
    for SIGTERM), which :func:`main` turns into one line and exit 130 (143).
    Inside a search (:meth:`deferred`, entered by the search session) the first
    signal only sets :attr:`signum`; the session's progress callback raises at the
    search's next progress point, between two steps, so the answers printed so far
    are whole lines and the links are intact.  A second signal raises at once.

    Python drops (and prints as "Exception ignored") an exception raised where
    nobody can catch it: in a finaliser, or in the weakref callback with which
    importlib forgets a module's lock after each import.  A Ctrl-C landing there
    used to be lost, and the command ran on as if nothing had happened.  So the
    command modules load deferred (:func:`main`), and a signal that lands in such a
    place is only noted; it stops the command at its next check (:meth:`check`: a
    search's progress point, the next input, the end).
    """

    def __init__(self) -> None:
        self.signum: int | None = None    # the first stop signal received
        self.reported = False             # its line was printed
        self._deferring = 0
        self._previous: dict[int, Any] = {}
        self._forks_hooked = False

    # -- the handler
    def __call__(self, signum: int, frame: "FrameType | None") -> None:
        first = self.signum is None
        if first:
            self.signum = signum
        if (first and self._deferring) or _uncatchable(frame):
            return                      # the command stops at its next check
        raise self.exception()

    def exception(self) -> KeyboardInterrupt:
        """The exception a stop signal raises."""
        return Terminated() if self.signum == signal.SIGTERM else KeyboardInterrupt()

    @property
    def code(self) -> int:
        """The exit code: 143 after SIGTERM, else 130."""
        return 143 if self.signum == signal.SIGTERM else 130

    @property
    def word(self) -> str:
        """What happened, for a message: ``terminated`` or ``interrupted``."""
        return "terminated" if self.signum == signal.SIGTERM else "interrupted"

    def report(self, detail: str = "", name: "str | None" = None) -> int:
        """Print (once) ``dlx: [NAME: ]interrupted`` (``terminated``) and ``detail`` on
        stderr; return the exit code."""
        if not self.reported:
            self.reported = True
            where = "" if name is None else f"{name}: "
            try:
                print(f"dlx: {where}{self.word}{detail}", file=sys.stderr, flush=True)
            except (OSError, ValueError):   # stderr closed: the exit code still says it
                pass
        return self.code

    def check(self) -> None:
        """Raise now if a stop signal has arrived (at a point where stopping is safe)."""
        if self.signum is not None:
            raise self.exception()

    def deferred(self) -> "_Deferring":
        """``with STOP.deferred():`` a first signal only sets :attr:`signum`."""
        return _Deferring(self, 1)

    def immediate(self) -> "_Deferring":
        """``with STOP.immediate():`` (inside :meth:`deferred`) a signal raises at once:
        for waiting on input, which may never come."""
        return _Deferring(self, 0)

    # -- installing
    def install(self) -> None:
        """Handle SIGINT and SIGTERM (from the main thread; elsewhere, nothing)."""
        self.signum, self.reported, self._deferring = None, False, 0
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                previous = signal.signal(signum, self)
            except (ValueError, OSError):   # not the main thread
                return
            self._previous.setdefault(signum, previous)
        if not self._forks_hooked and hasattr(os, "register_at_fork"):
            # A forked process (a --jobs worker) gets the handlers it would have had.
            os.register_at_fork(after_in_child=self.uninstall)
            self._forks_hooked = True

    def uninstall(self) -> None:
        """Put back the handlers :meth:`install` replaced."""
        for signum, previous in self._previous.items():
            try:
                signal.signal(signum, previous)
            except (ValueError, OSError, TypeError):
                pass
        self._previous.clear()

    def let_go(self) -> None:
        """From now on a signal ends the process at once, by the system's default
        action (no Python code runs, so no traceback): for the last moments of the
        program, and once it is stopping anyway (a second signal).  Only where
        :meth:`install` put the handlers (:meth:`uninstall` still puts back the old)."""
        if signal.getsignal(signal.SIGINT) is not self:
            return
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                signal.signal(signum, signal.SIG_DFL)
            except (ValueError, OSError):
                pass


def _uncatchable(frame: "FrameType | None") -> bool:
    """Would an exception raised in ``frame`` be dropped by Python (a finaliser, the
    weakref callback ``cb`` of importlib's module locks)?"""
    if frame is None:
        return False
    code = frame.f_code
    return code.co_name == "__del__" or (code.co_name == "cb"
                                         and code.co_filename.startswith("<frozen importlib"))


class _Deferring:
    """The context of :meth:`Stop.deferred` and :meth:`Stop.immediate`."""

    def __init__(self, stop: Stop, deferring: int) -> None:
        self.stop, self.deferring, self.saved = stop, deferring, 0

    def __enter__(self) -> None:
        stop = self.stop
        self.saved = stop._deferring
        stop.check()
        stop._deferring = self.saved + 1 if self.deferring else 0

    def __exit__(self, *exc: object) -> None:
        self.stop._deferring = self.saved


#: The stop state of the running command.
STOP = Stop()
