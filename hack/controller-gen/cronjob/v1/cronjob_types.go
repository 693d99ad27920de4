package v1

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ConcurrencyPolicy describes how the job will be handled.
// +kubebuilder:validation:Enum=Allow;Forbid;Replace
type ConcurrencyPolicy string

// CronJobSpec is what the user asks of a CronJob.
type CronJobSpec struct {
	// The schedule in Cron format (five fields: minute hour day-of-month month day-of-week).
	// +kubebuilder:validation:MinLength=0
	// +required
	Schedule string `json:"schedule"`

	// Deadline in seconds for starting the job if it misses its scheduled time; missed jobs past
	// it count as failed.
	// +kubebuilder:validation:Minimum=0
	// +optional
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`

	// How to treat concurrent executions of a Job: Allow, Forbid (skip the new run) or Replace
	// (delete the running Jobs first).
	// +optional
	// +kubebuilder:default:=Allow
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`

	// Tells the controller to suspend subsequent executions; running ones are left alone.
	// +optional
	Suspend *bool `json:"suspend,omitempty"`

	// The Job created at each scheduled time.
	// +required
	JobTemplate batchv1.JobTemplateSpec `json:"jobTemplate"`

	// How many finished successful Jobs to keep.
	// +kubebuilder:validation:Minimum=0
	// +optional
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`

	// How many finished failed Jobs to keep.
	// +kubebuilder:validation:Minimum=0
	// +optional
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// CronJobStatus is what the controller observed.
type CronJobStatus struct {
	// The Jobs currently running.
	// +optional
	Active []corev1.ObjectReference `json:"active,omitempty"`

	// When a Job was last successfully scheduled.
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`

	// The CronJob's state (type Available: the last reconcile succeeded).
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// CronJob is the Schema for the cronjobs API.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Schedule",type="string",JSONPath=".spec.schedule"
// +kubebuilder:printcolumn:name="Suspend",type="boolean",JSONPath=".spec.suspend"
// +kubebuilder:printcolumn:name="Last Schedule",type="date",JSONPath=".status.lastScheduleTime"
type CronJob struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec CronJobSpec `json:"spec"`

	// +optional
	Status CronJobStatus `json:"status,omitempty,omitzero"`
}

// CronJobList is a list of CronJobs.
// +kubebuilder:object:root=true
type CronJobList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CronJob `json:"items"`
}
