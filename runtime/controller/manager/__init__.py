"""controller-runtime's ``pkg/manager``: the Manager on threads (``manager``) and on asyncio
(``async_manager``), its probe and metrics server (``server``) and health probes (``probes``,
``pkg/healthz``).
"""
