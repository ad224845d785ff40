"""A server's standings: history, leaderboards, profiles (standings.py); the ratings themselves are the core's (service/rating.py)."""
