"""Coloretto in a web browser: textual-serve runs one game process per visitor.

Needs the ``web`` extra (``pip install "coloretto[web]"``); ``coloretto web`` serves it.
"""
