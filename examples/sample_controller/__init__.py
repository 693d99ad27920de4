"""kgen's sample controller, after Kubernetes' sample-controller: Foo -> Deployment."""
