"""Progress lines (issue 21, part 6): a spinner and the elapsed time until a computation's total is
known, then done/total and the elapsed time; never "?/s", never a rate or a time left for steps of
unequal cost; silent when stderr is closed. And the executor's workers die on SIGTERM."""

import io
import re
import signal
import sys

from verify.sweeps.progress import SPINNER, Progress


def drawn(progress: Progress) -> str:
    progress.bar.refresh()
    return progress.stream.getvalue().replace("\r", "\n")


def test_a_computation_spins_until_its_total_is_known_then_counts_without_a_time_left():
    progress = Progress("reduced route", True, stream=io.StringIO())
    progress.refresh()
    text = drawn(progress)
    assert re.search(r"reduced route: [|/\\-] 00:00 elapsed", text), text
    progress(1, 5)
    text = drawn(progress)
    assert "reduced route: 1/5 blocks, 00:00 elapsed" in text, text
    for unwanted in ("?", "/s", "<", "it]", "0block"):
        assert unwanted not in text, (unwanted, text)
    progress(5, 5)
    assert progress.bar is None  # closed at the end


def test_the_spinner_turns_at_every_refresh():
    progress = Progress("probe-n", True, stream=io.StringIO(), unit="N step")
    frames = []
    for _ in range(len(SPINNER)):
        progress.refresh()
        frames.append(progress.bar.desc[-1])
    assert sorted(frames) == sorted(SPINNER)
    progress(2, 20)
    assert "2/20 N steps" in drawn(progress)
    progress.close()


def test_no_progress_when_stderr_is_closed(monkeypatch):
    monkeypatch.setattr(sys, "stderr", None)
    progress = Progress("reduced route", True)
    assert not progress.enabled and progress.bar is None
    progress(1, 2)
    progress(2, 2)


def test_a_worker_ends_on_sigterm_whatever_the_parent_installed():
    from verify.sweeps.executor import _init_worker

    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    try:
        for number in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, lambda *a: None)  # the command line's handler, inherited by a fork
        _init_worker(1)
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_log_gets_seldom_plain_lines_and_a_terminal_keeps_its_redrawn_bar(monkeypatch):
    """stderr that is no terminal (a CI log): no carriage return, and 60 steps in 1.2 s give at most a
    first and a last line (at most one line every PLAIN_SECONDS), the last saying 60/60; a terminal
    still gets the bar redrawn in place."""
    import time

    monkeypatch.setenv("COLUMNS", "100")  # CI services set it; the stream is still no terminal
    log = io.StringIO()
    progress = Progress("claims", True, stream=log, unit="claim")
    progress.bar.delay = 0
    for done in range(1, 61):  # 1.2 s: past tqdm's own 0.5 s between redraws
        time.sleep(0.02)
        progress(done, 60)
    text = log.getvalue()
    assert "\r" not in text and 1 <= len(text.splitlines()) <= 2, repr(text)
    assert text.splitlines()[-1].startswith("claims: 60/60 claims"), repr(text)
    screen = _Terminal()
    progress = Progress("claims", True, stream=screen, unit="claim")
    progress.bar.delay = 0
    progress(1, 2)
    time.sleep(0.6)  # past tqdm's mininterval on a terminal
    progress(2, 2)
    assert "\r" in screen.getvalue()


def test_a_log_line_is_whole_with_its_elapsed_and_remaining_time(monkeypatch):
    """Issue 48.5: where stderr is no terminal, a sweep's progress line is not cut at 80 columns: it ends
    with the elapsed time and the time left, whatever ``$COLUMNS`` says."""
    import time

    from verify.sweeps.progress import SweepProgress

    monkeypatch.setenv("COLUMNS", "40")
    log = io.StringIO()
    progress = SweepProgress("table (a label long enough to push the line past eighty columns)", True, stream=log)
    progress.start(100.0, 0.0, 12, 0)
    progress.bar.delay = 0
    progress.advance(10.0)
    time.sleep(0.6)
    progress.advance(20.0)
    progress.close()
    last = log.getvalue().splitlines()[-1]
    assert len(last) > 80, last
    import re

    assert re.search(r"30% of the estimated work, \d\d:\d\d elapsed, about \d\d:\d\d left$", last), last
