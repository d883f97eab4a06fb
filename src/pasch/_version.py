"""The version of pasch: one place, read by the package, the engine's logs, the web server and the build."""

__version__ = "0.1.0"
