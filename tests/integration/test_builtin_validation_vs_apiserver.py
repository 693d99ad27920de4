"""Issue 35 item 22's acceptance (part A: ObjectMeta, pod specs and the workload kinds): common
mistakes in Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs and Pods, each sent
to the real apiserver (a server-side dry-run create, or a dry-run update of a stored object) and
through ``validate``. kgen must refuse what the apiserver refuses, with the same field paths (and
the same messages where the apiserver's text holds nothing a client cannot know), and accept
every valid object. The figure (mistakes, agreeing) is printed in the run's figures section.

The rows are tests/support/builtin_validation.py's ``Mistake``s; part B's kinds (Service,
Ingress, ConfigMap, Secret, PersistentVolumeClaim) keep theirs in their own module with the same
helpers. Behaviours that differ between releases are pinned to the release that shows them
(``PINNED``: the row runs only there)."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest

from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.support.builtin_validation import (
    Mistake, container, cron_job, daemon_set, deployment, differences, job, kgen_answer, mutated, pod, pod_template,
    replica_set, server_answer, stateful_set, with_, without,
)
from tests.support.builtin_validation import Answer
from tests.support.versions import behaves_older, minor_of

C0 = "spec.template.spec.containers[0]"


def _scaled(replicas: int) -> Any:
    return lambda stored: with_(stored, "spec.replicas", replicas)


def _set(path: str, value: Any) -> Any:
    return lambda stored: with_(stored, path, value)


VALID = [
    Mistake("valid Deployment", deployment()),
    Mistake("valid Deployment with probes, ports, env, resources and a mounted volume", deployment(template=pod_template(
        volumes=[{"name": "data", "emptyDir": {"sizeLimit": "1Gi"}}, {"name": "cfg", "configMap": {"name": "cfg"}}],
        containers=[container(
            ports=[{"name": "http", "containerPort": 8080}],
            env=[{"name": "MODE", "value": "prod"}, {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
            resources={"requests": {"cpu": "250m", "memory": "64Mi"}, "limits": {"cpu": "1", "memory": "128Mi"}},
            livenessProbe={"httpGet": {"path": "/healthz", "port": "http"}}, readinessProbe={"tcpSocket": {"port": 8080}},
            volumeMounts=[{"name": "data", "mountPath": "/data"}, {"name": "cfg", "mountPath": "/etc/cfg"}])]))),
    Mistake("valid ReplicaSet", replica_set()),
    Mistake("valid Deployment with scheduling constraints and a security context", deployment(template=pod_template(
        affinity={"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]}]}]},
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 50, "preference": {"matchExpressions": [{"key": "zone", "operator": "Exists"}]}}]}},
        topologySpreadConstraints=[{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                    "whenUnsatisfiable": "DoNotSchedule", "minDomains": 2,
                                    "labelSelector": {"matchLabels": {"app": "web"}}}],
        tolerations=[{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"},
                     {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute",
                      "tolerationSeconds": 60}],
        securityContext={"runAsUser": 1000, "runAsGroup": 1000, "fsGroup": 2000, "supplementalGroups": [3000]},
        containers=[container(securityContext={"runAsUser": 1001, "allowPrivilegeEscalation": False})]))),
    Mistake("valid StatefulSet with a volume claim template mounted", stateful_set(
        volumeClaimTemplates=[{"metadata": {"name": "state"}, "spec": {"accessModes": ["ReadWriteOnce"],
                                                                      "resources": {"requests": {"storage": "1Gi"}}}}],
        template=pod_template(containers=[container(volumeMounts=[{"name": "state", "mountPath": "/var/lib/db"}])]))),
    Mistake("valid DaemonSet", daemon_set()),
    Mistake("valid Job", job()),
    Mistake("valid indexed Job", job(completionMode="Indexed", completions=3, parallelism=2)),
    Mistake("valid CronJob", cron_job()),
    Mistake("valid CronJob with a descriptor schedule and a time zone", cron_job(schedule="@daily", timeZone="Europe/Paris")),
    Mistake("valid Pod", pod()),
    Mistake("a volume without a source (defaulted to an emptyDir)", with_(deployment(), "spec.template.spec.volumes", [{"name": "v"}])),
    Mistake("valid Deployment scaled (update)", deployment(), change=_scaled(5)),
    Mistake("valid Deployment image changed (update)", deployment(), change=_set(f"{C0}.image", "nginx:1.28")),
    Mistake("valid StatefulSet scaled (update)", stateful_set(), change=_scaled(3)),
    Mistake("valid suspended Job's resources and node selector changed (update)", job(suspend=True),
            change=lambda s: with_(with_(s, "spec.template.spec.containers[0].resources", {"requests": {"cpu": "2"}}),
                                   "spec.template.spec.nodeSelector", {"pool": "big"})),
    Mistake("valid CronJob suspended (update)", cron_job(), change=_set("spec.suspend", True)),
    Mistake("valid Pod image and labels changed (update)", pod(),
            change=lambda s: with_(with_(s, "spec.containers[0].image", "nginx:1.28"), "metadata.labels", {"v": "2"})),
    Mistake("valid sidecar init container", pod(initContainers=[container("log", restartPolicy="Always",
                                                                            readinessProbe={"exec": {"command": ["true"]}})])),
    Mistake("valid Deployment with a null arg and a null label value (decoded as empty strings)", with_(with_(
        deployment(), f"{C0}.args", ["a", None]), "metadata.labels", {"tier": None})),
    Mistake("valid pod affinity and anti-affinity", deployment(template=pod_template(affinity={
        "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchLabels": {"app": "db"}}, "namespaces": ["data"], "topologyKey": "kubernetes.io/hostname"}]},
        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}},
                                                "topologyKey": "topology.kubernetes.io/zone"}}]}}))),
    Mistake("valid DNS config with dnsPolicy None", pod(dnsPolicy="None", dnsConfig={
        "nameservers": ["10.0.0.10"], "searches": ["svc.cluster.local.", "_x.example.com"], "options": [{"name": "ndots", "value": "2"}]})),
    # /status writes: the status strategy keeps the stored spec (a Deployment's labels too), so neither is judged
    Mistake("valid Deployment status (status write)", deployment(), subresource="status",
            change=_set("status", {"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2, "readyReplicas": 2,
                                   "availableReplicas": 1, "collisionCount": 1})),
    Mistake("Deployment status write with spec.replicas -1 and a bad label (kept from the stored object)", deployment(),
            subresource="status", change=lambda s: with_(with_(s, "spec.replicas", -1), "metadata.labels", {"a": "bad value"})),
    Mistake("valid StatefulSet status write with a negative spec count", stateful_set(), subresource="status",
            change=lambda s: with_(with_(s, "spec.minReadySeconds", -1), "status.replicas", 1)),
    Mistake("valid Pod status write, an image change and an owner reference (ignored)", pod(), subresource="status",
            change=lambda s: with_(with_(with_(s, "spec.containers[0].image", ""), "metadata.ownerReferences", [{}]),
                                   "status.conditions", [{"type": "Ready", "status": "False"},
                                                         {"type": "example.com/warm", "status": "True"}])),
    Mistake("valid Job status write, a spec change (ignored)", job(), subresource="status",
            change=lambda s: with_(with_(s, "spec.parallelism", -1), "status", {"active": 2, "ready": 1, "terminating": 0})),
    Mistake("valid CronJob status write, a bad schedule (ignored)", cron_job(), subresource="status",
            change=lambda s: with_(with_(s, "spec.schedule", "hourly"), "status", {"lastScheduleTime": "2026-01-02T03:04:05Z"})),
]

MISTAKES = [
    # Deployments
    Mistake("Deployment replicas -1", with_(deployment(), "spec.replicas", -1)),
    Mistake("Deployment selector does not match the template's labels", with_(deployment(), "spec.selector.matchLabels.app", "api")),
    Mistake("Deployment without a selector", without(deployment(), "spec.selector")),
    Mistake("Deployment with an empty selector", with_(deployment(), "spec.selector", {})),
    Mistake("Deployment selector with a bad operator", with_(deployment(), "spec.selector",
                                                              {"matchExpressions": [{"key": "app", "operator": "Has"}]})),
    Mistake("container without an image", without(deployment(), f"{C0}.image")),
    Mistake("invalid container name", with_(deployment(), f"{C0}.name", "Web_Server")),
    Mistake("invalid metadata name", with_(deployment(), "metadata.name", "Web_App")),
    Mistake("bad label value in the template", with_(deployment(), "spec.template.metadata.labels.tier", "front end")),
    Mistake("containerPort above 65535", with_(deployment(), f"{C0}.ports", [{"containerPort": 70000}])),
    Mistake("hostPort above 65535", with_(deployment(), f"{C0}.ports", [{"containerPort": 80, "hostPort": 65536}])),
    Mistake("invalid and duplicate port names", with_(deployment(), f"{C0}.ports", [
        {"name": "http", "containerPort": 80}, {"name": "http", "containerPort": 81}, {"name": "Web_Port", "containerPort": 82}])),
    Mistake("quantity 1GB", with_(deployment(), f"{C0}.resources", {"limits": {"memory": "1GB"}})),
    Mistake("quantity with an unknown suffix", with_(deployment(), f"{C0}.resources", {"requests": {"cpu": "1mm"}})),
    Mistake("cpu request above its limit", with_(deployment(), f"{C0}.resources",
                                                  {"requests": {"cpu": "2"}, "limits": {"cpu": "500m"}})),
    Mistake("memory request above its limit", with_(deployment(), f"{C0}.resources",
                                                     {"requests": {"memory": "1.5Gi"}, "limits": {"memory": "1Gi"}})),
    Mistake("negative quantity", with_(deployment(), f"{C0}.resources", {"requests": {"cpu": "-1"}})),
    Mistake("unknown resource name", with_(deployment(), f"{C0}.resources", {"limits": {"gpu": "1"}})),
    Mistake("duplicate container names", with_(deployment(), "spec.template.spec.containers",
                                               [container("app"), container("app", "redis:7")])),
    Mistake("empty containers", with_(deployment(), "spec.template.spec.containers", [])),
    Mistake("volume mount of an undeclared volume", with_(deployment(), f"{C0}.volumeMounts",
                                                          [{"name": "data", "mountPath": "/data"}])),
    Mistake("volume with two sources", with_(deployment(), "spec.template.spec.volumes",
                                             [{"name": "v", "emptyDir": {}, "configMap": {"name": "c"}}])),
    Mistake("duplicate volume names", with_(deployment(), "spec.template.spec.volumes",
                                            [{"name": "v", "emptyDir": {}}, {"name": "v", "emptyDir": {}}])),
    Mistake("two mounts at one path", with_(with_(deployment(), "spec.template.spec.volumes", [{"name": "v", "emptyDir": {}}]),
                                            f"{C0}.volumeMounts", [{"name": "v", "mountPath": "/d"}, {"name": "v", "mountPath": "/d"}])),
    Mistake("absolute subPath", with_(with_(deployment(), "spec.template.spec.volumes", [{"name": "v", "emptyDir": {}}]),
                                      f"{C0}.volumeMounts", [{"name": "v", "mountPath": "/d", "subPath": "/etc"}])),
    Mistake("bad env names", with_(deployment(), f"{C0}.env", [{"name": "A=B", "value": "1"}, {"name": ""}])),
    Mistake("env valueFrom with no source", with_(deployment(), f"{C0}.env", [{"name": "A", "valueFrom": {}}])),
    Mistake("env secretKeyRef without a key", with_(deployment(), f"{C0}.env",
                                                    [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "s"}}}])),
    Mistake("probe without a handler", with_(deployment(), f"{C0}.livenessProbe", {"periodSeconds": 5})),
    Mistake("probe with two handlers", with_(deployment(), f"{C0}.readinessProbe",
                                             {"exec": {"command": ["true"]}, "tcpSocket": {"port": 80}})),
    Mistake("liveness successThreshold 3", with_(deployment(), f"{C0}.livenessProbe",
                                                 {"tcpSocket": {"port": 80}, "successThreshold": 3})),
    Mistake("probe port out of range and negative period", with_(deployment(), f"{C0}.readinessProbe",
                                                                  {"httpGet": {"path": "/", "port": 0}, "periodSeconds": -1})),
    Mistake("exec probe without a command", with_(deployment(), f"{C0}.startupProbe", {"exec": {}})),
    Mistake("bad imagePullPolicy", with_(deployment(), f"{C0}.imagePullPolicy", "Sometimes")),
    Mistake("Deployment restartPolicy Never", with_(deployment(), "spec.template.spec.restartPolicy", "Never")),
    Mistake("Deployment activeDeadlineSeconds", with_(deployment(), "spec.template.spec.activeDeadlineSeconds", 60)),
    Mistake("Deployment unknown strategy", with_(deployment(), "spec.strategy", {"type": "BlueGreen"})),
    Mistake("Deployment maxUnavailable and maxSurge both 0", with_(deployment(), "spec.strategy",
                                                                    {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}})),
    Mistake("Deployment maxUnavailable 150%", with_(deployment(), "spec.strategy", {"rollingUpdate": {"maxUnavailable": "150%"}})),
    Mistake("Deployment Recreate with rollingUpdate", with_(deployment(), "spec.strategy",
                                                            {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}})),
    Mistake("Deployment minReadySeconds above progressDeadlineSeconds", with_(deployment(), "spec.minReadySeconds", 900)),
    Mistake("bad nodeSelector label", with_(deployment(), "spec.template.spec.nodeSelector", {"disk": "ssd drive"})),
    Mistake("bad serviceAccountName", with_(deployment(), "spec.template.spec.serviceAccountName", "Build_Bot")),
    Mistake("init container with a liveness probe", with_(deployment(), "spec.template.spec.initContainers",
                                                          [container("init", livenessProbe={"exec": {"command": ["true"]}})])),
    Mistake("init container named like a container", with_(deployment(), "spec.template.spec.initContainers", [container("app")])),
    Mistake("Deployment selector changed (update)", deployment(),
            change=lambda s: with_(with_(s, "spec.selector.matchLabels.app", "api"), "spec.template.metadata.labels.app", "api")),
    Mistake("Deployment replicas -3 (update)", deployment(), change=_scaled(-3)),
    Mistake("Deployment template broken by an update", deployment(), change=_set(f"{C0}.image", "")),
    # ReplicaSets
    Mistake("ReplicaSet selector changed (update)", replica_set(),
            change=lambda s: with_(with_(s, "spec.selector.matchLabels.tier", "x"), "spec.template.metadata.labels.tier", "x")),
    Mistake("ReplicaSet with an empty selector", with_(replica_set(), "spec.selector", {})),
    Mistake("ReplicaSet restartPolicy OnFailure", with_(replica_set(), "spec.template.spec.restartPolicy", "OnFailure")),
    # StatefulSets
    Mistake("StatefulSet serviceName not a DNS label", with_(stateful_set(), "spec.serviceName", "DB_Service")),
    Mistake("StatefulSet podManagementPolicy", with_(stateful_set(), "spec.podManagementPolicy", "AllAtOnce")),
    Mistake("StatefulSet name with a dot", with_(stateful_set(), "metadata.name", "db.primary")),
    Mistake("StatefulSet OnDelete with rollingUpdate", with_(stateful_set(), "spec.updateStrategy",
                                                             {"type": "OnDelete", "rollingUpdate": {"partition": 1}})),
    Mistake("StatefulSet unknown updateStrategy", with_(stateful_set(), "spec.updateStrategy", {"type": "Canary"})),
    Mistake("StatefulSet negative partition", with_(stateful_set(), "spec.updateStrategy", {"rollingUpdate": {"partition": -1}})),
    Mistake("StatefulSet retention policy", with_(stateful_set(), "spec.persistentVolumeClaimRetentionPolicy", {"whenDeleted": "Keep"})),
    Mistake("StatefulSet with an empty selector", with_(stateful_set(), "spec.selector", {})),
    Mistake("StatefulSet serviceName changed (update)", stateful_set(), change=_set("spec.serviceName", "db2")),
    # DaemonSets
    Mistake("DaemonSet unknown updateStrategy", with_(daemon_set(), "spec.updateStrategy", {"type": "Surge"})),
    Mistake("DaemonSet maxUnavailable 0 and maxSurge 0", with_(daemon_set(), "spec.updateStrategy",
                                                               {"rollingUpdate": {"maxUnavailable": 0}})),
    Mistake("DaemonSet maxUnavailable and maxSurge both set", with_(daemon_set(), "spec.updateStrategy",
                                                                    {"rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}})),
    Mistake("DaemonSet without a selector", without(daemon_set(), "spec.selector")),
    Mistake("DaemonSet restartPolicy Never", with_(daemon_set(), "spec.template.spec.restartPolicy", "Never")),
    Mistake("DaemonSet maxUnavailable not a percent", with_(daemon_set(), "spec.updateStrategy",
                                                            {"rollingUpdate": {"maxUnavailable": "ten"}})),
    Mistake("DaemonSet selector changed (update)", daemon_set(),
            change=lambda s: with_(with_(s, "spec.selector.matchLabels.tier", "x"), "spec.template.metadata.labels.tier", "x")),
    Mistake("DaemonSet strategy broken by an update", daemon_set(), change=_set("spec.updateStrategy.type", "Replace")),
    # Jobs
    Mistake("Job without a restartPolicy", without(job(), "spec.template.spec.restartPolicy")),
    Mistake("Job restartPolicy Always", with_(job(), "spec.template.spec.restartPolicy", "Always")),
    Mistake("Job completions -1", with_(job(), "spec.completions", -1)),
    Mistake("Job parallelism -1 and backoffLimit -1", with_(with_(job(), "spec.parallelism", -1), "spec.backoffLimit", -1)),
    Mistake("Job unknown completionMode", with_(job(), "spec.completionMode", "Ordered")),
    Mistake("Job indexed without completions", with_(with_(job(), "spec.completionMode", "Indexed"), "spec.parallelism", 2)),
    Mistake("Job backoffLimitPerIndex without indexed mode", with_(job(), "spec.backoffLimitPerIndex", 2)),
    Mistake("Job with a hand-written selector", with_(job(), "spec.selector", {"matchLabels": {"app": "web"}}), messages=False),
    Mistake("Job with manualSelector and no selector", with_(job(), "spec.manualSelector", True)),
    Mistake("Job template changed (update)", job(), change=_set("spec.template.spec.containers[0].image", "busybox:1.37"), messages=False),
    Mistake("Job completions changed (update)", job(), change=_set("spec.completions", 4)),
    Mistake("Job parallelism -1 (update)", job(), change=_set("spec.parallelism", -1)),
    Mistake("suspended Job's image changed (update)", job(suspend=True),
            change=_set("spec.template.spec.containers[0].image", "busybox:1.37"), messages=False),
    # CronJobs
    Mistake("CronJob schedule broken by an update", cron_job(), change=_set("spec.schedule", "* * *")),
    Mistake("CronJob schedule of one field", with_(cron_job(), "spec.schedule", "hourly")),
    Mistake("CronJob minute 61", with_(cron_job(), "spec.schedule", "61 * * * *")),
    Mistake("CronJob schedule with a word", with_(cron_job(), "spec.schedule", "0 noon * * *")),
    Mistake("CronJob unknown descriptor", with_(cron_job(), "spec.schedule", "@fortnightly")),
    Mistake("CronJob without a schedule", without(cron_job(), "spec.schedule")),
    Mistake("CronJob TZ in the schedule", with_(cron_job(), "spec.schedule", "CRON_TZ=UTC 0 3 * * *")),
    Mistake("CronJob empty timeZone", with_(cron_job(), "spec.timeZone", "")),
    Mistake("CronJob concurrencyPolicy", with_(cron_job(), "spec.concurrencyPolicy", "Queue")),
    Mistake("CronJob name above 52 characters", with_(cron_job(), "metadata.name", "nightly-" + "x" * 50)),
    Mistake("CronJob job template without restartPolicy", without(cron_job(), "spec.jobTemplate.spec.template.spec.restartPolicy")),
    Mistake("CronJob job template with a selector", with_(cron_job(), "spec.jobTemplate.spec.selector", {"matchLabels": {"a": "b"}})),
    Mistake("CronJob negative history limit", with_(cron_job(), "spec.successfulJobsHistoryLimit", -1)),
    Mistake("toleration with a bad operator and effect", with_(deployment(), "spec.template.spec.tolerations",
                                                               [{"key": "gpu", "operator": "Matches", "effect": "NoRun"}])),
    Mistake("toleration without a key and with Equal", with_(deployment(), "spec.template.spec.tolerations",
                                                             [{"operator": "Equal", "value": "x"}])),
    Mistake("toleration seconds without NoExecute", with_(deployment(), "spec.template.spec.tolerations",
                                                          [{"key": "k", "operator": "Exists", "effect": "NoSchedule",
                                                            "tolerationSeconds": 30}])),
    Mistake("two containers on one host port", with_(deployment(), "spec.template.spec.containers", [
        container("a", ports=[{"containerPort": 80, "hostPort": 8080}]),
        container("b", ports=[{"containerPort": 81, "hostPort": 8080}])])),
    Mistake("hostNetwork with a different host port", with_(with_(deployment(), "spec.template.spec.hostNetwork", True),
                                                            f"{C0}.ports", [{"containerPort": 80, "hostPort": 8080}])),
    Mistake("negative runAsUser", with_(deployment(), f"{C0}.securityContext", {"runAsUser": -1})),
    Mistake("node affinity without terms and with a bad operator", with_(deployment(), "spec.template.spec.affinity", {
        "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []},
                         "preferredDuringSchedulingIgnoredDuringExecution": [
                             {"weight": 0, "preference": {"matchExpressions": [{"key": "zone", "operator": "Near"}]}}]}})),
    Mistake("topology spread constraint mistakes", with_(deployment(), "spec.template.spec.topologySpreadConstraints", [
        {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "Sometimes"},
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 2},
        {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"}])),
    Mistake("pod fsGroup above int32", with_(deployment(), "spec.template.spec.securityContext", {"fsGroup": 2**31})),
    # Pods
    Mistake("Pod without containers", with_(pod(), "spec.containers", [])),
    Mistake("Pod bad restartPolicy", with_(pod(), "spec.restartPolicy", "Sometimes")),
    Mistake("Pod bad dnsPolicy", with_(pod(), "spec.dnsPolicy", "Google")),
    Mistake("Pod hostname not a DNS label", with_(pod(), "spec.hostname", "Web.Host")),
    Mistake("Pod activeDeadlineSeconds 0", with_(pod(), "spec.activeDeadlineSeconds", 0)),
    Mistake("Pod bad generateName", without(with_(pod(), "metadata.generateName", "Bad_Name-"), "metadata.name"),
            messages=False),  # the message quotes the name the server generated
    Mistake("Pod created with an ephemeral container", with_(pod(), "spec.ephemeralContainers",
                                                             [{"name": "debug", "image": "busybox:1.36"}])),
    Mistake("Pod env changed (update)", pod(), change=_set("spec.containers[0].env", [{"name": "A", "value": "1"}]),
            messages=False),  # the Forbidden ends with a Go diff of the specs
    Mistake("Pod container added (update)", pod(),
            change=lambda s: with_(s, "spec.containers", [*s["spec"]["containers"], container("two")])),
    Mistake("Pod activeDeadlineSeconds raised (update)", pod(activeDeadlineSeconds=60),
            change=_set("spec.activeDeadlineSeconds", 120)),
    Mistake("Pod image emptied (update)", pod(), change=_set("spec.containers[0].image", "")),
    Mistake("Pod container with a bad port protocol", with_(pod(), "spec.containers[0].ports",
                                                            [{"containerPort": 53, "protocol": "ICMP"}])),
    # security contexts beyond IDs
    Mistake("seccomp Localhost without a profile, RuntimeDefault with one", with_(with_(
        deployment(), "spec.template.spec.securityContext", {"seccompProfile": {"type": "Localhost"}}),
        f"{C0}.securityContext", {"seccompProfile": {"type": "RuntimeDefault", "localhostProfile": "p.json"}})),
    Mistake("AppArmor Localhost padded, Unconfined with a profile", with_(with_(
        deployment(), "spec.template.spec.securityContext", {"appArmorProfile": {"type": "Localhost", "localhostProfile": " p "}}),
        f"{C0}.securityContext", {"appArmorProfile": {"type": "Unconfined", "localhostProfile": "p"}})),
    Mistake("AppArmor Localhost without a profile", with_(deployment(), f"{C0}.securityContext",
                                                           {"appArmorProfile": {"type": "Localhost"}})),
    Mistake("CAP_SYS_ADMIN without privilege escalation", with_(deployment(), f"{C0}.securityContext", {
        "allowPrivilegeEscalation": False, "runAsUser": 1000, "capabilities": {"add": ["CAP_SYS_ADMIN"], "drop": ["ALL"]}})),
    # pod affinity and anti-affinity
    Mistake("pod affinity term mistakes", with_(deployment(), "spec.template.spec.affinity", {
        "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            {"labelSelector": {"matchExpressions": [{"key": "app", "operator": "In"}]}, "namespaces": ["Team_A"],
             "topologyKey": ""}]},
        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 0, "podAffinityTerm": {"topologyKey": "bad key/zone/x"}},
            {"weight": 101, "podAffinityTerm": {"topologyKey": "zone", "namespaceSelector": {"matchLabels": {"a": "b c"}}}}]}})),
    # DNS config
    Mistake("dnsPolicy None without a config", with_(pod(), "spec.dnsPolicy", "None")),
    Mistake("dnsPolicy None without nameservers", with_(with_(pod(), "spec.dnsPolicy", "None"), "spec.dnsConfig", {"searches": ["a"]})),
    Mistake("DNS config mistakes", with_(deployment(), "spec.template.spec.dnsConfig", {
        "nameservers": ["1.1.1.1", "8.8.8.8", "9.9.9.9", "dns.example.com"],
        "searches": ["ok.example.com.", ".", "Bad_Domain", "_srv.example.com", "a..b"], "options": [{"value": "2"}]})),
    Mistake("too many DNS search paths", with_(deployment(), "spec.template.spec.dnsConfig", {
        "searches": [f"s{i}.example.com" for i in range(33)]})),
    # decode errors: Go's 400 for the first wrongly typed field in the document's order
    Mistake("container image a number (400)", with_(deployment(), f"{C0}.image", 5)),
    Mistake("metadata name a list (400)", with_(deployment(), "metadata.name", ["web"])),
    Mistake("replicas a string (400)", with_(deployment(), "spec.replicas", "3")),
    Mistake("containers an object (400)", with_(deployment(), "spec.template.spec.containers", {"name": "app"})),
    Mistake("template labels a list (400)", with_(deployment(), "spec.template.metadata.labels", ["app"])),
    Mistake("container port a string and env value a bool (400: the first)", with_(with_(
        deployment(), f"{C0}.ports", [{"containerPort": "80"}]), f"{C0}.env", [{"name": "A", "value": True}])),
    Mistake("Pod hostNetwork a string (400)", with_(pod(), "spec.hostNetwork", "true")),
    Mistake("Job backoffLimit an object (400)", with_(job(), "spec.backoffLimit", {"n": 1})),
    Mistake("a null container (decoded as an empty one)", with_(deployment(), "spec.template.spec.containers", [None])),
    Mistake("a null container port (decoded as an empty one)", with_(deployment(), f"{C0}.ports", [None])),
    Mistake("a null toleration and a null volume", with_(with_(deployment(), "spec.template.spec.tolerations", [None]),
                                                          "spec.template.spec.volumes", [None])),
    # /status writes (ValidateXStatusUpdate)
    Mistake("Deployment status replicas -1 (status write)", deployment(), subresource="status",
            change=_set("status", {"replicas": -1, "observedGeneration": -2})),
    Mistake("Deployment status counts above replicas (status write)", deployment(), subresource="status",
            change=_set("status", {"replicas": 2, "updatedReplicas": 3, "readyReplicas": 1, "availableReplicas": 2,
                                   "unavailableReplicas": -1})),
    Mistake("Deployment status write with a bad annotation key", deployment(), subresource="status",
            change=lambda s: with_(s, "metadata.annotations", {"bad key": "x"})),
    Mistake("ReplicaSet status counts (status write)", replica_set(), subresource="status",
            change=_set("status", {"replicas": 1, "fullyLabeledReplicas": 2, "readyReplicas": -1, "availableReplicas": 1})),
    Mistake("StatefulSet status counts (status write)", stateful_set(), subresource="status",
            change=_set("status", {"replicas": 2, "readyReplicas": 1, "currentReplicas": 3, "availableReplicas": 2,
                                   "collisionCount": -1})),
    Mistake("Job status counts and uncounted pods (status write)", job(), subresource="status",
            change=_set("status", {"active": -1, "failed": -2, "ready": 2, "terminating": -1,
                                   "uncountedTerminatedPods": {"succeeded": ["a", ""], "failed": ["a", "b"]}})),
    Mistake("Job status more ready than active (status write)", job(), subresource="status",
            change=_set("status", {"active": 1, "ready": 2})),
    Mistake("CronJob status write with a bad annotation key and a bad finalizer", cron_job(), subresource="status",
            change=lambda s: with_(with_(s, "metadata.annotations", {"bad key": "x"}), "metadata.finalizers", ["unqualified"])),
    Mistake("Pod status mistakes (status write)", pod(), subresource="status",
            change=lambda s: with_(with_(s, "metadata.annotations", {"kubernetes.io/config.mirror": "x"}), "status", {
                **s.get("status", {}), "observedGeneration": -1, "nominatedNodeName": "Node_1", "qosClass": "Guaranteed",
                "conditions": [{"type": "bad type!", "status": "True"}, {"type": "Ready", "status": "True",
                                                                         "observedGeneration": -2}]})),
    Mistake("DaemonSet status counts (status write)", daemon_set(), subresource="status",
            change=_set("status", {"currentNumberScheduled": -1, "numberMisscheduled": 0, "desiredNumberScheduled": 1,
                                   "numberReady": -3, "numberUnavailable": -1, "collisionCount": -2})),
]

PINNED: dict[str, tuple[int, int]] = {
    # 1.37 reports each immutable field (ValidateImmutableField); up to 1.36 one Forbidden at ``spec``
    "StatefulSet serviceName changed (update)": (1, 37),
    # MutablePodResourcesForSuspendedJobs: a suspended Job's pod spec is compared, resources aside
    "valid suspended Job's resources and node selector changed (update)": (1, 37),
    "suspended Job's image changed (update)": (1, 37),
    # the message lists `fileKeyRef` once EnvFiles is on (beta, default on, from 1.35)
    "env valueFrom with no source": (1, 35),
}
"""Rows whose apiserver answer differs between releases: the row runs from that release on."""


def _as_release(answer: Answer, version: str) -> Answer:
    """kgen's answer (written as 1.37 words it) as ``version`` words it (tests/support/versions.py)."""
    if not behaves_older(version, "label-key-wording"):
        return answer
    return Answer(answer.code, frozenset(
        (f, m.replace("must be no more than 63 bytes", "must be no more than 63 characters")
         .replace("a valid label key must consist", "a qualified name must consist")) for f, m in answer.causes))


