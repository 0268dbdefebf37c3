"""companion: the core of a table companion for three superhero board games.

The core imports the standard library only; adapters (vision, hardware, web) import it.
"""

__version__ = "0.1.0"
