"""sigs.k8s.io/structured-merge-diff: field sets (``fieldpath``), the schema (``schema``), typed
values and their merge (``typed``), and apply's merge with conflicts (``merge``).
"""
