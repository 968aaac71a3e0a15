"""The error hierarchy: every error a person can cause is a GMError with a one-line message."""
from __future__ import annotations


def located(file: str, line: int | None, col: int | None, message: str, default: str) -> str:
    """'FILE:LINE:COL: message', with what is known of the place."""
    where = file or default
    if line is not None:
        where += f":{line}"
        if col is not None:
            where += f":{col}"
    return f"{where}: {message}"


MAX_ERRORS = 50  # one reply lists this many errors of a file, then "and N more"


def located_lines(errors: list, limit: int = MAX_ERRORS) -> list[str]:
    """Errors (OrderError or MapError) sorted by place, as one located line each; past ``limit`` a
    last line names where the rest begin: "FILE:LINE: and 12 more errors from line LINE on"."""
    errors = sorted(errors, key=lambda e: (e.line or 0, e.col or 0))
    out = [e.located() for e in errors[:limit]]
    rest = errors[limit:]
    if rest:
        first = rest[0]
        more = f"and {len(rest):,} more error{'s' if len(rest) != 1 else ''}"
        message = f"{more} from line {first.line} on; fix the ones above and check again" if first.line else more
        out.append(located(first.file, first.line, None, message, "<orders>"))
    return out


class GMError(Exception):
    """An error to show a person as one line; ``exit_code`` is 1 for bad input, 2 for usage/config."""

    exit_code = 2

    def __str__(self) -> str:  # one line, always
        return " ".join(str(self.args[0]).split()) if self.args else self.__class__.__name__


class UsageError(GMError):
    """The command was called wrongly (unknown game, option, player...)."""

    exit_code = 2


class CampaignError(GMError):
    """The campaign folder is missing, corrupt or locked."""

    exit_code = 2


class LockedError(CampaignError):
    """Another gm process holds the campaign's lock."""


class InputError(GMError):
    """The input was wrong (bad orders, failed verify, failed case): exit 1."""

    exit_code = 1


class OrderError(InputError, ValueError):
    """One error in an order file, located at file:line:col (1-based)."""

    def __init__(self, message: str, *, line: int | None = None, col: int | None = None,
                 text: str = "", file: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.text = text
        self.file = file

    def located(self) -> str:
        return located(self.file, self.line, self.col, self.message, "<orders>")

    def __str__(self) -> str:
        return self.located()


class OrderSyntaxError(OrderError):
    """The line does not read as an order."""


class IllegalOrderError(OrderError):
    """The order reads fine but breaks a rule in this position."""


class AmbiguousOrderError(OrderError):
    """A name matches more than one thing."""


class OrderErrors(InputError):
    """All the errors of one order file, reported together."""

    def __init__(self, errors: list[OrderError]):
        super().__init__(f"{len(errors)} error(s)")
        self.errors = list(errors)

    def lines(self, limit: int = MAX_ERRORS) -> list[str]:
        return located_lines(self.errors, limit)

    def __str__(self) -> str:
        return "\n".join(self.lines())


class MapError(InputError):
    """A map file is wrong; like OrderError it names file:line:col where it can."""

    def __init__(self, message: str, *, file: str = "", line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.message, self.file, self.line, self.col = message, file, line, col

    def located(self) -> str:
        return located(self.file, self.line, self.col, self.message, "<map>")

    def __str__(self) -> str:
        return self.located()


class MapErrors(InputError):
    """Every error found in one map file."""

    def __init__(self, errors: list[MapError]):
        super().__init__(f"{len(errors)} map error(s)")
        self.errors = list(errors)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


_OS_WORDS = {
    "ENOSPC": "the disk is full (no space left on device); free some space and run again — "
              "nothing half-written was kept",
    "EDQUOT": "the disk quota is used up; free some space and run again — nothing half-written was kept",
    "EROFS": "cannot write: the file system is read-only",
    "EACCES": "cannot read or write it: permission denied",
    "EPERM": "cannot read or write it: operation not permitted",
    "EISDIR": "is a folder where gm expects a file; move it aside",
    "ENOTDIR": "a file stands where gm expects a folder; move it aside",
    "ENAMETOOLONG": "the name is too long",
    "ELOOP": "is a symbolic link; gm does not follow it here",
    "EIO": "the disk reports an input/output error",
}


def os_error_line(exc: OSError) -> str:
    """One line for a fault of the disk or of a file, naming the file as a person knows it: a
    temporary file (.NAME.xxxx.tmp) or a turn's staging folder (.NNN.staged) by the file it
    stands for."""
    import errno
    import os
    import re
    name = exc.filename if exc.filename is not None else exc.filename2
    code = errno.errorcode.get(exc.errno or 0, "")
    what = _OS_WORDS.get(code) or (exc.strerror or str(exc)).lower()
    if name is None:
        return f"{what} ({exc.strerror or exc})"
    path = os.fsdecode(name)
    path = re.sub(r"/\.([^/]+)\.[^./]+\.tmp$", r"/\1", path)     # atomic_write's temporary file
    path = re.sub(r"/\.([^/]+)\.staged(?=/|$)", r"/\1", path)     # a turn being written whole
    if len(path) > 200:
        path = path[:120] + "…" + path[-40:]
    return f"{path}: {what}"
