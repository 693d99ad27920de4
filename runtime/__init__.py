"""kgen's runtime: what generated clients import to reach a kube-apiserver.

Folders follow client-go's map, one concept per module; layers import only downward
(apimachinery <- util <- rest <- gentype <- discovery <- dynamic <- tools <- fake, testing),
which the import-linter contracts in pyproject.toml check. See docs/architecture.md.
"""
