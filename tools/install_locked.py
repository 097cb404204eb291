"""Install requirements through the lock with uv, configured as pip is; pip when uv cannot.

``make install-test`` runs ``python tools/install_locked.py -c constraints.txt -e ".[test]"``.
On a fresh venv pip spends ~100 s resolving and fetching the lock's ~180 wheels one after the
other and ~55 s installing them (load 5-8); ``uv pip install`` fetches in parallel and links
from its cache: ~80 CPU s of the whole step become ~50, the .pyc compilation being most of
what is left (docs/testing.md, session 21). The installed set must stay what pip installs, so uv is given pip's settings:

* pip's index and extra indexes (``pip config list``: its files and ``PIP_*`` variables) as
  uv indexes in that order, searched with ``--index-strategy unsafe-best-match`` (pip takes the
  best version from all of them). uv takes each version's files from the first index that has
  the version, pip from all of them: with a local mirror listed first, uv installed
  ``multiprocess``' py310 wheel where pip takes the py311 one. pip's main index (PyPI) is
  therefore searched first, which is where pip finds its best file whenever the mirrors copy
  PyPI;
* its find-links, constraint files (a machine-wide ``constraint`` too), ``trusted-host``,
  ``no-index``, certificate (``SSL_CERT_FILE`` for uv), client certificate, proxy and timeout;
* uv's own configuration files are ignored (``--no-config``) and ``UV_*`` variables other than
  the cache's are dropped.

A pip setting that changes what pip installs and has no exact uv twin here (``pre``,
``only-binary``, ``no-binary``, ``require-hashes``, ...) makes the script use pip, as do a
Python outside a virtual environment, a uv that cannot be installed, and a uv that fails: the
command stays green wherever pip is. uv comes from this environment (``import uv``: the test
extra installs the lock's uv), else from PATH if it is the lock's version, else from a pip
install of the lock's uv into a temporary folder (~6 s), so the venv holds nothing it was not
asked for. uv compiles the files it
installed to ``.pyc`` on every core (``--compile-bytecode``); the pip path compiles as
tools/compile_installed.py does.

Usage::

    python tools/install_locked.py [--installer auto|pip] [--progress] [-c FILE]... [-e PATH]
                                   [REQUIREMENT]...

``make install`` (and so ``make run``) runs it with ``--progress`` and without the test extra.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# pip settings with no say in what is installed
IGNORED = {"cache-dir", "no-cache-dir", "disable-pip-version-check", "no-input", "progress-bar",
           "quiet", "verbose", "retries", "root-user-action", "no-color", "require-virtualenv",
           "log", "exists-action", "python", "break-system-packages", "no-warn-script-location",
           "no-warn-conflicts", "no-python-version-warning", "keyring-provider", "compile",
           "no-compile"}
# pip settings uv_arguments gives uv
TRANSLATED = {"index-url", "extra-index-url", "find-links", "no-index", "constraint",
              "trusted-host", "cert", "client-cert", "proxy", "timeout", "default-timeout"}
# the sections pip reads for `pip install` (others belong to other commands)
SECTIONS = (":env:", "install", "global")  # strongest first
PYPI = "https://pypi.org/simple"


class Unsupported(Exception):
    """A pip setting that uv is not given here, so pip must install."""


def parse_config_list(listed: str) -> dict[str, list[str]]:
    """Settings from ``pip config list`` output (``section.key='value'`` lines), by key.

    As pip does, a key's value is the one of its strongest section (``PIP_*`` variables, then
    ``[install]``, then ``[global]``), not a union; whitespace separates the items of a value
    (``extra-index-url``, ``find-links``, ``constraint`` and ``trusted-host`` take several).
    """
    found: dict[tuple[str, str], list[str]] = {}
    for line in listed.splitlines():
        name, sep, value = line.partition("=")
        section, _, key = name.rpartition(".")
        if not sep or section not in SECTIONS:
            continue
        try:
            text = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            text = value.strip()
        found[section, key] = list(dict.fromkeys(shlex.split(str(text))))
    settings: dict[str, list[str]] = {}
    for section in SECTIONS:
        for (where, key), items in found.items():
            if where == section and key not in settings:
                settings[key] = items
    return settings


def pip_settings(python: str) -> dict[str, list[str]]:
    """The settings pip of ``python`` applies to ``pip install`` (its configuration files and
    ``PIP_*`` variables, as ``pip config list`` shows them)."""
    listed = subprocess.run([python, "-m", "pip", "config", "list"], text=True,
                            capture_output=True, check=False).stdout
    return parse_config_list(listed)


def _is_true(values: list[str]) -> bool:
    return any(v.lower() in ("1", "true", "yes", "on") for v in values)


def uv_index_options(settings: dict[str, list[str]]) -> list[str]:
    """uv options for where pip looks for packages with ``settings``: its index first, then its
    extra indexes, searched for the best version across all of them as pip does, and its
    find-links (``no-index`` for none). ``uv pip install`` here and ``uv pip compile`` in
    tools/lock.py both take them, so the lock names what the install can find."""
    options = ["--index-strategy", "unsafe-best-match"]
    if _is_true(settings.get("no-index", [])):
        options.append("--no-index")
    else:
        main = settings.get("index-url", [PYPI])[-1]
        for url in dict.fromkeys([main, *settings.get("extra-index-url", [])]):
            options += ["--index", url]
        options += ["--default-index", main]
    for location in settings.get("find-links", []):
        options += ["--find-links", location]
    return options


def uv_arguments(settings: dict[str, list[str]]) -> tuple[list[str], dict[str, str]]:
    """uv options and environment variables that make ``uv pip install`` read the same
    sources pip reads with ``settings``; raises :class:`Unsupported` for any other setting."""
    env: dict[str, str] = {}
    for key in settings:
        if key not in TRANSLATED and key not in IGNORED:
            raise Unsupported(f"pip setting '{key}'")
    options = ["--no-config", *uv_index_options(settings)]
    for path in settings.get("constraint", []):
        options += ["--constraint", path]
    for host in settings.get("trusted-host", []):
        options += ["--allow-insecure-host", host]
    for key, variable in (("cert", "SSL_CERT_FILE"), ("client-cert", "SSL_CLIENT_CERT")):
        if settings.get(key):
            env[variable] = settings[key][-1]
    if settings.get("proxy"):
        env["HTTP_PROXY"] = env["HTTPS_PROXY"] = settings["proxy"][-1]
    timeout = settings.get("timeout") or settings.get("default-timeout")
    if timeout:
        env["UV_HTTP_TIMEOUT"] = timeout[-1]
    return options, env


def uv_environment(extra: dict[str, str]) -> dict[str, str]:
    """This process's environment without ``UV_*`` settings (but the cache folder), plus
    ``extra``."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("UV_") or k in ("UV_CACHE_DIR", "UV_NO_CACHE")}
    env.update(extra)
    return env


