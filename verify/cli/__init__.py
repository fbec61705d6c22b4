"""The ``verify`` command line: argument parsing, one function per subcommand, one error path."""
