"""Registry of further subcommands (claims, run, ...); empty until those land."""

COMMANDS: dict = {}


def register(sub, add_network_args, add_output_args) -> None:
    """Add further subcommands to the ``verify`` parser."""
