"""Build the compiled core (ext/*.pyx) into the analysis package, with OpenMP when the
compiler has it and a serial build when it does not."""

import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup


def compiler_has_openmp() -> bool:
    """True if the C compiler builds and links a program with -fopenmp."""
    if os.environ.get("ANALYSIS_NO_OPENMP"):
        return False
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "omp.c")
        with open(src, "w") as f:
            f.write("#include <omp.h>\nint main(void){return omp_get_max_threads() < 1;}\n")
        try:
            result = subprocess.run([cc, "-fopenmp", src, "-o", os.path.join(tmp, "omp")], capture_output=True)
        except OSError:
            return False
        return result.returncode == 0


openmp = compiler_has_openmp()
flags = ["-O3"] + (["-fopenmp"] if openmp else [])
print(f"analysis: building the compiled core {'with' if openmp else 'without'} OpenMP", file=sys.stderr)


# the plain C the kernels include (ext/include/*.h): a change to one rebuilds the extensions
headers = sorted(glob.glob("ext/include/*.h"))


def extension(name: str, source: str) -> Extension:
    return Extension(
        f"analysis.{name}",
        [source],
        include_dirs=[np.get_include(), "ext", "ext/include"],
        depends=headers,
        extra_compile_args=flags,
        extra_link_args=flags,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )


setup(
    ext_modules=cythonize(
        [
            extension("_evaluator", "ext/evaluator.pyx"),
            extension("_enumerator", "ext/enumerator.pyx"),
            extension("_omaha", "ext/omaha.pyx"),
            extension("_engine", "ext/engine.pyx"),
            extension("_exposure", "ext/exposure.pyx"),
            extension("_informed", "ext/informed.pyx"),
            extension("_distribution", "ext/distribution.pyx"),
            extension("_streets", "ext/streets.pyx"),
            extension("_no_board", "ext/no_board.pyx"),
            extension("_seen_card", "ext/seen_card.pyx"),
        ],
        include_path=["ext"],
        compiler_directives={"language_level": 3},
    ),
)
