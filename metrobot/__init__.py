"""metrobot: metro-building board games played asynchronously on Discord."""

# What a version number promises: docs/project/versions.md.
__version__ = "1.1.0"
