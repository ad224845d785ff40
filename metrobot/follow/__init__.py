"""What waits for a person and what they follow: `/games` and nudges (listing.py), DMs to a game's followers (following.py)."""
