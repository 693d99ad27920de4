"""client-go's util for Python: ``flowcontrol`` (token bucket), ``retry`` (conflict retries),
``workqueue``, ``paths`` (kgen's cache folders) and ``extras`` (the error naming a missing
kgen-runtime extra). Values only below them; no transport.

See docs/architecture.md for the layers and where this package sits in them.
"""
