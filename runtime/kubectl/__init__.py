"""What kubectl's libraries do for its everyday commands, for Python: k8s.io/kubectl's drain,
polymorphichelpers' rollout status and rollback, cli-runtime's resource builder (manifests and
apply in kubectl's order), ``kubectl wait`` and ``kubectl cp``. Each stands on the typed and
dynamic clients and on client-go's tools (tools/watch, tools/remotecommand) below it."""
