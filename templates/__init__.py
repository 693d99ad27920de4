"""Jinja2 templates, one per emitted artifact kind (package data)."""
