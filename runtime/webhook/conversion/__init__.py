"""CRD conversion webhooks (controller-runtime's ``pkg/webhook/conversion``): typed
``ConversionReview`` models and the ``ConversionWebhook`` endpoint that converts custom
resources between versions with registered typed functions.

    conversion = ConversionWebhook()
    conversion.register(WidgetV1, WidgetV2, v1_to_v2)
    conversion.register(WidgetV2, WidgetV1, v2_to_v1)
    server.register("/convert", conversion)
"""

from kgen.runtime.webhook.conversion.review import ConversionRequest, ConversionResponse, ConversionReview
from kgen.runtime.webhook.conversion.webhook import ConversionError, ConversionWebhook

__all__ = ["ConversionError", "ConversionRequest", "ConversionResponse", "ConversionReview", "ConversionWebhook"]
