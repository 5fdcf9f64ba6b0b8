//! Zed extension: starts `holodeck-lsp serve` (found on the worktree's PATH) for YAML
//! files. The server reports nothing on YAML that is not HoloDeck's, so it is given
//! every YAML buffer. Settings from Zed's `lsp.holodeck-lsp` block are passed through.

use zed_extension_api::{self as zed, settings::LspSettings, LanguageServerId, Result};

struct HoloDeckExtension;

const SERVER: &str = "holodeck-lsp";

impl zed::Extension for HoloDeckExtension {
    fn new() -> Self {
        HoloDeckExtension
    }

    fn language_server_command(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.binary);
        let configured = binary.as_ref().and_then(|b| b.path.clone());
        let command = match configured.or_else(|| worktree.which(SERVER)) {
            Some(path) => path,
            None => {
                return Err(format!(
                    "{SERVER} is not on PATH: install it with `pipx install {SERVER}` \
                     (or set lsp.{SERVER}.binary.path)"
                ))
            }
        };
        let args = binary
            .and_then(|b| b.arguments)
            .unwrap_or_else(|| vec!["serve".to_string()]);
        Ok(zed::Command {
            command,
            args,
            env: worktree.shell_env(),
        })
    }

    fn language_server_initialization_options(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        Ok(
            LspSettings::for_worktree(language_server_id.as_ref(), worktree)
                .ok()
                .and_then(|settings| settings.initialization_options),
        )
    }

    fn language_server_workspace_configuration(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<zed::serde_json::Value>> {
        // The server asks for the `holodeck` section: the settings under that key.
        let settings = LspSettings::for_worktree(language_server_id.as_ref(), worktree)
            .ok()
            .and_then(|settings| settings.settings);
        Ok(settings.map(|s| zed::serde_json::json!({ "holodeck": s })))
    }
}

zed::register_extension!(HoloDeckExtension);
