"""Controller patterns beyond controller-runtime's core: create-or-update helpers, diffs, per-object timers and daemons, retry limits."""
