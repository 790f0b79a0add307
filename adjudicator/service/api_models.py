"""The shapes of the service's JSON API (pydantic models): what FastAPI validates
and what the OpenAPI description at /openapi.json documents."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from adjudicator.referee.referee import GAME_ID
from adjudicator.service.core import POLICIES


def zone_or_none(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


class Problem(BaseModel):
    """Every 4xx/5xx answer of the API."""

    detail: str
    code: str | None = None


class GameSummary(BaseModel):
    id: str
    title: str
    game: str
    scenario: str
    tournament: str | None
    status: str = Field(description="active, paused, over or forfeited")
    next_seq: int = Field(description="the step the game waits for")
    acting_side: str | None = Field(description="whose step it is; null when over")
    deadline_utc: datetime | None


class PlayerOut(BaseModel):
    side: str
    name: str
    timezone: str
    deadline_local: str | None = Field(description="the deadline in the player's time zone")


class LogEntry(BaseModel):
    at: datetime
    what: str


class SubmissionOut(BaseModel):
    seq: int | None
    outcome: str
    received_at: datetime
    channel: str


class GameDetail(GameSummary):
    policy: str
    deadline_hours: int
    players: list[PlayerOut]
    log: list[LogEntry]
    submissions: list[SubmissionOut]


class VerdictOut(BaseModel):
    submission_id: int
    outcome: str = Field(description="accepted, rejected, decision, refused or invalid")
    game_id: str | None = Field(description="the game the file names")
    seq: int | None
    side: str | None
    summary: str
    text: str
    duplicate: bool = Field(description="the same bytes came before; this is their answer")
    same_game: bool = Field(description="the file names the game it was sent to")
    note: str | None = Field(description="what to know beyond the verdict, e.g. a game mismatch")


class ReportList(BaseModel):
    game_id: str
    side: str
    seqs: list[int] = Field(description="the steps whose report is rendered, oldest first")


class ReportOut(BaseModel):
    game_id: str
    seq: int
    side: str
    html: str = Field(description="the whole report, a self-contained HTML document")


class PlayerIn(BaseModel):
    side: str = Field(min_length=1, max_length=32)
    name: str = Field(min_length=1, max_length=200)
    email: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")
    public_key: str = Field(min_length=1, max_length=10_000, description="SPKI PEM")
    timezone: str = Field("UTC", max_length=64, description="an IANA zone, e.g. Europe/Berlin")

    @field_validator("timezone")
    @classmethod
    def known_zone(cls, value: str) -> str:
        if zone_or_none(value) is None:
            raise ValueError(f"unknown time zone {value!r}")
        return value


def validation_words(exc: ValidationError) -> str:
    """A pydantic error as one sentence a referee reads (the CLI and the API say the
    same): which field, and what is wrong with it."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ()))
        message = str(error.get("msg", "not valid")).removeprefix("Value error, ")
        if error.get("type") == "string_pattern_mismatch" and where.endswith("email"):
            message = f"{error.get('input')!r} is not an e-mail address"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


class CreateGameIn(BaseModel):
    game: str = Field(max_length=32, description="the game package, e.g. solitaire")
    scenario: str = Field(max_length=64)
    roster: list[PlayerIn] = Field(min_length=1, max_length=16)
    game_id: str | None = Field(None, pattern=GAME_ID.pattern)
    deadline_hours: int = Field(72, ge=1, le=24 * 365)
    policy: str = Field("wait", description=f"missed deadline: {', '.join(POLICIES)}")
    tournament: str | None = Field(None, max_length=128)
    options: dict[str, str] | None = None

    @model_validator(mode="after")
    def distinct_players(self) -> CreateGameIn:
        sides = [p.side for p in self.roster]
        if len(set(sides)) != len(sides):
            raise ValueError("each side may be named only once in the roster")
        keys = [p.public_key.strip() for p in self.roster]
        if len(set(keys)) != len(keys):
            raise ValueError("two sides have the same public key: each player needs a key "
                             "of their own (pbem keygen), or the signature cannot say whose "
                             "orders a file holds")
        return self


class CreatedGameOut(BaseModel):
    game_id: str
    links: dict[str, str] = Field(description="side -> the player's secret report link")


class ExtendIn(BaseModel):
    hours: int = Field(ge=1, le=24 * 365)


class SchemeIn(BaseModel):
    scheme: str = Field(min_length=1, max_length=200,
                        description="win=W,draw=D,loss=L[,major=M,minor=N], or series")


class RollbackIn(BaseModel):
    to_seq: int = Field(ge=0, description="the step whose position the game resumes from")
    reason: str = Field(min_length=1, max_length=2000,
                        description="why: the journal and the players are told")


# -- the order builder (docs/order-builder.md) -------------------------------------------

XML_NAME = r"^[A-Za-z_][A-Za-z0-9._-]{0,63}$"  # an element or attribute name of an order


class OrderIn(BaseModel):
    """One order of a draft: the engine's Order as JSON."""

    model_config = {"extra": "forbid"}

    kind: str = Field(pattern=XML_NAME, description="the element name, e.g. move")
    attrs: dict[str, str] = Field(default_factory=dict, max_length=32)
    text: str = Field("", max_length=1000)

    @field_validator("attrs")
    @classmethod
    def attribute_names(cls, value: dict[str, str]) -> dict[str, str]:
        import re

        for name, text in value.items():
            if not re.fullmatch(XML_NAME, name):
                raise ValueError(f"{name[:64]!r} is not an attribute name")
            if len(text) > 4000:
                raise ValueError(f"the value of {name} is longer than any order needs")
        return value


class CheckIn(BaseModel):
    model_config = {"extra": "forbid"}

    orders: list[OrderIn] = Field(max_length=500)


class ListingIn(CheckIn):
    """`POST .../api/listing`: the listing of the position a draft leaves (one unit's)."""

    unit: str | None = Field(default=None, max_length=64)


class ComposeIn(CheckIn):
    entropy: str = Field(pattern=r"^(?:[0-9a-f]{2}){16,64}$",
                         description="16 to 64 bytes from the browser's CSPRNG, lowercase hex")


# -- small helpers ----------------------------------------------------------------------


