"""The fake apiserver's request handlers, as k8s.io/apiserver's ``pkg/endpoints/handlers``: the
verbs (``verbs``), patch, apply, the scale subresource, watch, and what every write shares
(``writes``).
"""
