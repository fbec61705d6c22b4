import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=12,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=12, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Results go to a throwaway store, never to the user's cache (subprocesses inherit this).
if "VERIFY_STORE" not in os.environ or not os.environ["VERIFY_STORE"].startswith(os.path.realpath("/tmp")):
    import tempfile

    os.environ["VERIFY_STORE"] = os.path.join(tempfile.mkdtemp(prefix="verify-test-store-"), "results.sqlite")
