"""The package's version, written here only: the build reads it (pyproject.toml, ``[tool.hatch.version]``)."""

__version__ = "0.1.0"
