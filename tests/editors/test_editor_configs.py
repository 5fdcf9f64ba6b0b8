"""Each editor config in editors/ is valid where a schema or a documented key list exists:
JSON against LSP4IJ's schema (vendored) and our own settings schema, the Mason package
against mason-registry's rules, Helix's and Zed's TOML against their documented keys, the
Neovim config against nvim-lspconfig's CI checks. (Lua, Elisp and Rust are parsed by their
own tools in the slow tests: test_editor_tools.py, test_emacs.py.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import tomllib
import yaml

from holodeck_lsp import __version__
from holodeck_lsp.server.settings import parse_settings
from holodeck_lsp.validation.file_kinds import DEFAULT_PATTERNS
from tests.conftest import REPO, VENDORED

EDITORS = REPO / "editors"
LSP4IJ = EDITORS / "jetbrains" / "holodeck-lsp"


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# --- JetBrains: LSP4IJ's user-defined server template -------------------------------------

# The keys LSP4IJ's template reader takes (templates/ServerTemplate.java, the template docs).
TEMPLATE_KEYS = {"id", "name", "url", "programArgs", "workingDir", "expandConfiguration",
                 "fileTypeMappings", "languageMappings", "dev", "env"}  # fmt: skip
INSTALLER_KEYS = {"id", "name", "executeOnStartServer", "properties", "check", "run"}
TASKS = {"exec", "download", "configureServer"}


def test_the_lsp4ij_template_has_its_files_and_keys() -> None:
    names = {p.name for p in LSP4IJ.iterdir()}
    assert {"template.json", "installer.json", "settings.json", "settings.schema.json",
            "initializationOptions.json", "clientSettings.json"} <= names  # fmt: skip
    template = _json(LSP4IJ / "template.json")
    assert set(template) <= TEMPLATE_KEYS
    assert template["id"] == "holodeck-lsp"
    assert set(template["programArgs"]) <= {"default", "windows", "mac", "unix"}
    assert all("holodeck-lsp" in a and "serve" in a for a in template["programArgs"].values())
    for mapping in template["fileTypeMappings"]:
        assert set(mapping) == {"fileType", "languageId"}
        assert mapping["languageId"] == "yaml"
    installer = _json(LSP4IJ / "installer.json")
    assert set(installer) <= INSTALLER_KEYS
    for stage in ("check", "run"):
        ((task, body),) = installer[stage].items()
        assert task in TASKS and set(body["command"]) <= {"default", "windows"}
    assert "holodeck-lsp" in installer["run"]["exec"]["command"]["default"]


def test_client_settings_match_lsp4ij_schema() -> None:
    schema = _json(VENDORED / "lsp4ij" / "clientSettings.schema.json")
    jsonschema.validate(_json(LSP4IJ / "clientSettings.json"), schema)


def _expanded(flat: dict[str, Any]) -> dict[str, Any]:
    """LSP4IJ's `expandConfiguration`: dotted keys become nested objects."""
    out: dict[str, Any] = {}
    for key, value in flat.items():
        *parents, last = key.split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def test_the_settings_are_valid_and_are_the_servers_own() -> None:
    schema = _json(LSP4IJ / "settings.schema.json")
    jsonschema.Draft7Validator.check_schema(schema)
    settings = _json(LSP4IJ / "settings.json")
    jsonschema.validate(settings, schema)
    # Every documented setting, given its default (or a sample), is one the server takes.
    samples = {"holodeck.run.replay": "replay.jsonl", "holodeck.run.baseline": "main.json",
               "holodeck.severity": {"HL307": "information"}}  # fmt: skip
    every = {k: samples.get(k, v.get("default")) for k, v in schema["properties"].items()}
    jsonschema.validate(every, schema)
    parsed, problems = parse_settings(_expanded(every)["holodeck"])
    assert problems == []
    assert parsed.include == tuple(every["holodeck.files.include"])


# --- Mason: mason-registry's package.yaml ------------------------------------------------

# mason-org/registry-schema's rules (its files carry no licence, so they are not vendored):
# the top-level keys and the required ones, the categories, a PyPI purl with a version,
# a `pypi:` bin expression, and the lspconfig name.
MASON_KEYS = {"name", "description", "homepage", "licenses", "languages", "categories",
              "deprecation", "source", "schemas", "bin", "share", "opt", "neovim",
              "ci_skip"}  # fmt: skip
MASON_REQUIRED = {"name", "description", "homepage", "licenses", "languages", "categories",
                  "source"}  # fmt: skip
MASON_CATEGORIES = {"Compiler", "DAP", "Formatter", "Linter", "LSP", "Runtime"}


def test_the_mason_package_follows_the_registry_schema_and_installs_this_version() -> None:
    package = yaml.safe_load((EDITORS / "mason" / "holodeck-lsp" / "package.yaml").read_text())
    assert MASON_REQUIRED <= set(package) <= MASON_KEYS
    assert package["name"] == "holodeck-lsp"
    assert re.match(r"^https?://", package["homepage"])
    assert package["licenses"] == ["MIT"]
    assert set(package["categories"]) <= MASON_CATEGORIES
    assert package["source"] == {"id": f"pkg:pypi/holodeck-lsp@{__version__}"}
    assert package["bin"] == {"holodeck-lsp": "pypi:holodeck-lsp"}
    assert package["neovim"] == {"lspconfig": "holodeck_lsp"}


