-- yaml-language-server (HoloDeck's schema, by the file's modeline) and holodeck-lsp on the
-- same buffers in Neovim 0.7, with or without editors/neovim/yamlls_alongside.lua; writes
-- each server's raw publications and what the editor shows. Parameters from the
-- environment: HL_CMD, HL_YAMLLS (JSON lists), HL_ROOT, HL_FILE (an agent), HL_OTHER (YAML
-- that is not HoloDeck's), HL_RECIPE (the recipe's path, or empty), HL_OUT.
local result = {}
local PUBLISH = 'textDocument/publishDiagnostics'
local recipe = os.getenv('HL_RECIPE') ~= '' and dofile(os.getenv('HL_RECIPE')) or nil
local raw = { yamlls = {}, holodeck = {} } -- per client, per buffer: the last list published

local function counting(name)
  local inner = recipe and recipe[name][PUBLISH] or vim.lsp.handlers[PUBLISH]
  return {
    [PUBLISH] = function(err, params, ctx, config)
      raw[name][vim.uri_to_bufnr(params.uri)] = #params.diagnostics
      return inner(err, params, ctx, config)
    end,
  }
end

local function shown(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, { line = d.lnum, source = d.source or vim.NIL, message = d.message })
  end
  table.sort(found, function(a, b)
    return a.line < b.line or (a.line == b.line and tostring(a.source) < tostring(b.source))
  end)
  return found
end

local ok, err = pcall(function()
  local root = os.getenv('HL_ROOT')
  local yamlls = vim.lsp.start_client({
    name = 'yamlls',
    cmd = vim.fn.json_decode(os.getenv('HL_YAMLLS')),
    root_dir = root,
    settings = { yaml = { validate = true, schemaStore = { enable = false } } },
    handlers = counting('yamlls'),
  })
  local holodeck = vim.lsp.start_client({
    name = 'holodeck-lsp',
    cmd = vim.fn.json_decode(os.getenv('HL_CMD')),
    root_dir = root,
    handlers = counting('holodeck'),
  })
  local buffers = {}
  for _, key in ipairs({ 'HL_OTHER', 'HL_FILE' }) do
    vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv(key)))
    local bufnr = vim.api.nvim_get_current_buf()
    vim.lsp.buf_attach_client(bufnr, yamlls)
    vim.lsp.buf_attach_client(bufnr, holodeck)
    buffers[key] = bufnr
  end
  local agent, other = buffers.HL_FILE, buffers.HL_OTHER
  -- Both servers have judged both files: yaml-language-server's schema has loaded (it
  -- flags the agent), holodeck-lsp has published for the agent (after the other file:
  -- it takes them in order).
  vim.wait(60000, function()
    return (raw.yamlls[agent] or 0) > 0 and (raw.yamlls[other] or 0) > 0
      and raw.holodeck[agent] ~= nil
  end, 10)
  result.raw = {
    yamlls = raw.yamlls[agent] or vim.NIL,
    holodeck = raw.holodeck[agent] or vim.NIL,
    yamlls_other = raw.yamlls[other] or vim.NIL,
    holodeck_other = raw.holodeck[other] or vim.NIL,
  }
  result.agent = shown(agent)
  result.other = shown(other)
  vim.lsp.stop_client({ yamlls, holodeck })
end)
if not ok then result.error = tostring(err) end
vim.fn.writefile({ vim.fn.json_encode(result) }, os.getenv('HL_OUT'))
vim.cmd('qa!')
