"""Build step that puts what bench ships beside its code into the wheel: ``conf/`` (the configs),
``datasets/`` (the papers' data files, with MANIFEST.csv) and ``reports/evidence/`` (the records
behind the committed reports, which ``bench compare --against`` reads) are copied to
``bench/_shipped/`` (see bench/paths.py). An editable install reads them from the checkout."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = {"conf": "conf", "datasets": "datasets", "reports/evidence": "reports/evidence"}


class build_py_shipped(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for src, dst in SHIPPED.items():
            here = ROOT / src
            if not here.is_dir():
                raise SystemExit(f"cannot build bench: {src}/ is missing from the source tree")
            target = Path(self.build_lib) / "bench" / "_shipped" / dst
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(here, target, ignore=shutil.ignore_patterns("__pycache__", ".*"))


setup(cmdclass={"build_py": build_py_shipped})
