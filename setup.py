"""Build hook: the wheel carries a copy of the repository's ``datasets/``, ``assets/`` and
``docs/`` (with ``mkdocs.yml``, which orders the pages the app serves at ``/docs``).

The project's metadata lives in ``pyproject.toml``; this file only adds the copy. The copy
goes to ``copa_dash/_shipped/`` in the build folder (never into the source tree), where
:func:`copa_dash.data.package_files.shipped_folder` finds it with ``importlib.resources``.
An editable install copies nothing: it reads the repository's folders in place.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("datasets", "assets", "docs")
SHIPPED_FILES = ("mkdocs.yml",)


class BuildWithShippedFolders(build_py):
    """``build_py`` that also copies the shipped folders into the package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in SHIPPED:
            target = Path(self.build_lib) / "copa_dash" / "_shipped" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(ROOT / name, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
        for name in SHIPPED_FILES:
            shutil.copy2(ROOT / name, Path(self.build_lib) / "copa_dash" / "_shipped" / name)


setup(cmdclass={"build_py": BuildWithShippedFolders})
