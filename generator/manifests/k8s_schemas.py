"""controller-gen v0.23.0's schema of the k8s.io/api types a CRD embeds, by class of a kgen-generated
package (``<group>.<version>.<Kind>``): written by hack/controller-gen/k8s_schemas.py, which says
how; do not edit."""

import json
from typing import Any

#: ``key -> {"schema": the class's own keywords, "properties": wire name -> field schema}``.
SCHEMAS: dict[str, dict[str, Any]] = json.loads(r'''{
"apps.v1.DaemonSetSpec": {
"properties": {
"minReadySeconds": {
"format": "int32",
"type": "integer"
},
"revisionHistoryLimit": {
"format": "int32",
"type": "integer"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
},
"template": {
"$ref": "core.v1.PodTemplateSpec"
},
"updateStrategy": {
"$ref": "apps.v1.DaemonSetUpdateStrategy"
}
},
"schema": {
"required": [
"selector",
"template"
],
"type": "object"
}
},
"apps.v1.DaemonSetUpdateStrategy": {
"properties": {
"rollingUpdate": {
"$ref": "apps.v1.RollingUpdateDaemonSet"
},
"type": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"apps.v1.DeploymentSpec": {
"properties": {
"minReadySeconds": {
"format": "int32",
"type": "integer"
},
"paused": {
"type": "boolean"
},
"progressDeadlineSeconds": {
"format": "int32",
"type": "integer"
},
"replicas": {
"format": "int32",
"type": "integer"
},
"revisionHistoryLimit": {
"format": "int32",
"type": "integer"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
},
"strategy": {
"$ref": "apps.v1.DeploymentStrategy"
},
"template": {
"$ref": "core.v1.PodTemplateSpec"
}
},
"schema": {
"required": [
"selector",
"template"
],
"type": "object"
}
},
"apps.v1.DeploymentStrategy": {
"properties": {
"rollingUpdate": {
"$ref": "apps.v1.RollingUpdateDeployment"
},
"type": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"apps.v1.RollingUpdateDaemonSet": {
"properties": {
"maxSurge": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
},
"maxUnavailable": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
}
},
"schema": {
"type": "object"
}
},
"apps.v1.RollingUpdateDeployment": {
"properties": {
"maxSurge": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
},
"maxUnavailable": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
}
},
"schema": {
"type": "object"
}
},
"apps.v1.RollingUpdateStatefulSetStrategy": {
"properties": {
"maxUnavailable": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
},
"partition": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"apps.v1.StatefulSetOrdinals": {
"properties": {
"start": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy": {
"properties": {
"whenDeleted": {
"type": "string"
},
"whenScaled": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"apps.v1.StatefulSetSpec": {
"properties": {
"minReadySeconds": {
"format": "int32",
"type": "integer"
},
"ordinals": {
"$ref": "apps.v1.StatefulSetOrdinals"
},
"persistentVolumeClaimRetentionPolicy": {
"$ref": "apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy"
},
"podManagementPolicy": {
"type": "string"
},
"replicas": {
"format": "int32",
"type": "integer"
},
"revisionHistoryLimit": {
"format": "int32",
"type": "integer"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
},
"serviceName": {
"type": "string"
},
"template": {
"$ref": "core.v1.PodTemplateSpec"
},
"updateStrategy": {
"$ref": "apps.v1.StatefulSetUpdateStrategy"
},
"volumeClaimTemplates": {
"items": {
"$ref": "core.v1.PersistentVolumeClaim"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"selector",
"template"
],
"type": "object"
}
},
"apps.v1.StatefulSetUpdateStrategy": {
"properties": {
"rollingUpdate": {
"$ref": "apps.v1.RollingUpdateStatefulSetStrategy"
},
"type": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"autoscaling.v2.ContainerResourceMetricSource": {
"properties": {
"container": {
"type": "string"
},
"name": {
"type": "string"
},
"target": {
"$ref": "autoscaling.v2.MetricTarget"
}
},
"schema": {
"required": [
"container",
"name",
"target"
],
"type": "object"
}
},
"autoscaling.v2.CrossVersionObjectReference": {
"properties": {
"apiVersion": {
"type": "string"
},
"kind": {
"type": "string"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"kind",
"name"
],
"type": "object"
}
},
"autoscaling.v2.ExternalMetricSource": {
"properties": {
"metric": {
"$ref": "autoscaling.v2.MetricIdentifier"
},
"target": {
"$ref": "autoscaling.v2.MetricTarget"
}
},
"schema": {
"required": [
"metric",
"target"
],
"type": "object"
}
},
"autoscaling.v2.HPAScalingPolicy": {
"properties": {
"periodSeconds": {
"format": "int32",
"type": "integer"
},
"type": {
"type": "string"
},
"value": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"periodSeconds",
"type",
"value"
],
"type": "object"
}
},
"autoscaling.v2.HPAScalingRules": {
"properties": {
"policies": {
"items": {
"$ref": "autoscaling.v2.HPAScalingPolicy"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"selectPolicy": {
"type": "string"
},
"stabilizationWindowSeconds": {
"format": "int32",
"type": "integer"
},
"tolerance": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
}
},
"schema": {
"type": "object"
}
},
"autoscaling.v2.HorizontalPodAutoscalerBehavior": {
"properties": {
"scaleDown": {
"$ref": "autoscaling.v2.HPAScalingRules"
},
"scaleUp": {
"$ref": "autoscaling.v2.HPAScalingRules"
}
},
"schema": {
"type": "object"
}
},
"autoscaling.v2.HorizontalPodAutoscalerSpec": {
"properties": {
"behavior": {
"$ref": "autoscaling.v2.HorizontalPodAutoscalerBehavior"
},
"maxReplicas": {
"format": "int32",
"type": "integer"
},
"metrics": {
"items": {
"$ref": "autoscaling.v2.MetricSpec"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"minReplicas": {
"format": "int32",
"type": "integer"
},
"scaleTargetRef": {
"$ref": "autoscaling.v2.CrossVersionObjectReference"
}
},
"schema": {
"required": [
"maxReplicas",
"scaleTargetRef"
],
"type": "object"
}
},
"autoscaling.v2.MetricIdentifier": {
"properties": {
"name": {
"type": "string"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"autoscaling.v2.MetricSpec": {
"properties": {
"containerResource": {
"$ref": "autoscaling.v2.ContainerResourceMetricSource"
},
"external": {
"$ref": "autoscaling.v2.ExternalMetricSource"
},
"object": {
"$ref": "autoscaling.v2.ObjectMetricSource"
},
"pods": {
"$ref": "autoscaling.v2.PodsMetricSource"
},
"resource": {
"$ref": "autoscaling.v2.ResourceMetricSource"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"type"
],
"type": "object"
}
},
"autoscaling.v2.MetricTarget": {
"properties": {
"averageUtilization": {
"format": "int32",
"type": "integer"
},
"averageValue": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": {
"type": "string"
},
"value": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
}
},
"schema": {
"required": [
"type"
],
"type": "object"
}
},
"autoscaling.v2.ObjectMetricSource": {
"properties": {
"describedObject": {
"$ref": "autoscaling.v2.CrossVersionObjectReference"
},
"metric": {
"$ref": "autoscaling.v2.MetricIdentifier"
},
"target": {
"$ref": "autoscaling.v2.MetricTarget"
}
},
"schema": {
"required": [
"describedObject",
"metric",
"target"
],
"type": "object"
}
},
"autoscaling.v2.PodsMetricSource": {
"properties": {
"metric": {
"$ref": "autoscaling.v2.MetricIdentifier"
},
"target": {
"$ref": "autoscaling.v2.MetricTarget"
}
},
"schema": {
"required": [
"metric",
"target"
],
"type": "object"
}
},
"autoscaling.v2.ResourceMetricSource": {
"properties": {
"name": {
"type": "string"
},
"target": {
"$ref": "autoscaling.v2.MetricTarget"
}
},
"schema": {
"required": [
"name",
"target"
],
"type": "object"
}
},
"batch.v1.CronJobSpec": {
"properties": {
"concurrencyPolicy": {
"type": "string"
},
"failedJobsHistoryLimit": {
"format": "int32",
"type": "integer"
},
"jobTemplate": {
"$ref": "batch.v1.JobTemplateSpec"
},
"schedule": {
"type": "string"
},
"startingDeadlineSeconds": {
"format": "int64",
"type": "integer"
},
"successfulJobsHistoryLimit": {
"format": "int32",
"type": "integer"
},
"suspend": {
"type": "boolean"
},
"timeZone": {
"type": "string"
}
},
"schema": {
"required": [
"jobTemplate",
"schedule"
],
"type": "object"
}
},
"batch.v1.JobSchedulingConfiguration": {
"properties": {
"disruptionMode": {
"$ref": "scheduling.v1alpha3.WorkloadPodGroupDisruptionMode"
},
"resourceClaims": {
"items": {
"$ref": "scheduling.v1alpha3.WorkloadPodGroupResourceClaim"
},
"maxItems": 4,
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map",
"x-kubernetes-validations": [
{
"message": "field is immutable",
"rule": "self == oldSelf"
}
]
},
"schedulingConstraints": {
"$ref": "scheduling.v1alpha3.WorkloadPodGroupSchedulingConstraints"
},
"schedulingPolicy": {
"$ref": "scheduling.v1alpha3.WorkloadPodGroupSchedulingPolicy"
}
},
"schema": {
"type": "object",
"x-kubernetes-validations": [
{
"message": "field schedulingConstraints is immutable once set",
"rule": "!has(oldSelf.schedulingConstraints) || has(self.schedulingConstraints)"
},
{
"message": "field disruptionMode is immutable once set",
"rule": "!has(oldSelf.disruptionMode) || has(self.disruptionMode)"
},
{
"message": "field resourceClaims is immutable once set",
"rule": "!has(oldSelf.resourceClaims) || has(self.resourceClaims)"
}
]
}
},
"batch.v1.JobSpec": {
"properties": {
"activeDeadlineSeconds": {
"format": "int64",
"type": "integer"
},
"backoffLimit": {
"format": "int32",
"type": "integer"
},
"backoffLimitPerIndex": {
"format": "int32",
"type": "integer"
},
"completionMode": {
"type": "string"
},
"completions": {
"format": "int32",
"type": "integer"
},
"managedBy": {
"type": "string"
},
"manualSelector": {
"type": "boolean"
},
"maxFailedIndexes": {
"format": "int32",
"type": "integer"
},
"parallelism": {
"format": "int32",
"type": "integer"
},
"podFailurePolicy": {
"$ref": "batch.v1.PodFailurePolicy"
},
"podReplacementPolicy": {
"type": "string"
},
"scheduling": {
"$ref": "batch.v1.JobSchedulingConfiguration"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
},
"successPolicy": {
"$ref": "batch.v1.SuccessPolicy"
},
"suspend": {
"type": "boolean"
},
"template": {
"$ref": "core.v1.PodTemplateSpec"
},
"ttlSecondsAfterFinished": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"template"
],
"type": "object"
}
},
"batch.v1.JobTemplateSpec": {
"properties": {
"metadata": {
"type": "object"
},
"spec": {
"$ref": "batch.v1.JobSpec"
}
},
"schema": {
"type": "object"
}
},
"batch.v1.PodFailurePolicy": {
"properties": {
"rules": {
"items": {
"$ref": "batch.v1.PodFailurePolicyRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"rules"
],
"type": "object"
}
},
"batch.v1.PodFailurePolicyOnExitCodesRequirement": {
"properties": {
"containerName": {
"type": "string"
},
"operator": {
"type": "string"
},
"values": {
"items": {
"format": "int32",
"type": "integer"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"required": [
"operator",
"values"
],
"type": "object"
}
},
"batch.v1.PodFailurePolicyOnPodConditionsPattern": {
"properties": {
"status": {
"type": "string"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"type"
],
"type": "object"
}
},
"batch.v1.PodFailurePolicyRule": {
"properties": {
"action": {
"type": "string"
},
"onExitCodes": {
"$ref": "batch.v1.PodFailurePolicyOnExitCodesRequirement"
},
"onPodConditions": {
"items": {
"$ref": "batch.v1.PodFailurePolicyOnPodConditionsPattern"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"action"
],
"type": "object"
}
},
"batch.v1.SuccessPolicy": {
"properties": {
"rules": {
"items": {
"$ref": "batch.v1.SuccessPolicyRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"rules"
],
"type": "object"
}
},
"batch.v1.SuccessPolicyRule": {
"properties": {
"succeededCount": {
"format": "int32",
"type": "integer"
},
"succeededIndexes": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.AWSElasticBlockStoreVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"partition": {
"format": "int32",
"type": "integer"
},
"readOnly": {
"type": "boolean"
},
"volumeID": {
"type": "string"
}
},
"schema": {
"required": [
"volumeID"
],
"type": "object"
}
},
"core.v1.Affinity": {
"properties": {
"nodeAffinity": {
"$ref": "core.v1.NodeAffinity"
},
"podAffinity": {
"$ref": "core.v1.PodAffinity"
},
"podAntiAffinity": {
"$ref": "core.v1.PodAntiAffinity"
}
},
"schema": {
"type": "object"
}
},
"core.v1.AppArmorProfile": {
"properties": {
"localhostProfile": {
"type": "string"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"type"
],
"type": "object"
}
},
"core.v1.AzureDiskVolumeSource": {
"properties": {
"cachingMode": {
"type": "string"
},
"diskName": {
"type": "string"
},
"diskURI": {
"type": "string"
},
"fsType": {
"default": "ext4",
"type": "string"
},
"kind": {
"type": "string"
},
"readOnly": {
"default": false,
"type": "boolean"
}
},
"schema": {
"required": [
"diskName",
"diskURI"
],
"type": "object"
}
},
"core.v1.AzureFileVolumeSource": {
"properties": {
"readOnly": {
"type": "boolean"
},
"secretName": {
"type": "string"
},
"shareName": {
"type": "string"
}
},
"schema": {
"required": [
"secretName",
"shareName"
],
"type": "object"
}
},
"core.v1.CSIVolumeSource": {
"properties": {
"driver": {
"type": "string"
},
"fsType": {
"type": "string"
},
"nodePublishSecretRef": {
"$ref": "core.v1.LocalObjectReference"
},
"readOnly": {
"type": "boolean"
},
"volumeAttributes": {
"additionalProperties": {
"type": "string"
},
"type": "object"
}
},
"schema": {
"required": [
"driver"
],
"type": "object"
}
},
"core.v1.Capabilities": {
"properties": {
"add": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"drop": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.CephFSVolumeSource": {
"properties": {
"monitors": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"path": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"secretFile": {
"type": "string"
},
"secretRef": {
"$ref": "core.v1.LocalObjectReference"
},
"user": {
"type": "string"
}
},
"schema": {
"required": [
"monitors"
],
"type": "object"
}
},
"core.v1.CinderVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.LocalObjectReference"
},
"volumeID": {
"type": "string"
}
},
"schema": {
"required": [
"volumeID"
],
"type": "object"
}
},
"core.v1.ClientIPConfig": {
"properties": {
"timeoutSeconds": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ClusterTrustBundleProjection": {
"properties": {
"labelSelector": {
"$ref": "meta.v1.LabelSelector"
},
"name": {
"type": "string"
},
"optional": {
"type": "boolean"
},
"path": {
"type": "string"
},
"signerName": {
"type": "string"
},
"user": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"path"
],
"type": "object"
}
},
"core.v1.ConfigMapEnvSource": {
"properties": {
"name": {
"default": "",
"type": "string"
},
"optional": {
"type": "boolean"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ConfigMapKeySelector": {
"properties": {
"key": {
"type": "string"
},
"name": {
"default": "",
"type": "string"
},
"optional": {
"type": "boolean"
}
},
"schema": {
"required": [
"key"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ConfigMapProjection": {
"properties": {
"items": {
"items": {
"$ref": "core.v1.KeyToPath"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"name": {
"default": "",
"type": "string"
},
"optional": {
"type": "boolean"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ConfigMapVolumeSource": {
"properties": {
"defaultMode": {
"format": "int32",
"type": "integer"
},
"defaultUser": {
"format": "int64",
"type": "integer"
},
"items": {
"items": {
"$ref": "core.v1.KeyToPath"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"name": {
"default": "",
"type": "string"
},
"optional": {
"type": "boolean"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.Container": {
"properties": {
"args": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"command": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"env": {
"items": {
"$ref": "core.v1.EnvVar"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"envFrom": {
"items": {
"$ref": "core.v1.EnvFromSource"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"image": {
"type": "string"
},
"imagePullPolicy": {
"type": "string"
},
"lifecycle": {
"$ref": "core.v1.Lifecycle"
},
"livenessProbe": {
"$ref": "core.v1.Probe"
},
"name": {
"type": "string"
},
"ports": {
"items": {
"$ref": "core.v1.ContainerPort"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"containerPort",
"protocol"
],
"x-kubernetes-list-type": "map"
},
"readinessProbe": {
"$ref": "core.v1.Probe"
},
"resizePolicy": {
"items": {
"$ref": "core.v1.ContainerResizePolicy"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resources": {
"$ref": "core.v1.ResourceRequirements"
},
"restartPolicy": {
"type": "string"
},
"restartPolicyRules": {
"items": {
"$ref": "core.v1.ContainerRestartRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"securityContext": {
"$ref": "core.v1.SecurityContext"
},
"startupProbe": {
"$ref": "core.v1.Probe"
},
"stdin": {
"type": "boolean"
},
"stdinOnce": {
"type": "boolean"
},
"terminationMessagePath": {
"type": "string"
},
"terminationMessagePolicy": {
"type": "string"
},
"tty": {
"type": "boolean"
},
"volumeDevices": {
"items": {
"$ref": "core.v1.VolumeDevice"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"devicePath"
],
"x-kubernetes-list-type": "map"
},
"volumeMounts": {
"items": {
"$ref": "core.v1.VolumeMount"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"mountPath"
],
"x-kubernetes-list-type": "map"
},
"workingDir": {
"type": "string"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.ContainerPort": {
"properties": {
"containerPort": {
"format": "int32",
"type": "integer"
},
"hostIP": {
"type": "string"
},
"hostPort": {
"format": "int32",
"type": "integer"
},
"name": {
"type": "string"
},
"protocol": {
"default": "TCP",
"type": "string"
}
},
"schema": {
"required": [
"containerPort"
],
"type": "object"
}
},
"core.v1.ContainerResizePolicy": {
"properties": {
"resourceName": {
"type": "string"
},
"restartPolicy": {
"type": "string"
}
},
"schema": {
"required": [
"resourceName",
"restartPolicy"
],
"type": "object"
}
},
"core.v1.ContainerRestartRule": {
"properties": {
"action": {
"type": "string"
},
"exitCodes": {
"$ref": "core.v1.ContainerRestartRuleOnExitCodes"
}
},
"schema": {
"required": [
"action"
],
"type": "object"
}
},
"core.v1.ContainerRestartRuleOnExitCodes": {
"properties": {
"operator": {
"type": "string"
},
"values": {
"items": {
"format": "int32",
"type": "integer"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"required": [
"operator"
],
"type": "object"
}
},
"core.v1.DownwardAPIProjection": {
"properties": {
"items": {
"items": {
"$ref": "core.v1.DownwardAPIVolumeFile"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.DownwardAPIVolumeFile": {
"properties": {
"fieldRef": {
"$ref": "core.v1.ObjectFieldSelector"
},
"mode": {
"format": "int32",
"type": "integer"
},
"path": {
"type": "string"
},
"resourceFieldRef": {
"$ref": "core.v1.ResourceFieldSelector"
},
"user": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"path"
],
"type": "object"
}
},
"core.v1.DownwardAPIVolumeSource": {
"properties": {
"defaultMode": {
"format": "int32",
"type": "integer"
},
"defaultUser": {
"format": "int64",
"type": "integer"
},
"items": {
"items": {
"$ref": "core.v1.DownwardAPIVolumeFile"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.EmptyDirVolumeSource": {
"properties": {
"medium": {
"type": "string"
},
"mode": {
"format": "int32",
"type": "integer"
},
"sizeLimit": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
}
},
"schema": {
"type": "object"
}
},
"core.v1.EnvFromSource": {
"properties": {
"configMapRef": {
"$ref": "core.v1.ConfigMapEnvSource"
},
"prefix": {
"type": "string"
},
"secretRef": {
"$ref": "core.v1.SecretEnvSource"
}
},
"schema": {
"type": "object"
}
},
"core.v1.EnvVar": {
"properties": {
"name": {
"type": "string"
},
"value": {
"type": "string"
},
"valueFrom": {
"$ref": "core.v1.EnvVarSource"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.EnvVarSource": {
"properties": {
"configMapKeyRef": {
"$ref": "core.v1.ConfigMapKeySelector"
},
"fieldRef": {
"$ref": "core.v1.ObjectFieldSelector"
},
"fileKeyRef": {
"$ref": "core.v1.FileKeySelector"
},
"resourceFieldRef": {
"$ref": "core.v1.ResourceFieldSelector"
},
"secretKeyRef": {
"$ref": "core.v1.SecretKeySelector"
}
},
"schema": {
"type": "object"
}
},
"core.v1.EphemeralContainer": {
"properties": {
"args": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"command": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"env": {
"items": {
"$ref": "core.v1.EnvVar"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"envFrom": {
"items": {
"$ref": "core.v1.EnvFromSource"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"image": {
"type": "string"
},
"imagePullPolicy": {
"type": "string"
},
"lifecycle": {
"$ref": "core.v1.Lifecycle"
},
"livenessProbe": {
"$ref": "core.v1.Probe"
},
"name": {
"type": "string"
},
"ports": {
"items": {
"$ref": "core.v1.ContainerPort"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"containerPort",
"protocol"
],
"x-kubernetes-list-type": "map"
},
"readinessProbe": {
"$ref": "core.v1.Probe"
},
"resizePolicy": {
"items": {
"$ref": "core.v1.ContainerResizePolicy"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resources": {
"$ref": "core.v1.ResourceRequirements"
},
"restartPolicy": {
"type": "string"
},
"restartPolicyRules": {
"items": {
"$ref": "core.v1.ContainerRestartRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"securityContext": {
"$ref": "core.v1.SecurityContext"
},
"startupProbe": {
"$ref": "core.v1.Probe"
},
"stdin": {
"type": "boolean"
},
"stdinOnce": {
"type": "boolean"
},
"targetContainerName": {
"type": "string"
},
"terminationMessagePath": {
"type": "string"
},
"terminationMessagePolicy": {
"type": "string"
},
"tty": {
"type": "boolean"
},
"volumeDevices": {
"items": {
"$ref": "core.v1.VolumeDevice"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"devicePath"
],
"x-kubernetes-list-type": "map"
},
"volumeMounts": {
"items": {
"$ref": "core.v1.VolumeMount"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"mountPath"
],
"x-kubernetes-list-type": "map"
},
"workingDir": {
"type": "string"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.EphemeralVolumeSource": {
"properties": {
"volumeClaimTemplate": {
"$ref": "core.v1.PersistentVolumeClaimTemplate"
}
},
"schema": {
"type": "object"
}
},
"core.v1.EvictionResponder": {
"properties": {
"name": {
"minLength": 1,
"type": "string"
},
"priority": {
"format": "int32",
"maximum": 100000,
"minimum": 0,
"type": "integer"
}
},
"schema": {
"required": [
"name",
"priority"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ExecAction": {
"properties": {
"command": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.FCVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"lun": {
"format": "int32",
"type": "integer"
},
"readOnly": {
"type": "boolean"
},
"targetWWNs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"wwids": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.FileKeySelector": {
"properties": {
"key": {
"type": "string"
},
"optional": {
"default": false,
"type": "boolean"
},
"path": {
"type": "string"
},
"volumeName": {
"type": "string"
}
},
"schema": {
"required": [
"key",
"path",
"volumeName"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.FlexVolumeSource": {
"properties": {
"driver": {
"type": "string"
},
"fsType": {
"type": "string"
},
"options": {
"additionalProperties": {
"type": "string"
},
"type": "object"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.LocalObjectReference"
}
},
"schema": {
"required": [
"driver"
],
"type": "object"
}
},
"core.v1.FlockerVolumeSource": {
"properties": {
"datasetName": {
"type": "string"
},
"datasetUUID": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.GCEPersistentDiskVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"partition": {
"format": "int32",
"type": "integer"
},
"pdName": {
"type": "string"
},
"readOnly": {
"type": "boolean"
}
},
"schema": {
"required": [
"pdName"
],
"type": "object"
}
},
"core.v1.GRPCAction": {
"properties": {
"mode": {
"type": "string"
},
"port": {
"format": "int32",
"type": "integer"
},
"service": {
"default": "",
"type": "string"
}
},
"schema": {
"required": [
"port"
],
"type": "object"
}
},
"core.v1.GitRepoVolumeSource": {
"properties": {
"directory": {
"type": "string"
},
"repository": {
"type": "string"
},
"revision": {
"type": "string"
}
},
"schema": {
"required": [
"repository"
],
"type": "object"
}
},
"core.v1.GlusterfsVolumeSource": {
"properties": {
"endpoints": {
"type": "string"
},
"path": {
"type": "string"
},
"readOnly": {
"type": "boolean"
}
},
"schema": {
"required": [
"endpoints",
"path"
],
"type": "object"
}
},
"core.v1.HTTPGetAction": {
"properties": {
"host": {
"type": "string"
},
"httpHeaders": {
"items": {
"$ref": "core.v1.HTTPHeader"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"path": {
"type": "string"
},
"port": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
},
"protocol": {
"type": "string"
},
"scheme": {
"type": "string"
}
},
"schema": {
"required": [
"port"
],
"type": "object"
}
},
"core.v1.HTTPHeader": {
"properties": {
"name": {
"type": "string"
},
"value": {
"type": "string"
}
},
"schema": {
"required": [
"name",
"value"
],
"type": "object"
}
},
"core.v1.HostAlias": {
"properties": {
"hostnames": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"ip": {
"type": "string"
}
},
"schema": {
"required": [
"ip"
],
"type": "object"
}
},
"core.v1.HostPathVolumeSource": {
"properties": {
"path": {
"type": "string"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"path"
],
"type": "object"
}
},
"core.v1.ISCSIVolumeSource": {
"properties": {
"chapAuthDiscovery": {
"type": "boolean"
},
"chapAuthSession": {
"type": "boolean"
},
"fsType": {
"type": "string"
},
"initiatorName": {
"type": "string"
},
"iqn": {
"type": "string"
},
"iscsiInterface": {
"default": "default",
"type": "string"
},
"lun": {
"format": "int32",
"type": "integer"
},
"portals": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.LocalObjectReference"
},
"targetPortal": {
"type": "string"
}
},
"schema": {
"required": [
"iqn",
"lun",
"targetPortal"
],
"type": "object"
}
},
"core.v1.ImageVolumeSource": {
"properties": {
"pullPolicy": {
"type": "string"
},
"reference": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.KeyToPath": {
"properties": {
"key": {
"type": "string"
},
"mode": {
"format": "int32",
"type": "integer"
},
"path": {
"type": "string"
},
"user": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"key",
"path"
],
"type": "object"
}
},
"core.v1.Lifecycle": {
"properties": {
"postStart": {
"$ref": "core.v1.LifecycleHandler"
},
"preStop": {
"$ref": "core.v1.LifecycleHandler"
},
"stopSignal": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.LifecycleHandler": {
"properties": {
"exec": {
"$ref": "core.v1.ExecAction"
},
"httpGet": {
"$ref": "core.v1.HTTPGetAction"
},
"sleep": {
"$ref": "core.v1.SleepAction"
},
"tcpSocket": {
"$ref": "core.v1.TCPSocketAction"
}
},
"schema": {
"type": "object"
}
},
"core.v1.LocalObjectReference": {
"properties": {
"name": {
"default": "",
"type": "string"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ModifyVolumeStatus": {
"properties": {
"status": {
"type": "string"
},
"targetVolumeAttributesClassName": {
"type": "string"
}
},
"schema": {
"required": [
"status"
],
"type": "object"
}
},
"core.v1.NFSVolumeSource": {
"properties": {
"path": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"server": {
"type": "string"
}
},
"schema": {
"required": [
"path",
"server"
],
"type": "object"
}
},
"core.v1.NodeAffinity": {
"properties": {
"preferredDuringSchedulingIgnoredDuringExecution": {
"items": {
"$ref": "core.v1.PreferredSchedulingTerm"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"requiredDuringSchedulingIgnoredDuringExecution": {
"$ref": "core.v1.NodeSelector"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeSelector": {
"properties": {
"nodeSelectorTerms": {
"items": {
"$ref": "core.v1.NodeSelectorTerm"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"nodeSelectorTerms"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.NodeSelectorRequirement": {
"properties": {
"key": {
"type": "string"
},
"operator": {
"type": "string"
},
"values": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"key",
"operator"
],
"type": "object"
}
},
"core.v1.NodeSelectorTerm": {
"properties": {
"matchExpressions": {
"items": {
"$ref": "core.v1.NodeSelectorRequirement"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"matchFields": {
"items": {
"$ref": "core.v1.NodeSelectorRequirement"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ObjectFieldSelector": {
"properties": {
"apiVersion": {
"type": "string"
},
"fieldPath": {
"type": "string"
}
},
"schema": {
"required": [
"fieldPath"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ObjectReference": {
"properties": {
"apiVersion": {
"type": "string"
},
"fieldPath": {
"type": "string"
},
"kind": {
"type": "string"
},
"name": {
"type": "string"
},
"namespace": {
"type": "string"
},
"resourceVersion": {
"type": "string"
},
"uid": {
"type": "string"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.PersistentVolumeClaim": {
"properties": {
"apiVersion": {
"type": "string"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"spec": {
"$ref": "core.v1.PersistentVolumeClaimSpec"
},
"status": {
"$ref": "core.v1.PersistentVolumeClaimStatus"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PersistentVolumeClaimCondition": {
"properties": {
"lastProbeTime": {
"format": "date-time",
"type": "string"
},
"lastTransitionTime": {
"format": "date-time",
"type": "string"
},
"message": {
"type": "string"
},
"reason": {
"type": "string"
},
"status": {
"type": "string"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"status",
"type"
],
"type": "object"
}
},
"core.v1.PersistentVolumeClaimSpec": {
"properties": {
"accessModes": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"dataSource": {
"$ref": "core.v1.TypedLocalObjectReference"
},
"dataSourceRef": {
"$ref": "core.v1.TypedObjectReference"
},
"resources": {
"$ref": "core.v1.VolumeResourceRequirements"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
},
"storageClassName": {
"type": "string"
},
"volumeAttributesClassName": {
"type": "string"
},
"volumeMode": {
"type": "string"
},
"volumeName": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PersistentVolumeClaimStatus": {
"properties": {
"accessModes": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"allocatedResourceStatuses": {
"additionalProperties": {
"type": "string"
},
"type": "object",
"x-kubernetes-map-type": "granular"
},
"allocatedResources": {
"additionalProperties": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": "object"
},
"capacity": {
"additionalProperties": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": "object"
},
"conditions": {
"items": {
"$ref": "core.v1.PersistentVolumeClaimCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"currentVolumeAttributesClassName": {
"type": "string"
},
"healthStatus": {
"$ref": "core.v1.VolumeHealthStatus"
},
"modifyVolumeStatus": {
"$ref": "core.v1.ModifyVolumeStatus"
},
"phase": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PersistentVolumeClaimTemplate": {
"properties": {
"metadata": {
"type": "object"
},
"spec": {
"$ref": "core.v1.PersistentVolumeClaimSpec"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"core.v1.PersistentVolumeClaimVolumeSource": {
"properties": {
"claimName": {
"type": "string"
},
"readOnly": {
"type": "boolean"
}
},
"schema": {
"required": [
"claimName"
],
"type": "object"
}
},
"core.v1.PhotonPersistentDiskVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"pdID": {
"type": "string"
}
},
"schema": {
"required": [
"pdID"
],
"type": "object"
}
},
"core.v1.PodAffinity": {
"properties": {
"preferredDuringSchedulingIgnoredDuringExecution": {
"items": {
"$ref": "core.v1.WeightedPodAffinityTerm"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"requiredDuringSchedulingIgnoredDuringExecution": {
"items": {
"$ref": "core.v1.PodAffinityTerm"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodAffinityTerm": {
"properties": {
"labelSelector": {
"$ref": "meta.v1.LabelSelector"
},
"matchLabelKeys": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"mismatchLabelKeys": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"namespaceSelector": {
"$ref": "meta.v1.LabelSelector"
},
"namespaces": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"topologyKey": {
"type": "string"
}
},
"schema": {
"required": [
"topologyKey"
],
"type": "object"
}
},
"core.v1.PodAntiAffinity": {
"properties": {
"preferredDuringSchedulingIgnoredDuringExecution": {
"items": {
"$ref": "core.v1.WeightedPodAffinityTerm"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"requiredDuringSchedulingIgnoredDuringExecution": {
"items": {
"$ref": "core.v1.PodAffinityTerm"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodCertificateProjection": {
"properties": {
"certificateChainPath": {
"type": "string"
},
"credentialBundlePath": {
"type": "string"
},
"keyPath": {
"type": "string"
},
"keyType": {
"type": "string"
},
"maxExpirationSeconds": {
"format": "int32",
"type": "integer"
},
"signerName": {
"type": "string"
},
"user": {
"format": "int64",
"type": "integer"
},
"userAnnotations": {
"additionalProperties": {
"type": "string"
},
"type": "object"
}
},
"schema": {
"required": [
"keyType",
"signerName"
],
"type": "object"
}
},
"core.v1.PodDNSConfig": {
"properties": {
"nameservers": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"options": {
"items": {
"$ref": "core.v1.PodDNSConfigOption"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"searches": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodDNSConfigOption": {
"properties": {
"name": {
"type": "string"
},
"value": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodOS": {
"properties": {
"name": {
"type": "string"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.PodReadinessGate": {
"properties": {
"conditionType": {
"type": "string"
}
},
"schema": {
"required": [
"conditionType"
],
"type": "object"
}
},
"core.v1.PodResourceClaim": {
"properties": {
"name": {
"type": "string"
},
"resourceClaimName": {
"type": "string"
},
"resourceClaimTemplateName": {
"type": "string"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.PodSchedulingGate": {
"properties": {
"name": {
"type": "string"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.PodSchedulingGroup": {
"properties": {
"podGroupName": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodSecurityContext": {
"properties": {
"appArmorProfile": {
"$ref": "core.v1.AppArmorProfile"
},
"fsGroup": {
"format": "int64",
"type": "integer"
},
"fsGroupChangePolicy": {
"type": "string"
},
"runAsGroup": {
"format": "int64",
"type": "integer"
},
"runAsNonRoot": {
"type": "boolean"
},
"runAsUser": {
"format": "int64",
"type": "integer"
},
"seLinuxChangePolicy": {
"type": "string"
},
"seLinuxOptions": {
"$ref": "core.v1.SELinuxOptions"
},
"seccompProfile": {
"$ref": "core.v1.SeccompProfile"
},
"supplementalGroups": {
"items": {
"format": "int64",
"type": "integer"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"supplementalGroupsPolicy": {
"type": "string"
},
"sysctls": {
"items": {
"$ref": "core.v1.Sysctl"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"windowsOptions": {
"$ref": "core.v1.WindowsSecurityContextOptions"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodSpec": {
"properties": {
"activeDeadlineSeconds": {
"format": "int64",
"type": "integer"
},
"affinity": {
"$ref": "core.v1.Affinity"
},
"automountServiceAccountToken": {
"type": "boolean"
},
"containers": {
"items": {
"$ref": "core.v1.Container"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"dnsConfig": {
"$ref": "core.v1.PodDNSConfig"
},
"dnsPolicy": {
"type": "string"
},
"enableServiceLinks": {
"type": "boolean"
},
"ephemeralContainers": {
"items": {
"$ref": "core.v1.EphemeralContainer"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"evictionResponders": {
"items": {
"$ref": "core.v1.EvictionResponder"
},
"maxItems": 10,
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"hostAliases": {
"items": {
"$ref": "core.v1.HostAlias"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"ip"
],
"x-kubernetes-list-type": "map"
},
"hostIPC": {
"type": "boolean"
},
"hostNetwork": {
"type": "boolean"
},
"hostPID": {
"type": "boolean"
},
"hostUsers": {
"type": "boolean"
},
"hostname": {
"type": "string"
},
"hostnameOverride": {
"type": "string"
},
"imagePullSecrets": {
"items": {
"$ref": "core.v1.LocalObjectReference"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"initContainers": {
"items": {
"$ref": "core.v1.Container"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"nodeName": {
"type": "string"
},
"nodeSelector": {
"additionalProperties": {
"type": "string"
},
"type": "object",
"x-kubernetes-map-type": "atomic"
},
"os": {
"$ref": "core.v1.PodOS"
},
"overhead": {
"additionalProperties": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": "object"
},
"preemptionPolicy": {
"type": "string"
},
"priority": {
"format": "int32",
"type": "integer"
},
"priorityClassName": {
"type": "string"
},
"readinessGates": {
"items": {
"$ref": "core.v1.PodReadinessGate"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resourceClaims": {
"items": {
"$ref": "core.v1.PodResourceClaim"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"resources": {
"$ref": "core.v1.ResourceRequirements"
},
"restartPolicy": {
"type": "string"
},
"runtimeClassName": {
"type": "string"
},
"schedulerName": {
"type": "string"
},
"schedulingGates": {
"items": {
"$ref": "core.v1.PodSchedulingGate"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"schedulingGroup": {
"$ref": "core.v1.PodSchedulingGroup"
},
"securityContext": {
"$ref": "core.v1.PodSecurityContext"
},
"serviceAccount": {
"type": "string"
},
"serviceAccountName": {
"type": "string"
},
"setHostnameAsFQDN": {
"type": "boolean"
},
"shareProcessNamespace": {
"type": "boolean"
},
"subdomain": {
"type": "string"
},
"terminationGracePeriodSeconds": {
"format": "int64",
"type": "integer"
},
"tolerations": {
"items": {
"$ref": "core.v1.Toleration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"topologySpreadConstraints": {
"items": {
"$ref": "core.v1.TopologySpreadConstraint"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"topologyKey",
"whenUnsatisfiable"
],
"x-kubernetes-list-type": "map"
},
"volumes": {
"items": {
"$ref": "core.v1.Volume"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"required": [
"containers"
],
"type": "object"
}
},
"core.v1.PodTemplateSpec": {
"properties": {
"metadata": {
"type": "object"
},
"spec": {
"$ref": "core.v1.PodSpec"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PortworxVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"volumeID": {
"type": "string"
}
},
"schema": {
"required": [
"volumeID"
],
"type": "object"
}
},
"core.v1.PreferredSchedulingTerm": {
"properties": {
"preference": {
"$ref": "core.v1.NodeSelectorTerm"
},
"weight": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"preference",
"weight"
],
"type": "object"
}
},
"core.v1.Probe": {
"properties": {
"exec": {
"$ref": "core.v1.ExecAction"
},
"failureThreshold": {
"format": "int32",
"type": "integer"
},
"grpc": {
"$ref": "core.v1.GRPCAction"
},
"httpGet": {
"$ref": "core.v1.HTTPGetAction"
},
"initialDelaySeconds": {
"format": "int32",
"type": "integer"
},
"periodSeconds": {
"format": "int32",
"type": "integer"
},
"successThreshold": {
"format": "int32",
"type": "integer"
},
"tcpSocket": {
"$ref": "core.v1.TCPSocketAction"
},
"terminationGracePeriodSeconds": {
"format": "int64",
"type": "integer"
},
"timeoutSeconds": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ProjectedVolumeSource": {
"properties": {
"defaultMode": {
"format": "int32",
"type": "integer"
},
"defaultUser": {
"format": "int64",
"type": "integer"
},
"sources": {
"items": {
"$ref": "core.v1.VolumeProjection"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.QuobyteVolumeSource": {
"properties": {
"group": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"registry": {
"type": "string"
},
"tenant": {
"type": "string"
},
"user": {
"type": "string"
},
"volume": {
"type": "string"
}
},
"schema": {
"required": [
"registry",
"volume"
],
"type": "object"
}
},
"core.v1.RBDVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"image": {
"type": "string"
},
"keyring": {
"default": "/etc/ceph/keyring",
"type": "string"
},
"monitors": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"pool": {
"default": "rbd",
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.LocalObjectReference"
},
"user": {
"default": "admin",
"type": "string"
}
},
"schema": {
"required": [
"image",
"monitors"
],
"type": "object"
}
},
"core.v1.ResourceClaim": {
"properties": {
"name": {
"type": "string"
},
"request": {
"type": "string"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.ResourceFieldSelector": {
"properties": {
"containerName": {
"type": "string"
},
"divisor": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"resource": {
"type": "string"
}
},
"schema": {
"required": [
"resource"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.ResourceRequirements": {
"properties": {
"claims": {
"items": {
"$ref": "core.v1.ResourceClaim"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"limits": {
"additionalProperties": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": "object"
},
"requests": {
"additionalProperties": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": "object"
}
},
"schema": {
"type": "object"
}
},
"core.v1.SELinuxOptions": {
"properties": {
"level": {
"type": "string"
},
"role": {
"type": "string"
},
"type": {
"type": "string"
},
"user": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ScaleIOVolumeSource": {
"properties": {
"fsType": {
"default": "xfs",
"type": "string"
},
"gateway": {
"type": "string"
},
"protectionDomain": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.LocalObjectReference"
},
"sslEnabled": {
"type": "boolean"
},
"storageMode": {
"default": "ThinProvisioned",
"type": "string"
},
"storagePool": {
"type": "string"
},
"system": {
"type": "string"
},
"volumeName": {
"type": "string"
}
},
"schema": {
"required": [
"gateway",
"secretRef",
"system"
],
"type": "object"
}
},
"core.v1.SeccompProfile": {
"properties": {
"localhostProfile": {
"type": "string"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"type"
],
"type": "object"
}
},
"core.v1.SecretEnvSource": {
"properties": {
"name": {
"default": "",
"type": "string"
},
"optional": {
"type": "boolean"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.SecretKeySelector": {
"properties": {
"key": {
"type": "string"
},
"name": {
"default": "",
"type": "string"
},
"optional": {
"type": "boolean"
}
},
"schema": {
"required": [
"key"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.SecretProjection": {
"properties": {
"items": {
"items": {
"$ref": "core.v1.KeyToPath"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"name": {
"default": "",
"type": "string"
},
"optional": {
"type": "boolean"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.SecretReference": {
"properties": {
"name": {
"type": "string"
},
"namespace": {
"type": "string"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.SecretVolumeSource": {
"properties": {
"defaultMode": {
"format": "int32",
"type": "integer"
},
"defaultUser": {
"format": "int64",
"type": "integer"
},
"items": {
"items": {
"$ref": "core.v1.KeyToPath"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"optional": {
"type": "boolean"
},
"secretName": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.SecurityContext": {
"properties": {
"allowPrivilegeEscalation": {
"type": "boolean"
},
"appArmorProfile": {
"$ref": "core.v1.AppArmorProfile"
},
"capabilities": {
"$ref": "core.v1.Capabilities"
},
"privileged": {
"type": "boolean"
},
"procMount": {
"type": "string"
},
"readOnlyRootFilesystem": {
"type": "boolean"
},
"runAsGroup": {
"format": "int64",
"type": "integer"
},
"runAsNonRoot": {
"type": "boolean"
},
"runAsUser": {
"format": "int64",
"type": "integer"
},
"seLinuxOptions": {
"$ref": "core.v1.SELinuxOptions"
},
"seccompProfile": {
"$ref": "core.v1.SeccompProfile"
},
"windowsOptions": {
"$ref": "core.v1.WindowsSecurityContextOptions"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ServiceAccountTokenProjection": {
"properties": {
"audience": {
"type": "string"
},
"expirationSeconds": {
"format": "int64",
"type": "integer"
},
"path": {
"type": "string"
},
"user": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"path"
],
"type": "object"
}
},
"core.v1.ServicePort": {
"properties": {
"appProtocol": {
"type": "string"
},
"name": {
"type": "string"
},
"nodePort": {
"format": "int32",
"type": "integer"
},
"port": {
"format": "int32",
"type": "integer"
},
"protocol": {
"default": "TCP",
"type": "string"
},
"targetPort": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
}
},
"schema": {
"required": [
"port"
],
"type": "object"
}
},
"core.v1.ServiceSpec": {
"properties": {
"allocateLoadBalancerNodePorts": {
"type": "boolean"
},
"clusterIP": {
"type": "string"
},
"clusterIPs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"externalIPs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"externalName": {
"type": "string"
},
"externalTrafficPolicy": {
"type": "string"
},
"healthCheckNodePort": {
"format": "int32",
"type": "integer"
},
"internalTrafficPolicy": {
"type": "string"
},
"ipFamilies": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"ipFamilyPolicy": {
"type": "string"
},
"loadBalancerClass": {
"type": "string"
},
"loadBalancerIP": {
"type": "string"
},
"loadBalancerSourceRanges": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"ports": {
"items": {
"$ref": "core.v1.ServicePort"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"port",
"protocol"
],
"x-kubernetes-list-type": "map"
},
"publishNotReadyAddresses": {
"type": "boolean"
},
"selector": {
"additionalProperties": {
"type": "string"
},
"type": "object",
"x-kubernetes-map-type": "atomic"
},
"sessionAffinity": {
"type": "string"
},
"sessionAffinityConfig": {
"$ref": "core.v1.SessionAffinityConfig"
},
"trafficDistribution": {
"type": "string"
},
"type": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.SessionAffinityConfig": {
"properties": {
"clientIP": {
"$ref": "core.v1.ClientIPConfig"
}
},
"schema": {
"type": "object"
}
},
"core.v1.SleepAction": {
"properties": {
"seconds": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"seconds"
],
"type": "object"
}
},
"core.v1.StorageOSVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.LocalObjectReference"
},
"volumeName": {
"type": "string"
},
"volumeNamespace": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.Sysctl": {
"properties": {
"name": {
"type": "string"
},
"value": {
"type": "string"
}
},
"schema": {
"required": [
"name",
"value"
],
"type": "object"
}
},
"core.v1.TCPSocketAction": {
"properties": {
"host": {
"type": "string"
},
"port": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
}
},
"schema": {
"required": [
"port"
],
"type": "object"
}
},
"core.v1.Taint": {
"properties": {
"effect": {
"type": "string"
},
"key": {
"type": "string"
},
"timeAdded": {
"format": "date-time",
"type": "string"
},
"value": {
"type": "string"
}
},
"schema": {
"required": [
"effect",
"key"
],
"type": "object"
}
},
"core.v1.Toleration": {
"properties": {
"effect": {
"type": "string"
},
"key": {
"type": "string"
},
"operator": {
"type": "string"
},
"tolerationSeconds": {
"format": "int64",
"type": "integer"
},
"value": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.TopologySpreadConstraint": {
"properties": {
"labelSelector": {
"$ref": "meta.v1.LabelSelector"
},
"matchLabelKeys": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"maxSkew": {
"format": "int32",
"type": "integer"
},
"minDomains": {
"format": "int32",
"type": "integer"
},
"nodeAffinityPolicy": {
"type": "string"
},
"nodeTaintsPolicy": {
"type": "string"
},
"topologyKey": {
"type": "string"
},
"whenUnsatisfiable": {
"type": "string"
}
},
"schema": {
"required": [
"maxSkew",
"topologyKey",
"whenUnsatisfiable"
],
"type": "object"
}
},
"core.v1.TypedLocalObjectReference": {
"properties": {
"apiGroup": {
"type": "string"
},
"kind": {
"type": "string"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"kind",
"name"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.TypedObjectReference": {
"properties": {
"apiGroup": {
"type": "string"
},
"kind": {
"type": "string"
},
"name": {
"type": "string"
},
"namespace": {
"type": "string"
}
},
"schema": {
"required": [
"kind",
"name"
],
"type": "object"
}
},
"core.v1.Volume": {
"properties": {
"awsElasticBlockStore": {
"$ref": "core.v1.AWSElasticBlockStoreVolumeSource"
},
"azureDisk": {
"$ref": "core.v1.AzureDiskVolumeSource"
},
"azureFile": {
"$ref": "core.v1.AzureFileVolumeSource"
},
"cephfs": {
"$ref": "core.v1.CephFSVolumeSource"
},
"cinder": {
"$ref": "core.v1.CinderVolumeSource"
},
"configMap": {
"$ref": "core.v1.ConfigMapVolumeSource"
},
"csi": {
"$ref": "core.v1.CSIVolumeSource"
},
"downwardAPI": {
"$ref": "core.v1.DownwardAPIVolumeSource"
},
"emptyDir": {
"$ref": "core.v1.EmptyDirVolumeSource"
},
"ephemeral": {
"$ref": "core.v1.EphemeralVolumeSource"
},
"fc": {
"$ref": "core.v1.FCVolumeSource"
},
"flexVolume": {
"$ref": "core.v1.FlexVolumeSource"
},
"flocker": {
"$ref": "core.v1.FlockerVolumeSource"
},
"gcePersistentDisk": {
"$ref": "core.v1.GCEPersistentDiskVolumeSource"
},
"gitRepo": {
"$ref": "core.v1.GitRepoVolumeSource"
},
"glusterfs": {
"$ref": "core.v1.GlusterfsVolumeSource"
},
"hostPath": {
"$ref": "core.v1.HostPathVolumeSource"
},
"image": {
"$ref": "core.v1.ImageVolumeSource"
},
"iscsi": {
"$ref": "core.v1.ISCSIVolumeSource"
},
"name": {
"type": "string"
},
"nfs": {
"$ref": "core.v1.NFSVolumeSource"
},
"persistentVolumeClaim": {
"$ref": "core.v1.PersistentVolumeClaimVolumeSource"
},
"photonPersistentDisk": {
"$ref": "core.v1.PhotonPersistentDiskVolumeSource"
},
"portworxVolume": {
"$ref": "core.v1.PortworxVolumeSource"
},
"projected": {
"$ref": "core.v1.ProjectedVolumeSource"
},
"quobyte": {
"$ref": "core.v1.QuobyteVolumeSource"
},
"rbd": {
"$ref": "core.v1.RBDVolumeSource"
},
"scaleIO": {
"$ref": "core.v1.ScaleIOVolumeSource"
},
"secret": {
"$ref": "core.v1.SecretVolumeSource"
},
"storageos": {
"$ref": "core.v1.StorageOSVolumeSource"
},
"vsphereVolume": {
"$ref": "core.v1.VsphereVirtualDiskVolumeSource"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"core.v1.VolumeDevice": {
"properties": {
"devicePath": {
"type": "string"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"devicePath",
"name"
],
"type": "object"
}
},
"core.v1.VolumeHealthCondition": {
"properties": {
"message": {
"type": "string"
},
"reason": {
"minLength": 1,
"type": "string"
},
"status": {
"enum": [
"DataLoss",
"Degraded",
"Inaccessible"
],
"minLength": 1,
"type": "string"
}
},
"schema": {
"required": [
"reason",
"status"
],
"type": "object"
}
},
"core.v1.VolumeHealthStatus": {
"properties": {
"healthConditions": {
"items": {
"$ref": "core.v1.VolumeHealthCondition"
},
"maxItems": 16,
"type": "array",
"x-kubernetes-list-map-keys": [
"status",
"reason"
],
"x-kubernetes-list-type": "map"
},
"lastTransitionTime": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.VolumeMount": {
"properties": {
"bindMountOptions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"mountPath": {
"type": "string"
},
"mountPropagation": {
"type": "string"
},
"name": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"recursiveReadOnly": {
"type": "string"
},
"subPath": {
"type": "string"
},
"subPathExpr": {
"type": "string"
}
},
"schema": {
"required": [
"mountPath",
"name"
],
"type": "object"
}
},
"core.v1.VolumeProjection": {
"properties": {
"clusterTrustBundle": {
"$ref": "core.v1.ClusterTrustBundleProjection"
},
"configMap": {
"$ref": "core.v1.ConfigMapProjection"
},
"downwardAPI": {
"$ref": "core.v1.DownwardAPIProjection"
},
"podCertificate": {
"$ref": "core.v1.PodCertificateProjection"
},
"secret": {
"$ref": "core.v1.SecretProjection"
},
"serviceAccountToken": {
"$ref": "core.v1.ServiceAccountTokenProjection"
}
},
"schema": {
"type": "object"
}
},
"core.v1.VolumeResourceRequirements": {
"properties": {
"limits": {
"additionalProperties": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": "object"
},
"requests": {
"additionalProperties": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
},
"type": "object"
}
},
"schema": {
"type": "object"
}
},
"core.v1.VsphereVirtualDiskVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"storagePolicyID": {
"type": "string"
},
"storagePolicyName": {
"type": "string"
},
"volumePath": {
"type": "string"
}
},
"schema": {
"required": [
"volumePath"
],
"type": "object"
}
},
"core.v1.WeightedPodAffinityTerm": {
"properties": {
"podAffinityTerm": {
"$ref": "core.v1.PodAffinityTerm"
},
"weight": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"podAffinityTerm",
"weight"
],
"type": "object"
}
},
"core.v1.WindowsSecurityContextOptions": {
"properties": {
"gmsaCredentialSpec": {
"type": "string"
},
"gmsaCredentialSpecName": {
"type": "string"
},
"hostProcess": {
"type": "boolean"
},
"runAsUserName": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"meta.v1.LabelSelector": {
"properties": {
"matchExpressions": {
"items": {
"$ref": "meta.v1.LabelSelectorRequirement"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"matchLabels": {
"additionalProperties": {
"type": "string"
},
"type": "object"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"meta.v1.LabelSelectorRequirement": {
"properties": {
"key": {
"type": "string"
},
"operator": {
"type": "string"
},
"values": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"key",
"operator"
],
"type": "object"
}
},
"meta.v1.OwnerReference": {
"properties": {
"apiVersion": {
"type": "string"
},
"blockOwnerDeletion": {
"type": "boolean"
},
"controller": {
"type": "boolean"
},
"kind": {
"type": "string"
},
"name": {
"type": "string"
},
"uid": {
"type": "string"
}
},
"schema": {
"required": [
"apiVersion",
"kind",
"name",
"uid"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"networking.v1.HTTPIngressPath": {
"properties": {
"backend": {
"$ref": "networking.v1.IngressBackend"
},
"path": {
"type": "string"
},
"pathType": {
"type": "string"
}
},
"schema": {
"required": [
"backend",
"pathType"
],
"type": "object"
}
},
"networking.v1.HTTPIngressRuleValue": {
"properties": {
"paths": {
"items": {
"$ref": "networking.v1.HTTPIngressPath"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"paths"
],
"type": "object"
}
},
"networking.v1.IPBlock": {
"properties": {
"cidr": {
"type": "string"
},
"except": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"cidr"
],
"type": "object"
}
},
"networking.v1.IngressBackend": {
"properties": {
"resource": {
"$ref": "core.v1.TypedLocalObjectReference"
},
"service": {
"$ref": "networking.v1.IngressServiceBackend"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.IngressRule": {
"properties": {
"host": {
"type": "string"
},
"http": {
"$ref": "networking.v1.HTTPIngressRuleValue"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.IngressServiceBackend": {
"properties": {
"name": {
"type": "string"
},
"port": {
"$ref": "networking.v1.ServiceBackendPort"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"networking.v1.IngressSpec": {
"properties": {
"defaultBackend": {
"$ref": "networking.v1.IngressBackend"
},
"ingressClassName": {
"type": "string"
},
"rules": {
"items": {
"$ref": "networking.v1.IngressRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"tls": {
"items": {
"$ref": "networking.v1.IngressTLS"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.IngressTLS": {
"properties": {
"hosts": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"secretName": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.NetworkPolicyEgressRule": {
"properties": {
"ports": {
"items": {
"$ref": "networking.v1.NetworkPolicyPort"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"to": {
"items": {
"$ref": "networking.v1.NetworkPolicyPeer"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.NetworkPolicyIngressRule": {
"properties": {
"from": {
"items": {
"$ref": "networking.v1.NetworkPolicyPeer"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"ports": {
"items": {
"$ref": "networking.v1.NetworkPolicyPort"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.NetworkPolicyPeer": {
"properties": {
"ipBlock": {
"$ref": "networking.v1.IPBlock"
},
"namespaceSelector": {
"$ref": "meta.v1.LabelSelector"
},
"podSelector": {
"$ref": "meta.v1.LabelSelector"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.NetworkPolicyPort": {
"properties": {
"endPort": {
"format": "int32",
"type": "integer"
},
"port": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
},
"protocol": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.NetworkPolicySpec": {
"properties": {
"egress": {
"items": {
"$ref": "networking.v1.NetworkPolicyEgressRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"ingress": {
"items": {
"$ref": "networking.v1.NetworkPolicyIngressRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"podSelector": {
"$ref": "meta.v1.LabelSelector"
},
"policyTypes": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.ServiceBackendPort": {
"properties": {
"name": {
"type": "string"
},
"number": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"policy.v1.PodDisruptionBudgetSpec": {
"properties": {
"maxUnavailable": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
},
"minAvailable": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"x-kubernetes-int-or-string": true
},
"selector": {
"$ref": "meta.v1.LabelSelector"
},
"unhealthyPodEvictionPolicy": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"rbac.v1.PolicyRule": {
"properties": {
"apiGroups": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"nonResourceURLs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resourceNames": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resources": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"verbs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"verbs"
],
"type": "object"
}
},
"rbac.v1.RoleRef": {
"properties": {
"apiGroup": {
"type": "string"
},
"kind": {
"type": "string"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"kind",
"name"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"rbac.v1.Subject": {
"properties": {
"apiGroup": {
"type": "string"
},
"kind": {
"type": "string"
},
"name": {
"type": "string"
},
"namespace": {
"type": "string"
}
},
"schema": {
"required": [
"kind",
"name"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"scheduling.v1alpha3.TopologyConstraint": {
"properties": {
"key": {
"minLength": 1,
"type": "string"
}
},
"schema": {
"required": [
"key"
],
"type": "object"
}
},
"scheduling.v1alpha3.WorkloadPodGroupDisruptionMode": {
"properties": {
"all": {
"type": "object"
},
"single": {
"type": "object"
}
},
"schema": {
"type": "object",
"x-kubernetes-validations": [
{
"message": "field is immutable",
"rule": "self == oldSelf"
}
]
}
},
"scheduling.v1alpha3.WorkloadPodGroupGangSchedulingPolicy": {
"properties": {
"minCount": {
"format": "int32",
"minimum": 1,
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"scheduling.v1alpha3.WorkloadPodGroupResourceClaim": {
"properties": {
"name": {
"minLength": 1,
"type": "string"
},
"resourceClaimName": {
"type": "string"
},
"resourceClaimTemplateName": {
"type": "string"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"scheduling.v1alpha3.WorkloadPodGroupSchedulingConstraints": {
"properties": {
"topology": {
"items": {
"$ref": "scheduling.v1alpha3.TopologyConstraint"
},
"maxItems": 1,
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object",
"x-kubernetes-validations": [
{
"message": "field is immutable",
"rule": "self == oldSelf"
}
]
}
},
"scheduling.v1alpha3.WorkloadPodGroupSchedulingPolicy": {
"properties": {
"basic": {
"type": "object"
},
"gang": {
"$ref": "scheduling.v1alpha3.WorkloadPodGroupGangSchedulingPolicy"
}
},
"schema": {
"type": "object"
}
}
}''')
