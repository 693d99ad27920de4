"""The CronJob API types (the tutorial's api/v1), marked for ``kgen manifests``."""
