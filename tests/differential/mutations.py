"""Deterministic, structure-aware mutants of HoloDeck YAML files, for the differential tests.

A *seed* is a file HoloDeck 0.7.1 accepts (an agent or a test-case payload) together with the
files its load reads (project ``config.yaml``, ``test_cases_file`` payload, grader modules).
A *mutant* is a copy of that set where one YAML file got 1-3 mutations of the kinds users get
wrong: a dropped or misspelled key, an unknown key, a value of another type (YAML 1.1
booleans spelled ``yes``/``off``, numeric strings, ``${VAR}``, invisible characters...), a
number out of range, an enum value with a typo, conflicting test-case keys, bad matchers and
regexes, lists that are empty or too long, edge values of every key HoloDeck's schema knows,
project-config sections and names, grader references, anchors and merge keys, and text-level
damage (tabs, duplicated or re-indented lines, broken quoting, odd characters).

| module | mutations |
|---|---|
| ``structural_mutations.py`` | keys and values users get wrong, test-case shapes |
| ``schema_mutations.py`` | edge values of each property of HoloDeck's JSON schema |
| ``reference_mutations.py`` | project config, names, graders, ``test_cases_file``, aliases |
| ``text_mutations.py`` | text-level damage |

Everything is a pure function of ``(seed number, mutant index)``: the same call writes the same
files, so a disagreement found once can be reproduced and pinned.

    python -m tests.differential.mutations --seed 1 --count 20 --out /tmp/mutants
"""

from __future__ import annotations

import argparse
import copy
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.differential.mutation_seeds import Seed, all_seeds, copy_seed
from tests.differential.mutation_tree import (
    Doc,
    YPath,
    dump,
    get,
    load,
    pick,
    put,
    walk,
    weighted,
)
from tests.differential.structural_mutations import STRUCTURAL
from tests.differential.text_mutations import TEXTUAL


@dataclass(frozen=True)
class Mutant:
    """One mutated copy of a seed: where it is, what was done to it."""

    ident: str
    seed: str
    file: Path  # the file to judge (absolute)
    mutated: str  # which of the copied files was mutated (relative)
    mutations: tuple[str, ...]  # "kind: description"
    kinds: tuple[str, ...]
    env_twin: Path | None = None  # the same mutant with new `${VAR}` values put back

    def describe(self) -> str:
        return "; ".join(self.mutations)


def _has_env(value: Any) -> bool:
    return isinstance(value, str) and "${" in value


_MISSING = object()


def _at(doc: Doc, path: YPath) -> Any:
    try:
        return get(doc, path)
    except (KeyError, IndexError, TypeError):
        return _MISSING


def new_env_values(original: Doc, before: Doc, after: Doc) -> list[tuple[YPath, Any, str]] | None:
    """Each ``${VAR}`` value one mutation step put in: (path, what the seed had, reference).

    What the seed had is ``_MISSING`` for a key the mutations added. None when a reference
    landed in a list entry the seed does not have (nothing sensible to put back).
    """
    found = []
    for path, value in walk(after):
        if _has_env(value) and _at(before, path) != value:
            seed_value = _at(original, path)
            if seed_value is _MISSING and not isinstance(_at(after, path[:-1]), dict):
                return None
            kept = seed_value if seed_value is _MISSING else copy.deepcopy(seed_value)
            found.append((path, kept, value))
    return found


def env_twin(mutated: Doc, put_in: list[tuple[YPath, Any, str]]) -> Doc | None:
    """``mutated`` with the ``${VAR}`` values the mutations put in replaced by the seed's own.

    ``check`` never calls a ``${VAR}`` value wrong (any text may be substituted, even YAML
    structure), while HoloDeck judges the dummy value the oracle substitutes. The twin tells
    the two apart: a mutant HoloDeck refuses is a false negative of ours only when its twin
    (the seed's value there, or no such key) is refused too. None when a later mutation
    moved a reference away (a renamed key, say).
    """
    twin = copy.deepcopy(mutated)
    restored: list[YPath] = []
    for path, seed_value, reference in reversed(put_in):
        if path in restored:
            continue  # a later step put another reference in the same place
        restored.append(path)
        if _at(twin, path) != reference:
            return None
        if seed_value is _MISSING:
            del get(twin, path[:-1])[path[-1]]
        else:
            twin = put(twin, path, copy.deepcopy(seed_value))
    return twin


