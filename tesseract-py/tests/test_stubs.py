"""The type stubs (python/tesseract/_tesseract.pyi) match the extension module, by mypy's stubtest."""

import subprocess
import sys

import pytest


def test_stubs_match_the_runtime_module():
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "tesseract"], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_is_typed():
    import importlib.resources

    assert importlib.resources.files("tesseract").joinpath("py.typed").is_file()
    assert importlib.resources.files("tesseract").joinpath("_tesseract.pyi").is_file()