def _rows(version: str) -> list[Mistake]:
    return [row for row in VALID + MISTAKES if row.label not in PINNED or minor_of(version) >= PINNED[row.label]]


def test_the_table_covers_the_workload_kinds() -> None:
    kinds = {row.obj["kind"] for row in MISTAKES}
    assert kinds >= {"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob", "Pod"}
    assert len(MISTAKES) >= 40


def test_workload_mistakes_agree_with_the_apiserver(kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str,
                                                    figure: Figure) -> None:
    found: list[str] = []
    rows = _rows(kube_apiserver.version)
    refused = agreeing = accepted = 0
    for row in rows:
        server, stored = server_answer(admin, namespace, row)
        kgen = _as_release(kgen_answer(row, stored), kube_apiserver.version)
        diff = differences(row, server, kgen)
        found.extend(diff)
        if row in VALID:
            found.extend([] if server.accepted else [f"{row.label} is not valid: {sorted(server.causes)}"])
            accepted += int(not diff)
        else:
            found.extend([f"{row.label} is accepted by the apiserver: not a mistake"] if server.accepted else [])
            refused += int(not server.accepted)
            agreeing += int(not diff and not server.accepted)
    figure(f"built-in kinds (workloads, pods) on {kube_apiserver.version}: {refused} mistakes, {agreeing} agreeing "
           f"(verdict, field paths, messages where deterministic); {accepted}/{len(rows) - refused} valid objects accepted by both")
    assert found == [], "\n".join(found)


