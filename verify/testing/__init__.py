"""Test doubles the suite and the benchmarks run the engine under (not imported by the engine itself)."""
