"""The ``coloretto`` command line."""
