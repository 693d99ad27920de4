// Package v1 is the Go twin of examples/cronjob/api/v1.py: the kubebuilder book's CronJob types,
// field for field and marker for marker as the Python example declares them, so that
// controller-gen's CRD for them is the oracle of `kgen manifests` on the Python example.
// +kubebuilder:object:generate=true
// +groupName=batch.tutorial.kgen.dev
package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupVersion is the group and version of the CronJob kind.
var GroupVersion = schema.GroupVersion{Group: "batch.tutorial.kgen.dev", Version: "v1"}
