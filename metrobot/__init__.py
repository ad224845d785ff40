"""metrobot: metro-building board games played asynchronously on Discord."""

# What a version number promises: docs/project/versions.md. Between releases `main` is the next
# release's number with `.dev0` (PEP 440: older than that release, newer than every one before),
# so a checkout of `main` never claims to be the release whose database it has outgrown.
__version__ = "1.2.0.dev0"
