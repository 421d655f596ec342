"""The ``cardarena`` command line."""
