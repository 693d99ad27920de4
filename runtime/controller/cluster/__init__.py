"""controller-runtime's ``pkg/cluster``: what a manager holds of the cluster: the informer cache
(``cache``, ``pkg/cache``), the client reading from it (``client``, ``pkg/client``), each also on
asyncio, and the scheme and REST mapping (``scheme``).
"""
