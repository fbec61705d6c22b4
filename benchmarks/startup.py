"""What a refusal by the parser costs, paired with importing numpy and FLINT (issue 50.5: at most 2.5x).

Each round runs, in fresh interpreters one after the other on the same machine, (a) ``python -c "import
numpy, flint"``, the floor any run of the engine pays, and (b) the console script on a refusal by the
parser (``verify sep --depth 0 --width 2``, exit 2), and (c) ``verify recheck`` on a small table export
(tests/recheck/data/table.json), recording the wall time of each.  It prints the median of each and the
median of the paired ratios b/a and c/a.  Measure with nothing else running: the two cores of a shared
machine make every figure noisy.
Run: python benchmarks/startup.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from verify.cli.script_args import ScriptParser, run_script  # one-line refusals, exit 2, as the verify command

ROOT = Path(__file__).resolve().parent.parent


def wall(command: list[str], status: int) -> float:
    """Seconds ``command`` takes in a fresh process; it must end with ``status``."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    seconds = time.perf_counter() - start
    if done.returncode != status:
        sys.exit(f"startup.py: error: {' '.join(command[-4:])} exited {done.returncode}, expected {status}: "
                 f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    return seconds


def main() -> int:
    parser = ScriptParser(prog="startup.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15, help="paired rounds, 3 to 1000 (default 15)")
    args = parser.parse_args()
    if not 3 <= args.rounds <= 1000:
        parser.error(f"--rounds must be from 3 to 1000, got {args.rounds}")
    script = shutil.which("verify", path=str(Path(sys.executable).parent)) or shutil.which("verify")
    if script is None:
        parser.error("no verify console script next to this Python; install the project (pip install -e .)")
    floor = [sys.executable, "-c", "import numpy, flint"]
    refusal = [script, "sep", "--depth", "0", "--width", "2"]
    recheck = [script, "recheck", str(ROOT / "tests" / "recheck" / "data" / "table.json"), "--quiet"]
    wall(floor, 0), wall(refusal, 2), wall(recheck, 0)  # warm the file cache once
    rows = [(wall(floor, 0), wall(refusal, 2), wall(recheck, 0)) for _ in range(args.rounds)]
    a, b, c = (statistics.median(column) for column in zip(*rows, strict=True))
    print(f"{args.rounds} paired rounds, medians: import numpy, flint {a:.3f} s; parser refusal "
          f"(verify sep --depth 0) {b:.3f} s; verify recheck of a small table {c:.3f} s")
    print(f"median paired ratio: refusal / import {statistics.median(r[1] / r[0] for r in rows):.2f}x "
          f"(target at most 2.5x); recheck / import {statistics.median(r[2] / r[0] for r in rows):.2f}x")
    return 0


if __name__ == "__main__":
    run_script(main, "startup.py")
