"""The launcher: ``python -m minigrad.distributed.run -n N script.py`` builds the mpirun line."""

import subprocess
import sys

import pytest
from mpi_jobs import ROOT, assert_ok, run_job

from minigrad.distributed.run import find_mpirun, main, mpirun_command


def test_root_gets_allow_run_as_root_and_more_ranks_than_cores_oversubscribe():
    cmd = mpirun_command(["train.py"], nprocs=4, cores=2, root=True, python="py")
    assert cmd == ["mpirun", "-n", "4", "--allow-run-as-root", "--oversubscribe", "py", "train.py"]
    assert mpirun_command(["t.py"], nprocs=2, cores=2, root=False, python="py") == [
        "mpirun",
        "-n",
        "2",
        "py",
        "t.py",
    ]


def test_a_host_file_runs_on_its_nodes_without_oversubscribing():
    cmd = mpirun_command(
        ["t.py", "-x"], nprocs=64, hostfile="hosts", cores=2, root=False, python="py"
    )
    assert cmd == ["mpirun", "-n", "64", "--hostfile", "hosts", "py", "t.py", "-x"]


def test_dry_run_prints_the_command(capsys):
    assert main(["-n", "3", "--dry-run", "train.py", "--lr", "0.1"]) == 0
    words = capsys.readouterr().out.split()
    assert words[0].endswith("mpirun") and words[1:3] == ["-n", "3"]
    assert words[-3:] == ["train.py", "--lr", "0.1"]


def test_bad_process_count_is_a_usage_error():
    out = subprocess.run(
        [sys.executable, "-m", "minigrad.distributed.run", "-n", "0", "t.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2 and "-n must be at least 1" in out.stderr


def test_four_ranks_on_two_cores_run(tmp_path):
    source = """
    import minigrad as mg, minigrad.distributed as dist
    dist.init_process_group()
    t = mg.ones(1) * dist.get_rank()
    dist.all_reduce(t)
    assert dist.get_world_size() == 4 and t.item() == 6.0
    print(f"rank {dist.get_rank()} ok", flush=True)
    """
    assert_ok(run_job(tmp_path, source, n=4), n=4)


# --- which mpirun: beside the interpreter (a venv's own Open MPI from PyPI), then PATH --------


def _fake_mpirun(folder, log):
    """An executable ``folder/mpirun`` that writes its arguments to ``log`` and exits 0."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mpirun"
    path.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {log}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def fake_env(monkeypatch, tmp_path):
    """``(venv_bin, path_dir)``: ``sys.executable``'s folder and PATH's only folder, both empty."""
    venv_bin, path_dir = tmp_path / "venv" / "bin", tmp_path / "usr-bin"
    venv_bin.mkdir(parents=True)
    path_dir.mkdir()
    monkeypatch.setattr(sys, "executable", str(venv_bin / "python"))
    monkeypatch.setenv("PATH", str(path_dir))
    return venv_bin, path_dir


def test_mpirun_beside_the_interpreter_is_found_without_being_on_path(fake_env, tmp_path):
    venv_bin, _ = fake_env
    assert find_mpirun() is None
    mine = _fake_mpirun(venv_bin, tmp_path / "log")
    assert find_mpirun() == str(mine)


def test_mpirun_beside_the_interpreter_comes_before_the_one_on_path(fake_env, tmp_path):
    venv_bin, path_dir = fake_env
    _fake_mpirun(path_dir, tmp_path / "log")
    assert find_mpirun() == str(path_dir / "mpirun")
    mine = _fake_mpirun(venv_bin, tmp_path / "log")
    assert find_mpirun() == str(mine)


def test_the_launcher_runs_the_mpirun_beside_the_interpreter(fake_env, tmp_path):
    venv_bin, _ = fake_env
    log = tmp_path / "log"
    mine = _fake_mpirun(venv_bin, log)
    assert main(["-n", "2", "job.py", "--steps", "3"]) == 0
    args = log.read_text().split()
    assert args[:2] == ["-n", "2"] and args[-4:] == [sys.executable, "job.py", "--steps", "3"]
    assert mpirun_command(["t.py"], 2, cores=2, root=False, launcher=str(mine))[0] == str(mine)


def test_dry_run_shows_a_path_only_when_typing_mpirun_would_run_another(fake_env, capsys, tmp_path):
    venv_bin, path_dir = fake_env
    mine = _fake_mpirun(venv_bin, tmp_path / "log")
    main(["-n", "2", "--dry-run", "job.py"])
    assert capsys.readouterr().out.split()[0] == str(mine)
    (path_dir / "mpirun").symlink_to(mine)  # PATH's mpirun is the same program
    main(["-n", "2", "--dry-run", "job.py"])
    assert capsys.readouterr().out.split()[0] == "mpirun"


def test_no_mpirun_anywhere_says_where_it_looked_and_how_to_install(fake_env, capsys):
    venv_bin, _ = fake_env
    assert main(["-n", "2", "job.py"]) == 127
    err = capsys.readouterr().err
    assert f"beside this Python ({venv_bin})" in err and "nor on PATH" in err
    assert "pip install 'minigrad-sparse[distributed-portable]'" in err
