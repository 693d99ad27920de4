"""An in-memory apiserver for users' unit tests: the generated fake clientsets stand on it."""

from kgen.runtime.fake.tracker import ObjectTracker

__all__ = ["ObjectTracker"]
