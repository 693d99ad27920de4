// Package v1 is the Go twin of tests/support/manifests/gears.py's GearV1 (the storage version):
// the markers `kgen manifests` writes as controller-gen does (one-of rules, title, example, short
// names given on one version only, a float field under allowDangerousTypes), for
// tests/integration/test_manifests_vs_controller_gen.py.
// +groupName=gears.kgen.dev
package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Endpoint is where a gear is reached.
type Endpoint struct {
	// The host name.
	// +kubebuilder:example="example.com"
	Host string `json:"host"`
	// The port.
	// +optional
	Port *int32 `json:"port,omitempty"`
}

// GearSpec is what the user asks of a Gear.
// +kubebuilder:validation:ExactlyOneOf=http;https
// +kubebuilder:validation:AtLeastOneOf=email;phone
// +kubebuilder:validation:XValidation:rule="!has(self.size) || self.size >= 0",message="size is not negative"
// +kubebuilder:validation:AtMostOneOf=configMapRef;secretRef
// +kubebuilder:title="The gear's spec"
type GearSpec struct {
	// The size of the gear, in gear units; a long description cut by crd:maxDescLen. It goes on. And on, for a while yet.
	// +kubebuilder:title=Size
	// +kubebuilder:example=3
	// +optional
	Size *int32 `json:"size,omitempty"`
	// A count.
	// +optional
	Count *int64 `json:"count,omitempty"`
	// A ratio, a float.
	// +optional
	Ratio *float64 `json:"ratio,omitempty"`
	// Labels to put on what the gear makes.
	// +kubebuilder:example={"team":"a"}
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// Plain HTTP.
	// +optional
	HTTP *Endpoint `json:"http,omitempty"`
	// HTTP over TLS.
	// +optional
	HTTPS *Endpoint `json:"https,omitempty"`
	// A ConfigMap to read settings from.
	// +optional
	ConfigMapRef *corev1.LocalObjectReference `json:"configMapRef,omitempty"`
	// A Secret to read settings from.
	// +optional
	SecretRef *corev1.LocalObjectReference `json:"secretRef,omitempty"`
	// Whom to mail.
	// +optional
	Email *string `json:"email,omitempty"`
	// Whom to call.
	// +optional
	Phone *string `json:"phone,omitempty"`
	// Where the gear's pods go.
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
}

// Gear is a thing with markers.
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:resource:shortName=gr;grs,categories=all
type Gear struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// +required
	Spec GearSpec `json:"spec"`
}
