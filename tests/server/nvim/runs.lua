-- Run a turn from its code lens in Neovim 0.7's built-in client and write what the
-- editor ends up with to a JSON file. Parameters from the environment: HL_CMD (JSON
-- list), HL_ROOT, HL_FILE, HL_OUT, HL_REPLAY (the recording, from initializationOptions).
local cmd = vim.fn.json_decode(os.getenv("HL_CMD"))
local out = os.getenv("HL_OUT")
local result = {}

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd("qa!")
end

local function run_diagnostics()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.source == "holodeck-lsp run" then
      table.insert(found, {
        lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
        severity = d.severity, message = d.message,
      })
    end
  end
  table.sort(found, function(a, b) return a.lnum < b.lnum end)
  return found
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("HL_FILE")))
  local client_id = vim.lsp.start_client({
    name = "holodeck-lsp", cmd = cmd, root_dir = os.getenv("HL_ROOT"),
    init_options = { workspaceTrusted = true, run = { replay = os.getenv("HL_REPLAY") } },
  })
  vim.lsp.buf_attach_client(0, client_id)
  local uri = vim.uri_from_bufnr(0)

  -- The lenses come once the server has read the file as an agent.
  local lenses = {}
  vim.wait(60000, function()
    local answer = vim.lsp.buf_request_sync(0, "textDocument/codeLens",
      { textDocument = { uri = uri } }, 10000)
    lenses = answer and answer[client_id] and answer[client_id].result or {}
    return #lenses > 0
  end, 50)
  result.lenses = {}
  for _, lens in ipairs(lenses) do
    table.insert(result.lenses, {
      line = lens.range.start.line, title = lens.command.title,
      command = lens.command.command, arguments = { unpack(lens.command.arguments, 2) },
    })
  end

  -- "Run turn" above test_cases[0].turns[1], as a user would click it.
  local chosen
  for _, lens in ipairs(lenses) do
    local args = lens.command.arguments
    if lens.command.command == "holodeck.runTurn" and args[2] == 0 and args[3] == 1 then
      chosen = lens.command
    end
  end
  local executed = vim.lsp.buf_request_sync(0, "workspace/executeCommand",
    { command = chosen.command, arguments = chosen.arguments }, 120000)
  result.executed = executed and executed[client_id] and executed[client_id].result or vim.NIL
  vim.wait(60000, function() return #run_diagnostics() > 0 end, 10)
  result.diagnostics = run_diagnostics()

  local hover = vim.lsp.buf_request_sync(0, "textDocument/hover",
    { textDocument = { uri = uri }, position = { line = result.diagnostics[1].lnum, character = 10 } },
    30000)
  local contents = hover and hover[client_id] and hover[client_id].result
  result.hover = contents and contents.contents.value or vim.NIL

  -- Editing the wrong ground truth clears its run diagnostic; the others stay.
  local before = #result.diagnostics
  for line, text in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    if text:find('ground_truth: "190000"', 1, true) then
      vim.api.nvim_buf_set_lines(0, line - 1, line, false, { (text:gsub("190000", "181001")) })
    end
  end
  vim.wait(60000, function() return #run_diagnostics() < before end, 10)
  result.edited = run_diagnostics()

  vim.lsp.stop_client(client_id)
  result.stopped = vim.wait(10000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 10)
end)
if not ok then result.error = tostring(err) end
finish()
