"""A person across all their servers: their settings, language, quiet hours and time away (people.py) and their digest of the games waiting for them (reminders.py)."""