@dataclass(frozen=True)
class MutatedText:
    text: str
    steps: list[tuple[str, str]]  # (kind, description)
    twin: str | None  # the text with new `${VAR}` values put back, when there are any


def mutate_text(text: str, rng: random.Random) -> MutatedText:
    """Apply 1-3 mutations (mostly structural, some textual) to one YAML text."""
    wanted = rng.choice([1, 1, 1, 2, 3])
    done: list[tuple[str, str]] = []
    try:
        original = load(text)
    except yaml.YAMLError:
        original = None
    twin: str | None = None
    if original is not None and rng.random() < 0.85:
        doc = copy.deepcopy(original)
        put_in: list[tuple[YPath, Any, str]] | None = []
        for _ in range(wanted * 6):
            if len(done) >= wanted:
                break
            name, fn = weighted(rng, STRUCTURAL)
            before = copy.deepcopy(doc)
            result = fn(doc, rng)
            if result is not None:
                doc, what = result
                done.append((name, what))
                step = new_env_values(original, before, doc)
                put_in = None if step is None or put_in is None else put_in + step
        if done:
            text = dump(doc)
            if put_in != []:
                restored = None if put_in is None else env_twin(doc, put_in)
                twin = dump(restored) if restored is not None else None
    # Some textual damage on top of a structural change, or alone (on the original text,
    # comments and quoting included).
    if not done or (twin is None and rng.random() < 0.15):
        for _ in range(10):
            name, fn = weighted(rng, TEXTUAL)
            result = fn(text, rng)
            if result is not None:
                text, what = result
                done.append((name, what))
                break
    return MutatedText(text, done, twin)


def make_mutant(seed: Seed, rng: random.Random, ident: str, out: Path) -> Mutant:
    folder = out / ident
    copy_seed(seed, folder)
    yaml_files = [f for f in seed.files if f.endswith((".yaml", ".yml"))]
    # Mostly the checked file itself; sometimes a file its load reads (config, payload).
    others = [f for f in yaml_files if f != seed.target]
    mutated = seed.target if not others or rng.random() < 0.8 else pick(rng, others)
    path = folder / mutated
    result = mutate_text(path.read_text(encoding="utf-8"), rng)
    path.write_text(result.text, encoding="utf-8", newline="")
    twin: Path | None = None
    if result.twin is not None:
        twin_folder = out / f"{ident}-env-twin"
        copy_seed(seed, twin_folder)
        (twin_folder / mutated).write_text(result.twin, encoding="utf-8", newline="")
        twin = (twin_folder / seed.target).resolve()
    return Mutant(
        ident=ident,
        seed=seed.name,
        file=(folder / seed.target).resolve(),
        mutated=mutated,
        mutations=tuple(f"{name}: {what}" for name, what in result.steps),
        kinds=tuple(name for name, _ in result.steps),
        env_twin=twin,
    )


def generate(
    seed_number: int, count: int, out: Path, seeds: list[Seed] | None = None
) -> list[Mutant]:
    """``count`` mutants into ``out`` (one folder each); the same arguments give the same files."""
    seeds = all_seeds() if seeds is None else seeds
    order = list(range(len(seeds)))
    random.Random(f"order:{seed_number}").shuffle(order)
    mutants = []
    for i in range(count):
        rng = random.Random(f"mutant:{seed_number}:{i}")
        seed = seeds[order[i % len(order)]]
        mutants.append(make_mutant(seed, rng, f"s{seed_number}-m{i:05d}", out))
    return mutants


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write deterministic mutants of HoloDeck YAML")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    for mutant in generate(args.seed, args.count, args.out):
        print(f"{mutant.file}\t{mutant.describe()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
