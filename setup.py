"""The optional C accelerator of the text-log engine (tools/parsers/_kernel.c). Everything else is in pyproject.toml;
a machine without a C compiler installs without the extension and tools/parsers/kernel.py reads in Python."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "training_check.tools.parsers._kernel",
            sources=["tools/parsers/_kernel.c"],
            depends=["tools/parsers/_kernel_pow5.h", "tools/parsers/_kernel_doc.c", "tools/parsers/_kernel_json.c",
                     "tools/parsers/_kernel_wandb.c"],
            extra_compile_args=["-O2", "-Wall", "-Wextra"],
            optional=True,
        )
    ],
)
