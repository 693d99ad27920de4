"""Maps the fixed top-level folders onto the `kgen.*` import names (see DESIGN.md).

generator/ -> kgen.generator, runtime/ -> kgen.runtime, templates/ -> kgen.templates,
generated/kubernetes/ -> kgen.kubernetes. `kgen` itself is an implicit namespace package.
openapi/ ships as data in kgen/openapi/: `kgen generate` with no source reads it.
"""

from pathlib import Path

from setuptools import find_packages, setup

ROOTS = {
    "kgen.generator": "generator",
    "kgen.runtime": "runtime",
    "kgen.templates": "templates",
    "kgen.kubernetes": "generated/kubernetes",
}


def _packages() -> tuple[list[str], dict[str, str]]:
    packages, package_dir = [], {}
    for name, folder in ROOTS.items():
        package_dir[name] = folder
        packages.append(name)
        if Path(folder).is_dir():
            packages += [f"{name}.{sub}" for sub in find_packages(folder)]
    return packages, package_dir


packages, package_dir = _packages()
packages.append("kgen.openapi")
package_dir["kgen.openapi"] = "openapi"
setup(
    packages=packages,
    package_dir=package_dir,
    package_data={
        "kgen.templates": ["*.jinja"],
        "kgen.kubernetes": ["py.typed"],
        "kgen.runtime": ["py.typed"],
        "kgen.openapi": ["kubernetes-*/**/*.json"],
    },
)
