"""client-go's tools/record for Python: an EventRecorder with client-go's correlator.

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.tools.record.event import EventCorrelator, EventRecorder, ObjectRef

__all__ = ["EventCorrelator", "EventRecorder", "ObjectRef"]
