"""The type stubs (python/tesseract/_tesseract.pyi) match the extension module, by mypy's stubtest."""

import subprocess
import sys

import pytest


def test_stubs_match_the_runtime_module(tmp_path):
    pytest.importorskip("mypy")
    # Dask's distributed, which tesseract.distributed imports inside its functions, and dask under it are
    # not followed: mypy would analyse all of them for none of tesseract's stubs (51 s here against 3.6 s,
    # and a stub that names no runtime object still fails).
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n[mypy-distributed.*,dask.*]\nfollow_imports = skip\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "tesseract", "--mypy-config-file", str(config)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_is_typed():
    import importlib.resources

    assert importlib.resources.files("tesseract").joinpath("py.typed").is_file()
    assert importlib.resources.files("tesseract").joinpath("_tesseract.pyi").is_file()
