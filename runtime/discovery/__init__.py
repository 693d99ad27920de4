"""client-go's discovery and restmapper for Python: what the server serves, and kind <-> resource.

``discovery_client`` reads aggregated discovery (``apidiscovery.k8s.io/v2``) with the legacy
``/api`` + ``/apis`` fallback, cached on disk like kubectl's; ``restmapper`` maps kinds to
resources and back (client-go's DeferredDiscoveryRESTMapper).

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.discovery.discovery_client import (
    AGGREGATED_ACCEPT,
    APIGroup,
    APIResource,
    Discovered,
    DiscoveryClient,
    default_cache_dir,
    parse_aggregated,
    parse_legacy_resources,
)
from kgen.runtime.discovery.restmapper import Ambiguous, NoMatch, RESTMapper

__all__ = [
    "AGGREGATED_ACCEPT", "APIGroup", "APIResource", "Ambiguous", "Discovered", "DiscoveryClient", "NoMatch",
    "RESTMapper", "default_cache_dir", "parse_aggregated", "parse_legacy_resources",
]
