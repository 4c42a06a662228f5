#pragma once
// Work spread over forked workers, for `poolcheck mutate --auto --jobs N`.
// The harness has one thread, so fork() is safe, and a forked worker keeps
// state between requests (its own mirror and build tree) where a fresh exec
// would start over. Requests and replies are JSON values, one line each on a
// pair of pipes per worker.
#include <cstddef>
#include <functional>
#include <vector>

#include "core/json.hpp"

namespace poolcheck::harness {

// Runs in a worker (0 .. workers-1) for each request it is handed.
using WorkerTask = std::function<Json(int worker, const Json& request)>;
// Runs in this process as each reply arrives, in the order they arrive.
using OnReply = std::function<void(std::size_t index, const Json& reply)>;

// Answers every request, at most `workers` at a time, each handed to whichever
// worker is free. The replies come back in request order. A request whose
// worker throws gets {"error": what()}; one whose worker dies gets {"error":
// "worker N exited"}, and that worker takes no more requests.
std::vector<Json> run_in_workers(int workers, const std::vector<Json>& requests, const WorkerTask& task,
                                 const OnReply& on_reply = {});

}  // namespace poolcheck::harness
