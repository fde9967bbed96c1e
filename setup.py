"""Build the optional compiled core ``dlx._core`` (everything else is in pyproject.toml).

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


setup(
    ext_modules=[Extension("dlx._core", ["dlx/_core.c"], optional=True)],
    cmdclass={"build_ext": BuildExt},
)
