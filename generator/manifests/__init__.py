"""`kgen manifests`: CustomResourceDefinitions from Python model classes (controller-gen's role).

Data flows one way, one module per stage: ``discover`` imports the user's modules and finds the
classes marked ``@resource`` (kgen.runtime.apimachinery.markers); ``crd_schema`` turns a class
into an OpenAPI v3 structural schema, with ``known_types`` for apimachinery's meta/v1 types and
``descriptions`` for docstrings; ``crd`` gathers the versions of each kind into one CRD; ``rbac`` the controllers' ``@rbac`` rules
into a ClusterRole and Roles;
``output`` writes the YAML; ``cli`` is the command. A CRD written here, given back to
``kgen generate --crd``, gives models with the same fields, wire names and types.
"""
