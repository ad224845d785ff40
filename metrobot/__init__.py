"""metrobot: metro-building board games played asynchronously on Discord."""

__version__ = "0.1.0"
