"""``k8s.io/kubernetes/pkg/apis/batch/validation``: Job and CronJob."""

from __future__ import annotations
