"""apimachinery's ``pkg/util/strategicpatch``: strategic merge patch, applied and computed (two-way
and three-way).
"""
