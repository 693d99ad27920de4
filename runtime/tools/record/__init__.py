"""client-go's tools/record for Python: an EventRecorder with client-go's correlator."""

from kgen.runtime.tools.record.event import EventCorrelator, EventRecorder, ObjectRef

__all__ = ["EventCorrelator", "EventRecorder", "ObjectRef"]
