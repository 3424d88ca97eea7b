"""Provenance: the git commit a job records is the checkout's, whether it was found ahead (in a thread
while the job starts up) or when the first record needs it."""

import shutil
import subprocess

import pytest

from bench import provenance as P
from tests.conftest import ROOT


@pytest.fixture
def fresh(monkeypatch):
    git_commit, provenance = P.git_commit, P.provenance
    git_commit.cache_clear()
    provenance.cache_clear()
    monkeypatch.setattr(P, "_GIT_PREFETCH", None)
    yield
    git_commit.cache_clear()
    provenance.cache_clear()


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_the_commit_found_ahead_is_the_checkouts_and_provenance_waits_for_it(fresh, monkeypatch):
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    calls = []
    real_run = subprocess.run
    monkeypatch.setattr(P.subprocess, "run", lambda *a, **k: (a[0][0] == "git" and calls.append(a[0][1]))
                        or real_run(*a, **k))
    P.prefetch_git_commit()
    assert P._GIT_PREFETCH is not None
    P.prefetch_git_commit()  # a second call starts nothing more
    commit = P.provenance()["git_commit"]
    assert not P._GIT_PREFETCH.is_alive()
    assert commit in (head, head + "-dirty")
    assert commit == P.git_commit()
    assert calls == ["rev-parse", "status"], calls  # git asked once, by the thread


def test_without_prefetch_provenance_finds_the_commit_itself(fresh, monkeypatch):
    monkeypatch.setattr(P, "git_commit", lambda: "abc")
    assert P.provenance()["git_commit"] == "abc"