# --- Neovim: nvim-lspconfig's lsp/ config -----------------------------------------------


def test_the_lspconfig_entry_passes_nvim_lspconfig_lint_rules() -> None:
    """The checks of nvim-lspconfig's .github/ci/lint.sh that apply to one config."""
    path = EDITORS / "neovim" / "lsp" / "holodeck_lsp.lua"
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "---@brief"
    assert "---@type vim.lsp.Config" in text
    for banned in ("nvim_create_user_command", "workspace/executeCommand", "fn.cwd",
                   "path.dirname", "is_descendant", "search_ancestors", "validate_bufnr",
                   "single_file_support", "require('lspconfig", 'require "lspconfig'):  # fmt: skip
        assert banned not in text, banned
    assert "cmd = { 'holodeck-lsp', 'serve' }" in text
    assert "root_markers = root_markers" in text and "root_dir = function(bufnr, on_dir)" in text


# --- Helix: languages.toml -----------------------------------------------------------------

# Helix's book (languages.md): the keys of a [[language]] and of a [language-server.NAME],
# and the features `only-features` / `except-features` name.
HELIX_LANGUAGE_KEYS = {
    "name", "language-id", "scope", "injection-regex", "file-types", "shebangs", "roots",
    "auto-format", "diagnostic-severity", "comment-tokens", "comment-token",
    "block-comment-tokens", "indent", "language-servers", "grammar", "formatter",
    "soft-wrap", "text-width", "rulers", "path-completion", "word-completion",
    "workspace-lsp-roots", "persistent-diagnostic-sources", "rainbow-brackets",
    "code-actions-on-save",
}  # fmt: skip
HELIX_SERVER_KEYS = {"command", "args", "config", "timeout", "environment",
                     "required-root-patterns"}  # fmt: skip
HELIX_FEATURES = {
    "format", "goto-declaration", "goto-definition", "goto-type-definition",
    "goto-reference", "goto-implementation", "signature-help", "hover",
    "document-highlight", "completion", "code-action", "document-links",
    "workspace-command", "document-symbols", "workspace-symbols", "diagnostics",
    "rename-symbol", "inlay-hints", "document-colors",
}  # fmt: skip


def test_helix_languages_parse_and_use_documented_keys_only() -> None:
    config = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text(encoding="utf-8"))
    assert set(config) == {"language-server", "language"}
    servers = config["language-server"]
    assert servers["holodeck-lsp"]["command"] == "holodeck-lsp"
    assert servers["holodeck-lsp"]["args"] == ["serve"]
    for name, server in servers.items():
        keys = set(server) - {"config"} if name == "yaml-language-server" else set(server)
        assert keys <= HELIX_SERVER_KEYS, name
    assert parse_settings(servers["holodeck-lsp"]["config"])[1] == []
    by_name = {lang["name"]: lang for lang in config["language"]}
    assert set(by_name) == {"yaml", "holodeck"}
    for lang in config["language"]:
        assert set(lang) <= HELIX_LANGUAGE_KEYS, lang["name"]
        for entry in lang["language-servers"]:
            name = entry if isinstance(entry, str) else entry["name"]
            assert name in servers
            if isinstance(entry, dict):
                assert set(entry) <= {"name", "only-features", "except-features"}
                assert set(entry.get("except-features", [])) <= HELIX_FEATURES
    holodeck = by_name["holodeck"]
    globs = {entry["glob"] for entry in holodeck["file-types"]}
    assert globs == set(DEFAULT_PATTERNS)
    assert holodeck["grammar"] == "yaml" and holodeck["language-id"] == "yaml"
    assert {"name": "yaml-language-server", "except-features": ["diagnostics"]} in holodeck[
        "language-servers"
    ]


# --- Zed: the extension's manifest ----------------------------------------------------------


def test_the_zed_extension_manifest_and_crate_are_well_formed() -> None:
    zed = EDITORS / "zed"
    manifest = tomllib.loads((zed / "extension.toml").read_text(encoding="utf-8"))
    assert {"id", "name", "version", "schema_version", "authors", "description",
            "repository"} <= set(manifest)  # fmt: skip
    assert manifest["schema_version"] == 1
    assert manifest["version"] == __version__
    assert manifest["language_servers"] == {
        "holodeck-lsp": {"name": "holodeck-lsp", "languages": ["YAML"]}
    }
    crate = tomllib.loads((zed / "Cargo.toml").read_text(encoding="utf-8"))
    assert crate["lib"]["crate-type"] == ["cdylib"]
    assert "zed_extension_api" in crate["dependencies"]
    assert crate["package"]["version"] == __version__
    source = (zed / "src" / "lib.rs").read_text(encoding="utf-8")
    assert "zed::register_extension!(HoloDeckExtension);" in source
    assert '"serve"' in source
    assert "Source only" in (zed / "README.md").read_text(encoding="utf-8")
