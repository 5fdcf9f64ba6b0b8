"""The release tag scheme: `vX.Y.Z`, equal to the package's and the extension's version, and
the tag-triggered workflow that refuses any other tag before it builds anything."""

from __future__ import annotations

import json
import subprocess
import sys

import yaml

import holodeck_lsp
from tests.conftest import REPO

RELEASE_TAG = REPO / ".ci" / "release-tag"
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"


def _release_tag(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RELEASE_TAG), *args], capture_output=True, text=True, timeout=60
    )


def test_the_package_and_the_extension_carry_one_version() -> None:
    manifest = json.loads((REPO / "vscode-extension" / "package.json").read_text("utf-8"))
    lock = json.loads((REPO / "vscode-extension" / "package-lock.json").read_text("utf-8"))
    versions = {
        holodeck_lsp.__version__,
        manifest["version"],
        lock["version"],
        lock["packages"][""]["version"],
    }
    assert versions == {holodeck_lsp.__version__}
    done = _release_tag()
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"v{holodeck_lsp.__version__}\n",
        "",
    )


def test_a_tag_that_is_not_the_version_is_refused() -> None:
    version = holodeck_lsp.__version__
    assert _release_tag(f"v{version}").returncode == 0
    for tag in (version, f"v{version}.1", f"v{version}-rc1", "v99.0.0"):
        done = _release_tag(tag)
        assert (done.returncode, done.stdout) == (1, ""), tag
        assert done.stderr == (
            f"tag {tag!r} does not match the version {version} "
            f"(holodeck_lsp.__version__, the extension's package.json): expected 'v{version}'\n"
        )


def test_the_release_workflow_runs_on_tags_and_checks_the_tag_first() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    # PyYAML reads the key `on` as True (YAML 1.1); GitHub reads it as "on".
    assert workflow[True] == {"push": {"tags": ["v*"]}}
    jobs = workflow["jobs"]
    assert [s.get("run") for s in jobs["tag"]["steps"]][-1] == (
        'python .ci/release-tag "$GITHUB_REF_NAME"'
    )

    def needs(job: str) -> set[str]:
        direct = jobs[job].get("needs", [])
        direct = [direct] if isinstance(direct, str) else direct
        return set(direct).union(*(needs(d) for d in direct)) if direct else set()

    assert {job for job in jobs if job != "tag" and "tag" not in needs(job)} == set()
    # What is published is what the smoke test ran: PyPI by trusted publishing, the
    # marketplaces with the tokens the workflow names.
    assert jobs["pypi"]["permissions"] == {"id-token": "write"}
    assert jobs["pypi"]["steps"][-1] == {"uses": "pypa/gh-action-pypi-publish@release/v1"}
    secrets = {
        name: value
        for step in jobs["marketplaces"]["steps"]
        for name, value in step.get("env", {}).items()
    }
    assert secrets == {"VSCE_PAT": "${{ secrets.VSCE_PAT }}", "OVSX_PAT": "${{ secrets.OVSX_PAT }}"}


def test_the_package_and_the_extension_carry_one_licence() -> None:
    """pyproject's and package.json's MIT, in one LICENSE text: the wheel and the .vsix."""
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 holodeck-lsp contributors\n")
    assert (REPO / "vscode-extension" / "LICENSE").read_text(encoding="utf-8") == text
    assert 'license = { text = "MIT" }' in (REPO / "pyproject.toml").read_text(encoding="utf-8")
