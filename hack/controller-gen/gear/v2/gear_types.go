// Package v2 is the Go twin of tests/support/manifests/gears.py's GearV2: a served version
// that gives no +kubebuilder:resource marker (the short names are given once, on v1).
// +groupName=gears.kgen.dev
package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GearSpec is what the user asks of a Gear.
type GearSpec struct {
	// The size of the gear.
	// +optional
	Size *int64 `json:"size,omitempty"`
}

// Gear is a thing with markers.
// +kubebuilder:object:root=true
type Gear struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +required
	Spec GearSpec `json:"spec"`
}
