-- editors/neovim/lsp/holodeck_lsp.lua's root check, run in Neovim 0.7 (Debian 12's):
-- the config is written for Neovim 0.11 and calls vim.fs, which 0.7 predates, so the four
-- functions it uses stand in here with their documented behaviour (vim.fs.dirname,
-- basename and find of 0.8, vim.fs.root of 0.10), upward search only. Parameters from
-- the environment: HL_CONFIG (the config file), HL_FILES (JSON list), HL_OUT.
local result = { parsed = {} }

local function finish()
  vim.fn.writefile({ vim.fn.json_encode(result) }, os.getenv('HL_OUT'))
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  for _, path in ipairs(vim.fn.json_decode(os.getenv('HL_PARSE'))) do
    local chunk, problem = loadfile(path) -- LuaJIT's parser: syntax only, nothing runs
    result.parsed[path] = chunk ~= nil or problem
  end
  if vim.fs == nil then
    local uv = vim.loop
    local fs = {}
    function fs.dirname(p) return vim.fn.fnamemodify(p, ':h') end
    function fs.basename(p) return vim.fn.fnamemodify(p, ':t') end
    local function upward(dir)
      local list = {}
      while true do
        table.insert(list, dir)
        local up = fs.dirname(dir)
        if up == dir then return list end
        dir = up
      end
    end
    function fs.find(names, opts)
      assert(opts.upward, 'only the upward search stands in')
      local found = {}
      for _, dir in ipairs(upward(opts.path)) do
        local entries, handle = {}, uv.fs_scandir(dir)
        while handle do
          local name, kind = uv.fs_scandir_next(handle)
          if not name then break end
          table.insert(entries, { name, kind })
        end
        table.sort(entries, function(a, b) return a[1] < b[1] end)
        for _, entry in ipairs(entries) do
          local name, kind = entry[1], entry[2]
          local match = type(names) == 'function' and names(name, dir)
            or (type(names) == 'table' and vim.tbl_contains(names, name)) or names == name
          if match and (opts.type == nil or opts.type == kind) then
            table.insert(found, dir .. '/' .. name)
            if #found >= (opts.limit or 1) then return found end
          end
        end
      end
      return found
    end
    function fs.root(source, marker)
      local path = type(source) == 'number' and vim.api.nvim_buf_get_name(source) or source
      local markers = type(marker) == 'table' and marker or { marker }
      for _, dir in ipairs(upward(fs.dirname(path))) do
        for _, m in ipairs(markers) do
          if uv.fs_stat(dir .. '/' .. m) then return dir end
        end
      end
      return nil
    end
    vim.fs = fs
  end
  local config = dofile(os.getenv('HL_CONFIG'))
  result.cmd, result.filetypes, result.root_markers = config.cmd, config.filetypes, config.root_markers
  result.roots = {}
  for _, file in ipairs(vim.fn.json_decode(os.getenv('HL_FILES'))) do
    vim.cmd('edit ' .. vim.fn.fnameescape(file))
    local root = vim.NIL
    config.root_dir(vim.api.nvim_get_current_buf(), function(dir) root = dir end)
    result.roots[file] = root
  end
end)
if not ok then result.error = tostring(err) end
finish()
