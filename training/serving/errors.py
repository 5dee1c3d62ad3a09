"""A refused request: the contract's error code, its HTTP status, and field-level problems."""

from __future__ import annotations

# code -> HTTP status; the codes are SERVING_ERROR_CODES of contracts/deployments/serving.ts.
STATUS = {
    "bad_input": 400,
    "wrong_kind": 404,
    "too_large": 413,
    "overloaded": 429,
    "internal": 500,
    "not_ready": 503,
    "deadline": 504,
}


class ServingError(Exception):
    def __init__(self, code: str, message: str, fields: list[dict] | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        if code not in STATUS:
            raise ValueError(f"unknown serving error code {code!r}")
        self.code = code
        self.message = message
        self.fields = fields
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def body(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.fields:
            error["fields"] = self.fields
        return {"error": error}
