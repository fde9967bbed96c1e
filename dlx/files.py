"""Files that last: regular files only, written atomically, sealed with a digest.

What dlx writes for later (a checkpoint, its solutions' stream, a ZDD's text file)
is evidence, not memory: a reader believes none of it before it has checked it.

* **Sealed.**  The contents end with one line, ``end sha256 <64 hex digits>``: the
  SHA-256 of everything before it.  :func:`unseal` checks that line and the digest
  before a byte is believed; a file changed anywhere, or cut short (the end line is
  then missing or cut), is refused with one line naming it (:class:`FileError`).
* **Atomic.**  :func:`write_atomically` writes a temporary file in the same folder,
  flushes it, ``fsync``-s it and renames it over the old one: a reader sees the old
  file or the new one, never half of one.
* **Regular files only.**  :func:`kind` looks at a path before anything is opened (a
  missing folder, a directory, a FIFO, a device are refused with one line), and
  :func:`read_regular` opens with ``O_NONBLOCK`` and checks what it opened: a FIFO
  never blocks the reader, a link to ``/dev/zero`` is never read on.

>>> data = seal(b"hello\\n")
>>> data[:6], data.endswith(b"\\n"), unseal(data, "greeting.txt")
(b'hello\\n', True, b'hello\\n')
>>> unseal(data.replace(b"hello", b"jello"), "greeting.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dlx.files.FileError: greeting.txt was changed or damaged: its contents do not match ...
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Callable
from typing import IO

from .errors import ExactCoverError

__all__ = ["FileError", "END", "seal", "unseal", "end_line", "kind", "read_regular",
           "open_regular", "write_atomically", "sweep"]

#: The start of the last line of a sealed file (then the hex digest and a line feed).
END = b"end sha256 "

#: Opening a FIFO for reading with this flag returns at once (POSIX; 0 elsewhere).
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)

_END_LINE = re.compile(rb"end sha256 ([0-9a-f]{64})\r?\n?")


class FileError(ExactCoverError):
    """A file that cannot be believed or used: changed, damaged or cut short since it was
    written, or not a regular file (a directory, a FIFO, a device), or in a missing
    folder.  The message names the file."""


def end_line(digest: str) -> bytes:
    """The last line of a sealed file whose contents before it have SHA-256 ``digest``."""
    return END + digest.encode("ascii") + b"\n"


def seal(payload: bytes) -> bytes:
    """``payload`` and the end line that seals it (``payload`` ends with a line feed, or
    gets one)."""
    if payload and not payload.endswith(b"\n"):
        payload += b"\n"
    return payload + end_line(hashlib.sha256(payload).hexdigest())


def unseal(data: bytes, name: str) -> bytes:
    """The contents of the sealed file ``data`` (without its end line), once its digest
    is checked; :class:`FileError` naming the file ``name`` otherwise."""
    cut = data.rfind(b"\n", 0, len(data) - 1) + 1       # where the last line starts
    found = _END_LINE.fullmatch(data, cut)
    if found is None:
        why = "it is empty" if not data else (
            "its last line is cut short" if data[cut:].startswith(END[:3]) else
            "it does not end with its digest line (it was cut short, or not written whole)")
        raise FileError(f"{name} was changed or damaged: {why}")
    payload = data[:cut]
    if hashlib.sha256(payload).hexdigest() != found.group(1).decode("ascii"):
        raise FileError(f"{name} was changed or damaged: its contents do not match the"
                        " digest on its last line")
    return payload


def _kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (a named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def kind(path: str, what: str) -> os.stat_result | None:
    """Look at ``path`` before it is read or written: its ``stat`` when it is a regular
    file (a link to one counts as one), None when it does not exist in a folder that
    does; :class:`FileError` for anything else (``what`` names it: ``"checkpoint"``)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.islink(path):
            raise FileError(f"{what} {path} is a link to nothing") from None
        if not os.path.isdir(folder):
            raise FileError(f"{what} {path}: its folder {folder} does not exist") from None
        return None
    except NotADirectoryError:
        raise FileError(f"{what} {path}: a part of its path is not a folder") from None
    except OSError as e:
        raise FileError(f"{what} {path}: {e.strerror or e}") from None
    if not stat.S_ISREG(info.st_mode):
        raise FileError(f"{what} {path} is {_kind_of(info.st_mode)}, not a regular file")
    return info


def open_regular(path: str, what: str, flags: int = os.O_RDONLY, mode: int = 0o666
                 ) -> int | None:
    """A descriptor of ``path`` opened with ``flags`` (never blocking on a FIFO: a FIFO,
    a device, a directory is refused once open), or None when it does not exist (and
    ``flags`` does not create it)."""
    kind(path, what)
    try:
        fd = os.open(path, flags | _NONBLOCK | getattr(os, "O_CLOEXEC", 0), mode)
    except FileNotFoundError:
        if flags & os.O_CREAT:
            raise FileError(f"{what} {path}: its folder does not exist") from None
        return None
    except OSError as e:
        raise FileError(f"cannot open {what} {path}: {e.strerror or e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileError(f"{what} {path} is {_kind_of(info.st_mode)}, not a regular file")
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str, what: str) -> bytes | None:
    """The bytes of the regular file ``path`` (None when it does not exist)."""
    fd = open_regular(path, what)
    if fd is None:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            return f.read()
    except OSError as e:
        raise FileError(f"cannot read {what} {path}: {e.strerror or e}") from None


def write_atomically(path: str, data: bytes | Callable[[IO[bytes]], None],
                     what: str = "file") -> None:
    """Write ``data`` (bytes, or a function writing to a binary file) to ``path`` so that a
    reader sees the old file or the new one whole: a temporary file in the same folder,
    flushed and fsync-ed, renamed over it (a link is followed: its target is
    replaced)."""
    import tempfile

    kind(path, what)
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise FileError(f"cannot write {what} {path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        d = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(d)                     # the rename itself, on disk
    except OSError:
        pass
    finally:
        os.close(d)


def sweep(path: str) -> None:
    """Remove the temporary files of writes to ``path`` that a kill cut short."""
    folder, name = os.path.split(os.path.realpath(path))
    try:
        leftovers = [f for f in os.listdir(folder)
                     if f.startswith(f".{name}.") and f.endswith(".tmp")]
    except OSError:
        return
    for f in leftovers:
        try:
            os.unlink(os.path.join(folder, f))
        except OSError:
            pass
