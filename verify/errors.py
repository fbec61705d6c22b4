"""The one exception the command line turns into a one-line message and exit status 2."""

__all__ = ["InputError"]


class InputError(ValueError):
    """Bad input: the message names the problem and the fix, on one line.

    The command line prints ``verify: error: <message>`` and exits with status 2; library
    callers get an ordinary ``ValueError`` subclass.
    """
