"""Progress bars on stderr (tqdm) for long computations; silent under --json or --quiet, or when
stderr is closed.

A single computation (the blocks of a rank, the rows of a certificate's matrix, the N of a probe)
shows a spinner and the elapsed time until its total is known, then "k/n blocks" and the elapsed
time; it gives no rate and no time left, because its steps differ in cost by orders of magnitude
(one degree block dominates a rank).  A sweep counts work, each task weighted by its estimated
cost, so the time left follows the work still to do rather than the number of tasks.  Nothing
shows for work that ends within a second, and a bar is redrawn at least every ``REFRESH_SECONDS``
while a long step runs.  Where stderr is no terminal (a CI log, a file), there is no bar redrawn
with carriage returns: plain lines, at most one every ``PLAIN_SECONDS``, and the last state at the end.
"""

from __future__ import annotations

import sys
import threading
import weakref
from typing import TYPE_CHECKING

from tqdm import tqdm

if TYPE_CHECKING:
    from typing import NoReturn, TextIO

__all__ = ["Progress", "SweepProgress", "REFRESH_SECONDS", "PLAIN_SECONDS", "close_all"]

#: A running bar is redrawn at least this often (elapsed time keeps moving during one long step).
REFRESH_SECONDS = 2.0
#: Bars appear only for work still running after this many seconds.
DELAY_SECONDS = 1.0
#: Where stderr is no terminal: one plain progress line at most this often (a CI log stays readable).
PLAIN_SECONDS = 15.0


_OPEN: "weakref.WeakSet[_Bar]" = weakref.WeakSet()


def _columns(stream) -> int | None:
    """The width of the terminal ``stream`` draws on (``$COLUMNS`` first), None when it is no terminal."""
    import os

    if os.environ.get("COLUMNS", "").strip().isdigit():
        return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(stream.fileno()).columns if stream.isatty() else None
    except (AttributeError, OSError, ValueError):
        return None


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


class _Stream:
    """What tqdm writes to: the real stream, and

    - ``plain`` (a terminal of 0 columns, where a bar redrawn with carriage returns shows nothing):
      each redraw becomes a plain line of its own;
    - it remembers whether the cursor is left after a drawn bar, so closing ends that line and an
      error line printed next never sticks to it (logs, where tqdm's own close may write nothing);
    - a stream that fails (a full disk, a closed pipe) drops the progress, never the command's output.
    """

    def __init__(self, stream, plain: bool) -> None:
        self.stream, self.plain, self.open_line, self.broken = stream, plain, False, False
        self.last = None  # the last plain line: the same state is not written twice

    def write(self, text: str) -> None:
        if self.broken or not text:
            return
        if self.plain:
            lines = [line.strip() for line in text.replace("\r", "\n").split("\n")]
            lines = [line for line in lines if line and line != self.last]
            self.last = lines[-1] if lines else self.last
            text = "".join(line + "\n" for line in lines)
        else:
            tail = text.replace("\r", "\n").rsplit("\n", 1)[-1]
            self.open_line = bool(tail.strip()) or (self.open_line and "\n" not in text and "\r" not in text)
        try:
            self.stream.write(text)
        except (OSError, ValueError):
            self.broken = True

    def flush(self) -> None:
        if not self.broken:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.broken = True

    def end_line(self) -> None:
        """End a line a bar left open (after tqdm's close)."""
        if self.open_line:
            self.open_line = False
            self.write("\n")
            self.flush()

    def __getattr__(self, name: str):  # fileno, isatty, encoding: the real stream's
        return getattr(self.stream, name)


def close_all() -> None:
    """Close every bar still open (the command line calls this before it prints an error line)."""
    for bar in list(_OPEN):
        bar.close()


