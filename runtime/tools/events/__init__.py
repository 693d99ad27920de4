"""client-go's tools/events for Python: ``events.k8s.io/v1`` Events, repeats folded into a
``series`` (``core``: the Event, the series cache and the writes; ``broadcaster``: the
recorders and the thread and asyncio workers that write).

The ``core/v1`` recorder that client-go's controllers and controller-runtime still use is
``kgen.runtime.tools.record``.
"""

from kgen.runtime.tools.events.broadcaster import EVENTS, AsyncEventBroadcaster, EventBroadcaster, EventRecorder
from kgen.runtime.tools.events.core import SeriesCache, make_event, record_steps

__all__ = ["EVENTS", "AsyncEventBroadcaster", "EventBroadcaster", "EventRecorder", "SeriesCache", "make_event",
           "record_steps"]
