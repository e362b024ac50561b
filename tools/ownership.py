"""Who may have written a file we read as configuration: this user only (the user's config, the server's recorded
answers). Standard library only: the stdio front checks its recorded answers before anything else loads."""

from __future__ import annotations

import os
import stat


def untrusted_stat(st: os.stat_result) -> str | None:
    """None when a file with this status may be read as configuration (owned by this user, not writable by group or
    others); else why not. Check ``os.fstat`` of the open file: nothing can swap it between the check and the read."""
    if st.st_uid != os.geteuid():
        return f"is owned by uid {st.st_uid}, not by this user (uid {os.geteuid()})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is writable by other users (chmod go-w it)"
    return None
