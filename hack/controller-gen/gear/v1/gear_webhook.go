package v1

// The webhooks tests/support/manifests/gears.py marks (GearWebhooks), every option of the marker.

// +kubebuilder:webhook:path=/mutate-gears-kgen-dev-v1-gear,mutating=true,failurePolicy=Ignore,sideEffects=NoneOnDryRun,groups=gears.kgen.dev,resources=gears,verbs=CREATE;update;delete,versions=v1,name=mgear.kgen.dev,admissionReviewVersions=v1,timeoutSeconds=5,reinvocationPolicy=ifneeded,matchPolicy=equivalent,serviceName=gears-webhook,serviceNamespace=gears,servicePort=8443

// +kubebuilder:webhook:path=/validate-pods,mutating=false,failurePolicy=fail,sideEffects=None,groups=core,resources=pods,verbs=*,versions=v1,name=vpod.kgen.dev,admissionReviewVersions=v1

// +kubebuilder:webhook:url=https://gears.example.com/validate,mutating=false,failurePolicy=fail,sideEffects=None,groups=gears.kgen.dev,resources=gears,verbs=create;update,versions=v1,name=agear.kgen.dev,admissionReviewVersions=v1
