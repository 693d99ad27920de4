"""client-go's util for Python: ``flowcontrol`` (token bucket), ``retry`` (conflict retries),
``workqueue`` and ``paths`` (kgen's cache folders). Values only below them; no transport.

See docs/architecture.md for the layers and where this package sits in them.
"""
