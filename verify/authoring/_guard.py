from typing import Any

"""The guard every module of the authoring surface runs as it loads: its public names are exactly its
``__all__`` (a name that is not listed cannot be imported from it)."""

#: The namespaces of the surface beside its vocabulary (``verify.authoring``): its submodules.
NAMESPACES = ("network", "ranks", "constructions", "probe")


def check_exports(module: str, listed: list[Any], public: set[Any]) -> None:
    """Raise AssertionError where ``listed`` (``__all__``) and ``public`` (the defined names) differ."""
    if set(listed) != public or len(listed) != len(public):
        raise AssertionError(f"authoring surface {module}: listed, not defined {sorted(set(listed) - public)}; "
                             f"defined, not listed {sorted(public - set(listed))}")
