"""controller-runtime's ``pkg/cluster``: what a manager holds of the cluster: the informer cache
(``cache``, ``pkg/cache``), the client reading from it (``client``, ``pkg/client``), each also on
asyncio, and the scheme and REST mapping (``scheme``). Behind the cache: ``options`` (what it holds
of each kind: ``cache.Options``/``ByObject``), ``informers`` (one kind's informers, by namespace,
full or metadata-only, and reads from them) and ``field_index`` (``IndexField`` and lists by field).
"""
