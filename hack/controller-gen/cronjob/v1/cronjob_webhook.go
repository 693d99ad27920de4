package v1

// The webhooks of examples/cronjob/webhook.py, as the kubebuilder book's cronjob_webhook.go marks
// them (its paths are controller-runtime's for this group, which the Python markers leave to
// their default).

// +kubebuilder:webhook:path=/mutate-batch-tutorial-kgen-dev-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kgen.dev,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1

// +kubebuilder:webhook:path=/validate-batch-tutorial-kgen-dev-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kgen.dev,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1
