"""CRD conversion webhooks (controller-runtime's ``pkg/webhook/conversion``): typed
``ConversionReview`` models and the ``ConversionWebhook`` endpoint that converts custom
resources between versions with registered typed functions.

    conversion = ConversionWebhook()
    conversion.register(WidgetV1, WidgetV2, v1_to_v2)
    conversion.register(WidgetV2, WidgetV1, v2_to_v1)
    server.register("/convert", conversion)

or controller-runtime's hub-and-spoke form (hub.py): ``class WidgetV2(Model, Hub)``, each other
version ``Convertible`` (``convert_to()``, ``convert_from(hub)``), and
``conversion.register_hub_and_spokes(WidgetV1, WidgetV2, WidgetV3)``.
"""

from kgen.runtime.webhook.conversion.hub import (
    Convertible,
    Hub,
    PartialImplementationError,
    hub_and_spokes,
    is_convertible,
    is_hub,
)
from kgen.runtime.webhook.conversion.review import ConversionRequest, ConversionResponse, ConversionReview
from kgen.runtime.webhook.conversion.webhook import ConversionError, ConversionWebhook

__all__ = [
    "ConversionError", "ConversionRequest", "ConversionResponse", "ConversionReview", "ConversionWebhook", "Convertible",
    "Hub", "PartialImplementationError", "hub_and_spokes", "is_convertible", "is_hub",
]
