"""Issue 35's validation acceptance run, in full: kgen against the apiserver's dry-run on six new
projects' CRDs (tests/support/validation_acceptance.py), on a kube-apiserver of its own.

    .venv/bin/python hack/validation_projects.py [--per-kind 10] [--per-object 25] [--seed 35] [PROJECT...]

Prints the confusion matrix, crashes and the cause-set agreement; exits 1 unless there are 0 false
accepts, 0 false rejects, 0 crashes and cause sets agree on at least 99.9 %.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    from kgen.runtime.testing import KubeAPIServer
    from tests.support import validation_acceptance as acceptance
    from tests.support.validation_projects import PROJECTS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("projects", nargs="*", help=f"some of {', '.join(PROJECTS)} (default: all)")
    parser.add_argument("--per-kind", type=int, default=10, help="example objects of each kind (default 10)")
    parser.add_argument("--per-object", type=int, default=25, help="mutations of each original (default 25)")
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    unknown = [p for p in args.projects if p not in PROJECTS]
    if unknown:
        parser.error(f"unknown project {unknown[0]!r}: choose among {', '.join(PROJECTS)}")
    args.projects = args.projects or list(PROJECTS)
    with KubeAPIServer() as server, server.admin_client(timeout=60.0) as admin:
        print(f"kube-apiserver {server.version}", flush=True)
        results = acceptance.run(admin, args.projects, per_kind=args.per_kind, per_object=args.per_object, seed=args.seed)
    print(acceptance.report(results))
    outs = results.outcomes
    ok = (not acceptance.false_accepts(results) and not acceptance.false_rejects(results)
          and not any(o.crash for o in outs) and sum(o.same_causes for o in outs) >= 0.999 * len(outs))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
