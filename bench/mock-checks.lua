-- wrk script for bench/load.sh: POSTs the mock eligibility requests of the
-- file named by the first script argument (one JSON body per line) in turn,
-- with the test key in $BENCH_KEY, and counts answers other than 200.
local path = "/2024-04-01/change/medicalnetwork/eligibility/v3"
local requests, n = {}, 0
local threads = {}
bad = 0 -- global: done() reads each thread's count with thread:get

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local headers = {
    ["Authorization"] = "Key " .. os.getenv("BENCH_KEY"),
    ["Content-Type"] = "application/json",
  }
  for body in io.lines(args[1]) do
    table.insert(requests, wrk.format("POST", path, headers, body))
  end
  -- Threads start at different requests so the mix is even from the start.
  n = math.random(#requests) - 1
end

function request()
  n = n % #requests + 1
  return requests[n]
end

function response(status, headers, body)
  if status ~= 200 then
    bad = bad + 1
    if bad == 1 then
      io.stderr:write("first non-200 answer: " .. status .. " " .. body:sub(1, 300) .. "\n")
    end
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do
    total = total + t:get("bad")
  end
  io.write(string.format("non-200 answers: %d\n", total))
end
