"""Progress lines on stderr for long computations (silent under --json or --quiet)."""

from __future__ import annotations

import sys
import time

__all__ = ["Progress", "SweepProgress"]


class Progress:
    """Callable ``(done, total)`` that prints ``label: done/total, elapsed`` at most twice a second,
    and nothing at all for work that finishes within a second.

    On a terminal the line is rewritten in place; otherwise one line is printed per update.
    """

    def __init__(self, label: str, enabled: bool = True, stream=None, unit: str = "block"):
        self.label, self.enabled, self.unit = label, enabled, unit
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()
        self._last = 0.0
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.start < 1.0 and not self._shown:
            return  # short work prints nothing
        if done < total and now - self._last < 0.5:
            return
        self._shown = True
        self._last = now
        elapsed = now - self.start
        line = f"{self.label}: {self.unit} {done} of {total}, elapsed {elapsed:.1f}s"
        if done and done < total:
            line += f", about {elapsed / done * (total - done):.0f}s left"
        self._emit(line, done >= total)

    def _emit(self, line: str, final: bool) -> None:
        tty = getattr(self.stream, "isatty", lambda: False)()
        end = "\n" if final or not tty else ""
        print(("\r" if tty else "") + line.ljust(78), end=end, file=self.stream, flush=True)


class SweepProgress(Progress):
    """``label: done/total (reused from the store), rate, time left`` for a sweep; the rate and the
    time left count only the results computed, not those read from the store."""

    def __init__(self, label: str, enabled: bool = True, stream=None):
        super().__init__(label, enabled, stream, unit="result")

    def __call__(self, done: int, total: int, reused: int = 0, computed: int = 0) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < 1.0 and not self._shown:
            return  # a sweep that finishes within a second prints nothing
        self._shown = True
        rate = computed / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else None
        line = (f"{self.label}: {done}/{total} done ({reused} from the store), "
                f"{rate * 60:.1f} computed/min, elapsed {elapsed:.0f}s"
                + (f", about {left:.0f}s left" if left is not None and done < total else ""))
        self._emit(line, done >= total)
