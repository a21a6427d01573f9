"""Build hook: the optional compiled observation and mask builders of ``alea.envs``.

Everything else is declared in ``pyproject.toml``. The extension is optional:
where no C compiler is available the build skips it with a warning and
``alea.envs`` uses its pure-Python builders, which give identical results
(more slowly; see ``bench/envs.py``). It creates its arrays with numpy's C API,
so it is compiled against numpy's headers (a build requirement).
"""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = cythonize(
    [
        Extension(
            "alea.envs._fast",
            ["src/alea/envs/_fast.pyx"],
            include_dirs=[numpy.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            optional=True,
        )
    ],
    compiler_directives={"language_level": "3"},
)
for extension in extensions:
    extension.optional = True  # cythonize may rebuild the Extension objects

setup(ext_modules=extensions)
