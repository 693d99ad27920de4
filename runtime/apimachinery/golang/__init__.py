"""Go's behaviour where the apiserver's answers depend on it: ``fmt`` (``gofmt``), ``sort``
(``gosort``) and sigs.k8s.io/yaml (``goyaml``).
"""
