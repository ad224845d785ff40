"""What the web pages show: a game's page (webgame.py), a server's and a person's (webindex.py). The routes are the web front end's (metrobot/web/)."""
