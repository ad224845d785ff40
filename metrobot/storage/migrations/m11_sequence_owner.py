"""11: the numbers results are recorded in (`results_seq`, PostgreSQL) belong to
`results.seq`, so that a copy into PostgreSQL (`migrate`, `storage/transfer.py`) finds
which values the sequence must pass, as it does for every serial id. SQLite numbers
results from the rows themselves: nothing to change there."""

SQLITE = ""

POSTGRES = """
ALTER SEQUENCE results_seq OWNED BY results.seq
"""
