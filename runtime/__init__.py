"""kgen's runtime: what generated clients import to reach a kube-apiserver.

Modules mirror client-go's concepts, one per concept (see DESIGN.md).
"""
