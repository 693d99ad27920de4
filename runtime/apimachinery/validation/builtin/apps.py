"""``k8s.io/kubernetes/pkg/apis/apps/validation``: Deployment, StatefulSet, DaemonSet, ReplicaSet."""

from __future__ import annotations
