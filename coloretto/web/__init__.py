"""Coloretto in a web browser: textual-serve runs one game process per visitor.

Needs the ``web`` extra (``pip install ".[web]"`` in the checkout); ``coloretto web`` serves it.
"""
