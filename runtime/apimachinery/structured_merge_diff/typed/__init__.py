"""structured-merge-diff's ``typed`` package: a value read against its schema (``value``) and the
walk that merges two of them (``merge``).
"""
