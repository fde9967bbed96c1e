"""Build the optional compiled core ``dlx._core`` (everything else is in pyproject.toml).

Its sources are the folder ``dlx/_core/`` (a map of the files is at the top of
``dlx/_core/core.h``); MANIFEST.in puts them, headers too, in the sdist.

``optional=True``: when there is no C compiler (or the build fails for any other
reason), setuptools prints a warning and the package installs without the core;
``dlx`` then runs on its pure-Python engine.
"""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    """Add the flags the core needs on gcc/clang: -O2, and no FMA contraction (the
    branch-and-bound arithmetic must round exactly as Python's floats do)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, "-O2", "-ffp-contract=off"]
        super().build_extensions()


# One file per concern (see dlx/_core/core.h); paths relative to this file.
CORE_SOURCES = [f"dlx/_core/{name}.c" for name in (
    "module", "table", "loop", "search_object", "batch", "minimize", "scan", "reader", "memo",
    "estimate", "bits")]
CORE_HEADERS = ["dlx/_core/core.h", "dlx/_core/dance.h", "dlx/_core/choose.h", "dlx/_core/memo.h",
                "dlx/_core/bits.h", "dlx/_core/tree.h"]

setup(
    ext_modules=[Extension("dlx._core", CORE_SOURCES, depends=CORE_HEADERS, optional=True)],
    cmdclass={"build_ext": BuildExt},
)
