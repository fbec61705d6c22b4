"""The package version, in one place: results stores key on it."""

__version__ = "0.2.0"
