-- Drive the server from Neovim's built-in client (0.7 API: start_client + buf_attach_client)
-- and write what the editor ends up with to a JSON file. Parameters come from the
-- environment: HL_CMD (JSON list), HL_ROOT, HL_FILE, HL_OUT.
local cmd = vim.fn.json_decode(os.getenv("HL_CMD"))
local out = os.getenv("HL_OUT")
local result = {}

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd("qa!")
end

local function diagnostics()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(found, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, source = d.source,
    })
  end
  table.sort(found, function(a, b) return a.lnum < b.lnum end)
  return found
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("HL_FILE")))
  local client_id = vim.lsp.start_client({
    name = "holodeck-lsp", cmd = cmd, root_dir = os.getenv("HL_ROOT"),
  })
  vim.lsp.buf_attach_client(0, client_id)
  -- Editors wait on events; vim.wait runs Neovim's loop until the condition holds.
  vim.wait(60000, function() return #vim.diagnostic.get(0) == 2 end, 10)
  result.opened = diagnostics()

  local uri = vim.uri_from_bufnr(0)
  local hover = vim.lsp.buf_request_sync(0, "textDocument/hover",
    { textDocument = { uri = uri }, position = { line = 2, character = 4 } }, 30000)
  result.hover = hover and hover[client_id] and hover[client_id].result or vim.NIL

  local completion = vim.lsp.buf_request_sync(0, "textDocument/completion",
    { textDocument = { uri = uri }, position = { line = 2, character = 12 } }, 30000)
  local labels = {}
  local answer = completion and completion[client_id] and completion[client_id].result or {}
  for _, item in ipairs(answer.items or answer) do table.insert(labels, item.label) end
  result.completion = labels

  local symbols = vim.lsp.buf_request_sync(0, "textDocument/documentSymbol",
    { textDocument = { uri = uri } }, 30000)
  local names = {}
  for _, s in ipairs(symbols and symbols[client_id] and symbols[client_id].result or {}) do
    table.insert(names, s.name)
  end
  result.symbols = names

  -- Fix the provider as a user would, and wait for the one diagnostic left.
  vim.api.nvim_buf_set_lines(0, 2, 3, false, { "  provider: openai" })
  vim.wait(60000, function() return #vim.diagnostic.get(0) == 1 end, 10)
  result.edited = diagnostics()

  vim.lsp.stop_client(client_id)
  vim.wait(10000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 10)
  result.stopped = vim.lsp.get_client_by_id(client_id) == nil
end)
if not ok then result.error = tostring(err) end
finish()
