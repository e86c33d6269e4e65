"""The one translation pipeline every front end calls (placeholder; filled in the next commits)."""
