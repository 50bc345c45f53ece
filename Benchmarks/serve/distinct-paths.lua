-- wrk script of nuke-bench's `serve` section: every request asks for a path no other request of the run asks for,
-- so that no result (and no source) can come from a cache. The path is the script's argument with "{n}" replaced
-- by "<thread>x<count>": `wrk ... -s distinct-paths.lua http://127.0.0.1:PORT/ -- '/unsafe/300x0/.../a.jpg%3Fr%3D{n}'`.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

function init(args)
  template = args[1]
  count = 0
end

function request()
  count = count + 1
  local path = template:gsub("{n}", thread_id .. "x" .. count)
  return wrk.format(nil, path)
end
