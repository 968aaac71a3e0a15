"""Carrying out one company's orders for one round, a step at a time.

The resolution advances every company's cursor in pip order (so contested ferries go to the
company that reaches them first); the order checker runs one cursor alone. A step that cannot be
carried out stops its segment there, with the reason; the company's other segments go on.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm.store.errors import IllegalOrderError

from ..mapdata import ferry_cost
from ..words import count
from ..links import link_key
from .company import Builder, place_name


@dataclass
class Action:
    kind: str          # start, build, ferry or leap
    segment: int
    hex: str | None
    col: int
    ferry: str | None = None
    over: str | None = None
    straight: tuple[str, str] | None = None  # the two places written for a straight run this hex lies on


@dataclass
class Cursor:
    """One company's walk through one round's segments."""

    builder: Builder
    segments: list[dict[str, Any]]
    die: int
    lenient: bool = False  # the checker goes on past a pip overrun to find the other errors
    limit: str = "the die's"  # how messages name ``die``: "the die's 6", "the budget of 10"
    actions: list[Action] = field(default_factory=list)
    i: int = 0
    pip: int = 0
    here: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    stops: list[dict[str, Any]] = field(default_factory=list)
    overrun: dict[str, Any] | None = None
    done_segments: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for n, seg in enumerate(self.segments):
            self.actions.append(Action("start", n, seg.get("start"), seg.get("col", 0)))
            for step in seg.get("steps", []):
                written = step.get("straight")
                self.actions.append(Action(step["kind"], n, step.get("hex"), step.get("col", 0),
                                           ferry=step.get("ferry"), over=step.get("over"),
                                           straight=tuple(written) if written else None))
        self.done_segments = [{"line": seg.get("line"), "start": seg.get("start"), "hexes": [], "pips": 0,
                               "stopped": None} for seg in self.segments]

    @property
    def done(self) -> bool:
        return self.i >= len(self.actions)

    def current(self) -> Action:
        return self.actions[self.i]

    def run(self, denied: str | None = None) -> None:
        """Carry out the current action (``denied``: a reason decided outside, e.g. a lost ferry tie)."""
        action = self.current()
        problem = denied or getattr(self, f"_{action.kind}")(action)
        if problem:
            self._stop(action, problem)
        else:
            self.i += 1

    def run_all(self) -> "Cursor":
        """Carry out every action (the order checker's walk, alone on the map)."""
        while not self.done:
            self.run()
        return self

    def stop_errors(self, file: str) -> list[IllegalOrderError]:
        """Each stopped segment as an order error at its place (an unreadable start is reported already)."""
        return [IllegalOrderError(stop["reason"], line=stop["line"], col=stop["col"], file=file)
                for stop in self.stops if stop["hex"] is not None or stop["kind"] != "start"]

    def _written(self, action: Action) -> str:
        """'; 2027 lies on the straight line you wrote from 2024 to Perth (2227)' for a hex the player
        did not write, or ''."""
        if not action.straight or action.hex == action.straight[1]:
            return ""
        name = lambda label: place_name(self.builder.hexmap, label)  # noqa: E731
        return (f"; {name(action.hex)} lies on the straight line you wrote from {name(action.straight[0])} "
                f"to {name(action.straight[1])}")

    def _stop(self, action: Action, reason: str) -> None:
        reason += self._written(action)
        stop = {"segment": action.segment, "line": self.segments[action.segment].get("line"), "col": action.col,
                "hex": action.hex, "kind": action.kind, "ferry": action.ferry, "reason": reason,
                "from": self.here}
        self.stops.append(stop)
        self.done_segments[action.segment]["stopped"] = stop
        self.i += 1
        while self.i < len(self.actions) and self.actions[self.i].kind != "start":
            self.i += 1

    # ---- the four kinds of action: each returns a problem or None --------------------------
    def _start(self, action: Action) -> str | None:
        self.here = None
        segment = self.segments[action.segment]
        if self.lenient and (segment.get("broken") or action.hex is None):
            self.builder.uncertain = True  # what this segment would have built is unknown
        if action.hex is None:
            return "the segment has no starting point"
        problem = self.builder.start_problem(action.hex)
        if problem is not None and self.lenient and self.builder.uncertain:
            self.builder.hexes.add(action.hex)  # perhaps reached by the unread segment: checked from here on
            problem = None
        if problem is None:
            self.here = action.hex
        return problem

    def _build(self, action: Action) -> str | None:
        here, there = self.here, action.hex
        pips, problem = self.builder.build_problem(here, there)
        if problem:
            return problem
        if self.pip + pips > self.die:
            left = self.die - self.pip
            why = self.builder.explain_pips(here, there)
            message = (f"{place_name(self.builder.hexmap, there)} needs {count(pips, 'pip')}"
                       f"{f' ({why})' if '+' in why else ''} but only {left} of {self.limit} {self.die} "
                       f"{'is' if left == 1 else 'are'} left{self._written(action)}")
            if not self.lenient:
                return message
            if self.overrun is None:
                self.overrun = {"col": action.col, "line": self.segments[action.segment].get("line"),
                                "message": message}
            new = self.builder.add_link(here, there)
            self.builder.tentative.add(link_key(here, there))  # past the die: may be ordered again
            self.pip += pips
            self._record(action, "build", here, there, pips, new)
            return None
        new = self.builder.add_link(here, there)
        self.pip += pips
        self._record(action, "build", here, there, pips, new)
        return None

    def _ferry(self, action: Action) -> str | None:
        ferry = self.builder.hexmap.ferry(action.ferry or "")
        if ferry is None:
            return f"there is no ferry {action.ferry}"
        problem = self.builder.ferry_problem(self.here, ferry)
        if problem:
            return problem
        built = self.builder.ferry_owner.get(ferry.id) != self.builder.player
        other = ferry.ends[1] if self.here == ferry.ends[0] else ferry.ends[0]
        new = self.builder.add_ferry(ferry, self.here)
        self._record(action, "ferry" if built else "ferry crossing", self.here, other, 0, new, ferry=ferry.id,
                     cost=ferry_cost(ferry) if built else 0)
        return None

    def _leap(self, action: Action) -> str | None:
        rival, problem = self.builder.leap_problem(self.here, action.hex, action.over)
        if problem:
            return problem
        new = self.builder.add_leap(rival, action.hex)
        self._record(action, "leap", self.here, action.hex, 0, new, over=rival)
        return None

    def _record(self, action: Action, kind: str, a: str, b: str, pips: int, new: bool, **extra: Any) -> None:
        step = {"kind": kind, "from": a, "to": b, "pips": pips, "pip": self.pip, "new_hex": new,
                "segment": action.segment, "col": action.col, **extra}
        self.steps.append(step)
        seg = self.done_segments[action.segment]
        seg["hexes"].append(b)
        seg["pips"] += pips
        self.here = b
