// Package v1 carries, as fields of one CRD's spec, the k8s.io/api types a CRD commonly embeds:
// controller-gen's schema of each (run by hack/controller-gen/k8s_schemas.py) is the data
// `kgen manifests` writes for the same types (generator/manifests/k8s_schemas.py). A field is named
// after the type's module in a kgen-generated package and its class: "<group>.<version>.<Kind>".
// Add a type here and run the script again to give it controller-gen's schema.
// +groupName=carrier.kgen.dev
package v1

import (
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CarrierSpec holds one field per type.
type CarrierSpec struct {
	CoreV1Affinity                           corev1.Affinity                           `json:"core.v1.Affinity"`
	CoreV1ConfigMapKeySelector               corev1.ConfigMapKeySelector               `json:"core.v1.ConfigMapKeySelector"`
	CoreV1ConfigMapVolumeSource              corev1.ConfigMapVolumeSource              `json:"core.v1.ConfigMapVolumeSource"`
	CoreV1Container                          corev1.Container                          `json:"core.v1.Container"`
	CoreV1ContainerPort                      corev1.ContainerPort                      `json:"core.v1.ContainerPort"`
	CoreV1EnvFromSource                      corev1.EnvFromSource                      `json:"core.v1.EnvFromSource"`
	CoreV1EnvVar                             corev1.EnvVar                             `json:"core.v1.EnvVar"`
	CoreV1EphemeralContainer                 corev1.EphemeralContainer                 `json:"core.v1.EphemeralContainer"`
	CoreV1ExecAction                         corev1.ExecAction                         `json:"core.v1.ExecAction"`
	CoreV1HostAlias                          corev1.HostAlias                          `json:"core.v1.HostAlias"`
	CoreV1HTTPGetAction                      corev1.HTTPGetAction                      `json:"core.v1.HTTPGetAction"`
	CoreV1KeyToPath                          corev1.KeyToPath                          `json:"core.v1.KeyToPath"`
	CoreV1Lifecycle                          corev1.Lifecycle                          `json:"core.v1.Lifecycle"`
	CoreV1LocalObjectReference               corev1.LocalObjectReference               `json:"core.v1.LocalObjectReference"`
	CoreV1NodeSelector                       corev1.NodeSelector                       `json:"core.v1.NodeSelector"`
	CoreV1ObjectReference                    corev1.ObjectReference                    `json:"core.v1.ObjectReference"`
	CoreV1PersistentVolumeClaim              corev1.PersistentVolumeClaim              `json:"core.v1.PersistentVolumeClaim"`
	CoreV1PersistentVolumeClaimSpec          corev1.PersistentVolumeClaimSpec          `json:"core.v1.PersistentVolumeClaimSpec"`
	CoreV1PersistentVolumeClaimTemplate      corev1.PersistentVolumeClaimTemplate      `json:"core.v1.PersistentVolumeClaimTemplate"`
	CoreV1PodAffinity                        corev1.PodAffinity                        `json:"core.v1.PodAffinity"`
	CoreV1PodAntiAffinity                    corev1.PodAntiAffinity                    `json:"core.v1.PodAntiAffinity"`
	CoreV1PodDNSConfig                       corev1.PodDNSConfig                       `json:"core.v1.PodDNSConfig"`
	CoreV1PodSecurityContext                 corev1.PodSecurityContext                 `json:"core.v1.PodSecurityContext"`
	CoreV1PodSpec                            corev1.PodSpec                            `json:"core.v1.PodSpec"`
	CoreV1PodTemplateSpec                    corev1.PodTemplateSpec                    `json:"core.v1.PodTemplateSpec"`
	CoreV1Probe                              corev1.Probe                              `json:"core.v1.Probe"`
	CoreV1ResourceRequirements               corev1.ResourceRequirements               `json:"core.v1.ResourceRequirements"`
	CoreV1SecretKeySelector                  corev1.SecretKeySelector                  `json:"core.v1.SecretKeySelector"`
	CoreV1SecretReference                    corev1.SecretReference                    `json:"core.v1.SecretReference"`
	CoreV1SecretVolumeSource                 corev1.SecretVolumeSource                 `json:"core.v1.SecretVolumeSource"`
	CoreV1SecurityContext                    corev1.SecurityContext                    `json:"core.v1.SecurityContext"`
	CoreV1ServicePort                        corev1.ServicePort                        `json:"core.v1.ServicePort"`
	CoreV1ServiceSpec                        corev1.ServiceSpec                        `json:"core.v1.ServiceSpec"`
	CoreV1Taint                              corev1.Taint                              `json:"core.v1.Taint"`
	CoreV1Toleration                         corev1.Toleration                         `json:"core.v1.Toleration"`
	CoreV1TopologySpreadConstraint           corev1.TopologySpreadConstraint           `json:"core.v1.TopologySpreadConstraint"`
	CoreV1TypedLocalObjectReference          corev1.TypedLocalObjectReference          `json:"core.v1.TypedLocalObjectReference"`
	CoreV1TypedObjectReference               corev1.TypedObjectReference               `json:"core.v1.TypedObjectReference"`
	CoreV1Volume                             corev1.Volume                             `json:"core.v1.Volume"`
	CoreV1VolumeMount                        corev1.VolumeMount                        `json:"core.v1.VolumeMount"`
	CoreV1WeightedPodAffinityTerm            corev1.WeightedPodAffinityTerm            `json:"core.v1.WeightedPodAffinityTerm"`
	AppsV1DaemonSetSpec                      appsv1.DaemonSetSpec                      `json:"apps.v1.DaemonSetSpec"`
	AppsV1DeploymentSpec                     appsv1.DeploymentSpec                     `json:"apps.v1.DeploymentSpec"`
	AppsV1DeploymentStrategy                 appsv1.DeploymentStrategy                 `json:"apps.v1.DeploymentStrategy"`
	AppsV1StatefulSetSpec                    appsv1.StatefulSetSpec                    `json:"apps.v1.StatefulSetSpec"`
	BatchV1CronJobSpec                       batchv1.CronJobSpec                       `json:"batch.v1.CronJobSpec"`
	BatchV1JobSpec                           batchv1.JobSpec                           `json:"batch.v1.JobSpec"`
	BatchV1JobTemplateSpec                   batchv1.JobTemplateSpec                   `json:"batch.v1.JobTemplateSpec"`
	NetworkingV1IngressBackend               networkingv1.IngressBackend               `json:"networking.v1.IngressBackend"`
	NetworkingV1IngressRule                  networkingv1.IngressRule                  `json:"networking.v1.IngressRule"`
	NetworkingV1IngressSpec                  networkingv1.IngressSpec                  `json:"networking.v1.IngressSpec"`
	NetworkingV1IngressTLS                   networkingv1.IngressTLS                   `json:"networking.v1.IngressTLS"`
	NetworkingV1NetworkPolicySpec            networkingv1.NetworkPolicySpec            `json:"networking.v1.NetworkPolicySpec"`
	RbacV1PolicyRule                         rbacv1.PolicyRule                         `json:"rbac.v1.PolicyRule"`
	RbacV1RoleRef                            rbacv1.RoleRef                            `json:"rbac.v1.RoleRef"`
	RbacV1Subject                            rbacv1.Subject                            `json:"rbac.v1.Subject"`
	AutoscalingV2HorizontalPodAutoscalerSpec autoscalingv2.HorizontalPodAutoscalerSpec `json:"autoscaling.v2.HorizontalPodAutoscalerSpec"`
	AutoscalingV2MetricSpec                  autoscalingv2.MetricSpec                  `json:"autoscaling.v2.MetricSpec"`
	PolicyV1PodDisruptionBudgetSpec          policyv1.PodDisruptionBudgetSpec          `json:"policy.v1.PodDisruptionBudgetSpec"`
	MetaV1LabelSelector                      metav1.LabelSelector                      `json:"meta.v1.LabelSelector"`
	MetaV1LabelSelectorRequirement           metav1.LabelSelectorRequirement           `json:"meta.v1.LabelSelectorRequirement"`
	MetaV1OwnerReference                     metav1.OwnerReference                     `json:"meta.v1.OwnerReference"`
}

// Carrier is the root type the types are carried by.
// +kubebuilder:object:root=true
type Carrier struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CarrierSpec `json:"spec"`
}
