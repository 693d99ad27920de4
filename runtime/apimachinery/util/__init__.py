"""apimachinery's ``pkg/util``: strategic merge patch, managed fields (server-side apply) and
resourceVersion comparison.
"""
