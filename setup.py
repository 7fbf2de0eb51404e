"""Build the compiled core beside the plain one (the rest of the build is in pyproject.toml).

setuptools compiles ``mineshafted/core/_compiled.c``, ``_endgame.c`` and ``_csp.c`` with the
machine's C compiler into ``mineshafted.core._compiled``. The extension is optional: where no
compiler or no Python headers are found, the build goes on without it (setuptools logs the
compiler's error, and :class:`OptionalBuild` one line saying what that means), and
mineshafted runs its plain Python core: the same answers, slower. ``mineshafted --version``
says which core runs.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

COMPILED = Extension(
    "mineshafted.core._compiled",
    sources=[
        "mineshafted/core/_compiled.c",
        "mineshafted/core/_endgame.c",
        "mineshafted/core/_csp.c",
    ],
    depends=["mineshafted/core/_endgame.h", "mineshafted/core/_csp.h"],
    optional=True,
    extra_compile_args=["-O2"],
)


class OptionalBuild(build_ext):
    """``build_ext``, saying in one line when the optional compiled core was not built."""

    def run(self) -> None:
        super().run()
        for extension in self.extensions:
            if not Path(self.get_ext_fullpath(extension.name)).exists():
                self.warn(
                    f"mineshafted: the compiled core ({extension.name}) was not built; "
                    "the plain Python core will run (the same answers, slower)"
                )


setup(
    # The package, and the shipped puzzles (a folder at the top of the repository) inside it.
    packages=[*find_packages(include=["mineshafted", "mineshafted.*"]), "mineshafted.puzzles"],
    package_dir={"mineshafted.puzzles": "puzzles"},
    ext_modules=[COMPILED],
    cmdclass={"build_ext": OptionalBuild},
)
