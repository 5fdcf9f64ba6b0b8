"""Puts holodeck-lsp and its runtime dependencies into bundled/libs for one VS Code target.

    python scripts/bundle_server.py --target linux-x64 [--out bundled/libs] [--wheel-cache DIR]

The package is built from this repository (a wheel, without optional extras) and installed
with pip for each CPython version we support, as binary wheels of the target's platform
(`--platform`, `--python-version`, `--only-binary=:all:`): pydantic-core and PyYAML (whose C
parser the server relies on) ship one compiled wheel per CPython version, with no abi3 build
and no pure-Python fallback, so one folder per version holds what differs
(`libs/cp310/` ... `libs/cp314/`) and `libs/common/` holds every top-level entry that is the
same for all versions. `bundled/run_server.py` puts `libs/<its version>` and `libs/common`
first on sys.path. `libs/manifest.json` says what is inside, for the extension and the tests.

Needs pip and access to PyPI (install time only). Wheels are kept in --wheel-cache (default:
the extension's .cache/wheels) so a second build downloads nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

EXTENSION_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = EXTENSION_DIR.parent

# VS Code target -> pip --platform tags (pip widens each to the older compatible ones:
# manylinux2014 takes manylinux_2_17 and earlier, macosx_11_0 takes 10.x too).
PLATFORMS: dict[str, list[str]] = {
    "linux-x64": ["manylinux2014_x86_64"],
    "linux-arm64": ["manylinux2014_aarch64"],
    # musllinux is not widened: name both (PyYAML's CPython 3.14 wheels are musllinux_1_2 only).
    "alpine-x64": ["musllinux_1_2_x86_64", "musllinux_1_1_x86_64"],
    "alpine-arm64": ["musllinux_1_2_aarch64", "musllinux_1_1_aarch64"],
    "darwin-x64": ["macosx_11_0_x86_64"],
    "darwin-arm64": ["macosx_11_0_arm64"],
    "win32-x64": ["win_amd64"],
}
PYTHON_VERSIONS = ["3.10", "3.11", "3.12", "3.13", "3.14"]


def tag_of(version: str) -> str:
    """'3.10' -> 'cp310', the folder name run_server.py looks for."""
    major, minor = version.split(".")
    return f"cp{major}{minor}"


def run(command: list[str]) -> None:
    print("+ " + " ".join(command), file=sys.stderr, flush=True)
    subprocess.run(command, check=True)


def build_wheel(work: Path) -> Path:
    """The holodeck-lsp wheel of this checkout (pure Python, so one serves every target)."""
    out = work / "wheel"
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out),
         str(REPO_DIR)])  # fmt: skip
    (wheel,) = out.glob("holodeck_lsp-*.whl")
    return wheel


def download(wheel: Path, target: str, version: str, cache: Path) -> None:
    """Every wheel the package needs on `target` under `version`, into `cache`."""
    platforms = [arg for tag in PLATFORMS[target] for arg in ("--platform", tag)]
    run([sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(cache),
         "--find-links", str(cache), *platforms, "--python-version", version,
         "--implementation", "cp", "--only-binary=:all:", str(wheel)])  # fmt: skip
    # The cache keeps dependencies only: our own wheel is rebuilt from the checkout each time.
    for stale in cache.glob("holodeck_lsp-*.whl"):
        stale.unlink()


def install(wheel: Path, target: str, version: str, cache: Path, into: Path) -> None:
    """Installs from the cache only, so what is bundled is exactly what was downloaded."""
    platforms = [arg for tag in PLATFORMS[target] for arg in ("--platform", tag)]
    run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--find-links",
         str(cache), "--target", str(into), *platforms, "--python-version", version,
         "--implementation", "cp", "--only-binary=:all:", "--no-compile",
         "--no-warn-conflicts", str(wheel)])  # fmt: skip
    # Console scripts point at the build machine's interpreter: useless in the extension.
    shutil.rmtree(into / "bin", ignore_errors=True)
    for cache_dir in into.rglob("__pycache__"):
        shutil.rmtree(cache_dir, ignore_errors=True)


def tree_digest(path: Path) -> str:
    """A digest of a file or folder: relative names and contents."""
    digest = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for file in files:
        digest.update(str(file.relative_to(path.parent)).encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def split_common(installed: dict[str, Path], out: Path) -> list[str]:
    """Moves each top-level entry that is identical for every version into out/common and
    the rest into out/<tag>; returns the names that stay per version."""
    names = set().union(*({p.name for p in root.iterdir()} for root in installed.values()))
    per_version: list[str] = []
    (out / "common").mkdir(parents=True)
    for tag in installed:
        (out / tag).mkdir()
    for name in sorted(names):
        digests = {tree_digest(root / name) if (root / name).exists() else None
                   for root in installed.values()}  # fmt: skip
        if len(digests) == 1 and None not in digests:
            shutil.move(str(next(iter(installed.values())) / name), out / "common" / name)
        else:
            per_version.append(name)
            for tag, site in installed.items():
                if (site / name).exists():
                    shutil.move(str(site / name), out / tag / name)
    return per_version


def distributions(libs: Path) -> dict[str, list[str]]:
    """name -> versions of every distribution bundled (from the dist-info folder names); two
    versions when the resolution differs between Python versions."""
    found: dict[str, set[str]] = {}
    for info in libs.glob("*/*.dist-info"):
        name, _, version = info.name[: -len(".dist-info")].partition("-")
        found.setdefault(name.lower().replace("_", "-"), set()).add(version)
    return {name: sorted(versions) for name, versions in sorted(found.items())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", required=True, choices=sorted(PLATFORMS))
    parser.add_argument("--out", type=Path, default=EXTENSION_DIR / "bundled" / "libs")
    parser.add_argument("--pythons", default=",".join(PYTHON_VERSIONS))
    parser.add_argument("--wheel-cache", type=Path, default=EXTENSION_DIR / ".cache" / "wheels")
    options = parser.parse_args()
    versions = options.pythons.split(",")
    cache: Path = options.wheel_cache.resolve() / options.target
    cache.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory(prefix="holodeck-bundle-") as tmp:
        work = Path(tmp)
        wheel = build_wheel(work)
        installed: dict[str, Path] = {}
        for version in versions:
            download(wheel, options.target, version, cache)
            into = work / "site" / tag_of(version)
            install(wheel, options.target, version, cache, into)
            installed[tag_of(version)] = into
        staged = work / "libs"
        per_version = split_common(installed, staged)
        manifest = {
            "target": options.target,
            "pythons": versions,
            "tags": [tag_of(version) for version in versions],
            "perVersion": per_version,
            "distributions": distributions(staged),
        }
        (staged / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        shutil.rmtree(options.out, ignore_errors=True)
        options.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), options.out)
    size = sum(f.stat().st_size for f in options.out.rglob("*") if f.is_file())
    print(f"bundled {options.target} for {', '.join(versions)} into {options.out} "
          f"({size / 1e6:.1f} MB; per version: {', '.join(per_version)})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
