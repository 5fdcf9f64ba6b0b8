---@brief
---
--- https://pypi.org/project/holodeck-lsp/
---
--- Language server for HoloDeck agent and test-suite YAML (`agent.yaml`, `*.agent.yaml`,
--- the `test_cases_file`s and `config.yaml` they read): diagnostics with HoloDeck 0.7's
--- verdicts, completion, hover, go to definition and quick fixes.
---
--- ```sh
--- pipx install holodeck-lsp
--- ```
---
--- Attaches to a YAML buffer only when an agent file (`agent.yaml`, `agent.yml`,
--- `*.agent.yaml`, `*.agent.yml`) is the buffer itself or lies in its folder or a folder
--- above it; the root is the repository holding that agent (else the agent's folder).
--- The server reports nothing on YAML that is not HoloDeck's, so widening `filetypes` or
--- the root check is safe.
---
--- Settings go in `init_options` (or `settings.holodeck`); for example, to run the
--- "Run case" lenses in a folder you trust:
---
--- ```lua
--- vim.lsp.config('holodeck_lsp', { init_options = { workspaceTrusted = true } })
--- ```

local root_markers = { '.git', 'agent.yaml', 'agent.yml' }

local function is_agent_file(name)
  return name:match('^agent%.ya?ml$') ~= nil or name:match('%.agent%.ya?ml$') ~= nil
end

---@type vim.lsp.Config
return {
  cmd = { 'holodeck-lsp', 'serve' },
  filetypes = { 'yaml' },
  root_markers = root_markers,
  -- `root_dir` keeps the server off YAML buffers that no agent file is near.
  root_dir = function(bufnr, on_dir)
    local fname = vim.api.nvim_buf_get_name(bufnr)
    if fname == '' then
      return
    end
    local agent = is_agent_file(vim.fs.basename(fname)) and fname
      or vim.fs.find(function(name)
        return is_agent_file(name)
      end, { path = vim.fs.dirname(fname), upward = true, type = 'file', limit = 1 })[1]
    if not agent then
      return
    end
    -- The markers in order: the repository holding the agent, else the agent's folder.
    for _, marker in ipairs(root_markers) do
      local root = vim.fs.root(agent, marker)
      if root then
        return on_dir(root)
      end
    end
  end,
  init_options = {},
}
