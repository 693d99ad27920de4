"""client-go's tools for Python: ``cache`` (reflector, DeltaFIFO, indexer, shared informers,
listers), ``leaderelection`` (Leases) and ``record`` (events). They stand on the transport
(``kgen.runtime.rest``, ``gentype``) and the values (``kgen.runtime.apimachinery``).

See docs/architecture.md for the layers and where this package sits in them.
"""