class _Bar:
    """A lazily opened tqdm bar with a daemon thread that redraws it every few seconds."""

    stream: TextIO | None  # sys.stderr is None where the process has none
    bar: tqdm[NoReturn] | None  # a bar with a total and no iterable (tqdm's own typing)
    label: str
    enabled: bool
    unit: str
    bar_format: str | None

    def __init__(self, label: str, enabled: bool, stream: TextIO | None, unit: str,
                 bar_format: str | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.label, self.enabled, self.unit = label, enabled and self.stream is not None, unit
        self.bar_format = bar_format
        self.bar = None
        self._stop = threading.Event()

    def open(self, total: float, initial: float = 0) -> None:
        if not self.enabled or self.bar is not None:
            return
        columns = _columns(self.stream)
        # no terminal (a log keeps every \r redraw), or no room to redraw a bar: plain lines, seldom
        plain = columns is None or columns < 20 or not _is_terminal(self.stream)
        self._out = _Stream(self.stream, plain)
        self._interval = PLAIN_SECONDS if plain else REFRESH_SECONDS
        self.bar = tqdm(total=total, initial=initial, desc=self.label, unit=self.unit, file=self._out,
                        delay=DELAY_SECONDS, mininterval=PLAIN_SECONDS if plain else 0.5, dynamic_ncols=not plain,
                        leave=True, ncols=None, bar_format=self.bar_format)  # plain: no width, so a log
        # line is never cut (tqdm trims a line to ncols: at 80 the elapsed and remaining time were lost)
        _OPEN.add(self)
        threading.Thread(target=self._tick, daemon=True).start()

    def _tick(self) -> None:
        wait = REFRESH_SECONDS  # the first redraw soon (a log learns the work is alive), then every interval
        while not self._stop.wait(wait):
            wait = self._interval
            if self.bar is None:
                return
            try:
                self.refresh()
            except (ValueError, OSError, AttributeError):  # stream closed, or the bar closed under us
                return

    def refresh(self) -> None:
        bar = self.bar
        if bar is not None:
            bar.refresh()

    def close(self) -> None:
        self._stop.set()
        _OPEN.discard(self)
        if self.bar is not None:
            try:
                bar = self.bar
                if self._out.plain and bar._time() - bar.start_t >= bar.delay:  # a log gets the last state
                    bar.refresh()
                bar.close()
            except (ValueError, OSError):  # pragma: no cover - stream closed
                pass
            self._out.end_line()
            self.bar = None


#: The frames of the spinner shown while a computation's total is not yet known (ASCII: any locale).
SPINNER = "|/-\\"


class Progress(_Bar):
    """Callable ``(done, total)`` for one long computation, drawn as a tqdm line on stderr.

    The line opens at construction with a spinner and the elapsed time (drawn after a second,
    redrawn every few seconds, so a long first step still shows it is alive); from the first call it
    counts ``done/total`` steps, with no rate and no time left (the steps differ in cost).  It closes
    itself when ``done`` reaches ``total``; a later call opens a new one; ``close()`` ends it early.
    """

    SPINNING = "{desc} {elapsed} elapsed"
    COUNTING = "{desc}: {n_fmt}/{total_fmt} {unit}s, {elapsed} elapsed"
    bar_format: str | None  # SPINNING, then COUNTING from the first step

    def __init__(self, label: str, enabled: bool = True, stream: TextIO | None = None, unit: str = "block") -> None:
        super().__init__(label, enabled, stream, unit, bar_format=self.SPINNING)
        self._frame = 0
        self.open(None)  # shows the elapsed time from the start, even before the first step ends

    def refresh(self) -> None:
        bar = self.bar
        if bar is not None:
            if bar.total is None:  # still spinning
                self._frame = (self._frame + 1) % len(SPINNER)
                bar.set_description_str(f"{self.label}: {SPINNER[self._frame]}", refresh=False)
            else:
                bar.set_description_str(self.label, refresh=False)
            bar.refresh()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        self.bar_format = self.COUNTING
        self.open(total)
        if self.bar is None:
            return
        if self.bar.total != total or self.bar.bar_format != self.COUNTING:
            self.bar.total = total
            self.bar.bar_format = self.COUNTING
            self.bar.set_description_str(self.label, refresh=False)
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.close()


class SweepProgress(_Bar):
    """Progress of a sweep, weighted by each task's estimated cost.

    ``start(total_cost, reused_cost, tasks, reused)`` opens the bar (the results read from the store
    count as done but not into the rate); ``advance(cost)`` adds a computed task.  As a plain
    callable ``(done, total, reused, computed)`` it counts tasks (all of cost 1).
    """

    def __init__(self, label: str, enabled: bool = True, stream: TextIO | None = None) -> None:
        super().__init__(label, enabled, stream, unit="work",
                         bar_format="{desc} |{bar}| {percentage:3.0f}% of the estimated work, {elapsed} elapsed"
                                    "{postfix}")
        self.tasks: int = 0
        self.reused: int = 0
        self.computed: int = 0
        self._initial = 0.0

    def start(self, total_cost: float, reused_cost: float, tasks: int, reused: int) -> None:
        self.tasks, self.reused, self._initial = tasks, reused, reused_cost
        self.open(max(total_cost, 1e-9), reused_cost)
        self._postfix()

    def _postfix(self) -> None:
        """Counts in the description; the time left, once a result has arrived, from the work done per
        second (the results read from the store do not count)."""
        bar = self.bar
        if bar is None:
            return
        bar.set_description_str(f"{self.label}: {self.reused + self.computed}/{self.tasks} results "
                                f"({self.reused} from the store)", refresh=False)
        elapsed = bar.format_dict["elapsed"]
        done = bar.n - self._initial
        if done > 0 and elapsed > 0:
            left = (bar.total - bar.n) / (done / elapsed)
            bar.set_postfix_str(f"about {tqdm.format_interval(left)} left", refresh=False)

    def refresh(self) -> None:
        if self.bar is not None:
            self._postfix()
            self.bar.refresh()

    def advance(self, cost: float) -> None:
        self.computed += 1
        if self.bar is not None:
            self._postfix()
            self.bar.update(cost)

    def __call__(self, done: int, total: int, reused: int = 0, computed: int = 0) -> None:
        if self.bar is None:
            self.start(total, reused, total, reused)
        while self.computed < computed:
            self.advance(1.0)
        if done >= total:
            self.close()
