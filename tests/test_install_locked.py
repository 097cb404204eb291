"""tools/install_locked.py: pip's settings given to uv, and pip whenever uv cannot be faithful."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "install_locked.py"
_spec = importlib.util.spec_from_file_location("install_locked", TOOL)
install_locked = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(install_locked)

# what `pip config list` printed on the 2-core machine (session 21)
MACHINE = """:env:.cert='/etc/ssl/certs/ca-certificates.crt'
:env:.default-timeout='180'
:env:.disable-pip-version-check='1'
:env:.find-links='/opt/wheels'
global.cert='/etc/ssl/certs/ca-certificates.crt'
global.constraint='/etc/xdg/pip/constraints.txt'
global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'
global.find-links='/opt/wheels'
"""


def test_the_machine_settings_become_pypi_first_then_the_mirrors_in_pip_order():
    options, env = install_locked.uv_arguments(install_locked.parse_config_list(MACHINE))
    indexes = [options[i + 1] for i, o in enumerate(options) if o == "--index"]
    assert indexes == ["https://pypi.org/simple", "file:///opt/pypi/simple",
                       "file:///opt/pypi-more/simple"]
    assert options[options.index("--default-index") + 1] == "https://pypi.org/simple"
    assert options[options.index("--index-strategy") + 1] == "unsafe-best-match"
    assert options[options.index("--find-links") + 1] == "/opt/wheels"
    assert options[options.index("--constraint") + 1] == "/etc/xdg/pip/constraints.txt"
    assert "--no-config" in options
    assert env == {"SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt",
                   "UV_HTTP_TIMEOUT": "180"}


def test_a_setting_takes_its_strongest_section_whole_as_pip_does():
    settings = install_locked.parse_config_list(
        "global.find-links='/a /b'\n:env:.find-links='/c'\ninstall.index-url='https://m/simple'\n"
        "global.index-url='https://other/simple'\nfreeze.pre='1'\nnot a setting\n")
    assert settings == {"find-links": ["/c"], "index-url": ["https://m/simple"]}


def test_a_private_index_replaces_pypi_and_no_index_keeps_only_find_links():
    options, _ = install_locked.uv_arguments({"index-url": ["https://m/simple"]})
    assert "https://pypi.org/simple" not in options
    assert options[options.index("--default-index") + 1] == "https://m/simple"
    options, _ = install_locked.uv_arguments({"no-index": ["1"], "find-links": ["/w"],
                                              "extra-index-url": ["https://x/simple"]})
    assert "--no-index" in options and "--index" not in options
    assert options[options.index("--find-links") + 1] == "/w"


@pytest.mark.parametrize("key", ["pre", "only-binary", "no-binary", "require-hashes",
                                 "use-feature", "no-build-isolation"])
def test_a_setting_without_a_uv_twin_here_leaves_the_install_to_pip(key):
    with pytest.raises(install_locked.Unsupported, match=key):
        install_locked.uv_arguments({key: [":all:"]})


def test_uv_settings_of_the_environment_are_dropped_but_its_cache(monkeypatch):
    monkeypatch.setenv("UV_INDEX_URL", "https://elsewhere/simple")
    monkeypatch.setenv("UV_CACHE_DIR", "/tmp/uv-cache")
    env = install_locked.uv_environment({"SSL_CERT_FILE": "/c.pem"})
    assert "UV_INDEX_URL" not in env
    assert env["UV_CACHE_DIR"] == "/tmp/uv-cache" and env["SSL_CERT_FILE"] == "/c.pem"


def test_outside_a_virtual_environment_uv_is_not_tried(monkeypatch):
    monkeypatch.setattr(sys, "prefix", sys.base_prefix)
    monkeypatch.setattr(install_locked, "find_uv", lambda *a: pytest.fail("uv looked for"))
    reason = install_locked.install_with_uv(sys.executable, [], ["-e", "."])
    assert reason == "this Python is not a virtual environment"


def test_a_pip_setting_without_a_twin_is_the_reason_given(monkeypatch):
    monkeypatch.setattr(sys, "prefix", "/some/venv")
    monkeypatch.setattr(install_locked, "pip_settings", lambda python: {"pre": ["1"]})
    monkeypatch.setattr(install_locked, "find_uv", lambda *a: pytest.fail("uv looked for"))
    reason = install_locked.install_with_uv(sys.executable, [], ["-e", "."])
    assert reason == "pip setting 'pre' has no uv twin here"


def test_when_uv_cannot_install_pip_does_and_says_why(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(install_locked, "install_with_uv", lambda *a: "uv failed (exit 2)")
    monkeypatch.setattr(install_locked, "install_with_pip",
                        lambda python, constraints, reqs, progress: calls.append((constraints, reqs)) or 0)
    assert install_locked.main(["-c", "constraints.txt", "-e", ".[test]"]) == 0
    assert calls == [(["constraints.txt"], ["-e", ".[test]"])]
    assert "uv failed (exit 2); installing with pip instead" in capsys.readouterr().err


def test_installer_pip_never_tries_uv(monkeypatch):
    monkeypatch.setattr(install_locked, "install_with_uv", lambda *a: pytest.fail("uv tried"))
    monkeypatch.setattr(install_locked, "install_with_pip", lambda *a, **kw: 7)
    assert install_locked.main(["--installer", "pip", "-e", "."]) == 7


def test_nothing_to_install_is_a_usage_message_not_a_traceback():
    run = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True,
                         check=False, timeout=60)
    assert run.returncode == 2
    assert "nothing to install" in run.stderr and "Traceback" not in run.stderr


def test_the_lock_names_the_uv_version_to_use(tmp_path):
    lock = tmp_path / "constraints.txt"
    lock.write_text("urllib3==2.5.0\nuv==0.13.9\n    # via copa-dash\n", encoding="utf-8")
    assert install_locked.locked_version([str(tmp_path / "missing.txt"), str(lock)],
                                         "uv") == "0.13.9"
    assert install_locked.locked_version([str(lock)], "pip") is None


def _fake_uv(folder: Path, version: str) -> None:
    binary = folder / "uv"
    binary.write_text(f"#!/bin/sh\necho 'uv {version} (fake)'\n", encoding="utf-8")
    binary.chmod(0o755)


def test_a_uv_on_path_is_used_only_at_the_locked_version(tmp_path, monkeypatch):
    _fake_uv(tmp_path, "0.5.0")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert install_locked.uv_on_path("0.13.9") is None
    assert install_locked.uv_on_path("0.5.0") == str(tmp_path / "uv")
    assert install_locked.uv_on_path(None) is None


@pytest.mark.parametrize("progress, shown, hidden", [(True, "--progress-bar", "-q"),
                                                     (False, "-q", "--progress-bar")])
def test_pip_is_quiet_unless_progress_is_asked_for(monkeypatch, progress, shown, hidden):
    commands = []

    class Done:
        returncode = 3  # stop before the .pyc compile

    monkeypatch.setattr(install_locked.subprocess, "run",
                        lambda command, **kw: commands.append(command) or Done())
    assert install_locked.install_with_pip(sys.executable, ["c.txt"], ["-e", "."],
                                           progress=progress) == 3
    assert shown in commands[0] and hidden not in commands[0]


def test_progress_reaches_pip_when_pip_installs(monkeypatch):
    calls = []
    monkeypatch.setattr(install_locked, "install_with_pip",
                        lambda *a, progress: calls.append(progress) or 0)
    assert install_locked.main(["--installer", "pip", "--progress", "-e", "."]) == 0
    assert calls == [True]
