"""A ConfigMap controller sharded across replicas (kgen.runtime.tools.sharding); see __main__.py."""
