-- yaml-language-server and holodeck-lsp on the same buffer, each problem shown once.
--
-- HoloDeck's guide maps its published schema to agent files in yaml-language-server
-- (`yaml.schemas`, or a `# yaml-language-server: $schema=...` line); holodeck-lsp then
-- reports the same problems (with its own fixes). holodeck-lsp publishes diagnostics for
-- exactly the files it validates (an empty list for a clean one) and never for other
-- YAML, so a buffer it has published for is a HoloDeck file: there, yaml-language-server's
-- diagnostics are dropped; elsewhere they stay. Works with Neovim 0.7 and later.
--
--   local alongside = dofile('/path/to/yamlls_alongside.lua')
--   vim.lsp.config('yamlls', { handlers = alongside.yamlls })       -- Neovim 0.11+
--   vim.lsp.config('holodeck_lsp', { handlers = alongside.holodeck })
--
-- (With vim.lsp.start_client or lspconfig's setup{}: pass the same `handlers` tables.)
local M = {}
local PUBLISH = 'textDocument/publishDiagnostics'
local holodeck_buffers = {} -- buffers holodeck-lsp has published diagnostics for

local function default(err, result, ctx, config)
  return vim.lsp.handlers[PUBLISH](err, result, ctx, config)
end

local function yamlls_clients(bufnr)
  local found = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == 'yamlls' and vim.lsp.buf_is_attached(bufnr, client.id) then
      table.insert(found, client)
    end
  end
  return found
end

M.holodeck = {
  [PUBLISH] = function(err, result, ctx, config)
    local bufnr = vim.uri_to_bufnr(result.uri)
    if not holodeck_buffers[bufnr] then
      holodeck_buffers[bufnr] = true
      for _, client in ipairs(yamlls_clients(bufnr)) do -- what it showed already goes
        vim.diagnostic.reset(vim.lsp.diagnostic.get_namespace(client.id), bufnr)
      end
    end
    return default(err, result, ctx, config)
  end,
}

M.yamlls = {
  [PUBLISH] = function(err, result, ctx, config)
    if result and holodeck_buffers[vim.uri_to_bufnr(result.uri)] then
      result = vim.tbl_extend('force', result, { diagnostics = {} })
    end
    return default(err, result, ctx, config)
  end,
}

return M
