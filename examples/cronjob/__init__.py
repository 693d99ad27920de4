"""The kubebuilder CronJob tutorial operator (book.kubebuilder.io/cronjob-tutorial), ported to kgen.

``api/v1.py`` holds the types with kgen's markers; ``config/crd/`` is what ``kgen manifests``
writes for them; ``client/`` is the package ``kgen generate --crd config/crd`` makes from that
CRD (committed, drift-tested by tests/unit/test_example_cronjob_files.py); ``schedule.py`` is the
5-field cron parser; ``controller.py`` the tutorial's reconcile loop on kgen.controller;
``webhook.py`` its defaulter and validator, whose ``@webhook`` markers ``kgen manifests`` writes to
``config/webhook/manifests.yaml``.

Regenerate (from the repository root)::

    kgen manifests --module examples.cronjob.api.v1 --out examples/cronjob/config/crd
    kgen manifests --module examples.cronjob.webhook --out examples/cronjob/config/webhook
    kgen generate --crd examples/cronjob/config/crd --out examples/cronjob --package client
"""
