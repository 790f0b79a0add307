"""The project's closed catalogue of errors.

Two families, kept apart as in a Diplomacy adjudicator: *invalid* input is not
understood (bad bytes, bad XML, a schema violation, a bad signature); an
*illegal* order is understood but not allowed by a rule. Every error carries a
short code and words a player can read; none of them is ever shown as a
traceback.
"""

from __future__ import annotations


class PbemError(ValueError):
    """Base of every error the project raises on purpose."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class InvalidInput(PbemError):
    """Input that is not understood: not XML, too large, schema-invalid."""

    code = "invalid-input"


class SignatureError(InvalidInput):
    """A signature that is missing, malformed, or does not verify."""

    code = "bad-signature"


class KeyFileError(PbemError):
    """A key file that cannot be read (wrong format, wrong passphrase)."""

    code = "bad-key"


class StaleSubmission(PbemError):
    """A well-signed file addressed to another game, step, side or commitment."""

    code = "stale"


class ModuleError(PbemError):
    """Game module data that does not load or does not validate."""

    code = "bad-module"


class JournalError(PbemError):
    """A journal or game directory that cannot be read or is inconsistent; `line` is
    the journal line at fault, when there is one."""

    code = "bad-journal"

    def __init__(self, message: str, *, code: str | None = None, line: int | None = None) -> None:
        super().__init__(message, code=code)
        self.line = line


class IllegalOrder(PbemError):
    """An order the rules do not allow, with the rule that forbids it.

    `index` (0-based position among the game orders) and `line` (XML source
    line) are filled in by the step runner, which knows where the order came
    from.
    """

    code = "illegal"

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        code: str = "illegal",
        index: int | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(message, code=code)
        self.rule = rule
        self.index = index
        self.line = line

    def as_record(self) -> dict[str, object]:
        """The rejection record kept in the journal and shown in reports."""
        return {
            "index": self.index,
            "line": self.line,
            "rule": self.rule,
            "code": self.code,
            "message": self.message,
        }
