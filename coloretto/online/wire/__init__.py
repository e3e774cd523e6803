"""The protocol both ends speak: requests and messages declared once (``protocol``,
``messages``, ``public``), and what they name: accounts' keys, names, clocks."""
