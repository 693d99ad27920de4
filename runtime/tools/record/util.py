"""client-go's tools/record/util: the event type check and the generated Event names."""

from __future__ import annotations

import re
import uuid

from kgen.runtime.apimachinery.errors import ApiError

EVENT_TYPE_NORMAL = "Normal"
"""The type of an event about normal operation."""
EVENT_TYPE_WARNING = "Warning"
"""The type of an event about something that may need attention."""

_DNS1123_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
_DNS1123_SUBDOMAIN_MAX_LENGTH = 253


def validate_event_type(event_type: str) -> bool:
    """Whether ``event_type`` is Normal or Warning."""
    return event_type in (EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING)


def is_key_not_found_error(error: object) -> bool:
    """Whether ``error`` is a 404 from the server."""
    return isinstance(error, ApiError) and error.code == 404


def generate_event_name(ref_name: str, unix_nano: int) -> str:
    """``<name>.<nanoseconds in hex>``, or a random UUID when that is no valid object name (an
    involved object's name need not be a DNS subdomain; kubernetes/kubernetes#127594)."""
    name = f"{ref_name}.{unix_nano:x}"
    if len(name) > _DNS1123_SUBDOMAIN_MAX_LENGTH or not _DNS1123_SUBDOMAIN.fullmatch(name):
        return str(uuid.uuid4())
    return name
