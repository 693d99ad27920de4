"""User model modules for the `kgen manifests` tests: written as a kgen user would write them."""