SEED = 35
MUTANTS = 300


def test_seeded_mutants_of_the_valid_objects_agree_with_the_apiserver(kube_apiserver: KubeAPIServer, admin: httpx.Client,
                                                                      namespace: str, figure: Figure) -> None:
    """A differential run beside the table: the valid objects with seeded mutations (a value of the
    same JSON type, or none), whatever the apiserver says of them. Before 1.35 the objects with a
    container restartPolicy or an env valueFrom are left out: kgen writes the container restart
    rules and env sources of 1.35 and later (ContainerRestartRules, EnvFiles on by default)."""
    bases = [row.obj for row in VALID if row.change is None]
    if minor_of(kube_apiserver.version) < (1, 35):
        bases = [b for b in bases if '"restartPolicy": "Always"' not in json.dumps(b) and "valueFrom" not in json.dumps(b)]
    rows = mutated(bases, random.Random(SEED), MUTANTS)
    found: list[str] = []
    refused = 0
    for row in rows:
        server, _ = server_answer(admin, namespace, row)
        refused += int(not server.accepted)
        found.extend(differences(row, server, _as_release(kgen_answer(row, None), kube_apiserver.version)))
    figure(f"built-in kinds, seeded mutants (seed {SEED}) on {kube_apiserver.version}: {len(rows)} objects, {refused} refused "
           f"by the apiserver, {len(rows) - len(found)} agreeing")
    assert found == [], "\n".join(found)


def test_the_comparison_sees_a_planted_difference(kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness self-test: with the workload validators unregistered, the rows must disagree."""
    from kgen.runtime.apimachinery.validation import builtin

    builtin.validator_for("apps", "Deployment")
    monkeypatch.setitem(builtin._VALIDATORS, ("apps", "Deployment", ""), lambda obj, old: [])
    row = MISTAKES[0]
    server, stored = server_answer(admin, namespace, row)
    assert differences(row, server, kgen_answer(row, stored)) != []
