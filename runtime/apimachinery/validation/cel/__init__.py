"""apiextensions-apiserver's ``pkg/apiserver/schema/cel`` (``validation``: x-kubernetes-validations
rules) and the apiserver's CEL library (``library``).
"""
