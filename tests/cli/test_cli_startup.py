"""The command line starts light: --help imports no numeric library, a command only its own
module; the first run of a command answers through numpy twins and says so on stderr."""

import json
import os
import subprocess
import sys
from pathlib import Path

from copa_dash.cli import ALIASES, COMMANDS, build_parser, main

REPO = Path(__file__).resolve().parents[2]


def _subparsers(parser):
    return next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")


def test_command_table_matches_what_the_modules_register():
    full = _subparsers(build_parser())
    listed = {a.dest: a.help for a in full._choices_actions}
    assert listed == {name: help_text for name, (_, help_text) in COMMANDS.items()}
    assert [c for c in full.choices if c not in ALIASES] == list(COMMANDS)
    assert all(full.choices[alias] is full.choices[name] for alias, name in ALIASES.items())


def test_one_command_registers_its_module_and_lists_the_others():
    sub = _subparsers(build_parser("select"))
    assert [c for c in sub.choices if c not in ALIASES] == list(COMMANDS)
    assert sub.choices["pick"] is sub.choices["select"]
    assert any(a.dest == "focus" for a in sub.choices["select"]._actions)
    assert not any(a.dest == "baseline" for a in sub.choices["significance"]._actions)


def _modules_after(code: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted("
                          "m for m in ('numpy', 'pandas', 'numba', 'scipy.stats', 'dash') "
                          "if m in sys.modules)))"],
                         capture_output=True, text=True, env=env, check=True, timeout=120)
    return out.stdout.split()


def test_help_imports_no_numeric_library_and_select_no_scipy_stats():
    assert _modules_after("from copa_dash.cli import build_parser\nbuild_parser('')") == []
    loaded = _modules_after("from copa_dash.cli import build_parser\nbuild_parser('select')")
    assert "scipy.stats" not in loaded and "dash" not in loaded


def test_the_served_app_imports_no_scipy_stats_until_a_statistic_needs_it():
    """``copa-dash serve`` and every gunicorn worker import the whole app and open first views;
    scipy.stats (about 1.5 s of CPU with scipy.spatial and scipy.special) waits for Rankings'
    first Friedman test or critical difference (core/benchmark_stats._scipy_stats)."""
    app = _modules_after("from copa_dash.app_factory import create_app\n"
                         "from copa_dash.services.catalog import open_dataset\n"
                         "from copa_dash.services.first_view import default_view\n"
                         "default_view(open_dataset('open-llm-leaderboard-v2').table)")
    assert "dash" in app and "scipy.stats" not in app        # nor a first view of Explore
    used = _modules_after("from copa_dash.app_factory import create_app\n"
                          "from copa_dash.core.benchmark_stats import nemenyi_critical_difference\n"
                          "assert round(nemenyi_critical_difference(6, 50), 4) == 1.0663")
    assert "scipy.stats" in used


def test_unknown_command_is_a_usage_error(capsys):
    try:
        main(["selekt"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "invalid choice: 'selekt'" in capsys.readouterr().err


def _run_from_shell(tmp_path, code: str):
    """Run ``code`` after ``import sys; from copa_dash.cli import main`` in a fresh process
    with an empty numba cache, as the ``copa-dash`` script runs; the compile lock is reported
    taken, so no detached compile is spawned. Returns (the finished process, the cache dir)."""
    cache = tmp_path / "numba"
    env = {**os.environ, "PYTHONPATH": str(REPO), "NUMBA_CACHE_DIR": str(cache),
           "TMPDIR": str(tmp_path)}
    env.pop("COPA_JIT_MODE", None)
    code = ("import sys\nfrom copa_dash.cli import main\nfrom copa_dash.services import kernel_handover\n"
            "kernel_handover._take_lock = lambda: False\n" + code)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out, cache


def test_first_run_answers_through_twins_and_says_so(tmp_path, capsys):
    """A fresh numba cache: the answer equals the in-process (compiled) one, stderr says
    what compiles in the background. The lock is reported taken, so the test spawns no
    detached compile."""
    assert main(["select", "--dataset", "open-llm-leaderboard-v2", "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    out, cache = _run_from_shell(tmp_path, "sys.argv = ['copa-dash', 'select', '--dataset', "
                                 "'open-llm-leaderboard-v2', '--json']\nsys.exit(main())")
    assert json.loads(out.stdout) == expected
    assert ("copa-dash: first run: answered with numpy while cdf_columns, copa_scores, "
            "copa_select are not compiled" in out.stderr)
    assert not any(cache.rglob("*.nbi"))                       # nothing compiled in-process


def test_first_indicators_and_significance_compile_nothing(tmp_path, capsys):
    """Every kernel these commands (and the Systems page) reach has a numpy twin: on a fresh
    numba cache nothing compiles in the process and the answers equal the compiled ones."""
    commands = [["indicators", "--dataset", "fairness-adult-sex", "--json"],
                ["significance", "--dataset", "fairness-adult-sex", "--baseline", "SVM,LR",
                 "--candidate", "Feldman-SVM,Feldman-LR", "--permutations", "300", "--json"]]
    expected = []
    for argv in commands:
        assert main(argv) == 0
        expected.append(json.loads(capsys.readouterr().out))
    # both commands in one process (one import of the package), each as the shell runs it
    out, cache = _run_from_shell(tmp_path, f"for argv in {commands!r}:\n"
                                           "    sys.argv = ['copa-dash', *argv]\n"
                                           "    assert main() == 0\n"
                                           "    print('\\x1e', flush=True)\n")
    answers = [json.loads(part) for part in out.stdout.split("\x1e")[:2]]
    assert answers == expected
    assert "copa-dash: compiling" not in out.stderr, out.stderr
    assert out.stderr.count("first run: answered with numpy") == 2
    assert not any(cache.rglob("*.nbi"))


def test_pick_is_another_name_for_select_with_the_same_answer(capsys):
    """The pages call what `select` gives "the COPA pick": `copa-dash pick` answers as select."""
    from copa_dash.cli import main

    assert main(["select", "--dataset", "copa-synthetic", "--json"]) == 0
    selected = capsys.readouterr().out
    assert main(["pick", "--dataset", "copa-synthetic", "--json"]) == 0
    assert capsys.readouterr().out == selected
    assert main(["pick", "--dataset", "no-such-dataset"]) == 2
    assert "copa-dash pick: unknown bundled dataset" in capsys.readouterr().err
