"""The package version, in one place: results stores key on it."""

__version__ = "0.3.0"
