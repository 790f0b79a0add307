"""Procedures that stop for a decision and resume from the answer (docs/architecture.md, The engine
model;
docs/architecture.md, "The game kit").

A rules procedure that may need a side's choice half-way (an attack: defensive air, an
exchange loss, a retreat path) is written once, as named steps. A step that needs a
choice asks for it (`ask`), which opens a decision request naming the step and stops
the step runner; the request's context is everything the rest of the procedure needs.
The answer comes back in the side's next file: the engine finds the procedure the
request belongs to, lets the step that asked take the answer (`Step.resume`) and runs
the rest of the procedure as it would have run. No game writes the rest of a procedure
a second time for the case that it was interrupted.

Two shapes:

- `Procedure`: steps in a fixed order (1941's attack); each step decides from the
  context whether it applies, and the steps after the one that asked run after it;
- `TaskQueue`: the work left is data in the context, a queue of tasks that steps may
  add to or reorder (a combat where a loss adds retreats and an owner's "later"
  puts a retreat at the end); while a task runs it is the queue's head.

A request names the step it resumes by its context's `step`, or by its `kind` when the
context has none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.decisions import DecisionRequest

if TYPE_CHECKING:
    from adjudicator.engine.step import StepContext

Context = dict[str, Any]
Run = Callable[["StepContext", Context], "Context | None"]
Resume = Callable[["StepContext", Context, str], "Context | None"]


def ask(ctx: StepContext, side: str, kind: str, rule: str, options: Sequence[str],
        context: Mapping[str, Any]) -> None:
    """Open a decision request for `side` and stop the step until it answers; never
    returns. `context` is stored as it is given: the step that resumes reads it."""
    from adjudicator.engine.step import next_decision_id, request_decision

    request_decision(ctx, DecisionRequest(next_decision_id(ctx.state), side, kind, rule,
                                          list(options), dict(context)))


def resume_key(request: Mapping[str, Any]) -> str:
    """The step a pending request resumes: its context's `step`, else its kind."""
    return str(request.get("context", {}).get("step") or request["kind"])


@dataclass(frozen=True)
class Step:
    """One named step: `run` does it (and may `ask`), `resume` takes the answer to what
    it asked and finishes the step. Both return the context for what follows (None:
    unchanged)."""

    name: str
    run: Run
    resume: Resume | None = None


@dataclass(frozen=True)
class Procedure:
    """Steps in a fixed order."""

    name: str
    steps: tuple[Step, ...]

    def __post_init__(self) -> None:
        names = [s.name for s in self.steps]
        if len(set(names)) != len(names):
            raise ValueError(f"procedure {self.name} names a step twice: {names}")

    @property
    def resumes(self) -> frozenset[str]:
        """The steps that take answers."""
        return frozenset(s.name for s in self.steps if s.resume is not None)

    def run(self, ctx: StepContext, context: Context, *, after: str | None = None) -> Context:
        """Run the steps from the first (or from the one after `after`)."""
        start = 0 if after is None else self._index(after) + 1
        for step in self.steps[start:]:
            context = step.run(ctx, context) or context
        return context

    def resume(self, ctx: StepContext, context: Context, step: str, choice: str) -> Context:
        """The step that asked takes `choice`; the rest of the procedure follows."""
        done = self.steps[self._index(step)].resume
        if done is None:
            raise ValueError(f"step {step} of {self.name} asks nothing")
        context = done(ctx, context, choice) or context
        return self.run(ctx, context, after=step)

    def _index(self, name: str) -> int:
        for i, step in enumerate(self.steps):
            if step.name == name:
                return i
        raise KeyError(f"procedure {self.name} has no step {name!r}")


TaskRun = Callable[["StepContext", Context, Context], Context]
TaskResume = Callable[["StepContext", Context, Context, str], Context]


@dataclass(frozen=True)
class Task:
    """A kind of task of a `TaskQueue`. `run(ctx, context, task)` and `resume(ctx,
    context, task, choice)` are called with the task at the head of the queue and
    return the context to go on with, its queue holding what is left to do (usually the
    queue without its head: `rest`)."""

    name: str
    run: TaskRun
    resume: TaskResume | None = None


def rest(context: Context, key: str = "queue") -> Context:
    """The context with the head of its queue done."""
    return {**context, key: context[key][1:]}


@dataclass(frozen=True)
class TaskQueue:
    """A procedure whose remaining work is a queue of tasks in the context."""

    name: str
    tasks: Mapping[str, Task]
    finish: Callable[[StepContext, Context], None] | None = None
    key: str = "queue"

    @property
    def resumes(self) -> frozenset[str]:
        return frozenset(t.name for t in self.tasks.values() if t.resume is not None)

    def run(self, ctx: StepContext, context: Context) -> Context:
        """Do the tasks until the queue is empty, then `finish`."""
        while context[self.key]:
            task = context[self.key][0]
            context = self.tasks[task["task"]].run(ctx, context, task)
        if self.finish is not None:
            self.finish(ctx, context)
        return context

    def resume(self, ctx: StepContext, context: Context, step: str, choice: str) -> Context:
        """The task at the head of the queue takes `choice`; the queue goes on."""
        task = context[self.key][0]
        done = self.tasks[task["task"]].resume
        if done is None:
            raise ValueError(f"task {task['task']} of {self.name} asks nothing")
        return self.run(ctx, done(ctx, context, task, choice))


Resumable = Procedure | TaskQueue


@dataclass(frozen=True)
class Resumer:
    """Which procedure each step that asks belongs to, for the answers of a game; a
    step a procedure handles before it has a queue (air placed on defence before a
    combat starts) maps to a plain `Step` function of its own."""

    procedures: tuple[Resumable, ...] = ()
    extra: Mapping[str, Callable[[StepContext, Context, str], None]] = field(
        default_factory=dict)

    def resume(self, ctx: StepContext, request: Mapping[str, Any], choice: str) -> None:
        """Resume whatever the answered `request` interrupted."""
        key = resume_key(request)
        context = dict(request.get("context", {}))
        if key in self.extra:
            self.extra[key](ctx, context, choice)
            return
        for procedure in self.procedures:
            if key in procedure.resumes:
                procedure.resume(ctx, context, key, choice)
                return
        raise KeyError(f"nothing resumes a {key!r} answer")
