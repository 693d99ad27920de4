"""kgen's generator: sources -> IR -> render -> format -> write, and the `kgen` CLI."""
