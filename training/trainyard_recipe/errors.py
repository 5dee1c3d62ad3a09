"""Errors a recipe job raises to choose its exit code (see runner.run_recipe).

BadInput -> exit 2 (the user's input or data is at fault, with a stable `code`).
Stopped  -> exit 130 (SIGTERM asked the job to stop). It derives from BaseException so a
            recipe's broad `except Exception` around library calls cannot swallow a stop.
"""

from __future__ import annotations

from typing import Any


class BadInput(Exception):
    """The input or the data cannot be used; `code` is stable, `message` is for people."""

    def __init__(self, message: str, code: str = "bad_input", details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def to_error(self) -> dict[str, Any]:
        error: dict[str, Any] = {"type": "BadInput", "code": self.code, "message": self.message}
        if self.details:
            error["details"] = self.details
        return error


class Stopped(BaseException):
    """Raised by the SIGTERM handler that run_recipe installs."""

    def __init__(self, message: str = "stopped by SIGTERM"):
        super().__init__(message)
        self.message = message
