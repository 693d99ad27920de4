"""kgen's benchmark against lightkube and the official client: ``make bench`` (see run.py)."""
