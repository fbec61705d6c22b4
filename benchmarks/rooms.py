"""Rooms visited by a command: the ``verify`` modules its call passes through, in order, and how
often it drops back into ``verify.cli`` once it has left it (issue 23: a thin command line calls
the engine once and never comes back until the result).

Counted from the command's handler on (building the parser is left out), on a second call so that
import-time work is not counted.  Run: python benchmarks/rooms.py [verify arguments]
(default: sep --depth 2 --width 2 --json).
"""

from __future__ import annotations

import contextlib
import io
import sys


def rooms(argv: list[str]) -> tuple[list[str], int]:
    from verify.cli.main import main

    seq: list[str] = []
    started = []

    def profile(frame, event, arg):
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not started:
            # the handler: cmd_<name> in the old layout, run() of a command module in the new one
            name = frame.f_code.co_name
            if module.startswith("verify.cli") and (name.startswith("cmd_") or (
                    name == "run" and not module.endswith(("faults", "main")))):
                started.append(True)
            else:
                return
        if module.startswith("verify") and (not seq or seq[-1] != module):
            seq.append(module)

    with contextlib.redirect_stdout(io.StringIO()):
        if main(argv) == 2:  # warm: imports happen here; a refused command line was said in one line on stderr
            raise SystemExit(2)
        sys.setprofile(profile)
        try:
            main(argv)
        finally:
            sys.setprofile(None)
    in_cli = [m.startswith("verify.cli") for m in seq]
    first_out = next((i for i, c in enumerate(in_cli) if not c), len(seq))
    drops = sum(1 for i in range(first_out + 1, len(seq)) if in_cli[i] and not in_cli[i - 1])
    return list(dict.fromkeys(seq)), drops


if __name__ == "__main__":
    visited, drops = rooms(sys.argv[1:] or ["sep", "--depth", "2", "--width", "2", "--json"])
    print(f"{len(visited)} rooms; {drops} drops back into verify/cli/")
    print(" ".join(visited))
