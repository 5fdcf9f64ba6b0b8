"""Where mutants start: files HoloDeck 0.7.1 accepts, with the files their load reads."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.differential.differential_inputs import REPO, corpus_dir
from tests.differential.mutation_tree import dump, load

# Payloads larger than this are left out as seeds and cut down as companions: HoloDeck parses
# them with the pure-Python YAML parser, and their size adds time, not coverage.
_MAX_SEED_BYTES = 200_000
_MAX_COMPANION_CASES = 12


@dataclass(frozen=True)
class Seed:
    """A file HoloDeck accepts, with the files its load reads (all relative to ``source``)."""

    name: str  # stable label, e.g. "corpus:holodeck-samples/ticket-routing/openai/agent.yaml"
    source: Path
    target: str  # the file that is checked
    files: tuple[str, ...]  # everything copied (target included)


def _corpus_seeds(corpus: Path) -> list[Seed]:
    index = json.loads((corpus / "index.json").read_text(encoding="utf-8"))
    seeds = []
    for entry in index:
        path = corpus / entry["file"]
        if path.stat().st_size > _MAX_SEED_BYTES:
            continue
        files = (path.name, *entry["companions"])
        seeds.append(Seed(f"corpus:{entry['file']}", path.parent, path.name, files))
        for companion in entry["companions"]:
            if companion in ("config.yaml", "config.yml"):  # judged alone, as a config
                label = f"corpus:{Path(entry['file']).parent / companion}"
                seeds.append(Seed(label, path.parent, companion, (companion,)))
    return seeds


def _fixture_seeds(valid: Path) -> list[Seed]:
    seeds = []
    for entry in sorted(valid.iterdir()):
        if entry.is_file() and entry.suffix in (".yaml", ".yml"):
            seeds.append(Seed(f"fixture:{entry.name}", valid, entry.name, (entry.name,)))
        elif entry.is_dir():
            files = tuple(
                sorted(
                    str(p.relative_to(entry))
                    for p in entry.rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts
                )
            )
            for target in files:
                if target.endswith((".yaml", ".yml")):
                    seeds.append(Seed(f"fixture:{entry.name}/{target}", entry, target, files))
    return seeds


def all_seeds() -> list[Seed]:
    """Every seed, in a stable order: the real corpus, then ``tests/fixtures/valid``."""
    return _corpus_seeds(corpus_dir()) + _fixture_seeds(REPO / "tests" / "fixtures" / "valid")


def _shrink_payload(text: str) -> str:
    """A large companion payload cut to its first few test cases (still one HoloDeck accepts)."""
    data = load(text)
    if isinstance(data, list) and len(data) > _MAX_COMPANION_CASES:
        return dump(data[:_MAX_COMPANION_CASES])
    cases = data.get("test_cases") if isinstance(data, dict) else None
    if isinstance(cases, list) and len(cases) > _MAX_COMPANION_CASES:
        data["test_cases"] = cases[:_MAX_COMPANION_CASES]
        return dump(data)
    return text


def copy_seed(seed: Seed, into: Path) -> None:
    for rel in seed.files:
        source = seed.source / rel
        dest = into / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        big = source.stat().st_size > 20_000
        if rel != seed.target and rel.endswith((".yaml", ".yml")) and big:
            dest.write_text(_shrink_payload(source.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            shutil.copyfile(source, dest)
        dest.chmod(0o644)
