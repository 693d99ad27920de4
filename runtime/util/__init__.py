"""client-go's util for Python: ``flowcontrol`` (token bucket), ``retry`` (conflict retries),
``workqueue``, ``paths`` (kgen's cache folders), ``extras`` (the error naming a missing
kgen-runtime extra) and ``loop_thread`` (an asyncio loop in a thread of its own, for the sync
flavours that run asyncio code). Values only below them; no transport.

See docs/architecture.md for the layers and where this package sits in them.
"""
