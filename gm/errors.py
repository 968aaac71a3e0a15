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

    def lines(self) -> list[str]:
        return [e.located() for e in self.errors]

    def __str__(self) -> str:
        return "\n".join(self.lines())


class MapError(InputError):
    """A map file is wrong; like OrderError it names file:line:col where it can."""

    def __init__(self, message: str, *, file: str = "", line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.message, self.file, self.line, self.col = message, file, line, col

    def __str__(self) -> str:
        return located(self.file, self.line, self.col, self.message, "<map>")


class MapErrors(InputError):
    """Every error found in one map file."""

    def __init__(self, errors: list[MapError]):
        super().__init__(f"{len(errors)} map error(s)")
        self.errors = list(errors)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
