"""controller-gen v0.23.0's schema of the k8s.io/api types a CRD embeds, by class of a kgen-generated
package (``<group>.<version>.<Kind>``): written by hack/controller-gen/k8s_schemas.py, which says
how; do not edit."""

import json
from typing import Any

#: ``key -> {"schema": the class's own keywords, "properties": wire name -> field schema}``.
SCHEMAS: dict[str, dict[str, Any]] = json.loads(r'''{
"admissionregistration.v1.ApplyConfiguration": {
"properties": {
"expression": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.AuditAnnotation": {
"properties": {
"key": {
"type": "string"
},
"valueExpression": {
"type": "string"
}
},
"schema": {
"required": [
"key",
"valueExpression"
],
"type": "object"
}
},
"admissionregistration.v1.ExpressionWarning": {
"properties": {
"fieldRef": {
"type": "string"
},
"warning": {
"type": "string"
}
},
"schema": {
"required": [
"fieldRef",
"warning"
],
"type": "object"
}
},
"admissionregistration.v1.JSONPatch": {
"properties": {
"expression": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.MatchCondition": {
"properties": {
"expression": {
"type": "string"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"expression",
"name"
],
"type": "object"
}
},
"admissionregistration.v1.MatchResources": {
"properties": {
"excludeResourceRules": {
"items": {
"$ref": "admissionregistration.v1.NamedRuleWithOperations"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"matchPolicy": {
"type": "string"
},
"namespaceSelector": {
"$ref": "meta.v1.LabelSelector"
},
"objectSelector": {
"$ref": "meta.v1.LabelSelector"
},
"resourceRules": {
"items": {
"$ref": "admissionregistration.v1.NamedRuleWithOperations"
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
"admissionregistration.v1.MutatingAdmissionPolicy": {
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
"$ref": "admissionregistration.v1.MutatingAdmissionPolicySpec"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.MutatingAdmissionPolicyBinding": {
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
"$ref": "admissionregistration.v1.MutatingAdmissionPolicyBindingSpec"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.MutatingAdmissionPolicyBindingList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "admissionregistration.v1.MutatingAdmissionPolicyBinding"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"admissionregistration.v1.MutatingAdmissionPolicyBindingSpec": {
"properties": {
"matchResources": {
"$ref": "admissionregistration.v1.MatchResources"
},
"paramRef": {
"$ref": "admissionregistration.v1.ParamRef"
},
"policyName": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.MutatingAdmissionPolicyList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "admissionregistration.v1.MutatingAdmissionPolicy"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"admissionregistration.v1.MutatingAdmissionPolicySpec": {
"properties": {
"failurePolicy": {
"type": "string"
},
"matchConditions": {
"items": {
"$ref": "admissionregistration.v1.MatchCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"matchConstraints": {
"$ref": "admissionregistration.v1.MatchResources"
},
"mutations": {
"items": {
"$ref": "admissionregistration.v1.Mutation"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"paramKind": {
"$ref": "admissionregistration.v1.ParamKind"
},
"reinvocationPolicy": {
"type": "string"
},
"variables": {
"items": {
"$ref": "admissionregistration.v1.Variable"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.MutatingWebhook": {
"properties": {
"admissionReviewVersions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"clientConfig": {
"$ref": "admissionregistration.v1.WebhookClientConfig"
},
"failurePolicy": {
"type": "string"
},
"matchConditions": {
"items": {
"$ref": "admissionregistration.v1.MatchCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"matchPolicy": {
"type": "string"
},
"name": {
"type": "string"
},
"namespaceSelector": {
"$ref": "meta.v1.LabelSelector"
},
"objectSelector": {
"$ref": "meta.v1.LabelSelector"
},
"reinvocationPolicy": {
"type": "string"
},
"rules": {
"items": {
"$ref": "admissionregistration.v1.RuleWithOperations"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"sideEffects": {
"type": "string"
},
"timeoutSeconds": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"admissionReviewVersions",
"clientConfig",
"name",
"sideEffects"
],
"type": "object"
}
},
"admissionregistration.v1.MutatingWebhookConfiguration": {
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
"webhooks": {
"items": {
"$ref": "admissionregistration.v1.MutatingWebhook"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.MutatingWebhookConfigurationList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "admissionregistration.v1.MutatingWebhookConfiguration"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"admissionregistration.v1.Mutation": {
"properties": {
"applyConfiguration": {
"$ref": "admissionregistration.v1.ApplyConfiguration"
},
"jsonPatch": {
"$ref": "admissionregistration.v1.JSONPatch"
},
"patchType": {
"type": "string"
}
},
"schema": {
"required": [
"patchType"
],
"type": "object"
}
},
"admissionregistration.v1.NamedRuleWithOperations": {
"properties": {
"apiGroups": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"apiVersions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"operations": {
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
"scope": {
"type": "string"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"admissionregistration.v1.ParamKind": {
"properties": {
"apiVersion": {
"type": "string"
},
"kind": {
"type": "string"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"admissionregistration.v1.ParamRef": {
"properties": {
"name": {
"type": "string"
},
"namespace": {
"type": "string"
},
"parameterNotFoundAction": {
"type": "string"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"admissionregistration.v1.RuleWithOperations": {
"properties": {
"apiGroups": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"apiVersions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"operations": {
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
"scope": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.ServiceReference": {
"properties": {
"name": {
"type": "string"
},
"namespace": {
"type": "string"
},
"path": {
"type": "string"
},
"port": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"name",
"namespace"
],
"type": "object"
}
},
"admissionregistration.v1.TypeChecking": {
"properties": {
"expressionWarnings": {
"items": {
"$ref": "admissionregistration.v1.ExpressionWarning"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.ValidatingAdmissionPolicy": {
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
"$ref": "admissionregistration.v1.ValidatingAdmissionPolicySpec"
},
"status": {
"$ref": "admissionregistration.v1.ValidatingAdmissionPolicyStatus"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.ValidatingAdmissionPolicyBinding": {
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
"$ref": "admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"admissionregistration.v1.ValidatingAdmissionPolicyBindingList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "admissionregistration.v1.ValidatingAdmissionPolicyBinding"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec": {
"properties": {
"matchResources": {
"$ref": "admissionregistration.v1.MatchResources"
},
"paramRef": {
"$ref": "admissionregistration.v1.ParamRef"
},
"policyName": {
"type": "string"
},
"validationActions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"required": [
"policyName",
"validationActions"
],
"type": "object"
}
},
"admissionregistration.v1.ValidatingAdmissionPolicyList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "admissionregistration.v1.ValidatingAdmissionPolicy"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"admissionregistration.v1.ValidatingAdmissionPolicySpec": {
"properties": {
"auditAnnotations": {
"items": {
"$ref": "admissionregistration.v1.AuditAnnotation"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"failurePolicy": {
"type": "string"
},
"matchConditions": {
"items": {
"$ref": "admissionregistration.v1.MatchCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"matchConstraints": {
"$ref": "admissionregistration.v1.MatchResources"
},
"paramKind": {
"$ref": "admissionregistration.v1.ParamKind"
},
"validations": {
"items": {
"$ref": "admissionregistration.v1.Validation"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"variables": {
"items": {
"$ref": "admissionregistration.v1.Variable"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.ValidatingAdmissionPolicyStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
},
"typeChecking": {
"$ref": "admissionregistration.v1.TypeChecking"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.ValidatingWebhook": {
"properties": {
"admissionReviewVersions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"clientConfig": {
"$ref": "admissionregistration.v1.WebhookClientConfig"
},
"failurePolicy": {
"type": "string"
},
"matchConditions": {
"items": {
"$ref": "admissionregistration.v1.MatchCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"matchPolicy": {
"type": "string"
},
"name": {
"type": "string"
},
"namespaceSelector": {
"$ref": "meta.v1.LabelSelector"
},
"objectSelector": {
"$ref": "meta.v1.LabelSelector"
},
"rules": {
"items": {
"$ref": "admissionregistration.v1.RuleWithOperations"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"sideEffects": {
"type": "string"
},
"timeoutSeconds": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"admissionReviewVersions",
"clientConfig",
"name",
"sideEffects"
],
"type": "object"
}
},
"admissionregistration.v1.ValidatingWebhookConfiguration": {
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
"webhooks": {
"items": {
"$ref": "admissionregistration.v1.ValidatingWebhook"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"admissionregistration.v1.ValidatingWebhookConfigurationList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "admissionregistration.v1.ValidatingWebhookConfiguration"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"admissionregistration.v1.Validation": {
"properties": {
"expression": {
"type": "string"
},
"message": {
"type": "string"
},
"messageExpression": {
"type": "string"
},
"reason": {
"type": "string"
}
},
"schema": {
"required": [
"expression"
],
"type": "object"
}
},
"admissionregistration.v1.Variable": {
"properties": {
"expression": {
"type": "string"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"expression",
"name"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"admissionregistration.v1.WebhookClientConfig": {
"properties": {
"caBundle": {
"format": "byte",
"type": "string"
},
"service": {
"$ref": "admissionregistration.v1.ServiceReference"
},
"url": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"apps.v1.ControllerRevision": {
"properties": {
"apiVersion": {
"type": "string"
},
"data": {
"type": "object",
"x-kubernetes-preserve-unknown-fields": true
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"revision": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"data"
],
"type": "object"
}
},
"apps.v1.ControllerRevisionList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "apps.v1.ControllerRevision"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"apps.v1.DaemonSet": {
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
"$ref": "apps.v1.DaemonSetSpec"
},
"status": {
"$ref": "apps.v1.DaemonSetStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"apps.v1.DaemonSetCondition": {
"properties": {
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
"type": "object"
}
},
"apps.v1.DaemonSetList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "apps.v1.DaemonSet"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
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
"apps.v1.DaemonSetStatus": {
"properties": {
"collisionCount": {
"format": "int32",
"type": "integer"
},
"conditions": {
"items": {
"$ref": "apps.v1.DaemonSetCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"currentNumberScheduled": {
"format": "int32",
"type": "integer"
},
"desiredNumberScheduled": {
"format": "int32",
"type": "integer"
},
"numberAvailable": {
"format": "int32",
"type": "integer"
},
"numberMisscheduled": {
"format": "int32",
"type": "integer"
},
"numberReady": {
"format": "int32",
"type": "integer"
},
"numberUnavailable": {
"format": "int32",
"type": "integer"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
},
"updatedNumberScheduled": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"currentNumberScheduled",
"desiredNumberScheduled",
"numberMisscheduled",
"numberReady"
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
"apps.v1.Deployment": {
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
"$ref": "apps.v1.DeploymentSpec"
},
"status": {
"$ref": "apps.v1.DeploymentStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"apps.v1.DeploymentCondition": {
"properties": {
"lastTransitionTime": {
"format": "date-time",
"type": "string"
},
"lastUpdateTime": {
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
"type": "object"
}
},
"apps.v1.DeploymentList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "apps.v1.Deployment"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"apps.v1.DeploymentStatus": {
"properties": {
"availableReplicas": {
"format": "int32",
"type": "integer"
},
"collisionCount": {
"format": "int32",
"type": "integer"
},
"conditions": {
"items": {
"$ref": "apps.v1.DeploymentCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
},
"readyReplicas": {
"format": "int32",
"type": "integer"
},
"replicas": {
"format": "int32",
"type": "integer"
},
"terminatingReplicas": {
"format": "int32",
"type": "integer"
},
"unavailableReplicas": {
"format": "int32",
"type": "integer"
},
"updatedReplicas": {
"format": "int32",
"type": "integer"
}
},
"schema": {
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
"apps.v1.ReplicaSet": {
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
"$ref": "apps.v1.ReplicaSetSpec"
},
"status": {
"$ref": "apps.v1.ReplicaSetStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"apps.v1.ReplicaSetCondition": {
"properties": {
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
"type": "object"
}
},
"apps.v1.ReplicaSetList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "apps.v1.ReplicaSet"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"apps.v1.ReplicaSetSpec": {
"properties": {
"minReadySeconds": {
"format": "int32",
"type": "integer"
},
"replicas": {
"format": "int32",
"type": "integer"
},
"selector": {
"$ref": "meta.v1.LabelSelector"
},
"template": {
"$ref": "core.v1.PodTemplateSpec"
}
},
"schema": {
"required": [
"selector"
],
"type": "object"
}
},
"apps.v1.ReplicaSetStatus": {
"properties": {
"availableReplicas": {
"format": "int32",
"type": "integer"
},
"conditions": {
"items": {
"$ref": "apps.v1.ReplicaSetCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"fullyLabeledReplicas": {
"format": "int32",
"type": "integer"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
},
"readyReplicas": {
"format": "int32",
"type": "integer"
},
"replicas": {
"format": "int32",
"type": "integer"
},
"terminatingReplicas": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"replicas"
],
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
"apps.v1.StatefulSet": {
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
"$ref": "apps.v1.StatefulSetSpec"
},
"status": {
"$ref": "apps.v1.StatefulSetStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"apps.v1.StatefulSetCondition": {
"properties": {
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
"type": "object"
}
},
"apps.v1.StatefulSetList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "apps.v1.StatefulSet"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"apps.v1.StatefulSetStatus": {
"properties": {
"availableReplicas": {
"format": "int32",
"type": "integer"
},
"collisionCount": {
"format": "int32",
"type": "integer"
},
"conditions": {
"items": {
"$ref": "apps.v1.StatefulSetCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"currentReplicas": {
"format": "int32",
"type": "integer"
},
"currentRevision": {
"type": "string"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
},
"readyReplicas": {
"format": "int32",
"type": "integer"
},
"replicas": {
"format": "int32",
"type": "integer"
},
"updateRevision": {
"type": "string"
},
"updatedReplicas": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"replicas"
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
"authentication.v1.BoundObjectReference": {
"properties": {
"apiVersion": {
"type": "string"
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
"type": "object"
}
},
"authentication.v1.SelfSubjectReview": {
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
"status": {
"$ref": "authentication.v1.SelfSubjectReviewStatus"
}
},
"schema": {
"type": "object"
}
},
"authentication.v1.SelfSubjectReviewStatus": {
"properties": {
"userInfo": {
"$ref": "authentication.v1.UserInfo"
}
},
"schema": {
"type": "object"
}
},
"authentication.v1.TokenRequest": {
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
"$ref": "authentication.v1.TokenRequestSpec"
},
"status": {
"$ref": "authentication.v1.TokenRequestStatus"
}
},
"schema": {
"type": "object"
}
},
"authentication.v1.TokenRequestSpec": {
"properties": {
"attestations": {
"additionalProperties": {
"items": {
"type": "string"
},
"type": "array"
},
"type": "object"
},
"audiences": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"boundObjectRef": {
"$ref": "authentication.v1.BoundObjectReference"
},
"expirationSeconds": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"authentication.v1.TokenRequestStatus": {
"properties": {
"expirationTimestamp": {
"format": "date-time",
"type": "string"
},
"token": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"authentication.v1.TokenReview": {
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
"$ref": "authentication.v1.TokenReviewSpec"
},
"status": {
"$ref": "authentication.v1.TokenReviewStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"authentication.v1.TokenReviewSpec": {
"properties": {
"audiences": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"token": {
"type": "string"
}
},
"schema": {
"required": [
"token"
],
"type": "object"
}
},
"authentication.v1.TokenReviewStatus": {
"properties": {
"audiences": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"authenticated": {
"type": "boolean"
},
"error": {
"type": "string"
},
"user": {
"$ref": "authentication.v1.UserInfo"
}
},
"schema": {
"type": "object"
}
},
"authentication.v1.UserInfo": {
"properties": {
"extra": {
"additionalProperties": {
"items": {
"type": "string"
},
"type": "array"
},
"type": "object"
},
"groups": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"uid": {
"type": "string"
},
"username": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"authorization.v1.FieldSelectorAttributes": {
"properties": {
"rawSelector": {
"type": "string"
},
"requirements": {
"items": {
"$ref": "meta.v1.FieldSelectorRequirement"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"authorization.v1.LabelSelectorAttributes": {
"properties": {
"rawSelector": {
"type": "string"
},
"requirements": {
"items": {
"$ref": "meta.v1.LabelSelectorRequirement"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"authorization.v1.LocalSubjectAccessReview": {
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
"$ref": "authorization.v1.SubjectAccessReviewSpec"
},
"status": {
"$ref": "authorization.v1.SubjectAccessReviewStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"authorization.v1.NonResourceAttributes": {
"properties": {
"path": {
"type": "string"
},
"verb": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"authorization.v1.NonResourceRule": {
"properties": {
"nonResourceURLs": {
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
"authorization.v1.ResourceAttributes": {
"properties": {
"fieldSelector": {
"$ref": "authorization.v1.FieldSelectorAttributes"
},
"group": {
"type": "string"
},
"labelSelector": {
"$ref": "authorization.v1.LabelSelectorAttributes"
},
"name": {
"type": "string"
},
"namespace": {
"type": "string"
},
"resource": {
"type": "string"
},
"subresource": {
"type": "string"
},
"verb": {
"type": "string"
},
"version": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"authorization.v1.ResourceRule": {
"properties": {
"apiGroups": {
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
"authorization.v1.SelfSubjectAccessReview": {
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
"$ref": "authorization.v1.SelfSubjectAccessReviewSpec"
},
"status": {
"$ref": "authorization.v1.SubjectAccessReviewStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"authorization.v1.SelfSubjectAccessReviewSpec": {
"properties": {
"nonResourceAttributes": {
"$ref": "authorization.v1.NonResourceAttributes"
},
"resourceAttributes": {
"$ref": "authorization.v1.ResourceAttributes"
}
},
"schema": {
"type": "object"
}
},
"authorization.v1.SelfSubjectRulesReview": {
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
"$ref": "authorization.v1.SelfSubjectRulesReviewSpec"
},
"status": {
"$ref": "authorization.v1.SubjectRulesReviewStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"authorization.v1.SelfSubjectRulesReviewSpec": {
"properties": {
"namespace": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"authorization.v1.SubjectAccessReview": {
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
"$ref": "authorization.v1.SubjectAccessReviewSpec"
},
"status": {
"$ref": "authorization.v1.SubjectAccessReviewStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"authorization.v1.SubjectAccessReviewSpec": {
"properties": {
"extra": {
"additionalProperties": {
"items": {
"type": "string"
},
"type": "array"
},
"type": "object"
},
"groups": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"nonResourceAttributes": {
"$ref": "authorization.v1.NonResourceAttributes"
},
"resourceAttributes": {
"$ref": "authorization.v1.ResourceAttributes"
},
"uid": {
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
"authorization.v1.SubjectAccessReviewStatus": {
"properties": {
"allowed": {
"type": "boolean"
},
"denied": {
"type": "boolean"
},
"evaluationError": {
"type": "string"
},
"reason": {
"type": "string"
}
},
"schema": {
"required": [
"allowed"
],
"type": "object"
}
},
"authorization.v1.SubjectRulesReviewStatus": {
"properties": {
"evaluationError": {
"type": "string"
},
"incomplete": {
"type": "boolean"
},
"nonResourceRules": {
"items": {
"$ref": "authorization.v1.NonResourceRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resourceRules": {
"items": {
"$ref": "authorization.v1.ResourceRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"incomplete",
"nonResourceRules",
"resourceRules"
],
"type": "object"
}
},
"autoscaling.v1.CrossVersionObjectReference": {
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
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"autoscaling.v1.HorizontalPodAutoscaler": {
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
"$ref": "autoscaling.v1.HorizontalPodAutoscalerSpec"
},
"status": {
"$ref": "autoscaling.v1.HorizontalPodAutoscalerStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"autoscaling.v1.HorizontalPodAutoscalerList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "autoscaling.v1.HorizontalPodAutoscaler"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"autoscaling.v1.HorizontalPodAutoscalerSpec": {
"properties": {
"maxReplicas": {
"format": "int32",
"type": "integer"
},
"minReplicas": {
"format": "int32",
"type": "integer"
},
"scaleTargetRef": {
"$ref": "autoscaling.v1.CrossVersionObjectReference"
},
"targetCPUUtilizationPercentage": {
"format": "int32",
"type": "integer"
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
"autoscaling.v1.HorizontalPodAutoscalerStatus": {
"properties": {
"currentCPUUtilizationPercentage": {
"format": "int32",
"type": "integer"
},
"currentReplicas": {
"format": "int32",
"type": "integer"
},
"desiredReplicas": {
"format": "int32",
"type": "integer"
},
"lastScaleTime": {
"format": "date-time",
"type": "string"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"currentReplicas",
"desiredReplicas"
],
"type": "object"
}
},
"autoscaling.v1.Scale": {
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
"$ref": "autoscaling.v1.ScaleSpec"
},
"status": {
"$ref": "autoscaling.v1.ScaleStatus"
}
},
"schema": {
"type": "object"
}
},
"autoscaling.v1.ScaleSpec": {
"properties": {
"replicas": {
"default": 0,
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"autoscaling.v1.ScaleStatus": {
"properties": {
"replicas": {
"format": "int32",
"type": "integer"
},
"selector": {
"type": "string"
}
},
"schema": {
"required": [
"replicas"
],
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
"autoscaling.v2.ContainerResourceMetricStatus": {
"properties": {
"container": {
"type": "string"
},
"current": {
"$ref": "autoscaling.v2.MetricValueStatus"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"container",
"current",
"name"
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
"autoscaling.v2.ExternalMetricStatus": {
"properties": {
"current": {
"$ref": "autoscaling.v2.MetricValueStatus"
},
"metric": {
"$ref": "autoscaling.v2.MetricIdentifier"
}
},
"schema": {
"required": [
"current",
"metric"
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
"autoscaling.v2.HorizontalPodAutoscaler": {
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
"$ref": "autoscaling.v2.HorizontalPodAutoscalerSpec"
},
"status": {
"$ref": "autoscaling.v2.HorizontalPodAutoscalerStatus"
}
},
"schema": {
"required": [
"spec"
],
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
"autoscaling.v2.HorizontalPodAutoscalerCondition": {
"properties": {
"lastTransitionTime": {
"format": "date-time",
"type": "string"
},
"message": {
"type": "string"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
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
"autoscaling.v2.HorizontalPodAutoscalerList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "autoscaling.v2.HorizontalPodAutoscaler"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"autoscaling.v2.HorizontalPodAutoscalerStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "autoscaling.v2.HorizontalPodAutoscalerCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"currentMetrics": {
"items": {
"$ref": "autoscaling.v2.MetricStatus"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"currentReplicas": {
"format": "int32",
"type": "integer"
},
"desiredReplicas": {
"format": "int32",
"type": "integer"
},
"lastScaleTime": {
"format": "date-time",
"type": "string"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"desiredReplicas"
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
"autoscaling.v2.MetricStatus": {
"properties": {
"containerResource": {
"$ref": "autoscaling.v2.ContainerResourceMetricStatus"
},
"external": {
"$ref": "autoscaling.v2.ExternalMetricStatus"
},
"object": {
"$ref": "autoscaling.v2.ObjectMetricStatus"
},
"pods": {
"$ref": "autoscaling.v2.PodsMetricStatus"
},
"resource": {
"$ref": "autoscaling.v2.ResourceMetricStatus"
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
"autoscaling.v2.MetricValueStatus": {
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
"autoscaling.v2.ObjectMetricStatus": {
"properties": {
"current": {
"$ref": "autoscaling.v2.MetricValueStatus"
},
"describedObject": {
"$ref": "autoscaling.v2.CrossVersionObjectReference"
},
"metric": {
"$ref": "autoscaling.v2.MetricIdentifier"
}
},
"schema": {
"required": [
"current",
"describedObject",
"metric"
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
"autoscaling.v2.PodsMetricStatus": {
"properties": {
"current": {
"$ref": "autoscaling.v2.MetricValueStatus"
},
"metric": {
"$ref": "autoscaling.v2.MetricIdentifier"
}
},
"schema": {
"required": [
"current",
"metric"
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
"autoscaling.v2.ResourceMetricStatus": {
"properties": {
"current": {
"$ref": "autoscaling.v2.MetricValueStatus"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"current",
"name"
],
"type": "object"
}
},
"batch.v1.CronJob": {
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
"$ref": "batch.v1.CronJobSpec"
},
"status": {
"$ref": "batch.v1.CronJobStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"batch.v1.CronJobList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "batch.v1.CronJob"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
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
"batch.v1.CronJobStatus": {
"properties": {
"active": {
"items": {
"$ref": "core.v1.ObjectReference"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"lastScheduleTime": {
"format": "date-time",
"type": "string"
},
"lastSuccessfulTime": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"batch.v1.Job": {
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
"$ref": "batch.v1.JobSpec"
},
"status": {
"$ref": "batch.v1.JobStatus"
}
},
"schema": {
"type": "object"
}
},
"batch.v1.JobCondition": {
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
"batch.v1.JobList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "batch.v1.Job"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"batch.v1.JobSchedulingConfiguration": {
"properties": {
"disruptionMode": {
"$ref": "scheduling.v1alpha3.WorkloadPodGroupDisruptionMode",
"x-kubernetes-validations": [
{
"message": "field is immutable",
"rule": "self == oldSelf"
}
]
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
"$ref": "scheduling.v1alpha3.WorkloadPodGroupSchedulingConstraints",
"x-kubernetes-validations": [
{
"message": "field is immutable",
"rule": "self == oldSelf"
}
]
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
"batch.v1.JobStatus": {
"properties": {
"active": {
"format": "int32",
"type": "integer"
},
"completedIndexes": {
"type": "string"
},
"completionTime": {
"format": "date-time",
"type": "string"
},
"conditions": {
"items": {
"$ref": "batch.v1.JobCondition"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"failed": {
"format": "int32",
"type": "integer"
},
"failedIndexes": {
"type": "string"
},
"ready": {
"format": "int32",
"type": "integer"
},
"startTime": {
"format": "date-time",
"type": "string"
},
"succeeded": {
"format": "int32",
"type": "integer"
},
"terminating": {
"format": "int32",
"type": "integer"
},
"uncountedTerminatedPods": {
"$ref": "batch.v1.UncountedTerminatedPods"
}
},
"schema": {
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
"batch.v1.UncountedTerminatedPods": {
"properties": {
"failed": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"succeeded": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"type": "object"
}
},
"certificates.v1.CertificateSigningRequest": {
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
"$ref": "certificates.v1.CertificateSigningRequestSpec"
},
"status": {
"$ref": "certificates.v1.CertificateSigningRequestStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"certificates.v1.CertificateSigningRequestCondition": {
"properties": {
"lastTransitionTime": {
"format": "date-time",
"type": "string"
},
"lastUpdateTime": {
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
"certificates.v1.CertificateSigningRequestList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "certificates.v1.CertificateSigningRequest"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"certificates.v1.CertificateSigningRequestSpec": {
"properties": {
"expirationSeconds": {
"format": "int32",
"type": "integer"
},
"extra": {
"additionalProperties": {
"items": {
"type": "string"
},
"type": "array"
},
"type": "object"
},
"groups": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"request": {
"format": "byte",
"type": "string"
},
"signerName": {
"type": "string"
},
"uid": {
"type": "string"
},
"usages": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"username": {
"type": "string"
}
},
"schema": {
"required": [
"request",
"signerName"
],
"type": "object"
}
},
"certificates.v1.CertificateSigningRequestStatus": {
"properties": {
"certificate": {
"format": "byte",
"type": "string"
},
"conditions": {
"items": {
"$ref": "certificates.v1.CertificateSigningRequestCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"certificates.v1.ClusterTrustBundle": {
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
"$ref": "certificates.v1.ClusterTrustBundleSpec"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"certificates.v1.ClusterTrustBundleList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "certificates.v1.ClusterTrustBundle"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"certificates.v1.ClusterTrustBundleSpec": {
"properties": {
"signerName": {
"type": "string"
},
"trustBundle": {
"type": "string"
}
},
"schema": {
"required": [
"trustBundle"
],
"type": "object"
}
},
"certificates.v1.PodCertificateRequest": {
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
"$ref": "certificates.v1.PodCertificateRequestSpec"
},
"status": {
"$ref": "certificates.v1.PodCertificateRequestStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"certificates.v1.PodCertificateRequestList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "certificates.v1.PodCertificateRequest"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"certificates.v1.PodCertificateRequestSpec": {
"properties": {
"maxExpirationSeconds": {
"default": 86400,
"format": "int32",
"type": "integer"
},
"nodeName": {
"type": "string"
},
"nodeUID": {
"type": "string"
},
"podName": {
"type": "string"
},
"podUID": {
"type": "string"
},
"serviceAccountName": {
"type": "string"
},
"serviceAccountUID": {
"type": "string"
},
"signerName": {
"type": "string"
},
"stubPKCS10Request": {
"format": "byte",
"type": "string"
},
"unverifiedUserAnnotations": {
"additionalProperties": {
"type": "string"
},
"type": "object"
}
},
"schema": {
"required": [
"nodeName",
"nodeUID",
"podName",
"podUID",
"serviceAccountName",
"serviceAccountUID",
"signerName",
"stubPKCS10Request"
],
"type": "object"
}
},
"certificates.v1.PodCertificateRequestStatus": {
"properties": {
"beginRefreshAt": {
"format": "date-time",
"type": "string"
},
"certificateChain": {
"type": "string"
},
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"notAfter": {
"format": "date-time",
"type": "string"
},
"notBefore": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"coordination.v1.Lease": {
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
"$ref": "coordination.v1.LeaseSpec"
}
},
"schema": {
"type": "object"
}
},
"coordination.v1.LeaseList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "coordination.v1.Lease"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"coordination.v1.LeaseSpec": {
"properties": {
"acquireTime": {
"format": "date-time",
"type": "string"
},
"holderIdentity": {
"type": "string"
},
"leaseDurationSeconds": {
"format": "int32",
"type": "integer"
},
"leaseTransitions": {
"format": "int32",
"type": "integer"
},
"preferredHolder": {
"type": "string"
},
"renewTime": {
"format": "date-time",
"type": "string"
},
"strategy": {
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
"core.v1.AttachedVolume": {
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
"core.v1.AzureFilePersistentVolumeSource": {
"properties": {
"readOnly": {
"type": "boolean"
},
"secretName": {
"type": "string"
},
"secretNamespace": {
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
"core.v1.Binding": {
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
"target": {
"$ref": "core.v1.ObjectReference"
}
},
"schema": {
"required": [
"target"
],
"type": "object"
}
},
"core.v1.CSIPersistentVolumeSource": {
"properties": {
"controllerExpandSecretRef": {
"$ref": "core.v1.SecretReference"
},
"controllerPublishSecretRef": {
"$ref": "core.v1.SecretReference"
},
"driver": {
"type": "string"
},
"fsType": {
"type": "string"
},
"nodeExpandSecretRef": {
"$ref": "core.v1.SecretReference"
},
"nodePublishSecretRef": {
"$ref": "core.v1.SecretReference"
},
"nodeStageSecretRef": {
"$ref": "core.v1.SecretReference"
},
"readOnly": {
"type": "boolean"
},
"volumeAttributes": {
"additionalProperties": {
"type": "string"
},
"type": "object"
},
"volumeHandle": {
"type": "string"
}
},
"schema": {
"required": [
"driver",
"volumeHandle"
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
"core.v1.CephFSPersistentVolumeSource": {
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
"$ref": "core.v1.SecretReference"
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
"core.v1.CinderPersistentVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.SecretReference"
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
"core.v1.ComponentCondition": {
"properties": {
"error": {
"type": "string"
},
"message": {
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
"core.v1.ComponentStatus": {
"properties": {
"apiVersion": {
"type": "string"
},
"conditions": {
"items": {
"$ref": "core.v1.ComponentCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ComponentStatusList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.ComponentStatus"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.ConfigMap": {
"properties": {
"apiVersion": {
"type": "string"
},
"binaryData": {
"additionalProperties": {
"format": "byte",
"type": "string"
},
"type": "object"
},
"data": {
"additionalProperties": {
"type": "string"
},
"type": "object"
},
"immutable": {
"type": "boolean"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
}
},
"schema": {
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
"core.v1.ConfigMapList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.ConfigMap"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.ConfigMapNodeConfigSource": {
"properties": {
"kubeletConfigKey": {
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
"required": [
"kubeletConfigKey",
"name",
"namespace"
],
"type": "object"
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
"core.v1.ContainerExtendedResourceRequest": {
"properties": {
"containerName": {
"type": "string"
},
"requestName": {
"type": "string"
},
"resourceName": {
"type": "string"
}
},
"schema": {
"required": [
"containerName",
"requestName",
"resourceName"
],
"type": "object"
}
},
"core.v1.ContainerImage": {
"properties": {
"names": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"sizeBytes": {
"format": "int64",
"type": "integer"
}
},
"schema": {
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
"core.v1.ContainerState": {
"properties": {
"running": {
"$ref": "core.v1.ContainerStateRunning"
},
"terminated": {
"$ref": "core.v1.ContainerStateTerminated"
},
"waiting": {
"$ref": "core.v1.ContainerStateWaiting"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ContainerStateRunning": {
"properties": {
"startedAt": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ContainerStateTerminated": {
"properties": {
"containerID": {
"type": "string"
},
"exitCode": {
"format": "int32",
"type": "integer"
},
"finishedAt": {
"format": "date-time",
"type": "string"
},
"message": {
"type": "string"
},
"reason": {
"type": "string"
},
"signal": {
"format": "int32",
"type": "integer"
},
"startedAt": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"required": [
"exitCode"
],
"type": "object"
}
},
"core.v1.ContainerStateWaiting": {
"properties": {
"message": {
"type": "string"
},
"reason": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ContainerStatus": {
"properties": {
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
"allocatedResourcesStatus": {
"items": {
"$ref": "core.v1.ResourceStatus"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"containerID": {
"type": "string"
},
"image": {
"type": "string"
},
"imageID": {
"type": "string"
},
"lastState": {
"$ref": "core.v1.ContainerState"
},
"name": {
"type": "string"
},
"ready": {
"type": "boolean"
},
"resources": {
"$ref": "core.v1.ResourceRequirements"
},
"restartCount": {
"format": "int32",
"type": "integer"
},
"started": {
"type": "boolean"
},
"state": {
"$ref": "core.v1.ContainerState"
},
"stopSignal": {
"type": "string"
},
"user": {
"$ref": "core.v1.ContainerUser"
},
"volumeMounts": {
"items": {
"$ref": "core.v1.VolumeMountStatus"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"mountPath"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"required": [
"image",
"imageID",
"name",
"ready",
"restartCount"
],
"type": "object"
}
},
"core.v1.ContainerUser": {
"properties": {
"linux": {
"$ref": "core.v1.LinuxContainerUser"
}
},
"schema": {
"type": "object"
}
},
"core.v1.DaemonEndpoint": {
"properties": {
"Port": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"Port"
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
"core.v1.EndpointAddress": {
"properties": {
"hostname": {
"type": "string"
},
"ip": {
"type": "string"
},
"nodeName": {
"type": "string"
},
"targetRef": {
"$ref": "core.v1.ObjectReference"
}
},
"schema": {
"required": [
"ip"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.EndpointPort": {
"properties": {
"appProtocol": {
"type": "string"
},
"name": {
"type": "string"
},
"port": {
"format": "int32",
"type": "integer"
},
"protocol": {
"type": "string"
}
},
"schema": {
"required": [
"port"
],
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"core.v1.EndpointSubset": {
"properties": {
"addresses": {
"items": {
"$ref": "core.v1.EndpointAddress"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"notReadyAddresses": {
"items": {
"$ref": "core.v1.EndpointAddress"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"ports": {
"items": {
"$ref": "core.v1.EndpointPort"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.Endpoints": {
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
"subsets": {
"items": {
"$ref": "core.v1.EndpointSubset"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.EndpointsList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.Endpoints"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"core.v1.Event": {
"properties": {
"action": {
"type": "string"
},
"apiVersion": {
"type": "string"
},
"count": {
"format": "int32",
"type": "integer"
},
"eventTime": {
"format": "date-time",
"type": "string"
},
"firstTimestamp": {
"format": "date-time",
"type": "string"
},
"involvedObject": {
"$ref": "core.v1.ObjectReference"
},
"kind": {
"type": "string"
},
"lastTimestamp": {
"format": "date-time",
"type": "string"
},
"message": {
"type": "string"
},
"metadata": {
"type": "object"
},
"reason": {
"type": "string"
},
"related": {
"$ref": "core.v1.ObjectReference"
},
"reportingComponent": {
"type": "string"
},
"reportingInstance": {
"type": "string"
},
"series": {
"$ref": "core.v1.EventSeries"
},
"source": {
"$ref": "core.v1.EventSource"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"involvedObject",
"metadata"
],
"type": "object"
}
},
"core.v1.EventList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.Event"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.EventSeries": {
"properties": {
"count": {
"format": "int32",
"type": "integer"
},
"lastObservedTime": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.EventSource": {
"properties": {
"component": {
"type": "string"
},
"host": {
"type": "string"
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
"core.v1.FlexPersistentVolumeSource": {
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
"$ref": "core.v1.SecretReference"
}
},
"schema": {
"required": [
"driver"
],
"type": "object"
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
"core.v1.GlusterfsPersistentVolumeSource": {
"properties": {
"endpoints": {
"type": "string"
},
"endpointsNamespace": {
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
"core.v1.HostIP": {
"properties": {
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
"core.v1.ISCSIPersistentVolumeSource": {
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
"$ref": "core.v1.SecretReference"
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
"core.v1.ImageVolumeStatus": {
"properties": {
"imageRef": {
"maxLength": 256,
"type": "string"
}
},
"schema": {
"required": [
"imageRef"
],
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
"core.v1.LimitRange": {
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
"$ref": "core.v1.LimitRangeSpec"
}
},
"schema": {
"type": "object"
}
},
"core.v1.LimitRangeItem": {
"properties": {
"default": {
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
"defaultRequest": {
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
"max": {
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
"maxLimitRequestRatio": {
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
"min": {
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
"core.v1.LimitRangeList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.LimitRange"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.LimitRangeSpec": {
"properties": {
"limits": {
"items": {
"$ref": "core.v1.LimitRangeItem"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"limits"
],
"type": "object"
}
},
"core.v1.LinuxContainerUser": {
"properties": {
"gid": {
"format": "int64",
"type": "integer"
},
"supplementalGroups": {
"items": {
"format": "int64",
"type": "integer"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"uid": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"gid",
"uid"
],
"type": "object"
}
},
"core.v1.LoadBalancerIngress": {
"properties": {
"hostname": {
"type": "string"
},
"ip": {
"type": "string"
},
"ipMode": {
"type": "string"
},
"ports": {
"items": {
"$ref": "core.v1.PortStatus"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"core.v1.LoadBalancerStatus": {
"properties": {
"ingress": {
"items": {
"$ref": "core.v1.LoadBalancerIngress"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
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
"core.v1.LocalVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"path": {
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
"core.v1.Namespace": {
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
"$ref": "core.v1.NamespaceSpec"
},
"status": {
"$ref": "core.v1.NamespaceStatus"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NamespaceCondition": {
"properties": {
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
"core.v1.NamespaceList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.Namespace"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.NamespaceSpec": {
"properties": {
"finalizers": {
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
"core.v1.NamespaceStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "core.v1.NamespaceCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"phase": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.Node": {
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
"$ref": "core.v1.NodeSpec"
},
"status": {
"$ref": "core.v1.NodeStatus"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeAddress": {
"properties": {
"address": {
"type": "string"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"address",
"type"
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
"core.v1.NodeAllocatableMappedResources": {
"properties": {
"name": {
"minLength": 1,
"type": "string"
},
"quantity": {
"anyOf": [
{
"type": "integer"
},
{
"type": "string"
}
],
"minProperties": 1,
"pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
"x-kubernetes-int-or-string": true
}
},
"schema": {
"required": [
"name",
"quantity"
],
"type": "object"
}
},
"core.v1.NodeAllocatableOverheadResources": {
"properties": {
"name": {
"minLength": 1,
"type": "string"
},
"perContainer": {
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
"perPod": {
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
"name"
],
"type": "object"
}
},
"core.v1.NodeAllocatableResourceClaimStatus": {
"properties": {
"containers": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"mapping": {
"items": {
"$ref": "core.v1.NodeAllocatableMappedResources"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"overhead": {
"items": {
"$ref": "core.v1.NodeAllocatableOverheadResources"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
},
"resourceClaimName": {
"minLength": 1,
"type": "string"
}
},
"schema": {
"required": [
"resourceClaimName"
],
"type": "object"
}
},
"core.v1.NodeCondition": {
"properties": {
"lastHeartbeatTime": {
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
"core.v1.NodeConfigSource": {
"properties": {
"configMap": {
"$ref": "core.v1.ConfigMapNodeConfigSource"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeConfigStatus": {
"properties": {
"active": {
"$ref": "core.v1.NodeConfigSource"
},
"assigned": {
"$ref": "core.v1.NodeConfigSource"
},
"error": {
"type": "string"
},
"lastKnownGood": {
"$ref": "core.v1.NodeConfigSource"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeDaemonEndpoints": {
"properties": {
"kubeletEndpoint": {
"$ref": "core.v1.DaemonEndpoint"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeFeatures": {
"properties": {
"supplementalGroupsPolicy": {
"type": "boolean"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.Node"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.NodePodPreemptionPolicy": {
"properties": {
"disableResizePreemption": {
"items": {
"type": "string"
},
"maxItems": 20,
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeRuntimeHandler": {
"properties": {
"features": {
"$ref": "core.v1.NodeRuntimeHandlerFeatures"
},
"name": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeRuntimeHandlerFeatures": {
"properties": {
"recursiveReadOnlyMounts": {
"type": "boolean"
},
"userNamespaces": {
"type": "boolean"
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
"core.v1.NodeSpec": {
"properties": {
"configSource": {
"$ref": "core.v1.NodeConfigSource"
},
"externalID": {
"type": "string"
},
"podCIDR": {
"type": "string"
},
"podCIDRs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"podPreemptionPolicy": {
"$ref": "core.v1.NodePodPreemptionPolicy"
},
"providerID": {
"type": "string"
},
"taints": {
"items": {
"$ref": "core.v1.Taint"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"unschedulable": {
"type": "boolean"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeStatus": {
"properties": {
"addresses": {
"items": {
"$ref": "core.v1.NodeAddress"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"allocatable": {
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
"$ref": "core.v1.NodeCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"config": {
"$ref": "core.v1.NodeConfigStatus"
},
"daemonEndpoints": {
"$ref": "core.v1.NodeDaemonEndpoints"
},
"declaredFeatures": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"features": {
"$ref": "core.v1.NodeFeatures"
},
"images": {
"items": {
"$ref": "core.v1.ContainerImage"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"nodeInfo": {
"$ref": "core.v1.NodeSystemInfo"
},
"phase": {
"type": "string"
},
"runtimeHandlers": {
"items": {
"$ref": "core.v1.NodeRuntimeHandler"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"volumesAttached": {
"items": {
"$ref": "core.v1.AttachedVolume"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"volumesInUse": {
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
"core.v1.NodeSwapStatus": {
"properties": {
"capacity": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"core.v1.NodeSystemInfo": {
"properties": {
"architecture": {
"type": "string"
},
"bootID": {
"type": "string"
},
"containerRuntimeVersion": {
"type": "string"
},
"kernelVersion": {
"type": "string"
},
"kubeProxyVersion": {
"type": "string"
},
"kubeletVersion": {
"type": "string"
},
"machineID": {
"type": "string"
},
"operatingSystem": {
"type": "string"
},
"osImage": {
"type": "string"
},
"runningInUserNamespace": {
"type": "boolean"
},
"swap": {
"$ref": "core.v1.NodeSwapStatus"
},
"systemUUID": {
"type": "string"
}
},
"schema": {
"required": [
"architecture",
"bootID",
"containerRuntimeVersion",
"kernelVersion",
"kubeProxyVersion",
"kubeletVersion",
"machineID",
"operatingSystem",
"osImage",
"systemUUID"
],
"type": "object"
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
"core.v1.PersistentVolume": {
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
"$ref": "core.v1.PersistentVolumeSpec"
},
"status": {
"$ref": "core.v1.PersistentVolumeStatus"
}
},
"schema": {
"type": "object"
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
"core.v1.PersistentVolumeClaimList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.PersistentVolumeClaim"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
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
"core.v1.PersistentVolumeList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.PersistentVolume"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.PersistentVolumeSpec": {
"properties": {
"accessModes": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"awsElasticBlockStore": {
"$ref": "core.v1.AWSElasticBlockStoreVolumeSource"
},
"azureDisk": {
"$ref": "core.v1.AzureDiskVolumeSource"
},
"azureFile": {
"$ref": "core.v1.AzureFilePersistentVolumeSource"
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
"cephfs": {
"$ref": "core.v1.CephFSPersistentVolumeSource"
},
"cinder": {
"$ref": "core.v1.CinderPersistentVolumeSource"
},
"claimRef": {
"$ref": "core.v1.ObjectReference",
"x-kubernetes-map-type": "granular"
},
"csi": {
"$ref": "core.v1.CSIPersistentVolumeSource"
},
"fc": {
"$ref": "core.v1.FCVolumeSource"
},
"flexVolume": {
"$ref": "core.v1.FlexPersistentVolumeSource"
},
"flocker": {
"$ref": "core.v1.FlockerVolumeSource"
},
"gcePersistentDisk": {
"$ref": "core.v1.GCEPersistentDiskVolumeSource"
},
"glusterfs": {
"$ref": "core.v1.GlusterfsPersistentVolumeSource"
},
"hostPath": {
"$ref": "core.v1.HostPathVolumeSource"
},
"iscsi": {
"$ref": "core.v1.ISCSIPersistentVolumeSource"
},
"local": {
"$ref": "core.v1.LocalVolumeSource"
},
"mountOptions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"nfs": {
"$ref": "core.v1.NFSVolumeSource"
},
"nodeAffinity": {
"$ref": "core.v1.VolumeNodeAffinity"
},
"persistentVolumeReclaimPolicy": {
"type": "string"
},
"photonPersistentDisk": {
"$ref": "core.v1.PhotonPersistentDiskVolumeSource"
},
"portworxVolume": {
"$ref": "core.v1.PortworxVolumeSource"
},
"quobyte": {
"$ref": "core.v1.QuobyteVolumeSource"
},
"rbd": {
"$ref": "core.v1.RBDPersistentVolumeSource"
},
"scaleIO": {
"$ref": "core.v1.ScaleIOPersistentVolumeSource"
},
"storageClassName": {
"type": "string"
},
"storageos": {
"$ref": "core.v1.StorageOSPersistentVolumeSource"
},
"volumeAttributesClassName": {
"type": "string"
},
"volumeMode": {
"type": "string"
},
"vsphereVolume": {
"$ref": "core.v1.VsphereVirtualDiskVolumeSource"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PersistentVolumeStatus": {
"properties": {
"lastPhaseTransitionTime": {
"format": "date-time",
"type": "string"
},
"message": {
"type": "string"
},
"phase": {
"type": "string"
},
"reason": {
"type": "string"
}
},
"schema": {
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
"core.v1.Pod": {
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
"$ref": "core.v1.PodSpec"
},
"status": {
"$ref": "core.v1.PodStatus"
}
},
"schema": {
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
"core.v1.PodCondition": {
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
"observedGeneration": {
"format": "int64",
"type": "integer"
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
"core.v1.PodExtendedResourceClaimStatus": {
"properties": {
"requestMappings": {
"items": {
"$ref": "core.v1.ContainerExtendedResourceRequest"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resourceClaimName": {
"type": "string"
}
},
"schema": {
"required": [
"requestMappings",
"resourceClaimName"
],
"type": "object"
}
},
"core.v1.PodIP": {
"properties": {
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
"core.v1.PodList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.Pod"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"core.v1.PodResourceClaimStatus": {
"properties": {
"name": {
"type": "string"
},
"resourceClaimName": {
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
"core.v1.PodStatus": {
"properties": {
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
"conditions": {
"items": {
"$ref": "core.v1.PodCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"containerStatuses": {
"items": {
"$ref": "core.v1.ContainerStatus"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"ephemeralContainerStatuses": {
"items": {
"$ref": "core.v1.ContainerStatus"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"extendedResourceClaimStatus": {
"$ref": "core.v1.PodExtendedResourceClaimStatus"
},
"hostIP": {
"type": "string"
},
"hostIPs": {
"items": {
"$ref": "core.v1.HostIP"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"initContainerStatuses": {
"items": {
"$ref": "core.v1.ContainerStatus"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"message": {
"type": "string"
},
"nodeAllocatableResourceClaimStatuses": {
"items": {
"$ref": "core.v1.NodeAllocatableResourceClaimStatus"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"resourceClaimName"
],
"x-kubernetes-list-type": "map"
},
"nominatedNodeName": {
"type": "string"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
},
"phase": {
"type": "string"
},
"podIP": {
"type": "string"
},
"podIPs": {
"items": {
"$ref": "core.v1.PodIP"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"ip"
],
"x-kubernetes-list-type": "map"
},
"qosClass": {
"type": "string"
},
"reason": {
"type": "string"
},
"resize": {
"type": "string"
},
"resourceClaimStatuses": {
"items": {
"$ref": "core.v1.PodResourceClaimStatus"
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
"startTime": {
"format": "date-time",
"type": "string"
},
"volumeHealth": {
"items": {
"$ref": "core.v1.PodVolumeHealth"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodTemplate": {
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
"template": {
"$ref": "core.v1.PodTemplateSpec"
}
},
"schema": {
"type": "object"
}
},
"core.v1.PodTemplateList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.PodTemplate"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
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
"core.v1.PodVolumeHealth": {
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
},
"name": {
"minLength": 1,
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
"core.v1.PortStatus": {
"properties": {
"error": {
"maxLength": 316,
"pattern": "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
"type": "string"
},
"port": {
"format": "int32",
"type": "integer"
},
"protocol": {
"type": "string"
}
},
"schema": {
"required": [
"error",
"port",
"protocol"
],
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
"core.v1.RBDPersistentVolumeSource": {
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
"$ref": "core.v1.SecretReference"
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
"core.v1.ReplicationController": {
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
"$ref": "core.v1.ReplicationControllerSpec"
},
"status": {
"$ref": "core.v1.ReplicationControllerStatus"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ReplicationControllerCondition": {
"properties": {
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
"core.v1.ReplicationControllerList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.ReplicationController"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.ReplicationControllerSpec": {
"properties": {
"minReadySeconds": {
"default": 0,
"format": "int32",
"type": "integer"
},
"replicas": {
"default": 1,
"format": "int32",
"type": "integer"
},
"selector": {
"additionalProperties": {
"type": "string"
},
"type": "object",
"x-kubernetes-map-type": "atomic"
},
"template": {
"$ref": "core.v1.PodTemplateSpec"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ReplicationControllerStatus": {
"properties": {
"availableReplicas": {
"format": "int32",
"type": "integer"
},
"conditions": {
"items": {
"$ref": "core.v1.ReplicationControllerCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"fullyLabeledReplicas": {
"format": "int32",
"type": "integer"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
},
"readyReplicas": {
"format": "int32",
"type": "integer"
},
"replicas": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"replicas"
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
"core.v1.ResourceHealth": {
"properties": {
"health": {
"type": "string"
},
"message": {
"type": "string"
},
"resourceID": {
"type": "string"
}
},
"schema": {
"required": [
"resourceID"
],
"type": "object"
}
},
"core.v1.ResourceQuota": {
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
"$ref": "core.v1.ResourceQuotaSpec"
},
"status": {
"$ref": "core.v1.ResourceQuotaStatus"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ResourceQuotaList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.ResourceQuota"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"core.v1.ResourceQuotaSpec": {
"properties": {
"hard": {
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
"scopeSelector": {
"$ref": "core.v1.ScopeSelector"
},
"scopes": {
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
"core.v1.ResourceQuotaStatus": {
"properties": {
"hard": {
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
"used": {
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
"core.v1.ResourceStatus": {
"properties": {
"name": {
"type": "string"
},
"resources": {
"items": {
"$ref": "core.v1.ResourceHealth"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"resourceID"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"required": [
"name"
],
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
"core.v1.ScaleIOPersistentVolumeSource": {
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
"$ref": "core.v1.SecretReference"
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
"core.v1.ScopeSelector": {
"properties": {
"matchExpressions": {
"items": {
"$ref": "core.v1.ScopedResourceSelectorRequirement"
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
"core.v1.ScopedResourceSelectorRequirement": {
"properties": {
"operator": {
"type": "string"
},
"scopeName": {
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
"operator",
"scopeName"
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
"core.v1.Secret": {
"properties": {
"apiVersion": {
"type": "string"
},
"data": {
"additionalProperties": {
"format": "byte",
"type": "string"
},
"type": "object"
},
"immutable": {
"type": "boolean"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"stringData": {
"additionalProperties": {
"type": "string"
},
"type": "object"
},
"type": {
"type": "string"
}
},
"schema": {
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
"core.v1.SecretList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.Secret"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
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
"core.v1.Service": {
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
"$ref": "core.v1.ServiceSpec"
},
"status": {
"$ref": "core.v1.ServiceStatus"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ServiceAccount": {
"properties": {
"apiVersion": {
"type": "string"
},
"automountServiceAccountToken": {
"type": "boolean"
},
"imagePullSecrets": {
"items": {
"$ref": "core.v1.LocalObjectReference"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"secrets": {
"items": {
"$ref": "core.v1.ObjectReference"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"core.v1.ServiceAccountList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.ServiceAccount"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"core.v1.ServiceList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "core.v1.Service"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
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
"core.v1.ServiceStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"loadBalancer": {
"$ref": "core.v1.LoadBalancerStatus"
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
"core.v1.StorageOSPersistentVolumeSource": {
"properties": {
"fsType": {
"type": "string"
},
"readOnly": {
"type": "boolean"
},
"secretRef": {
"$ref": "core.v1.ObjectReference"
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
"core.v1.TopologySelectorLabelRequirement": {
"properties": {
"key": {
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
"values"
],
"type": "object"
}
},
"core.v1.TopologySelectorTerm": {
"properties": {
"matchLabelExpressions": {
"items": {
"$ref": "core.v1.TopologySelectorLabelRequirement"
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
"core.v1.VolumeMountStatus": {
"properties": {
"mountPath": {
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
"volumeStatus": {
"$ref": "core.v1.VolumeStatus"
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
"core.v1.VolumeNodeAffinity": {
"properties": {
"required": {
"$ref": "core.v1.NodeSelector"
}
},
"schema": {
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
"core.v1.VolumeStatus": {
"properties": {
"image": {
"$ref": "core.v1.ImageVolumeStatus"
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
"discovery.v1.Endpoint": {
"properties": {
"addresses": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"conditions": {
"$ref": "discovery.v1.EndpointConditions"
},
"deprecatedTopology": {
"additionalProperties": {
"type": "string"
},
"type": "object"
},
"hints": {
"$ref": "discovery.v1.EndpointHints"
},
"hostname": {
"type": "string"
},
"nodeName": {
"type": "string"
},
"targetRef": {
"$ref": "core.v1.ObjectReference"
},
"zone": {
"type": "string"
}
},
"schema": {
"required": [
"addresses"
],
"type": "object"
}
},
"discovery.v1.EndpointConditions": {
"properties": {
"ready": {
"type": "boolean"
},
"serving": {
"type": "boolean"
},
"terminating": {
"type": "boolean"
}
},
"schema": {
"type": "object"
}
},
"discovery.v1.EndpointHints": {
"properties": {
"forNodes": {
"items": {
"$ref": "discovery.v1.ForNode"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"forZones": {
"items": {
"$ref": "discovery.v1.ForZone"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"discovery.v1.EndpointPort": {
"properties": {
"appProtocol": {
"type": "string"
},
"name": {
"type": "string"
},
"port": {
"format": "int32",
"type": "integer"
},
"protocol": {
"type": "string"
}
},
"schema": {
"type": "object",
"x-kubernetes-map-type": "atomic"
}
},
"discovery.v1.EndpointSlice": {
"properties": {
"addressType": {
"type": "string"
},
"apiVersion": {
"type": "string"
},
"endpoints": {
"items": {
"$ref": "discovery.v1.Endpoint"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"ports": {
"items": {
"$ref": "discovery.v1.EndpointPort"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"addressType"
],
"type": "object"
}
},
"discovery.v1.EndpointSliceList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "discovery.v1.EndpointSlice"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"discovery.v1.ForNode": {
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
"discovery.v1.ForZone": {
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
"events.v1.Event": {
"properties": {
"action": {
"type": "string"
},
"apiVersion": {
"type": "string"
},
"deprecatedCount": {
"format": "int32",
"type": "integer"
},
"deprecatedFirstTimestamp": {
"format": "date-time",
"type": "string"
},
"deprecatedLastTimestamp": {
"format": "date-time",
"type": "string"
},
"deprecatedSource": {
"$ref": "core.v1.EventSource"
},
"eventTime": {
"format": "date-time",
"type": "string"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"note": {
"type": "string"
},
"reason": {
"type": "string"
},
"regarding": {
"$ref": "core.v1.ObjectReference"
},
"related": {
"$ref": "core.v1.ObjectReference"
},
"reportingController": {
"type": "string"
},
"reportingInstance": {
"type": "string"
},
"series": {
"$ref": "events.v1.EventSeries"
},
"type": {
"type": "string"
}
},
"schema": {
"required": [
"eventTime"
],
"type": "object"
}
},
"events.v1.EventList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "events.v1.Event"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"events.v1.EventSeries": {
"properties": {
"count": {
"format": "int32",
"type": "integer"
},
"lastObservedTime": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"required": [
"count",
"lastObservedTime"
],
"type": "object"
}
},
"flowcontrol.v1.ExemptPriorityLevelConfiguration": {
"properties": {
"lendablePercent": {
"format": "int32",
"type": "integer"
},
"nominalConcurrencyShares": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"flowcontrol.v1.FlowDistinguisherMethod": {
"properties": {
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
"flowcontrol.v1.FlowSchema": {
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
"$ref": "flowcontrol.v1.FlowSchemaSpec"
},
"status": {
"$ref": "flowcontrol.v1.FlowSchemaStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"flowcontrol.v1.FlowSchemaCondition": {
"properties": {
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
"type"
],
"type": "object"
}
},
"flowcontrol.v1.FlowSchemaList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "flowcontrol.v1.FlowSchema"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"flowcontrol.v1.FlowSchemaSpec": {
"properties": {
"distinguisherMethod": {
"$ref": "flowcontrol.v1.FlowDistinguisherMethod"
},
"matchingPrecedence": {
"format": "int32",
"type": "integer"
},
"priorityLevelConfiguration": {
"$ref": "flowcontrol.v1.PriorityLevelConfigurationReference"
},
"rules": {
"items": {
"$ref": "flowcontrol.v1.PolicyRulesWithSubjects"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"priorityLevelConfiguration"
],
"type": "object"
}
},
"flowcontrol.v1.FlowSchemaStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "flowcontrol.v1.FlowSchemaCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"flowcontrol.v1.GroupSubject": {
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
"flowcontrol.v1.LimitResponse": {
"properties": {
"queuing": {
"$ref": "flowcontrol.v1.QueuingConfiguration"
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
"flowcontrol.v1.LimitedPriorityLevelConfiguration": {
"properties": {
"borrowingLimitPercent": {
"format": "int32",
"type": "integer"
},
"lendablePercent": {
"format": "int32",
"type": "integer"
},
"limitResponse": {
"$ref": "flowcontrol.v1.LimitResponse"
},
"nominalConcurrencyShares": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"required": [
"limitResponse"
],
"type": "object"
}
},
"flowcontrol.v1.NonResourcePolicyRule": {
"properties": {
"nonResourceURLs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"verbs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"required": [
"nonResourceURLs",
"verbs"
],
"type": "object"
}
},
"flowcontrol.v1.PolicyRulesWithSubjects": {
"properties": {
"nonResourceRules": {
"items": {
"$ref": "flowcontrol.v1.NonResourcePolicyRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"resourceRules": {
"items": {
"$ref": "flowcontrol.v1.ResourcePolicyRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"subjects": {
"items": {
"$ref": "flowcontrol.v1.Subject"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"subjects"
],
"type": "object"
}
},
"flowcontrol.v1.PriorityLevelConfiguration": {
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
"$ref": "flowcontrol.v1.PriorityLevelConfigurationSpec"
},
"status": {
"$ref": "flowcontrol.v1.PriorityLevelConfigurationStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"flowcontrol.v1.PriorityLevelConfigurationCondition": {
"properties": {
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
"type"
],
"type": "object"
}
},
"flowcontrol.v1.PriorityLevelConfigurationList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "flowcontrol.v1.PriorityLevelConfiguration"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"flowcontrol.v1.PriorityLevelConfigurationReference": {
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
"flowcontrol.v1.PriorityLevelConfigurationSpec": {
"properties": {
"exempt": {
"$ref": "flowcontrol.v1.ExemptPriorityLevelConfiguration"
},
"limited": {
"$ref": "flowcontrol.v1.LimitedPriorityLevelConfiguration"
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
"flowcontrol.v1.PriorityLevelConfigurationStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "flowcontrol.v1.PriorityLevelConfigurationCondition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"flowcontrol.v1.QueuingConfiguration": {
"properties": {
"handSize": {
"format": "int32",
"type": "integer"
},
"queueLengthLimit": {
"format": "int32",
"type": "integer"
},
"queues": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"flowcontrol.v1.ResourcePolicyRule": {
"properties": {
"apiGroups": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"clusterScope": {
"type": "boolean"
},
"namespaces": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"resources": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"verbs": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"required": [
"apiGroups",
"resources",
"verbs"
],
"type": "object"
}
},
"flowcontrol.v1.ServiceAccountSubject": {
"properties": {
"name": {
"type": "string"
},
"namespace": {
"type": "string"
}
},
"schema": {
"required": [
"name",
"namespace"
],
"type": "object"
}
},
"flowcontrol.v1.Subject": {
"properties": {
"group": {
"$ref": "flowcontrol.v1.GroupSubject"
},
"kind": {
"type": "string"
},
"serviceAccount": {
"$ref": "flowcontrol.v1.ServiceAccountSubject"
},
"user": {
"$ref": "flowcontrol.v1.UserSubject"
}
},
"schema": {
"required": [
"kind"
],
"type": "object"
}
},
"flowcontrol.v1.UserSubject": {
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
"meta.v1.Condition": {
"properties": {
"lastTransitionTime": {
"format": "date-time",
"type": "string"
},
"message": {
"maxLength": 32768,
"type": "string"
},
"observedGeneration": {
"format": "int64",
"minimum": 0,
"type": "integer"
},
"reason": {
"maxLength": 1024,
"minLength": 1,
"pattern": "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
"type": "string"
},
"status": {
"enum": [
"True",
"False",
"Unknown"
],
"type": "string"
},
"type": {
"maxLength": 316,
"pattern": "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
"type": "string"
}
},
"schema": {
"required": [
"lastTransitionTime",
"message",
"reason",
"status",
"type"
],
"type": "object"
}
},
"meta.v1.DeleteOptions": {
"properties": {
"apiVersion": {
"type": "string"
},
"dryRun": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"gracePeriodSeconds": {
"format": "int64",
"type": "integer"
},
"ignoreStoreReadErrorWithClusterBreakingPotential": {
"type": "boolean"
},
"kind": {
"type": "string"
},
"orphanDependents": {
"type": "boolean"
},
"preconditions": {
"$ref": "meta.v1.Preconditions"
},
"propagationPolicy": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"meta.v1.FieldSelectorRequirement": {
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
"meta.v1.GroupResource": {
"properties": {
"group": {
"type": "string"
},
"resource": {
"type": "string"
}
},
"schema": {
"required": [
"group",
"resource"
],
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
"meta.v1.ListMeta": {
"properties": {
"continue": {
"type": "string"
},
"remainingItemCount": {
"format": "int64",
"type": "integer"
},
"resourceVersion": {
"type": "string"
},
"selfLink": {
"type": "string"
},
"shardInfo": {
"$ref": "meta.v1.ShardInfo"
}
},
"schema": {
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
"meta.v1.Preconditions": {
"properties": {
"resourceVersion": {
"type": "string"
},
"uid": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"meta.v1.ShardInfo": {
"properties": {
"selector": {
"type": "string"
}
},
"schema": {
"required": [
"selector"
],
"type": "object"
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
"networking.v1.IPAddress": {
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
"$ref": "networking.v1.IPAddressSpec"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"networking.v1.IPAddressList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "networking.v1.IPAddress"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"networking.v1.IPAddressSpec": {
"properties": {
"parentRef": {
"$ref": "networking.v1.ParentReference"
}
},
"schema": {
"required": [
"parentRef"
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
"networking.v1.Ingress": {
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
"$ref": "networking.v1.IngressSpec"
},
"status": {
"$ref": "networking.v1.IngressStatus"
}
},
"schema": {
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
"networking.v1.IngressClass": {
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
"$ref": "networking.v1.IngressClassSpec"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.IngressClassList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "networking.v1.IngressClass"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"networking.v1.IngressClassParametersReference": {
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
},
"scope": {
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
"networking.v1.IngressClassSpec": {
"properties": {
"controller": {
"type": "string"
},
"parameters": {
"$ref": "networking.v1.IngressClassParametersReference"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.IngressList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "networking.v1.Ingress"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"networking.v1.IngressLoadBalancerIngress": {
"properties": {
"hostname": {
"type": "string"
},
"ip": {
"type": "string"
},
"ports": {
"items": {
"$ref": "networking.v1.IngressPortStatus"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.IngressLoadBalancerStatus": {
"properties": {
"ingress": {
"items": {
"$ref": "networking.v1.IngressLoadBalancerIngress"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.IngressPortStatus": {
"properties": {
"error": {
"maxLength": 316,
"pattern": "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
"type": "string"
},
"port": {
"format": "int32",
"type": "integer"
},
"protocol": {
"type": "string"
}
},
"schema": {
"required": [
"error",
"port",
"protocol"
],
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
"networking.v1.IngressStatus": {
"properties": {
"loadBalancer": {
"$ref": "networking.v1.IngressLoadBalancerStatus"
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
"networking.v1.NetworkPolicy": {
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
"$ref": "networking.v1.NetworkPolicySpec"
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
"networking.v1.NetworkPolicyList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "networking.v1.NetworkPolicy"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"networking.v1.ParentReference": {
"properties": {
"group": {
"type": "string"
},
"name": {
"type": "string"
},
"namespace": {
"type": "string"
},
"resource": {
"type": "string"
}
},
"schema": {
"required": [
"name",
"resource"
],
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
"networking.v1.ServiceCIDR": {
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
"$ref": "networking.v1.ServiceCIDRSpec"
},
"status": {
"$ref": "networking.v1.ServiceCIDRStatus"
}
},
"schema": {
"type": "object"
}
},
"networking.v1.ServiceCIDRList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "networking.v1.ServiceCIDR"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"networking.v1.ServiceCIDRSpec": {
"properties": {
"cidrs": {
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
"networking.v1.ServiceCIDRStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"node.v1.Overhead": {
"properties": {
"podFixed": {
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
"node.v1.RuntimeClass": {
"properties": {
"apiVersion": {
"type": "string"
},
"handler": {
"type": "string"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"overhead": {
"$ref": "node.v1.Overhead"
},
"scheduling": {
"$ref": "node.v1.Scheduling"
}
},
"schema": {
"required": [
"handler"
],
"type": "object"
}
},
"node.v1.RuntimeClassList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "node.v1.RuntimeClass"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"node.v1.Scheduling": {
"properties": {
"nodeSelector": {
"additionalProperties": {
"type": "string"
},
"type": "object",
"x-kubernetes-map-type": "atomic"
},
"tolerations": {
"items": {
"$ref": "core.v1.Toleration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"policy.v1.Eviction": {
"properties": {
"apiVersion": {
"type": "string"
},
"deleteOptions": {
"$ref": "meta.v1.DeleteOptions"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
}
},
"schema": {
"type": "object"
}
},
"policy.v1.PodDisruptionBudget": {
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
"$ref": "policy.v1.PodDisruptionBudgetSpec"
},
"status": {
"$ref": "policy.v1.PodDisruptionBudgetStatus"
}
},
"schema": {
"type": "object"
}
},
"policy.v1.PodDisruptionBudgetList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "policy.v1.PodDisruptionBudget"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
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
"policy.v1.PodDisruptionBudgetStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"currentHealthy": {
"format": "int32",
"type": "integer"
},
"desiredHealthy": {
"format": "int32",
"type": "integer"
},
"disruptedPods": {
"additionalProperties": {
"format": "date-time",
"type": "string"
},
"type": "object"
},
"disruptionsAllowed": {
"format": "int32",
"type": "integer"
},
"expectedPods": {
"format": "int32",
"type": "integer"
},
"observedGeneration": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"rbac.v1.AggregationRule": {
"properties": {
"clusterRoleSelectors": {
"items": {
"$ref": "meta.v1.LabelSelector"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"rbac.v1.ClusterRole": {
"properties": {
"aggregationRule": {
"$ref": "rbac.v1.AggregationRule"
},
"apiVersion": {
"type": "string"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"rules": {
"items": {
"$ref": "rbac.v1.PolicyRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"rbac.v1.ClusterRoleBinding": {
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
"roleRef": {
"$ref": "rbac.v1.RoleRef"
},
"subjects": {
"items": {
"$ref": "rbac.v1.Subject"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"roleRef"
],
"type": "object"
}
},
"rbac.v1.ClusterRoleBindingList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "rbac.v1.ClusterRoleBinding"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"rbac.v1.ClusterRoleList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "rbac.v1.ClusterRole"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
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
"rbac.v1.Role": {
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
"rules": {
"items": {
"$ref": "rbac.v1.PolicyRule"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"rbac.v1.RoleBinding": {
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
"roleRef": {
"$ref": "rbac.v1.RoleRef"
},
"subjects": {
"items": {
"$ref": "rbac.v1.Subject"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"roleRef"
],
"type": "object"
}
},
"rbac.v1.RoleBindingList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "rbac.v1.RoleBinding"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"rbac.v1.RoleList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "rbac.v1.Role"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
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
"resource.v1.AllocatedDeviceStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"data": {
"type": "object",
"x-kubernetes-preserve-unknown-fields": true
},
"device": {
"type": "string"
},
"driver": {
"type": "string"
},
"networkData": {
"$ref": "resource.v1.NetworkDeviceData"
},
"pool": {
"type": "string"
},
"shareID": {
"type": "string"
}
},
"schema": {
"required": [
"device",
"driver",
"pool"
],
"type": "object"
}
},
"resource.v1.AllocationResult": {
"properties": {
"allocationTimestamp": {
"format": "date-time",
"type": "string"
},
"devices": {
"$ref": "resource.v1.DeviceAllocationResult"
},
"nodeSelector": {
"$ref": "core.v1.NodeSelector"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.CELDeviceSelector": {
"properties": {
"expression": {
"type": "string"
}
},
"schema": {
"required": [
"expression"
],
"type": "object"
}
},
"resource.v1.CapacityRequestPolicy": {
"properties": {
"default": {
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
"validRange": {
"$ref": "resource.v1.CapacityRequestPolicyRange"
},
"validValues": {
"items": {
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
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.CapacityRequestPolicyRange": {
"properties": {
"max": {
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
"min": {
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
"step": {
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
"min"
],
"type": "object"
}
},
"resource.v1.CapacityRequirements": {
"properties": {
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
"resource.v1.Counter": {
"properties": {
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
"value"
],
"type": "object"
}
},
"resource.v1.CounterSet": {
"properties": {
"counters": {
"additionalProperties": {
"$ref": "resource.v1.Counter"
},
"type": "object"
},
"name": {
"type": "string"
}
},
"schema": {
"required": [
"counters",
"name"
],
"type": "object"
}
},
"resource.v1.Device": {
"properties": {
"allNodes": {
"type": "boolean"
},
"allowMultipleAllocations": {
"type": "boolean"
},
"attributes": {
"additionalProperties": {
"$ref": "resource.v1.DeviceAttribute"
},
"type": "object"
},
"bindingConditions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"bindingFailureConditions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"bindsToNode": {
"type": "boolean"
},
"capacity": {
"additionalProperties": {
"$ref": "resource.v1.DeviceCapacity"
},
"type": "object"
},
"consumesCounters": {
"items": {
"$ref": "resource.v1.DeviceCounterConsumption"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"name": {
"type": "string"
},
"nodeAllocatableResources": {
"additionalProperties": {
"$ref": "resource.v1.NodeAllocatableResource"
},
"type": "object"
},
"nodeName": {
"type": "string"
},
"nodeSelector": {
"$ref": "core.v1.NodeSelector"
},
"taints": {
"items": {
"$ref": "resource.v1.DeviceTaint"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"name"
],
"type": "object"
}
},
"resource.v1.DeviceAllocationConfiguration": {
"properties": {
"opaque": {
"$ref": "resource.v1.OpaqueDeviceConfiguration"
},
"requests": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"source": {
"type": "string"
}
},
"schema": {
"required": [
"source"
],
"type": "object"
}
},
"resource.v1.DeviceAllocationResult": {
"properties": {
"config": {
"items": {
"$ref": "resource.v1.DeviceAllocationConfiguration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"results": {
"items": {
"$ref": "resource.v1.DeviceRequestAllocationResult"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceAttribute": {
"properties": {
"bool": {
"type": "boolean"
},
"bools": {
"items": {
"type": "boolean"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"int": {
"format": "int64",
"type": "integer"
},
"ints": {
"items": {
"format": "int64",
"type": "integer"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"string": {
"type": "string"
},
"strings": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"version": {
"type": "string"
},
"versions": {
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
"resource.v1.DeviceCapacity": {
"properties": {
"requestPolicy": {
"$ref": "resource.v1.CapacityRequestPolicy"
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
"value"
],
"type": "object"
}
},
"resource.v1.DeviceClaim": {
"properties": {
"config": {
"items": {
"$ref": "resource.v1.DeviceClaimConfiguration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"constraints": {
"items": {
"$ref": "resource.v1.DeviceConstraint"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"requests": {
"items": {
"$ref": "resource.v1.DeviceRequest"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceClaimConfiguration": {
"properties": {
"opaque": {
"$ref": "resource.v1.OpaqueDeviceConfiguration"
},
"requests": {
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
"resource.v1.DeviceClass": {
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
"$ref": "resource.v1.DeviceClassSpec"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceClassConfiguration": {
"properties": {
"opaque": {
"$ref": "resource.v1.OpaqueDeviceConfiguration"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceClassList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "resource.v1.DeviceClass"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"resource.v1.DeviceClassSpec": {
"properties": {
"config": {
"items": {
"$ref": "resource.v1.DeviceClassConfiguration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"extendedResourceName": {
"type": "string"
},
"selectors": {
"items": {
"$ref": "resource.v1.DeviceSelector"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceConstraint": {
"properties": {
"distinctAttribute": {
"type": "string"
},
"matchAttribute": {
"type": "string"
},
"requests": {
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
"resource.v1.DeviceCounterConsumption": {
"properties": {
"compatibilityGroups": {
"items": {
"type": "string"
},
"maxItems": 2,
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"counterSet": {
"type": "string"
},
"counters": {
"additionalProperties": {
"$ref": "resource.v1.Counter"
},
"type": "object"
}
},
"schema": {
"required": [
"counterSet",
"counters"
],
"type": "object"
}
},
"resource.v1.DeviceDerivedAttribute": {
"properties": {
"expression": {
"minLength": 1,
"type": "string"
},
"name": {
"minLength": 1,
"type": "string"
}
},
"schema": {
"required": [
"expression",
"name"
],
"type": "object"
}
},
"resource.v1.DeviceRequest": {
"properties": {
"exactly": {
"$ref": "resource.v1.ExactDeviceRequest"
},
"firstAvailable": {
"items": {
"$ref": "resource.v1.DeviceSubRequest"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
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
"resource.v1.DeviceRequestAllocationResult": {
"properties": {
"adminAccess": {
"type": "boolean"
},
"bindingConditions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"bindingFailureConditions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"consumedCapacity": {
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
"device": {
"type": "string"
},
"driver": {
"type": "string"
},
"pool": {
"type": "string"
},
"request": {
"type": "string"
},
"shareID": {
"type": "string"
},
"skipNodeOperations": {
"items": {
"enum": [
"*",
"NodePrepareResources",
"NodeUnprepareResources"
],
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
},
"tolerations": {
"items": {
"$ref": "resource.v1.DeviceToleration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"device",
"driver",
"pool",
"request"
],
"type": "object"
}
},
"resource.v1.DeviceSelector": {
"properties": {
"cel": {
"$ref": "resource.v1.CELDeviceSelector"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceSubRequest": {
"properties": {
"allocationMode": {
"type": "string"
},
"capacity": {
"$ref": "resource.v1.CapacityRequirements"
},
"count": {
"format": "int64",
"type": "integer"
},
"derivedAttributes": {
"items": {
"$ref": "resource.v1.DeviceDerivedAttribute"
},
"maxItems": 32,
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"deviceClassName": {
"type": "string"
},
"name": {
"type": "string"
},
"selectors": {
"items": {
"$ref": "resource.v1.DeviceSelector"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"tolerations": {
"items": {
"$ref": "resource.v1.DeviceToleration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"deviceClassName",
"name"
],
"type": "object"
}
},
"resource.v1.DeviceTaint": {
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
"resource.v1.DeviceTaintRule": {
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
"$ref": "resource.v1.DeviceTaintRuleSpec"
},
"status": {
"$ref": "resource.v1.DeviceTaintRuleStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"resource.v1.DeviceTaintRuleList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "resource.v1.DeviceTaintRule"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"resource.v1.DeviceTaintRuleSpec": {
"properties": {
"deviceSelector": {
"$ref": "resource.v1.DeviceTaintSelector"
},
"taint": {
"$ref": "resource.v1.DeviceTaint"
}
},
"schema": {
"required": [
"taint"
],
"type": "object"
}
},
"resource.v1.DeviceTaintRuleStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceTaintSelector": {
"properties": {
"device": {
"type": "string"
},
"driver": {
"type": "string"
},
"pool": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.DeviceToleration": {
"properties": {
"effect": {
"type": "string"
},
"key": {
"type": "string"
},
"operator": {
"default": "Equal",
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
"resource.v1.ExactDeviceRequest": {
"properties": {
"adminAccess": {
"type": "boolean"
},
"allocationMode": {
"type": "string"
},
"capacity": {
"$ref": "resource.v1.CapacityRequirements"
},
"count": {
"format": "int64",
"type": "integer"
},
"derivedAttributes": {
"items": {
"$ref": "resource.v1.DeviceDerivedAttribute"
},
"maxItems": 32,
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"deviceClassName": {
"type": "string"
},
"selectors": {
"items": {
"$ref": "resource.v1.DeviceSelector"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"tolerations": {
"items": {
"$ref": "resource.v1.DeviceToleration"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"deviceClassName"
],
"type": "object"
}
},
"resource.v1.NetworkDeviceData": {
"properties": {
"hardwareAddress": {
"type": "string"
},
"interfaceName": {
"type": "string"
},
"ips": {
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
"resource.v1.NodeAllocatableMapping": {
"properties": {
"capacityKey": {
"type": "string"
},
"capacityMultiplier": {
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
"deviceMultiplier": {
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
"resource.v1.NodeAllocatableOverhead": {
"properties": {
"perContainer": {
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
"perPod": {
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
"resource.v1.NodeAllocatableResource": {
"properties": {
"mapping": {
"$ref": "resource.v1.NodeAllocatableMapping"
},
"overhead": {
"$ref": "resource.v1.NodeAllocatableOverhead"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.OpaqueDeviceConfiguration": {
"properties": {
"driver": {
"type": "string"
},
"parameters": {
"type": "object",
"x-kubernetes-preserve-unknown-fields": true
}
},
"schema": {
"required": [
"driver",
"parameters"
],
"type": "object"
}
},
"resource.v1.ResourceClaim": {
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
"$ref": "resource.v1.ResourceClaimSpec"
},
"status": {
"$ref": "resource.v1.ResourceClaimStatus"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.ResourceClaimConsumerReference": {
"properties": {
"apiGroup": {
"type": "string"
},
"name": {
"type": "string"
},
"resource": {
"type": "string"
},
"uid": {
"type": "string"
}
},
"schema": {
"required": [
"name",
"resource",
"uid"
],
"type": "object"
}
},
"resource.v1.ResourceClaimList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "resource.v1.ResourceClaim"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"resource.v1.ResourceClaimSpec": {
"properties": {
"devices": {
"$ref": "resource.v1.DeviceClaim"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.ResourceClaimStatus": {
"properties": {
"allocation": {
"$ref": "resource.v1.AllocationResult"
},
"devices": {
"items": {
"$ref": "resource.v1.AllocatedDeviceStatus"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"driver",
"device",
"pool",
"shareID"
],
"x-kubernetes-list-type": "map"
},
"reservedFor": {
"items": {
"$ref": "resource.v1.ResourceClaimConsumerReference"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"uid"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.ResourceClaimTemplate": {
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
"$ref": "resource.v1.ResourceClaimTemplateSpec"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.ResourceClaimTemplateList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "resource.v1.ResourceClaimTemplate"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"resource.v1.ResourceClaimTemplateSpec": {
"properties": {
"metadata": {
"type": "object"
},
"spec": {
"$ref": "resource.v1.ResourceClaimSpec"
}
},
"schema": {
"type": "object"
}
},
"resource.v1.ResourcePool": {
"properties": {
"generation": {
"format": "int64",
"type": "integer"
},
"name": {
"type": "string"
},
"resourceSliceCount": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"generation",
"name",
"resourceSliceCount"
],
"type": "object"
}
},
"resource.v1.ResourceSlice": {
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
"$ref": "resource.v1.ResourceSliceSpec"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"resource.v1.ResourceSliceList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "resource.v1.ResourceSlice"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"resource.v1.ResourceSliceSpec": {
"properties": {
"allNodes": {
"type": "boolean"
},
"devices": {
"items": {
"$ref": "resource.v1.Device"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"driver": {
"type": "string"
},
"nodeName": {
"type": "string"
},
"nodeSelector": {
"$ref": "core.v1.NodeSelector"
},
"partitionTypeAttribute": {
"type": "string"
},
"perDeviceNodeSelection": {
"type": "boolean"
},
"pool": {
"$ref": "resource.v1.ResourcePool"
},
"sharedCounters": {
"items": {
"$ref": "resource.v1.CounterSet"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"skipNodeOperations": {
"items": {
"enum": [
"*",
"NodePrepareResources",
"NodeUnprepareResources"
],
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"required": [
"driver",
"pool"
],
"type": "object"
}
},
"scheduling.v1.PriorityClass": {
"properties": {
"apiVersion": {
"type": "string"
},
"description": {
"type": "string"
},
"globalDefault": {
"type": "boolean"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"preemptionPolicy": {
"type": "string"
},
"value": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"scheduling.v1.PriorityClassList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "scheduling.v1.PriorityClass"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
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
"type": "object"
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
"type": "object"
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
},
"storage.v1.CSIDriver": {
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
"$ref": "storage.v1.CSIDriverSpec"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"storage.v1.CSIDriverList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "storage.v1.CSIDriver"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"storage.v1.CSIDriverSpec": {
"properties": {
"attachRequired": {
"type": "boolean"
},
"fsGroupPolicy": {
"type": "string"
},
"nodeAllocatableUpdatePeriodSeconds": {
"format": "int64",
"type": "integer"
},
"podInfoOnMount": {
"type": "boolean"
},
"preventPodSchedulingIfMissing": {
"type": "boolean"
},
"requiresRepublish": {
"type": "boolean"
},
"seLinuxMount": {
"type": "boolean"
},
"serviceAccountTokenInSecrets": {
"type": "boolean"
},
"storageCapacity": {
"type": "boolean"
},
"tokenRequests": {
"items": {
"$ref": "storage.v1.TokenRequest"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"volumeLifecycleModes": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "set"
}
},
"schema": {
"type": "object"
}
},
"storage.v1.CSINode": {
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
"$ref": "storage.v1.CSINodeSpec"
},
"status": {
"$ref": "storage.v1.CSINodeStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"storage.v1.CSINodeDriver": {
"properties": {
"allocatable": {
"$ref": "storage.v1.VolumeNodeResources"
},
"name": {
"type": "string"
},
"nodeID": {
"type": "string"
},
"topologyKeys": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
}
},
"schema": {
"required": [
"name",
"nodeID"
],
"type": "object"
}
},
"storage.v1.CSINodeList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "storage.v1.CSINode"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"storage.v1.CSINodeSpec": {
"properties": {
"drivers": {
"items": {
"$ref": "storage.v1.CSINodeDriver"
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
"drivers"
],
"type": "object"
}
},
"storage.v1.CSINodeStatus": {
"properties": {
"storageHealth": {
"items": {
"$ref": "storage.v1.StorageHealth"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"name"
],
"x-kubernetes-list-type": "map"
}
},
"schema": {
"type": "object"
}
},
"storage.v1.CSIStorageCapacity": {
"properties": {
"apiVersion": {
"type": "string"
},
"capacity": {
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
"kind": {
"type": "string"
},
"maximumVolumeSize": {
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
"metadata": {
"type": "object"
},
"nodeTopology": {
"$ref": "meta.v1.LabelSelector"
},
"storageClassName": {
"type": "string"
}
},
"schema": {
"required": [
"storageClassName"
],
"type": "object"
}
},
"storage.v1.CSIStorageCapacityList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "storage.v1.CSIStorageCapacity"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"storage.v1.StorageClass": {
"properties": {
"allowVolumeExpansion": {
"type": "boolean"
},
"allowedTopologies": {
"items": {
"$ref": "core.v1.TopologySelectorTerm"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"apiVersion": {
"type": "string"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"mountOptions": {
"items": {
"type": "string"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
"parameters": {
"additionalProperties": {
"type": "string"
},
"type": "object"
},
"provisioner": {
"type": "string"
},
"reclaimPolicy": {
"type": "string"
},
"volumeBindingMode": {
"type": "string"
}
},
"schema": {
"required": [
"provisioner"
],
"type": "object"
}
},
"storage.v1.StorageClassList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "storage.v1.StorageClass"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"storage.v1.StorageHealth": {
"properties": {
"healthConditions": {
"items": {
"$ref": "storage.v1.StorageHealthCondition"
},
"type": "array",
"x-kubernetes-list-type": "atomic"
},
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
"storage.v1.StorageHealthCondition": {
"properties": {
"accessMode": {
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
"volumeMode": {
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
"storage.v1.TokenRequest": {
"properties": {
"audience": {
"type": "string"
},
"expirationSeconds": {
"format": "int64",
"type": "integer"
}
},
"schema": {
"required": [
"audience"
],
"type": "object"
}
},
"storage.v1.VolumeAttachment": {
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
"$ref": "storage.v1.VolumeAttachmentSpec"
},
"status": {
"$ref": "storage.v1.VolumeAttachmentStatus"
}
},
"schema": {
"required": [
"spec"
],
"type": "object"
}
},
"storage.v1.VolumeAttachmentList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "storage.v1.VolumeAttachment"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"storage.v1.VolumeAttachmentSource": {
"properties": {
"inlineVolumeSpec": {
"$ref": "core.v1.PersistentVolumeSpec"
},
"persistentVolumeName": {
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"storage.v1.VolumeAttachmentSpec": {
"properties": {
"attacher": {
"type": "string"
},
"nodeName": {
"type": "string"
},
"source": {
"$ref": "storage.v1.VolumeAttachmentSource"
}
},
"schema": {
"required": [
"attacher",
"nodeName",
"source"
],
"type": "object"
}
},
"storage.v1.VolumeAttachmentStatus": {
"properties": {
"attachError": {
"$ref": "storage.v1.VolumeError"
},
"attached": {
"type": "boolean"
},
"attachmentMetadata": {
"additionalProperties": {
"type": "string"
},
"type": "object"
},
"detachError": {
"$ref": "storage.v1.VolumeError"
}
},
"schema": {
"required": [
"attached"
],
"type": "object"
}
},
"storage.v1.VolumeAttributesClass": {
"properties": {
"apiVersion": {
"type": "string"
},
"driverName": {
"type": "string"
},
"kind": {
"type": "string"
},
"metadata": {
"type": "object"
},
"parameters": {
"additionalProperties": {
"type": "string"
},
"type": "object"
}
},
"schema": {
"required": [
"driverName"
],
"type": "object"
}
},
"storage.v1.VolumeAttributesClassList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "storage.v1.VolumeAttributesClass"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"storage.v1.VolumeError": {
"properties": {
"errorCode": {
"format": "int32",
"type": "integer"
},
"message": {
"type": "string"
},
"time": {
"format": "date-time",
"type": "string"
}
},
"schema": {
"type": "object"
}
},
"storage.v1.VolumeNodeResources": {
"properties": {
"count": {
"format": "int32",
"type": "integer"
}
},
"schema": {
"type": "object"
}
},
"storagemigration.v1.StorageVersionMigration": {
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
"$ref": "storagemigration.v1.StorageVersionMigrationSpec"
},
"status": {
"$ref": "storagemigration.v1.StorageVersionMigrationStatus"
}
},
"schema": {
"type": "object"
}
},
"storagemigration.v1.StorageVersionMigrationList": {
"properties": {
"apiVersion": {
"type": "string"
},
"items": {
"items": {
"$ref": "storagemigration.v1.StorageVersionMigration"
},
"type": "array"
},
"kind": {
"type": "string"
},
"metadata": {
"$ref": "meta.v1.ListMeta"
}
},
"schema": {
"required": [
"items"
],
"type": "object"
}
},
"storagemigration.v1.StorageVersionMigrationSpec": {
"properties": {
"resource": {
"$ref": "meta.v1.GroupResource"
}
},
"schema": {
"required": [
"resource"
],
"type": "object"
}
},
"storagemigration.v1.StorageVersionMigrationStatus": {
"properties": {
"conditions": {
"items": {
"$ref": "meta.v1.Condition"
},
"type": "array",
"x-kubernetes-list-map-keys": [
"type"
],
"x-kubernetes-list-type": "map"
},
"resourceVersion": {
"type": "string"
}
},
"schema": {
"type": "object"
}
}
}''')
