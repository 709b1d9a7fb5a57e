"""The launcher: ``python -m minigrad.distributed.run -n N script.py`` builds the mpirun line."""

import subprocess
import sys

from mpi_jobs import ROOT, assert_ok, run_job

from minigrad.distributed.run import main, mpirun_command


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
    line = capsys.readouterr().out.strip()
    assert line.startswith("mpirun -n 3") and line.endswith("train.py --lr 0.1")


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