def locked_version(constraints: list[str], name: str) -> str | None:
    """The version the constraint files pin ``name`` to (``name==X``), if one does."""
    for path in constraints:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError:
            continue
        found = re.search(rf"^{re.escape(name)}==([^\s;#]+)", text, re.MULTILINE)
        if found:
            return found.group(1)
    return None


def uv_on_path(version: str | None) -> str | None:
    """The ``uv`` on PATH if it is the given version (the lock's), else None."""
    binary = shutil.which("uv")
    if binary is None or version is None:
        return None
    shown = subprocess.run([binary, "--version"], text=True, capture_output=True,
                           check=False).stdout.split()
    return binary if shown[1:2] == [version] else None


def find_uv(python: str, constraints: list[str], scratch: Path) -> str | None:
    """This environment's uv, else the lock's version of uv from PATH, else the lock's uv
    installed by pip into ``scratch``; None if none of them is there."""
    found = subprocess.run([python, "-c", "import uv; print(uv.find_uv_bin())"], text=True,
                           capture_output=True, check=False)
    if found.returncode == 0 and found.stdout.strip():
        return found.stdout.strip()
    on_path = uv_on_path(locked_version(constraints, "uv"))
    if on_path:
        return on_path
    command = [python, "-m", "pip", "install", "-q", "--no-compile", "--target", str(scratch)]
    for path in constraints:
        command += ["-c", path]
    if subprocess.run([*command, "uv"], check=False).returncode != 0:
        return None
    binary = scratch / "bin" / "uv"
    return str(binary) if binary.exists() else None


def install_with_pip(python: str, constraints: list[str], requirements: list[str],
                     progress: bool = False) -> int:
    """pip without byte-compiling, then site-packages compiled on every core if pip installed
    anything but the checkout (tools/compile_installed.py). ``progress``: pip shows what it
    collects and its download bars (``make install``: a newcomer waits a minute or two)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import compile_installed

    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        shown = ["--progress-bar", "on"] if progress else ["-q"]
        command = [python, "-m", "pip", "install", *shown, "--no-compile", "--report", str(report)]
        for path in constraints:
            command += ["-c", path]
        status = subprocess.run([*command, *requirements], check=False).returncode
        if status != 0:
            return status
        return compile_installed.main([str(report)])


def install_with_uv(python: str, constraints: list[str], requirements: list[str]) -> str:
    """Install with uv configured as pip is; '' when done, else why pip must install."""
    if sys.prefix == sys.base_prefix:
        return "this Python is not a virtual environment"
    try:
        options, env = uv_arguments(pip_settings(python))
    except Unsupported as reason:
        return f"{reason} has no uv twin here"
    with tempfile.TemporaryDirectory() as tmp:
        uv = find_uv(python, constraints, Path(tmp))
        if uv is None:
            return "uv could not be installed"
        command = [uv, "pip", "install", "--python", python, "--compile-bytecode",
                   *options]
        for path in constraints:
            command += ["--constraint", path]
        start = time.perf_counter()
        status = subprocess.run([*command, *requirements], env=uv_environment(env),
                                check=False).returncode
    if status != 0:
        return f"uv failed (exit {status})"
    print(f"install_locked: uv installed and compiled in {time.perf_counter() - start:.1f} s")
    return ""


def main(argv: list[str] | None = None) -> int:
    """Install the requirements in ``argv`` with uv, or pip when uv cannot; pip's exit
    status, or 0 once uv succeeded."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--installer", choices=("auto", "pip"), default="auto",
                        help="pip: skip uv (what `make install-test INSTALLER=pip` runs)")
    parser.add_argument("--progress", action="store_true",
                        help="pip (where it installs) shows its progress instead of being quiet")
    parser.add_argument("-c", "--constraint", action="append", default=[], metavar="FILE")
    parser.add_argument("-e", "--editable", action="append", default=[], metavar="PATH")
    parser.add_argument("requirements", nargs="*")
    args = parser.parse_args(argv)
    requirements = [item for path in args.editable for item in ("-e", path)]
    requirements += args.requirements
    if not requirements:
        parser.error("nothing to install")
    python = sys.executable
    if args.installer == "auto":
        reason = install_with_uv(python, args.constraint, requirements)
        if not reason:
            return 0
        print(f"install_locked: {reason}; installing with pip instead", file=sys.stderr)
    return install_with_pip(python, args.constraint, requirements, progress=args.progress)


if __name__ == "__main__":
    sys.exit(main())
