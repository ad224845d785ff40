"""Tournaments and leagues: a capability on the service layer. The pure part (`model`,
`pairing`, `scoring`) names no game and does no I/O; the director runs rounds through the
game service and storage, and says what to post."""
